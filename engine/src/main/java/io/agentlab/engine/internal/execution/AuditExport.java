package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.agui.AguiSseCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Writes a case's audit streams as a client would receive them, one SSE file per turn:
 * {@code <directory>/<suite>/<case>/<mode>/<turn>.sse} (turns numbered from 1, zero-padded), so each case in one mode
 * is one thread whose runs sort in order. {@code agentlab check-stream} reads them back; the build hands them to the
 * official AG-UI client.
 */
@API(status = INTERNAL, since = "0.1")
public final class AuditExport {

    private AuditExport() {
    }

    /**
     * Writes {@code run}'s streams under {@code directory}.
     *
     * @throws UncheckedIOException naming the file that could not be written
     */
    public static void write(Path directory, CaseRun run) {
        Path root = directory.toAbsolutePath().normalize();
        Path thread = root.resolve(segment(run.suite().id())).resolve(segment(run.testCase().id()))
                .resolve(segment(run.mode().wireName())).normalize();
        if (!thread.startsWith(root)) {
            throw new IllegalStateException("an audit path left " + root + ": " + thread);
        }
        for (TurnRun turn : run.turns()) {
            Path file = thread.resolve(String.format("%03d.sse", turn.index() + 1));
            try {
                Files.createDirectories(thread);
                Files.writeString(file, AguiSseCodec.encode(turn.result().audit(), 1), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the audit stream " + file + ": " + e.getMessage(), e);
            }
        }
    }

    /** A path segment from an id: anything but letters, digits, dot, dash and underscore becomes '_'. */
    private static String segment(String id) {
        String safe = id.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() || safe.chars().allMatch(c -> c == '.') ? "_" + safe : safe;
    }
}
