package io.agentlab.engine.expect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.engine.internal.suite.ParityRules;
import io.agentlab.engine.internal.suite.ProviderFault;
import io.agentlab.engine.internal.suite.SuiteSchema;
import io.agentlab.engine.internal.yaml.Node;
import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.Problems;
import io.agentlab.engine.internal.yaml.SuiteProblem;
import io.agentlab.engine.internal.yaml.YamlReader;
import io.agentlab.runtime.llm.CallRole;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The expectation model: one list of kinds that the schema and the reference follow, builders that refuse what does
 * not fit, and reading that reports a wrong type instead of casting.
 */
class ExpectationKindsTest {

    private static List<String> keys() {
        return ExpectationKinds.ALL.stream().map(ExpectationKind::key).toList();
    }

    @Test
    @DisplayName("the schema's expect block has exactly the listed kinds, and the reference documents each")
    void oneListOfKinds() throws IOException {
        JsonNode schema = JsonMapper.builder().build().readTree(SuiteSchema.text());
        assertThat(schema.path("$defs").path("expect").path("properties").propertyNames())
                .containsExactlyInAnyOrderElementsOf(keys());
        String reference = Files.readString(Path.of("../docs/suite-format.md"));
        assertThat(keys()).allSatisfy(key -> assertThat(reference).as("docs/suite-format.md").contains("`" + key + "`"));
        assertThat(Set.copyOf(keys())).as("no key twice").hasSameSizeAs(keys());
    }

    @Test
    @DisplayName("an expected event's builder refuses parts that do not fit together, naming them")
    void eventBuilder() {
        EventsExpectation.EventExpectation ok = EventsExpectation.EventExpectation.named("a.b").status("rejected")
                .reason("unknown_event").validAsProposed(false).build();
        assertThat(ok.reason()).contains("unknown_event");
        assertThatThrownBy(() -> EventsExpectation.EventExpectation.named(" ").build())
                .hasMessage("an expected event needs a name");
        assertThatThrownBy(() -> EventsExpectation.EventExpectation.named("a.b").exactArguments().build())
                .hasMessage("match: exact needs arguments to compare");
        assertThatThrownBy(() -> EventsExpectation.EventExpectation.named("a.b").status("done").build())
                .hasMessageStartingWith("unknown status 'done'");
        assertThatThrownBy(() -> EventsExpectation.EventExpectation.named("a.b").reason("x").build())
                .hasMessageStartingWith("a reason needs status rejected");
        assertThatThrownBy(() -> EventsExpectation.EventExpectation.named("a.b").status("timed_out").reason("soon")
                .build()).hasMessage("a timeout's reason is one of [batch, event], not 'soon'");
        assertThat(EventsExpectation.EventExpectation.named("a.b").status("failed").reason("device_offline").build()
                .reason()).contains("device_offline");
    }

    @Test
    @DisplayName("counts, alternatives, faults, parity rules and expectation sets validate when they are built")
    void otherBuilders() {
        assertThat(Count.exactly(2).describe()).isEqualTo("2");
        assertThat(Count.atMost(2).describe()).isEqualTo("at most 2");
        assertThat(Count.atLeast(1).describe()).isEqualTo("at least 1");
        assertThat(new Count(1, Optional.of(3)).describe()).isEqualTo("1 to 3");
        assertThat(Count.atMost(2).allows(3)).isFalse();
        assertThatThrownBy(() -> new Count(3, Optional.of(2))).hasMessage("atLeast 3 is more than atMost 2");

        Expectations policy = Expectations.builder().add(new PolicyExpectation("complete", Position.UNKNOWN)).build();
        assertThatThrownBy(() -> new AnyOfExpectation(List.of(policy), Position.UNKNOWN))
                .hasMessage("anyOf needs at least two alternatives, was 1");
        assertThatThrownBy(() -> new AnyOfExpectation(List.of(policy, Expectations.none()), Position.UNKNOWN))
                .hasMessage("an alternative of anyOf expects nothing, so it always holds");
        assertThatThrownBy(() -> Expectations.builder().add(new PolicyExpectation("complete", Position.UNKNOWN))
                .add(new PolicyExpectation("none", Position.UNKNOWN)).build())
                .hasMessage("expectation 'policy' is given twice");

        assertThat(ProviderFault.on(CallRole.FOLLOW_UP).index(2).http(500, Map.of()).build().describeCall())
                .isEqualTo("followUp call 2");
        assertThatThrownBy(() -> ProviderFault.on(CallRole.CHAT).build()).hasMessageContaining("none given");
        assertThatThrownBy(() -> ProviderFault.on(CallRole.CHAT).resetAfter(1).stallAfter(1).build())
                .hasMessageContaining("2 given");
        assertThatThrownBy(() -> ProviderFault.on(CallRole.EVENT_AGENT).invalidToolArguments(1, "{").build())
                .hasMessageContaining("invalidToolArguments breaks the tool calls of the chat call");
        assertThatThrownBy(() -> ProviderFault.on(CallRole.CHAT).index(0).resetAfter(0).build())
                .hasMessage("calls are counted from 1, was 0");

        ParityRules rules = ParityRules.builder().ignore("a.b", "query")
                .normalize("a.b", "title", ParityRules.Normalization.LOWERCASE, ParityRules.Normalization.PUNCTUATION,
                        ParityRules.Normalization.WHITESPACE).build();
        assertThat(rules.compared("a.b", "title", "  Call   Grandma! ")).isEqualTo("call grandma");
        assertThat(rules.ignored("a.b", "query")).isTrue();
        assertThat(rules.ignored("a.b", "title")).isFalse();
        assertThat(rules.compared("a.b", "time", "09:00")).isEqualTo("09:00");
        assertThat(rules.compared("c.d", "title", "Call")).isEqualTo("Call");
        assertThatThrownBy(() -> ParityRules.builder().ignore("a.b", "x").normalize("a.b", "x",
                ParityRules.Normalization.LOWERCASE).build()).hasMessage("a.b.x has two rules");
    }

    @Test
    @DisplayName("reading never casts on faith: a wrong type is a problem at its position, the rest still read")
    void typedReading() {
        // no schema here: the reader alone must cope with what the schema would have refused
        YamlReader.Result yaml = YamlReader.read("t.yaml", """
                answers: two
                calls: {chat: [1], dinner: 1}
                sessionEnded: true
                history: {added: [{role: robot}]}
                """);
        Problems problems = new Problems("t.yaml");
        Expectations expectations = ExpectationKinds.read(new Node(yaml.document(), "expect", problems),
                new ExpectationReading() {
                    @Override
                    public void checkEvent(Position at, String path, String name) {
                    }

                    @Override
                    public Optional<Set<String>> argumentNames(String event) {
                        return Optional.empty();
                    }

                    @Override
                    public Expectations block(Node node) {
                        return ExpectationKinds.read(node, this);
                    }
                });
        assertThat(problems.list()).extracting(SuiteProblem::toString).containsExactlyInAnyOrder(
                "t.yaml:1:10: expect.answers: expected a whole number, found the string \"two\"",
                "t.yaml:2:15: expect.calls.chat: expected a whole number, found a sequence",
                "t.yaml:2:20: expect.calls.dinner: unknown call role 'dinner'; expected chat, eventAgent or followUp",
                "t.yaml:4:19: expect.history.added[0]: a history message's role is user or assistant, not 'robot'");
        assertThat(expectations.find(SessionEndedExpectation.class)).get()
                .satisfies(e -> assertThat(e.at()).isEqualTo(new Position(3, 1)));
    }
}
