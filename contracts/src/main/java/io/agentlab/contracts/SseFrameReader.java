package io.agentlab.contracts;

import io.agentlab.agui.AguiSseCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads SSE frames from a byte stream as an event-stream client does (lines end at LF, CR or CR LF; {@code :} lines
 * are comments; {@code data:} lines join with newlines; a blank line ends a frame), holding at most one frame in
 * memory and stopping at the caps: a frame longer than {@code maxFrameBytes} (counted from the previous blank line,
 * so an endless line or comment is caught too), more than {@code maxEvents} frames with data, or the deadline.
 */
final class SseFrameReader {

    /** Receives each frame that carries data, with its 1-based number. */
    interface Sink {
        void frame(AguiSseCodec.Frame frame, int number);
    }

    /**
     * How reading ended.
     *
     * @param frames    frames with data delivered
     * @param bytes     bytes read
     * @param midFrame  whether the stream closed inside a frame (no blank line after its last line); that frame was
     *                  still delivered, as the official AG-UI client reads it
     * @param crFrame   the number of the first frame with a CR line end, or 0
     * @param stopped   why reading stopped before the end of the stream (a cap or the deadline), or null
     */
    record Outcome(int frames, long bytes, boolean midFrame, int crFrame, String stopped) {
    }

    private final int maxFrameBytes;
    private final long maxEvents;
    private final long deadline;
    private final String deadlineText;

    /**
     * A reader with caps.
     *
     * @param maxFrameBytes the longest frame, in bytes
     * @param maxEvents     the most frames with data
     * @param deadlineNanos the {@link System#nanoTime()} at which reading stops
     * @param deadlineText  how the deadline is described when it is reached
     */
    SseFrameReader(int maxFrameBytes, long maxEvents, long deadlineNanos, String deadlineText) {
        this.maxFrameBytes = maxFrameBytes;
        this.maxEvents = maxEvents;
        this.deadline = deadlineNanos;
        this.deadlineText = deadlineText;
    }

    Outcome read(InputStream in, Sink sink) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        long bytes = 0;
        long frameStart = 0;
        int frames = 0;
        int crFrame = 0;
        boolean pending = false; // a line of the current frame has been read
        String id = null;
        String event = null;
        StringBuilder data = null;
        boolean afterCr = false;
        boolean start = true;
        int b;
        while (true) {
            b = in.read();
            if (b < 0) {
                break;
            }
            bytes++;
            if (start) {
                start = false;
                if (b == 0xEF) { // a UTF-8 byte order mark is not part of the stream
                    int b2 = in.read();
                    int b3 = b2 < 0 ? -1 : in.read();
                    if (b2 == 0xBB && b3 == 0xBF) {
                        bytes += 2;
                        frameStart = bytes;
                        continue;
                    }
                    line.write(b);
                    if (b2 >= 0) {
                        line.write(b2);
                        bytes++;
                    }
                    if (b3 >= 0) {
                        line.write(b3);
                        bytes++;
                    }
                    continue;
                }
            }
            if (b == '\n' && afterCr) { // the LF of a CR LF
                afterCr = false;
                frameStart = pending ? frameStart : bytes;
                continue;
            }
            afterCr = b == '\r';
            if (b != '\n' && b != '\r') {
                if (bytes - frameStart > maxFrameBytes) {
                    return new Outcome(frames, bytes, false, crFrame, "frame " + (frames + 1) + " is longer than the "
                            + maxFrameBytes + "-byte cap (at byte " + bytes + "; --max-frame-bytes raises it)");
                }
                line.write(b);
                continue;
            }
            if (b == '\r' && crFrame == 0) {
                crFrame = frames + 1;
            }
            if (System.nanoTime() - deadline > 0) {
                return new Outcome(frames, bytes, false, crFrame, "the stream did not end within " + deadlineText
                        + " (at byte " + bytes + ", frame " + (frames + 1) + "; --timeout raises it)");
            }
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (text.isEmpty()) {
                if (data != null) {
                    if (frames >= maxEvents) {
                        return new Outcome(frames, bytes, false, crFrame, "the stream sent more than " + maxEvents
                                + " events without ending (at byte " + bytes + "; --max-events raises the cap)");
                    }
                    sink.frame(new AguiSseCodec.Frame(id, event, data.toString()), ++frames);
                }
                id = null;
                event = null;
                data = null;
                pending = false;
                frameStart = bytes;
                continue;
            }
            pending = true;
            if (text.startsWith(":")) {
                continue;
            }
            int colon = text.indexOf(':');
            String field = colon < 0 ? text : text.substring(0, colon);
            String value = colon < 0 ? "" : text.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "id" -> id = value;
                case "event" -> event = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> { }
            }
        }
        boolean midFrame = pending || line.size() > 0;
        if (line.size() > 0) {
            String text = line.toString(StandardCharsets.UTF_8);
            if (text.startsWith("data:") || text.equals("data")) {
                String value = text.length() > 5 ? text.substring(5) : "";
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        if (data != null && frames < maxEvents) {
            sink.frame(new AguiSseCodec.Frame(id, event, data.toString()), ++frames);
        }
        return new Outcome(frames, bytes, midFrame, crFrame, null);
    }
}
