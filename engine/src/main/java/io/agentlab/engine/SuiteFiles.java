package io.agentlab.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Which files are suites. A file or classpath resource selected by name may be any {@code .yaml}/{@code .yml} file;
 * scans (directories, packages, classpath roots, classpath folders) pick only {@code *.suite.yaml} and
 * {@code *.suite.yml}, so an application's own YAML is never mistaken for a suite.
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

    /** Suite files under a directory, sorted, so discovery order is stable. */
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

    /** Names of the suite resources under a classpath folder (in directories and jars), sorted. */
    static List<String> scanClasspathFolder(String folder, ClassLoader loader) {
        String prefix = folder.endsWith("/") ? folder : folder + "/";
        TreeSet<String> names = new TreeSet<>();
        try {
            Enumeration<URL> roots = loader.getResources(prefix.equals("/") ? "" : prefix);
            while (roots.hasMoreElements()) {
                URI uri = roots.nextElement().toURI();
                if ("jar".equals(uri.getScheme())) {
                    FileSystem jar;
                    try {
                        jar = FileSystems.newFileSystem(uri, Map.of());
                    } catch (FileSystemAlreadyExistsException e) {
                        jar = FileSystems.getFileSystem(uri);
                    }
                    Path base = jar.getPath(prefix);
                    for (Path file : scan(base)) {
                        names.add(prefix + base.relativize(file).toString().replace('\\', '/'));
                    }
                } else if ("file".equals(uri.getScheme())) {
                    Path base = Path.of(uri);
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
        return new ArrayList<>(names);
    }

    /** Every directory root of the classpath (for a suite named only by its unique id). */
    static List<Path> classpathDirectories(ClassLoader loader) {
        List<Path> roots = new ArrayList<>();
        try {
            Enumeration<URL> urls = loader.getResources("");
            while (urls.hasMoreElements()) {
                URI uri = urls.nextElement().toURI();
                if ("file".equals(uri.getScheme())) {
                    roots.add(Path.of(uri));
                }
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list the classpath roots", e);
        }
        return roots;
    }
}
