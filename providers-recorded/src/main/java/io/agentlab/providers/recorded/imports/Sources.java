package io.agentlab.providers.recorded.imports;

import io.agentlab.runtime.llm.Json;
import io.agentlab.providers.recorded.imports.Captured.EndOnly;
import io.agentlab.providers.recorded.imports.Captured.FirstByteAndEnd;
import io.agentlab.providers.recorded.imports.Captured.NoTiming;
import io.agentlab.providers.recorded.imports.Captured.PerEvent;
import io.agentlab.providers.recorded.imports.Captured.Timing;
import io.agentlab.providers.recorded.imports.Sse.BadEntry;
import io.agentlab.providers.recorded.imports.StreamImport.Format;
import io.agentlab.providers.recorded.imports.StreamImport.Options;
import io.agentlab.providers.recorded.imports.StreamImport.Outcome;
import io.agentlab.providers.recorded.imports.StreamImport.Skipped;
import io.agentlab.providers.recorded.imports.StreamImport.Unreadable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The four source readers (docs/recording.md#importing-streams). HAR files and cassettes are read one entry at a time
 * with a streaming parser, so memory holds one exchange, not the file; SSE transcripts and JSON lines are one stream
 * each, read within the response limit.
 */
final class Sources {

    /** How much of a file {@link #detect} looks at. */
    static final int HEAD_BYTES = 64 * 1024;
    /** What a {@code curl -i} header block may add to an SSE transcript beyond the response limit. */
    private static final int HEADER_ALLOWANCE = 64 * 1024;
    private static final Pattern VCR_KEY = Pattern.compile("(?m)^(http_)?interactions:");
    private static final Pattern GO_DURATION =
            Pattern.compile("([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h)");

    private Sources() {
    }

    /** Where a reader sends what it found. */
    interface Sink {
        /** A captured exchange, to convert. */
        void exchange(Captured captured);

        /** An outcome the reader decided itself (a skipped entry, an unreadable one). */
        void outcome(Outcome outcome);
    }

    static Format detect(String head) {
        String text = head.startsWith("\uFEFF") ? head.substring(1) : head;
        String stripped = text.stripLeading();
        if (stripped.startsWith("HTTP/") || Sse.looksLikeSse(stripped)) {
            return Format.SSE;
        }
        if (stripped.startsWith("{")) {
            int newline = stripped.indexOf('\n');
            String first = (newline < 0 ? stripped : stripped.substring(0, newline)).strip();
            try {
                JsonNode node = Json.tree(first);
                return node.isObject() && node.has("log") ? Format.HAR : Format.JSONL;
            } catch (JacksonException notOneLine) {
                return stripped.contains("\"log\"") ? Format.HAR : null;
            }
        }
        return VCR_KEY.matcher(text).find() ? Format.VCR : null;
    }

    // ---------------------------------------------------------------- HAR

    static void har(InputStream in, String file, Options options, Sink sink) throws IOException {
        ObjectMapper mapper = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(constraints(options))
                .build()).disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
        int reading = -1;
        try (JsonParser p = mapper.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                sink.outcome(new Unreadable(file, "not a HAR file: it is not a JSON object"));
                return;
            }
            if (into(p, Set.of("log"), JsonToken.START_OBJECT) == null) {
                sink.outcome(new Unreadable(file, "not a HAR file: no \"log\" object"));
                return;
            }
            if (into(p, Set.of("entries"), JsonToken.START_ARRAY) == null) {
                sink.outcome(new Unreadable(file, "not a HAR file: no \"log.entries\" array"));
                return;
            }
            reading = 0;
            while (p.nextToken() == JsonToken.START_OBJECT) {
                String where = file + " entries[" + reading + "] (line " + p.currentTokenLocation().getLineNr() + ")";
                JsonNode entry = mapper.readTree(p);
                int index = reading;
                perEntry(where, sink, () -> harEntry(entry, where, index, sink, options));
                reading++;
            }
        } catch (StreamConstraintsException e) {
            sink.outcome(new Unreadable(at(file, "entries", reading), "a value is over the import's limit ("
                    + e.getOriginalMessage() + "); the response limit is " + options.limits().maxResponseBytes()
                    + " bytes"));
        } catch (JacksonIOException e) {
            sink.outcome(new Unreadable(at(file, "entries", reading), unreadable(e)));
        } catch (JacksonException e) {
            sink.outcome(new Unreadable(at(file, "entries", reading), "not valid JSON: " + e.getOriginalMessage()
                    + " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()));
        } catch (RuntimeException e) { // a parser's own failure is still one outcome, never a crash of the import
            sink.outcome(new Unreadable(at(file, "entries", reading), "cannot parse: " + e));
        }
    }

    private static void harEntry(JsonNode entry, String where, int index, Sink sink, Options options) {
        JsonNode request = entry.path("request");
        JsonNode response = entry.path("response");
        if (!request.isObject() || !response.isObject()) {
            throw new BadEntry("not a HAR entry: it lacks a \"request\" or \"response\" object");
        }
        String method = required(request, "method", "request.method");
        String url = required(request, "url", "request.url");
        String skip = Converter.skipReason(method, url);
        if (skip != null) {
            sink.outcome(new Skipped(where, skip));
            return;
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (JsonNode header : request.path("headers")) {
            String name = text(header.get("name"));
            if (name != null) {
                headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(header.path("value").asString(""));
            }
        }
        String requestBody = text(request.path("postData").get("text"));
        JsonNode status = response.get("status");
        if (status == null || !status.isIntegralNumber()) {
            throw new BadEntry("response.status is missing or not a number");
        }
        JsonNode content = response.path("content");
        String contentType = null;
        for (JsonNode header : response.path("headers")) {
            if ("content-type".equalsIgnoreCase(header.path("name").asString(""))) {
                contentType = header.path("value").asString("");
            }
        }
        if (contentType == null) {
            contentType = text(content.get("mimeType"));
        }
        String body = text(content.get("text"));
        if (body != null && "base64".equalsIgnoreCase(content.path("encoding").asString(""))) {
            body = base64(body, "response.content.text (base64)", options);
        } else if (body == null && status.asInt() >= 200 && status.asInt() < 300) {
            // browsers leave out the body of an event stream in their HAR export; say so rather than "no body"
            throw new BadEntry("response.content.text is missing: the capture holds no body (browser devtools often "
                    + "leave out event-stream bodies; export from mitmproxy or Charles, or save the stream with curl)");
        }
        sink.exchange(new Captured(where, index, method, url, headers, requestBody, status.asInt(), contentType, body,
                null, 0, harTiming(entry), harDate(text(entry.get("startedDateTime")))));
    }

    /** HAR's time to first byte is blocked + dns + connect (which includes ssl) + send + wait; -1 means "none". */
    private static Timing harTiming(JsonNode entry) {
        JsonNode timings = entry.get("timings");
        if (timings == null || !timings.isObject() || !timings.path("wait").isNumber()) {
            return new NoTiming();
        }
        double first = 0;
        for (String phase : List.of("blocked", "dns", "connect", "send", "wait")) {
            first += Math.max(0, timings.path(phase).asDouble(0));
        }
        double end = entry.path("time").isNumber() ? entry.path("time").asDouble()
                : first + Math.max(0, timings.path("receive").asDouble(0));
        return new FirstByteAndEnd(Math.round(first), Math.max(Math.round(first), Math.round(end)));
    }

    private static String harDate(String started) {
        if (started == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(started).toLocalDate().toString();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- VCR

    static void vcr(InputStream in, String file, Options options, Sink sink) throws IOException {
        // snakeyaml-engine stops at 3 MiB by default; a cassette may hold many streams, up to the file limit
        LoadSettings settings = LoadSettings.builder()
                .setCodePointLimit((int) Math.min(Integer.MAX_VALUE, options.maxFileBytes())).build();
        ObjectMapper mapper = YAMLMapper.builder(YAMLFactory.builder().loadSettings(settings)
                .streamReadConstraints(constraints(options)).build())
                .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
        String list = "interactions";
        int reading = -1;
        // a Reader, not the stream: Jackson's own UTF-8 reader can hand snakeyaml-engine one character more than it
        // asked for when a surrogate pair ends its buffer (an IndexOutOfBoundsException on emoji at a 1 KiB boundary)
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
        try (JsonParser p = mapper.createParser(reader)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                sink.outcome(new Unreadable(file, "not a VCR cassette: it is not a YAML mapping"));
                return;
            }
            list = into(p, Set.of("interactions", "http_interactions"), JsonToken.START_ARRAY);
            if (list == null) {
                sink.outcome(new Unreadable(file, "not a VCR cassette: no \"interactions\" (vcrpy, go-vcr) or "
                        + "\"http_interactions\" (Ruby VCR) list"));
                return;
            }
            reading = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                String where = file + " " + list + "[" + reading + "] (line "
                        + p.currentTokenLocation().getLineNr() + ")";
                JsonNode interaction = mapper.readTree(p);
                int index = reading;
                perEntry(where, sink, () -> vcrEntry(interaction, where, index, sink, options));
                reading++;
            }
        } catch (StreamConstraintsException e) {
            sink.outcome(new Unreadable(at(file, list, reading), "a value is over the import's limit ("
                    + e.getOriginalMessage() + "); the response limit is " + options.limits().maxResponseBytes()
                    + " bytes"));
        } catch (JacksonIOException e) {
            sink.outcome(new Unreadable(at(file, list, reading), unreadable(e)));
        } catch (JacksonException e) {
            sink.outcome(new Unreadable(at(file, list, reading), "not valid YAML: " + e.getOriginalMessage()
                    .lines().findFirst().orElse("") + " at line " + e.getLocation().getLineNr()));
        } catch (RuntimeException e) { // a parser's own failure is still one outcome, never a crash of the import
            sink.outcome(new Unreadable(at(file, list, reading), "cannot parse: " + e));
        }
    }

    private static void vcrEntry(JsonNode interaction, String where, int index, Sink sink, Options options) {
        JsonNode request = interaction.path("request");
        JsonNode response = interaction.path("response");
        if (!request.isObject() || !response.isObject()) {
            throw new BadEntry("not a VCR interaction: it lacks a \"request\" or \"response\" mapping");
        }
        String method = required(request, "method", "request.method");
        String url = text(request.get("uri")) != null ? text(request.get("uri")) : text(request.get("url"));
        if (url == null) {
            throw new BadEntry("request.uri (vcrpy, Ruby VCR) or request.url (go-vcr) is missing");
        }
        String skip = Converter.skipReason(method, url);
        if (skip != null) {
            sink.outcome(new Skipped(where, skip));
            return;
        }
        Map<String, List<String>> headers = vcrHeaders(request.get("headers"));
        String requestBody = vcrBody(request.get("body"), "request.body", options);
        Integer status = vcrStatus(response);
        String contentType = vcrHeaders(response.get("headers")).getOrDefault("content-type", List.of()).stream()
                .findFirst().orElse(null);
        String body = vcrBody(response.get("body"), "response.body", options);
        Timing timing = new NoTiming();
        JsonNode duration = response.get("duration");
        if (duration != null && !duration.isNull()) {
            timing = new EndOnly(goDurationMs(duration));
        }
        sink.exchange(new Captured(where, index, method, url, headers, requestBody, status, contentType, body, null,
                0, timing, vcrDate(text(interaction.get("recorded_at")))));
    }

    /** vcrpy, Ruby VCR and go-vcr all write a header as a list of values; a single value is taken too. */
    private static Map<String, List<String>> vcrHeaders(JsonNode node) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (node != null && node.isObject()) {
            for (Map.Entry<String, JsonNode> header : node.properties()) {
                List<String> values = headers.computeIfAbsent(header.getKey().toLowerCase(Locale.ROOT),
                        k -> new ArrayList<>());
                if (header.getValue().isArray()) {
                    header.getValue().forEach(v -> values.add(v.asString("")));
                } else {
                    values.add(header.getValue().asString(""));
                }
            }
        }
        return headers;
    }

    /**
     * A body: go-vcr's and vcrpy's request body are strings, vcrpy's response body is {@code {string: ...}} (a
     * {@code !!binary} value for bytes), Ruby VCR's is {@code {encoding, string}} or {@code {encoding,
     * base64_string}}.
     */
    private static String vcrBody(JsonNode node, String what, Options options) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isString()) {
            return node.asString();
        }
        if (node.isBinary()) {
            return Sse.utf8(node.binaryValue(), what + " (!!binary)");
        }
        if (node.isObject()) {
            if (node.hasNonNull("base64_string")) {
                return base64(node.get("base64_string").asString(""), what + ".base64_string", options);
            }
            if (node.has("string")) {
                return vcrBody(node.get("string"), what + ".string", options);
            }
            throw new BadEntry(what + " has neither \"string\" nor \"base64_string\"");
        }
        throw new BadEntry(what + " is neither text nor a mapping");
    }

    private static Integer vcrStatus(JsonNode response) {
        JsonNode status = response.get("status");
        if (status != null && status.isObject() && status.path("code").isIntegralNumber()) {
            return status.get("code").asInt(); // vcrpy, Ruby VCR
        }
        if (response.path("code").isIntegralNumber()) {
            return response.get("code").asInt(); // go-vcr
        }
        if (status != null && status.isIntegralNumber()) {
            return status.asInt();
        }
        if (status != null && status.isString() && status.asString().matches("[0-9]{3}\\b.*")) {
            return Integer.parseInt(status.asString().substring(0, 3)); // go-vcr v1: "200 OK"
        }
        throw new BadEntry("response.status.code (or go-vcr's response.code) is missing");
    }

    /** go-vcr writes a Go duration ({@code 1.204s}, {@code 812.5ms}, {@code 1m2s}); a bare number is nanoseconds. */
    static long goDurationMs(JsonNode duration) {
        if (duration.isNumber()) {
            return Math.max(0, Math.round(duration.asDouble() / 1e6));
        }
        String text = duration.asString("").strip();
        Matcher part = GO_DURATION.matcher(text);
        double ms = 0;
        int at = 0;
        while (part.find() && part.start() == at) {
            double value = Double.parseDouble(part.group(1));
            ms += value * switch (part.group(2)) {
                case "ns" -> 1e-6;
                case "us", "µs", "μs" -> 1e-3;
                case "ms" -> 1;
                case "s" -> 1e3;
                case "m" -> 60e3;
                default -> 3600e3;
            };
            at = part.end();
        }
        if (text.isEmpty() || at != text.length()) {
            throw new BadEntry("response.duration '" + abbreviate(text) + "' is not a Go duration (like 1.204s)");
        }
        return Math.round(ms);
    }

    private static String vcrDate(String recordedAt) {
        if (recordedAt == null) {
            return null;
        }
        try {
            return ZonedDateTime.parse(recordedAt, DateTimeFormatter.RFC_1123_DATE_TIME).toLocalDate().toString();
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(recordedAt).toLocalDate().toString();
            } catch (DateTimeParseException again) {
                return null;
            }
        }
    }

    // ---------------------------------------------------------------- SSE transcripts

    static void sse(InputStream in, String file, Options options, Sink sink) throws IOException {
        long max = options.limits().maxResponseBytes() + HEADER_ALLOWANCE;
        byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
        if (bytes.length > max) {
            sink.outcome(new Unreadable(file, "the transcript is over the response limit of "
                    + options.limits().maxResponseBytes() + " bytes"));
            return;
        }
        perEntry(file, sink, () -> {
            String text = Sse.utf8(bytes, "the transcript");
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
            Integer status = null;
            String contentType = null;
            int line = 1;
            int at = 0;
            // curl -i: one header block per response it saw (a proxy's "200 Connection established", a 100 Continue)
            while (text.startsWith("HTTP/", at)) {
                int end = lineEnd(text, at);
                String statusLine = text.substring(at, end).strip();
                String[] parts = statusLine.split("\\s+");
                if (parts.length < 2 || !parts[1].matches("[0-9]{3}")) {
                    throw new BadEntry("line " + line + ": '" + abbreviate(statusLine)
                            + "' is not an HTTP status line");
                }
                status = Integer.parseInt(parts[1]);
                at = next(text, end);
                line++;
                while (at < text.length()) {
                    end = lineEnd(text, at);
                    String header = text.substring(at, end);
                    at = next(text, end);
                    line++;
                    if (header.isBlank()) {
                        break;
                    }
                    int colon = header.indexOf(':');
                    if (colon > 0 && header.substring(0, colon).strip().equalsIgnoreCase("content-type")) {
                        contentType = header.substring(colon + 1).strip();
                    }
                }
            }
            sink.exchange(new Captured(file, -1, null, null, Map.of(), null, status, contentType, text.substring(at),
                    null, line, new NoTiming(), null));
        });
    }

    private static int lineEnd(String text, int from) {
        int end = from;
        while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
            end++;
        }
        return end;
    }

    private static int next(String text, int end) {
        if (end + 1 < text.length() && text.charAt(end) == '\r' && text.charAt(end + 1) == '\n') {
            return end + 2;
        }
        return Math.min(text.length(), end + 1);
    }

    // ---------------------------------------------------------------- JSON lines

    /**
     * One stream: each line a chunk object (the payload is the line as written), a bare {@code [DONE]}, or all lines
     * {@code {"at_ms": N, "data": "<payload>"}} (offsets kept as given); blank lines are ignored.
     */
    static void jsonl(InputStream in, String file, Options options, Sink sink) throws IOException {
        perEntry(file, sink, () -> {
            Sse.BoundedLines lines = new Sse.BoundedLines(in, options.limits().maxLineBytes());
            List<String> payloads = new ArrayList<>();
            List<Long> offsets = new ArrayList<>();
            Boolean wrapped = null;
            long bytes = 0;
            String line;
            try {
                while ((line = lines.next()) != null) {
                    if (line.isBlank()) {
                        continue;
                    }
                    String where = "line " + lines.number();
                    String payload;
                    if (line.strip().equals("[DONE]")) {
                        payload = "[DONE]";
                        offsets.add(offsets.isEmpty() ? 0 : offsets.get(offsets.size() - 1));
                    } else {
                        JsonNode node;
                        try {
                            node = Json.tree(line);
                        } catch (JacksonException e) {
                            throw new BadEntry(where + " is not JSON: " + e.getOriginalMessage());
                        }
                        if (!node.isObject()) {
                            throw new BadEntry(where + " is not a chunk object");
                        }
                        boolean wrapper = node.size() == 2 && node.has("at_ms") && node.has("data");
                        if (wrapped != null && wrapped != wrapper) {
                            throw new BadEntry(where + " mixes {\"at_ms\", \"data\"} lines with bare chunk lines");
                        }
                        wrapped = wrapper;
                        if (wrapper) {
                            JsonNode at = node.get("at_ms");
                            if (!at.isIntegralNumber() || at.asLong() < 0) {
                                throw new BadEntry(where + ": at_ms must be a whole number of milliseconds >= 0");
                            }
                            if (!node.get("data").isString()) {
                                throw new BadEntry(where + ": data must be the payload as a string");
                            }
                            long previous = offsets.isEmpty() ? 0 : offsets.get(offsets.size() - 1);
                            if (at.asLong() < previous) {
                                throw new BadEntry(where + ": at_ms " + at.asLong() + " comes before the previous "
                                        + previous);
                            }
                            offsets.add(at.asLong());
                            payload = node.get("data").asString();
                        } else {
                            payload = line;
                            offsets.add(0L);
                        }
                    }
                    bytes += Sse.utf8Length(payload) + "data: \n\n".length();
                    if (bytes > options.limits().maxResponseBytes()) {
                        throw new BadEntry(where + ": the stream is over the response limit of "
                                + options.limits().maxResponseBytes() + " bytes");
                    }
                    if (payloads.size() >= options.limits().maxChunks()) {
                        throw new BadEntry(where + ": the stream has more than " + options.limits().maxChunks()
                                + " events, the event limit");
                    }
                    payloads.add(payload);
                }
            } catch (IOException e) {
                throw new BadEntry("cannot read: " + e.getMessage());
            }
            if (payloads.isEmpty()) {
                throw new BadEntry("no chunk lines");
            }
            sink.exchange(new Captured(file, -1, null, null, Map.of(), null, null, null, null, payloads, 0,
                    Boolean.TRUE.equals(wrapped) ? new PerEvent(offsets) : new NoTiming(), null));
        });
    }

    // ---------------------------------------------------------------- shared

    /** Runs one entry's reading; a {@link BadEntry} becomes that entry's one {@link Unreadable}. */
    private static void perEntry(String where, Sink sink, Runnable read) {
        try {
            read.run();
        } catch (BadEntry e) {
            sink.outcome(new Unreadable(where, e.getMessage()));
        }
    }

    /**
     * Moves into the object or array under one of {@code names} in the object the parser is in.
     *
     * @return the name found, or null at the object's end
     */
    private static String into(JsonParser p, Set<String> names, JsonToken expected) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (names.contains(name) && value == expected) {
                return name;
            }
            p.skipChildren();
        }
        return null;
    }

    /** Strings only: a number or a mapping where text belongs is absent, not its text. */
    static String text(JsonNode node) {
        return node != null && node.isString() ? node.asString() : null;
    }

    private static String required(JsonNode node, String field, String what) {
        String value = text(node.get(field));
        if (value == null) {
            throw new BadEntry(what + " is missing");
        }
        return value;
    }

    /** Strict base64 (line breaks allowed, as Ruby writes them): garbage is an error, never silently dropped. */
    private static String base64(String text, String what, Options options) {
        String compact = text.replaceAll("\\s+", "");
        if (compact.length() / 4L * 3 > options.limits().maxResponseBytes() + 3) {
            throw new BadEntry(what + " decodes to over the response limit of " + options.limits().maxResponseBytes()
                    + " bytes");
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(compact);
        } catch (IllegalArgumentException e) {
            throw new BadEntry(what + " is not valid base64: " + e.getMessage());
        }
        return Sse.utf8(bytes, what + " after decoding");
    }

    /** A string may be a whole response, in base64 (4/3 of it); beyond that it is over the limit anyway. */
    private static StreamReadConstraints constraints(Options options) {
        long max = options.limits().maxResponseBytes() / 3 * 4 + 1024;
        return StreamReadConstraints.builder().maxStringLength((int) Math.min(Integer.MAX_VALUE - 8, max))
                .maxDocumentLength(options.maxFileBytes()).build();
    }

    private static String unreadable(JacksonIOException e) {
        return e.getCause() instanceof CharacterCodingException ? "not UTF-8 text" : "cannot read: " + e.getMessage();
    }

    private static String at(String file, String list, int reading) {
        return reading < 0 ? file : file + " " + list + "[" + reading + "]";
    }

    static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
