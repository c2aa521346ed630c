package io.agentlab.engine.internal.wire;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.agui.AguiEvent;
import io.agentlab.engine.expect.WireSight;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventTimings;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.FollowUpSummary;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.runtime.CallRecord;
import io.agentlab.runtime.TurnMetrics;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Json;
import io.agentlab.runtime.protocol.ProposedEvent;
import io.agentlab.runtime.usage.CostSource;
import io.agentlab.runtime.usage.NormalizedUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * A turn's {@link TurnResult} as the kit reconstructs it from outside (docs/wire.md#stream): the AG-UI events as
 * received, the provider requests the replay served during the turn, and the kit's clock. What only the runtime's
 * inside knows stays empty — the resolution reports, the hidden block, the usage — and the expectations that need it are
 * not observable (docs/wire.md#observability).
 */
@API(status = INTERNAL, since = "0.1")
public final class StreamedTurn {

    private StreamedTurn() {
    }

    /**
     * One provider request of the turn, as the replay received it.
     *
     * @param role    its role
     * @param body    the request body
     * @param arrived when it arrived, from the turn's POST
     */
    public record ProviderRequest(CallRole role, String body, Duration arrived) {
    }

    /**
     * Kit-clock marks of the turn, each from the turn's POST.
     *
     * @param firstVisible   the first non-blank text delta of the first answer
     * @param firstAnswerEnd the end of the {@code chat} step
     * @param secondVisible  the first text delta of the follow-up
     * @param end            the stream's end
     */
    public record Marks(Optional<Duration> firstVisible, Optional<Duration> firstAnswerEnd,
                        Optional<Duration> secondVisible, Duration end) {
    }

    /**
     * A turn rebuilt from outside.
     *
     * @param result the result, as far as the stream and the provider requests show it
     * @param sight  what the stream carried beyond it: each tool result's optional fields
     */
    public record Rebuilt(TurnResult result, WireSight sight) {
    }

    /** The optional fields of a tool result's content (docs/wire.md#stream) an expectation may need. */
    static final List<String> OPTIONAL_FIELDS = List.of("reason", "duplicateOf");

    /** The result of a turn whose stream was {@code events}. */
    public static Rebuilt of(InvocationMode mode, String fallbackTurnId, Optional<String> retransmitOf,
                                Set<String> terminal, List<AguiEvent> events, List<ProviderRequest> requests,
                                Marks marks) {
        String runId = fallbackTurnId;
        String step = "";
        StringBuilder firstAnswer = new StringBuilder();
        List<String> confirmations = new ArrayList<>();
        StringBuilder followUp = null;
        Map<String, StringBuilder> confirming = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, StringBuilder> arguments = new LinkedHashMap<>();
        Map<String, Map<String, Object>> results = new LinkedHashMap<>();
        Optional<String> error = Optional.empty();
        for (AguiEvent event : events) {
            Map<String, Object> fields = event.fields();
            switch (event.type()) {
                case AguiEvent.RUN_STARTED -> runId = String.valueOf(fields.getOrDefault("runId", runId));
                case AguiEvent.STEP_STARTED -> step = String.valueOf(fields.get("stepName"));
                case AguiEvent.STEP_FINISHED -> step = "";
                case AguiEvent.TEXT_MESSAGE_START -> {
                    if (step.equals("events")) {
                        confirming.put(String.valueOf(fields.get("messageId")), new StringBuilder());
                    } else if (step.equals("follow_up") && followUp == null) {
                        followUp = new StringBuilder();
                    }
                }
                case AguiEvent.TEXT_MESSAGE_CONTENT -> {
                    String delta = String.valueOf(fields.getOrDefault("delta", ""));
                    StringBuilder confirmation = confirming.get(String.valueOf(fields.get("messageId")));
                    if (confirmation != null) {
                        confirmation.append(delta);
                    } else if (step.equals("follow_up") && followUp != null) {
                        followUp.append(delta);
                    } else {
                        firstAnswer.append(delta);
                    }
                }
                case AguiEvent.TOOL_CALL_START -> names.put(String.valueOf(fields.get("toolCallId")),
                        String.valueOf(fields.get("toolCallName")));
                case AguiEvent.TOOL_CALL_ARGS -> arguments.computeIfAbsent(String.valueOf(fields.get("toolCallId")),
                        id -> new StringBuilder()).append(fields.getOrDefault("delta", ""));
                case AguiEvent.TOOL_CALL_RESULT -> results.put(String.valueOf(fields.get("toolCallId")),
                        content(fields.get("content")));
                case AguiEvent.RUN_ERROR -> error = Optional.of(String.valueOf(fields.getOrDefault("code",
                        "runtime_error")));
                case AguiEvent.RUN_FINISHED -> {
                    if (fields.get("outcome") instanceof Map<?, ?> outcome && "cancelled".equals(outcome.get("type"))) {
                        error = Optional.of("RUN_CANCELED"); // as the runtime reports an interrupted turn in-process
                    }
                }
                default -> {
                }
            }
        }
        confirming.values().forEach(text -> confirmations.add(text.toString()));
        String turnId = retransmitOf.orElse(runId);
        List<EventResult> batch = new ArrayList<>();
        List<Set<String>> carried = new ArrayList<>();
        List<ProposedEvent> proposals = new ArrayList<>();
        List<String> ids = new ArrayList<>(names.keySet());
        for (int i = 0; i < ids.size(); i++) {
            String toolCallId = ids.get(i);
            String eventId = toolCallId.startsWith(runId + "-") ? toolCallId.substring(runId.length() + 1) : toolCallId;
            String text = Optional.ofNullable(arguments.get(toolCallId)).map(StringBuilder::toString).orElse("");
            Map<String, Object> args = text.isBlank() ? Map.of() : Json.object(Json.tree(text));
            proposals.add(new ProposedEvent(eventId, names.get(toolCallId), args, text, null));
            Map<String, Object> content = results.get(toolCallId);
            if (content != null) {
                batch.add(new EventResult(eventId, names.get(toolCallId), i, args, ResolutionReport.notAttempted(),
                        new EventTimings(Duration.ZERO, Optional.empty(), Optional.empty(), Duration.ZERO),
                        outcome(content, ids, runId)));
                carried.add(OPTIONAL_FIELDS.stream().filter(field -> content.get(field) != null)
                        .collect(Collectors.toSet()));
            }
        }
        Optional<BatchResult> result = batch.isEmpty() ? Optional.empty()
                : Optional.of(new BatchResult(batch, decision(batch, terminal, followUp != null), marks.end()));
        List<CallRecord> calls = new ArrayList<>();
        Map<CallRole, Integer> perRole = new EnumMap<>(CallRole.class);
        List<TurnMetrics.CallMetrics> callMetrics = new ArrayList<>();
        for (ProviderRequest request : requests) {
            calls.add(new CallRecord(turnId, request.role(), model(request.body()), request.body(), "", List.of(),
                    Map.of(), NormalizedUsage.absent(), request.arrived(), Duration.ZERO, Duration.ZERO,
                    Optional.empty()));
            perRole.merge(request.role(), 1, Integer::sum);
            callMetrics.add(new TurnMetrics.CallMetrics(request.role(), Duration.ZERO, Duration.ZERO, 0, 0, 0, false));
        }
        TurnMetrics metrics = new TurnMetrics(mode, turnId, marks.firstVisible(),
                marks.firstAnswerEnd().orElse(marks.end()), marks.secondVisible(), Map.of(), Map.of(), marks.end(),
                callMetrics, perRole, perRole.getOrDefault(CallRole.EVENT_AGENT, 0), batch.size(), 0, 0,
                (int) batch.stream().filter(e -> e.outcome() instanceof EventOutcome.Succeeded).count(),
                Optional.empty(), CostSource.INCOMPLETE_USAGE_FALLBACK, false, Optional.empty());
        return new Rebuilt(new TurnResult(turnId, runId, firstAnswer.toString().strip(), confirmations,
                Optional.ofNullable(followUp).map(StringBuilder::toString), proposals, "", result,
                result.map(BatchResult::decision), List.copyOf(events), calls, metrics, error), new WireSight(carried));
    }

    /**
     * The decision's kind from its effects (docs/wire.md#observability): {@code end_session} when a terminal event
     * succeeded, {@code follow_up} with a follow-up step, else {@code complete}; the follow-up's reasons stay unknown.
     */
    private static ContinuationDecision decision(List<EventResult> batch, Set<String> terminal, boolean followUp) {
        if (batch.stream().anyMatch(event -> terminal.contains(event.name())
                && event.outcome() instanceof EventOutcome.Succeeded)) {
            return new ContinuationDecision.EndSession(List.of());
        }
        if (followUp) {
            // the reasons are not carried by the stream (docs/wire.md#observability): a guess from the outcomes, which
            // a policy expectation naming reasons never judges over the wire
            Set<FollowUpReason> reasons = EnumSet.noneOf(FollowUpReason.class);
            batch.forEach(event -> reasons.add(event.outcome().isFailure() ? FollowUpReason.CORRECTION
                    : FollowUpReason.SYNTHESIS));
            return new ContinuationDecision.FollowUp(List.of(), reasons, new FollowUpSummary(List.of(), "{}"));
        }
        return new ContinuationDecision.Complete(List.of());
    }

    /** A tool result's content: JSON text of an object, or nothing readable. */
    private static Map<String, Object> content(Object content) {
        if (content instanceof String text) {
            try {
                return Json.object(Json.tree(text));
            } catch (RuntimeException e) {
                return Map.of();
            }
        }
        return Map.of();
    }

    /** The outcome a tool result's content says, as far as it says it. */
    private static EventOutcome outcome(Map<String, Object> content, List<String> ids, String runId) {
        String outcome = String.valueOf(content.getOrDefault("outcome", ""));
        String reason = content.get("reason") instanceof String text ? text : null;
        String error = error(content);
        // the error text is EventOutcome.describe()'s "<code>: <message>" (docs/wire.md#outcomes): the message alone,
        // so that the outcome rebuilt here describes itself as the runtime did, not with its code twice
        String message = reason == null ? error : error.equals(reason) ? ""
                : error.startsWith(reason + ": ") ? error.substring(reason.length() + 2) : error;
        return switch (outcome) {
            case "succeeded" -> new EventOutcome.Succeeded(Map.of(), 1);
            case "failed" -> new EventOutcome.Failed(reason == null ? UNKNOWN : reason, message, false, 1);
            case "timed_out" -> new EventOutcome.TimedOut(limit(error), "batch".equals(reason)
                    ? EventOutcome.TimeoutScope.BATCH : EventOutcome.TimeoutScope.EVENT, true);
            case "rejected" -> new EventOutcome.Rejected(rejection(reason), message, List.of());
            case "needs_clarification" -> new EventOutcome.NeedsClarification(message, Set.of());
            case "deduplicated" -> {
                int position = content.get("duplicateOf") instanceof Number n ? n.intValue() : 0;
                String primary = position >= 1 && position <= ids.size() ? eventId(ids.get(position - 1), runId)
                        : UNKNOWN;
                yield new EventOutcome.Deduplicated(primary, shared(content));
            }
            case "replayed" -> new EventOutcome.Replayed(shared(content));
            default -> new EventOutcome.Failed(UNKNOWN, "the tool result says no outcome: " + content, false, 1);
        };
    }

    /** A timeout's error text: {@code timed out after 1500 ms (event)}, or without the limit when it was not known. */
    private static final Pattern TIMED_OUT = Pattern.compile("timed out(?: after (\\d{1,12}) ms)? \\((event|batch)\\)");
    /** A failure's or rejection's error text: {@code device_offline: the speaker is offline}, or the code alone. */
    private static final Pattern CODED = Pattern.compile("([a-z0-9_.]{1,64})(?:: (.*))?", Pattern.DOTALL);

    /** The tool result's error text; empty when it carries none. */
    private static String error(Map<String, Object> content) {
        return content.get("error") instanceof String text ? text : "";
    }

    /** The limit a timeout's error text names; zero when it names none. */
    private static Duration limit(String error) {
        Matcher named = TIMED_OUT.matcher(error);
        return named.matches() && named.group(1) != null ? Duration.ofMillis(Long.parseLong(named.group(1)))
                : Duration.ZERO;
    }

    /** What a failure's code or a duplicate's primary reads as when the result does not carry it. */
    public static final String UNKNOWN = "(not carried by the stream)";

    /**
     * The outcome a deduplicated or replayed event shares, as far as its status and error text say it: the text read
     * as the outcome that writes it so (docs/wire.md#outcomes), so the shared outcome describes itself as the runtime
     * did.
     */
    private static EventOutcome shared(Map<String, Object> content) {
        String error = error(content);
        return switch (String.valueOf(content.getOrDefault("status", ""))) {
            case "success" -> new EventOutcome.Succeeded(Map.of(), 1);
            case "partial" -> new EventOutcome.NeedsClarification(error, Set.of());
            default -> {
                Matcher timedOut = TIMED_OUT.matcher(error);
                Matcher coded = CODED.matcher(error);
                if (timedOut.matches()) {
                    yield new EventOutcome.TimedOut(limit(error), timedOut.group(2).equals("batch")
                            ? EventOutcome.TimeoutScope.BATCH : EventOutcome.TimeoutScope.EVENT, true);
                }
                yield coded.matches() ? new EventOutcome.Failed(coded.group(1), coded.group(2) == null ? ""
                        : coded.group(2), false, 1) : new EventOutcome.Failed(UNKNOWN, error, false, 1);
            }
        };
    }

    private static EventOutcome.RejectionReason rejection(String reason) {
        try {
            return EventOutcome.RejectionReason.valueOf(reason == null ? "" : reason.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return EventOutcome.RejectionReason.RESOLUTION_ERROR;
        }
    }

    private static String eventId(String toolCallId, String runId) {
        return toolCallId.startsWith(runId + "-") ? toolCallId.substring(runId.length() + 1) : toolCallId;
    }

    private static String model(String body) {
        try {
            return Json.tree(body).path("model").asString("");
        } catch (RuntimeException e) {
            return "";
        }
    }
}
