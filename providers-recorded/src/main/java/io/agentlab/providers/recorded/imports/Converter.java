package io.agentlab.providers.recorded.imports;

import io.agentlab.runtime.llm.Json;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.tokens.PromptTokens;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.RedactionRefusedException;
import io.agentlab.providers.recorded.RequestMatcher;
import io.agentlab.providers.recorded.Secrets;
import io.agentlab.providers.recorded.imports.Captured.EndOnly;
import io.agentlab.providers.recorded.imports.Captured.FirstByteAndEnd;
import io.agentlab.providers.recorded.imports.Captured.PerEvent;
import io.agentlab.providers.recorded.imports.Sse.BadEntry;
import io.agentlab.providers.recorded.imports.StreamImport.Imported;
import io.agentlab.providers.recorded.imports.StreamImport.Options;
import io.agentlab.providers.recorded.imports.StreamImport.Outcome;
import io.agentlab.providers.recorded.imports.StreamImport.Skipped;
import io.agentlab.providers.recorded.imports.StreamImport.Unreadable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A captured exchange to a recording: matcher, redacted payloads, offsets, provenance, checked to load. */
final class Converter {

    private final Options options;
    private final String idBase;

    Converter(Options options, String idBase) {
        this.options = options;
        this.idBase = idBase;
    }

    /** Why an exchange is not a chat completion to import, or null when it is one. */
    static String skipReason(String method, String url) {
        String path = path(url);
        if (!"POST".equalsIgnoreCase(method) || !(path.endsWith("/chat/completions")
                || path.endsWith("/chat/completions/"))) {
            // the path only: a query string may carry a key
            return method.toUpperCase(Locale.ROOT) + " " + Sources.abbreviate(path) + " is not a chat completion POST";
        }
        return null;
    }

    Outcome convert(Captured c) {
        try {
            return convertOrThrow(c);
        } catch (BadEntry e) {
            return new Unreadable(c.where(), e.getMessage());
        } catch (RedactionRefusedException e) {
            // a secret that could not be removed: the entry is refused, never written (docs/limits-and-safety.md)
            return new Unreadable(c.where(), e.getMessage() + "; not imported");
        }
    }

