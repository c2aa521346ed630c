package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.plugins.BuiltInPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;

/**
 * A unique id whose suite no configured folder holds is looked for last among the working directory's suite files:
 * how Surefire's rerun finds a suite a {@code @SelectFile} named (docs/engine.md#clients).
 */
class WorkingTreeLookupTest {

    private static final String SUITE = """
            id: %s
            title: Found by its id
            cases:
              - id: quiet
                clause: docs/design.md#plugin-volume-modes mute
                turns:
                  - user: mute it
                    reply: {visible: "Muted.", events: [{name: device.volume.adjust, arguments: {mode: mute}}]}
                    expect:
                      events: [{name: device.volume.adjust, status: succeeded}]
            """;

    @TempDir
    Path root;

    private void write(String relative, String id) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, SUITE.formatted(id));
    }

    private Optional<Suite> lookUp(String id, List<DiscoveryIssue> issues) {
        SuiteReader.Context context = SuiteReader.Context.of(BuiltInPlugins.withInMemoryPorts().stream()
                .map(EventPlugin::definition).toList(), new RecordingLibrary(List.of(), "recordings",
                getClass().getClassLoader()));
        return new SuiteIndex(context, List.of(), root, getClass().getClassLoader(),
                DiscoveryIssueReporter.collecting(issues), false).byId(id);
    }

    @Test
    @DisplayName("a suite file anywhere under the working directory is found by its id, not only by its file name")
    void foundInTheWorkingTree() throws IOException {
        write("src/test/lost/lost.suite.yaml", "lost");
        write("src/test/elsewhere/not-named-after-it.suite.yaml", "renamed");
        List<DiscoveryIssue> issues = new ArrayList<>();

        assertThat(lookUp("lost", issues)).get().extracting(Suite::id).isEqualTo("lost");
        assertThat(lookUp("renamed", issues)).get().extracting(Suite::id).isEqualTo("renamed");
        assertThat(lookUp("nowhere", issues)).isEmpty();
        assertThat(issues).isEmpty();
    }

    @Test
    @DisplayName("the walk skips build output and hidden folders, reads only *.suite.yaml / *.suite.yml, and is bounded")
    void boundedWalk() throws IOException {
        write("target/a.suite.yaml", "a");
        write(".git/b.suite.yaml", "b");
        write("node_modules/x/c.suite.yml", "c");
        write("plain/d.yaml", "d");
        write("1/2/3/4/5/6/7/8/9/e.suite.yaml", "e");
        write("ok/f.suite.yml", "f");

        assertThat(SuiteFiles.workingTree(root)).extracting(path -> root.relativize(path).toString())
                .containsExactly("ok/f.suite.yml");
        assertThat(lookUp("a", new ArrayList<>())).as("build output").isEmpty();
        assertThat(lookUp("e", new ArrayList<>())).as("deeper than " + SuiteFiles.WORKING_TREE_DEPTH).isEmpty();
    }
}
