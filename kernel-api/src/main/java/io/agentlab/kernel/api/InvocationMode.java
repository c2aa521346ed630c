package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import org.apiguardian.api.API;

/** The two capability-invocation modes under comparison ({@code docs/design.md#modes-two-modes}). */
@API(status = EXPERIMENTAL, since = "0.1")
public enum InvocationMode {
    /**
     * Compact catalog in the prompt, hidden event block after the visible reply, arguments from the shared resolvers.
     */
    DUAL_AGENT("dual_agent"),
    /** Every enabled schema as a provider tool; the model emits native tool calls with proposed arguments. */
    CHAT_AGENT_TOOLS("chat_agent_tools");

    private final String wireName;

    InvocationMode(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in configuration, suites and reports ({@code dual_agent}, {@code chat_agent_tools}). */
    public String wireName() {
        return wireName;
    }

    /**
     * Parses a wire name.
     *
     * @throws IllegalArgumentException naming the accepted values when {@code name} is not one of them
     */
    public static InvocationMode fromWireName(String name) {
        return Arrays.stream(values())
                .filter(mode -> mode.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown invocation mode '" + name + "'; expected one of dual_agent, chat_agent_tools"));
    }
}
