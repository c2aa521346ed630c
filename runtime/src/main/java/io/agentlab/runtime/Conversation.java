package io.agentlab.runtime;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.ConversationMessage;
import io.agentlab.runtime.llm.ChatMessage;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One session's conversation: its stored messages, timezone, language and whether it has ended. A turn appends to it
 * only what the turn produced; a failed turn appends nothing.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Conversation {

    private final String sessionId;
    private final ZoneId timezone;
    private final Locale locale;
    private final List<StoredMessage> messages = new ArrayList<>();
    private final Set<String> issuedTurnIds = new HashSet<>();
    private final Map<String, Integer> runsPerTurn = new HashMap<>();
    private boolean ended;
    private int turns;

    /** A new conversation. */
    public Conversation(String sessionId, ZoneId timezone, Locale locale) {
        this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        this.timezone = Objects.requireNonNull(timezone, "timezone");
        this.locale = Objects.requireNonNull(locale, "locale");
    }

    /** The session id. */
    public String sessionId() {
        return sessionId;
    }

    /** The session timezone. */
    public ZoneId timezone() {
        return timezone;
    }

    /** The user's language. */
    public Locale locale() {
        return locale;
    }

    /** Whether a terminate event ended the session. */
    public synchronized boolean ended() {
        return ended;
    }

    synchronized void end() {
        ended = true;
    }

    synchronized String nextTurnId() {
        String id = sessionId + "-t" + (++turns);
        issuedTurnIds.add(id);
        return id;
    }

    /**
     * The AG-UI run id of the next run of {@code turnId}: the turn id itself the first time, {@code <turnId>-r<n>}
     * for the n-th retransmission. A retransmission keeps its turn id (the kernel's replay scope), but it is a new
     * AG-UI run whose message and tool-call ids must not repeat the earlier run's within the thread
     * (docs/design.md#audit-events).
     */
    synchronized String nextRunId(String turnId) {
        int run = runsPerTurn.merge(turnId, 1, Integer::sum);
        return run == 1 ? turnId : turnId + "-r" + run;
    }

    /** Whether {@code turnId} is the id of a turn this conversation has run (a retransmission may reuse it). */
    public synchronized boolean hasTurn(String turnId) {
        return issuedTurnIds.contains(turnId);
    }

    synchronized void append(List<StoredMessage> produced) {
        messages.addAll(produced);
    }

    /** Every stored message, in order. */
    public synchronized List<StoredMessage> messages() {
        return List.copyOf(messages);
    }

    /** What a history replay shows the user: messages with {@link StoredMessage#UI_HISTORY}. */
    public synchronized List<StoredMessage> historyView() {
        return messages.stream().filter(m -> m.has(StoredMessage.UI_HISTORY)).toList();
    }

    /** What is assembled into ChatAgent's context: messages with {@link StoredMessage#CONTEXT_ASSEMBLY}. */
    public synchronized List<ChatMessage> context() {
        return messages.stream().filter(m -> m.has(StoredMessage.CONTEXT_ASSEMBLY)).map(StoredMessage::message).toList();
    }

    /** The visible user/assistant text, for resolvers and the EventAgent fallback. */
    public synchronized List<ConversationMessage> visibleText() {
        List<ConversationMessage> visible = new ArrayList<>();
        for (StoredMessage stored : messages) {
            ChatMessage m = stored.message();
            if (stored.has(StoredMessage.UI_HISTORY) && m.content() != null && !m.content().isBlank()) {
                if (m.role() == ChatMessage.Role.USER) {
                    visible.add(ConversationMessage.user(m.content()));
                } else if (m.role() == ChatMessage.Role.ASSISTANT) {
                    visible.add(ConversationMessage.assistant(m.content()));
                }
            }
        }
        return visible;
    }
}
