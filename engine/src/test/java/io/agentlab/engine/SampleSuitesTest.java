package io.agentlab.engine;

import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/**
 * The sample suites under Surefire: the JUnit suite engine hands {@code sample-suites/} to the conformance engine,
 * and Surefire counts every case × mode and parity node.
 */
@Suite
@IncludeEngines(ConformanceTestEngine.ENGINE_ID)
@SelectClasspathResource("sample-suites")
@ConfigurationParameter(key = Constants.REPORT_DIRECTORY, value = "target/agentlab-reports")
class SampleSuitesTest {
}
