package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.runtime.CallRecord;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code followUpRequest}: what the one follow-up ChatAgent request carried, read from the request body actually sent.
 * {@code results} are the compact result items in it, in order, each matched on the keys written ({@code event},
 * {@code status}, {@code error}, {@code result}, {@code question}, ...); {@code contains} and {@code notContains} look
 * at the text of its messages.
 *
 * <p>The items travel differently in the two modes ({@code docs/design.md#context-compact-results}): in
 * {@code chat_agent_tools} one {@code tool} message per event, in {@code dual_agent} a JSON list after
 * {@value #RESULTS_MARK} in the last system message; an item is one that names its {@code event}.
 *
 * @param results     the expected items, in order (empty: unchecked)
 * @param contains    substrings the messages' text must contain
 * @param notContains substrings it must not contain
 * @param at          where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record FollowUpRequestExpectation(Optional<List<Map<String, Object>>> results, List<String> contains,
                                         List<String> notContains, Position at) implements Expectation {

    /** Where the dual_agent follow-up instruction lists the results. */
    public static final String RESULTS_MARK = "Results: ";
    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("followUpRequest",
            Observability.seen("the follow-up request as the provider replay received it"),
            FollowUpRequestExpectation::read);

    /** Copies the lists. */
    public FollowUpRequestExpectation {
        results = results.map(List::copyOf);
        contains = List.copyOf(contains);
        notContains = List.copyOf(notContains);
    }

    @Override
    public String key() {
        return KIND.key();
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        Optional<List<Map<String, Object>>> results = Optional.empty();
        if (value.has("results")) {
            List<Map<String, Object>> items = new ArrayList<>();
            for (Node item : value.list("results")) {
                item.object().ifPresent(object -> {
                    if (object.get("event") instanceof String name) {
                        item.get("event").ifPresent(node -> reading.checkEvent(node, name));
                    }
                    items.add(object);
                });
            }
            results = Optional.of(items);
        }
        return Optional.of(new FollowUpRequestExpectation(results, value.strings("contains"),
                value.strings("notContains"), value.where()));
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        List<CallRecord> followUps = turn.result().calls().stream().filter(c -> c.role() == CallRole.FOLLOW_UP).toList();
        if (followUps.isEmpty()) {
            failures.add("expected a follow-up request, but no follow-up call was made");
            return;
        }
        JsonNode body;
        try {
            body = Json.tree(followUps.get(0).requestBody());
        } catch (JacksonException e) {
            failures.add("the follow-up request body is not JSON: " + e.getOriginalMessage());
            return;
        }
        StringBuilder text = new StringBuilder();
        List<Object> items = new ArrayList<>();
        for (JsonNode message : body.path("messages")) {
            String content = message.path("content").asString("");
            text.append(content).append('\n');
            String role = message.path("role").asString("");
            if (role.equals("tool")) {
                items.addAll(parsed(content));
            } else if (role.equals("system") && content.contains(RESULTS_MARK)) {
                items.addAll(parsed(content.substring(content.lastIndexOf(RESULTS_MARK) + RESULTS_MARK.length())));
            }
        }
        List<Object> named = items.stream().filter(item -> item instanceof Map<?, ?> map && map.containsKey("event"))
                .toList();
        results.ifPresent(expected -> JsonMatch.mismatch(expected, named, "results").ifPresent(mismatch ->
                failures.add("expected the follow-up request to carry " + JsonMatch.write(expected) + " but " + mismatch
                        + " (it carried " + JsonMatch.write(named) + ")")));
        for (String part : contains) {
            if (!text.toString().contains(part)) {
                failures.add("expected the follow-up request to contain \"" + part + "\" but it did not");
            }
        }
        for (String part : notContains) {
            if (text.toString().contains(part)) {
                failures.add("expected the follow-up request not to contain \"" + part + "\" but it did");
            }
        }
    }

    /** The JSON object or the objects of the JSON list in {@code text}; nothing when it is neither. */
    private static List<Object> parsed(String text) {
        try {
            JsonNode node = Json.tree(text.strip());
            List<Object> items = new ArrayList<>();
            if (node != null && node.isObject()) {
                items.add(Json.object(node));
            } else if (node != null && node.isArray()) {
                for (JsonNode item : node) {
                    if (item.isObject()) {
                        items.add(Json.object(item));
                    }
                }
            }
            return items;
        } catch (JacksonException e) {
            return List.of();
        }
    }
}
