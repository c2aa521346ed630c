package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.ProviderStream;
import io.agentlab.providers.recorded.ProviderStream.Usage;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.RequestMatcher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The suites' own recordings: provider-shaped streams whose usage fields are the point (DeepSeek cache hits on the
 * last chunk, DashScope cached tokens in {@code prompt_tokens_details}, a provider-reported cost, a stream without
 * usage), a tools-mode stream whose tool-call arguments are not JSON, and one whose visible text shares a chunk with its first tool call. Written from the code below in each provider
 * family's shape ({@link ProviderStream}) and marked synthesized; this test keeps the committed files equal to it. Regenerate with {@code -Dtest=UsageFixturesTest -Dagentlab-build.regenerate-fixtures=true}.
 */
class UsageFixturesTest {

    static final Path DIRECTORY = Path.of("src/main/resources/recordings");
    private static final LocalDate DAY = LocalDate.of(2026, 11, 30);
    private static final String TIMING = "modelled: first event 10 ms, then 5 ms per event (fixed, for accounting only)";

    static List<Recording> fixtures() {
        List<Recording> all = new ArrayList<>();
        all.add(recording("usage-deepseek-cache", "any", "chat", "what's a good name for a cat",
                stream(ProviderFamily.DEEPSEEK, "deepseek-chat", "usage-deepseek-cache").content("How about ", "Mochi?")
                        .finish("stop", Usage.of(120, 6).cached(64))));
        all.add(recording("usage-dashscope-cache", "any", "chat", "tell me a short joke",
                stream(ProviderFamily.DASHSCOPE, "qwen-plus", "usage-dashscope-cache")
                        .content("Why did the ", "robot nap? ", "Low battery!").finish("stop", Usage.of(110, 12).cached(32))));
        all.add(recording("usage-openai-final-chunk", "any", "chat", "say hello",
                openAi("usage-openai-final-chunk").content("Hello!").finish("stop", Usage.of(90, 3))));
        // a provider that reports its own cost beside OpenAI's usage fields
        all.add(recording("usage-provider-cost", "any", "chat", "what day is it",
                openAi("usage-provider-cost").content("It is Monday.").finish("stop", Usage.of(95, 5).with("cost", 0.00021))));
        all.add(recording("usage-missing", "any", "chat", "count to three",
                openAi("usage-missing").content("One, two, three!").finish("stop", null)));
        all.add(recording("usage-partial-cost-dual_agent", "dual_agent", "chat", "search the weather in Oslo",
                openAi("usage-partial-cost-dual_agent").content("Let me look.", "\n[[EVENTS]] knowledge.web.search")
                        .finish("stop", Usage.of(150, 9).with("cost", 0.0001))));
        all.add(recording("usage-partial-cost-chat_agent_tools", "chat_agent_tools", "chat", "search the weather in Oslo",
                openAi("usage-partial-cost-chat_agent_tools").content("Let me look.")
                        .toolCall(0, "call_1", "knowledge_web_search", List.of("{\"query\":\"the weather in Oslo\"}"))
                        .finish("tool_calls", Usage.of(260, 20).with("cost", 0.0002))));
        all.add(recording("usage-partial-cost-follow-up", "any", "follow_up", "search the weather in Oslo",
                openAi("usage-partial-cost-follow-up").content("It is snowing in Oslo.").finish("stop", Usage.of(200, 8))));
        // not usage, but a fault only a tools-mode provider makes: tool-call arguments that are not JSON
        all.add(recording("fault-invalid-volume-arguments", "chat_agent_tools", "chat", "set the volume to 25",
                openAi("fault-invalid-volume-arguments").content("Volume 25.")
                        .toolCall(0, "call_1", "device_volume_adjust", List.of("{\"mode\":\"absolute\",\"value\":"))
                        .finish("tool_calls", Usage.of(240, 12))));
        // DeepSeek's own cache fields without prompt_tokens_details (null, as older DeepSeek API versions send it):
        // the hits alone are the cached prompt tokens (docs/design.md#usage-provider-first)
        all.add(recording("usage-deepseek-hits-only", "any", "chat", "suggest a name for a dog",
                stream(ProviderFamily.DEEPSEEK, "deepseek-chat", "usage-deepseek-hits-only").content("How about ", "Biscuit?")
                        .finish("stop", Usage.of(120, 6).cached(64).with("prompt_tokens_details", null))));
        // a provider whose completion_tokens leave out the reasoning tokens its total_tokens counts: the total is the
        // provider's, not prompt + completion (docs/design.md#usage-normalized)
        all.add(recording("usage-reasoning-total", "any", "chat", "is seven a prime",
                openAi("usage-reasoning-total").content("Yes, seven is prime.").finish("stop", Usage.of(90, 12)
                        .with("total_tokens", 150).with("completion_tokens_details", Map.of("reasoning_tokens", 48)))));
        // a provider that reports a cost of exactly zero (a free tier): still the provider's cost
        all.add(recording("usage-zero-cost", "any", "chat", "what is two plus two",
                openAi("usage-zero-cost").content("Four.").finish("stop", Usage.of(80, 4).with("cost", 0))));
        // priced by the usage-accounting suite's own catalog (docs/design.md#usage-catalog-fallback): prompt tokens
        // exactly at the first tier's max_prompt_tokens, and more cached tokens than prompt tokens (a proxy's bug)
        all.add(recording("usage-tier-bound", "any", "chat", "name a colour",
                openAi("usage-tier-bound").content("Teal.").finish("stop", Usage.of(100, 10))));
        all.add(recording("usage-cached-over-prompt", "any", "chat", "name a fruit",
                openAi("usage-cached-over-prompt").content("A mango.").finish("stop", Usage.of(80, 10).cached(150))));
        // not usage either: a tools-mode provider that sends its visible text in the same chunk as its first tool call,
        // so nothing was withheld until the tool calls (docs/design.md#modes-visible-withheld-recorded)
        all.add(recording("volume-text-with-tool-call", "chat_agent_tools", "chat", "set the volume to 35",
                openAi("volume-text-with-tool-call")
                        .contentWithToolCall("Volume 35.", 0, "call_1", "device_volume_adjust",
                                List.of("{\"mode\":\"absolute\",", "\"value\":35}"))
                        .finish("tool_calls", Usage.of(240, 14))));
        return all;
    }

    private static ProviderStream stream(ProviderFamily family, String model, String id) {
        return family.stream(model, id, DAY);
    }

    private static ProviderStream openAi(String id) {
        return stream(ProviderFamily.OPENAI, "gpt-4o-mini", id);
    }

    private static Recording recording(String id, String mode, String role, String user, ProviderStream stream) {
        List<String> payloads = stream.done().payloads();
        List<Recording.TimedEvent> events = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            // the role chunk comes with the first token
            events.add(new Recording.TimedEvent(10 + 5L * Math.max(0, i - 1), payloads.get(i)));
        }
        String model = payloads.get(0).replaceAll(".*\"model\":\"([^\"]+)\".*", "$1");
        return new Recording(id, new RequestMatcher(mode, role, user),
                new Recording.RecordedResponse(200, Map.of("Content-Type", "text/event-stream"), events),
                new Recording.Metadata(stream.family().wireName(), model, DAY.toString(), true, List.of(), TIMING));
    }

    @Test
    @DisplayName("the committed usage recordings are exactly what the code above synthesizes")
    void committedMatchCode() throws IOException {
        assertThat(Recordings.stale(DIRECTORY, fixtures(), Boolean.getBoolean("agentlab-build.regenerate-fixtures")))
                .as("regenerate with -Dagentlab-build.regenerate-fixtures=true").isEmpty();
    }
}
