package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.ParityRules;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Mode parity (docs/design.md#modes-parity): the same case must give, turn by turn, the same normalized batch (names,
 * final arguments, statuses, in order), the same continuation policy, the same session state and the same user-visible
 * success or failure in both modes. Visible wording may differ; behaviour may not. Free-text arguments a case declares
 * ({@link ParityRules}) are compared after their normalization, or not at all.
 */
@API(status = INTERNAL, since = "0.1")
public final class Parity {

    private Parity() {
    }

    /** The normalized view of one turn that both modes must agree on, one line per fact. */
    public static List<String> normalize(TurnRun run, ParityRules rules) {
        List<String> lines = new ArrayList<>();
        List<EventResult> results = run.result().batch().map(BatchResult::results).orElse(List.of());
        for (EventResult result : results) {
            Map<String, Object> compared = new LinkedHashMap<>();
            // an ignored argument is left out whole, so one mode having it and the other not is no difference
            result.arguments().forEach((name, value) -> {
                if (!rules.ignored(result.name(), name)) {
                    compared.put(name, rules.compared(result.name(), name, value));
                }
            });
            lines.add("event " + result.orderIndex() + ": " + result.name() + " " + CanonicalJson.write(compared)
                    + " -> " + result.status());
        }
        lines.add("policy: " + run.result().decision().map(ContinuationDecision::kind).orElse("none"));
        lines.add("user-visible outcome: " + (run.result().error().isPresent() ? "error " + run.result().error().get()
                : results.stream().allMatch(r -> "succeeded".equals(r.status()) || "deduplicated".equals(r.status())
                || "replayed".equals(r.status())) ? "success" : "failure"));
        lines.add("session ended: " + run.sessionEnded());
        return lines;
    }

    /** A readable diff when the two runs disagree; empty when they agree. */
    public static Optional<String> diff(CaseRun left, CaseRun right) {
        ParityRules rules = left.testCase().parity();
        StringBuilder diff = new StringBuilder();
        int turns = Math.max(left.turns().size(), right.turns().size());
        for (int i = 0; i < turns; i++) {
            List<String> a = i < left.turns().size() ? normalize(left.turns().get(i), rules)
                    : List.of("(turn did not run)");
            List<String> b = i < right.turns().size() ? normalize(right.turns().get(i), rules)
                    : List.of("(turn did not run)");
            if (a.equals(b)) {
                continue;
            }
            diff.append("turn ").append(i + 1).append(":\n");
            for (int line = 0; line < Math.max(a.size(), b.size()); line++) {
                String x = line < a.size() ? a.get(line) : "";
                String y = line < b.size() ? b.get(line) : "";
                if (x.equals(y)) {
                    diff.append("    ").append(x).append('\n');
                } else {
                    diff.append("  - ").append(left.mode().wireName()).append(": ").append(x).append('\n');
                    diff.append("  + ").append(right.mode().wireName()).append(": ").append(y).append('\n');
                }
            }
        }
        return diff.isEmpty() ? Optional.empty() : Optional.of(diff.toString().stripTrailing());
    }
}
