/**
 * Per-mode metrics by the fair-comparison contract ({@link io.agentlab.engine.internal.metrics.ModeMetrics}) and the
 * {@code metrics.json} report ({@link io.agentlab.engine.internal.metrics.MetricsReport}).
 *
 * <p>Internal: not API, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.engine.internal.metrics;
