package io.agentlab.providers.recorded.imports;

import io.agentlab.kernel.runtime.llm.ResponseLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** SSE bodies and bounded text, shared by the source readers. */
final class Sse {

    private Sse() {
    }

    /** An entry that cannot be imported, with why (caught per entry and turned into one {@code Unreadable}). */
    static final class BadEntry extends RuntimeException {
        BadEntry(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * The {@code data:} payloads of an SSE body, as the SSE standard defines them (the HTML Living Standard's event
     * stream interpretation): lines end in CRLF, LF or CR; {@code data:} loses one space after the colon; several
     * {@code data:} lines of one event join with LF; a blank line ends an event; comments ({@code :...}),
     * {@code event:}, {@code id:} and {@code retry:} are ignored. Unlike a browser, an event the body ends without a
     * blank line after is kept, since a saved transcript may stop right after its last line.
     *
     * @param firstLine the file line the body starts at, or 0 to count lines within the body
     * @throws BadEntry naming the line over the line limit, or the event limit
     */
    static List<String> payloads(String body, int firstLine, ResponseLimits limits) {
        List<String> payloads = new ArrayList<>();
        StringBuilder data = null;
        int start = 0;
        int line = 0;
        int length = body.length();
        while (start <= length) {
            int end = start;
            while (end < length && body.charAt(end) != '\n' && body.charAt(end) != '\r') {
                end++;
            }
            if (end == length && start == length) {
                break; // the body ended with a line break: no last line
            }
            line++;
            String text = body.substring(start, end);
            if (utf8Length(text) > limits.maxLineBytes()) {
                throw new BadEntry(lineName(firstLine, line) + " is " + utf8Length(text)
                        + " bytes, over the line limit of " + limits.maxLineBytes() + " bytes");
            }
            if (text.isEmpty()) {
                if (data != null) {
                    add(payloads, data.toString(), limits);
                    data = null;
                }
            } else if (!text.startsWith(":")) {
                int colon = text.indexOf(':');
                String field = colon < 0 ? text : text.substring(0, colon);
                if (field.equals("data")) {
                    String value = colon < 0 ? "" : text.substring(colon + 1);
                    value = value.startsWith(" ") ? value.substring(1) : value;
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                }
            }
            if (end < length && body.charAt(end) == '\r' && end + 1 < length && body.charAt(end + 1) == '\n') {
                end++;
            }
            start = end + 1;
        }
        if (data != null) {
            add(payloads, data.toString(), limits);
        }
        return payloads;
    }

    private static void add(List<String> payloads, String payload, ResponseLimits limits) {
        if (payloads.size() >= limits.maxChunks()) {
            throw new BadEntry("the stream has more than " + limits.maxChunks() + " events, the event limit");
        }
        payloads.add(payload);
    }

    private static String lineName(int firstLine, int line) {
        return firstLine > 0 ? "line " + (firstLine + line - 1) : "line " + line + " of the response body";
    }

    /** Whether the first line that is not blank is an SSE field ({@code data:}, {@code event:}, ...) or comment. */
    static boolean looksLikeSse(String text) {
        String first = text.strip().lines().findFirst().orElse("");
        return first.startsWith("data:") || first.startsWith("event:") || first.startsWith("id:")
                || first.startsWith("retry:") || first.startsWith(":");
    }

    /** The UTF-8 length of {@code text} without encoding it. */
    static long utf8Length(CharSequence text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * Strict UTF-8 (a capture that is not text is not a stream).
     *
     * @throws BadEntry naming {@code what}
     */
    static String utf8(byte[] bytes, String what) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new BadEntry(what + " is not UTF-8 text");
        }
    }

    /**
     * Lines of a stream read one at a time, none longer than a bound: an endless line stops at the bound, not at the
     * end of the heap (docs/limits-and-safety.md#response-size). A trailing CR is dropped.
     */
    static final class BoundedLines {
        private final InputStream in;
        private final int maxBytes;
        private int number;

        BoundedLines(InputStream in, int maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        /** The number of the line last returned (1-based). */
        int number() {
            return number;
        }

        /**
         * The next line, or null at the end.
         *
         * @throws BadEntry when the line is over the bound or not UTF-8
         */
        String next() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b = in.read();
            if (b < 0) {
                return null;
            }
            number++;
            while (b >= 0 && b != '\n') {
                if (line.size() >= maxBytes + 1) { // the CR of a CRLF may be the one byte over
                    throw new BadEntry("line " + number + " is over the line limit of " + maxBytes + " bytes");
                }
                line.write(b);
                b = in.read();
            }
            byte[] bytes = line.toByteArray();
            int size = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
            if (size > maxBytes) {
                throw new BadEntry("line " + number + " is over the line limit of " + maxBytes + " bytes");
            }
            return utf8(java.util.Arrays.copyOf(bytes, size), "line " + number);
        }
    }
}
