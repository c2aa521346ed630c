/**
 * The two invocation protocols ({@code docs/design.md#modes-two-modes}): the hidden event block of {@code dual_agent}
 * (streaming-safe parser) and the native tool calls of {@code chat_agent_tools} (provider-safe tool names). Both yield
 * the same ordered proposals, which become one {@link io.agentlab.kernel.api.EventBatch}.
 */
package io.agentlab.runtime.protocol;
