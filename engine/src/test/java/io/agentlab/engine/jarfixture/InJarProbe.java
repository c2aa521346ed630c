package io.agentlab.engine.jarfixture;

import org.junit.jupiter.api.Test;

/**
 * A Jupiter test that {@code SelectionTest} packs into a jar beside suites, to prove Jupiter still discovers it after
 * the conformance engine scanned that jar (issue 29: a leaked jar file system hid it). Not named like a test class, so
 * Surefire does not run it on its own.
 */
public class InJarProbe {

    @Test
    void found() {
    }
}
