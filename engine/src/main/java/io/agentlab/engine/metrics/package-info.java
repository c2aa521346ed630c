/**
 * Per-mode metrics by the fair-comparison contract ({@link io.agentlab.engine.metrics.ModeMetrics}) and the
 * {@code metrics.json} report ({@link io.agentlab.engine.metrics.MetricsReport}).
 */
package io.agentlab.engine.metrics;
