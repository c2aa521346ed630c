package io.agentlab.engine.expect;

import io.agentlab.engine.execution.TurnRun;
import io.agentlab.engine.suite.Position;
import java.util.List;

/** One checkable clause of a turn's {@code expect} block, written under its kind's key. */
public interface Expectation {

    /** The key it is written under, e.g. {@code events}. */
    String key();

    /** Where it is written ({@link Position#UNKNOWN} when built in code). */
    Position at();

    /**
     * Adds one line to {@code failures} for each way {@code turn} breaks it, saying what was expected against what
     * happened; the engine prefixes the turn and the position.
     */
    void check(TurnRun turn, List<String> failures);
}
