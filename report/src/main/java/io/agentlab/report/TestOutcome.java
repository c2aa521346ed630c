package io.agentlab.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import tools.jackson.databind.JsonNode;

/**
 * One test of a run and how it ended: what the report's results list shows, and what a machine-readable results file
 * records. Built the same way from the engine's own nodes and from a Launcher listener's {@code TestIdentifier}s
 * ({@link #of}), so both agree on what a test is called and where it belongs.
 *
 * @param id         the JUnit unique id, stable across runs ({@code [engine:agentlab-conformance]/[suite:s]/[case:c]/[mode:dual_agent]})
 * @param kind       {@code mode}, {@code parity}, {@code gate}, or {@code container} for a failed suite or case
 * @param suite      the suite id (empty for a gate)
 * @param caseId     the case id (empty for a gate)
 * @param mode       {@code dual_agent}, {@code chat_agent_tools}, {@code parity}, or the gate's id
 * @param name       the display name
 * @param tags       the suite's and the case's tags
 * @param status     how it ended
 * @param durationMs measured wall time of the test, in milliseconds
 * @param message    why it failed, was aborted or skipped
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TestOutcome(String id, String kind, Optional<String> suite, Optional<String> caseId, String mode,
                          String name, List<String> tags, Status status, double durationMs, Optional<String> message) {

    /** Copies the tags. */
    public TestOutcome {
        tags = List.copyOf(tags);
    }

    /** How a test ended. */
    public enum Status {
        /** An expectation, a parity check or a gate failed. */
        FAILED,
        /** It started and could not finish (cancelled, or parity without both runs). */
        ABORTED,
        /** It did not run, saying why. */
        SKIPPED,
        /** It passed. */
        PASSED;

        /** The lower-case name, as files write it. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * The status a file names by its {@linkplain #wireName() wire name}, in any letter case.
         *
         * @throws IllegalArgumentException when {@code wireName} names none, listing those it could name
         */
        public static Status fromWireName(String wireName) {
            for (Status status : values()) {
                if (status.wireName().equalsIgnoreCase(wireName)) {
                    return status;
                }
            }
            throw new IllegalArgumentException("unknown test status '" + wireName + "' (one of "
                    + Arrays.stream(values()).map(Status::wireName).collect(Collectors.joining(", ")) + ")");
        }

        /** The status of a finished test. */
        public static Status of(TestExecutionResult result) {
            return switch (result.getStatus()) {
                case SUCCESSFUL -> PASSED;
                case ABORTED -> ABORTED;
                case FAILED -> FAILED;
            };
        }
    }

    /** Whether it counts against the run (failed or aborted). */
    public boolean broken() {
        return status == Status.FAILED || status == Status.ABORTED;
    }

    /**
     * The test as {@code results.json} lists it: each component under its name ({@code caseId} as {@code case}), the
     * status by its {@linkplain Status#wireName() wire name}, an empty optional as {@code null}.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", id);
        entry.put("kind", kind);
        entry.put("suite", suite.orElse(null));
        entry.put("case", caseId.orElse(null));
        entry.put("mode", mode);
        entry.put("name", name);
        entry.put("tags", tags);
        entry.put("status", status.wireName());
        entry.put("durationMs", durationMs);
        entry.put("message", message.orElse(null));
        return entry;
    }

    /**
     * A test read back from what {@link #toMap()} wrote. Files written before tags were recorded have none.
     *
     * @throws IllegalArgumentException when a field this kit writes is missing or not one it writes
     */
    public static TestOutcome fromJson(JsonNode test) {
        List<String> tags = new ArrayList<>();
        test.path("tags").forEach(tag -> tags.add(tag.asString()));
        return new TestOutcome(text(test, "id"), text(test, "kind"), optional(test, "suite"), optional(test, "case"),
                text(test, "mode"), text(test, "name"), tags,
                Status.fromWireName(text(test, "status")), test.path("durationMs").asDouble(),
                optional(test, "message"));
    }

    private static String text(JsonNode node, String field) {
        if (!node.path(field).isString()) {
            throw new IllegalArgumentException("a test has no \"" + field + "\"");
        }
        return node.path(field).asString();
    }

    private static Optional<String> optional(JsonNode node, String field) {
        return node.path(field).isString() ? Optional.of(node.path(field).asString()) : Optional.empty();
    }

    /** The unique id of the case it belongs to, if it belongs to one. */
    public Optional<String> caseUniqueId() {
        return caseId.map(c -> id.substring(0, id.indexOf("[case:" + c + "]") + "[case:".length() + c.length() + 1));
    }

    /**
     * An outcome from what any JUnit listener sees of a test: its unique id, display name, whether it is a test (not a
     * container) and its tags.
     */
    public static TestOutcome of(UniqueId id, String name, boolean test, Collection<String> tags, Status status,
                                 double durationMs, Optional<String> message) {
        List<UniqueId.Segment> segments = id.getSegments();
        UniqueId.Segment last = segments.get(segments.size() - 1);
        String kind = test ? last.getType() : "container";
        String mode = switch (kind) {
            case "mode", "gate" -> last.getValue();
            case "parity" -> "parity";
            default -> "";
        };
        return new TestOutcome(id.toString(), kind, value(segments, "suite"), value(segments, "case"), mode, name,
                List.copyOf(tags), status, Math.round(durationMs * 1000) / 1000.0, message);
    }

    /**
     * What a failure says: the throwable's message, or its type when it has none, then one {@code caused by:} line per
     * cause. The causes matter where the throwable only wraps: JUnit reports an engine that threw (out of memory while
     * writing the report, say) as "TestEngine with ID '…' failed to execute tests", with the reason in the cause.
     */
    public static Optional<String> message(TestExecutionResult result) {
        return result.getThrowable().map(TestOutcome::message);
    }

    private static String message(Throwable thrown) {
        StringBuilder text = new StringBuilder(thrown.getMessage() == null ? thrown.toString() : thrown.getMessage());
        // at most 8 causes, and none twice: a cause chain can be long or (through initCause) a cycle
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        seen.add(thrown);
        for (Throwable cause = thrown.getCause(); cause != null && seen.add(cause) && seen.size() <= 9;
             cause = cause.getCause()) {
            text.append("\ncaused by: ").append(cause);
        }
        return text.toString();
    }

    private static Optional<String> value(List<UniqueId.Segment> segments, String type) {
        return segments.stream().filter(s -> type.equals(s.getType())).map(UniqueId.Segment::getValue).findFirst();
    }
}
