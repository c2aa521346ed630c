package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.llm.CallRole;
import java.util.Arrays;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How a suite spells a model call's role: {@code chat}, {@code eventAgent} or {@code followUp}. Here, with the other
 * words of the suite format, so the {@code calls} expectation and the suite reader share it.
 */
@API(status = INTERNAL, since = "0.1")
public final class RoleNames {

    private RoleNames() {
    }

    /** The role a suite names {@code chat}, {@code eventAgent} or {@code followUp}. */
    public static Optional<CallRole> role(String name) {
        return Arrays.stream(CallRole.values()).filter(role -> roleName(role).equals(name)).findFirst();
    }

    /** How a suite names the role: {@code chat}, {@code eventAgent} or {@code followUp}. */
    public static String roleName(CallRole role) {
        return switch (role) {
            case CHAT -> "chat";
            case EVENT_AGENT -> "eventAgent";
            case FOLLOW_UP -> "followUp";
        };
    }
}
