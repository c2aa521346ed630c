package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The resources an event holds while it runs. Two events sharing a key never overlap in one batch (conflict-key
 * locking, {@code docs/design.md#batch-conflict-keys}); events with disjoint keys may run concurrently.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ConflictKeys {

    /** The keys for these normalized arguments (may depend on them, e.g. a device id). */
    Set<String> keysFor(Map<String, Object> arguments);

    /** Conflicts with nothing. */
    static ConflictKeys none() {
        return arguments -> Set.of();
    }

    /** The same fixed keys whatever the arguments. */
    static ConflictKeys of(String... keys) {
        Set<String> fixed = Set.of(keys);
        return arguments -> fixed;
    }

    /**
     * Keys written as templates ({@code docs/design.md#batch-conflict-keys}): each {@code {name}} is replaced by that
     * argument's value in the final arguments ({@code device:{device}}); a key naming an argument the event lacks is
     * not held. Suites' probe events declare their keys so, in-process and over the wire (docs/wire.md#probes).
     */
    static ConflictKeys templated(List<String> templates) {
        Pattern placeholder = Pattern.compile("\\{([^{}]+)}");
        if (templates.stream().noneMatch(key -> placeholder.matcher(key).find())) {
            return of(templates.toArray(String[]::new));
        }
        List<String> declared = List.copyOf(templates);
        return arguments -> {
            Set<String> keys = new LinkedHashSet<>();
            for (String key : declared) {
                Matcher matcher = placeholder.matcher(key);
                StringBuilder resolved = new StringBuilder();
                boolean complete = true;
                while (matcher.find()) {
                    Object value = arguments.get(matcher.group(1));
                    complete &= value != null;
                    matcher.appendReplacement(resolved, Matcher.quoteReplacement(String.valueOf(value)));
                }
                matcher.appendTail(resolved);
                if (complete) {
                    keys.add(resolved.toString());
                }
            }
            return Set.copyOf(keys);
        };
    }
}
