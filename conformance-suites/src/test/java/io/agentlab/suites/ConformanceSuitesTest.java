package io.agentlab.suites;

import io.agentlab.engine.ConformanceSettings;
import io.agentlab.engine.ConformanceTestEngine;
import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/** Every shipped suite, in both modes, with a parity node per case: the build's conformance and parity gate. */
@Suite
@IncludeEngines(ConformanceTestEngine.ENGINE_ID)
@SelectClasspathResource("agentlab/suites")
@ConfigurationParameter(key = ConformanceSettings.REPORT_DIRECTORY, value = "target/agentlab-reports")
class ConformanceSuitesTest {
}
