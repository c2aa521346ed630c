package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.ConfigurationParameters;

/** Where a started runtime's output goes (docs/wire.md#start-up). */
class RuntimeLogPathTest {

    private static Path log(Map<String, String> values) {
        ConfigurationParameters parameters = new ConfigurationParameters() {
            @Override
            public Optional<String> get(String key) {
                return Optional.ofNullable(values.get(key));
            }

            @Override
            public Optional<Boolean> getBoolean(String key) {
                return get(key).map(Boolean::parseBoolean);
            }

            @Override
            public Set<String> keySet() {
                return values.keySet();
            }
        };
        return EngineOptions.read(parameters).runtime().orElseThrow().log();
    }

    @Test
    @DisplayName("with a report folder, runtime.log in it")
    void inTheReportFolder() {
        assertThat(log(Map.of(Constants.RUNTIME_COMMAND, "runtime --serve", Constants.REPORT_DIRECTORY, "reports")))
                .isEqualTo(Path.of("reports", "runtime.log"));
    }

    @Test
    @DisplayName("with none, one log per kit process in the temporary folder (red: two runs at once wrote one "
            + "runtime.log there)")
    void onePerProcessWithoutOne() {
        assertThat(log(Map.of(Constants.RUNTIME_COMMAND, "runtime --serve"))).isEqualTo(Path.of(
                System.getProperty("java.io.tmpdir"), "agentlab-runtime-" + ProcessHandle.current().pid() + ".log"));
    }
}
