package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A kind of expectation: the key it is written under, how it is read and what of it a runtime over the wire can show.
 * Each kind's class holds its model, its reader, its check and that declaration; {@link ExpectationKinds#ALL} lists
 * them.
 */
@API(status = INTERNAL, since = "0.1")
public interface ExpectationKind {

    /** The key under {@code expect}. */
    String key();

    /**
     * Reads the value written under the key. Problems go to the node; the result is empty when nothing usable was
     * read.
     */
    Optional<Expectation> read(Node value, ExpectationReading reading);

    /**
     * What of it the kit can judge from outside a runtime over the wire, and why not the rest
     * (docs/wire.md#observability).
     */
    Observability observability();

    /** A kind from its key, what the wire shows of it, and its reader. */
    static ExpectationKind of(String key, Observability observability, Reader reader) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(observability, "observability");
        Objects.requireNonNull(reader, "reader");
        return new ExpectationKind() {
            @Override
            public String key() {
                return key;
            }

            @Override
            public Observability observability() {
                return observability;
            }

            @Override
            public Optional<Expectation> read(Node value, ExpectationReading reading) {
                return reader.read(value, reading);
            }

            @Override
            public String toString() {
                return key;
            }
        };
    }

    /** How a kind reads its value. */
    @FunctionalInterface
    interface Reader {
        /** The expectation written at {@code value}, or empty with the problems reported. */
        Optional<Expectation> read(Node value, ExpectationReading reading);
    }
}
