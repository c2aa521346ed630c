package io.agentlab.cli;

import static io.agentlab.cli.Run.run;
import static io.agentlab.cli.Run.suites;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The generated sweep of docs/cli.md#accepted-values: for every checked option, values outside what it accepts
 * (numbers out of range or too long for any type, fractions, text with a letter in it, blank values, line breaks and
 * other control characters, URLs of another scheme or without a host) are each exit 2 in exactly one line on stderr
 * naming the option, the value and what is allowed, before anything starts. The command around each value is valid
 * (for {@code run}, {@code validate} and {@code check-stream} {@link #neighboursPass} runs it with a good value), so a
 * bad value let through shows as another exit code, another message or, for {@code record}, a proxy left waiting
 * (the time bound). The folder and file options are not swept; {@link BadValuesTest} has their cases. QuickTheories prints the seed of a failure;
 * {@code -Dagentlab-build.properties.seed=N} replays it and {@code agentlab-build.properties.examples} sets the count
 * per option (default 100).
 */
class BadValuesPropertiesTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.examples", 100);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");
    /** Long enough for a parse error on a loaded machine; far shorter than a proxy left waiting for a request. */
    private static final Duration QUICK = Duration.ofSeconds(10);
    /**
     * Shrinking stops after this many tries: a value let through into {@code record} costs {@link #QUICK} a try, and
     * the failure should be reported in minutes, not hours.
     */
    private static final int SHRINK_CYCLES = 10;
    private static final String WHOLE = "expected a whole number";

    @TempDir
    static Path temp;
    private static Path stream;

    /**
     * One checked option: the valid command line around it, what its message says is allowed, a good value and a
     * generator of bad ones.
     */
    private record Checked(String option, List<String> around, String allowed, String good, Gen<String> bad) {

        String command() {
            return around.get(0);
        }

        List<String> with(String value) {
            List<String> args = new ArrayList<>(around);
            args.add(1, option + "=" + value); // the = form hands even "-1" or "" to the option, as typed
            return args;
        }
    }

    @BeforeAll
    static void aValidStream() throws IOException {
        stream = Files.writeString(temp.resolve("ok.sse"), "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\","
                + "\"runId\":\"r\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
    }

    static Stream<Named<Checked>> options() {
        List<String> validate = List.of("validate", "--suites", suites("passing"));
        List<String> live = List.of("validate", "--provider", "live", "--suites", suites("passing"));
        List<String> evaluate = List.of("run", "--evaluate", "--speed", "0", "--suites", suites("passing"), "--report",
                temp.resolve("report").toString());
        String out = temp.resolve("recordings").toString();
        List<String> record = List.of("record", "--upstream", "http://127.0.0.1:9/v1", "--out", out);
        List<String> check = List.of("check-stream", stream.toString());
        return Stream.of(
                new Checked("--speed", validate, "expected a number from 0 to 10", "2.5", speeds()),
                whole("--parallel", validate, 1, Values.MAX_PARALLEL, "", "8"),
                new Checked("--live-base-url", live, "http or https URL with a host", "http://127.0.0.1:9/v1", urls()),
                new Checked("--runtime", validate, "http or https URL with a host on loopback",
                        "http://127.0.0.1:{port}", oneOf(List.of(urls(), elsewhere()))),
                new Checked("--runtime-command", validate, "with every quote closed", "python3 \"my runtime.py\"",
                        unclosed()),
                whole("--repetitions", evaluate, 1, Values.MAX_REPETITIONS, "", "1"),
                new Checked("--upstream", List.of("record", "--out", out), "http or https URL with a host", null,
                        urls()),
                whole("--port", record, 1, 65535, "", null),
                whole("--requests", record, 1, Integer.MAX_VALUE, "", null),
                whole("--timeout", check, 1, Values.MAX_TIMEOUT_SECONDS, "seconds", "5"),
                whole("--max-frame-bytes", check, 1, Integer.MAX_VALUE, "", "4096"),
                whole("--max-events", check, 1, Long.MAX_VALUE, "", "10"))
                .map(checked -> Named.of(checked.command() + " " + checked.option(), checked));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    @DisplayName("property: a generated bad value is exit 2 in one line naming the option, the value and the bound")
    void badValueIsOneLine(Checked checked) {
        theory().forAll(checked.bad()).checkAssert(value -> {
            Run run = assertTimeoutPreemptively(QUICK, () -> run(checked.with(value).toArray(String[]::new)),
                    () -> checked.option() + "=" + value + " was let through: the command started");
            assertThat(run.code()).as("%s=%s: %s", checked.option(), value, run.err()).isEqualTo(AgentLab.USAGE);
            String line = run.err().lines().collect(Collectors.joining("\n"));
            assertThat(line).as("%s=%s", checked.option(), value).doesNotContain("\n", "\r")
                    .startsWith("agentlab " + checked.command() + ": ")
                    .contains("'" + checked.option() + "'", checked.allowed())
                    .doesNotContain("Exception", "please report", "\tat ");
            if (value.codePoints().noneMatch(Character::isISOControl)) {
                assertThat(line).contains("got '" + value + "'");
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("options")
    @DisplayName("the command around each bad value is valid: with a good value it passes (record would wait)")
    void neighboursPass(Checked checked) {
        if (checked.good() == null) {
            return; // record starts its proxy and waits for clients; BadValuesTest starts it for real
        }
        Run run = assertTimeoutPreemptively(Duration.ofMinutes(2),
                () -> run(checked.with(checked.good()).toArray(String[]::new)));
        assertThat(run.code()).as("%s=%s: %s%s", checked.option(), checked.good(), run.out(), run.err()).isZero();
    }

    @Test
    @DisplayName("a value holding a line break stays on one line, the break written as \\n")
    void lineBreakEscaped() {
        Run run = run("validate", "--speed", "1\n2", "--suites", suites("passing"));
        assertThat(run.err()).isEqualTo("agentlab validate: Invalid value for option '--speed': expected a number from "
                + "0 to 10 (recorded offsets times speed: 1.0 faithful, 0 as fast as possible, 2 twice as slow), got "
                + "'1\\n2' (see agentlab validate --help)" + System.lineSeparator());
    }

    private static org.quicktheories.QuickTheory theory() {
        org.quicktheories.QuickTheory theory = qt().withExamples(EXAMPLES).withShrinkCycles(SHRINK_CYCLES);
        return SEED == null ? theory : theory.withFixedSeed(SEED);
    }

    /** A whole-number option from {@code min} to {@code max}. */
    private static Checked whole(String option, List<String> around, long min, long max, String unit, String good) {
        String allowed = WHOLE + (unit.isEmpty() ? "" : " of " + unit) + " from " + min + " to " + max;
        List<Gen<String>> bad = new ArrayList<>(List.of(longs().between(Long.MIN_VALUE, min - 1).assuming(n -> n < min)
                .map(n -> Long.toString(n)),
                tooLong(), longs().between(min, Math.min(max, 1_000_000)).map(n -> n + ".5"),
                longs().between(min, Math.min(max, 1_000_000)).map(n -> n + "e3"), withALetter(), blank(),
                longs().between(min, Math.min(max, 1_000_000)).map(n -> n + "\n" + n)));
        if (max < Long.MAX_VALUE) {
            bad.add(longs().between(max + 1, Long.MAX_VALUE).assuming(n -> n > max).map(n -> Long.toString(n)));
        }
        return new Checked(option, around, allowed, good, oneOf(bad));
    }

    /**
     * Replay speeds: below 0, above 10 (1e9 among them), NaN, infinities, fractions with a letter, blank. The numeric
     * ones are {@code assuming} their range again: QuickTheories shrinks a double towards 0.0, a good speed.
     */
    private static Gen<String> speeds() {
        return oneOf(List.of(doubles().between(-Double.MAX_VALUE, -Double.MIN_VALUE).assuming(d -> d < 0)
                        .map(d -> Double.toString(d)),
                doubles().between(Math.nextUp(Values.MAX_SPEED), Double.MAX_VALUE)
                        .assuming(d -> d > Values.MAX_SPEED).map(d -> Double.toString(d)),
                integers().between(2, 308).map(exponent -> "1e" + exponent),
                Generate.pick(List.of("NaN", "Infinity", "-Infinity", "1,5", "fast", "1.0.0")), withALetter(), blank(),
                doubles().between(0, Values.MAX_SPEED).map(speed -> speed + "\t" + speed)));
    }

    /** Not an http or https URL with a host: another scheme, no host, or no scheme at all. */
    private static Gen<String> urls() {
        Gen<String> path = strings().basicLatinAlphabet().ofLengthBetween(0, 20).map(s -> s.replaceAll("[\\s:]", ""));
        Gen<String> otherScheme = Generate.pick(List.of("ftp", "file", "ws", "wss", "mailto", "data", "jar", "htp",
                "httpx", "gopher")).zip(path, (scheme, rest) -> scheme + "://example.com/" + rest);
        Gen<String> noHost = Generate.pick(List.of("http://", "https://", "HTTP://"))
                .zip(path, (start, rest) -> start + "/" + rest); // the authority, between // and the next /, is empty
        Gen<String> noScheme = path.map(rest -> "localhost/" + rest);
        return oneOf(List.of(otherScheme, noHost, noScheme, blank(), path.map(rest -> "http://host\n/" + rest)));
    }

    /** http URLs with a host that is not loopback: a runtime over the wire is this machine's (docs/wire.md#roles). */
    private static Gen<String> elsewhere() {
        return Generate.pick(List.of("example.com", "10.0.0.7", "0.0.0.0", "192.168.1.2", "[::2]", "localhost.evil"))
                .zip(integers().between(1, 65535), (host, port) -> "http://" + host + ":" + port);
    }

    /** Command lines with a quote left open, or blank. */
    private static Gen<String> unclosed() {
        Gen<String> words = strings().basicLatinAlphabet().ofLengthBetween(0, 20).map(s -> s.replace("\"", ""));
        return oneOf(List.of(blank(), words.zip(words, (a, b) -> a + " \"" + b),
                words.zip(words, (a, b) -> "\"" + a + "\" \"" + b)));
    }

    /** Digits enough to overflow a long: 20 to 40 of them, the first not 0. */
    private static Gen<String> tooLong() {
        return integers().between(1, 9).zip(lists().of(integers().between(0, 9)).ofSizeBetween(19, 39),
                (first, rest) -> first + rest.stream().map(String::valueOf).collect(Collectors.joining()));
    }

    /** Any printable text with a letter put in it somewhere, so no number parser takes it. */
    private static Gen<String> withALetter() {
        return strings().basicLatinAlphabet().ofLengthBetween(0, 16).zip(integers().between(0, 16),
                (text, at) -> text.substring(0, Math.min(at, text.length())) + "q"
                        + text.substring(Math.min(at, text.length())));
    }

    private static Gen<String> blank() {
        return Generate.pick(List.of("", " ", "  ", "\t", "\n"));
    }

    /** Each kind of bad value equally often (a chain of {@code mix} would halve the weight of each next one). */
    @SuppressWarnings("unchecked")
    private static Gen<String> oneOf(List<Gen<String>> gens) {
        return Generate.oneOf(gens.get(0), gens.subList(1, gens.size()).toArray(Gen[]::new));
    }
}
