package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.JsonValues;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Native tool calls → ordered proposals. Arguments that are not a JSON object become empty proposals, noted. */
@API(status = INTERNAL, since = "0.1")
public final class ToolCallEvents {

    private ToolCallEvents() {
    }

    /** The proposals, in call order. */
    public static List<ProposedEvent> of(List<ToolCall> calls, ToolNames names) {
        List<ProposedEvent> events = new ArrayList<>();
        for (ToolCall call : calls) {
            Map<String, Object> arguments = Map.of();
            String error = null;
            String raw = call.arguments() == null ? "" : call.arguments();
            if (!raw.isBlank()) {
                try {
                    JsonNode node = Json.tree(raw);
                    if (node != null && node.isObject()) {
                        arguments = JsonValues.copyObject(Json.object(node));
                    } else {
                        error = "tool-call arguments are not a JSON object";
                    }
                } catch (JacksonException e) {
                    error = "tool-call arguments are not valid JSON: " + e.getOriginalMessage();
                } catch (IllegalArgumentException e) {
                    error = "tool-call arguments are not usable: " + e.getMessage(); // e.g. nested too deep
                }
            }
            events.add(new ProposedEvent(call.id(), names.eventName(call.name()), arguments, raw, error));
        }
        return events;
    }
}
