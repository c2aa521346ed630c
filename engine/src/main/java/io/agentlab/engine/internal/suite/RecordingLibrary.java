package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;

/**
 * Finds recordings by id: {@code <id>.json} in the configured directories first, then the classpath resource
 * {@code <prefix>/<id>.json}. Loaded recordings are kept; a file that is not a valid recording is an error naming it,
 * and where a recording departs from its family's usual shape the loader's notes are kept for discovery to report
 * ({@link #notes}; docs/recording.md#protocol-and-notes).
 *
 * <p>An id is a plain file name, never a path (docs/limits-and-safety.md#files): letters, digits, {@code .},
 * {@code _} and {@code -}, not starting with a dot and without {@code ..}, so {@code ../x}, absolute paths, encoded
 * dots ({@code %2e%2e}) and separators are refused before any file is touched; and a file found through a symbolic
 * link must still lie inside its folder once the link is followed.
 */
@API(status = INTERNAL, since = "0.1")
public final class RecordingLibrary {

    private final List<Path> directories;
    private final String classpathPrefix;
    private final ClassLoader classLoader;
    private final Map<String, Optional<Recordings.Loaded>> cache = new ConcurrentHashMap<>();

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

    /**
     * Where provider families are described besides the classpath's {@code agentlab/families/}: a {@code families}
     * folder in each recordings directory (docs/recording.md#provider-families).
     */
    public List<Path> familyFolders() {
        return directories.stream().map(directory -> directory.resolve("families")).toList();
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
        checkId(id);
        return cache.computeIfAbsent(id, this::load).map(Recordings.Loaded::recording);
    }

    /**
     * The notes of every recording found so far, one line each ({@code recording 'x' (file): note}), in id order: where
     * a recording departs from its family's usual shape. Notes never refuse a recording.
     */
    public List<String> notes() {
        List<String> lines = new ArrayList<>();
        cache.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> entry.getValue().ifPresent(
                loaded -> loaded.notes().forEach(note -> lines.add("recording '" + entry.getKey() + "' ("
                        + loaded.family().wireName() + "): " + note))));
        return lines;
    }

    /** The pattern a recording id must match. */
    public static final String ID_PATTERN = "[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}";

    /**
     * Refuses an id that is not a plain file name.
     *
     * @throws IllegalArgumentException naming the id and the rule
     */
    public static void checkId(String id) {
        if (id == null || !id.matches(ID_PATTERN) || id.contains("..")) {
            throw new IllegalArgumentException("recording id '" + id + "' is not a plain name: an id is a file name "
                    + "without folders (letters, digits, '.', '_', '-'; no leading dot, no '..', at most 200 "
                    + "characters)");
        }
    }

    private Optional<Recordings.Loaded> load(String id) {
        String name = id + ".json";
        try {
            for (Path directory : directories) {
                Path file = directory.resolve(name);
                if (Files.isRegularFile(file)) {
                    Path folder = directory.toRealPath();
                    if (!file.toRealPath().startsWith(folder)) {
                        throw new IllegalArgumentException("recording '" + id + "' in " + directory
                                + " is a link to " + file.toRealPath() + ", outside the folder; refused");
                    }
                    return Optional.of(Recordings.read(file, familyFolders()));
                }
            }
            try (InputStream in = classLoader.getResourceAsStream(classpathPrefix + name)) {
                if (in == null) {
                    return Optional.empty();
                }
                return Optional.of(Recordings.read(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                        "classpath:" + classpathPrefix + name, familyFolders()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read recording '" + id + "'", e);
        }
    }
}
