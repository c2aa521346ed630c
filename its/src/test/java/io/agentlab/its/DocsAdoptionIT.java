package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The acceptance check of adoption: a fresh Maven project outside the repository, written from the snippets of
 * {@code docs/your-project.md} and {@code docs/gate-owners.md} alone (the generic pom skeleton is Maven's, every
 * kit-specific line is a snippet of those pages), runs the shipped suites
 * and its own suite through Surefire and through {@code agentlab:verify}, and fails when one of its cases breaks —
 * in Surefire, and in the goal when Surefire's failures are ignored — and when the goal selects no case.
 */
class DocsAdoptionIT {

    private static final Pattern SNIPPET = Pattern.compile("<!-- snippet: ([a-z-]+) -->\\s*```[a-z]*\\n(.*?)```",
            Pattern.DOTALL);

    /** The code block marked {@code <!-- snippet: name -->} on a page of {@code docs/}. */
    static String snippet(String page, String name) {
        Matcher matcher = SNIPPET.matcher(page);
        while (matcher.find()) {
            if (matcher.group(1).equals(name)) {
                return matcher.group(2);
            }
        }
        throw new AssertionError("the page has no snippet '" + name + "'");
    }

    private static Path project(String setup, String gateOwners) throws IOException {
        Path project = MavenBuild.freshFolder("agentlab-docs-");
        String pom = """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>fresh-from-the-docs</artifactId>
                  <version>1.0-SNAPSHOT</version>
                """ + snippet(setup, "properties") + snippet(setup, "bom") + snippet(gateOwners, "gate-owner")
                + snippet(gateOwners, "gate-owner-build") + "</project>\n";
        Files.writeString(project.resolve("pom.xml"), pom, StandardCharsets.UTF_8);
        Path tests = Files.createDirectories(project.resolve("src/test/java/com/example"));
        Files.writeString(tests.resolve("ConformanceTest.java"), "package com.example;\n\n"
                + snippet(gateOwners, "gate-owner-suite"), StandardCharsets.UTF_8);
        Path suites = Files.createDirectories(project.resolve("src/test/resources/my-suites"));
        Files.writeString(suites.resolve("my-bedtime.suite.yaml"), snippet(gateOwners, "own-suite"), StandardCharsets.UTF_8);
        return project;
    }

    @Test
    @DisplayName("a fresh project from the docs' snippets: green through Surefire and the goal, red when a case breaks")
    void freshProjectFromTheDocs() throws IOException {
        String setup = Files.readString(MavenBuild.ROOT.resolve("docs/your-project.md"), StandardCharsets.UTF_8);
        String gateOwners = Files.readString(MavenBuild.ROOT.resolve("docs/gate-owners.md"), StandardCharsets.UTF_8);
        Path project = project(setup, gateOwners);

        MavenBuild.Result green = MavenBuild.run(project, "verify");
        assertThat(green.exitCode()).as(green.log()).isZero();
        assertThat(green.log()).contains("Tests run:", "agentlab-maven-plugin", "BUILD SUCCESS")
                .containsPattern("Tests run: [1-9][0-9]+, Failures: 0, Errors: 0")
                .containsPattern("[1-9][0-9]+ tests: [1-9][0-9]+ passed, 0 failed");
        String results = Files.readString(project.resolve("target/agentlab-reports/results.json"));
        assertThat(results).contains("[suite:my-bedtime]", "[suite:volume]", "[suite:mode-parity]", "[gate:parity]");
        assertThat(project.resolve("target/agentlab-reports/junit/TEST-agentlab-conformance.xml")).exists();

        Path suite = project.resolve("src/test/resources/my-suites/my-bedtime.suite.yaml");
        String yaml = Files.readString(suite);
        int expectation = yaml.lastIndexOf("delta: -10");
        assertThat(expectation).as("the gate owners' own suite expects delta -10").isPositive();
        Files.writeString(suite, yaml.substring(0, expectation) + "delta: -20" + yaml.substring(expectation + 10));

        MavenBuild.Result surefire = MavenBuild.run(project, "verify");
        assertThat(surefire.exitCode()).isNotZero();
        assertThat(surefire.log()).contains("expected argument 'delta' = -20 but was -10", "BUILD FAILURE")
                .contains("maven-surefire-plugin");

        MavenBuild.Result goal = MavenBuild.run(project, "verify", "-Dmaven.test.failure.ignore=true");
        assertThat(goal.exitCode()).isNotZero();
        assertThat(goal.log()).containsPattern("agentlab: [0-9]+ of [0-9]+ tests failed")
                .contains("quiet-and-goodnight [dual_agent]", "BUILD FAILURE");

        MavenBuild.Result nothing = MavenBuild.run(project, "verify", "-Dmaven.test.skip.exec=true",
                "-Dagentlab.tags=no-such-tag");
        assertThat(nothing.exitCode()).isNotZero();
        assertThat(nothing.log()).contains("agentlab: the run could not start: nothing to run: no case in",
                "matches --tag no-such-tag", "BUILD FAILURE").doesNotContain("SLF4J");
    }
}
