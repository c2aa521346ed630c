package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The recording format: schema validation, round trip, committed fixtures, and no credential on disk. */
class RecordingsTest {

    static final Path FIXTURES = Path.of("src/main/resources/recordings");

    static Recording synthesized(ProviderFamily family, InvocationMode mode) {
        return new StreamSynthesizer(LatencyModel.typical(), LocalDate.of(2026, 11, 30)).synthesize(new Script(
                "lamp-on-" + mode.wireName() + "-" + family.wireName(), mode,
                CallRole.CHAT, "turn the lamp on", "Okay, the lamp is on!",
                List.of(new ScriptedEvent("lamp.power.toggle", "{\"state\":\"on\"}")), family, "model-x"), 7, 120);
    }

    /** The clause this checks: {@code docs/design.md#provider-recordings}. */
    @Test
    @DisplayName("write → parse round-trips; the file is schema-valid and diff-friendly (each event its own block)")
    void roundTrip() {
        Recording recording = synthesized(ProviderFamily.DEEPSEEK, InvocationMode.DUAL_AGENT);
        String text = Recordings.write(recording);
        assertThat(Recordings.parse(text, "memory")).isEqualTo(recording);
        assertThat(text.lines().filter(line -> line.contains("\"at_ms\""))).hasSize(recording.response().events().size());
    }

    @Test
    @DisplayName("an invalid recording is refused naming the file and the location")
    void invalid() {
        assertThatThrownBy(() -> Recordings.parse("{\"id\":\"x\",\"request\":{\"mode\":\"tools\",\"role\":\"chat\","
                + "\"last_user_message\":\"\"},\"response\":{\"status\":200,\"events\":[]},\"metadata\":{}}", "bad.json"))
                .hasMessageContaining("bad.json").hasMessageContaining("/request/mode")
                // readable although wiremock-standalone's older jsv-messages bundle is on this classpath too
                .hasMessageContaining("/metadata: required property 'model' not found")
                .hasMessageNotContaining("{1}");
        assertThatThrownBy(() -> Recordings.parse("{", "broken.json")).hasMessageContaining("broken.json: not JSON");
    }

    @Test
    @DisplayName("the committed fixtures load, say how their timing came to be, and synthesized ones say so")
    void fixtures() throws IOException {
        List<Recording> recordings = Recordings.loadDirectory(FIXTURES);
        assertThat(recordings).isNotEmpty();
        assertThat(recordings).allSatisfy(r -> {
            assertThat(r.metadata().synthesized() || r.metadata().timing().equals("recorded")).isTrue();
            if (r.metadata().synthesized()) {
                assertThat(r.metadata().timing()).startsWith("modelled:");
            }
        });
        assertThat(recordings).extracting(r -> r.metadata().provider()).contains("openai", "deepseek", "dashscope");
        assertThat(recordings).extracting(r -> r.request().mode()).contains("dual_agent", "chat_agent_tools");
    }

    /** Every fixture this module ships, as the code that writes it: the "lamp on" answers and the fault fixtures. */
    static List<Recording> shipped() {
        List<Recording> all = new ArrayList<>();
        for (ProviderFamily family : ProviderFamily.builtIns()) {
            for (InvocationMode mode : InvocationMode.values()) {
                all.add(synthesized(family, mode));
            }
        }
        all.addAll(FaultFixtures.fixtures());
        return all;
    }

    @Test
    @DisplayName("the committed fixtures are exactly what their code writes (regenerate: -Dagentlab-build.regenerate-fixtures=true)")
    void committedFixturesMatchCode() throws IOException {
        List<Recording> shipped = shipped();
        assertThat(Recordings.stale(FIXTURES, shipped, Boolean.getBoolean("agentlab-build.regenerate-fixtures")))
                .as("regenerate with -Dagentlab-build.regenerate-fixtures=true").isEmpty();
        try (Stream<Path> files = Files.list(FIXTURES)) {
            assertThat(files.map(f -> f.getFileName().toString().replace(".json", "")))
                    .as("every committed fixture has its code").containsExactlyInAnyOrderElementsOf(
                            shipped.stream().map(Recording::id).toList());
        }
    }
}
