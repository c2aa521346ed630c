package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.runtime.StoredMessage;
import io.agentlab.runtime.llm.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code history}: the conversation as a history replay shows it after the turn ({@code
 * docs/design.md#context-visibility-mask}) — {@code added}, exactly the messages this turn stored, in order (a turn
 * whose first call failed stores none: nothing half-written), and {@code size}, how many the whole view holds.
 *
 * @param added the messages the turn must have added (empty: unchecked)
 * @param size  how many messages the view holds after the turn
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record HistoryExpectation(Optional<List<Message>> added, Optional<Count> size, Position at)
        implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("history",
            Observability.notObservable("the runtime's stored history is inside it"),
            HistoryExpectation::read);

    /** Copies the list. */
    public HistoryExpectation {
        added = added.map(List::copyOf);
    }

    /**
     * One expected message: its role and, optionally, its exact text or a part of it.
     *
     * @param role     {@code user} or {@code assistant}
     * @param text     the exact text
     * @param contains a part of the text
     */
    public record Message(String role, Optional<String> text, Optional<String> contains) {
        /**
         * Checks the role.
         *
         * @throws IllegalArgumentException for a role other than user or assistant, or both text and contains
         */
        public Message {
            if (!List.of("user", "assistant").contains(role)) {
                throw new IllegalArgumentException("a history message's role is user or assistant, not '" + role + "'");
            }
            if (text.isPresent() && contains.isPresent()) {
                throw new IllegalArgumentException("a history message gives its text or a part of it, not both");
            }
        }

        Optional<String> mismatch(StoredMessage stored) {
            ChatMessage message = stored.message();
            String actualRole = message.role().name().toLowerCase(Locale.ROOT);
            String content = Objects.requireNonNullElse(message.content(), "");
            if (!role.equals(actualRole)) {
                return Optional.of("expected a " + role + " message but it was " + actualRole + " \"" + content + "\"");
            }
            if (text.isPresent() && !text.get().equals(content)) {
                return Optional.of("expected \"" + text.get() + "\" but it was \"" + content + "\"");
            }
            if (contains.isPresent() && !content.contains(contains.get())) {
                return Optional.of("expected a text containing \"" + contains.get() + "\" but it was \"" + content
                        + "\"");
            }
            return Optional.empty();
        }

        String describe() {
            return role + text.map(t -> " \"" + t + "\"").or(() -> contains.map(c -> " containing \"" + c + "\""))
                    .orElse("");
        }
    }

    @Override
    public String key() {
        return KIND.key();
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        Optional<List<Message>> added = Optional.empty();
        if (value.has("added")) {
            List<Message> messages = new ArrayList<>();
            for (Node item : value.list("added")) {
                try {
                    messages.add(new Message(item.requiredText("role"), item.text("text"), item.text("contains")));
                } catch (IllegalArgumentException e) {
                    item.problem(e.getMessage());
                }
            }
            added = Optional.of(messages);
        }
        Optional<Count> size = value.get("size").flatMap(Count::read);
        if (added.isEmpty() && size.isEmpty()) {
            value.problem("history needs added, size or both");
            return Optional.empty();
        }
        return Optional.of(new HistoryExpectation(added, size, value.where()));
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        List<StoredMessage> history = turn.history();
        List<StoredMessage> stored = history.subList(Math.min(turn.historyBefore(), history.size()), history.size());
        added.ifPresent(expected -> {
            String actual = stored.stream().map(m -> m.message().role().name().toLowerCase(Locale.ROOT) + " \""
                    + m.message().content() + "\"").toList().toString();
            if (expected.size() != stored.size()) {
                failures.add("expected the turn to add " + expected.size() + " message(s) to the history "
                        + expected.stream().map(Message::describe).toList() + " but it added " + stored.size() + ": "
                        + actual);
                return;
            }
            for (int i = 0; i < expected.size(); i++) {
                int index = i;
                expected.get(i).mismatch(stored.get(i)).ifPresent(mismatch -> failures.add("history message "
                        + (turn.historyBefore() + index + 1) + " (added by this turn): " + mismatch));
            }
        });
        size.ifPresent(count -> {
            if (!count.allows(history.size())) {
                failures.add("expected " + count.describe() + " message(s) in the history after the turn but there were "
                        + history.size());
            }
        });
    }
}
