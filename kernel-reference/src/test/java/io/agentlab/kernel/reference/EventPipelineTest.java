package io.agentlab.kernel.reference;

import static io.agentlab.kernel.reference.Definitions.silent;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.ArgumentViolation;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ConversationMessage;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventOutcome.RejectionReason;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.FallbackRequest;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.kernel.api.ResolutionReport;
import io.agentlab.kernel.api.TurnContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The per-event pipeline: lookup → merge → normalize → validate → fallback → re-validate ({@code
 * docs/design.md#kernel-pipeline}).
 */
class EventPipelineTest {

    /** A volume-like test event: {@code level} 0..100 required, {@code unit} optional. */
    private static final String LEVEL_SCHEMA = """
            {"type":"object",
             "properties":{"level":{"type":"integer","minimum":0,"maximum":100},"unit":{"enum":["percent"]}},
             "required":["level"],"additionalProperties":false}""";

    private final AtomicInteger handled = new AtomicInteger();
    private final List<Map<String, Object>> received = new ArrayList<>();
    private ReferenceKernel kernel;

    @AfterEach
    void close() {
        if (kernel != null) {
            kernel.close();
        }
    }

    private EventDefinition.Builder level() {
        return silent("t.level.set", invocation -> {
            handled.incrementAndGet();
            synchronized (received) {
                received.add(invocation.arguments());
            }
            return HandlerResult.success(Map.of());
        }).argumentsSchema(LEVEL_SCHEMA);
    }

    /** Reads "level N" from the utterance; normalizes "30%" to 30. */
    private static Resolution levelFromText(TurnContext turn) {
        String[] words = turn.userText().split("\\s+");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals("level")) {
                return Resolution.of(Map.of("level", words[i + 1]));
            }
        }
        return Resolution.ambiguous(Map.of(), "Which level would you like?");
    }

    private static Map<String, Object> percentToInteger(Map<String, Object> arguments) {
        Map<String, Object> copy = new HashMap<>(arguments);
        if (copy.get("level") instanceof String text && text.matches("\\d+%?")) {
            copy.put("level", Integer.parseInt(text.replace("%", "")));
        }
        return copy;
    }

    private BatchResult run(String userText, Map<String, Object> proposed, List<ConversationMessage> history) {
        TurnContext turn = new TurnContext(new EventScope("s1", "t-" + System.nanoTime()), Turns.REQUESTED_AT,
                java.time.ZoneId.of("UTC"), Locale.ENGLISH, userText, history);
        return kernel.execute(EventBatch.builder(turn, InvocationMode.CHAT_AGENT_TOOLS)
                .event("t.level.set", proposed).build());
    }

    private EventResult only(BatchResult result) {
        assertThat(result.results()).hasSize(1);
        return result.results().get(0);
    }

    @Test
    @DisplayName("an unknown name is rejected before anything runs, and the message lists the known names")
    void unknownEvent() {
        kernel = ReferenceKernel.builder().register(level().build()).build();
        EventResult result = only(kernel.execute(Turns.batch("t1").event("t.level.sett").build()));

        assertThat(result.outcome()).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.UNKNOWN_EVENT);
            assertThat(rejected.message()).contains("'t.level.sett'", "t.level.set");
        });
        assertThat(result.resolution()).isEqualTo(ResolutionReport.notAttempted());
        assertThat(handled).hasValue(0);
    }

    @Test
    @DisplayName("proposed arguments win over the resolver; the resolver fills what the model left out")
    void mergeRule() {
        kernel = ReferenceKernel.builder().register(level()
                .resolver(input -> Resolution.of(Map.of("level", 10, "unit", "percent"))).build()).build();
        EventResult result = only(run("", Map.of("level", 40), List.of()));

        assertThat(result.arguments()).isEqualTo(Map.of("level", 40, "unit", "percent"));
        assertThat(result.resolution().outcome()).isEqualTo(ResolutionOutcome.DETERMINISTIC);
        assertThat(received).containsExactly(Map.of("level", 40, "unit", "percent"));
    }

    @Test
    @DisplayName("normalization turns '30%' into 30: invalid before normalization, valid after")
    void normalization() {
        kernel = ReferenceKernel.builder().register(level()
                .resolver(input -> levelFromText(input.turn()))
                .normalizer(EventPipelineTest::percentToInteger).build()).build();
        EventResult result = only(run("set level 30%", Map.of(), List.of()));

        assertThat(result.outcome()).isInstanceOf(Succeeded.class);
        assertThat(result.arguments()).isEqualTo(Map.of("level", 30));
        assertThat(result.resolution()).isEqualTo(
                new ResolutionReport(ResolutionOutcome.DETERMINISTIC, false, false, true));
    }

    /** The clause this checks: {@code docs/design.md#kernel-validation}. */
    @Test
    @DisplayName("an invalid value is rejected naming the field, with no side effect and no fallback")
    void invalidArguments() {
        ScriptedEventAgent agent = new ScriptedEventAgent().answer("t.level.set", Map.of("level", 50));
        kernel = ReferenceKernel.builder().fallback(agent).register(level().fallbackAllowed(true).build()).build();
        EventResult result = only(run("", Map.of("level", 130), List.of()));

        assertThat(result.outcome()).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.INVALID_ARGUMENTS);
            assertThat(rejected.violations()).extracting(ArgumentViolation::location).containsExactly("/level");
            // the schema's own bound, not networknt's shifted arguments ("130: must have a maximum value of {1}")
            assertThat(rejected.violations()).extracting(ArgumentViolation::message)
                    .containsExactly("must have a maximum value of 100");
            assertThat(rejected.message()).contains("t.level.set", "/level");
        });
        assertThat(handled).hasValue(0);
        assertThat(agent.requests()).isEmpty();
    }

    /** The clause this checks: {@code docs/design.md#kernel-validation}. */
    @Test
    @DisplayName("the plugin validator's violations reject the event like schema violations")
    void pluginValidator() {
        kernel = ReferenceKernel.builder().register(level().validator(arguments ->
                Integer.valueOf(13).equals(arguments.get("level"))
                        ? List.of(ArgumentViolation.of("level", "13 is unlucky")) : List.of()).build()).build();
        EventResult result = only(run("", Map.of("level", 13), List.of()));

        assertThat(result.outcome()).isInstanceOfSatisfying(Rejected.class, rejected ->
                assertThat(rejected.violations()).containsExactly(new ArgumentViolation("/level", "13 is unlucky")));
    }

    @Test
    @DisplayName("a missing field without fallback asks the resolver's focused question, and nothing runs")
    void clarificationWithoutFallback() {
        kernel = ReferenceKernel.builder().register(level().resolver(input -> levelFromText(input.turn())).build())
                .build();
        EventResult result = only(run("make it nicer", Map.of(), List.of()));

        assertThat(result.outcome()).isEqualTo(new NeedsClarification("Which level would you like?",
                java.util.Set.of("level")));
        assertThat(result.resolution()).isEqualTo(
                new ResolutionReport(ResolutionOutcome.INCOMPLETE, false, false, false));
        assertThat(handled).hasValue(0);
    }

    @Test
    @DisplayName("without a resolver question the clarification names the missing field")
    void defaultQuestion() {
        kernel = ReferenceKernel.builder().register(level().build()).build();
        assertThat(only(run("", Map.of(), List.of())).outcome()).isInstanceOfSatisfying(NeedsClarification.class,
                clarification -> assertThat(clarification.question()).contains("level"));
    }

    @Test
    @DisplayName("fields in requiredFields but not in the schema's required also count as missing")
    void requiredFieldsBeyondSchema() {
        kernel = ReferenceKernel.builder().register(level().requiredFields("unit").build()).build();
        assertThat(only(run("", Map.of("level", 3), List.of())).outcome())
                .isInstanceOfSatisfying(NeedsClarification.class,
                        clarification -> assertThat(clarification.missingFields()).containsExactly("unit"));
    }

    @Test
    @DisplayName("a conditional 'required' (if/then) is a missing field, not an invalid value")
    void conditionalRequired() {
        kernel = ReferenceKernel.builder().register(silent("t.volume.set", Definitions.ok()).argumentsSchema("""
                {"type":"object","properties":{"mode":{"enum":["absolute","mute"]},"value":{"type":"integer"}},
                 "required":["mode"],
                 "if":{"properties":{"mode":{"const":"absolute"}}},"then":{"required":["value"]}}""").build())
                .build();
        EventResult result = only(kernel.execute(Turns.batch("t1")
                .event("t.volume.set", Map.of("mode", "absolute")).build()));
        assertThat(result.outcome()).isInstanceOfSatisfying(NeedsClarification.class,
                clarification -> assertThat(clarification.missingFields()).containsExactly("value"));
    }

    /**
     * The clauses this checks: {@code docs/design.md#kernel-fallback-bounded},
     * {@code docs/design.md#context-event-agent}.
     */
    @Test
    @DisplayName("the fallback gets one call with only its schema and the recent history, and fills the gap")
    void fallbackFillsMissingFields() {
        ScriptedEventAgent agent = new ScriptedEventAgent().answer("t.level.set", Map.of("level", 25));
        kernel = ReferenceKernel.builder().fallback(agent).fallbackHistoryMessages(2)
                .register(level().fallbackAllowed(true).resolver(input -> Resolution.of(Map.of("unit", "percent")))
                        .build())
                .register(silent("t.other", Definitions.ok()).build())
                .build();
        List<ConversationMessage> history = List.of(ConversationMessage.user("hi"),
                ConversationMessage.assistant("hello"), ConversationMessage.user("it is loud"),
                ConversationMessage.assistant("I can help"));
        EventResult result = only(run("a quarter please", Map.of(), history));

        assertThat(result.outcome()).isInstanceOf(Succeeded.class);
        assertThat(result.arguments()).isEqualTo(Map.of("level", 25, "unit", "percent"));
        assertThat(result.resolution()).isEqualTo(new ResolutionReport(ResolutionOutcome.FALLBACK, true, false, true));
        assertThat(agent.requests()).singleElement().satisfies(request -> {
            assertThat(request.argumentsSchema()).isEqualTo(LEVEL_SCHEMA);
            assertThat(request.missingFields()).containsExactly("level");
            assertThat(request.partialArguments()).isEqualTo(Map.of("unit", "percent"));
            assertThat(request.userText()).isEqualTo("a quarter please");
            assertThat(request.history()).containsExactly(ConversationMessage.user("it is loud"),
                    ConversationMessage.assistant("I can help"));
        });
    }

    /** The clause this checks: {@code docs/design.md#kernel-fallback-bounded}. */
    @Test
    @DisplayName("the fallback fills gaps only: it never overrides a deterministically resolved value")
    void fallbackNeverOverrides() {
        ScriptedEventAgent agent = new ScriptedEventAgent()
                .answer("t.level.set", Map.of("level", 99, "unit", "decibel"));
        kernel = ReferenceKernel.builder().fallback(agent).register(level().fallbackAllowed(true)
                .resolver(input -> Resolution.of(Map.of("unit", "percent"))).build()).build();
        assertThat(only(run("", Map.of(), List.of())).arguments()).isEqualTo(Map.of("level", 99, "unit", "percent"));
    }

    /** The clause this checks: {@code docs/design.md#kernel-deterministic-first}. */
    @Test
    @DisplayName("no fallback call when the definition does not allow it, or when resolution is complete")
    void fallbackOnlyWhenIncompleteAndAllowed() {
        ScriptedEventAgent agent = new ScriptedEventAgent().answer("t.level.set", Map.of("level", 1));
        kernel = ReferenceKernel.builder().fallback(agent).register(level().build()).build();
        run("", Map.of(), List.of());
        kernel.close();
        kernel = ReferenceKernel.builder().fallback(agent).register(level().fallbackAllowed(true).build()).build();
        run("", Map.of("level", 5), List.of());
        assertThat(agent.requests()).isEmpty();
    }

    @Test
    @DisplayName("a failing fallback leaves the event needing clarification, never a guessed side effect")
    void fallbackFailure() {
        ScriptedEventAgent agent = new ScriptedEventAgent()
                .fail("t.level.set", new IllegalStateException("provider 503"));
        kernel = ReferenceKernel.builder().fallback(agent).register(level().fallbackAllowed(true).build()).build();
        EventResult result = only(run("", Map.of(), List.of()));

        assertThat(result.outcome()).isInstanceOf(NeedsClarification.class);
        assertThat(result.resolution()).isEqualTo(new ResolutionReport(ResolutionOutcome.INCOMPLETE, true, false, false));
        assertThat(handled).hasValue(0);
    }

    @Test
    @DisplayName("a hanging fallback is cut off by the fallback timeout (virtual time) and the event asks instead")
    void fallbackTimeout() throws Exception {
        ManualKernelScheduler clock = new ManualKernelScheduler();
        CountDownLatch called = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        kernel = ReferenceKernel.builder().scheduler(clock).fallbackTimeout(Duration.ofSeconds(3))
                .fallback((FallbackRequest request) -> {
                    called.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return Map.of();
                })
                .register(level().fallbackAllowed(true).build()).build();
        var execution = kernel.submit(Turns.batch("t1").event("t.level.set").build());
        assertThat(called.await(10, TimeUnit.SECONDS)).isTrue();
        clock.advance(Duration.ofSeconds(3));
        BatchResult result = execution.result().get(10, TimeUnit.SECONDS);

        assertThat(result.results().get(0).outcome()).isInstanceOf(NeedsClarification.class);
        assertThat(result.results().get(0).resolution().fallbackUsed()).isTrue();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }

    /** The clause this checks: {@code docs/design.md#kernel-resolver-total}. */
    @Test
    @DisplayName("a throwing resolver is reported as a resolution error naming the plugin stage, not propagated")
    void throwingResolver() {
        kernel = ReferenceKernel.builder().register(level().resolver(input -> {
            throw new IllegalArgumentException("bad regex");
        }).build()).build();
        assertThat(only(run("", Map.of(), List.of())).outcome()).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.RESOLUTION_ERROR);
            assertThat(rejected.message()).contains("t.level.set", "resolver", "bad regex");
        });
    }

    /** The clause this checks: {@code docs/design.md#safety-idempotency-key}. */
    @Test
    @DisplayName("the handler receives a stable idempotency key derived from scope, id and canonical arguments")
    void idempotencyKey() {
        List<String> keys = new ArrayList<>();
        kernel = ReferenceKernel.builder().register(silent("t.key", invocation -> {
            synchronized (keys) {
                keys.add(invocation.idempotencyKey());
            }
            return HandlerResult.success(Map.of());
        }).build()).build();
        kernel.execute(Turns.batch("t1").event("t.key", Map.of("a", 1, "b", 2)).build());
        kernel.execute(Turns.batch("t2").event("t.key", Map.of("b", 2, "a", 1)).build());
        kernel.execute(Turns.batch("t3").event("t.key", Map.of("a", 1, "b", 2.0)).build());

        assertThat(keys).hasSize(3).doesNotHaveDuplicates();
        String expected = io.agentlab.kernel.api.IdempotencyKeyDerivation.standard()
                .derive(new EventScope("s1", "t1"), "e1", "t.key", "{\"a\":1,\"b\":2}");
        assertThat(keys.get(0)).isEqualTo(expected);
    }
}
