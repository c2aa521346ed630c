/**
 * A run's reports, rendered: {@link io.agentlab.report.render.RunReports} turns a run's metrics and test outcomes into
 * the files of a report folder and the console summary. The one way the engine and {@code agentlab merge} write
 * reports; the renderers behind it ({@code io.agentlab.report.internal}) are used by nothing outside this artifact
 * (docs/api.md#report, guarded in docs/development.md#guards).
 */
package io.agentlab.report.render;
