package io.agentlab.providers.recorded.imports;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ResponseLimits;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.RequestMatcher;
import io.agentlab.providers.recorded.Secrets;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Imports provider streams users already capture into the kit's {@link Recording} format
 * (docs/recording.md#importing-streams): HAR 1.2 files, VCR cassettes (vcrpy / pytest-recording, Ruby VCR, go-vcr),
 * raw SSE transcripts ({@code curl -N}, optionally {@code -i}) and JSON lines of chunks.
 *
 * <p>Each entry of a source gives one {@link Outcome}: {@link Imported} with the recording, {@link Skipped} (not a
 * streamed chat completion, so nothing to import) or {@link Unreadable} (a chat completion stream that cannot be
 * imported as it is, with where and why); one bad entry never stops the others. The data payloads are kept byte for
 * byte, except credentials, which are redacted with {@code Secrets} and never written: request headers are not
 * imported at all, and an entry in which {@code Secrets.scan} still finds a credential after redaction is refused.
 * Every imported recording has been written and read back through {@code Recordings.parse}, so it loads.
 */
@API(status = INTERNAL, since = "0.1")
public final class StreamImport {

    private StreamImport() {
    }

    /** A source format. */
    public enum Format {
        /** Decide by content ({@link #detect}). */
        AUTO,
        /** HAR 1.2 (browser devtools, mitmproxy, Charles, Polly.js). */
        HAR,
        /** A VCR cassette in YAML: vcrpy / pytest-recording, Ruby VCR or go-vcr. */
        VCR,
        /** A raw SSE transcript, as {@code curl -N} prints it; with {@code -i}, a status line and headers on top. */
        SSE,
        /** One chunk object per line, or {@code {"at_ms": N, "data": "<payload>"}} per line. */
        JSONL
    }

    /**
     * How to import.
     *
     * @param format          the source format, or {@link Format#AUTO}
     * @param family          {@code metadata.provider} of every recording: {@value #DEFAULT_FAMILY} or a family name
     * @param mode            the matcher's mode for every recording instead of the captured request's, or null
     * @param role            the matcher's call role instead of the captured request's header, or null
     * @param lastUserMessage the matcher's last user message instead of the captured request's, or null
     * @param idPrefix        put before each recording id ({@code <prefix><file stem>[-<entry index>]}), or null
     * @param latency         the latency model for sources that record no timing
     * @param limits          the bounds of one response (bytes, line bytes, events)
     * @param maxFileBytes    the largest input file read at all
     * @param today           {@code metadata.date} when the source records no date
     * @param familyFolders   folders with family descriptions ({@code <name>.json}) besides the classpath, as the
     *                        loader takes them (docs/recording.md#a-family-is-data)
     */
    public record Options(Format format, String family, String mode, String role, String lastUserMessage,
                          String idPrefix, LatencyModel latency, ResponseLimits limits, long maxFileBytes,
                          LocalDate today, List<Path> familyFolders) {

        /** Plain OpenAI-compatible chunks, with no family-specific shape. */
        public static final String DEFAULT_FAMILY = "openai-compatible";
        /** A file may hold this many maximal responses (a HAR or a cassette holds many exchanges). */
        public static final int FILE_LIMIT_FACTOR = 64;
        /** The modes a matcher may name. */
        public static final Set<String> MODES = Set.of("dual_agent", "chat_agent_tools", RequestMatcher.ANY_MODE);
        /** The call roles a matcher may name. */
        public static final Set<String> ROLES = Arrays.stream(CallRole.values()).map(CallRole::wireName)
                .collect(Collectors.toUnmodifiableSet());

        /**
         * Checks every value, so that a bad one is refused before any file is read.
         *
         * @throws IllegalArgumentException quoting the bad value
         */
        public Options {
            Objects.requireNonNull(format, "format");
            Objects.requireNonNull(latency, "latency");
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(today, "today");
            familyFolders = List.copyOf(familyFolders);
            if (family == null || !family.matches("[a-z0-9][a-z0-9._-]{0,63}")) {
                throw new IllegalArgumentException("family '" + family + "' is not a family name (lower-case letters, "
                        + "digits, '.', '_' and '-'; default " + DEFAULT_FAMILY + ")");
            }
            if (mode != null && !MODES.contains(mode)) {
                throw new IllegalArgumentException("mode '" + mode + "' is not one of " + sorted(MODES));
            }
            if (role != null && !ROLES.contains(role)) {
                throw new IllegalArgumentException("role '" + role + "' is not one of " + sorted(ROLES));
            }
            if (idPrefix != null && !idPrefix.matches("[a-z0-9][a-z0-9._-]*")) {
                throw new IllegalArgumentException("id prefix '" + idPrefix + "' must be lower-case letters, digits, "
                        + "'.', '_' and '-', starting with a letter or digit");
            }
            if (maxFileBytes <= 0) {
                throw new IllegalArgumentException("the file limit must be positive, was " + maxFileBytes);
            }
        }

        /** Auto-detected format, {@value #DEFAULT_FAMILY}, the typical latency model, the default limits, today. */
        public static Options defaults() {
            ResponseLimits limits = ResponseLimits.DEFAULT;
            return new Options(Format.AUTO, DEFAULT_FAMILY, null, null, null, null, LatencyModel.typical(), limits,
                    FILE_LIMIT_FACTOR * limits.maxResponseBytes(), LocalDate.now(Clock.systemUTC()), List.of());
        }

        /** With another format. */
        public Options withFormat(Format value) {
            return new Options(value, family, mode, role, lastUserMessage, idPrefix, latency, limits, maxFileBytes,
                    today, familyFolders);
        }

        /** With another family. */
        public Options withFamily(String value) {
            return new Options(format, value, mode, role, lastUserMessage, idPrefix, latency, limits, maxFileBytes,
                    today, familyFolders);
        }

        /** With the matcher's mode, role and last user message overridden (a null keeps what was captured). */
        public Options withMatcher(String modeValue, String roleValue, String lastUserMessageValue) {
            return new Options(format, family, modeValue, roleValue, lastUserMessageValue, idPrefix, latency, limits,
                    maxFileBytes, today, familyFolders);
        }

        /** With an id prefix. */
        public Options withIdPrefix(String value) {
            return new Options(format, family, mode, role, lastUserMessage, value, latency, limits, maxFileBytes,
                    today, familyFolders);
        }

        /** With other response limits, and a file limit of {@value #FILE_LIMIT_FACTOR} × their response bytes. */
        public Options withLimits(ResponseLimits value) {
            return new Options(format, family, mode, role, lastUserMessage, idPrefix, latency, value,
                    FILE_LIMIT_FACTOR * value.maxResponseBytes(), today, familyFolders);
        }

        /** With another date for sources that record none. */
        public Options withToday(LocalDate value) {
            return new Options(format, family, mode, role, lastUserMessage, idPrefix, latency, limits, maxFileBytes,
                    value, familyFolders);
        }

        /** With folders of family descriptions for the loader's notes. */
        public Options withFamilyFolders(List<Path> value) {
            return new Options(format, family, mode, role, lastUserMessage, idPrefix, latency, limits, maxFileBytes,
                    today, value);
        }

        private static String sorted(Set<String> values) {
            return String.join(", ", values.stream().sorted().toList());
        }
    }

    /** What became of one entry of a source. */
    public sealed interface Outcome permits Imported, Skipped, Unreadable {
        /** The file and entry ({@code chat.har entries[3] (line 120)}), for messages. */
        String where();
    }

    /**
     * The entry was imported.
     *
     * @param where     file and entry
     * @param recording the recording, already checked to load
     * @param notes     where its chunks depart from the family's usual shape, as the loader notes them
     *                  (docs/recording.md#protocol-and-notes); empty for a faithful stream
     */
    public record Imported(String where, Recording recording, List<String> notes) implements Outcome {
        /** Copies the notes. */
        public Imported {
            notes = List.copyOf(notes);
        }
    }

    /**
     * The entry is not a streamed chat completion (a page's GET, an HTTP error, a call without streaming): nothing to
     * import.
     *
     * @param where  file and entry
     * @param reason why it is not imported
     */
    public record Skipped(String where, String reason) implements Outcome {
    }

    /**
     * The entry (or the whole file, when {@code where} names only the file) cannot be imported.
     *
     * @param where file, entry and line where known
     * @param why   what is wrong, naming the limit when one was exceeded
     */
    public record Unreadable(String where, String why) implements Outcome {
    }

    /**
     * Imports one file.
     *
     * @return one outcome per entry, in order; a file that cannot be read at all gives one {@link Unreadable}
     */
    public static List<Outcome> read(Path file, Options options) {
        String name = file.toString();
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            return List.of(new Unreadable(name, "cannot read: " + e.getMessage()));
        }
        if (size > options.maxFileBytes()) {
            // refused before reading: a capture that large holds far more than the kit would ever replay
            return List.of(new Unreadable(name, "the file is " + size + " bytes, over the import limit of "
                    + options.maxFileBytes() + " bytes (" + Options.FILE_LIMIT_FACTOR
                    + " × the response limit of " + options.limits().maxResponseBytes() + " bytes)"));
        }
        return read(name, stem(file.getFileName().toString()), () -> Files.newInputStream(file), options);
    }

    /**
     * Imports a source held in memory (tests, other tools); {@code source} names it in messages and ids.
     *
     * @return one outcome per entry, in order
     */
    public static List<Outcome> read(String source, String text, Options options) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > options.maxFileBytes()) {
            return List.of(new Unreadable(source, "the source is " + bytes.length + " bytes, over the import limit of "
                    + options.maxFileBytes() + " bytes"));
        }
        String file = source.substring(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1);
        return read(source, stem(file), () -> new ByteArrayInputStream(bytes), options);
    }

    /**
     * The format of a source from its first bytes: a line starting {@code HTTP/}, {@code data:}, {@code event:},
     * {@code id:} or {@code :} is SSE; a first line that is a whole JSON object is JSON lines (unless it holds
     * {@code "log"}); other JSON holding {@code "log"} is HAR; YAML with {@code interactions:} or
     * {@code http_interactions:} at the start of a line is VCR.
     *
     * @return the format, or null when none fits
     */
    public static Format detect(String head) {
        return Sources.detect(head);
    }

    /** Opens the source again (once for detection, once for reading). */
    interface Opener {
        InputStream open() throws IOException;
    }

    private static List<Outcome> read(String name, String stem, Opener opener, Options options) {
        Format format = options.format();
        if (format == Format.AUTO) {
            String head;
            try (InputStream in = opener.open()) {
                head = new String(in.readNBytes(Sources.HEAD_BYTES), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return List.of(new Unreadable(name, "cannot read: " + e.getMessage()));
            }
            format = detect(head);
            if (format == null) {
                return List.of(new Unreadable(name, "cannot tell the format: not a HAR file, a VCR cassette, an SSE "
                        + "transcript or JSON lines of chunks (give the format)"));
            }
        }
        List<Outcome> outcomes = new ArrayList<>();
        Converter converter = new Converter(options, options.idPrefix() == null ? stem : options.idPrefix() + stem);
        Sources.Sink sink = new Sources.Sink() {
            @Override
            public void exchange(Captured captured) {
                outcomes.add(printable(converter.convert(captured)));
            }

            @Override
            public void outcome(Outcome outcome) {
                outcomes.add(printable(outcome));
            }
        };
        try (InputStream in = opener.open()) {
            switch (format) {
                case HAR -> Sources.har(in, name, options, sink);
                case VCR -> Sources.vcr(in, name, options, sink);
                case SSE -> Sources.sse(in, name, options, sink);
                case JSONL -> Sources.jsonl(in, name, options, sink);
                default -> throw new IllegalStateException(format.name());
            }
        } catch (IOException e) {
            outcomes.add(new Unreadable(name, "cannot read: " + e.getMessage()));
        }
        return outcomes;
    }

    /**
     * A message quotes what it found (a parser's token, the start of a body), so key shapes are redacted from it too:
     * printed text leaks as much as a written file (docs/limits-and-safety.md#credentials).
     */
    private static Outcome printable(Outcome outcome) {
        if (outcome instanceof Skipped skipped) {
            return new Skipped(skipped.where(), Secrets.redact(skipped.reason(), List.of()));
        } else if (outcome instanceof Unreadable unreadable) {
            return new Unreadable(unreadable.where(), Secrets.redact(unreadable.why(), List.of()));
        }
        return outcome;
    }

    /** A file name without its last extension, as an id part. */
    static String stem(String fileName) {
        int dot = fileName.lastIndexOf('.');
        String stem = dot > 0 ? fileName.substring(0, dot) : fileName;
        String id = stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[^a-z0-9]+", "");
        return id.isEmpty() ? "import" : id;
    }
}
