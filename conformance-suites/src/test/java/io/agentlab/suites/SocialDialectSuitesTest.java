package io.agentlab.suites;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/**
 * Every shipped suite again with the audit streams in the social dialect, whose own rules their {@code auditValid}
 * expectations then check: the dialect still works as a profile. No gates (the AG-UI profile changes no figure);
 * the streams go to {@code target/agentlab-audit/social-dialect} for {@link AguiOracleAgreementIT}. At replay speed 0:
 * the profile's rules are about what is emitted and in what order, which no recorded delay changes, and
 * {@link ConformanceSuitesTest} already replays every suite with its timing (docs/performance.md#build-time). Cases
 * run four at a time, as that test's do: at speed 0 a case's time is mostly its batch deadlines' waits.
 */
@Suite
@IncludeEngines(ConformanceTestEngine.ENGINE_ID)
@SelectClasspathResource("agentlab/suites")
@ConfigurationParameter(key = Constants.AGUI_PROFILE, value = "social-dialect")
@ConfigurationParameter(key = Constants.AUDIT_DIRECTORY, value = "target/agentlab-audit/social-dialect")
@ConfigurationParameter(key = Constants.REPORT_DIRECTORY, value = "target/agentlab-reports-social-dialect")
@ConfigurationParameter(key = Constants.CONTROL_RUNS, value = "false")
@ConfigurationParameter(key = Constants.REPLAY_SPEED, value = "0")
@ConfigurationParameter(key = Constants.PARALLEL, value = "true")
@ConfigurationParameter(key = Constants.PARALLEL_CONFIG_PREFIX + "strategy", value = "fixed")
@ConfigurationParameter(key = Constants.PARALLEL_CONFIG_PREFIX + "fixed.parallelism", value = "4")
class SocialDialectSuitesTest {
}
