package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Splits a streamed {@code dual_agent} answer into visible text and the hidden event block.
 *
 * <p><b>Syntax.</b> The visible reply comes first; the block starts at the marker {@value #MARKER} and runs to the
 * end of the message. Inside it, event names are separated by commas, semicolons, white space or newlines, optionally
 * bulleted ({@code -}, {@code *}):
 * <pre>
 * Sure, the lamp is on and the note is written.
 * [[EVENTS]] lamp.power.toggle, note.text.create
 * </pre>
 *
 * <p><b>Streaming safety.</b> Visible text is released as soon as it cannot be the start of the marker: at most
 * {@code MARKER.length() - 1} characters are held back, so the marker, or any part of it, never reaches a visible
 * delta under any chunking, and nothing after it ever does. Visible text is exactly what precedes the marker
 * (including the newline before it), whatever the chunking.
 */
@API(status = INTERNAL, since = "0.1")
public final class HiddenEventBlockParser implements VisibleText {

    /** The block marker. */
    public static final String MARKER = "[[EVENTS]]";
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*(?:\\.[A-Za-z0-9_-]+)*");

    private final StringBuilder held = new StringBuilder();
    private final StringBuilder block = new StringBuilder();
    private boolean hidden;
    private boolean finished;

    /**
     * Accepts a content delta.
     *
     * @return the visible text to release now (possibly empty)
     */
    @Override
    public String accept(String delta) {
        if (finished) {
            throw new IllegalStateException("the parser already finished");
        }
        if (hidden) {
            block.append(delta);
            return "";
        }
        if (held.length() == 0 && delta.indexOf(MARKER.charAt(0)) < 0) {
            return delta; // the common case: nothing held and no '[' in sight, so all of it is visible, uncopied
        }
        held.append(delta);
        int at = held.indexOf(MARKER);
        if (at >= 0) {
            hidden = true;
            block.append(held, at + MARKER.length(), held.length());
            String visible = held.substring(0, at);
            held.setLength(0);
            return visible;
        }
        int keep = longestMarkerPrefixSuffix(held);
        String visible = held.substring(0, held.length() - keep);
        held.delete(0, held.length() - keep);
        return visible;
    }

    /** Ends the stream and returns the last visible text (held characters that turned out not to be the marker). */
    @Override
    public String finish() {
        finished = true;
        String rest = hidden ? "" : held.toString();
        held.setLength(0);
        return rest;
    }

    /** Whether the marker was seen. */
    public boolean sawBlock() {
        return hidden;
    }

    /** The event names of the block, in order (after {@link #finish()}). */
    public List<String> eventNames() {
        List<String> names = new ArrayList<>();
        Matcher matcher = NAME.matcher(block);
        while (matcher.find()) {
            names.add(matcher.group());
        }
        return names;
    }

    /** The raw block text (for audit). */
    public String rawBlock() {
        return block.toString();
    }

    /** Length of the longest suffix of {@code text} that is a proper prefix of the marker. */
    private static int longestMarkerPrefixSuffix(CharSequence text) {
        int max = Math.min(MARKER.length() - 1, text.length());
        for (int length = max; length > 0; length--) {
            if (text.charAt(text.length() - length) != MARKER.charAt(0)) {
                continue; // a candidate suffix must start with '['
            }
            boolean match = true;
            for (int i = 0; i < length; i++) {
                if (text.charAt(text.length() - length + i) != MARKER.charAt(i)) {
                    match = false;
                    break;
                }
            }
            if (match) {
                return length;
            }
        }
        return 0;
    }
}
