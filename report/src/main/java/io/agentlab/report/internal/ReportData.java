package io.agentlab.report.internal;

import io.agentlab.report.TestLog;
import io.agentlab.report.TestOutcome;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * The page's data block, {@code <script type="application/json" id="agentlab-data">}: the run, the counts, and every
 * listed test in the order of its row ({@code data-test} is its index) with what the page's script filters by — suite
 * (absent for a gate, whose group is {@code gates}), name, kind, mode, tags, status and message
 * (docs/engine.md#html-report). Written by Jackson, then made safe inside a script element: {@code <}, {@code >},
 * {@code &}, U+2028 and U+2029 only ever occur in JSON strings, where their {@code \}{@code u} escapes mean the same,
 * so no message can close the element ({@code </script>}) or break a script that reads it as JavaScript.
 */
final class ReportData {

    /** The version of the block's shape; a reader of an older page can tell. */
    static final int FORMAT = 1;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ReportData() {
    }

    /** The block's JSON for {@code report} (for a test: a page writes it with {@link #write}). */
    static String of(RunReport report) {
        StringWriter out = new StringWriter();
        try {
            write(report, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * Writes the block's JSON for {@code report} to {@code out} as it goes, the tests in the order of their rows (suite
     * by suite, as the page lists them), script-safe as it is written: the same text as one serialization of the
     * whole block, then {@link #scriptSafe}.
     */
    static void write(RunReport report, Writer out) throws IOException {
        try (JsonGenerator json = JSON.createGenerator(new ScriptSafe(out))) {
            json.writeStartObject();
            json.writeNumberProperty("format", FORMAT);
            json.writePOJOProperty("run", report.metadata().toMap());
            Map<String, Long> counts = new LinkedHashMap<>();
            for (TestOutcome.Status status : TestOutcome.Status.values()) {
                counts.put(status.wireName(), report.count(status));
            }
            json.writePOJOProperty("counts", counts);
            json.writeStringProperty("gates", RunReport.GATES);
            json.writeName("tests");
            json.writeStartArray();
            for (TestLog.Suite suite : report.tests().suites()) {
                report.tests().forEach(suite.name(), test -> {
                    // what the filter reads, nothing more: the block travels in every page
                    // (docs/performance.md#html-report)
                    json.writeStartObject();
                    if (test.suite().isPresent()) {
                        json.writeStringProperty("suite", test.suite().get());
                    }
                    json.writeStringProperty("name", test.name());
                    json.writeStringProperty("kind", test.kind());
                    json.writeStringProperty("mode", test.mode());
                    json.writePOJOProperty("tags", test.tags());
                    json.writeStringProperty("status", test.status().wireName());
                    if (test.message().isPresent()) {
                        json.writeStringProperty("message", test.message().get());
                    }
                    json.writeEndObject();
                });
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (JacksonException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }

    /** Passes text on with every character that could end or break a script element as its JSON escape. */
    private static final class ScriptSafe extends Writer {

        private final Writer out;

        ScriptSafe(Writer out) {
            this.out = out;
        }

        @Override
        public void write(char[] text, int offset, int length) throws IOException {
            int from = offset;
            for (int i = offset; i < offset + length; i++) {
                String escape = escape(text[i]);
                if (escape != null) {
                    out.write(text, from, i - from);
                    out.write(escape);
                    from = i + 1;
                }
            }
            out.write(text, from, offset + length - from);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.flush(); // the page goes on after the block: closing the generator must not close it
        }
    }

    /** The JSON escape of {@code c} where a script element cannot take it as is, else null. */
    private static String escape(char c) {
        return switch (c) {
            case '<' -> "\\u003c";
            case '>' -> "\\u003e";
            case '&' -> "\\u0026";
            case '\u2028' -> "\\u2028";
            case '\u2029' -> "\\u2029";
            default -> null;
        };
    }

    /** {@code json} with every character that could end or break a script element as its JSON escape. */
    static String scriptSafe(String json) {
        StringBuilder out = new StringBuilder(json.length() + 64);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            String escape = escape(c);
            if (escape == null) {
                out.append(c);
            } else {
                out.append(escape);
            }
        }
        return out.toString();
    }
}
