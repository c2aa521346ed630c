/**
 * The event-kernel SPI ({@code docs/design.md#kernel-definition}): what a plugin declares ({@link
 * io.agentlab.kernel.api.EventDefinition}), what a model protocol hands the kernel ({@link
 * io.agentlab.kernel.api.EventBatch}), and what the kernel hands back ({@link io.agentlab.kernel.api.EventResult},
 * {@link io.agentlab.kernel.api.ContinuationDecision}).
 *
 * <p>Arguments, payloads and schemas are plain JSON-shaped Java values ({@code Map<String, Object>}, {@code List},
 * {@code String}, {@code Number}, {@code Boolean}, {@code null}) so this package depends on nothing but the JDK (and
 * apiguardian's {@code @API}, the annotation-only jar JUnit's API brings too) and a plugin author pulls in nothing
 * else.
 */
package io.agentlab.kernel.api;
