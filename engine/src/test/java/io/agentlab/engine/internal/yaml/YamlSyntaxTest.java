package io.agentlab.engine.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A YAML syntax error is one line at the mistake, saying what the parser found there, not only what it was reading
 * (docs/suite-format.md#yaml-syntax).
 */
class YamlSyntaxTest {

    private static final String HEAD = "id: s\ntitle: t\ncases:\n";

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("a flow mapping never closed",
                        HEAD + "  - id: one\n    clause: c\n    turns:\n      - {user: hi, reply: {visible: ok}\n"
                                + "      - user: x\n",
                        "8:7", "invalid YAML: expected ',' or '}', but got - (while parsing a flow mapping begun at 7:9)"),
                Arguments.of("a key indented one space less",
                        HEAD + "  - id: one\n   clause: c\n    turns: []\n",
                        "5:4", "invalid YAML: expected <block end>, but found '<block mapping start>' (while parsing a "
                                + "block collection begun at 4:3)"),
                Arguments.of("a tab for indentation", HEAD + "\t- id: one\n",
                        "4:1", "invalid YAML: found character '\\t(TAB)' that cannot start any token. (Do not use "
                                + "\\t(TAB) for indentation)"),
                Arguments.of("a flow sequence never closed", "id: [unclosed\ntitle: x\n",
                        "2:6", "invalid YAML: expected ',' or ']', but got : (while parsing a flow sequence begun at 1:5)"),
                // the reader refuses it by its offset alone; the lines before it end each way YAML allows, and a
                // character outside the BMP before it on its line counts as one column, as the parser's marks count
                Arguments.of("a control character", "id: s\r\ntitle: t\rcases:\n  - id: \uD83D\uDE00o\u0007ne\n",
                        "4:11", "invalid YAML: special characters are not allowed (U+0007; YAML allows printable "
                                + "characters, tabs and line breaks only)"),
                // a byte-order mark (Notepad's UTF-8) takes no column in the parser's marks, nor here
                Arguments.of("a control character after a byte-order mark", "\uFEFFid: s\u0007\n", "1:6",
                        "invalid YAML: special characters are not allowed (U+0007; YAML allows printable "
                                + "characters, tabs and line breaks only)"));
    }

    @Test
    @DisplayName("a character outside the BMP where the parser's 1,024-character reads end is read, not an "
            + "IndexOutOfBoundsException (snakeyaml-engine extends a read ending on a high surrogate past its buffer)")
    void surrogatePairAtTheReadBoundary() {
        String head = "id: s\ntitle: \"";
        for (int at = 1018; at <= 1030; at++) {
            String title = "a".repeat(at - head.length()) + "\uD83D\uDE00";
            YamlReader.Result read = YamlReader.read("s.suite.yaml", head + title + "\"\n");
            assertThat(read.problems()).as("pair at %d", at).isEmpty();
            assertThat(((YamlNode.Mapping) read.document()).get("title").plain()).as("pair at %d", at)
                    .isEqualTo(title);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void oneLineAtTheMistake(String what, String text, String at, String message) {
        assertThat(YamlReader.read("s.suite.yaml", text).problems()).singleElement().satisfies(problem -> {
            assertThat(problem.at()).hasToString(at);
            assertThat(problem.message()).isEqualTo(message);
        });
    }
}
