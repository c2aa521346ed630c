package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.ResolutionReport;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Where the resolution pipeline left one event (package-private: the batch executor's input). */
sealed interface Preparation {

    /** Final arguments, for reporting. */
    Map<String, Object> arguments();

    /**
     * Complete and valid: the event may execute.
     *
     * @param definition         its definition
     * @param arguments          normalized arguments
     * @param canonicalArguments their canonical JSON (deduplication, replay and idempotency key)
     * @param source             which of the user's requests it stands for, when known (deduplication)
     * @param report             how they were obtained
     */
    record Ready(EventDefinition definition, Map<String, Object> arguments, String canonicalArguments,
                 Optional<String> source, ResolutionReport report) implements Preparation {
    }

    /**
     * Ended before execution (unknown, invalid, needs clarification): no side effect.
     *
     * @param arguments the arguments as far as they were resolved
     * @param report    how far resolution got
     * @param outcome   the outcome
     */
    record Settled(Map<String, Object> arguments, ResolutionReport report, EventOutcome outcome)
            implements Preparation {
    }

    /**
     * Required fields are missing and the definition allows the EventAgent fallback.
     *
     * @param definition               its definition
     * @param arguments                normalized partial arguments
     * @param missing                  missing fields
     * @param clarification            the resolver's question, if it had one
     * @param source                   which of the user's requests it stands for, when known
     * @param validBeforeNormalization the merged arguments' validity before normalization
     */
    record NeedsFallback(EventDefinition definition, Map<String, Object> arguments, Set<String> missing,
                         Optional<String> clarification, Optional<String> source, boolean validBeforeNormalization)
            implements Preparation {
    }
}
