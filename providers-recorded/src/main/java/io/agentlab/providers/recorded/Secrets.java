package io.agentlab.providers.recorded;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds and removes credentials in text the recorder is about to write (docs/limits-and-safety.md#credentials).
 * Two layers: the exact values a request carried (its {@code Authorization}, key headers, cookies, key-named query
 * parameters and JSON fields), removed in every encoding they could be echoed in; and patterns of the key shapes
 * providers and platforms issue, so a key nobody declared is caught too. {@link #scan} is also the build's check
 * over every recording in the repository.
 */
public final class Secrets {

    /** What replaces a secret. */
    public static final String REDACTED = "[REDACTED]";

    /** A key shape: a name for reports and the pattern that finds it. */
    private record Shape(String name, Pattern pattern) {
    }

    /** A key starts a word: "task-force-…" holds no "sk-" key. */
    private static final String START = "(?<![A-Za-z0-9])";

    /** Names of headers, query parameters and JSON fields whose values are credentials. */
    private static final Pattern KEY_NAME = Pattern.compile(
            "(?i)(api[-_]?key|apikey|x[-_]api[-_]key|x[-_]goog[-_]api[-_]key|access[-_]?token|auth[-_]?token"
                    + "|refresh[-_]?token|client[-_]?secret|secret[-_]?key|secret|password|passwd|token|key)");

    private static final List<Shape> SHAPES = List.of(
            // OpenAI (sk-..., sk-proj-...), DeepSeek, DashScope and Anthropic (sk-ant-...) keys
            new Shape("sk- key", Pattern.compile(START + "sk-[A-Za-z0-9_-]{16,}")),
            new Shape("Google API key", Pattern.compile(START + "AIza[0-9A-Za-z_-]{35}")),
            new Shape("AWS access key id", Pattern.compile("(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])")),
            new Shape("GitHub token", Pattern.compile(START + "(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
            new Shape("Slack token", Pattern.compile(START + "xox[abprs]-[A-Za-z0-9-]{10,}")),
            new Shape("Hugging Face token", Pattern.compile(START + "hf_[A-Za-z0-9]{30,}")),
            new Shape("Stripe key", Pattern.compile(START + "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")),
            new Shape("JWT", Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}")),
            new Shape("private key", Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----")),
            new Shape("Bearer credential", Pattern.compile("(?i)\\bbearer\\s+[A-Za-z0-9._~+/-]{12,}=*")),
            new Shape("Basic credential", Pattern.compile("(?i)\\bbasic\\s+[A-Za-z0-9+/]{12,}=*")),
            // a key-named field or parameter with a value that looks generated (letters and digits, 16+),
            // in JSON (escaped or not), query strings and headers: "api_key": "...", \"apiKey\":\"...\", key=...
            new Shape("key-named value", Pattern.compile("(?i)(?:\\\\?[\"'])?(?<![A-Za-z0-9_])" + KEY_NAME.pattern().substring(4)
                    + "(?:\\\\?[\"'])?\\s*[:=]\\s*(?:\\\\?[\"'])?(?=[A-Za-z0-9._~+/-]*[0-9])(?=[A-Za-z0-9._~+/-]*[A-Za-z])"
                    + "([A-Za-z0-9._~+/-]{16,})")));

    private Secrets() {
    }

    /**
     * One suspected credential.
     *
     * @param kind   which shape matched
     * @param offset where in the text it starts
     * @param masked the match with all but its first four characters masked (safe to print)
     */
    public record Finding(String kind, int offset, String masked) {
    }

    /** Every suspected credential in {@code text}, in order. */
    public static List<Finding> scan(String text) {
        List<Finding> findings = new ArrayList<>();
        for (Shape shape : SHAPES) {
            Matcher matcher = shape.pattern().matcher(text);
            while (matcher.find()) {
                String value = matcher.groupCount() > 0 && matcher.group(matcher.groupCount()) != null
                        ? matcher.group(matcher.groupCount()) : matcher.group();
                if (value.contains(REDACTED.substring(1, REDACTED.length() - 1))) {
                    continue;
                }
                findings.add(new Finding(shape.name(), matcher.start(), mask(matcher.group())));
            }
        }
        findings.sort(Comparator.comparingInt(Finding::offset));
        return findings;
    }

    /**
     * Removes the known secret values (in plain, JSON-escaped and URL-encoded form) and everything a key shape
     * matches.
     *
     * @param text  what is about to be written
     * @param known credential values the exchange carried (blank ones are ignored)
     */
    public static String redact(String text, Collection<String> known) {
        String result = text;
        List<String> values = new ArrayList<>(forms(known));
        values.sort(Comparator.comparingInt(String::length).reversed()); // longest first: a value may contain another
        for (String value : values) {
            result = result.replace(value, REDACTED);
        }
        for (Shape shape : SHAPES) {
            Matcher matcher = shape.pattern().matcher(result);
            StringBuilder out = new StringBuilder();
            while (matcher.find()) {
                int group = matcher.groupCount();
                if (group > 0 && matcher.group(group) != null) {
                    // keep the field name, replace only its value
                    String whole = matcher.group();
                    int at = matcher.start(group) - matcher.start();
                    matcher.appendReplacement(out, Matcher.quoteReplacement(whole.substring(0, at) + REDACTED));
                } else {
                    matcher.appendReplacement(out, Matcher.quoteReplacement(REDACTED));
                }
            }
            matcher.appendTail(out);
            result = out.toString();
        }
        return result;
    }

    /** Whether a header, query parameter or JSON field of this name carries a credential. */
    public static boolean isCredentialName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.equals("authorization") || lower.equals("proxy-authorization") || lower.equals("cookie")
                || lower.equals("set-cookie") || KEY_NAME.matcher(lower).matches();
    }

    private static Set<String> forms(Collection<String> known) {
        Set<String> forms = new LinkedHashSet<>();
        for (String value : known) {
            if (value == null || value.strip().length() < 4) {
                continue; // too short to be a secret worth matching, and matching it would shred the text
            }
            String v = value.strip();
            forms.add(v);
            forms.add(v.replace("\\", "\\\\").replace("\"", "\\\"").replace("/", "\\/"));
            forms.add(URLEncoder.encode(v, StandardCharsets.UTF_8));
        }
        return forms;
    }

    private static String mask(String match) {
        return match.length() <= 4 ? "****" : match.substring(0, 4) + "*".repeat(Math.min(12, match.length() - 4));
    }
}
