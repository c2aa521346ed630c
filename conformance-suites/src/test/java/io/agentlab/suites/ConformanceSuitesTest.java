package io.agentlab.suites;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/**
 * Every shipped suite, in both modes, with a parity node per case, then the gates: strict parity, the thresholds of
 * docs/configuration.md and the committed {@code baseline.json} (refresh it with {@code agentlab baseline --from
 * target/agentlab-reports/metrics.json --to baseline.json}, docs/configuration.md#gates).
 * The audit streams (AG-UI 1.0) go to {@code target/agentlab-audit/agui-1.0} for {@link AguiOracleAgreementIT}.
 * Cases run four at a time: at replay speed 1.0 a case mostly waits for its recorded offsets, and a parallel run's
 * verdicts equal a serial run's (docs/performance.md#build-time).
 */
@Suite
@IncludeEngines(ConformanceTestEngine.ENGINE_ID)
@SelectClasspathResource("agentlab/suites")
@ConfigurationParameter(key = Constants.REPORT_DIRECTORY, value = "target/agentlab-reports")
@ConfigurationParameter(key = Constants.GATES_ENABLED, value = "true")
@ConfigurationParameter(key = Constants.BASELINE_FILE, value = "baseline.json")
@ConfigurationParameter(key = Constants.AUDIT_DIRECTORY, value = "target/agentlab-audit/agui-1.0")
@ConfigurationParameter(key = Constants.PARALLEL, value = "true")
@ConfigurationParameter(key = Constants.PARALLEL_CONFIG_PREFIX + "strategy", value = "fixed")
@ConfigurationParameter(key = Constants.PARALLEL_CONFIG_PREFIX + "fixed.parallelism", value = "4")
class ConformanceSuitesTest {
}
