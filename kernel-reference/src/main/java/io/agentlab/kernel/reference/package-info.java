/**
 * The reference event kernel ({@code docs/design.md#kernel-pipeline}, {@code docs/design.md#batch-shared-executor}): a
 * flat {@link io.agentlab.kernel.reference.EventRegistry}, the per-event resolution pipeline, the shared batch executor and
 * result-policy aggregation, assembled by {@link io.agentlab.kernel.reference.ReferenceKernel}. Nothing here knows a
 * built-in event by name.
 */
package io.agentlab.kernel.reference;
