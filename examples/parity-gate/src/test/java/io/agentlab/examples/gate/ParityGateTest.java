package io.agentlab.examples.gate;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/**
 * The project's gate: a shipped suite (mode parity) and its own, in both modes, then the gates against the committed
 * {@code baseline.json}. After an intended change, accept the run's figures with {@code agentlab baseline --from
 * target/agentlab-reports/metrics.json --to baseline.json} (see the README).
 */
@Suite
@IncludeEngines(ConformanceTestEngine.ENGINE_ID)
@SelectClasspathResource("agentlab/suites/mode-parity.suite.yaml")
@SelectClasspathResource("my-suites")
@ConfigurationParameter(key = Constants.REPLAY_SPEED, value = "0")
@ConfigurationParameter(key = Constants.CONTROL_RUNS, value = "false")
@ConfigurationParameter(key = Constants.REPORT_DIRECTORY, value = "target/agentlab-reports")
@ConfigurationParameter(key = Constants.GATES_ENABLED, value = "true")
@ConfigurationParameter(key = Constants.GATES_MIN_RECALL, value = "1.0")
@ConfigurationParameter(key = Constants.GATES_MAX_TTFT_RATIO, value = "100") // replay speed 0: timing says nothing here
@ConfigurationParameter(key = Constants.BASELINE_FILE, value = "baseline.json")
@ConfigurationParameter(key = Constants.BASELINE_MAX_REGRESSION, value = "0.05")
class ParityGateTest {
}
