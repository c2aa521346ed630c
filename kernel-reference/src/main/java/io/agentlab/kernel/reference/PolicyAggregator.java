package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.Confirmation;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventOutcome.Deduplicated;
import io.agentlab.kernel.api.EventOutcome.Failed;
import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventOutcome.Replayed;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventOutcome.TimedOut;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.FollowUpSummary;
import io.agentlab.kernel.api.ResultPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * Folds a batch's ordered results into one {@link ContinuationDecision} ({@code docs/design.md#policy-declared}),
 * purely from definition metadata:
 *
 * <ol>
 *   <li>deterministic confirmations of successful {@code template_follow_up} events come first, in input order;</li>
 *   <li>a successful {@code terminate} event ends the session and suppresses any further ChatAgent call;</li>
 *   <li>otherwise one follow-up call is requested if any {@code llm_follow_up} event succeeded (synthesis), any event
 *       failed, timed out or was rejected (correction), or any needs clarification; several reasons still make one
 *       call;</li>
 *   <li>otherwise the first answer stands.</li>
 * </ol>
 *
 * Deduplicated and replayed results add nothing (the primary or original already counted), except that a replayed
 * successful {@code terminate} still reports the session as ended.
 */
@API(status = INTERNAL, since = "0.1")
public final class PolicyAggregator {

    /** The default bound on the follow-up summary's JSON length. */
    public static final int DEFAULT_SUMMARY_LIMIT_CHARS = 4000;
    static final String HIDDEN_FAILURE_MESSAGE = "the action could not be completed";
    private static final String TRUNCATED = "truncated: ";
    /** Texts shorter than this are never worth replacing by a marker. */
    private static final int SHRINK_THRESHOLD = 60;

    private final int summaryLimitChars;

    /** An aggregator bounding follow-up summaries at {@code summaryLimitChars}. */
    public PolicyAggregator(int summaryLimitChars) {
        if (summaryLimitChars < 200) {
            throw new IllegalArgumentException("summaryLimitChars must be at least 200, was " + summaryLimitChars);
        }
        this.summaryLimitChars = summaryLimitChars;
    }

    /**
     * Decides what the turn does next.
     *
     * @param results     a batch's results in input order
     * @param definitions looks up definitions by name (unknown names are treated as rejected events)
     * @param locale      the user's language, for confirmations
     */
    public ContinuationDecision decide(List<EventResult> results,
                                       Function<String, Optional<EventDefinition>> definitions, Locale locale) {
        List<Confirmation> confirmations = new ArrayList<>();
        Set<FollowUpReason> reasons = EnumSet.noneOf(FollowUpReason.class);
        List<Map<String, Object>> items = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        boolean sessionEnded = false;
        for (EventResult result : results) {
            EventOutcome outcome = result.outcome();
            Optional<EventDefinition> definition = definitions.apply(result.name());
            if (outcome instanceof Replayed replayed) {
                // A retransmission repeats no message, but a session that ended stays ended.
                sessionEnded |= replayed.originalOutcome() instanceof Succeeded
                        && definition.map(d -> d.resultPolicy() == ResultPolicy.TERMINATE).orElse(false);
                continue;
            }
            if (outcome instanceof Deduplicated) {
                continue;
            }
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", result.eventId());
            item.put("event", result.name());
            item.put("status", outcome.status());
            if (outcome instanceof Succeeded succeeded && definition.isPresent()) {
                EventDefinition def = definition.get();
                switch (def.resultPolicy()) {
                    case TERMINATE -> sessionEnded = true;
                    case SILENT_SUCCESS -> { }
                    case TEMPLATE_FOLLOW_UP -> {
                        Optional<String> text = render(def, result, succeeded, locale);
                        if (text.isPresent()) {
                            confirmations.add(new Confirmation(result.eventId(), text.get()));
                            item.put("confirmed", text.get());
                        } else {
                            // A broken template must not swallow the success: let ChatAgent phrase it.
                            reasons.add(FollowUpReason.SYNTHESIS);
                            item.put("result", summarize(def, succeeded));
                        }
                    }
                    case LLM_FOLLOW_UP -> {
                        reasons.add(FollowUpReason.SYNTHESIS);
                        item.put("result", summarize(def, succeeded));
                    }
                }
            } else if (outcome instanceof NeedsClarification clarification) {
                reasons.add(FollowUpReason.CLARIFICATION);
                item.put("question", clarification.question());
                item.put("missing", clarification.missingFields().stream().sorted().toList());
            } else if (outcome.isFailure() || outcome instanceof Succeeded) {
                reasons.add(FollowUpReason.CORRECTION);
                item.put("error", describeFailure(outcome, definition));
            }
            items.add(item);
            ids.add(result.eventId());
        }
        if (sessionEnded) {
            return new ContinuationDecision.EndSession(confirmations);
        }
        if (reasons.isEmpty()) {
            return new ContinuationDecision.Complete(confirmations);
        }
        return new ContinuationDecision.FollowUp(confirmations, reasons, new FollowUpSummary(ids, bounded(items)));
    }

