package io.agentlab.provider.openai;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import okio.BufferedSource;
import okio.ByteString;
import io.agentlab.runtime.llm.ResponseLimits;
import io.agentlab.runtime.llm.ProviderException;
import org.apiguardian.api.API;

/**
 * Reads a {@code text/event-stream} body within {@link ResponseLimits} (docs/limits-and-safety.md#response-size): at
 * most {@code maxLineBytes} of one line are ever buffered (the scan for the line end stops there, so an endless line
 * costs a megabyte, not the heap), at most {@code maxResponseBytes} are read in all, and at most {@code maxChunks}
 * events are handed out. Past a bound it throws {@link ProviderException.Kind#RESPONSE_TOO_LARGE} naming the bound;
 * the caller cancels the call.
 *
 * <p>Framing follows the SSE specification as liberally as the official clients do: lines end with LF, CRLF or CR;
 * {@code data:} lines of one event are joined with LF, one space after the colon is dropped; {@code event:},
 * {@code id:}, {@code retry:} and comment lines are read and ignored; a blank line dispatches the event, and so does
 * the end of the body when a last event was not followed by one (servers that close straight after their last
 * {@code data:} line still delivered it).
 */
@API(status = INTERNAL, since = "0.1")
public final class BoundedSseReader {

    private static final ByteString LINE_ENDS = ByteString.encodeUtf8("\r\n");

    private final BufferedSource source;
    private final ResponseLimits limits;
    private long bytes;
    private int events;
    private int lines;
    /** The last line ended with CR: an LF right after it belongs to that line end (CRLF), not to an empty line. */
    private boolean afterCr;

    /** A reader of {@code source} within {@code limits}. */
    public BoundedSseReader(BufferedSource source, ResponseLimits limits) {
        this.source = Objects.requireNonNull(source, "source");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** Bytes read so far, line ends included. */
    public long bytesRead() {
        return bytes;
    }

    /** Events handed out so far. */
    public int events() {
        return events;
    }

    /** Lines read so far (the number of the last line returned, counting from 1). */
    public int lines() {
        return lines;
    }

    /**
     * The next line without its terminator, or null at the end of the body.
     *
     * @throws ProviderException {@link ProviderException.Kind#RESPONSE_TOO_LARGE} for a line or a body past its bound
     * @throws IOException       when the connection fails
     */
    public String nextLine() throws IOException {
        if (afterCr) {
            afterCr = false;
            if (source.request(1) && source.getBuffer().getByte(0) == '\n') {
                source.skip(1);
                bytes++;
            }
        }
        long scan = Math.min((long) limits.maxLineBytes() + 1, limits.maxResponseBytes() - bytes + 1);
        // look for the line's end in what has arrived, reading one segment more at a time: a line is handed out as
        // soon as it ends, and never more than the bound is buffered while it does not
        long end;
        long searched = 0;
        while (true) {
            end = source.getBuffer().indexOfElement(LINE_ENDS, searched);
            searched = source.getBuffer().size();
            if (end >= 0 || searched >= scan) {
                break;
            }
            if (!source.request(source.getBuffer().size() + 1)) {
                break; // the body ended
            }
        }
        if (end < 0 || end >= scan) {
            long buffered = source.getBuffer().size();
            if (buffered < scan && end < 0) {
                if (buffered == 0) {
                    return null;
                }
                // the body ended inside the bound: its last line had no terminator
                bytes += buffered;
                lines++;
                return source.readString(buffered, StandardCharsets.UTF_8);
            }
            throw tooLarge(scan <= limits.maxLineBytes() ? "the response passed " + limits.maxResponseBytes()
                    + " bytes" : "line " + (lines + 1) + " passed " + limits.maxLineBytes() + " bytes without ending");
        }
        String line = source.readString(end, StandardCharsets.UTF_8);
        afterCr = source.readByte() == '\r';
        bytes += end + 1;
        lines++;
        if (bytes > limits.maxResponseBytes()) {
            throw tooLarge("the response passed " + limits.maxResponseBytes() + " bytes");
        }
        return line;
    }

    /**
     * The next event's {@code data}, or null at the end of the body.
     *
     * @throws ProviderException {@link ProviderException.Kind#RESPONSE_TOO_LARGE} past a bound
     * @throws IOException       when the connection fails
     */
    public String next() throws IOException {
        StringBuilder data = null;
        String line;
        while ((line = nextLine()) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    return dispatch(data);
                }
                continue;
            }
            if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                if (data == null) {
                    data = new StringBuilder(value);
                } else {
                    data.append('\n').append(value);
                }
            }
            // event:, id:, retry: and ":" comments carry nothing the chat protocol uses
        }
        return data == null ? null : dispatch(data);
    }

    private String dispatch(StringBuilder data) {
        if (++events > limits.maxChunks()) {
            throw tooLarge("the response passed " + limits.maxChunks() + " events at line " + lines);
        }
        return data.toString();
    }

    private ProviderException tooLarge(String what) {
        return new ProviderException(ProviderException.Kind.RESPONSE_TOO_LARGE, what + " (after " + bytes
                + " bytes, " + lines + " lines and " + events + " events; docs/limits-and-safety.md#response-size)");
    }
}
