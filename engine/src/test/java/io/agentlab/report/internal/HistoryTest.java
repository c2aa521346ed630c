package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.report.metrics.Metric;
import io.agentlab.report.metrics.MetricsReport;
import io.agentlab.report.metrics.TurnRecord;
import io.agentlab.report.metrics.TurnSample;
import io.agentlab.runtime.llm.CallRole;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** "What moved" calls a change better or worse only beyond noise, and never on a latency model's timing. */
class HistoryTest {

    @TempDir
    Path temp;

    /** Ten turns: first-visible TTFT {@code ttftMs + i} ms, {@code tokens + i} prompt tokens. */
    private static MetricsReport run(TurnRecord.Timing timing, long ttftMs, long tokens) {
        MetricsReport report = new MetricsReport();
        for (int i = 0; i < 10; i++) {
            report.add(new TurnRecord("s", "c" + i, 0, InvocationMode.DUAL_AGENT, "hi", timing, Optional.empty(),
                    TurnSample.ArgumentScore.NONE, new TurnRecord.Clock(Duration.ofMillis(500),
                    Optional.of(Duration.ofMillis(ttftMs + i)), Duration.ofMillis(400), Optional.empty(),
                    Optional.empty()), List.of(new TurnRecord.Call(CallRole.CHAT, "m", Duration.ZERO,
                    Duration.ofMillis(ttftMs + i), Duration.ofMillis(400), tokens + i, 10, true, Optional.empty())),
                    List.of(), List.of(), Optional.empty(), false, false, Optional.empty()));
        }
        return report;
    }

    private Path file(String name, String json) throws IOException {
        return Files.writeString(temp.resolve(name), json);
    }

    private static History.Move move(History history, Metric metric) {
        return history.moves().stream().filter(m -> m.metric() == metric).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("against a previous run: a change within the two runs' noise is 'changed', one beyond it is called")
    void previousRun() throws IOException {
        Path previous = file("previous.json", run(TurnRecord.Timing.RECORDED, 100, 100).toJson());

        History history = History.against(previous, "previous run", run(TurnRecord.Timing.RECORDED, 102, 300));

        History.Move ttft = move(history, Metric.FIRST_VISIBLE_TTFT);
        assertThat(ttft.after()).isGreaterThan(ttft.before());
        assertThat(ttft.direction()).as("2 ms slower on overlapping samples: noise").isEqualTo("changed");
        assertThat(ttft.describe()).startsWith("changed (no difference beyond noise (Mann-Whitney p ");
        History.Move tokens = move(history, Metric.CHAT_PROMPT_TOKENS_PER_TURN);
        assertThat(tokens.direction()).as("three times the tokens, beyond noise").isEqualTo("worse");
        assertThat(tokens.describe()).isEqualTo("worse");
    }

    @Test
    @DisplayName("a latency model's timing is never called better or worse, however far it moved")
    void modelledTimings() throws IOException {
        Path previous = file("previous.json", run(TurnRecord.Timing.MODELLED, 100, 100).toJson());

        History history = History.against(previous, "previous run", run(TurnRecord.Timing.MODELLED, 900, 100));

        assertThat(move(history, Metric.FIRST_VISIBLE_TTFT).describe()).isEqualTo("changed (a latency model's timing)");
    }

    @Test
    @DisplayName("against a baseline (figures only): counted figures are called, timings are not")
    void baseline() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        ObjectNode figuresOnly = (ObjectNode) json.readTree(run(TurnRecord.Timing.RECORDED, 100, 100).toJson());
        figuresOnly.remove("turns");
        Path baseline = file("baseline.json", json.writeValueAsString(figuresOnly));

        History history = History.against(baseline, "baseline", run(TurnRecord.Timing.RECORDED, 400, 300));

        assertThat(move(history, Metric.FIRST_VISIBLE_TTFT).describe())
                .isEqualTo("changed (no samples in the reference to judge noise by)");
        assertThat(move(history, Metric.CHAT_PROMPT_TOKENS_PER_TURN).direction()).isEqualTo("worse");
    }
}
