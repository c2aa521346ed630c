package io.agentlab.engine;

import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.engine.internal.suite.SuiteHead;
import io.agentlab.engine.internal.suite.SuiteOrigin;
import io.agentlab.engine.internal.suite.SuiteReader;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.SuiteProblem;
import io.agentlab.engine.internal.yaml.YamlReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;

/**
 * The suites of one discovery: each file is read and checked once, every problem becomes a discovery issue (an
 * error, so the run fails with it rather than skipping silently), and a suite id used by two files is refused.
 *
 * <p>A suite is known by where it physically is: the same file reached as a file, as a classpath resource or by its
 * unique id is one suite, read once (docs/engine.md#selecting-suites). A suite named only by its unique id is looked
 * up by reading just the top of each candidate ({@link SuiteHead#id}), files named after the id first.
 */
final class SuiteIndex {

    /** The text of a source, and whether it could be read (an unreadable one has its problem reported). */
    private record Text(SuiteOrigin origin, String location, Optional<String> text) {
    }

    /** Classpath folders looked in first for {@code <id>.suite.yaml}: the shipped jar's, the README's, the root. */
    private static final List<String> CONVENTIONAL_FOLDERS = List.of("agentlab/suites/", "suites/", "");

    private final SuiteReader.Context context;
    private final boolean rememberSchemaPasses;
    private final List<Path> suiteDirectories;
    private final Path workingDirectory;
    private final ClassLoader loader;
    private final DiscoveryIssueReporter issues;
    private final Map<String, Optional<Suite>> byLocation = new HashMap<>();
    private final Map<String, Text> texts = new HashMap<>();
    private final Map<String, Suite> byId = new HashMap<>();
    private final Map<String, String> locationById = new HashMap<>();
    private final Map<String, Optional<String>> headIds = new HashMap<>();
    private List<String> classpathSuites;

    /**
     * An index of the files a discovery reads, relative paths resolved against {@code workingDirectory}; with
     * {@code rememberSchemaPasses}, read as a discovery that reads each file twice reads them
     * ({@link SuiteReader#read(SuiteOrigin, String, SuiteReader.Context, boolean)}).
     */
    SuiteIndex(SuiteReader.Context context, List<Path> suiteDirectories, Path workingDirectory, ClassLoader loader,
               DiscoveryIssueReporter issues, boolean rememberSchemaPasses) {
        this.rememberSchemaPasses = rememberSchemaPasses;
        this.context = context;
        this.suiteDirectories = List.copyOf(suiteDirectories);
        this.workingDirectory = workingDirectory;
        this.loader = loader;
        this.issues = issues;
    }

    /** The suite in a file, if it is valid. */
    synchronized Optional<Suite> file(Path path) {
        return load(fileText(path));
    }

    /** The suite in a classpath resource, if it is valid. */
    synchronized Optional<Suite> resource(String name) {
        return load(resourceText(name));
    }

    /** Whether a file not named {@code *.suite.yaml} is a suite all the same (its top level has id and cases). */
    synchronized boolean looksLikeSuite(Path path) {
        return fileText(path).text().filter(SuiteHead::looksLikeSuite).isPresent();
    }

    /** Whether a classpath resource not named {@code *.suite.yaml} is a suite all the same. */
    synchronized boolean looksLikeSuiteResource(String name) {
        return resourceText(name).text().filter(SuiteHead::looksLikeSuite).isPresent();
    }

    /** The text a suite was read from (for line selection), if it was read in this discovery. */
    synchronized Optional<String> text(Suite suite) {
        return Optional.ofNullable(locationById.get(suite.id())).map(texts::get).flatMap(Text::text);
    }

    /**
     * The suite with {@code id}: among those already read, else searched for in the configured suite directories,
     * everywhere on the classpath — directories and jars — and last in the working directory's suite files (a rerun
     * by unique id names no file).
     */
    synchronized Optional<Suite> byId(String id) {
        if (byId.containsKey(id)) {
            return Optional.of(byId.get(id));
        }
        List<Path> files = new ArrayList<>();
        for (Path directory : suiteDirectories) {
            files.addAll(SuiteFiles.scan(directory));
        }
        for (Path file : candidates(files, path -> path.getFileName().toString(), id)) {
            if (matches(fileText(file), id)) {
                return file(file);
            }
        }
        // where suites usually are, named after their id: one class-loader lookup each, no listing (a rerun of the
        // shipped suites costs what selecting their resource does; docs/engine.md#selecting-suites)
        for (String folder : CONVENTIONAL_FOLDERS) {
            for (String ending : List.of(".suite.yaml", ".suite.yml")) {
                String name = folder + id + ending;
                if (loader.getResource(name) != null && matches(resourceText(name), id)) {
                    return resource(name);
                }
            }
        }
        if (classpathSuites == null) {
            classpathSuites = SuiteFiles.classpathSuites(loader);
        }
        for (String name : candidates(classpathSuites, name -> name, id)) {
            if (matches(resourceText(name), id)) {
                return resource(name);
            }
        }
        // last: the working directory's *.suite.yaml files, for a suite once selected by file outside every folder
        // above (a rerun by an IDE or Surefire names no file; docs/engine.md#clients); a bounded walk, on a miss only
        for (Path file : candidates(SuiteFiles.workingTree(workingDirectory), path -> path.getFileName().toString(),
                id)) {
            if (headId(file).filter(id::equals).isPresent()) {
                return file(file); // read as any selected file, its problems reported
            }
        }
        return Optional.empty();
    }