    private Outcome convertOrThrow(Captured c) {
        if (c.method() != null && skipReason(c.method(), c.url()) != null) {
            return new Skipped(c.where(), skipReason(c.method(), c.url()));
        }
        if (c.status() != null && (c.status() < 200 || c.status() >= 300)) {
            return new Skipped(c.where(), "HTTP " + c.status() + ": only successful streams are imported (suites "
                    + "inject errors as provider faults, docs/suite-format.md#provider-faults)");
        }
        // docs/limits-and-safety.md#credentials: the values the request carried, wherever a stream or a message echoes
        List<String> known = knownCredentials(c);
        List<String> payloads = c.payloads();
        if (payloads == null) {
            String body = c.sseBody();
            if (body == null) {
                throw new BadEntry("no response body was captured");
            }
            boolean declared = c.contentType() != null
                    && c.contentType().toLowerCase(Locale.ROOT).startsWith("text/event-stream");
            if (!declared && !Sse.looksLikeSse(body)) {
                if (notStreamed(c.requestBody())) {
                    return new Skipped(c.where(), "not streamed: the request did not set \"stream\": true");
                }
                throw new BadEntry("the response is not SSE (Content-Type " + (c.contentType() == null ? "absent"
                        : "'" + Sources.abbreviate(c.contentType()) + "'") + ", the body starts '"
                        + Sources.abbreviate(Secrets.redact(body.strip().lines().findFirst().orElse(""), known))
                        + "')");
            }
            long bytes = Sse.utf8Length(body);
            if (bytes > options.limits().maxResponseBytes()) {
                throw new BadEntry("the response body is " + bytes + " bytes, over the response limit of "
                        + options.limits().maxResponseBytes() + " bytes");
            }
            payloads = Sse.payloads(body, c.bodyLine(), options.limits());
            if (payloads.isEmpty()) {
                throw new BadEntry("the response has no SSE data: lines");
            }
        }

        RequestMatcher.Received received = null;
        String requestBody = c.requestBody() == null || c.requestBody().isBlank() ? null : c.requestBody();
        if (requestBody != null) {
            try {
                received = RequestMatcher.Received.of(requestBody, null);
            } catch (RuntimeException e) {
                throw new BadEntry("the request body is not a JSON chat completion request");
            }
        }
        String header = first(c.requestHeaders(), OpenAiCompatibleClient.ROLE_HEADER.toLowerCase(Locale.ROOT));
        String role = options.role() != null ? options.role() : header != null ? header.strip() : "chat";
        if (!Options.ROLES.contains(role)) {
            throw new BadEntry("the " + OpenAiCompatibleClient.ROLE_HEADER + " header is '"
                    + Sources.abbreviate(Secrets.redact(role, known))
                    + "', not one of " + String.join(", ", Options.ROLES.stream().sorted().toList())
                    + " (give the role)");
        }
        String mode = options.mode() != null ? options.mode()
                : received != null ? received.mode() : RequestMatcher.ANY_MODE;
        String lastUser = options.lastUserMessage() != null ? options.lastUserMessage()
                : received != null ? received.lastUserMessage() : "";

        List<Integer> changed = new ArrayList<>();
        List<Recording.TimedEvent> events = new ArrayList<>();
        int promptTokens = requestBody == null ? 0 : promptTokens(requestBody);
        for (int i = 0; i < payloads.size(); i++) {
            String data = Secrets.redact(payloads.get(i), known);
            if (!data.equals(payloads.get(i))) {
                changed.add(i);
            }
            events.add(new Recording.TimedEvent(offset(c.timing(), i, payloads.size(), promptTokens), data));
        }
        String safeUser = Secrets.redact(lastUser, known);
        List<String> redacted = new ArrayList<>(List.of(
                "request headers, URL and body not imported (only mode, role and last user message)",
                "response headers other than Content-Type dropped"));
        if (!changed.isEmpty() || !safeUser.equals(lastUser)) {
            redacted.add("credential values and key-shaped strings replaced by " + Secrets.REDACTED + " in "
                    + (changed.isEmpty() ? "" : "event(s) " + String.join(", ", changed.stream().limit(20)
                    .map(String::valueOf).toList()) + (changed.size() > 20 ? " and more" : ""))
                    + (!changed.isEmpty() && !safeUser.equals(lastUser) ? " and " : "")
                    + (safeUser.equals(lastUser) ? "" : "the last user message"));
        }

        String id = c.entry() >= 0 ? idBase + "-" + c.entry() : idBase;
        Recording recording = new Recording(id, new RequestMatcher(mode, role, safeUser),
                new Recording.RecordedResponse(c.status() == null ? 200 : c.status(),
                        Map.of("Content-Type", "text/event-stream"), events),
                new Recording.Metadata(options.family(), model(requestBody, payloads),
                        c.date() != null && c.date().matches("[0-9]{4}-[0-9]{2}-[0-9]{2}") ? c.date()
                                : options.today().toString(), false, redacted, timing(c.timing(), promptTokens,
                        requestBody != null)));
        String text = Recordings.write(recording);
        List<Secrets.Finding> left = Secrets.scan(text);
        if (!left.isEmpty()) {
            throw new BadEntry("a credential-like string survived redaction (" + left.get(0).kind() + " "
                    + left.get(0).masked() + "); not imported");
        }
        try {
            Recordings.Loaded loaded = Recordings.read(text, c.where(), options.familyFolders());
            return new Imported(c.where(), loaded.recording(), loaded.notes());
        } catch (IllegalArgumentException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new BadEntry("the recording loader refuses it: "
                    + (message.startsWith(c.where() + ": ") ? message.substring(c.where().length() + 2) : message));
        }
    }

