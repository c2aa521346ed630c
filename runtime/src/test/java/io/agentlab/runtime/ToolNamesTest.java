package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.reference.RegistrationException;
import io.agentlab.runtime.protocol.ToolNames;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ToolNamesTest {

    /** The clause this checks: {@code docs/design.md#modes-tool-name-alias}. */
    @Test
    @DisplayName("namespaced names map to provider-safe aliases and back; either form is accepted")
    void aliases() {
        ToolNames names = ToolNames.of(List.of("lamp.power.toggle", "note.text.create"));
        assertThat(names.alias("lamp.power.toggle")).isEqualTo("lamp_power_toggle").matches(ToolNames.PROVIDER_SAFE);
        assertThat(names.eventName("lamp_power_toggle")).isEqualTo("lamp.power.toggle");
        assertThat(names.eventName("lamp.power.toggle")).isEqualTo("lamp.power.toggle");
        assertThat(names.eventName("unknown_tool")).isEqualTo("unknown_tool");
    }

    /** The clause this checks: {@code docs/design.md#modes-tool-name-alias}. */
    @Test
    @DisplayName("two names that would share an alias are refused at registration")
    void collision() {
        assertThatThrownBy(() -> ToolNames.of(List.of("a.b_c", "a_b.c")))
                .isInstanceOf(RegistrationException.class)
                .hasMessageContaining("'a.b_c'").hasMessageContaining("'a_b.c'").hasMessageContaining("a_b_c");
    }

    @Test
    @DisplayName("a name longer than providers accept is refused")
    void tooLong() {
        assertThatThrownBy(() -> ToolNames.of(List.of("a." + "b".repeat(70))))
                .isInstanceOf(RegistrationException.class).hasMessageContaining("provider-safe");
    }
}
