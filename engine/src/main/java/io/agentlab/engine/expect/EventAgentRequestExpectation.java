package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.runtime.CallRecord;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code eventAgentRequest}: what the turn's first EventAgent fallback request carried, read from the request body
 * actually sent. {@code contains} and {@code notContains} look at the text of its messages: the instruction, the slice
 * of recent history and the utterance ({@code docs/design.md#context-event-agent}). {@code endedWith} is the error
 * code the call was recorded with, or {@value #COMPLETED} when it answered: a stalled call the kernel's fallback bound
 * ended reads {@code provider_cancelled}, one the client's own deadline ended {@code provider_deadline}
 * ({@code docs/design.md#kernel-fallback-bounded}).
 *
 * @param contains    substrings the messages' text must contain
 * @param notContains substrings it must not contain
 * @param endedWith   how the call ended, when written
 * @param at          where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record EventAgentRequestExpectation(List<String> contains, List<String> notContains,
                                           Optional<String> endedWith, Position at) implements Expectation {

    /** {@code endedWith} of a call that answered. */
    public static final String COMPLETED = "completed";


    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("eventAgentRequest",
            Observability.seen("`contains` and `notContains` on the EventAgent request the provider "
                    + "replay received")
            .except("how the runtime recorded the call's end is inside it", "endedWith"),
           
            EventAgentRequestExpectation::read);

    /** Copies the lists. */
    public EventAgentRequestExpectation {
        contains = List.copyOf(contains);
        notContains = List.copyOf(notContains);
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        return Optional.of(new EventAgentRequestExpectation(value.strings("contains"), value.strings("notContains"),
                value.text("endedWith"), value.where()));
    }

    @Override
    public String key() {
        return KIND.key();
    }

    /** Over the wire the request is judged, how its call ended never (docs/wire.md#observability). */
    @Override
    public WireJudgement overTheWire(ObservedTurn turn) {
        List<String> failures = new ArrayList<>();
        new EventAgentRequestExpectation(contains, notContains, Optional.empty(), at).check(turn, failures);
        return new WireJudgement.Judged(failures, endedWith.isEmpty() ? List.of()
                : List.of(new WireJudgement.Unseen(KIND.key(), "endedWith", KIND.observability().why("endedWith"))));
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        List<CallRecord> calls = turn.result().calls().stream().filter(c -> c.role() == CallRole.EVENT_AGENT).toList();
        if (calls.isEmpty()) {
            failures.add("expected an EventAgent request, but no EventAgent call was made");
            return;
        }
        endedWith.ifPresent(expected -> {
            String actual = calls.get(0).error().orElse(COMPLETED);
            if (!expected.equals(actual)) {
                failures.add("expected the EventAgent call to end with " + expected + " but it ended with " + actual);
            }
        });
        JsonNode body;
        try {
            body = Json.tree(calls.get(0).requestBody());
        } catch (JacksonException e) {
            failures.add("the EventAgent request body is not JSON: " + e.getOriginalMessage());
            return;
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode message : body.path("messages")) {
            text.append(message.path("role").asString("")).append(": ").append(message.path("content").asString(""))
                    .append('\n');
        }
        for (String part : contains) {
            if (!text.toString().contains(part)) {
                failures.add("expected the EventAgent request to contain \"" + part + "\" but its messages were:\n"
                        + text.toString().strip());
            }
        }
        for (String part : notContains) {
            if (text.toString().contains(part)) {
                failures.add("expected the EventAgent request not to contain \"" + part + "\" but it did");
            }
        }
    }
}
