/**
 * Per-mode metrics by the fair-comparison contract ({@link io.agentlab.report.metrics.ModeMetrics}) and the
 * {@code metrics.json} report ({@link io.agentlab.report.metrics.MetricsReport}).
 *
 * <p>Internal: not API, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.report.metrics;
