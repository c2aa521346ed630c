package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * An event as a protocol extracted it, before it enters the batch.
 *
 * @param id            the protocol's id (the tool call id in tools mode, {@code e1..} in dual mode)
 * @param name          the registered name (aliases already mapped back)
 * @param arguments     proposed arguments (empty in dual mode)
 * @param rawArguments  the arguments text as the model sent it (tools mode), for audit
 * @param argumentsParseError why the arguments text was not a JSON object, or null
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ProposedEvent(String id, String name, Map<String, Object> arguments, String rawArguments,
                            String argumentsParseError) {
}
