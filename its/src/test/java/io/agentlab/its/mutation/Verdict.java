package io.agentlab.its.mutation;

import java.util.List;

/** What the shipped suites made of one mutant (docs/mutation-matrix.md#how-it-runs). */
public sealed interface Verdict {

    /** The word the matrix shows: caught, survived or equivalent. */
    String status();

    /** The tests that failed against the mutant, twice (a first run and a confirming rerun). */
    record Caught(List<String> tests) implements Verdict {
        public Caught {
            tests = List.copyOf(tests);
        }

        @Override
        public String status() {
            return "caught";
        }
    }

    /**
     * The suites never finished against the mutant within the run's bound (a hung batch): CI would go red, so the
     * suites caught it, though no single case is named.
     */
    record Hung(long seconds) implements Verdict {
        @Override
        public String status() {
            return "caught";
        }
    }

    /** The run against the mutant ended without a verdict per test (discovery or the engine failed): red all the same. */
    record Broke(int exitCode) implements Verdict {
        @Override
        public String status() {
            return "caught";
        }
    }

    /** Every test passed (or failed once and passed on the confirming rerun, listed as noise). */
    record Survived(List<String> noise) implements Verdict {
        public Survived {
            noise = List.copyOf(noise);
        }

        @Override
        public String status() {
            return "survived";
        }
    }

    /** Whether the suites caught the mutant. */
    default boolean caught() {
        return !(this instanceof Survived);
    }
}
