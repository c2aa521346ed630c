package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    @DisplayName("a known secret is removed in every encoding it could be echoed in, whatever its shape")
    void knownSecretsInEveryEncoding() {
        String secret = "pw/" + random(ALNUM, 14) + "\"x";
        String text = "plain " + secret + " json \"" + secret.replace("\"", "\\\"").replace("/", "\\/")
                + "\" url " + java.net.URLEncoder.encode(secret, StandardCharsets.UTF_8) + " escaped \""
                + KeyShapes.uEscaped(secret, RANDOM, 0.5) + "\"";
        String redacted = Secrets.redact(text, List.of(secret));
        assertThat(redacted).doesNotContain(secret).doesNotContain(secret.substring(3, 12))
                .isEqualTo("plain [REDACTED] json \"[REDACTED]\" url [REDACTED] escaped \"[REDACTED]\"");
    }

    @Test
    @DisplayName("a known credential is replaced only as a whole token: the ordinary words around it stay")
    void knownCredentialOnlyAsWholeToken() {
        String credential = "chat" + random(ALNUM, 16);
        String chunk = "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"you sent "
                + credential + "\"}}]}";
        assertThat(Secrets.redact(chunk, List.of(credential))).isEqualTo(chunk.replace(credential, Secrets.REDACTED))
                .contains("\"object\":\"chat.completion.chunk\"");
    }

    @Test
    @DisplayName("a known credential glued inside a longer token is refused, not half-replaced or left")
    void gluedKnownCredentialRefused() {
        String credential = random(ALNUM, 24);
        String text = "{\"note\":\"prefix" + credential + "suffix\"}";
        assertThatThrownBy(() -> Secrets.redact(text, List.of(credential)))
                .isInstanceOf(UnredactableSecretException.class)
                .hasMessageContaining("known credential " + credential.substring(0, 4) + "****")
                .hasMessageNotContaining(credential)
                .satisfies(e -> assertThat(((UnredactableSecretException) e).findings()).isNotEmpty());
        assertThat(Secrets.scan(text, List.of(credential))).singleElement()
                .satisfies(finding -> assertThat(finding.offset()).isEqualTo(text.indexOf(credential)));
    }

    @Test
    @DisplayName("a short credential is refused with its source and the bound, and never matched as a substring")
    void shortCredentialRefused() {
        String chunk = "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}";
        assertThatThrownBy(() -> Secrets.redact(chunk, List.of("delta"))).isInstanceOf(ShortCredentialException.class);
        List<Secrets.Credential> credentials = Secrets.ofHeader("x-api-key", "chat");
        assertThat(credentials).containsExactly(new Secrets.Credential("the x-api-key header", "chat"));
        assertThatThrownBy(() -> Secrets.requireRedactable(credentials))
                .isInstanceOfSatisfying(ShortCredentialException.class, e -> {
                    assertThat(e.source()).isEqualTo("the x-api-key header");
                    assertThat(e.length()).isEqualTo(4);
                })
                .hasMessage("the x-api-key header carries a credential of 4 characters; credentials shorter than 16 "
                        + "characters are refused, because they cannot be told apart from ordinary text "
                        + "(docs/limits-and-safety.md#credentials)")
                .hasMessageNotContaining("chat");
        Secrets.requireRedactable(Secrets.ofHeader("Authorization", "Bearer " + random(ALNUM, 16))); // 16 is enough
        assertThatThrownBy(() -> Secrets.requireRedactable(Secrets.ofHeader("Authorization", "Bearer delta")))
                .hasMessageStartingWith("the Authorization header (Bearer token) carries a credential of 5 characters");
    }

    @Test
    @DisplayName("credentials a request carries: the token after a scheme, a Basic password, cookies, key-named "
            + "query parameters and JSON fields; blank ones and other headers carry none")
    void credentialsCollected() {
        String password = random(ALNUM, 20);
        String basic = Base64.getEncoder().encodeToString(("me:" + password).getBytes(StandardCharsets.UTF_8));
        assertThat(Secrets.ofHeader("Proxy-Authorization", "Basic " + basic)).extracting(Secrets.Credential::value)
                .containsExactly(password, "me:" + password, basic);
        assertThat(Secrets.ofHeader("Cookie", "a=" + password + "; b=x")).extracting(Secrets.Credential::source)
                .containsExactly("the Cookie header (cookie a)", "the Cookie header (cookie b)");
        assertThat(Secrets.ofHeader("Authorization", "  ")).isEmpty();
        assertThat(Secrets.ofHeader("Content-Type", "application/json")).isEmpty();
        assertThat(Secrets.ofHeader("Proxy-Connection", "keep-alive")).isEmpty();
        assertThat(Secrets.ofQuery("api-version=1&key=" + password + "%2F&alt=sse"))
                .extracting(Secrets.Credential::source, Secrets.Credential::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("the query parameter key", password + "/"),
                        org.assertj.core.groups.Tuple.tuple("the query parameter key (as sent)", password + "%2F"));
        assertThat(Secrets.ofJsonBody("{\"model\":\"m\",\"max_tokens\":5,\"extra\":{\"apiKey\":\"" + password
                + "\",\"key\":\"\"}}")).containsExactly(new Secrets.Credential("the JSON field apiKey", password));
        assertThat(new Secrets.Credential("s", password).toString()).doesNotContain(password);
    }

    @Test
    @DisplayName("ordinary provider output survives redaction untouched: ids, fingerprints, UUIDs, prose, base64 of text")
    void ordinaryOutputUntouched() {
        String prose = "the task-force met; desk-admin-panel-configuration-page, Bearer authentication, basic "
                + "understanding, EURASIA, shelf_ThisIsAVeryLongCamelCaseName, xoxo-hugs-and-kisses";
        String text = "data: {\"id\":\"chatcmpl-9x8y7z6w5v4u3t2s1r0q\",\"object\":\"chat.completion.chunk\","
                + "\"created\":1764547200,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_44709d6fcb\","
                + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + prose + "\"},\"finish_reason\":null}],"
                + "\"request_id\":\"550e8400-e29b-41d4-a716-446655440000\",\"sha\":\"" + random(HEX, 40) + "\","
                + "\"b64\":\"" + Base64.getEncoder().encodeToString(prose.getBytes(StandardCharsets.UTF_8)) + "\","
                + "\"url\":\"https://example.org/a%2Fb?q=lamp%20on&page=2\",\"escaped\":\"caf\\u00e9 \\/ \\n\","
                + "\"data_url\":\"data:text/plain;base64," + Base64.getEncoder().encodeToString(
                "turn the lamp on, please".getBytes(StandardCharsets.UTF_8)) + "\"}";
        assertThat(Secrets.scan(text)).isEmpty();
        assertThat(Secrets.redact(text, List.of())).isEqualTo(text);
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
        assertThat(Secrets.redact(text, List.of())).isEqualTo(text);
    }

    @Test
    @DisplayName("a key streamed a few characters per event is found across the events; ordinary streams are clean")
    void keySplitAcrossStreamEvents() {
        String key = "ghp_" + random(ALNUM, 36);
        List<String> payloads = new ArrayList<>();
        for (int at = 0; at < key.length(); at += 7) {
            payloads.add("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"content\":\"" + key.substring(at, Math.min(key.length(), at + 7)) + "\"}}]}");
        }
        payloads.add("[DONE]");
        payloads.forEach(payload -> assertThat(Secrets.scan(payload)).as("no single event shows it").isEmpty());
        assertThat(Secrets.scanStream(payloads, List.of())).singleElement().satisfies(finding -> {
            assertThat(finding.kind()).isEqualTo("GitHub token, across stream events in choices[0].delta.content");
            assertThat(finding.offset()).isZero();
            assertThat(finding.masked()).startsWith("ghp_").doesNotContain(key.substring(4, 8));
        });
        String known = random(ALNUM, 20);
        List<String> echoed = List.of("{\"choices\":[{\"delta\":{\"content\":\"you sent " + known.substring(0, 9)
                + "\"}}]}", "{\"choices\":[{\"delta\":{\"content\":\"" + known.substring(9) + "\"}}]}");
        assertThat(Secrets.scanStream(echoed, List.of(known))).extracting(Secrets.Finding::offset).containsExactly(0);
        List<String> ordinary = RecordingsTest.synthesized(ProviderFamily.OPENAI, InvocationMode.DUAL_AGENT).response()
                .events().stream().map(Recording.TimedEvent::data).toList();
        assertThat(Secrets.scanStream(ordinary, List.of())).isEmpty();
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
                String text = Files.readString(file);
                List<Secrets.Finding> findings = new ArrayList<>(Secrets.scan(text));
                try {
                    findings.addAll(Secrets.scanStream(Recordings.parse(text, file.toString()).response().events()
                            .stream().map(Recording.TimedEvent::data).toList(), List.of()));
                } catch (RuntimeException notARecording) {
                    // a recordings/ JSON file of another format: its text scan above still holds
                }
                for (Secrets.Finding finding : findings) {
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
