package io.agentlab.kernel.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The README's demo prints real kernel output. */
class KernelDemoTest {

    @Test
    @DisplayName("the demo runs three batches and prints each result and decision")
    void demoOutput() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        KernelDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);

        assertThat(out).contains("== turn t1 (dual_agent)", "decision: end_session",
                "confirmation [e2]: Noted: \"buy milk\".", "deduplicated", "of e1",
                "no event named 'demo.teleport.start'");
        assertThat(out).contains("== turn t1 again", "replayed");
        assertThat(out).contains("== turn t2 (chat_agent_tools)", "follow-up reasons: [SYNTHESIS, CORRECTION]",
                "/state");
        assertThat(out).contains("weather handler calls (one transient failure retried once): 4");
    }
}
