package io.agentlab.runtime.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A function tool offered to the model.
 *
 * @param name           provider-safe name ({@code ^[a-zA-Z0-9_-]{1,64}$})
 * @param description    what it does
 * @param parametersJson the JSON Schema of its arguments
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ToolSpec(String name, String description, String parametersJson) {
}
