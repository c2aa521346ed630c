package io.agentlab.report.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A page skeleton from this package's resources ({@code io/agentlab/report/internal/}) with named holes:
 * {@code {{name}}} takes a text, HTML-escaped here; {@code {{{name}}}} takes an {@link Html} fragment its builder
 * escaped. Filled in one pass, so a filled-in value is never read for holes (a message containing {@code {{x}}}
 * stays as written). A hole without a value, a value no hole takes, a text for a fragment's hole or a fragment for a
 * text's hole is the caller's bug and throws (docs/engine.md#html-report).
 */
final class ReportTemplate {

    /** Where the page's resources live on the class path. */
    static final String FOLDER = "/io/agentlab/report/internal/";

    private static final Pattern HOLE = Pattern.compile("\\{\\{(\\{?)([A-Za-z]+)}}(}?)");

    private final String name;
    private final String text;

    /** A template named {@code name} (for messages) whose text is {@code text}. */
    ReportTemplate(String name, String text) {
        this.name = name;
        this.text = text;
    }

    /**
     * Markup its builder made safe: every user-derived string in it went through {@link #esc(String)}.
     *
     * @param markup the markup
     */
    record Html(String markup) {
    }

    /** The template {@code name} from the resources. */
    static ReportTemplate load(String name) {
        return new ReportTemplate(name, resource(name));
    }

    /** The text of the resource {@code name}, UTF-8. */
    static String resource(String name) {
        try (InputStream in = ReportTemplate.class.getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("the report resource " + FOLDER + name + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page: each hole filled from {@code values} (a {@code String} or number for a text, {@link Html} else). */
    String fill(Map<String, ?> values) {
        StringBuilder out = new StringBuilder(text.length() + 64 * 1024);
        Set<String> used = new HashSet<>();
        Matcher hole = HOLE.matcher(text);
        int at = 0;
        while (hole.find()) {
            boolean raw = !hole.group(1).isEmpty();
            if (raw != !hole.group(3).isEmpty()) {
                throw new IllegalStateException(name + ": unbalanced hole " + hole.group());
            }
            String key = hole.group(2);
            Object value = values.get(key);
            if (value == null) {
                throw new IllegalStateException(name + ": no value for " + hole.group());
            }
            if (raw != value instanceof Html) {
                throw new IllegalStateException(name + ": " + hole.group() + " takes " + (raw ? "an Html fragment"
                        : "a text, escaped here") + ", not a " + value.getClass().getSimpleName());
            }
            out.append(text, at, hole.start()).append(raw ? ((Html) value).markup() : esc(String.valueOf(value)));
            used.add(key);
            at = hole.end();
        }
        if (!used.containsAll(values.keySet())) {
            Set<String> unused = new HashSet<>(values.keySet());
            unused.removeAll(used);
            throw new IllegalStateException(name + " has no hole for " + unused);
        }
        return out.append(text, at, text.length()).toString();
    }

    /** {@code text} as HTML text or a quoted attribute value. */
    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
