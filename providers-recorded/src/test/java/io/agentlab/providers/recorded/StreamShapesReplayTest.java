package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.StreamAccumulator;
import io.agentlab.runtime.llm.ToolSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The corpus of provider stream shapes ({@code docs/recording.md#stream-shapes}) over the real wire: each shape the
 * loader accepts is replayed by {@link TimedReplay} and read by the runtime's {@link OpenAiCompatibleClient}, which must
 * make of it exactly what the accumulator makes of the recorded payloads, choice 0, and stream choice 0's text only.
 */
class StreamShapesReplayTest {

    static final Path SHAPES = Path.of("src/test/resources/recordings");

    @Test
    @DisplayName("every stream shape the loader accepts replays through the client to the accumulator's own fold")
    void everyShapeOverTheWire() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(SHAPES)) {
            files = list.filter(p -> p.getFileName().toString().startsWith("shape-")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(19);
        List<Recording> accepted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Path file : files) {
            try {
                accepted.add(Recordings.read(file, List.of()).recording());
            } catch (IllegalArgumentException e) {
                refused.add(file.getFileName().toString().replace(".json", ""));
            }
        }
        assertThat(refused).as("every real provider's shape loads (docs/recording.md#stream-shapes)").isEmpty();
        for (Recording recording : accepted) {
            try (TimedReplay replay = TimedReplay.start(List.of(recording), 0)) {
                OpenAiCompatibleClient client = new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(
                        replay.baseUrl(), null, Duration.ofSeconds(2), Duration.ofSeconds(10)));
                StringBuilder streamed = new StringBuilder();
                ChatCompletion overTheWire = client.stream(request(recording), streamed::append);
                StreamAccumulator direct = new StreamAccumulator();
                recording.response().events().forEach(e -> direct.accept(e.data()));
                ChatCompletion expected = direct.complete(Duration.ZERO, Optional.empty(), Duration.ZERO);
                assertThat(overTheWire.content()).as(recording.id()).isEqualTo(expected.content());
                assertThat(streamed).as(recording.id() + ", streamed").hasToString(expected.content());
                assertThat(overTheWire.toolCalls()).as(recording.id()).isEqualTo(expected.toolCalls());
                assertThat(overTheWire.finishReason()).as(recording.id()).isEqualTo(expected.finishReason());
                assertThat(overTheWire.usage()).as(recording.id()).isEqualTo(expected.usage());
            }
        }
    }

    private static ChatRequest request(Recording recording) {
        List<ToolSpec> tools = recording.request().mode().equals("chat_agent_tools")
                ? List.of(new ToolSpec("lamp_power_toggle", "Turns the lamp on or off.",
                        "{\"type\":\"object\",\"properties\":{\"state\":{\"type\":\"string\"}}}"))
                : List.of();
        return new ChatRequest("m", List.of(ChatMessage.system("You are Pip."),
                ChatMessage.user(recording.request().lastUserMessage())), tools, null, null, true, CallRole.CHAT);
    }
}
