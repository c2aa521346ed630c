package io.agentlab.kernel.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RuleTest {

    private static final Rule PC_02 = Rule.required("PC-02", "catalog_description_within_budget",
            "docs/design.md#plugin-catalog-budget", "The catalog line costs at most the budget.");

    @Test
    @DisplayName("a rule's display name and failure say its level, id, name and clause, as the TCK names its rules")
    void names() {
        assertThat(PC_02.displayName()).isEqualTo("required_PC-02_catalog_description_within_budget");
        assertThat(PC_02.required()).isTrue();
        assertThat(PC_02.failureMessage("over the budget")).isEqualTo("required_PC-02_catalog_description_within_budget"
                + " (docs/design.md#plugin-catalog-budget): over the budget");
        Rule optional = Rule.optional("AC-CAL-05", "outage_is_transient_failure", "docs/design.md#plugin-catalog-budget", "Outage.");
        assertThat(optional.displayName()).isEqualTo("optional_AC-CAL-05_outage_is_transient_failure");
        assertThat(optional.level()).isEqualTo(Rule.Level.OPTIONAL);
    }

    @Test
    @DisplayName("a catalogue keeps its order and rejects a second rule with one id, naming it")
    void catalogue() {
        Rule other = Rule.optional("PC-03", "x", "docs/design.md#plugin-catalog-budget", "X.");
        assertThat(Rule.catalogue(List.of(PC_02, other))).containsExactly(PC_02, other);
        assertThatThrownBy(() -> Rule.catalogue(List.of(PC_02, other, new Rule("PC-02", "y", Rule.Level.REQUIRED,
                "docs/design.md#plugin-catalog-budget", "Y.")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two rules of one catalogue have the id PC-02");
        assertThatThrownBy(() -> Rule.required(" ", "x", "c", "d")).isInstanceOf(IllegalArgumentException.class);
    }
}
