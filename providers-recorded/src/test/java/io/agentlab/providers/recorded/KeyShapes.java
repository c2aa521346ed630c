package io.agentlab.providers.recorded;

import io.agentlab.runtime.llm.Json;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Generated key shapes of every family {@link Secrets} covers, the encodings a body can carry them in, and an
 * independent decoder that says whether a secret survives in any of them (docs/limits-and-safety.md#credentials).
 * Every key is random characters in its issuer's documented format, made at run time: the repository holds no
 * key-shaped literal, and none of them is a real key.
 */
final class KeyShapes {

    static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    static final String DIGITS = "0123456789";
    static final String ALNUM = UPPER + LOWER + DIGITS;
    static final String HEX = "0123456789abcdef";
    static final String BASE32 = UPPER + "234567";
    static final String BASE64_CHARS = ALNUM + "+/";

    private KeyShapes() {
    }

    /**
     * A credential as text carries it: {@code before + value + after}, where {@code before}/{@code after} are context
     * that must survive (a field name, a header name) and {@code vanish} are the strings that must not survive in any
     * encoding.
     */
    record Sample(String family, String before, String value, String after, List<String> vanish) {
        String fragment() {
            return before + value + after;
        }
    }

    /** A key family: its name and how to make one sample of it. */
    record Family(String name, Function<Random, Sample> make) {
        Sample sample(Random random) {
            return make.apply(random);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static String random(Random random, String alphabet, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private static Family key(String name, Function<Random, String> make) {
        return new Family(name, random -> {
            String key = make.apply(random);
            return new Sample(name, "", key, "", List.of(key));
        });
    }

    private static String b64url(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The families, in the formats their issuers document. */
    static final List<Family> FAMILIES = List.of(
            key("OpenAI legacy key", r -> "sk-" + random(r, ALNUM, 48)),
            key("OpenAI project key", r -> "sk-proj-" + random(r, ALNUM + "_-", 156)),
            key("OpenAI service account key", r -> "sk-svcacct-" + random(r, ALNUM + "_-", 156)),
            key("OpenAI admin key", r -> "sk-admin-" + random(r, ALNUM + "_-", 120)),
            key("Anthropic key", r -> "sk-ant-api03-" + random(r, ALNUM + "_-", 93) + "AA"),
            key("DeepSeek / DashScope key", r -> "sk-" + random(r, HEX, 32)),
            key("Google API key", r -> "AIza" + random(r, ALNUM + "_-", 35)),
            key("Google OAuth token", r -> "ya29." + random(r, ALNUM + "_-", 120)),
            key("AWS access key id", r -> "AKIA" + random(r, BASE32, 16)),
            key("AWS temporary key id", r -> "ASIA" + random(r, BASE32, 16)),
            new Family("AWS secret access key", r -> {
                String secret = random(r, ALNUM + "/+", 40);
                return new Sample("AWS secret access key", "aws_secret_access_key=", secret, "", List.of(secret));
            }),
            new Family("Azure storage key", r -> {
                String key = Base64.getEncoder().encodeToString(random(r, ALNUM, 64).getBytes(StandardCharsets.UTF_8));
                return new Sample("Azure storage key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=",
                        key, ";EndpointSuffix=core.windows.net", List.of(key));
            }),
            new Family("Azure SAS signature", r -> {
                byte[] mac = new byte[32];
                r.nextBytes(mac);
                String sig = Base64.getEncoder().encodeToString(mac);
                return new Sample("Azure SAS signature", "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02"
                        + "&sr=b&sp=r&sig=", URLEncoder.encode(sig, StandardCharsets.UTF_8), "&se=2030-01-01",
                        List.of(sig));
            }),
            new Family("Azure OpenAI key", r -> {
                String key = random(r, HEX, 32);
                return new Sample("Azure OpenAI key", "api-key: ", key, "", List.of(key));
            }),
            key("GitHub classic token", r -> "ghp_" + random(r, ALNUM, 36)),
            key("GitHub OAuth token", r -> "gho_" + random(r, ALNUM, 36)),
            key("GitHub user-to-server token", r -> "ghu_" + random(r, ALNUM, 36)),
            key("GitHub server-to-server token", r -> "ghs_" + random(r, ALNUM, 36)),
            key("GitHub refresh token", r -> "ghr_" + random(r, ALNUM, 76)),
            key("GitHub fine-grained token", r -> "github_pat_" + random(r, ALNUM, 22) + "_" + random(r, ALNUM, 59)),
            key("Slack bot token", r -> "xoxb-" + random(r, DIGITS, 12) + "-" + random(r, DIGITS, 13) + "-"
                    + random(r, ALNUM, 24)),
            key("Slack user token", r -> "xoxp-" + random(r, DIGITS, 12) + "-" + random(r, DIGITS, 13) + "-"
                    + random(r, DIGITS, 13) + "-" + random(r, HEX, 32)),
            key("Slack app token", r -> "xapp-1-A" + random(r, UPPER + DIGITS, 10) + "-" + random(r, DIGITS, 13)
                    + "-" + random(r, HEX, 64)),
            key("Hugging Face token", r -> "hf_" + random(r, UPPER + LOWER, 34)),
            key("Stripe secret key", r -> "sk" + "_live_" + random(r, ALNUM, 24)),
            key("Stripe restricted key", r -> "rk" + "_live_" + random(r, ALNUM, 24)),
            key("JWT", r -> b64url("{\"alg\":\"HS256\",\"typ\":\"JWT\"}") + "." + b64url("{\"sub\":\""
                    + random(r, ALNUM, 12) + "\",\"iat\":" + (1_700_000_000 + r.nextInt(1_000_000)) + "}") + "."
                    + random(r, ALNUM + "_-", 43)),
            new Family("private key", r -> {
                List<String> lines = List.of(random(r, BASE64_CHARS, 64), random(r, BASE64_CHARS, 64),
                        random(r, BASE64_CHARS, 40));
                String block = "-----BEGIN " + "RSA PRIVATE KEY-----\n" + String.join("\n", lines)
                        + "\n-----END RSA PRIVATE KEY-----";
                return new Sample("private key", "", block, "", lines);
            }),
            new Family("Bearer token", r -> {
                String token = random(r, ALNUM, 20) + random(r, DIGITS, 1) + random(r, ALNUM + "._-", 19);
                return new Sample("Bearer token", "Authorization: Bearer ", token, "", List.of(token));
            }),
            new Family("Basic credentials", r -> {
                String password = random(r, ALNUM, 20);
                String pair = Base64.getEncoder().encodeToString(("user:" + password).getBytes(StandardCharsets.UTF_8));
                return new Sample("Basic credentials", "Authorization: Basic ", pair, "", List.of(pair, password));
            }));

    /** The encodings a body can carry a key in. */
    enum Encoding {
        PLAIN("plain"),
        URL_ENCODED("URL-encoded"),
        PERCENT_ALL("percent-encoded (every character, %2D)"),
        JSON_ESCAPED("JSON-escaped (\\/)"),
        U_ESCAPED("\\u-escaped"),
        U_ESCAPED_PARTLY("partly \\u-escaped"),
        URL_IN_JSON("URL-encoded, then \\u-escaped"),
        BASE64("base64"),
        BASE64_URL("base64url"),
        DATA_URL("data URL"),
        GLUED_LETTER("glued (x…)"),
        GLUED_WORD("glued (key…)"),
        GLUED_EQUALS("glued (=…)");

        final String label;

        Encoding(String label) {
            this.label = label;
        }

        /** What the encoding glues before the fragment (the part of the output that must survive as is). */
        String glue() {
            return switch (this) {
                case GLUED_LETTER -> "x";
                case GLUED_WORD -> "key";
                case GLUED_EQUALS -> "=";
                default -> "";
            };
        }

        boolean base64() {
            return this == BASE64 || this == BASE64_URL || this == DATA_URL;
        }

        String encode(String fragment, Random random) {
            return switch (this) {
                case PLAIN -> fragment;
                case URL_ENCODED -> URLEncoder.encode(fragment, StandardCharsets.UTF_8);
                case PERCENT_ALL -> percentAll(fragment);
                case JSON_ESCAPED -> jsonEscaped(fragment);
                case U_ESCAPED -> uEscaped(fragment, random, 1.0);
                case U_ESCAPED_PARTLY -> uEscaped(fragment, random, 0.4);
                case URL_IN_JSON -> uEscaped(URLEncoder.encode(fragment, StandardCharsets.UTF_8), random, 0.5);
                case BASE64 -> Base64.getEncoder().encodeToString(("echo: " + fragment + " end")
                        .getBytes(StandardCharsets.UTF_8));
                case BASE64_URL -> Base64.getUrlEncoder().withoutPadding().encodeToString(("echo: " + fragment
                        + " end").getBytes(StandardCharsets.UTF_8));
                case DATA_URL -> "data:text/plain;base64," + Base64.getEncoder().encodeToString(
                        fragment.getBytes(StandardCharsets.UTF_8));
                case GLUED_LETTER, GLUED_WORD, GLUED_EQUALS -> glue() + fragment;
            };
        }

        @Override
        public String toString() {
            return label;
        }
    }

    static String percentAll(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
        }
        return out.toString();
    }

    /** As a JSON encoder that also escapes '/' writes a string's content (PHP's json_encode does). */
    static String jsonEscaped(String text) {
        String quoted = Json.write(text);
        return quoted.substring(1, quoted.length() - 1).replace("/", "\\/");
    }

    static String uEscaped(String text, Random random, double share) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (random.nextDouble() < share) {
                out.append(String.format(Locale.ROOT, random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
            } else if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    // ---- the independent decoder: how a reader (a replay, a person) could get a secret back out of a text ----

    private static final Pattern UNICODE = Pattern.compile("\\\\u([0-9a-fA-F]{4})");
    private static final Pattern PERCENT = Pattern.compile("%([0-9a-fA-F]{2})");
    private static final List<Pattern> BASE64_RUNS = List.of(Pattern.compile("[A-Za-z0-9+/]{12,}={0,2}"),
            Pattern.compile("[A-Za-z0-9_-]{12,}={0,2}"));

    /** The text, and everything it decodes to in up to three rounds of JSON, URL and base64 decoding. */
    static Set<String> decodings(String text) {
        Set<String> all = new LinkedHashSet<>();
        all.add(text);
        List<String> frontier = List.of(text);
        for (int round = 0; round < 3 && all.size() < 4_000; round++) {
            List<String> next = new ArrayList<>();
            for (String s : frontier) {
                List<String> decoded = new ArrayList<>(List.of(json(s), url(s, false), url(s, true)));
                for (Pattern runs : BASE64_RUNS) {
                    Matcher run = runs.matcher(s);
                    while (run.find()) {
                        for (int skip = 0; skip < 4; skip++) {
                            decoded.add(base64(run.group().substring(Math.min(skip, run.group().length()))));
                        }
                    }
                }
                for (String d : decoded) {
                    if (d != null && all.add(d)) {
                        next.add(d);
                    }
                }
            }
            frontier = next;
        }
        return all;
    }

    /** Whether {@code secret} can be read back out of {@code text} in any decoding. */
    static boolean survives(String text, String secret) {
        return decodings(text).stream().anyMatch(view -> view.contains(secret));
    }

    private static String json(String s) {
        String t = UNICODE.matcher(s).replaceAll(m -> Matcher.quoteReplacement(String.valueOf(
                (char) Integer.parseInt(m.group(1), 16))));
        t = t.replace("\\/", "/").replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\");
        return t;
    }

    private static String url(String s, boolean plusIsSpace) {
        String t = PERCENT.matcher(s).replaceAll(m -> Matcher.quoteReplacement(String.valueOf(
                (char) Integer.parseInt(m.group(1), 16))));
        return plusIsSpace ? t.replace('+', ' ') : t;
    }

    private static String base64(String run) {
        String body = run.replace("=", "");
        boolean url = body.indexOf('-') >= 0 || body.indexOf('_') >= 0;
        if (body.length() % 4 == 1) {
            body = body.substring(0, body.length() - 1);
        }
        try {
            return new String((url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(body),
                    StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
