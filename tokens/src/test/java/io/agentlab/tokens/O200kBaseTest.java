package io.agentlab.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The kit's compact {@code o200k_base} counter against jtokkit, the oracle: same count for every text, as ordinary
 * text (docs/performance.md#token-ranks).
 */
class O200kBaseTest {

    private static final Encoding JTOKKIT = Encodings.newDefaultEncodingRegistry()
            .getEncoding(EncodingType.O200K_BASE);

    /**
     * Fragments that exercise each alternative of the pre-tokenising pattern and the merges between them: cased
     * letters and contractions, other scripts and combining marks, digits, punctuation runs, line ends, whitespace
     * runs, emoji (surrogate pairs), a lone surrogate, and the special-token markers.
     */
    private static final List<String> FRAGMENTS = List.of("a", "Pip", "VOLUME", "lauter", "'s", "'LL", "'re", " ",
            "  ", "\t", "\n", "\r\n", "\n\n", "3", "42", "12345", "٣٤", "?", "!!", "...", "/", "{\"", "\":", "},",
            "é", "e\u0301", "straße", "日本語", "음량", "Звук", "صوت", "🙂", "👍🏽", "\ud83d", "<|endoftext|>",
            "<|endofprompt|>", "ﬁ", "Ⅻ", "_", "-", "—", "#", "0x1F", "https://example.org/a?b=c");

    @Test
    @DisplayName("property: any text built from the pattern's edge cases counts as jtokkit counts it")
    void fragmentsAgree() {
        Gen<String> texts = lists().of(integers().between(0, FRAGMENTS.size() - 1)).ofSizeBetween(0, 40)
                .map(picks -> {
                    StringBuilder text = new StringBuilder();
                    picks.forEach(pick -> text.append(FRAGMENTS.get(pick)));
                    return text.toString();
                });
        qt().withExamples(3_000).forAll(texts).checkAssert(text ->
                assertThat(O200kBase.count(text)).as("%s", text).isEqualTo(JTOKKIT.countTokensOrdinary(text)));
    }

    @Test
    @DisplayName("property: any UTF-16 text, unpaired surrogates included, counts as jtokkit counts it")
    void anyTextAgrees() {
        qt().withExamples(2_000).forAll(strings().allPossible().ofLengthBetween(0, 80)).checkAssert(text ->
                assertThat(O200kBase.count(text)).as("%s", text).isEqualTo(JTOKKIT.countTokensOrdinary(text)));
        qt().withExamples(2_000).forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 200)).checkAssert(text ->
                assertThat(O200kBase.count(text)).as("%s", text).isEqualTo(JTOKKIT.countTokensOrdinary(text)));
    }

    @Test
    @DisplayName("property: ASCII text (control characters included) splits and counts as jtokkit's expression does")
    void asciiAgrees() {
        // ASCII text takes the path without the regular expression: every character class and run boundary matters
        Gen<String> ascii = strings().betweenCodePoints(0, 127).ofLengthBetween(0, 60);
        Gen<String> structured = lists().of(integers().between(0, ASCII_FRAGMENTS.size() - 1)).ofSizeBetween(0, 30)
                .map(picks -> {
                    StringBuilder text = new StringBuilder();
                    picks.forEach(pick -> text.append(ASCII_FRAGMENTS.get(pick)));
                    return text.toString();
                });
        qt().withExamples(5_000).forAll(ascii.mix(structured)).checkAssert(text -> {
            assertThat(O200kBase.count(text)).as("%s", text).isEqualTo(JTOKKIT.countTokensOrdinary(text));
            // and the pieces themselves are the expression's, not merely a split that happens to count the same
            List<String> expected = new ArrayList<>();
            Matcher piece = O200kBase.PIECES.matcher(text);
            while (piece.find()) {
                expected.add(piece.group());
            }
            List<String> pieces = new ArrayList<>();
            for (int start = 0; start < text.length(); start = O200kBase.asciiPieceEnd(text, start)) {
                pieces.add(text.substring(start, O200kBase.asciiPieceEnd(text, start)));
            }
            assertThat(pieces).as("pieces of %s", text).isEqualTo(expected);
        });
    }

    /** ASCII runs at every boundary the pattern distinguishes. */
    private static final List<String> ASCII_FRAGMENTS = List.of("a", "ab", "A", "AB", "Ab", "aB", "'", "'s", "'S",
            "'re", "'Ve", "'LL", "'d", "'x", " ", "  ", "\t", "\u000B", "\f", "\r", "\n", "\r\n", " \n ", "1",
            "12", "1234", ".", "..", "/", "}/", "\u0000", "\u001f", "\u007f", "-", "_", "\"", "{", "}]", ",{");

    @Test
    @DisplayName("every text in the repository's docs, suites and recordings counts as jtokkit counts it")
    void repositoryTextsAgree() throws IOException {
        Path root = repositoryRoot();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile)
                    .filter(file -> root.relativize(file).toString().matches("(?!.*(target|node_modules|\\.git)/).*"
                            + "\\.(md|ya?ml|json)"))
                    .toList();
        }
        assertThat(files).as("texts found under %s", root).hasSizeGreaterThan(50);
        long total = 0;
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int expected = JTOKKIT.countTokensOrdinary(text);
            assertThat(O200kBase.count(text)).as("%s", root.relativize(file)).isEqualTo(expected);
            total += expected;
        }
        assertThat(total).isPositive();
    }

    /** The repository's root, found upwards from the working directory (a module's, or the root itself). */
    private static Path repositoryRoot() {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(root.resolve("docs/performance.md"))) {
            root = root.getParent();
            assertThat(root).as("the repository root above the working directory").isNotNull();
        }
        return root;
    }

    @Test
    @DisplayName("long pieces (a hostile run of spaces, letters or digits) count as jtokkit counts them")
    void longPiecesAgree() {
        for (String text : List.of(" ".repeat(20_000), "a".repeat(20_000), "ab".repeat(10_000),
                "x" + " ".repeat(5_000) + "y", "\n".repeat(3_000), "9".repeat(10_001), "🙂".repeat(4_000),
                "!?".repeat(6_000), "Ab".repeat(7_000) + "'s")) {
            assertThat(O200kBase.count(text)).as("%.20s… (%d chars)", text, text.length())
                    .isEqualTo(JTOKKIT.countTokensOrdinary(text));
        }
    }

    @Test
    @DisplayName("the empty text is no tokens; a special-token marker is counted as its characters, not refused")
    void edges() {
        assertThat(O200kBase.count("")).isZero();
        assertThat(O200kBase.count("<|endoftext|>")).isEqualTo(JTOKKIT.countTokensOrdinary("<|endoftext|>"))
                .isGreaterThan(1);
    }
}
