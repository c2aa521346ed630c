package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The repository stands alone: the design it cites is {@code docs/design.md}, and every citation names a clause that
 * file defines. Reads every tracked file ({@code git ls-files}; without git, every file outside {@code target/},
 * {@code .git/} and {@code node_modules/}).
 */
class RepositoryCitationsTest {

    /** Texts that point outside the repository. Built from parts so this file does not match itself. */
    private static final List<String> FORBIDDEN = List.of("../" + "shared", "seeds/" + "00", "design " + "§");
    private static final Pattern ANCHOR = Pattern.compile("<a id=\"([a-z0-9-]+)\"></a>");
    /** {@code docs/design.md#<anchor>}, or a relative link to it such as {@code design.md#<anchor>} from docs. */
    static final Pattern CITATION = Pattern.compile("(?<![\\w-])design\\.md#([A-Za-z0-9_-]+)");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules");

    private static Path root;
    private static List<Path> files;

    /** The repository root: the nearest parent folder with {@code docs/design.md} and {@code pom.xml}. */
    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("docs/design.md"))
                && Files.isRegularFile(dir.resolve("pom.xml")))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("a parent folder with docs/design.md and pom.xml").isNotNull();
        return dir;
    }

    @BeforeAll
    static void findRepository() throws IOException {
        root = repositoryRoot();
        files = trackedFiles(root);
        assertThat(files).as("files found under " + root).isNotEmpty();
    }

    @Test
    @DisplayName("no file points outside the repository for its design")
    void noOutsideReferences() {
        List<String> offences = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).toLowerCase(Locale.ROOT);
                for (String forbidden : FORBIDDEN) {
                    if (line.contains(forbidden)) {
                        offences.add(root.relativize(file) + ":" + (i + 1) + ": mentions '" + forbidden
                                + "'; cite docs/design.md#<anchor> instead");
                    }
                }
            }
        }
        assertThat(offences).as("references outside the repository").isEmpty();
    }

    @Test
    @DisplayName("every docs/design.md#<anchor> cited anywhere is defined in docs/design.md")
    void everyCitedAnchorExists() {
        Set<String> anchors = new TreeSet<>(anchorIds(root.resolve("docs/design.md")));
        assertThat(anchors).as("anchors in docs/design.md").isNotEmpty();
        List<String> dangling = new ArrayList<>();
        int citations = 0;
        for (Path file : files) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = CITATION.matcher(lines.get(i));
                while (m.find()) {
                    citations++;
                    if (!anchors.contains(m.group(1))) {
                        dangling.add(root.relativize(file) + ":" + (i + 1) + ": docs/design.md#" + m.group(1)
                                + " is not an anchor of docs/design.md");
                    }
                }
            }
        }
        assertThat(dangling).as("dangling design citations").isEmpty();
        assertThat(citations).as("design citations found").isPositive();
    }

    @Test
    @DisplayName("every anchor of docs/design.md is defined once")
    void anchorsUnique() {
        assertThat(anchorIds(root.resolve("docs/design.md"))).doesNotHaveDuplicates();
    }

    /** The ids of the {@code <a id="…"></a>} anchors, in order, duplicates kept. */
    private static List<String> anchorIds(Path design) {
        List<String> ids = new ArrayList<>();
        Matcher m = ANCHOR.matcher(String.join("\n", lines(design)));
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    /** The tracked files, or, where git is not available, every file outside build and VCS folders. */
    static List<Path> trackedFiles(Path root) throws IOException {
        try {
            Process git = new ProcessBuilder("git", "ls-files", "-z").directory(root.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out;
            try (InputStream in = git.getInputStream()) {
                out = in.readAllBytes();
            }
            if (git.waitFor() == 0) {
                return Arrays.stream(new String(out, StandardCharsets.UTF_8).split("\0"))
                        .filter(name -> !name.isEmpty()).map(root::resolve).filter(Files::isRegularFile).toList();
            }
        } catch (IOException notInstalled) {
            // no git: walk the folder instead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    }).toList();
        }
    }

    /** A text file's lines; a binary file (one with a NUL byte) has none. */
    static List<String> lines(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            for (byte b : bytes) {
                if (b == 0) {
                    return List.of();
                }
            }
            return new String(bytes, StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