    private long offset(Captured.Timing timing, int index, int count, int promptTokens) {
        if (timing instanceof FirstByteAndEnd har) {
            return count == 1 ? har.firstByteMs()
                    : har.firstByteMs() + Math.round((har.endMs() - har.firstByteMs()) * (double) index / (count - 1));
        } else if (timing instanceof EndOnly end) {
            return Math.round(end.endMs() * (index + 1) / (double) count);
        } else if (timing instanceof PerEvent given) {
            return given.offsetsMs().get(index);
        }
        return options.latency().offsetMs(index, promptTokens);
    }

    /** The honest label of where the offsets came from (docs/recording.md#importing-streams). */
    private String timing(Captured.Timing timing, int promptTokens, boolean request) {
        if (timing instanceof FirstByteAndEnd har) {
            return "har: first byte at " + har.firstByteMs() + " ms and end at " + har.endMs()
                    + " ms recorded, events between interpolated";
        } else if (timing instanceof EndOnly end) {
            return "go-vcr: duration " + end.endMs() + " ms recorded and taken as the last event's offset, earlier "
                    + "events spread evenly before it (no first-byte time recorded)";
        } else if (timing instanceof PerEvent) {
            return "jsonl: offsets as given in at_ms";
        }
        return "modelled (the source records no timing): "
                + options.latency().describe().replaceFirst("^modelled: ", "") + ", "
                + (request ? promptTokens + " prompt tokens counted in the captured request"
                : "0 prompt tokens (no request captured)");
    }

    private static int promptTokens(String requestBody) {
        try {
            return PromptTokens.count(requestBody);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static boolean notStreamed(String requestBody) {
        if (requestBody == null || requestBody.isBlank()) {
            return false;
        }
        try {
            return !Json.tree(requestBody).path("stream").asBoolean(false);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The request's model, else the first chunk's; a name only (it is written to the metadata). */
    private static String model(String requestBody, List<String> payloads) {
        String model = null;
        if (requestBody != null) {
            model = Sources.text(Json.tree(requestBody).get("model"));
        }
        for (int i = 0; model == null && i < payloads.size(); i++) {
            try {
                model = Sources.text(Json.tree(payloads.get(i)).get("model"));
            } catch (RuntimeException notJson) {
                // [DONE] or a malformed chunk: look further
            }
        }
        return model != null && model.matches("[A-Za-z0-9._:/-]{1,128}") ? model : "unknown";
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * Credential values of the captured request, as the recorder collects them (key-named headers, query parameters
     * and JSON fields; docs/limits-and-safety.md#credentials); one too short to redact safely refuses the entry.
     */
    private static List<String> knownCredentials(Captured c) {
        List<Secrets.Credential> credentials = new ArrayList<>();
        c.requestHeaders().forEach((name, values) -> values.forEach(value ->
                credentials.addAll(Secrets.ofHeader(name, value))));
        String url = c.url();
        int query = url == null ? -1 : url.indexOf('?');
        if (query >= 0) {
            credentials.addAll(Secrets.ofQuery(url.substring(query + 1).replaceFirst("#.*", "")));
        }
        if (c.requestBody() != null) {
            credentials.addAll(Secrets.ofJsonBody(c.requestBody()));
        }
        try {
            Secrets.requireRedactable(credentials);
        } catch (RedactionRefusedException e) {
            throw new BadEntry(e.getMessage());
        }
        return credentials.stream().map(Secrets.Credential::value).toList();
    }

    private static String path(String url) {
        if (url == null) {
            return "";
        }
        String rest = url;
        int scheme = rest.indexOf("://");
        if (scheme >= 0) {
            int slash = rest.indexOf('/', scheme + 3);
            rest = slash < 0 ? "/" : rest.substring(slash);
        }
        int cut = rest.length();
        for (char c : new char[] {'?', '#'}) {
            int at = rest.indexOf(c);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return rest.substring(0, cut);
    }
}
