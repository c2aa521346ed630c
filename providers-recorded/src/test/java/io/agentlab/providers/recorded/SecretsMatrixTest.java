package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.providers.recorded.KeyShapes.Encoding;
import io.agentlab.providers.recorded.KeyShapes.Family;
import io.agentlab.providers.recorded.KeyShapes.Sample;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The redaction matrix (docs/limits-and-safety.md#credentials): every key family × every encoding a body can carry it
 * in. Each cell embeds a generated key in ordinary provider output and asserts that the key cannot be read back out
 * of the result in any decoding (checked by {@link KeyShapes#survives}, a decoder independent of {@link Secrets}),
 * that the text around it — outside the encoding and, decoded, inside it — is unchanged, and that the result scans
 * clean.
 */
class SecretsMatrixTest {

    /** Ordinary provider output around every cell: none of it may change. */
    static final String BEFORE = "data: {\"id\":\"chatcmpl-9x8y7z6w5v4u3t2s1r0q\",\"object\":\"chat.completion.chunk\","
            + "\"system_fingerprint\":\"fp_44709d6fcb\",\"note\":\"task-force 550e8400-e29b-41d4-a716-446655440000 ";
    static final String AFTER = " done\",\"choices\":[{\"delta\":{\"content\":\"turn the lamp on\"}}]}";

    @TestFactory
    @DisplayName("matrix: every key family in every encoding is removed, and nothing around it changes")
    Stream<DynamicContainer> matrix() {
        Random random = new Random(20261201);
        return KeyShapes.FAMILIES.stream().map(family -> DynamicContainer.dynamicContainer(family.name(),
                Stream.of(Encoding.values()).map(encoding -> {
                    Sample sample = family.sample(random);
                    String encoded = encoding.encode(sample.fragment(), random);
                    return DynamicTest.dynamicTest(family.name() + " × " + encoding,
                            () -> assertCell(sample, encoding, encoded));
                })));
    }

    static void assertCell(Sample sample, Encoding encoding, String encoded) {
        String text = BEFORE + encoded + AFTER;
        for (String secret : sample.vanish()) {
            assertThat(KeyShapes.survives(text, secret)).as("the cell really carries the key (%s)", secret).isTrue();
        }
        assertThat(Secrets.scan(text)).as("found before redaction").isNotEmpty();

        String redacted = Secrets.redact(text, List.of());

        for (String secret : sample.vanish()) {
            assertThat(KeyShapes.survives(redacted, secret)).as("%s survives in %s", secret, redacted).isFalse();
        }
        assertThat(Secrets.scan(redacted)).as("scan of the result").isEmpty();
        assertThat(redacted).as("the text around the encoding").startsWith(BEFORE + encoding.glue()).endsWith(AFTER);
        // inside the encoding, decoded: the context (field name, header) and the text around the key survive
        String expected = sample.before() + Secrets.REDACTED + sample.after();
        assertThat(KeyShapes.decodings(redacted)).as("decodings of %s", redacted)
                .anySatisfy(view -> assertThat(view).contains(encoding.base64() && encoding != Encoding.DATA_URL
                        ? "echo: " + expected + " end" : expected));
    }

    @Test
    @DisplayName("the matrix's check can fail: the old redactor's output of a URL-encoded, a \\u-escaped and a glued "
            + "key is caught as a leak")
    void oldRedactorLeaksAndTheCheckSeesIt() {
        Random random = new Random(7);
        Family openAi = KeyShapes.FAMILIES.get(0);
        Sample sample = openAi.sample(random);
        String key = sample.value();
        String percent = BEFORE + KeyShapes.percentAll(key) + AFTER;
        String escaped = BEFORE + KeyShapes.uEscaped(key, random, 1.0) + AFTER;
        String glued = BEFORE + "x" + key + AFTER;
        for (String text : List.of(percent, escaped, glued)) {
            assertThat(KeyShapes.survives(oldRedact(text, List.of()), key)).as("old redactor on %s", text).isTrue();
            assertThat(KeyShapes.survives(Secrets.redact(text, List.of()), key)).isFalse();
        }
        // and the old way with a short credential shredded ordinary text, which the new one refuses instead
        String chunk = "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}";
        assertThat(oldRedact(chunk, List.of("chat", "delta"))).contains("[REDACTED].completion.chunk");
        assertThatThrownBy(() -> Secrets.redact(chunk, List.of("chat"))).isInstanceOf(ShortCredentialException.class);
    }

    @Test
    @DisplayName("the same value in several encodings in one text: every occurrence goes, once found in any")
    void oneValueFoundOnceRemovedEverywhere() {
        Random random = new Random(11);
        String key = KeyShapes.FAMILIES.get(14).sample(random).value(); // GitHub classic token
        String text = BEFORE + key + " " + URLEncoder.encode(key, StandardCharsets.UTF_8) + " "
                + KeyShapes.percentAll(key) + " " + KeyShapes.uEscaped(key, random, 0.5) + " "
                + Base64.getEncoder().encodeToString(("token " + key).getBytes(StandardCharsets.UTF_8)) + AFTER;
        String redacted = Secrets.redact(text, List.of());
        assertThat(KeyShapes.survives(redacted, key)).isFalse();
        assertThat(redacted).startsWith(BEFORE).endsWith(AFTER);
    }

    @Test
    @DisplayName("a value only a key-named field identifies is removed where it appears without its name too")
    void valueFoundByNameRemovedElsewhere() {
        String secret = "Q7" + KeyShapes.random(new Random(3), KeyShapes.ALNUM, 30);
        String inner = Base64.getEncoder().encodeToString(("{\"client_secret\":\"" + secret + "\"}")
                .getBytes(StandardCharsets.UTF_8));
        String text = BEFORE + "body " + inner + " and later, bare: " + secret + AFTER;
        String redacted = Secrets.redact(text, List.of());
        assertThat(KeyShapes.survives(redacted, secret)).as(redacted).isFalse();
        assertThat(redacted).contains("and later, bare: " + Secrets.REDACTED);
    }

    /** The redactor as it was before issue 26: plain replace of known values, patterns on the plain text only. */
    static String oldRedact(String text, List<String> known) {
        String result = text;
        for (String value : known) {
            if (value.strip().length() >= 4) {
                result = result.replace(value, Secrets.REDACTED)
                        .replace(URLEncoder.encode(value, StandardCharsets.UTF_8), Secrets.REDACTED);
            }
        }
        return result.replaceAll("(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}", Secrets.REDACTED);
    }
}
