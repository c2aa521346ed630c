package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import io.agentlab.providers.recorded.KeyShapes.Encoding;
import io.agentlab.providers.recorded.KeyShapes.Sample;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Properties of redaction (docs/limits-and-safety.md#credentials) over generated text: a generated key of any family,
 * in any encoding, at any position, never survives; text without keys is never changed; a known credential goes and
 * nothing else does. QuickTheories prints the seed of a failure; {@code -Dagentlab-build.properties.seed=N} replays it, and
 * {@code agentlab-build.properties.examples} sets the example count (default 400).
 */
class SecretsPropertiesTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.examples", 400);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");

    /** Pieces of ordinary provider output: none of them is, or may be taken for, a credential. */
    private static final List<String> ORDINARY = List.of("data: ", "{\"id\":\"chatcmpl-9x8y7z6w5v4u3t2s1r0q\",",
            "\"object\":\"chat.completion.chunk\",", "\"system_fingerprint\":\"fp_44709d6fcb\"", "task-force",
            "550e8400-e29b-41d4-a716-446655440000", "\"delta\":{\"content\":\"", "turn the lamp on", "\"}}]}", "\n\n",
            "[DONE]", "the key is under the mat", "monkey", "caf\\u00e9", "https://example.org/a%2Fb?q=lamp%20on",
            Base64.getEncoder().encodeToString("turn the volume down to ten".getBytes(StandardCharsets.UTF_8)),
            "data:text/plain;base64," + Base64.getEncoder().encodeToString("hello there".getBytes(
                    StandardCharsets.UTF_8)), "\"usage\":{\"prompt_tokens\":1234,\"completion_tokens\":56}", " ", ", ",
            "Bearer authentication", "basic understanding", "desk-admin-panel-configuration", "EURASIA", "日本語 🙂");

    private static org.quicktheories.QuickTheory theory() {
        org.quicktheories.QuickTheory theory = qt().withExamples(EXAMPLES);
        return SEED == null ? theory : theory.withFixedSeed(SEED);
    }

    /**
     * Ordinary pieces and random printable characters (backslashes, percent signs and quotes included), mixed. Pieces
     * are separated by a space: glued together, "Bearer authentication" and "550e8400…" would make a Bearer
     * credential, which is rightly found.
     */
    static Gen<String> ordinaryText() {
        Gen<String> pieces = lists().of(integers().between(0, ORDINARY.size() - 1)).ofSizeBetween(0, 12)
                .map(picks -> {
                    StringBuilder text = new StringBuilder();
                    picks.forEach(pick -> text.append(ORDINARY.get(pick)).append(' '));
                    return text.toString();
                });
        Gen<String> noise = strings().basicLatinAlphabet().ofLengthBetween(0, 120);
        return pieces.mix(noise).mix(pieces.zip(noise, (a, b) -> a + " " + b));
    }

    @Test
    @DisplayName("property: a generated key of any family, in any encoding, at any position, never survives")
    void embeddedKeyNeverSurvives() {
        theory().forAll(ordinaryText(), integers().between(0, KeyShapes.FAMILIES.size() - 1),
                integers().between(0, Encoding.values().length - 1), longs().all()).checkAssert(
                (text, family, encoding, seed) -> {
                    Random random = new Random(seed);
                    Sample sample = KeyShapes.FAMILIES.get(family).sample(random);
                    String encoded = Encoding.values()[encoding].encode(sample.fragment(), random);
                    int at = boundary(text, random);
                    String withKey = text.substring(0, at) + encoded + text.substring(at);
                    String redacted = Secrets.redact(withKey, List.of());
                    for (String secret : sample.vanish()) {
                        assertThat(KeyShapes.survives(redacted, secret))
                                .as("%s × %s in %s -> %s", sample.family(), Encoding.values()[encoding], withKey,
                                        redacted).isFalse();
                    }
                });
    }

    /**
     * Where a key may go: the start, the end, or after a space, never inside an escape of the text around it (a real
     * body escapes whole characters, so "\\u00e" + "api-key" cannot occur, and it would turn the key's name into
     * "pi-key"; the property found exactly that with seed -26578068).
     */
    private static int boundary(String text, Random random) {
        List<Integer> boundaries = new java.util.ArrayList<>(List.of(0, text.length()));
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i - 1) == ' ') {
                boundaries.add(i);
            }
        }
        return boundaries.get(random.nextInt(boundaries.size()));
    }

    @Test
    @DisplayName("property: text without keys is never changed, and scans clean")
    void textWithoutKeysUnchanged() {
        theory().forAll(ordinaryText()).checkAssert(text -> {
            assertThat(Secrets.redact(text, List.of())).isEqualTo(text);
            assertThat(Secrets.scan(text)).isEmpty();
        });
    }

    @Test
    @DisplayName("property: a known credential between two texts goes, and both texts stay as they were")
    void knownCredentialGoesAndNothingElse() {
        theory().forAll(ordinaryText(), ordinaryText(), longs().all()).checkAssert((before, after, seed) -> {
            // floorMod, not abs: Math.abs(Long.MIN_VALUE) is negative, which made an 8-character credential (seed
            // 60253120645197), one the redactor rightly refuses as too short
            String credential = KeyShapes.random(new Random(seed), KeyShapes.ALNUM + "._~", 16 + (int) Math.floorMod(
                    seed, 24L));
            String text = before + " " + credential + " " + after;
            assertThat(Secrets.redact(text, List.of(credential)))
                    .isEqualTo(before + " " + Secrets.REDACTED + " " + after);
        });
    }
}
