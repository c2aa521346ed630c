package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.llm.Json;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * Finds and removes credentials in text the recorder is about to write (docs/limits-and-safety.md#credentials).
 *
 * <p>The text is read in every encoding a body can carry a key in: as it is, URL-decoded ({@code %2D} included),
 * JSON-unescaped ({@code \/}, {@code \u002d}, fully or partly escaped), combinations of those, and base64 runs
 * decoded (Basic credentials, base64 bodies, data URLs). Each decoded view keeps, for every character, the span of the
 * original text it came from, so a secret found in a view is removed from the original in whatever encoding it is
 * there; a base64 run holding one is decoded, redacted and encoded again. Two layers feed it: the exact values a
 * request carried (replaced only as whole tokens, and only when at least {@link #MIN_CREDENTIAL_LENGTH} long), and
 * the key shapes providers and clouds issue. Afterwards every view is scanned again; if anything is left,
 * {@link #redact} refuses with {@link UnredactableSecretException} rather than return text that still holds it.
 * {@link #scan} is also the build's check over every recording in the repository.
 */
@API(status = INTERNAL, since = "0.1")
public final class Secrets {

    /** What replaces a secret. */
    public static final String REDACTED = "[REDACTED]";

    /**
     * The shortest credential a request may carry (docs/limits-and-safety.md#credentials): a shorter value cannot be
     * told from ordinary words, so replacing it would corrupt the recording and leaving it would leak it.
     */
    public static final int MIN_CREDENTIAL_LENGTH = 16;

    /** How many decodings deep a view may be ({@code %5Cu002d} is two: URL, then JSON). */
    private static final int MAX_VIEW_DEPTH = 3;
    /** How many base64 layers deep content is read (a Basic header inside a base64 body is two). */
    private static final int MAX_BASE64_DEPTH = 2;
    /** Base64 runs shorter than this hold nothing worth finding (12 bytes). */
    private static final int MIN_BASE64_RUN = 16;
    /** The shortest text a secret in decoded base64 content can be part of ({@code Basic} and 8 characters). */
    private static final int MIN_TEXT_RUN = 12;
    private static final int MAX_REDACTION_ROUNDS = 4;
    private static final int MAX_BODY_DEPTH = 64;


    /**
     * A key shape: a name for reports, the pattern (its group {@code v}, when present, is the secret part), and a
     * check of the secret part.
     */
    private record Shape(String name, Pattern pattern, boolean valueGroup, Predicate<Matcher> accept,
                         List<String> hints) {
        Shape(String name, String hints, String regex) {
            this(name, hints, regex, match -> true);
        }

        Shape(String name, String hints, String regex, Predicate<Matcher> accept) {
            this(name, Pattern.compile(regex), regex.contains("(?<v>"), accept, List.of(hints.split(" ")));
        }

        /** Whether the text (lower-cased) holds one of the literals every match has: most texts hold none. */
        boolean mayMatch(String lower) {
            for (String hint : hints) {
                if (lower.contains(hint)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A key starts a word: "task-force-…" holds no "sk-" key. */
    private static final String START = "(?<![A-Za-z0-9])";
    /** The token run that follows holds a digit, an upper- and a lower-case letter: a generated value, not words. */
    private static final String MIXED = "(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])";
    /** An optional quote around a name or value, JSON-escaped or not. */
    private static final String QUOTE = "(?:\\\\?[\"'])?";
    private static final String ASSIGN = QUOTE + "\\s*[:=]\\s*" + QUOTE;

    /** Names of headers, query parameters and JSON fields whose values are credentials. */
    private static final Pattern KEY_NAME = Pattern.compile(
            "(?i)(api[-_]?key|apikey|x[-_]api[-_]key|x[-_]goog[-_]api[-_]key|access[-_]?token|auth[-_]?token"
                    + "|refresh[-_]?token|client[-_]?secret|secret[-_]?key|secret|password|passwd|token|key)");
    /** Names that mean a credential even with a prefix ({@code openai_api_key}, {@code aws_secret_access_key}). */
    private static final Pattern STRONG_NAME = Pattern.compile("(?i)[A-Za-z0-9_-]*(?:api[-_]?key|access[-_]?key|secret[-_]?(?:access[-_]?)?key"
            + "|(?:access|auth|refresh|session|bearer)[-_]?token|client[-_]?secret|private[-_]?key|password|passwd"
            + "|secret)");

    private static final List<Shape> SHAPES = List.of(
            // OpenAI project, service-account and admin keys; glued to a preceding word too ("xsk-proj-…")
            new Shape("OpenAI key", "sk-", "sk-(?:proj|svcacct|admin)-" + MIXED + "[A-Za-z0-9_-]{20,}"),
            new Shape("Anthropic key", "sk-ant-", "sk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_-]{20,}|" + START
                    + "sk-ant-[A-Za-z0-9_-]{20,}"),
            // OpenAI legacy keys (48 letters and digits), DeepSeek and DashScope (32 hex): a long generated run is a key
            // wherever it starts; a shorter or hyphenated one only at a word start
            new Shape("sk- key", "sk-", "sk-[A-Za-z0-9]{40,}|sk-(?=[A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[A-Za-z])"
                    + "[A-Za-z0-9]{32,}|"
                    + START + "sk-[A-Za-z0-9_-]{16,}"),
            new Shape("Google API key", "aiza", "AIza[0-9A-Za-z_-]{35}"),
            new Shape("Google OAuth token", "ya29.", "ya29\\.[0-9A-Za-z_-]{20,}"),
            new Shape("AWS access key id", "akia asia abia acca", "(?:AKIA|ASIA)[0-9A-Z]{16}"
                    + "|(?<![A-Z0-9])(?:ABIA|ACCA)[0-9A-Z]{16}"),
            new Shape("AWS secret access key", "secret", "(?i:aws[-_]?secret[-_]?access[-_]?key"
                    + "|secret[-_]?access[-_]?key"
                    + "|aws[-_]?secret[-_]?key)" + ASSIGN + "(?<v>[A-Za-z0-9/+]{40})"),
            new Shape("Azure storage key", "accountkey sharedaccesskey",
                    "(?i:AccountKey|SharedAccessKey)\\s*=\\s*(?<v>[A-Za-z0-9+/]{20,}={0,2})"),
            new Shape("Azure SAS signature", "sig=", "(?i:sig)=(?<v>[A-Za-z0-9+/]{43}=?)"),
            new Shape("Azure OpenAI key", "key", "(?i:api[-_]?key|ocp-apim-subscription-key)" + ASSIGN
                    + "(?<v>[0-9a-fA-F]{32})"),
            new Shape("GitHub token", "gh github_pat_", "gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}"),
            new Shape("Slack token", "xox xapp-", "xox[abprse]-[A-Za-z0-9-]{10,}|xapp-[0-9]-[A-Za-z0-9-]{10,}"),
            // glued to a preceding word a token must mix upper and lower case: "pdf_…" identifiers are not tokens
            new Shape("Hugging Face token", "hf_", START + "hf_[A-Za-z0-9]{30,}"
                    + "|hf_(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])"
                    + "[A-Za-z0-9]{30,}"),
            new Shape("Stripe key", "_live_ _test_ whsec_",
                    "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}"),
            new Shape("JWT", "eyj", "eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
            new Shape("private key", "private key",
                    "-----BEGIN (?<t>[A-Z0-9 ]*)PRIVATE KEY-----[A-Za-z0-9+/=\\s]*?-----END "
                    + "\\k<t>PRIVATE KEY-----|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:\\s*[A-Za-z0-9+/=]{16,})*"),
            // a token after "Bearer" holds a digit: "Bearer authentication" is prose
            new Shape("Bearer credential", "bearer",
                    "(?i)\\bbearer\\s+(?<v>(?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{12,}=*)"),
            // "Basic understanding" is prose: a Basic credential decodes to user:password
            new Shape("Basic credential", "basic", "(?i)\\bbasic\\s+(?<v>[A-Za-z0-9+/]{8,}={0,2})",
                    match -> isBasicPair(match.group("v"))),
            // a key-named field or parameter with a value that looks generated (letters and digits, 16+),
            // in JSON (escaped or not), query strings and headers: "api_key": "...", \"apiKey\":\"...\", key=...
            new Shape("key-named value", "key token secret passw", "(?i)" + QUOTE + "(?<![A-Za-z0-9_-])"
                    + "(?<n>[A-Za-z0-9_-]{3,64}?)" + ASSIGN
                    + "(?=[A-Za-z0-9._~+/-]*[0-9])(?=[A-Za-z0-9._~+/-]*[A-Za-z])(?<v>[A-Za-z0-9._~+/-]{16,})",
                    match -> isCredentialFieldName(match.group("n"))));

    private Secrets() {
    }

    /**
     * One suspected credential.
     *
     * @param kind   which shape matched, and in which encoding when not plain (e.g. {@code GitHub token, URL-encoded})
     * @param offset where in the text it starts (for one inside a base64 run: where the run starts)
     * @param masked the secret with all but its first four characters masked (safe to print)
     */
    public record Finding(String kind, int offset, String masked) {
    }

    /**
     * A credential a request carried.
     *
     * @param source where it was carried, for messages: {@code the x-api-key header}, {@code the query parameter
     *               key}, {@code the JSON field api_key} (never the value)
     * @param value  the secret itself
     */
    public record Credential(String source, String value) {
        @Override
        public String toString() {
            return "Credential[" + source + ", " + value.length() + " characters]"; // never the value
        }
    }

    /** Every suspected credential in {@code text}, in every encoding it is read in, in order. */
    public static List<Finding> scan(String text) {
        return scan(text, List.of());
    }

    /**
     * Every suspected credential in {@code text}, and every occurrence (even inside a longer token) of the
     * {@code known} values, in every encoding, in order.
     */
    public static List<Finding> scan(String text, Collection<String> known) {
        List<Hit> hits = new ArrayList<>();
        inspect(text, usable(known), Set.of(), 0, hits, true);
        return findings(hits);
    }

    /**
     * Removes the known secret values and everything a key shape matches, in every encoding, touching nothing else.
     *
     * @param text  what is about to be written
     * @param known credential values the exchange carried (blank ones are ignored); each is replaced only where it is
     *              a whole token (not inside a longer run of letters, digits, {@code _} and {@code -})
     * @return the text with every secret replaced by {@link #REDACTED}
     * @throws ShortCredentialException    when a known value is shorter than {@link #MIN_CREDENTIAL_LENGTH}
     * @throws UnredactableSecretException when something credential-like would still be in the result
     */
    public static String redact(String text, Collection<String> known) {
        for (String value : known) {
            if (value != null && !value.isBlank() && value.strip().length() < MIN_CREDENTIAL_LENGTH) {
                throw new ShortCredentialException("a known credential", value.strip().length());
            }
        }
        List<String> values = usable(known);
        Set<String> found = new LinkedHashSet<>();
        String result = text;
        for (int round = 0; round < MAX_REDACTION_ROUNDS; round++) {
            String next = redactOnce(result, values, found, 0);
            if (next.equals(result)) {
                break;
            }
            result = next;
        }
        // whatever is left in any view, and any known or found value anywhere (even glued), is refused, not written
        List<Hit> left = new ArrayList<>();
        List<String> everything = new ArrayList<>(values);
        everything.addAll(found);
        inspect(result, everything, Set.of(), 0, left, true);
        if (!left.isEmpty()) {
            throw new UnredactableSecretException(findings(left));
        }
        return result;
    }

    /**
     * What a stream would still give away when its events are read together: each JSON string field (a delta's
     * {@code content}, a tool call's {@code arguments}, …) joined across the events in order, then scanned with the
     * {@code known} values, so a key a model echoes a few characters per chunk — which no single event shows — is
     * found (docs/limits-and-safety.md#credentials). A finding's offset is the index of the event it starts in.
     *
     * @param payloads the events' data, each already redacted; ones that are not JSON are skipped
     */
    public static List<Finding> scanStream(List<String> payloads, Collection<String> known) {
        Map<String, StringBuilder> joined = new LinkedHashMap<>();
        Map<String, List<Integer>> starts = new LinkedHashMap<>(); // where each event begins in the joined text
        Map<String, String> first = new LinkedHashMap<>();
        Set<String> varying = new HashSet<>(); // an id or model repeated in every event is no text being streamed
        for (int event = 0; event < payloads.size(); event++) {
            Map<String, String> fields = new LinkedHashMap<>();
            try {
                strings(Json.tree(payloads.get(event)), "", fields, 0);
            } catch (RuntimeException notJson) {
                continue; // [DONE], or a payload the scan of the event itself already covers
            }
            for (Map.Entry<String, String> field : fields.entrySet()) {
                if (!first.computeIfAbsent(field.getKey(), key -> field.getValue()).equals(field.getValue())) {
                    varying.add(field.getKey());
                }
                StringBuilder text = joined.computeIfAbsent(field.getKey(), key -> new StringBuilder());
                List<Integer> at = starts.computeIfAbsent(field.getKey(), key -> new ArrayList<>());
                at.add(text.length());
                at.add(event);
                text.append(field.getValue());
            }
        }
        List<Finding> findings = new ArrayList<>();
        for (Map.Entry<String, StringBuilder> field : joined.entrySet()) {
            List<Integer> at = starts.get(field.getKey());
            if (at.size() <= 2 || !varying.contains(field.getKey())) {
                continue; // in one event only, or the same in each: nothing joined that one event's scan did not see
            }
            for (Finding finding : scan(field.getValue().toString(), known)) {
                int event = at.get(1);
                for (int i = 0; i < at.size(); i += 2) {
                    if (at.get(i) <= finding.offset()) {
                        event = at.get(i + 1);
                    }
                }
                findings.add(new Finding(finding.kind() + ", across stream events in " + field.getKey(), event,
                        finding.masked()));
            }
        }
        return findings;
    }

    private static void strings(JsonNode node, String path, Map<String, String> fields, int depth) {
        if (node == null || depth > MAX_BODY_DEPTH) {
            return;
        }
        if (node.isString()) {
            fields.put(path, node.asString());
        } else if (node.isObject()) {
            for (var entry : node.properties()) {
                strings(entry.getValue(), path.isEmpty() ? entry.getKey() : path + "." + entry.getKey(), fields,
                        depth + 1);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                strings(node.get(i), path + "[" + i + "]", fields, depth + 1);
            }
        }
    }

    /**
     * {@link #redact}, for a message (a log line, an error reported to a client): never throws; a message that
     * cannot be redacted is replaced by a notice saying so.
     */
    public static String redactMessage(String text, Collection<String> known) {
        try {
            return redact(text, known);
        } catch (RedactionRefusedException e) {
            return "[message withheld: " + e.getMessage() + "]";
        }
    }

    /**
     * Refuses credentials too short to redact safely (docs/limits-and-safety.md#credentials).
     *
     * @throws ShortCredentialException naming the first one shorter than {@link #MIN_CREDENTIAL_LENGTH}
     */
    public static void requireRedactable(Collection<Credential> credentials) {
        for (Credential credential : credentials) {
            if (credential.value().strip().length() < MIN_CREDENTIAL_LENGTH) {
                throw new ShortCredentialException(credential.source(), credential.value().strip().length());
            }
        }
    }

    /** Whether a header, query parameter or JSON field of this name carries a credential. */
    public static boolean isCredentialName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.equals("authorization") || lower.equals("proxy-authorization") || lower.equals("cookie")
                || lower.equals("set-cookie") || KEY_NAME.matcher(lower).matches();
    }

    /**
     * The credentials one request header carries (none when its name is not a credential's): the token after a
     * scheme ({@code Bearer}, {@code Token}, …), for {@code Basic} the password and the pair (the user name is no
     * secret), for {@code Cookie} each cookie's value, otherwise the value. Blank values carry nothing.
     */
    public static List<Credential> ofHeader(String name, String value) {
        List<Credential> credentials = new ArrayList<>();
        String lower = name.toLowerCase(Locale.ROOT);
        if (!isCredentialName(lower) || value == null || value.isBlank()) {
            return credentials;
        }
        String header = "the " + name + " header";
        if (lower.equals("cookie")) {
            for (String cookie : value.split(";")) {
                int equals = cookie.indexOf('=');
                String cookieValue = equals < 0 ? cookie.strip() : cookie.substring(equals + 1).strip();
                if (!cookieValue.isEmpty()) {
                    credentials.add(new Credential(header + " (cookie " + (equals < 0 ? "?" : cookie.substring(0,
                            equals).strip()) + ")", cookieValue));
                }
            }
            return credentials;
        }
        String[] schemeAndToken = value.strip().split("\\s+", 2);
        if (schemeAndToken.length == 2 && schemeAndToken[0].matches("[A-Za-z][A-Za-z0-9-]*")) {
            String token = schemeAndToken[1].strip();
            if (schemeAndToken[0].equalsIgnoreCase("basic")) {
                String decoded = decodeBase64(token, false);
                int colon = decoded == null ? -1 : decoded.indexOf(':');
                if (colon >= 0) {
                    credentials.add(new Credential(header + " (Basic password)", decoded.substring(colon + 1)));
                    credentials.add(new Credential(header + " (Basic user:password)", decoded));
                }
            }
            credentials.add(new Credential(header + " (" + schemeAndToken[0] + " token)", token));
        } else {
            credentials.add(new Credential(header, value.strip()));
        }
        return credentials;
    }

    /** The credentials a raw query string carries: the values of key-named parameters, decoded and as sent. */
    public static List<Credential> ofQuery(String rawQuery) {
        List<Credential> credentials = new ArrayList<>();
        if (rawQuery == null) {
            return credentials;
        }
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                continue;
            }
            String name = lenientUrlDecode(pair.substring(0, equals));
            String raw = pair.substring(equals + 1);
            String decoded = lenientUrlDecode(raw);
            if (isCredentialName(name) && !decoded.isBlank()) {
                credentials.add(new Credential("the query parameter " + name, decoded));
                if (!raw.equals(decoded)) {
                    credentials.add(new Credential("the query parameter " + name + " (as sent)", raw));
                }
            }
        }
        return credentials;
    }

    /** The credentials a JSON request body carries: string values of key-named fields at any depth. */
    public static List<Credential> ofJsonBody(String body) {
        List<Credential> credentials = new ArrayList<>();
        try {
            collect(Json.tree(body), credentials, 0);
        } catch (RuntimeException notJson) {
            // not JSON: the key-shape patterns still apply to whatever is written
        }
        return credentials;
    }

    private static void collect(JsonNode node, List<Credential> credentials, int depth) {
        if (node == null || depth > MAX_BODY_DEPTH) {
            return; // deeper than any real request; the key-shape patterns still cover what is written
        }
        if (node.isObject()) {
            for (var entry : node.properties()) {
                if (isCredentialName(entry.getKey()) && entry.getValue().isString()) {
                    if (!entry.getValue().asString().isBlank()) {
                        credentials.add(new Credential("the JSON field " + entry.getKey(),
                                entry.getValue().asString()));
                    }
                } else {
                    collect(entry.getValue(), credentials, depth + 1);
                }
            }
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, credentials, depth + 1));
        }
    }

    // ---- views: the text decoded, each character knowing the original span it came from ----

    /**
     * The text as one decoding reads it. Character {@code i} of {@code text} came from {@code [from[i], to[i])} of
     * the original.
     */
    private record View(String text, int[] from, int[] to, String encoding) {
        static View plain(String text) {
            int[] from = new int[text.length()];
            int[] to = new int[text.length()];
            for (int i = 0; i < from.length; i++) {
                from[i] = i;
                to[i] = i + 1;
            }
            return new View(text, from, to, "");
        }

        /** Whether characters {@code [start, end)} come one for one from the original (nothing decoded there). */
        boolean verbatim(int start, int end) {
            return end == start || to[end - 1] - from[start] == end - start;
        }

        View decoded(String encoding) {
            return new View(text, from, to, this.encoding.isEmpty() ? encoding : this.encoding + ", " + encoding);
        }
    }

    private static List<View> views(String text) {
        List<View> views = new ArrayList<>();
        views.add(View.plain(text));
        Set<String> seen = new LinkedHashSet<>();
        seen.add(text);
        int level = 0;
        for (int depth = 0; depth < MAX_VIEW_DEPTH; depth++) {
            int end = views.size();
            for (int i = level; i < end; i++) {
                for (View next : Arrays.asList(jsonUnescaped(views.get(i)), urlDecoded(views.get(i)))) {
                    if (next != null && seen.add(next.text())) {
                        views.add(next);
                    }
                }
            }
            level = end;
        }
        return views;
    }

    /** JSON string escapes decoded ({@code \u002d}, {@code \/}, {@code \"}, {@code \n}, …); null when there are none. */
    private static View jsonUnescaped(View view) {
        String text = view.text();
        if (text.indexOf('\\') < 0) {
            return null;
        }
        StringBuilder out = new StringBuilder(text.length());
        int[] from = new int[text.length()];
        int[] to = new int[text.length()];
        int n = 0;
        boolean changed = false;
        for (int i = 0; i < text.length(); ) {
            char c = text.charAt(i);
            int length = 1;
            char decoded = c;
            if (c == '\\' && i + 1 < text.length()) {
                char e = text.charAt(i + 1);
                if (e == 'u' && isHex(text, i + 2, 4)) {
                    decoded = (char) Integer.parseInt(text.substring(i + 2, i + 6), 16);
                    length = 6;
                } else {
                    int simple = "\"\\/bfnrt".indexOf(e);
                    if (simple >= 0) {
                        decoded = "\"\\/\b\f\n\r\t".charAt(simple);
                        length = 2;
                    }
                }
            }
            changed |= length > 1;
            out.append(decoded);
            from[n] = view.from()[i];
            to[n] = view.to()[i + length - 1];
            n++;
            i += length;
        }
        return changed ? new View(out.toString(), Arrays.copyOf(from, n), Arrays.copyOf(to, n),
                view.encoding()).decoded("JSON-escaped") : null;
    }

    /** Percent escapes decoded ({@code %2D}, {@code %73}); null when there are none. */
    private static View urlDecoded(View view) {
        String text = view.text();
        if (text.indexOf('%') < 0) {
            return null;
        }
        StringBuilder out = new StringBuilder(text.length());
        int[] from = new int[text.length()];
        int[] to = new int[text.length()];
        int n = 0;
        boolean changed = false;
        for (int i = 0; i < text.length(); ) {
            char c = text.charAt(i);
            int length = 1;
            char decoded = c;
            if (c == '%' && isHex(text, i + 1, 2)) {
                decoded = (char) Integer.parseInt(text.substring(i + 1, i + 3), 16); // a byte: keys are ASCII
                length = 3;
                changed = true;
            } else if (c == '+') {
                decoded = ' '; // form encoding ("Bearer+sk-…"); the plain view still has the '+' of base64
            }
            out.append(decoded);
            from[n] = view.from()[i];
            to[n] = view.to()[i + length - 1];
            n++;
            i += length;
        }
        return changed ? new View(out.toString(), Arrays.copyOf(from, n), Arrays.copyOf(to, n),
                view.encoding()).decoded("URL-encoded") : null;
    }

    private static boolean isHex(String text, int start, int count) {
        if (start + count > text.length()) {
            return false;
        }
        for (int i = start; i < start + count; i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    // ---- finding ----

    /** A secret in original coordinates: what it is, where, and its (decoded) value. */
    private record Hit(String kind, int start, int end, String value) {
    }

    /**
     * Every shape match in every view of {@code text}, every occurrence of a {@code known} value (whole tokens only
     * unless {@code anywhere}) and of an already {@code found} one, and every base64 run whose content holds any.
     */
    private static void inspect(String text, List<String> known, Set<String> found, int depth, List<Hit> hits,
                                boolean anywhere) {
        for (View view : views(text)) {
            String suffix = view.encoding().isEmpty() ? "" : ", " + view.encoding();
            String lower = view.text().toLowerCase(Locale.ROOT);
            for (Shape shape : SHAPES) {
                if (!shape.mayMatch(lower)) {
                    continue;
                }
                Matcher matcher = shape.pattern().matcher(view.text());
                while (matcher.find()) {
                    int start = shape.valueGroup() && matcher.start("v") >= 0 ? matcher.start("v") : matcher.start();
                    int end = shape.valueGroup() && matcher.start("v") >= 0 ? matcher.end("v") : matcher.end();
                    String value = view.text().substring(start, end);
                    if (value.contains("REDACTED") || !shape.accept().test(matcher)) {
                        continue;
                    }
                    hits.add(new Hit(shape.name() + suffix, view.from()[start], view.to()[end - 1], value));
                }
            }
            for (String value : known) {
                occurrences(view, value, !anywhere, "known credential" + suffix, hits);
            }
            for (String value : found) {
                occurrences(view, value, false, "credential found elsewhere" + suffix, hits);
            }
            if (depth < MAX_BASE64_DEPTH) {
                for (Run run : base64Runs(view, depth)) {
                    List<Hit> inner = new ArrayList<>();
                    inspect(run.decoded(), known, found, depth + 1, inner, anywhere);
                    for (Hit hit : inner) {
                        hits.add(new Hit(hit.kind() + ", base64" + suffix, view.from()[run.start()],
                                view.to()[run.end() - 1], hit.value()));
                    }
                }
            }
        }
    }

    private static void occurrences(View view, String value, boolean wholeTokens, String kind, List<Hit> hits) {
        String text = view.text();
        for (int at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
            int end = at + value.length();
            if (wholeTokens && ((at > 0 && isTokenChar(text.charAt(at - 1)))
                    || (end < text.length() && isTokenChar(text.charAt(end))))) {
                continue; // inside a longer token: not replaced; redact's final scan refuses it instead
            }
            hits.add(new Hit(kind, view.from()[at], view.to()[end - 1], value));
        }
    }

    private static boolean isTokenChar(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    }

    /** A base64 run of a view, [start, end) in the view, decoded at {@code skip} characters in. */
    private record Run(int start, int end, int skip, boolean url, boolean padded, String decoded) {
    }

    /** Base64 runs that decode (to anything: the content is scanned, not judged), at each alignment. */
    private static List<Run> base64Runs(View view, int depth) {
        List<Run> runs = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        String text = view.text();
        for (boolean url : new boolean[] {false, true}) {
            // a linear scan for runs of the alphabet (a regular expression retries every start of a short run)
            int at = 0;
            while (at < text.length()) {
                if (!isBase64Char(text.charAt(at), url)) {
                    at++;
                    continue;
                }
                int start = at;
                boolean other = false; // holds '-' or '_' (URL-safe alphabet) or '+' or '/' (standard)
                while (at < text.length() && isBase64Char(text.charAt(at), url)) {
                    char c = text.charAt(at);
                    other |= url ? c == '-' || c == '_' : c == '+' || c == '/';
                    at++;
                }
                int end = at;
                while (end < text.length() && end - at < 2 && text.charAt(end) == '=') {
                    end++;
                }
                at = end;
                if (at - start < MIN_BASE64_RUN || (url && !other && seen.contains(((long) start << 32) | end))) {
                    continue; // too short, or letters and digits only: the standard alphabet already read it
                }
                seen.add(((long) start << 32) | end);
                String run = text.substring(start, end);
                // a run may begin with characters glued to the encoding: every alignment is read at the top level
                for (int skip = 0; skip < (depth == 0 ? 4 : 1) && run.length() - skip >= MIN_BASE64_RUN; skip++) {
                    String decoded = decodeBase64(run.substring(skip), url);
                    if (decoded != null && hasTextRun(decoded)) {
                        runs.add(new Run(start, end, skip, url, run.endsWith("="), decoded));
                    }
                }
            }
        }
        return runs;
    }

    private static boolean isBase64Char(char c, boolean url) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                || (url ? c == '-' || c == '_' : c == '+' || c == '/');
    }

    /**
     * Whether decoded content holds a run of printable ASCII as long as the shortest secret in text ("Basic " and 8):
     * a run of ordinary letters decodes to bytes that hold none, and is not read further.
     */
    private static boolean hasTextRun(String decoded) {
        int run = 0;
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            run = (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t' ? run + 1 : 0;
            if (run >= MIN_TEXT_RUN) {
                return true;
            }
        }
        return false;
    }

    /** Base64 (standard or URL-safe) to Latin-1 text, which maps each byte to one character and back; null if none. */
    private static String decodeBase64(String run, boolean url) {
        String body = run;
        while (body.endsWith("=")) {
            body = body.substring(0, body.length() - 1);
        }
        if (body.length() % 4 == 1) {
            body = body.substring(0, body.length() - 1);
        }
        try {
            byte[] bytes = (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(body);
            return bytes.length == 0 ? null : new String(bytes, StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    private static String encodeBase64(String latin1, boolean url, boolean padded) {
        Base64.Encoder encoder = url ? Base64.getUrlEncoder() : Base64.getEncoder();
        return (padded ? encoder : encoder.withoutPadding()).encodeToString(latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Whether a field named so holds a credential in text: one of the credential names as it is ({@code key},
     * {@code token}, {@code x-api-key}), or a name ending in an unambiguous one ({@code openai_api_key}); not
     * {@code idempotency_key} or {@code monkey}.
     */
    private static boolean isCredentialFieldName(String name) {
        return KEY_NAME.matcher(name).matches() || STRONG_NAME.matcher(name).matches();
    }

    private static boolean isBasicPair(String token) {
        String decoded = decodeBase64(token, false);
        // what follows the pair may be characters glued to the encoding; the user name before the colon is text
        int colon = decoded == null ? -1 : decoded.indexOf(':');
        return colon > 0 && decoded.substring(0, colon).chars().allMatch(c -> c >= 0x20 && c < 0x7f);
    }

    // ---- redacting ----

    /** A replacement of original characters [start, end). */
    private record Edit(int start, int end, String replacement) {
    }

    private static String redactOnce(String text, List<String> known, Set<String> found, int depth) {
        List<View> views = views(text);
        // 1. the values the shapes find in any view: each is then removed wherever it is, in any encoding
        for (View view : views) {
            String lower = view.text().toLowerCase(Locale.ROOT);
            for (Shape shape : SHAPES) {
                if (!shape.mayMatch(lower)) {
                    continue;
                }
                Matcher matcher = shape.pattern().matcher(view.text());
                while (matcher.find()) {
                    String value = shape.valueGroup() && matcher.group("v") != null ? matcher.group("v")
                            : matcher.group();
                    if (!value.contains("REDACTED") && shape.accept().test(matcher)) {
                        found.add(value);
                    }
                }
            }
        }
        // 2. base64 runs whose content changes when redacted (which adds what they hold to found)
        List<Edit> base64 = new ArrayList<>();
        if (depth < MAX_BASE64_DEPTH) {
            for (View view : views) {
                for (Run run : base64Runs(view, depth)) {
                    String redacted = run.decoded();
                    for (int round = 0; round < MAX_REDACTION_ROUNDS; round++) {
                        String next = redactOnce(redacted, known, found, depth + 1);
                        if (next.equals(redacted)) {
                            break;
                        }
                        redacted = next;
                    }
                    if (redacted.equals(run.decoded())) {
                        continue;
                    }
                    int start = view.from()[run.start()];
                    int end = view.to()[run.end() - 1];
                    String original = view.text().substring(run.start(), run.end());
                    if (view.verbatim(run.start(), run.end())) {
                        // decoded, redacted and encoded again: the rest of the content survives
                        String body = original.substring(run.skip()).replaceAll("=+$", "");
                        String dropped = body.length() % 4 == 1 ? body.substring(body.length() - 1) : "";
                        base64.add(new Edit(start, end, original.substring(0, run.skip())
                                + encodeBase64(redacted, run.url(), run.padded()) + dropped));
                    } else {
                        base64.add(new Edit(start, end, REDACTED)); // escaped base64: the run goes as a whole
                    }
                    break;
                }
            }
        }
        // 3. every occurrence of a known (whole tokens) or found value, in every view
        List<Edit> edits = new ArrayList<>();
        for (View view : views) {
            List<Hit> hits = new ArrayList<>();
            for (String value : known) {
                occurrences(view, value, true, "", hits);
            }
            for (String value : found) {
                occurrences(view, value, false, "", hits);
            }
            hits.forEach(hit -> edits.add(new Edit(hit.start(), hit.end(), REDACTED)));
        }
        return apply(text, edits, base64);
    }

    /** Applies the redactions (overlapping ones merged) and the base64 edits that overlap none of them. */
    private static String apply(String text, List<Edit> redactions, List<Edit> base64) {
        List<Edit> merged = new ArrayList<>();
        redactions.sort(Comparator.comparingInt(Edit::start));
        for (Edit edit : redactions) {
            Edit last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && edit.start() < last.end()) {
                merged.set(merged.size() - 1, new Edit(last.start(), Math.max(last.end(), edit.end()), REDACTED));
            } else {
                merged.add(edit);
            }
        }
        for (Edit edit : base64) {
            boolean clear = merged.stream().noneMatch(other -> edit.start() < other.end() && other.start() < edit.end());
            if (clear) {
                merged.add(edit); // an overlapping one waits for the next round, on the text with the others applied
            }
        }
        merged.sort(Comparator.comparingInt(Edit::start));
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        for (Edit edit : merged) {
            if (edit.start() < at) {
                continue;
            }
            out.append(text, at, edit.start()).append(edit.replacement());
            at = edit.end();
        }
        return out.append(text, at, text.length()).toString();
    }

    private static List<String> usable(Collection<String> known) {
        Set<String> values = new LinkedHashSet<>();
        for (String value : known) {
            if (value != null && !value.isBlank()) {
                values.add(value.strip());
            }
        }
        List<String> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.comparingInt(String::length).reversed()); // longest first: a value may contain another
        return sorted;
    }

    private static List<Finding> findings(List<Hit> hits) {
        Map<String, Finding> unique = new LinkedHashMap<>();
        hits.stream().sorted(Comparator.comparingInt(Hit::start)).forEach(hit -> unique.putIfAbsent(
                hit.start() + ":" + hit.end() + ":" + hit.value(), new Finding(hit.kind(), hit.start(),
                        mask(hit.value()))));
        return List.copyOf(unique.values());
    }

    private static String lenientUrlDecode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return text;
        }
    }

    private static String mask(String match) {
        return match.length() <= 4 ? "****" : match.substring(0, 4) + "*".repeat(Math.min(12, match.length() - 4));
    }
}
