package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderRegistry;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every fault fixture through the runtime: a clear error or the tolerated path, history intact, next turn works. */
class FaultFixturesTest {

    private static TimedReplay replay;

    @BeforeAll
    static void start() throws Exception {
        // the fault fixtures say mode "any": a fault lives in the response, whatever tools the request carried
        replay = TimedReplay.start(Recordings.loadDirectory(RecordingsTest.FIXTURES), 1.0);
    }

    @AfterAll
    static void stop() {
        replay.close();
    }

    private static TurnRuntime runtime(InvocationMode mode) {
        return TurnRuntime.builder()
                .definitions(ReplayThroughRuntimeTest.definitions().toArray(EventDefinition[]::new))
                .providers(new ProviderRegistry().register("replay", new OpenAiCompatibleClient(
                        new OpenAiCompatibleClient.Config(replay.baseUrl(), null, Duration.ofSeconds(2),
                                Duration.ofSeconds(5)))))
                .config(RuntimeConfig.of(mode, "replay", "model-x", "You are Pip.")).build();
    }

    @ParameterizedTest(name = "{2}: {0} → {1}")
    @DisplayName("each fault, in both modes, ends in a clear error code or is tolerated where a provider may do it")
    @CsvSource(delimiter = '|', textBlock = """
            fault 429           | provider_http_429        | dual_agent
            fault 500           | provider_http_500        | dual_agent
            fault reset         | provider_connection      | dual_agent
            fault truncated     | provider_truncated       | dual_agent
            fault malformed     | provider_malformed_chunk | dual_agent
            fault missing done  | none                     | dual_agent
            fault slow dribble  | none                     | dual_agent
            fault stream error  | provider_stream_error    | dual_agent
            fault 429           | provider_http_429        | chat_agent_tools
            fault 500           | provider_http_500        | chat_agent_tools
            fault reset         | provider_connection      | chat_agent_tools
            fault truncated     | provider_truncated       | chat_agent_tools
            fault malformed     | provider_malformed_chunk | chat_agent_tools
            fault missing done  | none                     | chat_agent_tools
            fault slow dribble  | none                     | chat_agent_tools
            fault stream error  | provider_stream_error    | chat_agent_tools
            """)
    void faults(String utterance, String code, String mode) {
        try (TurnRuntime runtime = runtime(InvocationMode.fromWireName(mode))) {
            Conversation conversation = new Conversation("s", ZoneId.of("UTC"), Locale.ENGLISH);
            TurnResult result = runtime.runTurn(conversation, utterance, VisibleSink.discard());
            if (code.equals("none")) {
                assertThat(result.error()).isEmpty();
                assertThat(result.firstAnswer()).isNotBlank();
                assertThat(conversation.historyView()).hasSize(2);
            } else {
                assertThat(result.error()).contains(code);
                assertThat(result.audit()).last().satisfies(e -> assertThat(e.type()).isEqualTo(AguiEvent.RUN_ERROR));
                assertThat(conversation.messages()).as("history unchanged").isEmpty();
                TurnResult next = runtime.runTurn(conversation, "fault missing done", VisibleSink.discard());
                assertThat(next.error()).as("the next turn works").isEmpty();
            }
            assertThat(AguiStreamChecker.check(AguiProfile.AGUI_1_0, result.audit(), result.turnId())).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("tool-call arguments that are not JSON: resolved from the words, raw text audited")
    @CsvSource("lamp off please")
    void invalidToolArguments(String utterance) {
        try (TurnRuntime runtime = runtime(InvocationMode.CHAT_AGENT_TOOLS)) {
            TurnResult result = runtime.runTurn(new Conversation("s", ZoneId.of("UTC"), Locale.ENGLISH), utterance,
                    VisibleSink.discard());
            assertThat(result.proposals()).singleElement()
                    .satisfies(p -> assertThat(p.argumentsParseError()).contains("not valid JSON"));
            assertThat(result.batch().orElseThrow().results().get(0).arguments()).isEqualTo(Map.of("state", "off"));
            assertThat(List.of(result.batch().orElseThrow().results().get(0).status())).containsExactly("succeeded");
        }
    }
}
