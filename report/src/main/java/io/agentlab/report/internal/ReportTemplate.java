package io.agentlab.report.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A page skeleton from this package's resources ({@code io/agentlab/report/internal/}) with named holes:
 * {@code {{name}}} takes a text, HTML-escaped here; {@code {{{name}}}} takes an {@link Html} fragment its builder
 * escaped, or a {@link Streamed} one that writes itself into the page. Filled in one pass, so a filled-in value is
 * never read for holes (a message containing {@code {{x}}} stays as written). A hole without a value, a value no hole
 * takes, a text for a fragment's hole or a fragment for a text's hole is the caller's bug and throws, before anything
 * is written (docs/engine.md#html-report).
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
    record Html(String markup) implements Markup {
        @Override
        public void writeTo(Writer out) throws IOException {
            out.write(markup);
        }
    }

    /**
     * Markup written straight to the page as it is filled, for the parts that grow with the run (every test's row,
     * the data block): never held as one string (docs/performance.md#memory).
     *
     * @param writer writes the markup, every user-derived string escaped
     */
    record Streamed(Part writer) implements Markup {
        @Override
        public void writeTo(Writer out) throws IOException {
            writer.writeTo(out);
        }
    }

    /** A part of the page that writes itself. */
    @FunctionalInterface
    interface Part {
        /** Writes it. */
        void writeTo(Writer out) throws IOException;
    }

    /** What a fragment's hole takes. */
    sealed interface Markup extends Part permits Html, Streamed {
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

    /** The page: each hole filled from {@code values} (a {@code String} or number for a text, {@link Markup} else). */
    String fill(Map<String, ?> values) {
        StringWriter out = new StringWriter(text.length() + 64 * 1024);
        try {
            fill(values, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Writes the page to {@code out}, each hole filled from {@code values} as it comes. */
    void fill(Map<String, ?> values, Writer out) throws IOException {
        Set<String> used = new HashSet<>();
        Matcher hole = HOLE.matcher(text);
        int at = 0;
        // every hole is checked before anything is written: a misfilled template writes nothing
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
            if (raw != value instanceof Markup) {
                throw new IllegalStateException(name + ": " + hole.group() + " takes " + (raw ? "an Html fragment"
                        : "a text, escaped here") + ", not a " + value.getClass().getSimpleName());
            }
            used.add(key);
        }
        if (!used.containsAll(values.keySet())) {
            Set<String> unused = new HashSet<>(values.keySet());
            unused.removeAll(used);
            throw new IllegalStateException(name + " has no hole for " + unused);
        }
        hole.reset();
        while (hole.find()) {
            Object value = values.get(hole.group(2));
            out.write(text, at, hole.start() - at);
            if (value instanceof Markup markup) {
                markup.writeTo(out);
            } else {
                out.write(esc(String.valueOf(value)));
            }
            at = hole.end();
        }
        out.write(text, at, text.length() - at);
    }

    /** {@code text} as HTML text or a quoted attribute value. */
    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
