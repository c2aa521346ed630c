package io.agentlab.kernel.reference;

import static io.agentlab.kernel.reference.Definitions.silent;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome.Deduplicated;
import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.api.TurnContext;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * docs/kernel.md#two-requests-stay-two: same-name events are coalesced only when their normalized arguments are
 * equal and they come from the same request; when the kernel cannot tell, the later one asks — it is never dropped
 * silently and never executed twice — and the confirmation counts what was really added.
 */
class SameNameRequestsTest {

    private static final String UTTERANCE = "note milk at 7 and note bread at 8";
    private final List<Map<String, Object>> executed = new CopyOnWriteArrayList<>();
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private ReferenceKernel kernel;

    @AfterEach
    void close() {
        kernel.close();
    }

    /** A note event with a confirmation, whose resolver the test supplies. */
    private EventDefinition note(io.agentlab.kernel.api.ArgumentResolver resolver) {
        return silent("t.note", invocation -> {
            executed.add(invocation.arguments());
            return HandlerResult.success(Map.of());
        }).resolver(resolver)
                .resultPolicy(ResultPolicy.TEMPLATE_FOLLOW_UP)
                .confirmationTemplate((arguments, payload, locale) -> "Noted " + arguments.get("text") + ".")
                .build();
    }

    private BatchResult run(InvocationMode mode, List<Map<String, Object>> proposals) {
        TurnContext turn = TurnContext.of(new EventScope("s1", "t" + System.nanoTime()),
                Instant.parse("2026-11-30T08:00:00Z"), ZoneId.of("UTC"), Locale.ENGLISH, UTTERANCE);
        EventBatch.Builder batch = EventBatch.builder(turn, mode);
        proposals.forEach(arguments -> batch.event("t.note", arguments));
        return kernel.execute(batch.build());
    }

    private static List<Map<String, Object>> names(int count) {
        List<Map<String, Object>> proposals = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            proposals.add(Map.of());
        }
        return proposals;
    }

    @Test
    @DisplayName("each same-name request learns its place in the batch, reads its own clause, and both execute")
    void occurrenceGivesEachRequestItsOwnClause() {
        kernel = ReferenceKernel.builder().register(note(input -> {
            seen.add(input.occurrence() + "/" + input.occurrences());
            String clause = UTTERANCE.split(" and ")[input.occurrence()];
            return Resolution.of(Map.of("text", clause.split(" ")[1])).withSource(clause);
        })).build();

        BatchResult result = run(InvocationMode.DUAL_AGENT, names(2));

        assertThat(seen).containsExactly("0/2", "1/2");
        assertThat(executed).containsExactlyInAnyOrder(Map.of("text", "milk"), Map.of("text", "bread"));
        assertThat(result.decision().confirmations()).extracting(c -> c.text())
                .containsExactly("Noted milk.", "Noted bread.");
    }

    @Test
    @DisplayName("equal arguments from the same source are one request: coalesced, executed once")
    void sameSourceIsCoalesced() {
        kernel = ReferenceKernel.builder().register(note(input ->
                Resolution.of(Map.of("text", "milk")).withSource("note milk at 7"))).build();

        BatchResult result = run(InvocationMode.DUAL_AGENT, names(2));

        assertThat(executed).hasSize(1);
        assertThat(result.results().get(1).outcome()).isInstanceOf(Deduplicated.class);
    }

    @Test
    @DisplayName("equal arguments from two different sources: the later asks, nothing is dropped, one confirmation")
    void differentSourcesAsk() {
        kernel = ReferenceKernel.builder().register(note(input ->
                Resolution.of(Map.of("text", "milk")).withSource("clause " + input.occurrence()))).build();

        BatchResult result = run(InvocationMode.DUAL_AGENT, names(2));

        assertThat(executed).hasSize(1);
        assertThat(result.results().get(0).outcome()).isInstanceOf(Succeeded.class);
        assertThat(result.results().get(1).outcome()).isInstanceOfSatisfying(NeedsClarification.class,
                question -> assertThat(question.question()).isEqualTo(BatchRun.TWO_REQUESTS_QUESTION));
        assertThat(result.decision().confirmations()).hasSize(1);
        assertThat(result.decision()).isInstanceOfSatisfying(ContinuationDecision.FollowUp.class,
                follow -> assertThat(follow.reasons()).contains(FollowUpReason.CLARIFICATION));
    }

    @Test
    @DisplayName("a resolver that names no source: equal arguments in dual_agent cannot be told apart, so the later asks")
    void unknownSourceAsks() {
        kernel = ReferenceKernel.builder().register(note(input -> Resolution.of(Map.of("text", "milk")))).build();

        BatchResult result = run(InvocationMode.DUAL_AGENT, names(2));

        assertThat(executed).hasSize(1);
        assertThat(result.results().get(1).outcome()).isInstanceOf(NeedsClarification.class);
    }

    @Test
    @DisplayName("chat_agent_tools: the same proposed arguments twice are the same request, coalesced")
    void sameProposalIsCoalesced() {
        kernel = ReferenceKernel.builder().register(note(input -> Resolution.empty())).build();

        BatchResult result = run(InvocationMode.CHAT_AGENT_TOOLS, List.of(Map.of("text", "milk"), Map.of("text", "milk")));

        assertThat(executed).hasSize(1);
        assertThat(result.results().get(1).outcome()).isInstanceOf(Deduplicated.class);
    }

    @Test
    @DisplayName("events without arguments have nothing to tell them apart by: coalesced")
    void noArgumentsAreCoalesced() {
        kernel = ReferenceKernel.builder().register(note(input -> Resolution.empty())).build();

        BatchResult result = run(InvocationMode.DUAL_AGENT, names(2));

        assertThat(executed).hasSize(1);
        assertThat(result.results().get(1).outcome()).isInstanceOf(Deduplicated.class);
    }
}
