package io.agentlab.engine.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.ConflictKeys;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A probe's conflict keys naming an argument are read from the event's final arguments. */
class ProbeEventsTest {

    @Test
    @DisplayName("{argument} in a conflict key is the argument's value; a key naming an absent argument is not held")
    void keysFromArguments() {
        ConflictKeys keys = ProbeEvents.conflictKeys(List.of("device:{device}", "room:{room}/{device}", "global"));
        assertThat(keys.keysFor(Map.of("device", "kitchen", "room", 2)))
                .containsExactlyInAnyOrder("device:kitchen", "room:2/kitchen", "global");
        assertThat(keys.keysFor(Map.of("device", "hall"))).containsExactlyInAnyOrder("device:hall", "global");
        assertThat(keys.keysFor(Map.of())).containsExactly("global");
        assertThat(ProbeEvents.conflictKeys(List.of("lamp")).keysFor(Map.of("device", "x"))).containsExactly("lamp");
    }
}
