/**
 * The reference event kernel (design §2.3, §4; seeds/004): a flat {@link io.agentlab.kernel.core.EventRegistry}, the
 * per-event resolution pipeline, the shared batch executor and result-policy aggregation, assembled by
 * {@link io.agentlab.kernel.core.ReferenceKernel}. Nothing here knows a built-in event by name.
 */
package io.agentlab.kernel.core;
