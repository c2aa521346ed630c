package io.agentlab.kernel.reference;

import static io.agentlab.kernel.reference.Definitions.ok;
import static io.agentlab.kernel.reference.Definitions.silent;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.Confirmation;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.ContinuationDecision.Complete;
import io.agentlab.kernel.api.ContinuationDecision.EndSession;
import io.agentlab.kernel.api.ContinuationDecision.FollowUp;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome;
import io.agentlab.kernel.api.EventOutcome.Deduplicated;
import io.agentlab.kernel.api.EventOutcome.Failed;
import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventOutcome.RejectionReason;
import io.agentlab.kernel.api.EventOutcome.Replayed;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventOutcome.TimedOut;
import io.agentlab.kernel.api.EventOutcome.TimeoutScope;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventTimings;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.kernel.api.ResultPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Result-policy aggregation, rule by rule ({@code docs/design.md#policy-declared} and the clauses after it). */
class PolicyAggregatorTest {

    private static final EventDefinition SILENT = silent("t.silent", ok()).build();
    private static final EventDefinition TEMPLATE = silent("t.template", ok())
            .resultPolicy(ResultPolicy.TEMPLATE_FOLLOW_UP)
            .confirmationTemplate((arguments, payload, locale) ->
                    (locale.getLanguage().equals("zh") ? "已记下：" : "Noted: ") + arguments.get("title"))
            .build();
    private static final EventDefinition LLM = silent("t.llm", ok()).resultPolicy(ResultPolicy.LLM_FOLLOW_UP)
            .resultSummarizer(payload -> Map.of("answer", payload.get("answer"))).build();
    private static final EventDefinition END = silent("t.end", ok()).resultPolicy(ResultPolicy.TERMINATE)
            .terminal(true).build();
    private static final EventDefinition QUIET = silent("t.quiet", ok()).failureVisibleToChatAgent(false).build();
    private static final Function<String, Optional<EventDefinition>> DEFINITIONS = name ->
            Stream.of(SILENT, TEMPLATE, LLM, END, QUIET).filter(d -> d.name().equals(name)).findFirst();

    private final PolicyAggregator aggregator = new PolicyAggregator(PolicyAggregator.DEFAULT_SUMMARY_LIMIT_CHARS);

    private static EventResult result(String id, EventDefinition definition, EventOutcome outcome) {
        return result(id, definition.name(), Map.of("title", "dentist " + id), outcome);
    }

    private static EventResult result(String id, String name, Map<String, Object> arguments, EventOutcome outcome) {
        return new EventResult(id, name, Integer.parseInt(id.substring(1)) - 1, arguments,
                ResolutionReport.notAttempted(),
                new EventTimings(Duration.ZERO, Optional.empty(), Optional.empty(), Duration.ZERO), outcome);
    }

    private static Succeeded success(Map<String, Object> payload) {
        return new Succeeded(payload, 1);
    }

    private ContinuationDecision decide(EventResult... results) {
        return aggregator.decide(List.of(results), DEFINITIONS, Locale.ENGLISH);
    }

    @Test
    @DisplayName("silent_success: the first answer stands, nothing follows")
    void silentSuccess() {
        assertThat(decide(result("e1", SILENT, success(Map.of())))).isEqualTo(new Complete(List.of()));
    }

    @Test
    @DisplayName("template_follow_up: a deterministic confirmation in the user's language, no LLM call")
    void template() {
        EventResult noted = result("e1", TEMPLATE, success(Map.of()));
        assertThat(decide(noted)).isEqualTo(new Complete(List.of(new Confirmation("e1", "Noted: dentist e1"))));
        assertThat(aggregator.decide(List.of(noted), DEFINITIONS, Locale.CHINESE).confirmations())
                .containsExactly(new Confirmation("e1", "已记下：dentist e1"));
    }

    /** The clause this checks: {@code docs/design.md#context-compact-results}. */
    @Test
    @DisplayName("llm_follow_up: exactly one follow-up with the plugin's compact summary, not the raw payload")
    void llmFollowUp() {
        ContinuationDecision decision = decide(result("e1", LLM,
                success(Map.of("answer", "21°C", "raw_html", "<html>...</html>"))));
        assertThat(decision).isInstanceOfSatisfying(FollowUp.class, followUp -> {
            assertThat(followUp.reasons()).containsExactly(FollowUpReason.SYNTHESIS);
            assertThat(followUp.summary().json()).contains("21°C").doesNotContain("raw_html");
            assertThat(followUp.summary().eventIds()).containsExactly("e1");
        });
    }

    @Test
    @DisplayName("mixed batch: templates first, then one follow-up for several llm results")
    void mixedBatch() {
        ContinuationDecision decision = decide(
                result("e1", LLM, success(Map.of("answer", "a"))),
                result("e2", TEMPLATE, success(Map.of())),
                result("e3", LLM, success(Map.of("answer", "b"))),
                result("e4", SILENT, success(Map.of())));
        assertThat(decision).isInstanceOfSatisfying(FollowUp.class, followUp -> {
            assertThat(followUp.confirmations()).extracting(Confirmation::eventId).containsExactly("e2");
            assertThat(followUp.reasons()).containsExactly(FollowUpReason.SYNTHESIS);
            assertThat(followUp.summary().eventIds()).containsExactly("e1", "e2", "e3", "e4");
        });
    }

    /** The clause this checks: {@code docs/design.md#policy-terminate}. */
    @Test
    @DisplayName("successful terminate ends the session and suppresses the follow-up, keeping sibling confirmations")
    void terminateSuppressesFollowUp() {
        ContinuationDecision decision = decide(
                result("e1", LLM, success(Map.of("answer", "a"))),
                result("e2", TEMPLATE, success(Map.of())),
                result("e3", SILENT, new Failed("offline", "device offline", false, 1)),
                result("e4", END, success(Map.of())));
        assertThat(decision).isEqualTo(new EndSession(List.of(new Confirmation("e2", "Noted: dentist e2"))));
    }

    @Test
    @DisplayName("failed terminate does not pretend the session ended: one corrective follow-up")
    void failedTerminate() {
        assertThat(decide(result("e1", END, new Failed("session_busy", "busy", false, 1))))
                .isInstanceOfSatisfying(FollowUp.class, followUp ->
                        assertThat(followUp.reasons()).containsExactly(FollowUpReason.CORRECTION));
    }

    @Test
    @DisplayName("any failure, timeout or rejection: one aggregated corrective follow-up naming each")
    void aggregatedCorrection() {
        ContinuationDecision decision = decide(
                result("e1", SILENT, new Failed("offline", "device offline", false, 1)),
                result("e2", TEMPLATE, new TimedOut(Duration.ofSeconds(2), TimeoutScope.EVENT, true)),
                result("e3", "t.unknown", Map.of(), new Rejected(RejectionReason.UNKNOWN_EVENT, "no such", List.of())));
        assertThat(decision).isInstanceOfSatisfying(FollowUp.class, followUp -> {
            assertThat(followUp.reasons()).containsExactly(FollowUpReason.CORRECTION);
            assertThat(followUp.summary().json()).contains("device offline", "timed_out", "unknown_event");
            assertThat(followUp.confirmations()).isEmpty();
        });
    }

    @Test
    @DisplayName("needs clarification asks the focused question in the follow-up")
    void clarification() {
        assertThat(decide(result("e1", TEMPLATE, new NeedsClarification("What time?", Set.of("time")))))
                .isInstanceOfSatisfying(FollowUp.class, followUp -> {
                    assertThat(followUp.reasons()).containsExactly(FollowUpReason.CLARIFICATION);
                    assertThat(followUp.summary().json()).contains("What time?");
                });
    }

    @Test
    @DisplayName("a failure not visible to ChatAgent is summarized without its message")
    void hiddenFailureMessage() {
        assertThat(decide(result("e1", QUIET, new Failed("db", "password=hunter2 rejected", false, 1))))
                .isInstanceOfSatisfying(FollowUp.class, followUp -> assertThat(followUp.summary().json())
                        .doesNotContain("hunter2").contains(PolicyAggregator.HIDDEN_FAILURE_MESSAGE));
    }

    /** The clause this checks: {@code docs/design.md#policy-counted-once}. */
    @Test
    @DisplayName("deduplicated and replayed results add nothing; a replayed terminate still ends the session")
    void duplicatesAndReplays() {
        Succeeded done = success(Map.of());
        assertThat(decide(result("e1", TEMPLATE, new Replayed(done)),
                result("e2", TEMPLATE, new Deduplicated("e1", new Replayed(done)))))
                .isEqualTo(new Complete(List.of()));
        assertThat(decide(result("e1", END, new Replayed(done)))).isEqualTo(new EndSession(List.of()));
    }

    @Test
    @DisplayName("a broken template falls back to LLM synthesis instead of losing the success")
    void brokenTemplate() {
        EventDefinition broken = silent("t.broken", ok()).resultPolicy(ResultPolicy.TEMPLATE_FOLLOW_UP)
                .confirmationTemplate((arguments, payload, locale) -> {
                    throw new IllegalStateException("missing key");
                }).build();
        ContinuationDecision decision = aggregator.decide(List.of(result("e1", broken, success(Map.of("id", 7)))),
                name -> Optional.of(broken), Locale.ENGLISH);
        assertThat(decision).isInstanceOfSatisfying(FollowUp.class, followUp ->
                assertThat(followUp.reasons()).containsExactly(FollowUpReason.SYNTHESIS));
    }

    /** The clause this checks: {@code docs/design.md#context-compact-results}. */
    @Test
    @DisplayName("the follow-up summary is bounded: the largest payloads are truncated first, statuses are kept")
    void boundedSummary() {
        PolicyAggregator small = new PolicyAggregator(400);
        String big = "x".repeat(1000);
        List<EventResult> results = new ArrayList<>();
        results.add(result("e1", LLM, success(Map.of("answer", big))));
        results.add(result("e2", LLM, success(Map.of("answer", "short"))));
        ContinuationDecision decision = small.decide(results, DEFINITIONS, Locale.ENGLISH);
        assertThat(decision).isInstanceOfSatisfying(FollowUp.class, followUp -> {
            assertThat(followUp.summary().json()).hasSizeLessThanOrEqualTo(400).contains("short", "truncated")
                    .doesNotContain(big);
            assertThat(Stream.of("e1", "e2").collect(Collectors.toList()))
                    .allSatisfy(id -> assertThat(followUp.summary().json()).contains("\"" + id + "\""));
        });
    }

    @Test
    @DisplayName("when only dropping items fits, the summary keeps the longest prefix that fits and counts the rest")
    void omittedKeepsTheLongestPrefix() {
        int limit = 300;
        int count = 40;
        List<EventResult> results = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            results.add(result("e" + i, SILENT, new EventOutcome.Failed("down", "no", false, 1)));
        }
        ContinuationDecision decision = new PolicyAggregator(limit).decide(results, DEFINITIONS, Locale.ENGLISH);
        String json = ((FollowUp) decision).summary().json();
        List<Map<String, Object>> shown = JsonMapper.builder().build().readValue(json,
                new tools.jackson.core.type.TypeReference<List<Map<String, Object>>>() { });
        int kept = shown.size() - 1;
        assertThat(json).hasSizeLessThanOrEqualTo(limit);
        assertThat(shown.get(kept)).containsEntry("omitted", count - kept);
        for (int i = 0; i < kept; i++) {
            assertThat(shown.get(i)).as("item %d, in input order", i).containsEntry("id", "e" + (i + 1));
        }
        // one item more would not have fitted
        List<Object> oneMore = new ArrayList<>(shown.subList(0, kept));
        Map<String, Object> next = new java.util.LinkedHashMap<>(shown.get(0));
        next.put("id", "e" + (kept + 1));
        oneMore.add(next);
        oneMore.add(Map.of("omitted", count - kept - 1, "reason", "over the summary limit"));
        assertThat(io.agentlab.kernel.api.CanonicalJson.write(oneMore).length()).isGreaterThan(limit);
    }
}
