package io.agentlab.suites;

import io.agentlab.engine.ConformanceSettings;
import io.agentlab.engine.ConformanceTestEngine;
import org.junit.platform.suite.api.ConfigurationParameter;
import org.junit.platform.suite.api.IncludeEngines;
import org.junit.platform.suite.api.SelectClasspathResource;
import org.junit.platform.suite.api.Suite;

/**
 * Every shipped suite again with the audit streams in the social dialect, whose own rules their {@code auditValid}
 * expectations then check: the dialect still works as a profile. No gates (the AG-UI profile changes no figure);
 * the streams go to {@code target/agentlab-audit/social-dialect} for {@link AguiOracleAgreementIT}.
 */
@Suite
@IncludeEngines(ConformanceTestEngine.ENGINE_ID)
@SelectClasspathResource("agentlab/suites")
@ConfigurationParameter(key = ConformanceSettings.AGUI_PROFILE, value = "social-dialect")
@ConfigurationParameter(key = ConformanceSettings.AUDIT_DIRECTORY, value = "target/agentlab-audit/social-dialect")
@ConfigurationParameter(key = ConformanceSettings.REPORT_DIRECTORY, value = "target/agentlab-reports-social-dialect")
@ConfigurationParameter(key = ConformanceSettings.CONTROL_RUNS, value = "false")
class SocialDialectSuitesTest {
}
