package io.agentlab.engine.internal.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.internal.yaml.SuiteProblem;
import io.agentlab.engine.internal.yaml.YamlReader;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One mistake in a value that may take several forms is one problem, not the validator's line per form
 * (docs/suite-format.md#alternatives-in-the-schema).
 */
class SchemaAlternativesTest {

    private static final String SUITE = """
            id: s
            title: t
            cases:
              - id: one
                clause: c
                turns:
            """;
    private static final String TURN = "      - user: set the volume to 30\n        reply: {visible: ok}\n";

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("a count that is neither form", TURN + "        expect: {answers: one}\n",
                        "9:27 cases[0].turns[0].expect.answers: string found, integer or object expected"),
                Arguments.of("a count in the object form, one bound wrong",
                        TURN + "        expect: {answers: {atLeast: x}}\n",
                        "9:37 cases[0].turns[0].expect.answers.atLeast: string found, integer expected"),
                Arguments.of("a policy name that is not one", TURN + "        expect: {policy: sometimes}\n",
                        "9:26 cases[0].turns[0].expect.policy: does not have a value in the enumeration "
                                + "[\"end_session\", \"complete\", \"follow_up\", \"none\"]"),
                Arguments.of("a policy of neither form's type", TURN + "        expect: {policy: [end_session]}\n",
                        "9:26 cases[0].turns[0].expect.policy: fits none of the 2 forms it may take (form 1: does not "
                                + "have a value in the enumeration [\"end_session\", \"complete\", \"follow_up\", "
                                + "\"none\"]; form 2: array found, object expected)"),
                Arguments.of("a turn with neither user nor retransmit", "      - reply: {visible: ok}\n",
                        "7:9 cases[0].turns[0]: fits none of the 2 forms it may take (form 1: required property "
                                + "'user' not found; form 2: required property 'retransmit' not found)"));
    }

    /** The schema's problems with {@code text}, which must be YAML a suite reader reads. */
    private static List<SuiteProblem> problems(String text) {
        YamlReader.Result read = YamlReader.read("s.suite.yaml", text);
        assertThat(read.problems()).isEmpty();
        return SuiteSchema.validate("s.suite.yaml", read.document());
    }

    private static String line(SuiteProblem problem) {
        return problem.at() + " " + problem.key() + ": " + problem.message();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void oneProblemPerMistake(String what, String turns, String expected) {
        assertThat(problems(SUITE + turns)).extracting(SchemaAlternativesTest::line).containsExactly(expected);
    }

    @Test
    @DisplayName("the same alternative failed in two places is two problems, each folded where it is")
    void oneSchemaPathTwoValues() {
        String turns = TURN + "        expect: {answers: one}\n" + "      - user: again\n        reply: {visible: ok}\n"
                + "        expect: {policy: sometimes, answers: {atLeast: x}}\n      - reply: {visible: ok}\n"
                + "      - reply: {visible: ok}\n";
        assertThat(problems(SUITE + turns)).extracting(SchemaAlternativesTest::line).containsExactlyInAnyOrder(
                        "9:27 cases[0].turns[0].expect.answers: string found, integer or object expected",
                        "12:26 cases[0].turns[1].expect.policy: does not have a value in the enumeration "
                                + "[\"end_session\", \"complete\", \"follow_up\", \"none\"]",
                        "12:56 cases[0].turns[1].expect.answers.atLeast: string found, integer expected",
                        "13:9 cases[0].turns[2]: fits none of the 2 forms it may take (form 1: required property "
                                + "'user' not found; form 2: required property 'retransmit' not found)",
                        "14:9 cases[0].turns[3]: fits none of the 2 forms it may take (form 1: required property "
                                + "'user' not found; form 2: required property 'retransmit' not found)");
    }

    @Test
    @DisplayName("a value of the type one form takes is judged by that form alone, every problem of it kept")
    void theFormItsTypeFits() {
        // policy's first form is an enum of names, with no type of its own: an object is not one of its values
        String turns = TURN + "        expect: {policy: {follow_up: [x, y], extra: 1}}\n";
        assertThat(problems(SUITE + turns)).extracting(problem -> problem.at() + " " + problem.key())
                .containsExactlyInAnyOrder("9:39 cases[0].turns[0].expect.policy.follow_up[0]",
                        "9:42 cases[0].turns[0].expect.policy.follow_up[1]",
                        "9:46 cases[0].turns[0].expect.policy.extra");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void twoMistakesTwoProblems(String what, String turns, String expected) {
        // a second, unrelated mistake keeps its own line beside the folded one
        assertThat(problems(SUITE.replace("clause: c", "clause: c\n    owner: me") + turns)).hasSize(2)
                .anySatisfy(problem -> assertThat(problem.message()).startsWith("unknown key 'owner'"));
    }
}
