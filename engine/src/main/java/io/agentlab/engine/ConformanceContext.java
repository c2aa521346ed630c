package io.agentlab.engine;

import io.agentlab.engine.internal.execution.CaseRunner;
import io.agentlab.report.metrics.MetricsReport;
import java.util.Optional;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

/**
 * What every node of one engine execution shares: the request, the settings, the case runner (set up by the engine
 * node before any suite runs), the metrics and the outcomes being collected.
 *
 * @param request  the execution request
 * @param settings the configuration
 * @param runner   runs a case in a mode; null until the engine node's {@code before}
 * @param metrics  the turn records of the run
 * @param log      every test's outcome, for the reports' results list
 * @param parts    the run this execution is a part of, when its client spread one over several executions
 */
record ConformanceContext(ExecutionRequest request, EngineOptions settings, CaseRunner runner,
                          MetricsReport metrics, RunLog log, Optional<RunInParts> parts)
        implements EngineExecutionContext {

    ConformanceContext withRunner(CaseRunner caseRunner) {
        return new ConformanceContext(request, settings, caseRunner, metrics, log, parts);
    }
}
