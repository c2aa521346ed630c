package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * {@code error}: the error code the turn must end with (e.g. {@code provider_http_429}). A turn whose expectations
 * name no error anywhere must end without one ({@link #NONE}); a failure then quotes what the replay said.
 *
 * @param code the expected code; empty: no error
 * @param at   where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record ErrorExpectation(Optional<String> code, Position at) implements Expectation {

    /** The implicit expectation of every turn that names no error. */
    public static final ErrorExpectation NONE = new ErrorExpectation(Optional.empty(), Position.UNKNOWN);
    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("error",
            Observability.seen("`RUN_ERROR.code`; `RUN_FINISHED` with outcome `cancelled` reads as "
            + "`RUN_CANCELED`"),
            (value, reading) -> value.text()
            .map(code -> new ErrorExpectation(Optional.of(code), value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(ObservedTurn turn, List<String> failures) {
        Optional<String> actual = turn.result().error();
        if (!actual.equals(code)) {
            failures.add("expected " + code.map(e -> "error " + e).orElse("no error") + " but the turn ended with "
                    + actual.map(e -> "error " + e).orElse("no error") + (turn.replayProblems().isEmpty() ? ""
                    : "; the replay said: " + String.join("; ", turn.replayProblems()))
                    + (noModelCall(turn) ? NO_PROVIDER_CALL : ""));
        }
    }

    /**
     * Over the wire, what a turn that ended with a provider error ({@code provider_...}) without one model call the
     * kit's provider served says: a runtime that sends its calls elsewhere fails every turn this way, and the code
     * alone does not say where to look (docs/wire.md#no-provider-call).
     */
    static final String NO_PROVIDER_CALL = "; the kit's provider served no model call in this turn: the runtime's "
            + "model calls must go to the AGENTLAB_PROVIDER_BASE_URL the kit gives it (docs/wire.md#no-provider-call)";

    /** Whether {@code turn}, over the wire, ended with a provider error and the kit's provider served it no call. */
    private static boolean noModelCall(ObservedTurn turn) {
        return turn.wireSight().isPresent() && turn.result().calls().isEmpty()
                && turn.result().error().filter(code -> code.startsWith("provider_")).isPresent();
    }
}
