package io.agentlab.plugins.corpus;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.ReferenceKernel;
import io.agentlab.plugins.calendar.CalendarPlugin;
import io.agentlab.plugins.calendar.InMemoryCalendar;
import io.agentlab.plugins.corpus.CorpusFile.Case;
import io.agentlab.plugins.corpus.CorpusFile.Expectation;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs corpus cases through the reference kernel with the real plugin (resolver, normalizer, schema and validator,
 * in-memory port) and no EventAgent fallback, and judges each against its expectation: what the deterministic
 * pipeline alone makes of the words.
 */
final class CorpusRunner implements AutoCloseable {

    /** How a case ended. */
    enum Kind {
        /** The expected arguments executed, or the expected question was asked. */
        CORRECT,
        /** A question where an answer was expected: safe, but a gap. */
        ASKED,
        /** Executed with values the user did not ask for, or a request was silently lost. */
        WRONG
    }

    /**
     * A judged case.
     *
     * @param kind   the verdict
     * @param detail what happened, for a failure message
     */
    record Verdict(Kind kind, String detail) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final AtomicInteger TURNS = new AtomicInteger();

    private final EventDefinition definition;
    private final ReferenceKernel kernel;
    private final Schema argumentsSchema;

    CorpusRunner(String event) {
        EventPlugin plugin = switch (event) {
            case VolumePlugin.NAME -> new VolumePlugin(new InMemoryDeviceVolume());
            case CalendarPlugin.NAME -> new CalendarPlugin(new InMemoryCalendar());
            default -> throw new IllegalArgumentException("no corpus runner for " + event);
        };
        this.definition = plugin.definition();
        this.kernel = ReferenceKernel.builder().register(plugin).build();
        this.argumentsSchema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(definition.argumentsSchema());
    }

    /** Problems with the expectation itself (not valid for the event's schema), empty when it is well-formed. */
    List<String> checkExpectation(Case c) {
        List<String> problems = new ArrayList<>();
        for (Expectation.Arguments arguments : argumentsOf(c.expect())) {
            for (Map<String, Object> variant : variants(expected(arguments, c))) {
                argumentsSchema.validate(JSON.valueToTree(variant))
                        .forEach(error -> problems.add(error.getInstanceLocation() + ": " + error.getMessage()));
            }
        }
        return problems;
    }

