package io.agentlab.plugins.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.agentlab.contracts.AdapterRuleCatalogue;
import io.agentlab.kernel.api.rule.Rule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What a service team sees when its adapter breaks a rule, and the catalogues' documentation kept equal to the code.
 */
class AdapterContractRulesTest {

    @Test
    @DisplayName("a device adapter that applies a repeat twice fails the idempotency rule, naming rule, clause and values")
    void brokenAdapter() {
        var results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(BrokenVolumeAdapterFixture.class))
                .execute();
        results.testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("required_AC-VOL-04_idempotent_when_repeated"),
                        finishedWithFailure(message("required_AC-VOL-04_idempotent_when_repeated "
                                + "(docs/design.md#plugin-volume-port): +10 twice with one key reported level 70; "
                                + "expected 60 (applied once)"))));
        results.testEvents().assertStatistics(stats -> stats.succeeded(3).failed(1));
    }

    @Test
    @DisplayName("an annotation naming another port than the class's type argument is one failure naming both, before "
            + "any adapter is made (it was a ClassCastException in every rule)")
    void mismatchedPort() {
        var results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(MismatchedPortAdapterFixture.class))
                .execute();
        assertThat(results.testEvents().started().count()).isZero();
        results.containerEvents().assertThatEvents().haveExactly(1, finishedWithFailure(message(
                MismatchedPortAdapterFixture.class.getName() + " implements AdapterContractTests<DeviceVolumePort> but "
                        + "is annotated @AdapterContract(CalendarSchedulePort.class): name the port its adapter() "
                        + "implements")));
    }

    @Test
    @DisplayName("docs/adapter-contract.md lists every rule of every catalogue")
    void documented() throws IOException {
        String doc = Files.readString(Path.of("../docs/adapter-contract.md"));
        List<AdapterRuleCatalogue<?>> catalogues = List.of(new CalendarAdapterRules(), new VolumeAdapterRules(),
                new SessionAdapterRules(), new SearchAdapterRules());
        int rules = 0;
        for (AdapterRuleCatalogue<?> catalogue : catalogues) {
            for (AdapterRuleCatalogue.RuleCheck<?> entry : catalogue.rules()) {
                Rule rule = entry.rule();
                rules++;
                assertThat(rule.clause()).startsWith("docs/design.md#");
                String link = "[" + rule.clause() + "](" + rule.clause().substring("docs/".length()) + ")";
                assertThat(doc).contains("| `" + rule.displayName() + "` | " + link + " | " + rule.description() + " |");
            }
        }
        assertThat(doc.lines().filter(l -> l.startsWith("| `required_") || l.startsWith("| `optional_"))).hasSize(rules);
    }
}
