package io.agentlab.runner;

import java.util.Optional;

/**
 * One test of a run as {@code results.json} records it.
 *
 * @param id         the JUnit unique id, stable across runs ({@code [engine:agentlab-conformance]/[suite:s]/[case:c]/[mode:dual_agent]})
 * @param kind       {@code mode}, {@code parity} or {@code gate}
 * @param suite      the suite id (empty for a gate)
 * @param caseId     the case id (empty for a gate)
 * @param mode       {@code dual_agent}, {@code chat_agent_tools}, {@code parity}, or the gate's id
 * @param name       the display name
 * @param status     how it ended
 * @param durationMs measured wall time of the test, in milliseconds
 * @param message    why it failed, was aborted or skipped
 */
public record TestOutcome(String id, String kind, Optional<String> suite, Optional<String> caseId, String mode,
                          String name, Status status, double durationMs, Optional<String> message) {

    /** How a test ended. */
    public enum Status {
        /** It passed. */
        PASSED,
        /** An expectation, a parity check or a gate failed. */
        FAILED,
        /** It started and could not finish (cancelled, or parity without both runs). */
        ABORTED,
        /** It did not run, saying why. */
        SKIPPED;

        /** The lower-case name used in {@code results.json}. */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Whether this test counts against the run (failed or aborted). */
    public boolean broken() {
        return status == Status.FAILED || status == Status.ABORTED;
    }

    /** The unique id of the case this test belongs to, if it belongs to one. */
    public Optional<String> caseUniqueId() {
        int end = id.indexOf("]/[mode:");
        end = end < 0 ? id.indexOf("]/[parity:") : end;
        return end < 0 ? Optional.empty() : Optional.of(id.substring(0, end + 1));
    }
}
