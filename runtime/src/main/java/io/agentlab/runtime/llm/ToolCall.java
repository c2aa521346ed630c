package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A native tool call as the provider streamed it.
 *
 * @param id        the provider's call id
 * @param name      the provider-safe function name
 * @param arguments the arguments as JSON text (possibly invalid: the kernel judges them)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ToolCall(String id, String name, String arguments) {
}
