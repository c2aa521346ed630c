package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A plugin author's test classpath (docs/plugin-contract.md#artifacts): the example plugin's project with its
 * dependencies replaced by the plugin-author snippet of {@code docs/plugin-authors.md} runs the plugin contract, and the resolved tree holds
 * none of the libraries that clash with a team's own (OkHttp, WireMock, Jackson YAML; jtokkit only with
 * {@code agentlab-tokens}, which PC-02 asks for by name when it is missing). The same listing of the engine's tree
 * finds all four, so the check can see them.
 */
class ContractsClasspathIT {

    /** The libraries a contracts user must not get from the kit, as {@code dependency:list} prints them. */
    static final List<String> CLASHING = List.of("com.squareup.okhttp3:okhttp", "org.wiremock:",
            "tools.jackson.dataformat:jackson-dataformat-yaml");
    static final String JTOKKIT = "com.knuddels:jtokkit";

    private static final String LIST = "org.apache.maven.plugins:maven-dependency-plugin:3.11.0:list";
    private static final Pattern SNIPPET = Pattern.compile("<!-- snippet: plugin-author -->\\s*```xml\\n(.*?)```",
            Pattern.DOTALL);
    private static final String TOKENS = """
              <dependency>
                <groupId>io.agentlab</groupId>
                <artifactId>agentlab-tokens</artifactId>
                <scope>test</scope>
              </dependency>
            """;

    @Test
    @DisplayName("the documented plugin-author dependencies: the contract is green but PC-11 (skipped: it needs the "
            + "engine), and no OkHttp, WireMock or Jackson YAML is on the test classpath")
    void documentedDependencies() throws IOException {
        Path project = project(true);
        MavenBuild.Result build = MavenBuild.run(project, "verify", LIST, "-DincludeScope=test",
                "-DoutputFile=deps.txt");
        assertThat(build.exitCode()).as(build.log()).isZero();
        assertThat(build.log()).containsPattern("Tests run: 11, Failures: 0, Errors: 0, Skipped: 1");
        String dependencies = Files.readString(project.resolve("deps.txt"));
        assertThat(dependencies).contains("io.agentlab:agentlab-contracts:jar", JTOKKIT);
        for (String library : CLASHING) {
            assertThat(dependencies).as("the plugin author's test classpath").doesNotContain(library);
        }
        assertThat(surefireReports(project)).contains("PC-11 needs io.agentlab:agentlab-engine (test scope) on the "
                + "test classpath to run the examples as suite cases");
    }

    @Test
    @DisplayName("agentlab-contracts alone holds no jtokkit either; PC-02 then fails naming agentlab-tokens")
    void contractsAlone() throws IOException {
        Path project = project(false);
        MavenBuild.Result build = MavenBuild.run(project, LIST, "-DincludeScope=test", "-DoutputFile=deps.txt",
                "verify");
        assertThat(build.exitCode()).as(build.log()).isNotZero();
        assertThat(build.log()).contains("required_PC02_catalog_description_within_budget",
                "PC-02 counts tokens with io.agentlab:agentlab-tokens");
        String dependencies = Files.readString(project.resolve("deps.txt"));
        assertThat(dependencies).contains("io.agentlab:agentlab-contracts:jar").doesNotContain(JTOKKIT);
        for (String library : CLASHING) {
            assertThat(dependencies).as("agentlab-contracts' own tree").doesNotContain(library);
        }
    }

    @Test
    @DisplayName("the same listing of the engine's tree finds every one of them (the checks above can fail)")
    void engineTreeHasThem() throws IOException {
        Path project = MavenBuild.freshFolder("agentlab-engine-tree-");
        MavenBuild.copy(MavenBuild.ROOT.resolve("examples/plugin-author"), project);
        MavenBuild.Result list = MavenBuild.run(project, LIST, "-DincludeScope=test", "-DoutputFile=deps.txt");
        assertThat(list.exitCode()).as(list.log()).isZero();
        String dependencies = Files.readString(project.resolve("deps.txt"));
        assertThat(dependencies).as("the engine's tree").contains(JTOKKIT);
        for (String library : CLASHING) {
            assertThat(dependencies).as("the engine's tree").contains(library);
        }
    }

    /**
     * The example plugin with the documented plugin-author dependencies (or those without {@code agentlab-tokens}),
     * its examples in code: YAML example files are the engine's.
     */
    private static Path project(boolean withTokens) throws IOException {
        Path project = MavenBuild.freshFolder("agentlab-plugin-author-");
        MavenBuild.copy(MavenBuild.ROOT.resolve("examples/plugin-author"), project);
        Matcher snippet = SNIPPET.matcher(Files.readString(MavenBuild.ROOT.resolve("docs/plugin-authors.md")));
        assertThat(snippet.find()).as("docs/plugin-authors.md has the plugin-author snippet").isTrue();
        String dependencies = snippet.group(1);
        assertThat(dependencies).contains(TOKENS);
        if (!withTokens) {
            dependencies = dependencies.replace(TOKENS, "");
        }
        Path pom = project.resolve("pom.xml");
        String text = Files.readString(pom);
        // the project's own dependencies, not the BOM's block inside <dependencyManagement>
        int from = text.indexOf("\n  <dependencies>") + 1;
        int to = text.indexOf("\n  </dependencies>", from) + "\n  </dependencies>".length();
        assertThat(from).as("the example's dependencies").isGreaterThan(1);
        text = text.substring(0, from) + dependencies.strip() + text.substring(to);
        // and the build the docs give every project (docs/your-project.md#build-plugins), not the example's own
        int build = text.indexOf("\n  <build>") + 1;
        int built = text.indexOf("\n  </build>", build) + "\n  </build>".length();
        assertThat(build).as("the example's build").isGreaterThan(1);
        text = text.substring(0, build) + DocsAdoptionIT.snippet(Files.readString(
                MavenBuild.ROOT.resolve("docs/your-project.md")), "build").strip() + text.substring(built);
        Files.writeString(pom, text);
        Path test = project.resolve("src/test/java/io/agentlab/examples/timer/TimerPluginContractTest.java");
        String load = "new ArrayList<>(PluginExample.load(\"timer-examples.yaml\"))";
        assertThat(Files.readString(test)).contains(load);
        Files.writeString(test, Files.readString(test).replace(load, "new ArrayList<>()"));
        return project;
    }

    private static String surefireReports(Path project) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.list(project.resolve("target/surefire-reports"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".xml")).toList()) {
                all.append(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return all.toString();
    }
}
