package io.agentlab.kernel.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The README's turn demo runs one real turn per mode over local HTTP. */
class TurnDemoTest {

    @Test
    @DisplayName("both modes: the same visible answers, events, results and decision; the hidden block never shows")
    void bothModes() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TurnDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), 0);
        String out = bytes.toString(StandardCharsets.UTF_8);
        String[] modes = out.split("== chat_agent_tools");
        assertThat(modes).hasSize(2);
        for (String mode : modes) {
            assertThat(mode).contains("demo.lamp.switch {\"state\":\"on\"} → succeeded (deterministic)",
                    "demo.note.create {\"text\":\"buy milk\"} → succeeded", "demo.weather.lookup {\"city\":\"Shanghai\"}",
                    "decision: follow_up", "Update: it's sunny in Shanghai, 21 degrees.", "calls={CHAT=1, FOLLOW_UP=1}")
                    .doesNotContain("[[EVENTS]]");
        }
    }

    @Test
    @DisplayName("the demo leaves no non-daemon thread behind, so its JVM exits as soon as it has printed")
    void leavesNoThreadThatKeepsTheJvmAlive() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        TurnDemo.run(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8), 0);
        List<String> left = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> !before.contains(thread) && thread.isAlive() && !thread.isDaemon())
                .map(Thread::getName).toList();
        assertThat(left).as("non-daemon threads started by the demo and still alive").isEmpty();
    }
}
