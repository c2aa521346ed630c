package io.agentlab.agui;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import tools.jackson.core.JacksonException;

/**
 * AG-UI events as SSE frames: {@code id: <n>}, {@code event: <TYPE>}, {@code data: <json>}, a blank line; idle
 * {@code : keep-alive} comments are skipped when reading.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class AguiSseCodec {

    private AguiSseCodec() {
    }

    /**
     * One decoded frame.
     *
     * @param id    the {@code id:} field, or null
     * @param event the {@code event:} field, or null
     * @param data  the {@code data:} payload (multi-line data joined with newlines), or null
     */
    public record Frame(String id, String event, String data) {
    }

    /** Encodes events with ids {@code firstId, firstId+1, ...}. */
    public static String encode(List<AguiEvent> events, long firstId) {
        StringBuilder out = new StringBuilder();
        long id = firstId;
        for (AguiEvent event : events) {
            out.append("id: ").append(id++).append('\n')
                    .append("event: ").append(event.type()).append('\n')
                    .append("data: ").append(AguiJson.write(event.fields())).append("\n\n");
        }
        return out.toString();
    }

    /**
     * A run's events as a client reconnecting with {@code Last-Event-ID} receives them: ids are the events' 1-based
     * positions, and the stream resumes after {@code lastEventId} (null or blank: from the start).
     *
     * @throws IllegalArgumentException if {@code lastEventId} is not one of the run's ids
     */
    public static String resume(List<AguiEvent> events, String lastEventId) {
        int from = 0;
        if (lastEventId != null && !lastEventId.isBlank()) {
            try {
                from = Integer.parseInt(lastEventId.strip());
            } catch (NumberFormatException e) {
                from = -1;
            }
            if (from < 0 || from > events.size()) {
                throw new IllegalArgumentException("Last-Event-ID '" + lastEventId + "' is not an id of this run (1.."
                        + events.size() + ")");
            }
        }
        return encode(events.subList(from, events.size()), from + 1L);
    }

    /** A keep-alive comment frame. */
    public static String keepAlive() {
        return ": keep-alive\n\n";
    }

    /**
     * Decodes an SSE body into frames, skipping comments. Lines end at a line feed, a carriage return before it
     * belonging to the line end (a lone carriage return, which the SSE specification also ends a line with, stays in
     * the line); a field's value loses one leading space.
     */
    public static List<Frame> decode(String body) {
        // One pass by index, no regular expression: the engine decodes every turn's stream to audit it, and a
        // pattern compiled per line was a run's largest source of compiled patterns (docs/performance.md#allocation).
        List<Frame> frames = new ArrayList<>();
        String id = null;
        String event = null;
        StringBuilder data = null;
        int length = body.length();
        for (int start = 0; start <= length; ) {
            int feed = body.indexOf('\n', start);
            int end = feed < 0 ? length : feed;
            if (feed >= 0 && end > start && body.charAt(end - 1) == '\r') {
                end--;
            }
            if (end == start) {
                if (id != null || event != null || data != null) {
                    frames.add(new Frame(id, event, data == null ? null : data.toString()));
                }
                id = null;
                event = null;
                data = null;
            } else if (body.charAt(start) != ':') {
                int colon = start;
                while (colon < end && body.charAt(colon) != ':') {
                    colon++; // within the line: a search past its end would make a long body quadratic
                }
                String field = body.substring(start, colon);
                int from = Math.min(colon + 1, end);
                if (from < end && body.charAt(from) == ' ') {
                    from++;
                }
                switch (field) {
                    case "id" -> id = body.substring(from, end);
                    case "event" -> event = body.substring(from, end);
                    case "data" -> data = data == null ? new StringBuilder().append(body, from, end)
                            : data.append('\n').append(body, from, end);
                    default -> { }
                }
            }
            if (feed < 0) {
                break;
            }
            start = feed + 1;
        }
        if (id != null || event != null || data != null) {
            frames.add(new Frame(id, event, data == null ? null : data.toString()));
        }
        return frames;
    }

    /**
     * The events of decoded frames.
     *
     * @throws IllegalArgumentException naming the frame whose data is not a JSON object
     */
    public static List<AguiEvent> events(List<Frame> frames) {
        List<AguiEvent> events = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            Frame frame = frames.get(i);
            try {
                Map<String, Object> fields = AguiJson.object(AguiJson.tree(frame.data() == null ? "null" : frame.data()));
                Object type = fields.get("type");
                events.add(new AguiEvent(type == null ? String.valueOf(frame.event()) : String.valueOf(type), fields));
            } catch (JacksonException e) {
                throw new IllegalArgumentException("frame " + (i + 1) + " (id " + frame.id()
                        + ") has data that is not JSON: " + e.getOriginalMessage(), e);
            }
        }
        return events;
    }
}
