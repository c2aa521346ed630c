package io.agentlab.report.controls;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.runtime.protocol.InvocationProtocol;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.tokens.PromptTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The capability-growth curve: ChatAgent's first-request prompt tokens for 0..N enabled events in each mode, counted
 * ({@link PromptTokens}) over the request the mode's {@link InvocationProtocol} builds (catalog lines in {@code dual_agent},
 * full tool schemas in {@code chat_agent_tools}); no runtime or kernel is built. The factory's events come first, then
 * generated synthetic definitions of a typical size.
 */
@API(status = INTERNAL, since = "0.1")
public final class CapabilityGrowth {

    /** The user text of the measured request. */
    public static final String PROBE_TEXT = "turn it up a bit";

    /**
     * One point of the curve.
     *
     * @param events     enabled events
     * @param dualAgent  prompt tokens in {@code dual_agent}
     * @param chatAgentTools prompt tokens in {@code chat_agent_tools}
     */
    public record Point(int events, int dualAgent, int chatAgentTools) {
    }

    private CapabilityGrowth() {
    }

    /** The curve from 0 to {@code max} events. */
    public static List<Point> measure(List<EventDefinition> offered, int max, String model, String persona) {
        List<EventDefinition> all = new ArrayList<>(offered);
        for (int i = 1; all.size() < max; i++) {
            all.add(synthetic(i));
        }
        List<Point> points = new ArrayList<>();
        for (int n = 0; n <= max; n++) {
            points.add(new Point(n, tokens(all.subList(0, n), InvocationMode.DUAL_AGENT, model, persona),
                    tokens(all.subList(0, n), InvocationMode.CHAT_AGENT_TOOLS, model, persona)));
        }
        return points;
    }

    private static int tokens(List<EventDefinition> definitions, InvocationMode mode, String model, String persona) {
        InvocationProtocol protocol = InvocationProtocol.of(RuntimeConfig.of(mode, "none", model, persona),
                definitions);
        return PromptTokens.count(protocol.firstRequest(List.of(), PROBE_TEXT));
    }

    /** A synthetic capability with a schema of typical size: three described properties. */
    static EventDefinition synthetic(int index) {
        String name = String.format(Locale.ROOT, "synthetic.capability.e%02d", index);
        return EventDefinition.builder(name).schemaVersion("1.0.0")
                .description("Synthetic capability " + index + ": adjust a household setting for the user.")
                .argumentsSchema("""
                        {"type":"object","properties":{
                          "target":{"type":"string","description":"which device or setting to change"},
                          "level":{"type":"integer","minimum":0,"maximum":100,"description":"the new level, 0-100"},
                          "mode":{"type":"string","enum":["set","increase","decrease"],"description":"how to change it"}},
                         "required":["target","mode"],"additionalProperties":false}""")
                .resolver(input -> Resolution.of(Map.of()))
                .handler(invocation -> HandlerResult.success(Map.of()))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS).build();
    }
}
