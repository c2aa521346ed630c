package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * What the kit saw of a turn it judged over the wire beyond the result it rebuilt from the stream
 * (docs/wire.md#stream): which optional fields each tool result carried, so an expectation on a field the result left
 * out is not observable rather than failed or passed.
 *
 * @param carried    per batch position (0-based), the optional fields of its tool result's content that it carried
 *                   ({@code reason}, {@code duplicateOf})
 * @param unobserved why the kit could not observe the turn at all, if it could not: the runtime was not there or
 *                   unreachable, answered no stream, or its stream was malformed, hung or broke off. The turn then
 *                   fails with that one line and its expectations are not checked (docs/wire.md#bounds)
 */
@API(status = INTERNAL, since = "0.1")
public record WireSight(List<Set<String>> carried, Optional<String> unobserved) {

    /** Copies the list. */
    public WireSight {
        carried = carried.stream().map(Set::copyOf).toList();
    }

    /** A turn the kit observed to its end. */
    public WireSight(List<Set<String>> carried) {
        this(carried, Optional.empty());
    }

    /** This sight of a turn the kit could not observe, for {@code why}. */
    public WireSight unobserved(String why) {
        return new WireSight(carried, Optional.of(why));
    }

    /** Whether the tool result at {@code position} (0-based) carried {@code field}. */
    public boolean carries(int position, String field) {
        return position >= 0 && position < carried.size() && carried.get(position).contains(field);
    }
}
