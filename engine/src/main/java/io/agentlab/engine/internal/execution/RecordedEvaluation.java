package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The recordings of a live run (written by the recording proxy with {@code agentlab.provider.live.record-directory}),
 * handed back turn by turn so the same evaluation replays offline with the same choices
 * ({@code agentlab.recordings.replay-directory}). The proxy numbers exchanges in the order they arrived; a turn's
 * exchanges are its chat call and the EventAgent and follow-up calls after it with the same last user message, and the
 * n-th time a mode asks for a user message it gets the n-th such turn recorded in that mode. Cases run one after the
 * other (the default) keep that order; two cases sharing a user message and running in parallel could swap theirs.
 */
@API(status = INTERNAL, since = "0.1")
public final class RecordedEvaluation {

    private final Path directory;
    private final Map<String, Deque<List<Recording>>> turns = new HashMap<>();

    private RecordedEvaluation(Path directory, List<Recording> recordings) {
        this.directory = directory;
        List<Recording> ordered = new ArrayList<>(recordings);
        ordered.sort(Comparator.comparingLong(RecordedEvaluation::arrival));
        Map<String, List<Recording>> open = new HashMap<>(); // the turn being collected, per user message
        for (Recording recording : ordered) {
            String user = recording.request().lastUserMessage();
            if ("chat".equals(recording.request().role())) {
                List<Recording> turn = new ArrayList<>();
                turn.add(recording);
                open.put(user, turn);
                turns.computeIfAbsent(key(recording.request().mode(), user), k -> new ArrayDeque<>()).add(turn);
            } else if (open.containsKey(user)) {
                open.get(user).add(recording); // the EventAgent's request has no tools: its mode is not the turn's
            }
        }
    }

    /** The recordings in {@code directory}, checked as every recording is when it is loaded. */
    public static RecordedEvaluation load(Path directory) {
        try {
            return new RecordedEvaluation(directory, Recordings.loadDirectory(directory));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the recorded evaluation in " + directory, e);
        }
    }

    /**
     * The recordings of the next turn recorded in {@code mode} for {@code user}.
     *
     * @throws IllegalStateException naming the directory, mode and message when none is left
     */
    public synchronized List<Recording> next(InvocationMode mode, String user) {
        Deque<List<Recording>> queue = turns.get(key(mode.wireName(), user));
        if (queue == null || queue.isEmpty()) {
            throw new IllegalStateException(directory + " holds no further recorded turn of \"" + user + "\" in "
                    + mode.wireName() + " (replay as many repetitions as were recorded)");
        }
        return queue.removeFirst();
    }

    private static String key(String mode, String user) {
        return mode + "\n" + user;
    }

    /** The proxy's arrival number, the digits ending the id ({@code dual-agent-chat-012}). */
    private static long arrival(Recording recording) {
        String id = recording.id();
        int at = id.length();
        while (at > 0 && Character.isDigit(id.charAt(at - 1))) {
            at--;
        }
        return at == id.length() ? Long.MAX_VALUE : Long.parseLong(id.substring(at));
    }
}
