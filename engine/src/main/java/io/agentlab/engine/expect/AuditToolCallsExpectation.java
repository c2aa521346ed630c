package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.execution.TurnRun;
import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.agui.AguiEvent;
import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code auditToolCalls}: what the turn's AG-UI stream says of each event, read from the events' content rather than
 * their types — the tool calls in the order they started, exactly these, each with the arguments its
 * {@code TOOL_CALL_ARGS} carried ({@code docs/design.md#audit-tool-call-lifecycle}: the event's final arguments), the
 * status of its {@code TOOL_CALL_RESULT} ({@code success}, {@code failure} or {@code partial}) and whether that result
 * carries an error ({@code docs/design.md#audit-failure-result}: a deduplicated or replayed event reports the outcome it
 * shares, one needing clarification is partial, a failure carries its error).
 *
 * <p>Both profiles' shapes are read: AG-UI 1.0 (the arguments as JSON text in {@code delta}, the result as JSON text
 * {@code {"status", "outcome", "error"?}} in {@code content}) and the social dialect (an {@code args} object,
 * {@code status} and {@code error} fields on the result, a null error meaning none).
 *
 * @param calls the expected tool calls, in start order
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record AuditToolCallsExpectation(List<ToolCall> calls, Position at) implements Expectation {

    /** The statuses a tool-call result can have (docs/design.md#audit-tool-call-lifecycle). */
    public static final Set<String> STATUSES = Set.of("success", "failure", "partial");
    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("auditToolCalls",
            Observability.seen("the tool-call events of the AG-UI stream as received"),
            AuditToolCallsExpectation::read);

    /** Copies the list. */
    public AuditToolCallsExpectation {
        calls = List.copyOf(calls);
        Objects.requireNonNull(at, "at");
    }

    /**
     * One expected tool call.
     *
     * @param name      the event name ({@code toolCallName})
     * @param arguments what its {@code TOOL_CALL_ARGS} must carry, matched on the keys written ({@link JsonMatch})
     * @param status    its result's status: {@code success}, {@code failure} or {@code partial}
     * @param error     whether its result carries an error
     * @param at        where it is written
     */
    public record ToolCall(String name, Optional<Map<String, Object>> arguments, Optional<String> status,
                           Optional<Boolean> error, Position at) {
        /**
         * Checks the parts.
         *
         * @throws IllegalArgumentException for a blank name or an unknown status
         */
        public ToolCall {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("an expected tool call needs a name");
            }
            if (status.isPresent() && !STATUSES.contains(status.get())) {
                throw new IllegalArgumentException("unknown tool-call result status '" + status.get()
                        + "'; expected one of " + EventsExpectation.sorted(STATUSES));
            }
            // in the order written, so a failure names the first argument that differs as the suite wrote them
            arguments = arguments.map(written -> Collections.unmodifiableMap(new LinkedHashMap<>(written)));
            Objects.requireNonNull(at, "at");
        }
    }

    @Override
    public String key() {
        return KIND.key();
    }

    private static Optional<Expectation> read(Node value, ExpectationReading reading) {
        List<ToolCall> calls = new ArrayList<>();
        boolean complete = true;
        for (Node item : value.items()) {
            Optional<String> name = item.text("name");
            if (name.isEmpty()) {
                complete = false;
                continue;
            }
            item.get("name").ifPresent(node -> reading.checkEvent(node, name.get()));
            try {
                calls.add(new ToolCall(name.get(), item.object("arguments"), item.text("status"), item.bool("error"),
                        item.at()));
            } catch (IllegalArgumentException e) {
                item.problem(e.getMessage());
                complete = false;
            }
        }
        return complete ? Optional.of(new AuditToolCallsExpectation(calls, value.where())) : Optional.empty();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        check(turn.result().audit(), failures);
    }

    /** The check on a stream: each way it differs from the expected tool calls, one line each. */
    void check(List<AguiEvent> audit, List<String> failures) {
        List<Observed> observed = observe(audit);
        List<String> expectedNames = calls.stream().map(ToolCall::name).toList();
        List<String> actualNames = observed.stream().map(Observed::name).toList();
        if (!expectedNames.equals(actualNames)) {
            failures.add("expected the AG-UI stream's tool calls " + expectedNames + " but it started " + actualNames);
            return;
        }
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            Observed actual = observed.get(i);
            String label = "tool call " + (i + 1) + " (" + call.name() + ", " + actual.id() + "): ";
            call.arguments().ifPresent(arguments -> {
                if (actual.args().isEmpty()) {
                    failures.add(label + "expected TOOL_CALL_ARGS carrying " + JsonMatch.write(arguments)
                            + " but it had no TOOL_CALL_ARGS");
                } else if (actual.args().get() instanceof Unparsable text) {
                    failures.add(label + "expected TOOL_CALL_ARGS carrying " + JsonMatch.write(arguments)
                            + " but its arguments are not JSON: " + text.text());
                } else {
                    JsonMatch.mismatch(arguments, actual.args().get(), "").ifPresent(mismatch -> failures.add(label
                            + "expected TOOL_CALL_ARGS carrying " + JsonMatch.write(arguments) + " but " + mismatch
                            + "; it carried " + JsonMatch.write(actual.args().get())));
                }
            });
            if (call.status().isEmpty() && call.error().isEmpty()) {
                continue;
            }
            if (actual.result().isEmpty()) {
                failures.add(label + "expected a TOOL_CALL_RESULT" + call.status().map(s -> " with status " + s)
                        .orElse("") + " but the stream has none for it");
                continue;
            }
            Map<String, Object> result = actual.result().get();
            call.status().ifPresent(status -> {
                Object have = result.get("status");
                if (!status.equals(have)) {
                    failures.add(label + "expected TOOL_CALL_RESULT status " + status + " but was " + have
                            + "; the result was " + JsonMatch.write(result));
                }
            });
            call.error().ifPresent(error -> {
                Object have = result.get("error");
                if (error && have == null) {
                    failures.add(label + "expected the TOOL_CALL_RESULT to carry an error but it carried none; the "
                            + "result was " + JsonMatch.write(result));
                } else if (!error && have != null) {
                    failures.add(label + "expected the TOOL_CALL_RESULT to carry no error but it carried "
                            + JsonMatch.write(have));
                }
            });
        }
    }

    /**
     * One tool call as the stream shows it.
     *
     * @param id     its tool-call id
     * @param name   its {@code toolCallName}
     * @param args   what its {@code TOOL_CALL_ARGS} carried (an {@link Unparsable} when that was not JSON); empty when
     *               none came
     * @param result its result: {@code status} and {@code error} (absent or null: none); empty when none came
     */
    private record Observed(String id, String name, Optional<Object> args, Optional<Map<String, Object>> result) {
    }

    /** Arguments text that is not JSON. */
    private record Unparsable(String text) {
    }

    /** The tool calls of {@code audit} in start order, read in either profile's shape. */
    private static List<Observed> observe(List<AguiEvent> audit) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, StringBuilder> deltas = new LinkedHashMap<>();
        Map<String, Object> objects = new LinkedHashMap<>();
        Map<String, Map<String, Object>> results = new LinkedHashMap<>();
        for (AguiEvent event : audit) {
            Map<String, Object> fields = event.fields();
            switch (event.type()) {
                case AguiEvent.TOOL_CALL_START -> names.putIfAbsent(event.text("toolCallId"),
                        event.text("toolCallName"));
                case AguiEvent.TOOL_CALL_ARGS -> {
                    String id = event.text("toolCallId");
                    if (fields.get("delta") instanceof String delta) {
                        deltas.computeIfAbsent(id, k -> new StringBuilder()).append(delta); // AG-UI 1.0: JSON text
                    } else if (fields.containsKey("args")) {
                        objects.put(id, fields.get("args")); // the social dialect: an object
                    }
                }
                case AguiEvent.TOOL_CALL_RESULT -> {
                    String id = event.text(fields.containsKey("toolCallId") ? "toolCallId" : "tool_call_id");
                    results.put(id, fields.get("content") instanceof String content ? content(content) : fields);
                }
                default -> {
                    // not about tool calls
                }
            }
        }
        List<Observed> observed = new ArrayList<>();
        names.forEach((id, name) -> {
            Optional<Object> args = deltas.containsKey(id) ? Optional.of(parsed(deltas.get(id).toString()))
                    : Optional.ofNullable(objects.get(id));
            observed.add(new Observed(id, name, args, Optional.ofNullable(results.get(id))));
        });
        return observed;
    }

    /** An AG-UI 1.0 result's content, JSON text of an object; anything else shows as its text under {@code content}. */
    private static Map<String, Object> content(String content) {
        if (parsed(content) instanceof Map<?, ?> map) {
            Map<String, Object> result = new LinkedHashMap<>();
            map.forEach((key, value) -> result.put(String.valueOf(key), value));
            return result;
        }
        return Map.of("content", content);
    }

    private static Object parsed(String text) {
        try {
            JsonNode node = Json.tree(text);
            return node == null || node.isMissingNode() ? new Unparsable(text)
                    : Json.MAPPER.convertValue(node, Object.class);
        } catch (JacksonException e) {
            return new Unparsable(text);
        }
    }
}
