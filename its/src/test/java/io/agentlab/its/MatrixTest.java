package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.its.mutation.Catalogue;
import io.agentlab.its.mutation.Matrix;
import io.agentlab.its.mutation.Mutant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The harness reads back the committed doc's catching tests (docs/mutation-matrix.md#time), and every catalogue entry
 * still names one place in its file: a change to mutated code is caught by the module build, not twenty minutes into
 * the matrix.
 */
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

    @Test
    @DisplayName("every mutant's original snippet occurs exactly once in its file (the catalogue has not rotted)")
    void catalogueNamesOnePlaceEach() throws IOException {
        Path root = PublishedModules.root();
        List<Mutant> mutants = Catalogue.read(root.resolve(Catalogue.FILE));
        assertThat(mutants).isNotEmpty();
        for (Mutant mutant : mutants) {
            String source = Files.readString(root.resolve(mutant.file()));
            // apply throws, naming the entry, when the snippet occurs never or twice
            assertThat(mutant.apply(source)).as(mutant.id()).isNotEqualTo(source);
        }
    }
}