    private static Optional<String> render(EventDefinition def, EventResult result, Succeeded succeeded, Locale locale) {
        try {
            String text = def.confirmationTemplate().orElseThrow()
                    .render(result.arguments(), succeeded.payload(), locale);
            return text == null || text.isBlank() ? Optional.empty() : Optional.of(text);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Object summarize(EventDefinition def, Succeeded succeeded) {
        try {
            return def.resultSummarizer().summarize(succeeded.payload());
        } catch (RuntimeException e) {
            return Map.of("summary_error", e.getClass().getSimpleName());
        }
    }

    private static Map<String, Object> describeFailure(EventOutcome outcome, Optional<EventDefinition> definition) {
        boolean visible = definition.map(EventDefinition::failureVisibleToChatAgent).orElse(true);
        Map<String, Object> error = new LinkedHashMap<>();
        if (outcome instanceof Failed failed) {
            error.put("code", failed.code());
            error.put("message", visible ? failed.message() : HIDDEN_FAILURE_MESSAGE);
        } else if (outcome instanceof TimedOut timedOut) {
            error.put("code", "timed_out");
            error.put("limit_ms", timedOut.limit().toMillis());
            error.put("scope", timedOut.scope().name().toLowerCase(Locale.ROOT));
        } else if (outcome instanceof Rejected rejected) {
            error.put("code", rejected.reason().name().toLowerCase(Locale.ROOT));
            error.put("message", visible ? rejected.message() : HIDDEN_FAILURE_MESSAGE);
        } else {
            // A success of an event the registry no longer knows: report it, do not guess its policy.
            error.put("code", "unknown_policy");
        }
        return error;
    }

    /**
     * Renders the items within the summary bound, whatever they hold (docs/limits-and-safety.md#kernel): first the
     * largest result payloads, then the largest texts (error messages, questions, confirmations) are replaced by a
     * marker naming their size; if the status lines alone are still too long, the last items are folded into one
     * {@code omitted} count. The result never exceeds the bound. Each part is measured once and the length is kept by
     * difference, and the items kept are found by bisection (a logarithmic number of renders), so a batch of
     * thousands of failures costs milliseconds, not the seconds a re-render per truncation took.
     */
    private String bounded(List<Map<String, Object>> items) {
        List<Map<String, Object>> working = new ArrayList<>();
        items.forEach(item -> working.add(new LinkedHashMap<>(item)));
        String json = CanonicalJson.write(working);
        if (json.length() <= summaryLimitChars) {
            return json;
        }
        long length = json.length();
        for (Shrinkable part : shrinkable(working)) {
            if (length <= summaryLimitChars) {
                break;
            }
            String marker = TRUNCATED + part.length() + " chars over the summary limit";
            length += CanonicalJson.write(marker).length() - (long) part.written();
            part.owner().put(part.key(), marker);
        }
        json = CanonicalJson.write(working);
        if (json.length() <= summaryLimitChars) {
            return json;
        }
        // Keep the longest prefix of items that fits with the omitted count: fewer items are never longer, so the
        // prefix length can be searched for instead of dropping one item per render.
        int low = 0;
        int high = working.size() - 1;
        String fitting = withOmitted(working, 0);
        while (low <= high) {
            int kept = (low + high) >>> 1;
            String candidate = withOmitted(working, kept);
            if (candidate.length() <= summaryLimitChars) {
                fitting = candidate;
                low = kept + 1;
            } else {
                high = kept - 1;
            }
        }
        return fitting;
    }

    private static String withOmitted(List<Map<String, Object>> working, int kept) {
        List<Object> shown = new ArrayList<>(working.subList(0, kept));
        shown.add(Map.of("omitted", working.size() - kept, "reason", "over the summary limit"));
        return CanonicalJson.write(shown);
    }

    /** A part of an item that may be replaced by a marker: its length as a text and as written JSON. */
    private record Shrinkable(Map<String, Object> owner, String key, int length, int written, long weight) {
    }

    /**
     * Every part worth replacing, largest first: result payloads before texts (a payload is raw data; a text is what
     * ChatAgent needs to say), never the id, event, status or error code; equal weights keep input order.
     */
    @SuppressWarnings("unchecked")
    private static List<Shrinkable> shrinkable(List<Map<String, Object>> working) {
        List<Shrinkable> parts = new ArrayList<>();
        for (Map<String, Object> item : working) {
            List<Map.Entry<Map<String, Object>, String>> candidates = new ArrayList<>();
            for (String name : List.of("result", "question", "confirmed")) {
                candidates.add(Map.entry(item, name));
            }
            if (item.get("error") instanceof Map<?, ?> error) {
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) error);
                item.put("error", copy); // the result's own map is never changed
                candidates.add(Map.entry(copy, "message"));
            }
            for (Map.Entry<Map<String, Object>, String> candidate : candidates) {
                Object value = candidate.getKey().get(candidate.getValue());
                if (value == null || value instanceof String text && text.startsWith(TRUNCATED)) {
                    continue; // absent, or already a marker
                }
                int written = CanonicalJson.write(value).length();
                int length = value instanceof String text ? text.length() : written;
                if (length <= SHRINK_THRESHOLD) {
                    continue;
                }
                long weight = candidate.getValue().equals("result") ? length + (long) Integer.MAX_VALUE : length;
                parts.add(new Shrinkable(candidate.getKey(), candidate.getValue(), length, written, weight));
            }
        }
        parts.sort(Comparator.comparingLong(Shrinkable::weight).reversed()); // stable: ties keep input order
        return parts;
    }
}
