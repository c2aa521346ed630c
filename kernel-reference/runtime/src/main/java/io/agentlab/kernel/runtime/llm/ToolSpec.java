package io.agentlab.kernel.runtime.llm;

/**
 * A function tool offered to the model.
 *
 * @param name           provider-safe name ({@code ^[a-zA-Z0-9_-]{1,64}$})
 * @param description    what it does
 * @param parametersJson the JSON Schema of its arguments
 */
public record ToolSpec(String name, String description, String parametersJson) {
}
