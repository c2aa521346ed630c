/**
 * The renderers behind {@link io.agentlab.report.render.RunReports}: console tables, {@code report.md}, {@code index.html},
 * the comparison with a baseline or a previous run, and an evaluation's intervals.
 *
 * <p>Internal: not API, used by nothing outside this artifact, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.report.internal;
