package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.runtime.TurnRuntimeHttpTest.Ev;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import io.agentlab.runtime.protocol.RuntimeConfig;

/**
 * Whole turns against a provider that closes its connection after each stream, as llama.cpp's server does: the
 * response keeps the connection alive as far as HTTP says, but a further request on it is never answered. The
 * follow-up and the EventAgent call of a turn, and the next turn's first call, all go out on that pooled connection;
 * each must succeed (it is sent once more, on a fresh connection) and none may be billed twice.
 */
@Timeout(60)
class ClosingProviderTurnTest {

    private static final String FOLLOW_UP_MARK = "The actions have finished";
    private static final String FALLBACK_MARK = "Extract arguments";

    private final TestEvents events = new TestEvents();
    private final AtomicInteger dropped = new AtomicInteger();
    private RawHttpServer server;
    private TurnRuntime runtime;

    @AfterEach
    void stop() throws IOException {
        if (runtime != null) {
            runtime.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** A stand-in answering each connection's first request from its body, and closing on any further one. */
    private TurnRuntime runtime(InvocationMode mode, Function<String, String> answer) throws IOException {
        server = new RawHttpServer((connection, index, socket) -> {
            if (index > 1) {
                dropped.incrementAndGet();
                socket.close(); // the connection was finished with after the previous stream
                return false;
            }
            RawHttpServer.sse(socket, answer.apply(server.body(connection, index)));
            return true; // as far as HTTP says, the connection stays open
        });
        runtime = TurnRuntime.builder().definitions(events.all().toArray(EventDefinition[]::new))
                .providers(new ProviderRegistry().register("local", new OpenAiCompatibleClient(
                        new OpenAiCompatibleClient.Config(server.baseUrl(), null, Duration.ofSeconds(5),
                                Duration.ofSeconds(30)))))
                .config(RuntimeConfig.of(mode, "local", "local-model", "You are Pip.")).build();
        return runtime;
    }

    private static String text(String text) {
        return Chunks.stream("local-model").content(text).finish("stop").openAiUsage(40, 3, 0).done().sseBody();
    }

    private static Conversation conversation() {
        return new Conversation("s1", ZoneId.of("UTC"), Locale.ENGLISH);
    }

    private void assertEveryCallAnsweredOnce(List<TurnResult> results) {
        List<CallRecord> calls = results.stream().flatMap(r -> r.calls().stream()).toList();
        assertThat(calls).allSatisfy(call -> assertThat(call.error()).as(call.role() + " call").isEmpty());
        assertThat(dropped.get()).as("calls sent on a connection the provider had finished with").isPositive();
        assertThat(server.requests).as("each dropped request sent once more, nothing else")
                .hasSize(calls.size() + dropped.get());
    }

    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("the corrective follow-up after a failed event reaches the provider on the next connection")
    void followUpSurvives(InvocationMode mode) throws IOException {
        runtime(mode, body -> body.contains(FOLLOW_UP_MARK) ? text("Sorry, the lamp is not answering.")
                : TurnRuntimeHttpTest.firstAnswer(mode, "Turning it on!",
                List.of(new Ev("lamp.power.toggle", "{\"state\":\"on\"}"))).openAiUsage(60, 8, 0).done().sseBody());
        events.lampBroken.set(true);
        TurnResult result = runtime.runTurn(conversation(), "lamp on please", VisibleSink.discard());

        assertThat(result.error()).isEmpty();
        assertThat(result.followUp()).contains("Sorry, the lamp is not answering.");
        assertEveryCallAnsweredOnce(List.of(result));
    }

    @Test
    @DisplayName("the EventAgent fallback call reaches the provider on the next connection")
    void eventAgentSurvives() throws IOException {
        runtime(InvocationMode.DUAL_AGENT, body -> body.contains(FALLBACK_MARK)
                ? Chunks.stream("local-model").content("{\"color\":\"blue\"}").finish("stop").openAiUsage(50, 5, 0)
                .done().sseBody()
                : TurnRuntimeHttpTest.firstAnswer(InvocationMode.DUAL_AGENT, "Nice choice!",
                List.of(new Ev("lamp.color.set", "{}"))).openAiUsage(60, 8, 0).done().sseBody());
        TurnResult result = runtime.runTurn(conversation(), "make the lamp the color of the sky",
                VisibleSink.discard());

        assertThat(result.error()).isEmpty();
        assertThat(result.batch().orElseThrow().results().get(0).resolution().outcome())
                .isEqualTo(ResolutionOutcome.FALLBACK);
        assertThat(events.sideEffects).containsExactly("color blue");
        assertEveryCallAnsweredOnce(List.of(result));
    }

    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("turn after turn on one conversation: no call fails because the pooled connection was closed")
    void consecutiveTurns(InvocationMode mode) throws IOException {
        runtime(mode, body -> text("Hello again!"));
        Conversation conversation = conversation();
        List<TurnResult> results = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            results.add(runtime.runTurn(conversation, "hello " + i, VisibleSink.discard()));
        }
        assertThat(results).allSatisfy(result -> assertThat(result.error()).isEmpty());
        assertThat(conversation.historyView()).hasSize(10);
        assertEveryCallAnsweredOnce(results);
    }
}