    /** Files named after the id first: a suite's file is usually {@code <id>.suite.yaml}, so one read finds it. */
    private static <T> List<T> candidates(List<T> all, java.util.function.Function<T, String> name, String id) {
        List<T> ordered = new ArrayList<>();
        all.stream().filter(item -> SuiteFiles.stem(name.apply(item)).equals(id)).forEach(ordered::add);
        all.stream().filter(item -> !SuiteFiles.stem(name.apply(item)).equals(id)).forEach(ordered::add);
        return ordered;
    }

    /**
     * The id at the top of a file the user did not select, read quietly: a file that is too large or unreadable is
     * simply not the suite looked for, and its problems are not this launch's to report.
     */
    private static Optional<String> headId(Path file) {
        try {
            if (Files.size(file) > YamlReader.MAX_CHARS * 4L) {
                return Optional.empty();
            }
            return SuiteHead.id(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private boolean matches(Text text, String id) {
        Optional<String> head = headIds.computeIfAbsent(text.location(), key -> text.text().flatMap(SuiteHead::id));
        return head.filter(id::equals).isPresent();
    }

    private Text fileText(Path path) {
        String location = "file:" + physical(path);
        return texts.computeIfAbsent(location, key -> {
            SuiteOrigin origin = SuiteOrigin.file(path);
            try {
                long size = Files.size(path);
                if (size > YamlReader.MAX_CHARS * 4L) { // UTF-8: at most 4 bytes a character; never read a huge file
                    report(origin, YamlReader.tooLarge(origin.display(), size));
                    return new Text(origin, location, Optional.empty());
                }
                return new Text(origin, location, decode(origin, Files.readAllBytes(path)));
            } catch (IOException e) {
                report(origin, new SuiteProblem(origin.display(), Position.UNKNOWN, "", "cannot read the file: " + e));
                return new Text(origin, location, Optional.empty());
            }
        });
    }

    private Text resourceText(String name) {
        SuiteOrigin origin = SuiteOrigin.classpath(name);
        URL url = loader.getResource(name);
        String location = url == null ? origin.display() : physical(url);
        return texts.computeIfAbsent(location, key -> {
            try (InputStream in = url == null ? null : url.openStream()) {
                if (in == null) {
                    report(origin, new SuiteProblem(origin.display(), Position.UNKNOWN, "", "no such classpath resource"));
                    return new Text(origin, location, Optional.empty());
                }
                byte[] bytes = in.readNBytes(YamlReader.MAX_CHARS * 4 + 1);
                if (bytes.length > YamlReader.MAX_CHARS * 4) {
                    report(origin, YamlReader.tooLarge(origin.display(), bytes.length));
                    return new Text(origin, location, Optional.empty());
                }
                return new Text(origin, location, decode(origin, bytes));
            } catch (IOException e) {
                report(origin, new SuiteProblem(origin.display(), Position.UNKNOWN, "", "cannot read it: " + e));
                return new Text(origin, location, Optional.empty());
            }
        });
    }

    /**
     * The text of a suite's bytes, decoded strictly: a suite is UTF-8, and a byte that is not is one problem naming
     * its line, column and offset, never a decoder's exception and never a replacement character that would change
     * what the suite says (docs/suite-format.md#encoding). Files and classpath resources alike.
     */
    private Optional<String> decode(SuiteOrigin origin, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        String text = out.flip().toString();
        if (result.isError()) {
            int offset = in.position();
            Position at = YamlReader.position(text, text.codePointCount(0, text.length()));
            report(origin, new SuiteProblem(origin.display(), at, "", String.format(
                    Locale.ROOT, "the file is not UTF-8: byte 0x%02X at offset %d is not valid UTF-8 (save the file as "
                            + "UTF-8)", bytes[offset] & 0xff, offset)));
            return Optional.empty();
        }
        return Optional.of(text);
    }

    /** Where a file really is, so two spellings of one path (or a resource in a directory) are one key. */
    private static String physical(Path path) {
        try {
            return path.toRealPath().toString();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize().toString();
        }
    }

    private static String physical(URL url) {
        if ("file".equals(url.getProtocol())) {
            try {
                return "file:" + physical(Path.of(url.toURI()));
            } catch (URISyntaxException | IllegalArgumentException e) {
                return url.toString();
            }
        }
        return url.toString();
    }

    private Optional<Suite> load(Text text) {
        return byLocation.computeIfAbsent(text.location(), key -> {
            if (text.text().isEmpty()) {
                return Optional.empty(); // its problem is already reported
            }
            SuiteOrigin origin = text.origin();
            SuiteReader.Result result = SuiteReader.read(origin, text.text().get(), context,
                    rememberSchemaPasses);
            result.problems().forEach(problem -> report(origin, problem));
            if (result.suite().isEmpty()) {
                return Optional.empty();
            }
            Suite suite = result.suite().get();
            Suite other = byId.putIfAbsent(suite.id(), suite);
            if (other != null) {
                report(origin, new SuiteProblem(origin.display(), suite.at(), "id", "duplicate suite id '" + suite.id()
                        + "'; " + other.origin().display() + " already uses it (unique ids derive from it)"));
                return Optional.empty();
            }
            locationById.put(suite.id(), text.location());
            return Optional.of(suite);
        });
    }

    private void report(SuiteOrigin origin, SuiteProblem problem) {
        issues.reportIssue(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR, problem.toString())
                .source(Sources.of(origin, problem.at())));
    }
}
