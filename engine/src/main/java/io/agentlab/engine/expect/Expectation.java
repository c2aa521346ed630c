package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import java.util.List;
import org.apiguardian.api.API;

/** One checkable clause of a turn's {@code expect} block, written under its kind's key. */
@API(status = INTERNAL, since = "0.1")
public interface Expectation {

    /** The key it is written under, e.g. {@code events}. */
    String key();

    /** Where it is written ({@link Position#UNKNOWN} when built in code). */
    Position at();

    /**
     * Adds one line to {@code failures} for each way {@code turn} breaks it, saying what was expected against what
     * happened; the engine prefixes the turn and the position.
     */
    void check(ObservedTurn turn, List<String> failures);
}
