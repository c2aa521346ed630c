package io.agentlab.engine.suite;

import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds recordings by id: {@code <id>.json} in the configured directories first, then the classpath resource
 * {@code <prefix>/<id>.json}. Loaded recordings are kept; a file that is not a valid recording is an error naming it.
 */
public final class RecordingLibrary {

    private final List<Path> directories;
    private final String classpathPrefix;
    private final ClassLoader classLoader;
    private final Map<String, Optional<Recording>> cache = new ConcurrentHashMap<>();

    /**
     * A library.
     *
     * @param directories     directories searched first, in order
     * @param classpathPrefix the classpath folder searched next, e.g. {@code recordings}
     * @param classLoader     the loader of classpath recordings
     */
    public RecordingLibrary(List<Path> directories, String classpathPrefix, ClassLoader classLoader) {
        this.directories = List.copyOf(directories);
        this.classpathPrefix = classpathPrefix.endsWith("/") ? classpathPrefix : classpathPrefix + "/";
        this.classLoader = classLoader;
    }

    /** Where ids are looked up, for error messages. */
    public String describe() {
        return (directories.isEmpty() ? "" : "directories " + directories + " and ") + "classpath:" + classpathPrefix;
    }

    /**
     * The recording with {@code id}, if there is one.
     *
     * @throws IllegalArgumentException if the file exists but is not a valid recording (the message says why)
     */
    public Optional<Recording> find(String id) {
        return cache.computeIfAbsent(id, this::load);
    }

    private Optional<Recording> load(String id) {
        String name = id + ".json";
        try {
            for (Path directory : directories) {
                Path file = directory.resolve(name);
                if (Files.isRegularFile(file)) {
                    return Optional.of(Recordings.parse(Files.readString(file), file.toString()));
                }
            }
            try (InputStream in = classLoader.getResourceAsStream(classpathPrefix + name)) {
                if (in == null) {
                    return Optional.empty();
                }
                return Optional.of(Recordings.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                        "classpath:" + classpathPrefix + name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read recording '" + id + "'", e);
        }
    }
}
