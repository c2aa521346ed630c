package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import io.agentlab.runtime.protocol.HiddenEventBlockParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The dual_agent hidden event block: never visible, under any chunking. */
class HiddenEventBlockParserTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.parser-examples", 10_000);
    private static final String M = HiddenEventBlockParser.MARKER;

    record Parsed(String visible, List<String> names, List<String> deltas) {
    }

    static Parsed parse(String stream, List<Integer> cuts) {
        HiddenEventBlockParser parser = new HiddenEventBlockParser();
        StringBuilder visible = new StringBuilder();
        List<String> deltas = new ArrayList<>();
        int from = 0;
        for (int cut : cuts) {
            int to = Math.max(from, Math.min(stream.length(), cut));
            String out = parser.accept(stream.substring(from, to));
            deltas.add(out);
            visible.append(out);
            from = to;
        }
        String out = parser.accept(stream.substring(from));
        deltas.add(out);
        visible.append(out);
        String rest = parser.finish();
        deltas.add(rest);
        visible.append(rest);
        return new Parsed(visible.toString(), parser.eventNames(), deltas);
    }

    @Test
    @DisplayName("visible reply, then the block: names in order, whitespace and bullets tolerated")
    void basic() {
        Parsed parsed = parse("Sure, done!\n" + M + "\n - lamp.power.toggle,\n  note.text.create ;  lamp_power_toggle\n",
                List.of(3, 9, 14, 15, 20));
        assertThat(parsed.visible()).isEqualTo("Sure, done!\n");
        assertThat(parsed.names()).containsExactly("lamp.power.toggle", "note.text.create", "lamp_power_toggle");
    }

    @Test
    @DisplayName("text that only looks like the start of the marker is released at the end")
    void falseStart() {
        Parsed parsed = parse("Use [[brackets]] and [[EVENT please", List.of(5, 6, 30));
        assertThat(parsed.visible()).isEqualTo("Use [[brackets]] and [[EVENT please");
        assertThat(parsed.names()).isEmpty();
    }

    /** The clause this checks: {@code docs/design.md#modes-hidden-block-never-visible}. */
    @Test
    @DisplayName("at most marker-length - 1 characters are held back at any point")
    void holdsBackLittle() {
        HiddenEventBlockParser parser = new HiddenEventBlockParser();
        StringBuilder seen = new StringBuilder();
        String text = "Hello there, how are you [[EVEN";
        for (int i = 0; i < text.length(); i++) {
            seen.append(parser.accept(String.valueOf(text.charAt(i))));
            assertThat(i + 1 - seen.length()).isLessThanOrEqualTo(M.length() - 1);
        }
    }

    /** The clause this checks: {@code docs/design.md#modes-hidden-block-never-visible}. */
    @Test
    @DisplayName("property: for every chunking, the visible text and names are the same and no block text leaks")
    void chunkingInvariant() {
        List<String> words = List.of("hello", " ", "world", ",", "[", "[[", "]]", "EVENTS", "\n", "好的", "🙂", "E", "[[E");
        var visibleGen = lists().of(integers().between(0, words.size() - 1).map(words::get)).ofSizeBetween(0, 12)
                .map(parts -> withoutMarker(String.join("", parts)));
        var namesGen = lists().of(strings().basicLatinAlphabet().ofLengthBetween(1, 8)
                .map(s -> "ev." + s.replaceAll("[^a-z]", "x").toLowerCase())).ofSizeBetween(0, 4);
        var cutsGen = lists().of(integers().between(0, 120)).ofSizeBetween(0, 20)
                .map(cuts -> cuts.stream().sorted().toList());
        qt().withExamples(EXAMPLES).forAll(visibleGen, namesGen, cutsGen, integers().between(0, 1)).checkAssert(
                (visible, names, cuts, withBlock) -> {
                    String block = withBlock == 1 ? "\n" + M + " " + String.join(",\n", names) : "";
                    Parsed whole = parse(visible + block, List.of());
                    Parsed chunked = parse(visible + block, cuts);
                    assertThat(chunked.visible()).isEqualTo(whole.visible());
                    assertThat(chunked.names()).isEqualTo(whole.names());
                    String expectedVisible = withBlock == 1 ? visible + "\n" : visible;
                    assertThat(chunked.visible()).isEqualTo(expectedVisible);
                    if (withBlock == 1) {
                        assertThat(chunked.names()).isEqualTo(names);
                        for (String delta : chunked.deltas()) {
                            assertThat(delta).doesNotContain(M).doesNotContain("ev.");
                        }
                    }
                });
    }

    @Test
    @DisplayName("fuzz: arbitrary text under arbitrary chunking never throws and shows exactly what precedes the marker")
    void fuzz() {
        List<String> fragments = List.of("[", "]", "[[", "]]", "[[EV", "ENTS]]", "EVENTS", "E", "\n", " ", ",", "-",
                "a.b", "好", "🙂", "\u0000", "\r\n", M, "x");
        var textGen = lists().of(integers().between(0, fragments.size() - 1).map(fragments::get)).ofSizeBetween(0, 40)
                .map(parts -> String.join("", parts));
        var cutsGen = lists().of(integers().between(0, 200)).ofSizeBetween(0, 30)
                .map(cuts -> cuts.stream().sorted().toList());
        qt().withExamples(EXAMPLES).forAll(textGen, cutsGen).checkAssert((text, cuts) -> {
            Parsed parsed = parse(text, cuts);
            int marker = text.indexOf(M);
            assertThat(parsed.visible()).isEqualTo(marker < 0 ? text : text.substring(0, marker));
            for (String delta : parsed.deltas()) {
                assertThat(delta).doesNotContain(M);
            }
        });
    }

    /** Visible text never holds the marker: removing one can join its neighbours into another ("[[" + M + "EVENTS]]"). */
    private static String withoutMarker(String text) {
        String visible = text;
        while (visible.contains(M)) {
            visible = visible.replace(M, "");
        }
        return visible;
    }
}
