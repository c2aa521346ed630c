package io.agentlab.agui;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.rule.Rule;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Which AG-UI wire shape a turn's audit stream takes and which rule list a stream is checked against. One profile is
 * one dialect: the emitter writes it ({@link AguiEmitter}) and the checker judges it ({@link AguiStreamChecker}), so
 * a stream is never judged by the rules of a dialect it was not written in.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum AguiProfile {

    /**
     * AG-UI 1.0 exactly as {@code @ag-ui/core} 1.0.0 defines its events and {@code @ag-ui/client} 1.0.0 consumes them:
     * no field an event's definition lacks, {@code TOOL_CALL_ARGS.delta} text, tool results with their own message id,
     * ids unique within a thread, cancellation as {@code RUN_FINISHED} with outcome {@code cancelled}. The default.
     */
    AGUI_1_0("agui-1.0"),

    /**
     * The social app's variant of AG-UI: {@code threadId}/{@code runId} and {@code stage} on every event, an
     * {@code args} object on {@code TOOL_CALL_ARGS}, snake_case result fields ({@code tool_call_id},
     * {@code tool_call_args}, {@code tool_name}, {@code status}, {@code ui_schema}) and cancellation as
     * {@code RUN_ERROR} with code {@code RUN_CANCELED}. Official AG-UI clients reject it; kept for services that
     * speak it.
     */
    SOCIAL_DIALECT("social-dialect");

    private final String id;

    AguiProfile(String id) {
        this.id = id;
    }

    /** The name used in configuration and on the command line, e.g. {@code agui-1.0}. */
    public String id() {
        return id;
    }

    /** The rules a stream of this profile must keep, in catalogue order. */
    public List<Rule> rules() {
        return Arrays.stream(AguiRules.values()).filter(rule -> rule.profiles().contains(this)).map(AguiRules::rule)
                .toList();
    }

    /**
     * The profile named {@code id}.
     *
     * @throws IllegalArgumentException naming the value and the profiles that exist
     */
    public static AguiProfile fromId(String id) {
        for (AguiProfile profile : values()) {
            if (profile.id.equalsIgnoreCase(id == null ? "" : id.strip())) {
                return profile;
            }
        }
        throw new IllegalArgumentException("no AG-UI profile '" + id + "'; expected one of "
                + Arrays.stream(values()).map(AguiProfile::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
