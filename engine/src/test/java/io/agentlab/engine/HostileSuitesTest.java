package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;

import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.yaml.YamlReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Hostile suite files are bounded before they cost anything and end in one clear discovery issue, never a crash, a
 * hang or a silent guess (docs/limits-and-safety.md#suites); recording ids never leave their folder
 * (docs/limits-and-safety.md#files).
 */
class HostileSuitesTest {

    private static final String HEAD = """
            id: hostile
            title: Hostile suite
            cases:
              - id: one
                clause: c1
                turns:
            """;
    private static final String TURN = """
                  - user: %s
                    reply: {visible: ok, events: [{name: device.volume.adjust, arguments: %s}]}
            """;

    @TempDir
    Path directory;

    static Stream<Arguments> hostile() {
        String deep = "{a: ".repeat(5_000) + "1" + "}".repeat(5_000);
        return Stream.of(
                Arguments.of("a file over the size limit",
                        HEAD + TURN.formatted("hi", "{mode: mute}") + "# " + "x".repeat(YamlReader.MAX_CHARS) + "\n",
                        "a suite file may have at most " + YamlReader.MAX_CHARS),
                Arguments.of("a string over the length limit",
                        HEAD + TURN.formatted("x".repeat(70_000), "{mode: mute}"),
                        "a string of 70000 characters; the limit is " + YamlReader.MAX_STRING_CHARS),
                Arguments.of("arguments nested 5,000 levels deep",
                        HEAD + TURN.formatted("hi", deep), "nested deeper than " + YamlReader.MAX_DEPTH + " levels"),
                Arguments.of("lists nested 2,000 levels deep",
                        HEAD + TURN.formatted("hi", "{list: " + "[".repeat(2_000) + "]".repeat(2_000) + "}"),
                        "[0]…: nested deeper than " + YamlReader.MAX_DEPTH + " levels"),
                Arguments.of("a YAML alias",
                        HEAD + TURN.formatted("&u set the volume to 30", "{mode: mute}")
                                + TURN.formatted("*u", "{mode: mute}"),
                        "YAML aliases (*u) are not supported in suites"),
                Arguments.of("a billion laughs: an anchor and 30 aliases of it",
                        HEAD + TURN.formatted("&u set the volume to 30", "{mode: mute}")
                                + TURN.formatted("*u", "{mode: mute}").repeat(30),
                        "YAML aliases (*u, and 29 more) are not supported in suites"),
                Arguments.of("a recording id climbing out of its folder",
                        HEAD + "      - user: hi\n        recordings: [../../etc/passwd]\n", "is not a plain name"),
                Arguments.of("an absolute recording id",
                        HEAD + "      - user: hi\n        recordings: [/etc/passwd]\n", "is not a plain name"),
                Arguments.of("a recording id with encoded dots",
                        HEAD + "      - user: hi\n        recordings: ['%2e%2e%2fsecret']\n", "is not a plain name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    @DisplayName("each hostile suite is one error naming the file and why; it contributes no test")
    void refused(String kind, String yaml, String expected) throws IOException {
        Path file = Files.writeString(directory.resolve("hostile.suite.yaml"), yaml);
        EngineDiscoveryResults results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectFile(file.toFile())).discover();

        assertThat(results.getEngineDescriptor().getChildren()).as(kind).isEmpty();
        assertThat(results.getDiscoveryIssues()).as(kind).anySatisfy(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(issue.message()).startsWith(file.toString()).contains(expected);
        });
        assertThat(results.getDiscoveryIssues()).extracting(DiscoveryIssue::message)
                .allSatisfy(message -> assertThat(message).as("one short line").doesNotContain("\n")
                        .hasSizeLessThan(directory.toString().length() + 300))
                .as("one issue per cause").hasSize(1);
    }

    @Test
    @DisplayName("a file that is not UTF-8 is one error naming the first bad byte's line, column and offset")
    void notUtf8() throws IOException {
        byte[] head = (HEAD + "      - user: caf").getBytes(StandardCharsets.UTF_8);
        byte[] yaml = new byte[head.length + 2];
        System.arraycopy(head, 0, yaml, 0, head.length);
        yaml[head.length] = (byte) 0xE9; // é in Latin-1
        yaml[head.length + 1] = '\n';
        Path file = Files.write(directory.resolve("latin1.suite.yaml"), yaml);
        EngineDiscoveryResults results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectFile(file.toFile())).discover();

        assertThat(results.getDiscoveryIssues()).extracting(DiscoveryIssue::message).containsExactly(file + ":7:18: "
                + "the file is not UTF-8: byte 0xE9 at offset " + head.length + " is not valid UTF-8 (save the file as "
                + "UTF-8)");
        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "/abs", "a/b", "a\\b", ".hidden", "..", "%2e%2e", "x..y", ""})
    @DisplayName("a recording id that is not a plain file name is refused before any file is touched")
    void idsThatAreNotPlainNames(String id) {
        RecordingLibrary library = new RecordingLibrary(List.of(directory), "recordings", getClass().getClassLoader());
        assertThatThrownBy(() -> library.find(id)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a plain name");
    }

    @Test
    @DisplayName("a recording reached through a symbolic link out of its folder is refused")
    void symlinkOutRefused() throws IOException {
        Path folder = Files.createDirectories(directory.resolve("recordings"));
        Path outside = Files.writeString(directory.resolve("outside.json"), "{}");
        Files.createSymbolicLink(folder.resolve("leak.json"), outside);
        RecordingLibrary library = new RecordingLibrary(List.of(folder), "recordings", getClass().getClassLoader());

        assertThatThrownBy(() -> library.find("leak")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside the folder");
        assertThat(library.find("volume-forty-dual_agent")).as("plain ids still resolve").isPresent();
    }
}
