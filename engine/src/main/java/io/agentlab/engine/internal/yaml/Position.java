package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * A place in a suite file, 1-based, as editors count.
 *
 * @param line   the line
 * @param column the column
 */
@API(status = INTERNAL, since = "0.1")
public record Position(int line, int column) {

    /** Used when a parser could not say where (never for a node it read). */
    public static final Position UNKNOWN = new Position(1, 1);

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
