package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.InvocationMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The credential scanner and redactor (docs/limits-and-safety.md#credentials), tested against the shapes real keys
 * have. Every key here is generated at run time from a seeded random source, in the issuer's exact format, so the
 * repository itself holds no key-shaped literal.
 * The clause this checks: {@code docs/design.md#safety-no-credentials}.
 */
class SecretsTest {

    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String HEX = "0123456789abcdef";
    private static final String UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    private static final Random RANDOM = new Random(20261130);

    private static String random(String alphabet, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    /** One example of every key shape the scanner must catch, as the text around it would carry it. */
    static Map<String, String> realShapes() {
        Map<String, String> shapes = new LinkedHashMap<>();
        shapes.put("OpenAI legacy key", "sk-" + random(ALNUM, 48));
        shapes.put("OpenAI project key", "sk-proj-" + random(ALNUM + "_-", 156));
        shapes.put("Anthropic key", "sk-ant-api03-" + random(ALNUM + "_-", 93) + "AA");
        shapes.put("DeepSeek key", "sk-" + random(HEX, 32));
        shapes.put("DashScope key", "sk-" + random(HEX, 32));
        shapes.put("Google API key", "AIza" + random(ALNUM + "_-", 35));
        shapes.put("AWS access key id", "AKIA" + random(UPPER_DIGITS, 16));
        shapes.put("GitHub classic token", "ghp_" + random(ALNUM, 36));
        shapes.put("GitHub fine-grained token", "github_pat_" + random(ALNUM, 22) + "_" + random(ALNUM, 59));
        shapes.put("Slack bot token", "xoxb-" + random("0123456789", 12) + "-" + random("0123456789", 13) + "-"
                + random(ALNUM, 24));
        shapes.put("Hugging Face token", "hf_" + random(ALNUM, 34));
        shapes.put("Stripe secret key", "sk" + "_live_" + random(ALNUM, 24));
        shapes.put("JWT", "eyJ" + random(ALNUM, 20) + ".eyJ" + random(ALNUM, 40) + "." + random(ALNUM + "_-", 43));
        shapes.put("Bearer header", "Authorization: Bearer " + random(ALNUM + "._-", 40));
        shapes.put("Basic header", "Authorization: Basic " + Base64.getEncoder().encodeToString(
                ("user:" + random(ALNUM, 16)).getBytes(StandardCharsets.UTF_8)));
        shapes.put("private key", "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIE" + random(ALNUM, 60));
        shapes.put("api_key in JSON", "{\"api_key\": \"" + random(ALNUM, 10) + "7" + random(ALNUM, 21) + "\"}");
        shapes.put("apiKey in escaped JSON", "\"{\\\"apiKey\\\":\\\"" + random(ALNUM, 10) + "7"
                + random(ALNUM, 21) + "\\\"}\"");
        shapes.put("key in a query string", "/v1/models?key=" + random(ALNUM, 10) + "7" + random(ALNUM, 28)
                + "&alt=sse");
        shapes.put("x-goog-api-key header", "x-goog-api-key: " + random(ALNUM, 10) + "7" + random(ALNUM, 29));
        return shapes;
    }

    @TestFactory
    @DisplayName("every real key shape is found, and redaction leaves none of it")
    Stream<DynamicTest> realKeyShapesFoundAndRedacted() {
        return realShapes().entrySet().stream().map(shape -> DynamicTest.dynamicTest(shape.getKey(), () -> {
            String text = "some text before " + shape.getValue() + " and after";
            assertThat(Secrets.scan(text)).as("findings in %s", shape.getKey()).isNotEmpty();
            String redacted = Secrets.redact(text, List.of());
            assertThat(Secrets.scan(redacted)).isEmpty();
            assertThat(redacted).contains(Secrets.REDACTED).startsWith("some text before ").endsWith(" and after");
        }));
    }

    @Test
    @DisplayName("a known secret is removed in every encoding it could be echoed in, however short its shape")
    void knownSecretsInEveryEncoding() {
        String secret = "pw/" + random(ALNUM, 6) + "\"x";
        String text = "plain " + secret + " json \"" + secret.replace("\"", "\\\"").replace("/", "\\/")
                + "\" url " + java.net.URLEncoder.encode(secret, StandardCharsets.UTF_8);
        String redacted = Secrets.redact(text, List.of(secret));
        assertThat(redacted).doesNotContain(secret).doesNotContain(secret.substring(3, 9))
                .isEqualTo("plain [REDACTED] json \"[REDACTED]\" url [REDACTED]");
    }

    @Test
    @DisplayName("ordinary recording text has no finding: ids, fingerprints, token counts, the word key")
    void noFalsePositives() {
        String text = Recordings.write(RecordingsTest.synthesized(ProviderFamily.OPENAI, InvocationMode.DUAL_AGENT))
                + "{\"id\":\"chatcmpl-9x8y7z6w5v4u3t2s1r0q\",\"system_fingerprint\":\"fp_44709d6fcb\","
                + "\"usage\":{\"prompt_tokens\":1234,\"max_tokens\":4096},\"key\":\"lamp\",\"monkey\":\"a1b2c3d4e5f6g7h8\","
                + "\"idempotency_key\":\"s1/t1/e1/device.volume.adjust/3f9a\",\"text\":\"the key is under the mat\","
                + "\"case\":\"ask-for-the-weather-in-paris-tomorrow\"}";
        assertThat(Secrets.scan(text)).isEmpty();
    }

    @Test
    @DisplayName("no recording shipped anywhere in the repository contains anything that looks like a credential")
    void repositoryRecordingsAreClean() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> leaks = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(SecretsTest::shippedRecording).toList()) {
                scanned++;
                for (Secrets.Finding finding : Secrets.scan(Files.readString(file))) {
                    leaks.add(root.relativize(file) + " @" + finding.offset() + ": " + finding.kind() + " "
                            + finding.masked());
                }
            }
        }
        assertThat(scanned).as("recordings scanned (a scan of nothing proves nothing)").isGreaterThanOrEqualTo(20);
        assertThat(leaks).as("recordings containing something that looks like a credential").isEmpty();
    }

    private static boolean shippedRecording(Path file) {
        String path = file.toString().replace('\\', '/');
        return path.endsWith(".json") && path.contains("/recordings/") && !path.contains("/target/")
                && !path.contains("/.git/") && !path.contains("/node_modules/");
    }
}
