package io.agentlab.runtime;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.protocol.HiddenEventBlockParser;
import io.agentlab.runtime.usage.CostSource;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import io.agentlab.runtime.protocol.RuntimeConfig;

/**
 * The turn runtime over real HTTP: OkHttp streaming from WireMock serving hand-written OpenAI-compatible SSE bodies,
 * in both invocation modes.
 */
class TurnRuntimeHttpTest {

    private static final String FOLLOW_UP_MARK = "The actions have finished";
    private static final String FALLBACK_MARK = "Extract arguments";
    private static WireMockServer wireMock;

    private final TestEvents events = new TestEvents();
    private final List<String> visible = new CopyOnWriteArrayList<>();
    private TurnRuntime runtime;

    @BeforeAll
    static void startServer() {
        wireMock = new WireMockServer(options().dynamicPort());
        wireMock.start();
    }

    @AfterAll
    static void stopServer() {
        wireMock.stop();
    }

    @BeforeEach
    void reset() {
        wireMock.resetAll();
    }

    @AfterEach
    void close() {
        if (runtime != null) {
            runtime.close();
        }
    }

    private TurnRuntime runtime(InvocationMode mode) {
        ProviderRegistry providers = new ProviderRegistry().register("wiremock",
                new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(wireMock.baseUrl() + "/v1", null,
                        Duration.ofSeconds(5), Duration.ofSeconds(10))));
        runtime = TurnRuntime.builder().definitions(events.all().toArray(io.agentlab.kernel.api.EventDefinition[]::new))
                .providers(providers)
                .config(RuntimeConfig.of(mode, "wiremock", "test-model", "You are Pip, a friendly toy."))
                .pricing(io.agentlab.runtime.usage.PricingCatalog.parse("{\"models\": {\"test-model\": {\"tiers\": "
                        + "[{\"max_prompt_tokens\": null, \"input_cost_per_token\": 0.000001, "
                        + "\"output_cost_per_token\": 0.000002, \"cache_hit_cost_per_token\": 0.0000001}]}}}", "test"))
                .build();
        return runtime;
    }

    private static Conversation conversation() {
        return new Conversation("s1", ZoneId.of("UTC"), Locale.ENGLISH);
    }

    /** A proposal: event name and the arguments a tools-mode model would send. */
    record Ev(String name, String argumentsJson) {
    }

    /** The first answer as each mode's model would stream it. */
    static Chunks firstAnswer(InvocationMode mode, String text, List<Ev> proposed) {
        Chunks chunks = Chunks.stream("test-model");
        int third = Math.max(1, text.length() / 3);
        chunks.content(text.substring(0, third), text.substring(third, 2 * third), text.substring(2 * third));
        if (mode == InvocationMode.DUAL_AGENT) {
            if (!proposed.isEmpty()) {
                List<String> names = proposed.stream().map(Ev::name).toList();
                chunks.content("\n[[EV", "ENTS]] " + String.join(", ", names));
            }
            return chunks.finish("stop");
        }
        for (int i = 0; i < proposed.size(); i++) {
            Ev ev = proposed.get(i);
            String args = ev.argumentsJson();
            int half = args.length() / 2;
            chunks.toolCall(i, "call_" + i, ev.name().replace('.', '_'), args.substring(0, half));
            chunks.toolCall(i, null, null, args.substring(half));
        }
        return chunks.finish(proposed.isEmpty() ? "stop" : "tool_calls");
    }

    private static void stubFirst(String body) {
        wireMock.stubFor(post(urlEqualTo("/v1/chat/completions")).atPriority(5)
                .withRequestBody(notContaining(FOLLOW_UP_MARK)).withRequestBody(notContaining(FALLBACK_MARK))
                .willReturn(aResponse().withHeader("Content-Type", "text/event-stream").withBody(body)));
    }

    private static void stubFollowUp(String body) {
        wireMock.stubFor(post(urlEqualTo("/v1/chat/completions")).atPriority(1)
                .withRequestBody(containing(FOLLOW_UP_MARK))
                .willReturn(aResponse().withHeader("Content-Type", "text/event-stream").withBody(body)));
    }

    private TurnResult turn(Conversation conversation, String text) {
        return runtime.runTurn(conversation, text, (id, delta) -> visible.add(delta));
    }

    private static void assertAuditValid(TurnResult result) {
        List<AguiSseCodec.Frame> frames = AguiSseCodec.decode(AguiSseCodec.encode(result.audit(), 1));
        assertThat(AguiStreamChecker.checkFrames(AguiProfile.AGUI_1_0, frames, result.turnId())).isEmpty();
    }

    private static List<LoggedRequest> requests() {
        return wireMock.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions")));
    }

    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("two events in one answer: visible text streamed first, same batch and results in both modes")
    void multipleEvents(InvocationMode mode) {
        runtime(mode);
        stubFirst(firstAnswer(mode, "Sure, the lamp is on and I noted it.", List.of(
                new Ev("lamp.power.toggle", "{\"state\":\"on\"}"), new Ev("note.text.create", "{\"text\":\"buy milk\"}")))
                .openAiUsage(120, 15, 0).done().sseBody());
        Conversation conversation = conversation();
        TurnResult result = turn(conversation, "turn the lamp on and note buy milk");

        assertThat(String.join("", visible)).startsWith("Sure, the lamp is on and I noted it.")
                .doesNotContain(HiddenEventBlockParser.MARKER).doesNotContain("lamp.power");
        assertThat(result.firstAnswer()).isEqualTo("Sure, the lamp is on and I noted it.");
        assertThat(result.batch().orElseThrow().results()).extracting(EventResult::status)
                .containsExactly("succeeded", "succeeded");
        assertThat(result.batch().orElseThrow().results()).extracting(r -> CanonicalJson.write(r.arguments()))
                .containsExactly("{\"state\":\"on\"}", "{\"text\":\"buy milk\"}");
        assertThat(result.confirmations()).containsExactly("Noted: buy milk.");
        assertThat(result.decision().orElseThrow()).isInstanceOf(ContinuationDecision.Complete.class);
        assertThat(events.sideEffects).containsExactlyInAnyOrder("lamp on", "note buy milk"); // independent: concurrent
        assertThat(requests()).hasSize(1);
        assertAuditValid(result);
        assertThat(result.metrics().firstVisibleTtft()).isPresent();
        assertThat(result.metrics().firstVisibleTtft().get()).isLessThanOrEqualTo(result.metrics().firstAnswerCompletion());
        assertThat(result.metrics().llmCalls()).isEqualTo(Map.of(CallRole.CHAT, 1));
        assertThat(result.metrics().promptTokens(CallRole.CHAT)).isEqualTo(120);
        assertThat(result.metrics().costSource()).isEqualTo(CostSource.CATALOG_FALLBACK);
        assertThat(result.metrics().cost()).isPresent();
        assertThat(result.metrics().eventDispatchDelay()).containsOnlyKeys(
                result.batch().orElseThrow().results().stream().map(EventResult::eventId).toArray(String[]::new));
    }

    /**
     * The clauses this checks: {@code docs/design.md#modes-dual-agent-request},
     * {@code docs/design.md#modes-tools-request}, {@code docs/design.md#context-chat-agent}.
     */
    @Test
    @DisplayName("dual_agent sends the catalog and no tools; chat_agent_tools sends every schema under provider-safe names")
    void requestShapes() {
        runtime(InvocationMode.DUAL_AGENT);
        stubFirst(firstAnswer(InvocationMode.DUAL_AGENT, "Hello!", List.of()).done().sseBody());
        turn(conversation(), "hi");
        String dual = requests().get(0).getBodyAsString();
        assertThat(dual).doesNotContain("\"tools\"").contains("lamp.power.toggle: Switch the lamp on or off.")
                .contains("You are Pip, a friendly toy.").contains("\"include_usage\":true");
        runtime.close();

        wireMock.resetRequests();
        runtime(InvocationMode.CHAT_AGENT_TOOLS);
        turn(conversation(), "hi");
        String tools = requests().get(0).getBodyAsString();
        assertThat(tools).contains("\"tools\"").contains("\"name\":\"lamp_power_toggle\"")
                .contains("You are Pip, a friendly toy.").doesNotContain("[[EVENTS]]");
    }

    /**
     * The clause this checks: {@code docs/design.md#context-chat-agent} (no tool-role message reaches dual_agent's
     * follow-up).
     */
    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("web search: first answer, search, then exactly one grounded second answer")
    void twoAnswers(InvocationMode mode) {
        runtime(mode);
        stubFirst(firstAnswer(mode, "Let me check the weather.", List.of(new Ev("info.web.lookup",
                "{\"query\":\"weather today\"}"))).openAiUsage(100, 10, 0).done().sseBody());
        stubFollowUp(Chunks.stream("test-model").content("Update: ", "it is sunny, 21 degrees.").finish("stop")
                .openAiUsage(140, 12, 60).done().sseBody());
        Conversation conversation = conversation();
        TurnResult result = turn(conversation, "what's the weather today");

        assertThat(result.followUp()).contains("Update: it is sunny, 21 degrees.");
        assertThat(result.decision().orElseThrow()).isInstanceOfSatisfying(ContinuationDecision.FollowUp.class,
                f -> assertThat(f.reasons()).containsExactly(FollowUpReason.SYNTHESIS));
        assertThat(requests()).hasSize(2);
        String followUpBody = requests().stream().map(LoggedRequest::getBodyAsString)
                .filter(b -> b.contains(FOLLOW_UP_MARK)).findFirst().orElseThrow();
        assertThat(followUpBody).contains("sunny, 21 degrees");
        if (mode == InvocationMode.CHAT_AGENT_TOOLS) {
            assertThat(followUpBody).contains("\"role\":\"tool\"").contains("\"tool_call_id\":\"call_0\"");
        } else {
            assertThat(followUpBody).doesNotContain("\"role\":\"tool\"");
        }
        assertThat(result.metrics().llmCalls()).isEqualTo(Map.of(CallRole.CHAT, 1, CallRole.FOLLOW_UP, 1));
        assertThat(result.metrics().secondAnswerTtft()).isPresent();
        assertThat(result.metrics().secondAnswerTtft().get()).isGreaterThan(result.metrics().firstAnswerCompletion());
        // the timeline's anchors, in the order the runtime takes its steps
        TurnMetrics metrics = result.metrics();
        assertThat(result.calls()).extracting(CallRecord::role).containsExactly(CallRole.CHAT, CallRole.FOLLOW_UP);
        assertThat(result.calls().get(0).started()).isLessThanOrEqualTo(metrics.firstVisibleTtft().orElseThrow());
        assertThat(metrics.batchStart()).hasValueSatisfying(batch ->
                assertThat(batch).isGreaterThanOrEqualTo(metrics.firstAnswerCompletion()));
        assertThat(result.calls().get(1).started()).isGreaterThanOrEqualTo(metrics.batchStart().orElseThrow())
                .isLessThanOrEqualTo(metrics.secondAnswerTtft().orElseThrow());
        assertThat(conversation.historyView()).extracting(m -> m.message().content())
                .containsExactly("what's the weather today", "Let me check the weather.", "Update: it is sunny, 21 degrees.");
        assertAuditValid(result);
    }

    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("terminate: runs after its sibling, ends the session, no second ChatAgent call")
    void terminate(InvocationMode mode) {
        runtime(mode);
        stubFirst(firstAnswer(mode, "Bye bye!", List.of(new Ev("app.session.close", "{}"),
                new Ev("note.text.create", "{\"text\":\"call grandma\"}"))).done().sseBody());
        Conversation conversation = conversation();
        TurnResult result = turn(conversation, "note call grandma and goodbye");

        assertThat(result.decision().orElseThrow()).isInstanceOf(ContinuationDecision.EndSession.class);
        assertThat(events.sideEffects).containsExactly("note call grandma", "close");
        assertThat(conversation.ended()).isTrue();
        assertThat(requests()).hasSize(1);
        assertAuditValid(result);
    }

    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("a failed side effect gets one corrective answer")
    void correction(InvocationMode mode) {
        runtime(mode);
        events.lampBroken.set(true);
        stubFirst(firstAnswer(mode, "Turning it on!", List.of(new Ev("lamp.power.toggle", "{\"state\":\"on\"}")))
                .done().sseBody());
        stubFollowUp(Chunks.stream("test-model").content("Sorry, the lamp is not answering.").finish("stop").done()
                .sseBody());
        TurnResult result = turn(conversation(), "lamp on please");

        assertThat(result.decision().orElseThrow()).isInstanceOfSatisfying(ContinuationDecision.FollowUp.class,
                f -> assertThat(f.reasons()).containsExactly(FollowUpReason.CORRECTION));
        assertThat(result.followUp()).contains("Sorry, the lamp is not answering.");
        assertThat(result.audit()).filteredOn(e -> e.type().equals(AguiEvent.TOOL_CALL_RESULT))
                .extracting(e -> e.text("content")).singleElement().asString().contains("\"status\":\"failure\"");
        assertAuditValid(result);
    }

    /** The clause this checks: {@code docs/design.md#context-event-agent}. */
    @Test
    @DisplayName("an incomplete event gets one small EventAgent call with only its own schema")
    void eventAgentFallback() {
        runtime(InvocationMode.DUAL_AGENT);
        stubFirst(firstAnswer(InvocationMode.DUAL_AGENT, "Nice choice!", List.of(new Ev("lamp.color.set", "{}")))
                .done().sseBody());
        wireMock.stubFor(post(urlEqualTo("/v1/chat/completions")).atPriority(1).withRequestBody(containing(FALLBACK_MARK))
                .willReturn(aResponse().withHeader("Content-Type", "text/event-stream").withBody(
                        Chunks.stream("test-model").content("{\"color\":", "\"blue\"}").finish("stop")
                                .openAiUsage(60, 5, 0).done().sseBody())));
        TurnResult result = turn(conversation(), "make the lamp the color of the sky");

        EventResult event = result.batch().orElseThrow().results().get(0);
        assertThat(event.resolution().outcome()).isEqualTo(ResolutionOutcome.FALLBACK);
        assertThat(events.sideEffects).containsExactly("color blue");
        String fallbackBody = requests().stream().map(LoggedRequest::getBodyAsString)
                .filter(b -> b.contains(FALLBACK_MARK)).findFirst().orElseThrow();
        assertThat(fallbackBody).contains("lamp.color.set").doesNotContain("lamp.power.toggle")
                .contains("\"max_tokens\":200");
        assertThat(result.metrics().fallbackCalls()).isEqualTo(1);
        assertThat(result.metrics().promptTokens(CallRole.EVENT_AGENT)).isEqualTo(60);
    }

    @Test
    @DisplayName("DeepSeek-style usage on the last content chunk is read, with its cache hits")
    void deepSeekUsage() {
        runtime(InvocationMode.DUAL_AGENT);
        stubFirst(Chunks.stream("test-model").content("Hi there!").deepSeekFinishWithUsage("stop", 90, 4, 64).done()
                .sseBody());
        TurnResult result = turn(conversation(), "hello");
        assertThat(result.metrics().calls()).singleElement().satisfies(call -> {
            assertThat(call.promptTokens()).isEqualTo(90);
            assertThat(call.cachedPromptTokens()).isEqualTo(64);
        });
    }

    @Test
    @DisplayName("a vLLM-shaped server (\"prompt_tokens_details\": null) answers the turn (before: the turn failed with "
            + "a NullPointerException)")
    void vllmNullDetails() {
        runtime(InvocationMode.DUAL_AGENT);
        StringBuilder body = new StringBuilder();
        shapePayloads("vllm-null-details").forEach(p -> body.append("data: ").append(p)
                .append("\n\n"));
        stubFirst(body.toString());
        TurnResult result = turn(conversation(), "hello");
        assertThat(result.error()).isEmpty();
        assertThat(result.firstAnswer()).isEqualTo("Okay, the lamp is on.");
        assertThat(result.calls()).singleElement().satisfies(call -> {
            assertThat(call.usage().inputTokens()).isEqualTo(57);
            assertThat(call.rawUsage()).doesNotContainKey("prompt_tokens_details");
        });
    }

    @Test
    @DisplayName("faults end the turn with a clear error, history unchanged, and the next turn works")
    void faults() {
        runtime(InvocationMode.CHAT_AGENT_TOOLS);
        Conversation conversation = conversation();
        List<String> codes = new ArrayList<>();

        stubFirst(Chunks.stream("test-model").content("Hel").raw("{\"choices\":[{\"delta\":{\"content\":").sseBody());
        codes.add(turn(conversation, "hi").error().orElseThrow());
        stubFirst(Chunks.stream("test-model").content("Hel", "lo").sseBody());
        codes.add(turn(conversation, "hi").error().orElseThrow());
        wireMock.stubFor(post(urlEqualTo("/v1/chat/completions")).atPriority(1).willReturn(aResponse().withStatus(429)
                .withHeader("Retry-After", "7").withBody("{\"error\":{\"message\":\"rate limited\"}}")));
        TurnResult limited = turn(conversation, "hi");
        codes.add(limited.error().orElseThrow());
        wireMock.resetAll();
        wireMock.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(500)));
        codes.add(turn(conversation, "hi").error().orElseThrow());
        wireMock.resetAll();
        wireMock.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse()
                .withFault(Fault.CONNECTION_RESET_BY_PEER)));
        codes.add(turn(conversation, "hi").error().orElseThrow());

        assertThat(codes).containsExactly("provider_malformed_chunk", "provider_truncated", "provider_http_429",
                "provider_http_500", "provider_connection");
        assertThat(limited.audit()).last().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AguiEvent.RUN_ERROR);
            assertThat(e.text("code")).isEqualTo("provider_http_429");
            assertThat(e.text("message")).contains("rate limited");
        });
        assertAuditValid(limited);
        assertThat(conversation.messages()).isEmpty();

        wireMock.resetAll();
        stubFirst(firstAnswer(InvocationMode.CHAT_AGENT_TOOLS, "All good now.", List.of()).done().sseBody());
        TurnResult next = turn(conversation, "hi again");
        assertThat(next.error()).isEmpty();
        assertThat(conversation.historyView()).hasSize(2);
    }

    /** The clause this checks: {@code docs/design.md#safety-audit-record} (the raw arguments are kept). */
    @Test
    @DisplayName("tool-call arguments that are not JSON: the event is resolved from the words, the raw text is audited")
    void malformedToolArguments() {
        runtime(InvocationMode.CHAT_AGENT_TOOLS);
        stubFirst(firstAnswer(InvocationMode.CHAT_AGENT_TOOLS, "Switching it off.", List.of(
                new Ev("lamp.power.toggle", "{\"state\": off"))).done().sseBody());
        TurnResult result = turn(conversation(), "lamp off");
        assertThat(result.proposals()).singleElement().satisfies(p -> {
            assertThat(p.argumentsParseError()).contains("not valid JSON");
            assertThat(p.rawArguments()).isEqualTo("{\"state\": off");
        });
        assertThat(result.batch().orElseThrow().results().get(0).arguments()).isEqualTo(Map.of("state", "off"));
        assertThat(result.calls().get(0).rawToolCalls().get(0).arguments()).isEqualTo("{\"state\": off");
    }

    /**
     * The clauses this checks: {@code docs/design.md#safety-no-credentials},
     * {@code docs/design.md#safety-audit-record}.
     */
    @Test
    @DisplayName("the API key travels only in the Authorization header, never in a recorded request")
    void keyNeverRecorded() {
        String key = "test-key-not-a-secret-0123456789";
        ProviderRegistry providers = new ProviderRegistry().register("wiremock", new OpenAiCompatibleClient(
                new OpenAiCompatibleClient.Config(wireMock.baseUrl() + "/v1", "AGENTLAB_TEST_KEY", Duration.ofSeconds(5),
                        Duration.ofSeconds(10)), name -> name.equals("AGENTLAB_TEST_KEY") ? key : null, System::nanoTime));
        RuntimeConfig noUsage = new RuntimeConfig(InvocationMode.DUAL_AGENT, "wiremock", "test-model", "You are Pip.",
                0.7, 300, false, "test-model", 200);
        runtime = TurnRuntime.builder().definitions(events.all().toArray(io.agentlab.kernel.api.EventDefinition[]::new))
                .providers(providers).config(noUsage).build();
        stubFirst(firstAnswer(InvocationMode.DUAL_AGENT, "Hello!", List.of()).done().sseBody());
        TurnResult result = turn(conversation(), "hi");

        assertThat(requests().get(0).getHeader("Authorization")).isEqualTo("Bearer " + key);
        assertThat(requests().get(0).getBodyAsString()).doesNotContain(key).doesNotContain("stream_options");
        assertThat(result.calls()).allSatisfy(call -> assertThat(call.requestBody() + call.rawContent()).doesNotContain(key));
        assertThat(result.metrics().costSource()).isEqualTo(CostSource.INCOMPLETE_USAGE_FALLBACK);
    }

    /** The clause this checks: {@code docs/design.md#context-visibility-mask}. */
    @Test
    @DisplayName("history keeps the provider transcript in tools mode for context only; a replay shows what the user saw")
    void visibilityMasks() {
        runtime(InvocationMode.CHAT_AGENT_TOOLS);
        stubFirst(firstAnswer(InvocationMode.CHAT_AGENT_TOOLS, "Done.", List.of(new Ev("lamp.power.toggle",
                "{\"state\":\"off\"}"))).done().sseBody());
        Conversation conversation = conversation();
        turn(conversation, "lamp off");
        assertThat(conversation.messages()).extracting(m -> m.message().role().name() + "/" + m.visibilityMask())
                .containsExactly("USER/3", "ASSISTANT/3", "TOOL/2");
        assertThat(conversation.historyView()).extracting(m -> m.message().content()).containsExactly("lamp off", "Done.");
        assertThat(conversation.context()).hasSize(3);
    }

    /** The clause this checks: {@code docs/design.md#audit-events} (the re-sent turn is run {@code <turn>-r<n>}). */
    @ParameterizedTest
    @EnumSource(InvocationMode.class)
    @DisplayName("a retransmission runs under the turn's id: its executed events are replayed, one side effect")
    void retransmission(InvocationMode mode) {
        runtime(mode);
        stubFirst(firstAnswer(mode, "The lamp is on.", List.of(new Ev("lamp.power.toggle", "{\"state\":\"on\"}")))
                .done().sseBody());
        Conversation conversation = conversation();
        TurnResult first = turn(conversation, "turn the lamp on");
        TurnResult again = runtime.retransmit(conversation, first.turnId(), "turn the lamp on", (id, delta) -> { });

        assertThat(again.turnId()).isEqualTo(first.turnId());
        assertThat(first.batch().orElseThrow().results()).extracting(EventResult::status).containsExactly("succeeded");
        assertThat(again.batch().orElseThrow().results()).extracting(EventResult::status).containsExactly("replayed");
        assertThat(events.sideEffects).containsExactly("lamp on");
        // the retransmission is a new AG-UI run: no run, message or tool-call id of the first run repeats
        assertThat(ids(again)).doesNotContainAnyElementsOf(ids(first)).contains(first.turnId() + "-r2");
        // the result names the run it produced, which is what its stream's RUN_STARTED says
        assertThat(first.runId()).isEqualTo(first.turnId()).isEqualTo(first.audit().get(0).runId());
        assertThat(again.runId()).isEqualTo(first.turnId() + "-r2").isEqualTo(again.audit().get(0).runId());
        TurnResult next = turn(conversation, "turn the lamp on");
        assertThat(next.turnId()).isNotEqualTo(first.turnId());
        assertThat(next.batch().orElseThrow().results()).extracting(EventResult::status).containsExactly("succeeded");
        assertThat(events.sideEffects).containsExactly("lamp on", "lamp on");
    }

    /** The run id and every message and tool-call id a turn's audit stream introduces. */
    private static List<String> ids(TurnResult turn) {
        return turn.audit().stream()
                .filter(e -> List.of(AguiEvent.RUN_STARTED, AguiEvent.TEXT_MESSAGE_START, AguiEvent.TOOL_CALL_START,
                        AguiEvent.TOOL_CALL_RESULT).contains(e.type()))
                .map(e -> switch (e.type()) {
                    case AguiEvent.RUN_STARTED -> e.text("runId");
                    case AguiEvent.TOOL_CALL_START -> e.text("toolCallId");
                    default -> e.text("messageId");
                })
                .toList();
    }

    @Test
    @DisplayName("a retransmission names a turn the conversation ran; any other id is refused before a call")
    void retransmissionOfUnknownTurn() {
        runtime(InvocationMode.DUAL_AGENT);
        assertThatThrownBy(() -> runtime.retransmit(conversation(), "s1-t9", "hi",
                (id, delta) -> { })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never ran turn 's1-t9'");
        assertThat(requests()).isEmpty();
    }

    /** The data payloads of a committed stream-shape recording (providers-recorded's corpus). */
    private static List<String> shapePayloads(String shape) {
        java.nio.file.Path file = java.nio.file.Path.of("../providers-recorded/src/test/resources/recordings/shape-"
                + shape + ".json");
        try {
            List<String> out = new java.util.ArrayList<>();
            io.agentlab.runtime.llm.Json.tree(java.nio.file.Files.readString(file)).path("response")
                    .path("events").forEach(event -> out.add(event.path("data").asString()));
            assertThat(out).as(file.toString()).isNotEmpty();
            return out;
        } catch (java.io.IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }
}