    /** The case in {@code dual_agent} mode: the model names the event once per request, the words do the rest. */
    Verdict dual(Case c) {
        int count = c.expect() instanceof Expectation.Requests requests ? requests.requests().size() : 1;
        List<Map<String, Object>> proposals = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            proposals.add(Map.of());
        }
        return judge(c, run(c, InvocationMode.DUAL_AGENT, proposals));
    }

    /**
     * A multi-request case in {@code chat_agent_tools} mode, the model proposing each request's expected arguments
     * (the first accepted value of each field).
     */
    Verdict tools(Case c) {
        List<Map<String, Object>> proposals = new ArrayList<>();
        for (Expectation.Arguments request : ((Expectation.Requests) c.expect()).requests()) {
            proposals.add(variants(expected(request, c)).get(0));
        }
        return judge(c, run(c, InvocationMode.CHAT_AGENT_TOOLS, proposals));
    }

    private List<EventResult> run(Case c, InvocationMode mode, List<Map<String, Object>> proposals) {
        Locale locale = c.say().codePoints().anyMatch(cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN)
                ? Locale.SIMPLIFIED_CHINESE : Locale.ENGLISH;
        TurnContext turn = new TurnContext(new EventScope("corpus", "turn-" + TURNS.incrementAndGet()),
                c.clock().toInstant(), c.zone(), locale, c.say(), List.of());
        EventBatch.Builder batch = EventBatch.builder(turn, mode);
        proposals.forEach(arguments -> batch.event(definition.name(), arguments));
        BatchResult result = kernel.execute(batch.build());
        return result.results();
    }

    private Verdict judge(Case c, List<EventResult> results) {
        List<Map<String, Object>> executed = new ArrayList<>();
        int merged = 0;
        for (EventResult result : results) {
            if (result.outcome() instanceof EventOutcome.Succeeded) {
                executed.add(result.arguments());
            } else if (result.outcome() instanceof EventOutcome.Deduplicated) {
                merged++;
            }
        }
        String seen = describe(results);
        Expectation expect = c.expect();
        if (expect instanceof Expectation.Requests requests) {
            List<Map<String, Object>> open = new ArrayList<>();
            requests.requests().forEach(request -> open.add(expected(request, c)));
            for (Map<String, Object> arguments : executed) {
                Map<String, Object> match = open.stream().filter(e -> matches(e, arguments)).findFirst().orElse(null);
                if (match == null) {
                    return new Verdict(Kind.WRONG, "executed " + arguments + " which is none of the requests "
                            + requests.requests() + "; " + seen);
                }
                open.remove(match);
            }
            if (merged > 0) {
                return new Verdict(Kind.WRONG, merged + " request(s) merged into another and lost; " + seen);
            }
            return new Verdict(open.isEmpty() ? Kind.CORRECT : Kind.ASKED, seen);
        }
        if (executed.size() > 1) {
            return new Verdict(Kind.WRONG, "executed more than once; " + seen);
        }
        Map<String, Object> actual = executed.isEmpty() ? null : executed.get(0);
        return single(expect, actual, c, seen);
    }

    private Verdict single(Expectation expect, Map<String, Object> actual, Case c, String seen) {
        if (expect instanceof Expectation.Clarification) {
            return actual == null ? new Verdict(Kind.CORRECT, seen) : new Verdict(Kind.WRONG, "expected a question; " + seen);
        }
        if (expect instanceof Expectation.Arguments arguments) {
            return actual == null ? new Verdict(Kind.ASKED, seen)
                    : matches(expected(arguments, c), actual) ? new Verdict(Kind.CORRECT, seen)
                    : new Verdict(Kind.WRONG, "expected " + expected(arguments, c) + "; " + seen);
        }
        Expectation.AnyOf anyOf = (Expectation.AnyOf) expect;
        boolean right = anyOf.options().stream().anyMatch(option -> single(option, actual, c, seen).kind() == Kind.CORRECT);
        return right ? new Verdict(Kind.CORRECT, seen) : actual == null ? new Verdict(Kind.ASKED, seen)
                : new Verdict(Kind.WRONG, "expected any of " + anyOf.options() + "; " + seen);
    }

    /** The expected fields with the session's timezone filled in for an event that has one. */
    private Map<String, Object> expected(Expectation.Arguments arguments, Case c) {
        Map<String, Object> fields = new LinkedHashMap<>(arguments.fields());
        if (definition.argumentsSchema().contains("\"timezone\"")) {
            fields.putIfAbsent("timezone", c.zone().getId());
        }
        return fields;
    }

    private static boolean matches(Map<String, Object> expected, Map<String, Object> actual) {
        if (!expected.keySet().equals(actual.keySet())) {
            return false;
        }
        for (Map.Entry<String, Object> field : expected.entrySet()) {
            Object value = actual.get(field.getKey());
            List<?> accepted = field.getValue() instanceof List<?> list ? list : List.of(field.getValue());
            if (accepted.stream().noneMatch(option -> same(option, value))) {
                return false;
            }
        }
        return true;
    }

    private static boolean same(Object expected, Object actual) {
        if (expected instanceof Number a && actual instanceof Number b) {
            return a.longValue() == b.longValue();
        }
        return Objects.equals(expected, actual);
    }

    /** Every combination is too many; one map per accepted value of each field is enough to check well-formedness. */
    private static List<Map<String, Object>> variants(Map<String, Object> fields) {
        List<Map<String, Object>> variants = new ArrayList<>();
        Map<String, Object> first = new LinkedHashMap<>();
        fields.forEach((key, value) -> first.put(key, value instanceof List<?> list ? list.get(0) : value));
        variants.add(first);
        fields.forEach((key, value) -> {
            if (value instanceof List<?> list) {
                for (Object item : list.subList(1, list.size())) {
                    Map<String, Object> variant = new LinkedHashMap<>(first);
                    variant.put(key, item);
                    variants.add(variant);
                }
            }
        });
        return variants;
    }

    private static List<Expectation.Arguments> argumentsOf(Expectation expect) {
        if (expect instanceof Expectation.Arguments arguments) {
            return List.of(arguments);
        }
        if (expect instanceof Expectation.AnyOf anyOf) {
            return anyOf.options().stream().flatMap(option -> argumentsOf(option).stream()).toList();
        }
        return expect instanceof Expectation.Requests requests ? requests.requests() : List.of();
    }

    private static String describe(List<EventResult> results) {
        List<String> parts = new ArrayList<>();
        for (EventResult result : results) {
            String outcome = result.outcome() instanceof EventOutcome.NeedsClarification q ? "asked \"" + q.question() + "\""
                    : result.outcome() instanceof EventOutcome.Rejected r ? "rejected: " + r.message() : result.status();
            parts.add(result.eventId() + " " + outcome + " " + result.arguments());
        }
        return "got " + String.join("; ", parts);
    }

    @Override
    public void close() {
        kernel.close();
    }
}
