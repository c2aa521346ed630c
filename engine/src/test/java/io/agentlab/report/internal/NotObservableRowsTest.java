package io.agentlab.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.report.RunMetadata;
import io.agentlab.report.metrics.Metric;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Over the wire, the console's mode table says a measure the wire cannot take is not observable, rather than give it
 * the "no verdict" of a measure that had nothing to count (docs/wire.md#measures).
 */
class NotObservableRowsTest {

    private static String table(String subject) {
        RunMetadata meta = new RunMetadata(Instant.EPOCH, Instant.EPOCH.plusSeconds(1), "0.1-test", Optional.empty(),
                "recorded", 0, List.of("dual_agent", "chat_agent_tools"), List.of("m"), "a kernel", "a machine",
                "whole suites", subject, Map.of());
        return ConsoleReport.table(new RunReport(meta, List.of(), List.of(), List.of(), List.of(), List.of(), Map.of(),
                List.of()));
    }

    private static List<String> rows(String table, Metric metric) {
        return table.lines().filter(line -> line.startsWith(metric.label().substring(0, Math.min(20, metric.label().length())))).toList();
    }

    @Test
    @DisplayName("over the wire, ChatAgent call TTFT and the argument validity rows say 'not observable over the wire'")
    void overTheWire() {
        String table = table("over the wire: http://127.0.0.1:{port} (started: python3 r.py)");
        for (Metric metric : List.of(Metric.CHAT_CALL_TTFT, Metric.VALID_BEFORE_NORMALIZATION,
                Metric.VALID_AFTER_NORMALIZATION, Metric.ARGUMENT_ACCURACY_BEFORE)) {
            assertThat(rows(table, metric)).as(metric.key()).hasSize(1).first().asString()
                    .endsWith("not observable over the wire");
        }
        assertThat(rows(table, Metric.FIRST_VISIBLE_TTFT)).first().asString().endsWith("no verdict");
    }

    @Test
    @DisplayName("in-process the same rows keep their verdicts")
    void inProcess() {
        assertThat(table(RunMetadata.inProcess("a kernel"))).doesNotContain("not observable");
    }
}
