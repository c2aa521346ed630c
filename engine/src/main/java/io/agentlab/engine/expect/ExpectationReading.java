package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/** What a kind may ask of the suite while it reads: which names are allowed, and how to read a nested block. */
@API(status = INTERNAL, since = "0.1")
public interface ExpectationReading {

    /**
     * Reports a problem at {@code at} unless {@code name} is an event expectations may name: an enabled event, a probe,
     * or a name the suite declares deliberately unknown.
     */
    void checkEvent(Position at, String path, String name);

    /** {@link #checkEvent(Position, String, String)} at a node. */
    default void checkEvent(Node node, String name) {
        checkEvent(node.at(), node.path(), name);
    }

    /** The argument names an offered event's schema declares; empty for probes and unknown names (any name goes). */
    Optional<Set<String>> argumentNames(String event);

    /** Reads a nested {@code expect} block (an alternative of {@code anyOf}). */
    Expectations block(Node node);
}
