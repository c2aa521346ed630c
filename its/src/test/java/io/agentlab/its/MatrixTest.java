package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.its.mutation.Matrix;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The harness reads back the committed doc's catching tests (docs/mutation-matrix.md#time). */
class MatrixTest {

    @Test
    @DisplayName("the catching tests of caught rows are read back, survivors and hangs name none")
    void catchers() {
        String doc = "intro | `not-a-row` | x | y | caught | `a/b [dual_agent]` |\n" + Matrix.BEGIN + "\n"
                + "| `one` | batch-order | [batch-input-order](design.md#batch-input-order) | caught | `s/x [dual_agent]`, `s/y [parity]` and 2 more |\n"
                + "| `two` | usage | [batch-input-order](design.md#batch-input-order) | survived | – |\n"
                + "| `three` | usage | [batch-input-order](design.md#batch-input-order) | caught | the run never finished (killed after 300 s) |\n"
                + "| `four` | usage | [batch-input-order](design.md#batch-input-order) | equivalent | – |\n" + Matrix.END + "\n";
        Map<String, List<String>> catchers = Matrix.catchers(doc);
        assertThat(catchers).containsOnlyKeys("one");
        assertThat(catchers.get("one")).containsExactly("s/x [dual_agent]", "s/y [parity]");
        assertThat(Matrix.caseOf("s/x [dual_agent]")).isEqualTo("s/x");
    }
}
