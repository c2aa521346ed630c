package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each example folder, copied out of the repository as a user would copy it, builds and passes as it is. */
class ExamplesIT {

    @ParameterizedTest(name = "examples/{0} copied out builds as it is")
    @CsvSource(delimiter = '|', value = {
            "plugin-author   | Tests run: 11, Failures: 0, Errors: 0",
            "service-adapter | Failures: 0, Errors: 0",
            "sse-endpoint    | Failures: 0, Errors: 0",
            "parity-gate     | 60 tests: 58 passed, 0 failed, 2 skipped"})
    void copiedExampleBuilds(String example, String expected) {
        Path project = MavenBuild.freshFolder("agentlab-" + example + "-");
        MavenBuild.copy(MavenBuild.ROOT.resolve("examples").resolve(example), project);
        MavenBuild.Result build = MavenBuild.run(project, "verify");
        assertThat(build.exitCode()).as(build.log()).isZero();
        assertThat(build.log()).contains(expected, "BUILD SUCCESS").doesNotContain("Tests run: 0,");
    }
}
