/**
 * What a run's results are and how they become reports, for the tools that start runs and read them (the engine, the
 * runner, the command line, the Maven goal): {@link io.agentlab.report.TestOutcome}, one test and how it ended;
 * {@link io.agentlab.report.render.RunReports}, the one way a run's metrics and outcomes become a report folder and the
 * console summary; {@link io.agentlab.report.RunMetadata} and {@link io.agentlab.report.Coverage}, how the run was
 * made and what it covered. The renderers behind it live in {@code io.agentlab.report.internal}, which nothing outside
 * this artifact uses (docs/api.md#report, guarded in docs/development.md#guards).
 */
package io.agentlab.report;
