package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.StreamSynthesizer;
import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The engine tests' recordings are synthesized (they say {@code synthesized: true}) from the scripts below; this
 * test keeps the committed files equal to their scripts. Regenerate with
 * {@code -Dtest=RecordedFixturesTest -Dagentlab-build.regenerate-fixtures=true}.
 */
class RecordedFixturesTest {

    static final Path DIRECTORY = Path.of("src/test/resources/recordings");

    static List<Recording> fixtures() {
        StreamSynthesizer synthesizer = new StreamSynthesizer(new LatencyModel(50, 0.02, 4), LocalDate.of(2026, 11, 30));
        return List.of(InvocationMode.values()).stream().map(mode -> synthesizer.synthesize(new Script(
                "volume-forty-" + mode.wireName(), mode, CallRole.CHAT, "set the volume to 40",
                "Okay, volume 40.", List.of(new ScriptedEvent("device.volume.adjust",
                "{\"mode\":\"absolute\",\"value\":40}")), ProviderFamily.DEEPSEEK, "deepseek-chat"), 7, 300)).toList();
    }

    @Test
    @DisplayName("the committed recordings are exactly what their scripts synthesize")
    void committedMatchScripts() throws IOException {
        assertThat(fixtures()).allSatisfy(recording -> assertThat(recording.metadata().synthesized()).isTrue());
        assertThat(Recordings.stale(DIRECTORY, fixtures(), Boolean.getBoolean("agentlab-build.regenerate-fixtures")))
                .as("regenerate with -Dagentlab-build.regenerate-fixtures=true").isEmpty();
    }
}
