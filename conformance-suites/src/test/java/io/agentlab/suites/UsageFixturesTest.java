package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.runtime.llm.Chunks;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.RequestMatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The suites' own recordings: provider-shaped streams whose usage fields are the point (DeepSeek cache hits on the
 * last chunk, DashScope cached tokens in {@code prompt_tokens_details}, a provider-reported cost, a stream without
 * usage), and a tools-mode stream whose tool-call arguments are not JSON. Synthesized from the code below and marked so; this test keeps the committed files equal
 * to it. Regenerate with {@code -Dtest=UsageFixturesTest -Dagentlab.regenerate-fixtures=true}.
 */
class UsageFixturesTest {

    static final Path DIRECTORY = Path.of("src/main/resources/recordings");
    private static final String TIMING = "modelled: first event 10 ms, then 5 ms per event (fixed, for accounting only)";

    static List<Recording> fixtures() {
        List<Recording> all = new ArrayList<>();
        all.add(recording("usage-deepseek-cache", "any", "chat", "what's a good name for a cat", "deepseek",
                Chunks.stream("deepseek-chat").content("How about ", "Mochi?").deepSeekFinishWithUsage("stop", 120, 6, 64)));
        all.add(recording("usage-dashscope-cache", "any", "chat", "tell me a short joke", "dashscope",
                Chunks.stream("qwen-plus").content("Why did the ", "robot nap? ", "Low battery!").finish("stop")
                        .usageChunk(usage(110, 12, Map.of("prompt_tokens_details", Map.of("cached_tokens", 32))))));
        all.add(recording("usage-openai-final-chunk", "any", "chat", "say hello", "openai",
                Chunks.stream("gpt-4o-mini").content("Hello!").finish("stop").openAiUsage(90, 3, 0)));
        all.add(recording("usage-provider-cost", "any", "chat", "what day is it", "openai",
                Chunks.stream("gpt-4o-mini").content("It is Monday.").finish("stop")
                        .usageChunk(usage(95, 5, Map.of("cost", 0.00021)))));
        all.add(recording("usage-missing", "any", "chat", "count to three", "openai",
                Chunks.stream("gpt-4o-mini").content("One, two, three!").finish("stop")));
        all.add(recording("usage-partial-cost-dual_agent", "dual_agent", "chat", "search the weather in Oslo", "openai",
                Chunks.stream("gpt-4o-mini").content("Let me look.", "\n[[EVENTS]] knowledge.web.search").finish("stop")
                        .usageChunk(usage(150, 9, Map.of("cost", 0.0001)))));
        all.add(recording("usage-partial-cost-chat_agent_tools", "chat_agent_tools", "chat", "search the weather in Oslo",
                "openai", Chunks.stream("gpt-4o-mini").content("Let me look.")
                        .toolCall(0, "call_1", "knowledge_web_search", "{\"query\":\"the weather in Oslo\"}")
                        .finish("tool_calls").usageChunk(usage(260, 20, Map.of("cost", 0.0002)))));
        all.add(recording("usage-partial-cost-follow-up", "any", "follow_up", "search the weather in Oslo", "openai",
                Chunks.stream("gpt-4o-mini").content("It is snowing in Oslo.").finish("stop").openAiUsage(200, 8, 0)));
        // not usage, but a fault only a tools-mode provider makes: tool-call arguments that are not JSON
        all.add(recording("fault-invalid-volume-arguments", "chat_agent_tools", "chat", "set the volume to 25", "openai",
                Chunks.stream("gpt-4o-mini").content("Volume 25.")
                        .toolCall(0, "call_1", "device_volume_adjust", "{\"mode\":\"absolute\",\"value\":")
                        .finish("tool_calls").openAiUsage(240, 12, 0)));
        return all;
    }

    private static Map<String, Object> usage(int prompt, int completion, Map<String, Object> extra) {
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", prompt);
        usage.put("completion_tokens", completion);
        usage.put("total_tokens", prompt + completion);
        usage.putAll(extra);
        return usage;
    }

    private static Recording recording(String id, String mode, String role, String user, String provider,
                                       Chunks chunks) {
        List<String> payloads = chunks.done().payloads();
        List<Recording.TimedEvent> events = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            events.add(new Recording.TimedEvent(10 + 5L * i, payloads.get(i)));
        }
        String model = payloads.get(0).replaceAll(".*\"model\":\"([^\"]+)\".*", "$1");
        return new Recording(id, new RequestMatcher(mode, role, user),
                new Recording.RecordedResponse(200, Map.of("Content-Type", "text/event-stream"), events),
                new Recording.Metadata(provider, model, "2026-11-30", true, List.of(), TIMING));
    }

    @Test
    @DisplayName("the committed usage recordings are exactly what the code above synthesizes")
    void committedMatchCode() throws IOException {
        boolean regenerate = Boolean.getBoolean("agentlab.regenerate-fixtures");
        for (Recording recording : fixtures()) {
            Path file = DIRECTORY.resolve(recording.id() + ".json");
            String expected = Recordings.write(recording);
            if (regenerate) {
                Files.writeString(file, expected);
            }
            assertThat(Files.readString(file)).as(file + " (regenerate with -Dagentlab.regenerate-fixtures=true)")
                    .isEqualTo(expected);
        }
    }
}
