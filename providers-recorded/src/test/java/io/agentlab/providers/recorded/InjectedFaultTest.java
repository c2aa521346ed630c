package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.ToolCall;
import io.agentlab.runtime.llm.ToolSpec;
import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each injected fault through real HTTP and the real client: the error code the runtime would end the turn with. */
class InjectedFaultTest {

    private static final AtomicInteger SCOPES = new AtomicInteger();
    private static TimedReplay replay;

    @BeforeAll
    static void start() {
        replay = TimedReplay.start(List.of(), 0);
    }

    @AfterAll
    static void stop() {
        replay.close();
    }

    private static Script script(InvocationMode mode, List<ScriptedEvent> events) {
        return new Script("fault", mode, CallRole.CHAT, "hello there", "Hello! How can I help you today?", events,
                ProviderFamily.OPENAI, "model-x");
    }

    private static Recording synthesized(Script script) {
        return new StreamSynthesizer(new LatencyModel(1, 0, 1), LocalDate.of(2026, 1, 1)).synthesize(script, 7, 50);
    }

    /** Serves {@code recording} in its own scope and makes one call with a generous idle timeout. */
    private static ChatCompletion call(Recording recording, InvocationMode mode) {
        return call(recording, mode, Duration.ofSeconds(30));
    }

    /**
     * Only a stall needs a short idle timeout to end; every other fault ends by itself, and a short one there would
     * turn a slow machine's pause into a false {@code provider_connection}.
     */
    private static ChatCompletion call(Recording recording, InvocationMode mode, Duration idle) {
        String scope = "f" + SCOPES.incrementAndGet();
        OpenAiCompatibleClient client = new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(
                replay.scope(scope, List.of(recording)), null, Duration.ofSeconds(5), idle));
        List<ToolSpec> tools = mode == InvocationMode.CHAT_AGENT_TOOLS
                ? List.of(new ToolSpec("lamp_power_toggle", "Switch the lamp.", "{\"type\":\"object\"}")) : List.of();
        try {
            return client.stream(new ChatRequest("model-x", List.of(ChatMessage.user("hello there")), tools, null, null,
                    true, CallRole.CHAT), delta -> { });
        } finally {
            replay.closeScope(scope);
        }
    }

    private static String code(InjectedFault fault) {
        return code(fault, Duration.ofSeconds(30));
    }

    private static String code(InjectedFault fault, Duration idle) {
        Recording faulted = fault.response(synthesized(script(InvocationMode.DUAL_AGENT, List.of())));
        try {
            call(faulted, InvocationMode.DUAL_AGENT, idle);
            return "none";
        } catch (ProviderException e) {
            return e.code();
        }
    }

    @Test
    @DisplayName("an HTTP status with headers is that status's code, Retry-After included")
    void httpStatus() {
        Recording faulted = new InjectedFault.HttpStatus(429, Map.of("Retry-After", "7"))
                .response(synthesized(script(InvocationMode.DUAL_AGENT, List.of())));
        assertThatThrownBy(() -> call(faulted, InvocationMode.DUAL_AGENT)).isInstanceOfSatisfying(ProviderException.class,
                e -> {
                    assertThat(e.code()).isEqualTo("provider_http_429");
                    assertThat(e.retryAfter()).contains(Duration.ofSeconds(7));
                    assertThat(e.getMessage()).contains("injected by the conformance kit");
                });
        assertThat(code(new InjectedFault.HttpStatus(500, Map.of()))).isEqualTo("provider_http_500");
        assertThatThrownBy(() -> new InjectedFault.HttpStatus(200, Map.of()))
                .hasMessageContaining("from 400 to 599");
    }

    @Test
    @DisplayName("a reset before any response and one after some events are both a broken connection")
    void reset() {
        assertThat(code(new InjectedFault.AfterEvents(0, InjectedFault.Ending.RESET))).isEqualTo("provider_connection");
        assertThat(code(new InjectedFault.AfterEvents(2, InjectedFault.Ending.RESET))).isEqualTo("provider_connection");
    }

    @Test
    @DisplayName("a stall after an event never ends by itself: the client's idle timeout ends the call")
    void stall() {
        assertThat(code(new InjectedFault.AfterEvents(1, InjectedFault.Ending.STALL), Duration.ofMillis(300)))
                .isEqualTo("provider_connection");
        assertThat(code(new InjectedFault.AfterEvents(0, InjectedFault.Ending.STALL), Duration.ofMillis(300)))
                .isEqualTo("provider_connection");
    }

    @Test
    @DisplayName("a malformed chunk after some events is provider_malformed_chunk")
    void malformed() {
        assertThat(code(new InjectedFault.AfterEvents(2, InjectedFault.Ending.MALFORMED_CHUNK))).isEqualTo("provider_malformed_chunk");
    }

    @Test
    @DisplayName("a fault after more events than the stream has leaves the whole stream, then the fault")
    void countBeyondTheStream() {
        assertThat(code(new InjectedFault.AfterEvents(10_000, InjectedFault.Ending.STALL))).isEqualTo("none");
    }

    @Test
    @DisplayName("invalid tool arguments change the tools-mode script: the text arrives as sent; dual_agent unchanged")
    void invalidToolArguments() {
        InjectedFault fault = new InjectedFault.InvalidToolArguments(1, "{\"state\": off");
        Script tools = fault.script(script(InvocationMode.CHAT_AGENT_TOOLS,
                List.of(new ScriptedEvent("lamp.power.toggle", "{\"state\":\"off\"}"))));
        ChatCompletion completion = call(synthesized(tools), InvocationMode.CHAT_AGENT_TOOLS);
        assertThat(completion.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("lamp_power_toggle");
            assertThat(call.arguments()).isEqualTo("{\"state\": off");
        });
        assertThatThrownBy(() -> new InjectedFault.InvalidToolArguments(2, "x").script(tools))
                .hasMessageContaining("there is no event 2");
        assertThatThrownBy(() -> new InjectedFault.AfterEvents(-1, InjectedFault.Ending.RESET)).hasMessageContaining("0 or more");
    }

    @Test
    @DisplayName("tool calls without an index: no delta carries one, the protocol check refuses the stream, the calls "
            + "still come out one per id with their arguments whole")
    void toolCallsWithoutIndex() {
        List<ScriptedEvent> events = List.of(new ScriptedEvent("lamp.power.toggle", "{\"state\":\"off\"}"),
                new ScriptedEvent("note.text.create", "{\"text\":\"milk\"}"));
        for (ProviderFamily family : ProviderFamily.builtIns()) {
            Recording clean = new StreamSynthesizer(LatencyModel.typical(), LocalDate.of(2026, 11, 30)).synthesize(
                    new Script("s", InvocationMode.CHAT_AGENT_TOOLS, CallRole.CHAT, "hello there", "Ok.", events, family,
                            "model-x"),
                    List.of(), 10, null);
            Recording faulted = new InjectedFault.ToolCallsWithoutIndex().response(clean);
            List<String> payloads = faulted.response().events().stream().map(Recording.TimedEvent::data).toList();
            assertThat(payloads.stream().map(ChunkProtocol::chunk).filter(java.util.Objects::nonNull)
                    .flatMap(chunk -> chunk.path("choices").valueStream())
                    .flatMap(choice -> choice.path("delta").path("tool_calls").valueStream()))
                    .as(family.toString()).isNotEmpty().noneMatch(call -> call.has("index"));
            assertThat(ChunkProtocol.violations(payloads)).as(family.toString()).isNotEmpty()
                    .allSatisfy(violation -> assertThat(violation).contains(".index' is missing"));
            assertThat(call(faulted, InvocationMode.CHAT_AGENT_TOOLS).toolCalls()).as(family.toString())
                    .extracting(ToolCall::name, ToolCall::arguments)
                    .containsExactly(tuple("lamp_power_toggle", "{\"state\":\"off\"}"),
                            tuple("note_text_create", "{\"text\":\"milk\"}"));
        }
    }
}
