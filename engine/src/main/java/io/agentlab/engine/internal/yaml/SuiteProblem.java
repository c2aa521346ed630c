package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One thing wrong with a suite file: where, which key, and what was expected. Discovery reports each as a JUnit
 * {@code DiscoveryIssue}; nothing malformed is skipped silently.
 *
 * @param file    the file or classpath resource
 * @param at      where in it
 * @param key     the path of the offending key, e.g. {@code cases[2].turns[0].expect.events[0].name}
 * @param message what is wrong and what was expected
 */
@API(status = INTERNAL, since = "0.1")
public record SuiteProblem(String file, Position at, String key, String message) {

    /** Rejects nulls. */
    public SuiteProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return file + ":" + at + ": " + (key.isEmpty() ? "" : key + ": ") + message;
    }
}
