/**
 * The report's control measurements, made beside the cases rather than drawn from them: the all-disabled/all-enabled
 * control matrix ({@link io.agentlab.report.controls.ControlMatrix}) and the capability-growth curve
 * ({@link io.agentlab.report.controls.CapabilityGrowth}). The engine starts them and hands their results to
 * {@link io.agentlab.report.render.RunReports} (docs/performance.md#report-parts).
 *
 * <p>Internal to the kit: used by the engine, not API for users ({@code docs/api.md#report}).
 */
package io.agentlab.report.controls;
