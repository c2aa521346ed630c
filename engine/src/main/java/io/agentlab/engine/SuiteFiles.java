package io.agentlab.engine;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Which files are suites, and where they are (docs/engine.md#which-files-are-suites). A file or classpath resource
 * named {@code *.suite.yaml} or {@code *.suite.yml} is a suite; scans (directories, packages, classpath roots,
 * classpath folders, the search by unique id) pick only those, so an application's own YAML is never mistaken for a
 * suite. Another {@code .yaml}/{@code .yml} file selected by name is one only when its top level has {@code id} and
 * {@code cases} ({@link io.agentlab.engine.internal.suite.SuiteHead#looksLikeSuite}).
 *
 * <p>Jars are listed through a {@link JarFile} this class opens and closes itself, never through a jar
 * {@code FileSystem}: a jar file system left open makes JUnit's own classpath scanning of that jar find nothing for
 * the rest of the JVM (issue 29).
 */
final class SuiteFiles {

    private SuiteFiles() {
    }

    static boolean isYaml(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".yaml") || lower.endsWith(".yml");
    }

    static boolean isScanned(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".suite.yaml") || lower.endsWith(".suite.yml");
    }

    /** The name without {@code .suite.yaml}/{@code .suite.yml} (a suite's id usually), or the whole name. */
    static String stem(String name) {
        String base = name.substring(name.lastIndexOf('/') + 1);
        String lower = base.toLowerCase(Locale.ROOT);
        for (String ending : List.of(".suite.yaml", ".suite.yml")) {
            if (lower.endsWith(ending)) {
                return base.substring(0, base.length() - ending.length());
            }
        }
        return base;
    }

    /** Suite files under a directory, sorted, so discovery order is stable. */
    /** How deep the working-directory walk goes, and how many entries it visits at most. */
    static final int WORKING_TREE_DEPTH = 8;
    static final int WORKING_TREE_ENTRIES = 20_000;

    /**
     * The {@code *.suite.yaml} / {@code *.suite.yml} files under {@code root}, sorted: a bounded walk ({@value
     * #WORKING_TREE_DEPTH} levels, {@value #WORKING_TREE_ENTRIES} entries) that skips hidden folders and build
     * output ({@code target}, {@code build}, {@code out}, {@code node_modules}), for a unique id no configured folder
     * holds (docs/engine.md#clients). Only the suite naming convention counts here: no other YAML is read.
     */
    static List<Path> workingTree(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        List<Path> found = new ArrayList<>();
        int[] visited = {0};
        try {
            Files.walkFileTree(root, Set.of(), WORKING_TREE_DEPTH, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    if (!dir.equals(root) && (name.startsWith(".") || SKIPPED_FOLDERS.contains(name))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return ++visited[0] > WORKING_TREE_ENTRIES ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    String name = file.getFileName().toString();
                    if (attributes.isRegularFile() && (name.endsWith(".suite.yaml") || name.endsWith(".suite.yml"))) {
                        found.add(file);
                    }
                    return ++visited[0] > WORKING_TREE_ENTRIES ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // an unreadable corner holds no suite we could read anyway
                }
            });
        } catch (IOException e) {
            // the walk itself failed (the root vanished): what it found so far is all there is
        }
        return found.stream().sorted().toList();
    }

    private static final Set<String> SKIPPED_FOLDERS = Set.of("target", "build", "out", "node_modules");

    static List<Path> scan(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).filter(file -> isScanned(file.getFileName().toString()))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scan " + directory, e);
        }
    }

    /**
     * Names of the suite resources under a classpath folder (in directories and jars), sorted; empty when the folder
     * does not exist.
     */
    static List<String> scanClasspathFolder(String folder, ClassLoader loader) {
        String prefix = folder.isEmpty() || folder.endsWith("/") ? folder : folder + "/";
        TreeSet<String> names = new TreeSet<>();
        try {
            Enumeration<URL> roots = loader.getResources(prefix);
            while (roots.hasMoreElements()) {
                URL url = roots.nextElement();
                if ("jar".equals(url.getProtocol())) {
                    names.addAll(jarEntries(url, prefix));
                } else if ("file".equals(url.getProtocol())) {
                    Path base = Path.of(url.toURI());
                    for (Path file : scan(base)) {
                        names.add(prefix + base.relativize(file).toString().replace('\\', '/'));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scan classpath folder " + folder, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (names.isEmpty()) {
            // a jar written without directory entries does not answer for its folders: list the classpath instead
            classpathSuites(loader).stream().filter(name -> name.startsWith(prefix)).forEach(names::add);
        }
        return new ArrayList<>(names);
    }

    /** Whether a classpath folder or resource of that name exists anywhere on the classpath. */
    /** Suite resources in the jar a {@code jar:} URL points into, under {@code prefix}. */
    private static List<String> jarEntries(URL url, String prefix) throws IOException {
        URLConnection connection = url.openConnection();
        if (!(connection instanceof JarURLConnection jarConnection)) {
            return List.of();
        }
        // not the JVM's shared cached JarFile: this one is ours to close
        jarConnection.setUseCaches(false);
        List<String> names = new ArrayList<>();
        try (JarFile jar = jarConnection.getJarFile()) {
            names.addAll(suiteEntries(jar, prefix));
        }
        return names;
    }

    private static List<String> suiteEntries(JarFile jar, String prefix) {
        List<String> names = new ArrayList<>();
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
            JarEntry entry = entries.nextElement();
            if (!entry.isDirectory() && entry.getName().startsWith(prefix) && isScanned(entry.getName())) {
                names.add(entry.getName());
            }
        }
        return names;
    }

    /**
     * Every suite resource on the classpath, directories and jars alike (for a suite named only by its unique id),
     * sorted by name. The roots are the classpath's directories, every jar with a manifest (which covers Surefire's
     * manifest-only class path) and the entries of {@code java.class.path}.
     */
    static List<String> classpathSuites(ClassLoader loader) {
        TreeSet<String> names = new TreeSet<>();
        try {
            Set<Path> roots = new LinkedHashSet<>();
            Enumeration<URL> directories = loader.getResources("");
            while (directories.hasMoreElements()) {
                URL url = directories.nextElement();
                if ("file".equals(url.getProtocol())) {
                    roots.add(Path.of(url.toURI()));
                }
            }
            Enumeration<URL> manifests = loader.getResources(JarFile.MANIFEST_NAME);
            while (manifests.hasMoreElements()) {
                URL url = manifests.nextElement();
                if ("jar".equals(url.getProtocol()) && url.openConnection() instanceof JarURLConnection jar
                        && "file".equals(jar.getJarFileURL().getProtocol())) {
                    roots.add(Path.of(jar.getJarFileURL().toURI()));
                }
            }
            for (ClassLoader each = loader; each != null; each = each.getParent()) {
                if (each instanceof URLClassLoader urls) { // jars without a manifest, added by a test or a tool
                    for (URL url : urls.getURLs()) {
                        if ("file".equals(url.getProtocol())) {
                            roots.add(Path.of(url.toURI()));
                        }
                    }
                }
            }
            for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    roots.add(Path.of(entry).toAbsolutePath());
                }
            }
            for (Path root : roots) {
                if (Files.isDirectory(root)) {
                    for (Path file : scan(root)) {
                        names.add(root.relativize(file).toString().replace('\\', '/'));
                    }
                } else if (Files.isRegularFile(root) && root.getFileName().toString().endsWith(".jar")) {
                    try (JarFile jar = new JarFile(root.toFile())) {
                        names.addAll(suiteEntries(jar, ""));
                    } catch (IOException e) {
                        // not a readable jar: it holds no suite we could load either
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classpath", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot list the classpath roots", e);
        }
        // only names the loader serves: a jar on java.class.path but outside the loader is not this run's classpath
        names.removeIf(name -> loader.getResource(name) == null);
        return new ArrayList<>(names);
    }

    /** The file a {@code file:} URI names, without its query. */
    static Path filePath(URI uri) throws URISyntaxException {
        return Path.of(new URI(uri.getScheme(), uri.getAuthority(), uri.getPath(), null, null));
    }
}
