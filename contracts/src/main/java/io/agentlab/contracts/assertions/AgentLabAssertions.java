package io.agentlab.contracts.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.EventResult;
import io.agentlab.runtime.TurnResult;
import io.agentlab.agui.AguiEvent;
import java.util.List;
import org.apiguardian.api.API;

/**
 * AssertJ entry points for users' own tests: {@code import static io.agentlab.contracts.assertions.AgentLabAssertions.*;}
 *
 * <pre>{@code
 * assertThat(turn).endedWithoutError().hasPolicy("complete").hasEvents("lamp.power.toggle")
 *         .event(0).succeeded().hasArgument("value", 30);
 * assertThatAudit(turn.audit()).containsTypesInOrder("RUN_STARTED", "TOOL_CALL_RESULT", "RUN_FINISHED")
 *         .passesStreamChecker(turn.runId());
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class AgentLabAssertions {

    private AgentLabAssertions() {
    }

    /** Assertions on one event's result. */
    public static EventResultAssert assertThat(EventResult actual) {
        return new EventResultAssert(actual);
    }

    /** Assertions on a turn's outcome: answers, batch, policy, calls. */
    public static TurnResultAssert assertThat(TurnResult actual) {
        return new TurnResultAssert(actual);
    }

    /** Assertions on an AG-UI audit stream. */
    public static AuditAssert assertThatAudit(List<AguiEvent> actual) {
        return new AuditAssert(actual);
    }
}
