package io.agentlab.providers.recorded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The start-up benchmark's probe (docs/performance.md#start-up): with the build switch
 * {@code agentlab-build.first-request-file} set, the first request any replay server of the process receives writes
 * the wall-clock instant it arrived (epoch microseconds) to that file, so a script can subtract the instant it started
 * the process and measure the fixed cost up to the first case's request. Without the switch it does nothing.
 */
final class FirstRequestProbe {

    static final String SWITCH = "agentlab-build.first-request-file";
    private static final AtomicBoolean SEEN = new AtomicBoolean();

    private FirstRequestProbe() {
    }

    static void arrived() {
        if (SEEN.get() || SEEN.getAndSet(true)) {
            return;
        }
        String file = System.getProperty(SWITCH);
        if (file != null) {
            Instant now = Instant.now();
            long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000L;
            try {
                Files.writeString(Path.of(file), Long.toString(micros), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + SWITCH + " " + file, e);
            }
        }
    }
}
