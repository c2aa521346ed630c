package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What the kernel knows about the turn that produced a batch: resolvers read the user's words and resolve relative
 * phrases against {@link #requestedAt()} in {@link #timezone()}; confirmations are rendered in {@link #locale()}.
 *
 * @param scope       session and turn
 * @param requestedAt the instant the user's request was captured; "tomorrow" is relative to it, never to "now"
 * @param timezone    the session's timezone
 * @param locale      the user's language, for deterministic confirmations
 * @param userText    the current user utterance
 * @param history     earlier visible messages, oldest first, excluding {@code userText}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TurnContext(
        EventScope scope,
        Instant requestedAt,
        ZoneId timezone,
        Locale locale,
        String userText,
        List<ConversationMessage> history) {

    /** Rejects nulls and copies the history. */
    public TurnContext {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(requestedAt, "requestedAt");
        Objects.requireNonNull(timezone, "timezone");
        Objects.requireNonNull(locale, "locale");
        Objects.requireNonNull(userText, "userText");
        history = List.copyOf(history);
    }

    /** A turn without earlier history. */
    public static TurnContext of(EventScope scope, Instant requestedAt, ZoneId timezone, Locale locale, String userText) {
        return new TurnContext(scope, requestedAt, timezone, locale, userText, List.of());
    }

    /** The last {@code count} history messages (the "smallest relevant slice" an EventAgent fallback sees). */
    public List<ConversationMessage> recentHistory(int count) {
        int from = Math.max(0, history.size() - Math.max(0, count));
        return history.subList(from, history.size());
    }
}
