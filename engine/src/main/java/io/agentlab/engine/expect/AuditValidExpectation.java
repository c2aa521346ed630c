package io.agentlab.engine.expect;

import io.agentlab.engine.execution.TurnRun;
import io.agentlab.engine.suite.Position;
import io.agentlab.kernel.runtime.audit.AguiSseCodec;
import io.agentlab.kernel.runtime.audit.AguiStreamChecker;
import java.util.List;

/**
 * {@code auditValid}: the turn's AG-UI stream passes every stream-checker rule, as events and again as SSE frames
 * encoded and decoded. {@code false} checks nothing.
 *
 * @param valid whether the stream is checked
 * @param at    where it is written
 */
public record AuditValidExpectation(boolean valid, Position at) implements Expectation {

    /** The kind. */
    public static final ExpectationKind KIND = ExpectationKind.of("auditValid", (value, reading) -> value.bool()
            .map(valid -> new AuditValidExpectation(valid, value.where())));

    @Override
    public String key() {
        return KIND.key();
    }

    @Override
    public void check(TurnRun turn, List<String> failures) {
        if (!valid) {
            return;
        }
        String runId = turn.result().turnId();
        for (AguiStreamChecker.Violation violation : AguiStreamChecker.check(turn.result().audit(), runId)) {
            failures.add("the AG-UI stream breaks " + violation);
        }
        // the same stream as a client receives it: SSE frames with ids, event names and JSON data
        List<AguiSseCodec.Frame> frames = AguiSseCodec.decode(AguiSseCodec.encode(turn.result().audit(), 1));
        for (AguiStreamChecker.Violation violation : AguiStreamChecker.checkFrames(frames, runId)) {
            failures.add("the AG-UI SSE stream breaks " + violation);
        }
        if (!AguiSseCodec.events(frames).equals(turn.result().audit())) {
            failures.add("the AG-UI stream does not survive SSE encoding unchanged");
        }
    }
}
