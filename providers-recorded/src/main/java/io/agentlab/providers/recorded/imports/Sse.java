package io.agentlab.providers.recorded.imports;

import io.agentlab.provider.openai.BoundedSseReader;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.ResponseLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import okio.Buffer;

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
     * The {@code data:} payloads of an SSE body, read by the same {@link BoundedSseReader} as a live call (the SSE
     * standard's framing, docs/limits-and-safety.md#response-size): lines end in CRLF, LF or CR; {@code data:} loses
     * one space after the colon; several {@code data:} lines of one event join with LF; a blank line ends an event;
     * comments, {@code event:}, {@code id:} and {@code retry:} are ignored; an event the body ends without a blank line
     * after is kept, since a saved transcript may stop right after its last line.
     *
     * @param firstLine the file line the body starts at (named in a message), or 0
     * @throws BadEntry naming the line past a bound
     */
    static List<String> payloads(String body, int firstLine, ResponseLimits limits) {
        BoundedSseReader reader = new BoundedSseReader(new Buffer().writeUtf8(body), limits);
        List<String> payloads = new ArrayList<>();
        try {
            String data;
            while ((data = reader.next()) != null) {
                payloads.add(data);
            }
        } catch (ProviderException tooLarge) {
            // the reader counts lines within the body; say where the body starts in the file
            throw new BadEntry((firstLine > 1 ? "the response body (from line " + firstLine + "): " : "")
                    + tooLarge.getMessage().replaceFirst("^[A-Z_]+: ", ""));
        } catch (IOException cannotHappen) {
            throw new UncheckedIOException("reading an in-memory body", cannotHappen);
        }
        return payloads;
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
