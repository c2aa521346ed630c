package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each example folder, copied out of the repository as a user would copy it, builds and passes as it is. */
class ExamplesIT {

    @ParameterizedTest(name = "examples/{0} copied out builds as it is")
    @CsvSource(delimiter = '|', value = {
            "demos           | Tests run: 3, Failures: 0, Errors: 0",
            "plugin-author   | Tests run: 11, Failures: 0, Errors: 0",
            "service-adapter | Failures: 0, Errors: 0",
            "sse-endpoint    | Failures: 0, Errors: 0",
            "parity-gate     | tests: \\d+ passed, 0 failed, 0 aborted"})
    void copiedExampleBuilds(String example, String expected) {
        Path project = MavenBuild.freshFolder("agentlab-" + example + "-");
        MavenBuild.copy(MavenBuild.ROOT.resolve("examples").resolve(example), project);
        MavenBuild.Result build = MavenBuild.run(project, "verify");
        assertThat(build.exitCode()).as(build.log()).isZero();
        // A pattern, not a count: the example gates on whatever the shipped suites hold today.
        assertThat(build.log()).containsPattern(expected).contains("BUILD SUCCESS").doesNotContain("Tests run: 0,");
    }
}
