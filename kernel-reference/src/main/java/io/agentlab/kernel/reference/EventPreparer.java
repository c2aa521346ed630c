package io.agentlab.kernel.reference;

import io.agentlab.kernel.api.ArgumentViolation;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.RejectionReason;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventRequest;
import io.agentlab.kernel.api.JsonValues;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionInput;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.kernel.api.TurnContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The per-event resolution pipeline ({@code docs/design.md#kernel-pipeline}), up to (not including) execution: lookup →
 * merge proposed arguments with deterministic resolution → normalize → validate (schema + plugin validator) →
 * [fallback] → re-validate.
 *
 * <p>Merge rule: the model's proposed values win over the resolver's, the resolver fills what the model left out, and
 * the fallback fills only what is still missing. A {@code null} value means absent.
 */
final class EventPreparer {

    private final EventRegistry registry;

    EventPreparer(EventRegistry registry) {
        this.registry = registry;
    }

    /**
     * Everything up to the fallback decision. Never throws: plugin exceptions become rejections.
     *
     * @param occurrence  the request's place among the batch's requests of the same name
     * @param occurrences how many requests of that name the batch holds
     */
    Preparation prepare(EventRequest request, TurnContext turn, int occurrence, int occurrences) {
        Optional<EventDefinition> found = registry.lookup(request.name());
        if (found.isEmpty()) {
            return new Preparation.Settled(request.proposedArguments(), ResolutionReport.notAttempted(),
                    new Rejected(RejectionReason.UNKNOWN_EVENT, "no event named '" + request.name()
                            + "' is registered; known: " + registry.names(), List.of()));
        }
        EventDefinition definition = found.get();
        Resolution resolution;
        Map<String, Object> merged;
        try {
            resolution = definition.resolver().resolve(new ResolutionInput(request, turn, occurrence, occurrences));
            if (resolution == null) {
                throw new IllegalStateException("resolver returned null");
            }
            merged = new LinkedHashMap<>(withoutNulls(resolution.arguments()));
            merged.putAll(withoutNulls(request.proposedArguments()));
        } catch (RuntimeException e) {
            return resolutionError(definition, request.proposedArguments(), "resolver", e);
        }
        boolean validBefore = isCompleteAndValid(definition, merged);
        Map<String, Object> normalized;
        try {
            normalized = normalize(definition, merged);
        } catch (RuntimeException e) {
            return resolutionError(definition, merged, "normalizer", e);
        }
        return judge(definition, normalized, resolution.clarification(), source(resolution, request), validBefore,
                false);
    }

    /**
     * Which of the user's requests the event stands for: the resolver's source when it named one, else the model's
     * proposed arguments (the model stated the request), else unknown ({@code docs/kernel.md#two-requests-stay-two}).
     */
    private static Optional<String> source(Resolution resolution, EventRequest request) {
        if (resolution.source().isPresent()) {
            return Optional.of("words:" + resolution.source().get());
        }
        return request.proposedArguments().isEmpty() ? Optional.empty()
                : Optional.of("proposal:" + CanonicalJson.write(request.proposedArguments()));
    }

    /**
     * Completes an event after the fallback: its values fill only fields still missing, then the arguments are
     * normalized and validated again. A failed fallback ({@code failure != null}) leaves the event incomplete.
     */
    Preparation afterFallback(Preparation.NeedsFallback pending, Map<String, Object> proposal, Throwable failure) {
        Map<String, Object> filled = new LinkedHashMap<>(pending.arguments());
        if (failure == null && proposal != null) {
            try {
                JsonValues.copyObject(proposal).forEach(filled::putIfAbsent);
            } catch (IllegalArgumentException e) {
                failure = e; // a fallback returning non-JSON values helped nothing
            }
        }
        Map<String, Object> normalized;
        try {
            normalized = normalize(pending.definition(), withoutNulls(filled));
        } catch (RuntimeException e) {
            return resolutionError(pending.definition(), filled, "normalizer", e);
        }
        return judge(pending.definition(), normalized, pending.clarification(), pending.source(),
                pending.validBeforeNormalization(), true);
    }

    private Preparation judge(EventDefinition definition, Map<String, Object> arguments,
                              Optional<String> clarification, Optional<String> source, boolean validBefore,
                              boolean fallbackUsed) {
        Set<String> missing = missing(definition, arguments);
        List<ArgumentViolation> violations;
        try {
            violations = violations(definition, arguments);
        } catch (RuntimeException e) {
            return resolutionError(definition, arguments, "validator", e);
        }
        if (!violations.isEmpty()) {
            return new Preparation.Settled(arguments,
                    new ResolutionReport(fallbackUsed ? ResolutionOutcome.FALLBACK : ResolutionOutcome.DETERMINISTIC,
                            fallbackUsed, validBefore, false),
                    new Rejected(RejectionReason.INVALID_ARGUMENTS,
                            definition.name() + ": invalid arguments: " + violations, violations));
        }
        if (missing.isEmpty()) {
            ResolutionOutcome outcome = fallbackUsed ? ResolutionOutcome.FALLBACK : ResolutionOutcome.DETERMINISTIC;
            return new Preparation.Ready(definition, arguments, CanonicalJson.write(arguments), source,
                    new ResolutionReport(outcome, fallbackUsed, validBefore, true));
        }
        if (definition.fallbackAllowed() && !fallbackUsed) {
            return new Preparation.NeedsFallback(definition, arguments, missing, clarification, source, validBefore);
        }
        String question = clarification.orElseGet(() -> defaultQuestion(definition, missing));
        return new Preparation.Settled(arguments,
                new ResolutionReport(ResolutionOutcome.INCOMPLETE, fallbackUsed, validBefore, false),
                new NeedsClarification(question, missing));
    }

    private boolean isCompleteAndValid(EventDefinition definition, Map<String, Object> arguments) {
        try {
            return missing(definition, arguments).isEmpty() && violations(definition, arguments).isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Set<String> missing(EventDefinition definition, Map<String, Object> arguments) {
        Set<String> missing = new LinkedHashSet<>(schema(definition).check(arguments).missing());
        for (String field : definition.requiredFields()) {
            if (!arguments.containsKey(field)) {
                missing.add(field);
            }
        }
        return missing;
    }

    private List<ArgumentViolation> violations(EventDefinition definition, Map<String, Object> arguments) {
        List<ArgumentViolation> violations = new ArrayList<>(schema(definition).check(arguments).violations());
        List<ArgumentViolation> own = definition.validator().validate(arguments);
        if (own == null) {
            throw new IllegalStateException("validator returned null");
        }
        violations.addAll(own);
        return violations;
    }

    private ArgumentSchema schema(EventDefinition definition) {
        return registry.schema(definition.name()).orElseThrow();
    }

    private static Map<String, Object> normalize(EventDefinition definition, Map<String, Object> arguments) {
        Map<String, Object> normalized = definition.normalizer().normalize(JsonValues.copyObject(arguments));
        if (normalized == null) {
            throw new IllegalStateException("normalizer returned null");
        }
        return withoutNulls(JsonValues.copyObject(normalized));
    }

    private static Map<String, Object> withoutNulls(Map<String, Object> arguments) {
        Map<String, Object> copy = new LinkedHashMap<>();
        arguments.forEach((key, value) -> {
            if (value != null) {
                copy.put(key, value);
            }
        });
        return JsonValues.copyObject(copy);
    }

    private static Preparation resolutionError(EventDefinition definition, Map<String, Object> arguments,
                                               String stage, RuntimeException error) {
        return new Preparation.Settled(arguments, ResolutionReport.notAttempted(),
                new Rejected(RejectionReason.RESOLUTION_ERROR, definition.name() + ": the plugin's " + stage
                        + " threw " + error.getClass().getSimpleName() + ": " + error.getMessage(), List.of()));
    }

    private static String defaultQuestion(EventDefinition definition, Set<String> missing) {
        return "Could you tell me the " + String.join(" and ", missing) + "?";
    }
}
