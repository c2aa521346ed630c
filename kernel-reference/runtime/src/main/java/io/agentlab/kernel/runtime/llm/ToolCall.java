package io.agentlab.kernel.runtime.llm;

/**
 * A native tool call as the provider streamed it.
 *
 * @param id        the provider's call id
 * @param name      the provider-safe function name
 * @param arguments the arguments as JSON text (possibly invalid: the kernel judges them)
 */
public record ToolCall(String id, String name, String arguments) {
}
