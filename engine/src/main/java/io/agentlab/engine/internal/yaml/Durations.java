package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/** The one duration syntax of suites and configuration: a whole number with {@code ms}, {@code s} or {@code m}. */
@API(status = INTERNAL, since = "0.1")
public final class Durations {

    private static final Pattern SYNTAX = Pattern.compile("(\\d{1,9})(ms|s|m)");

    private Durations() {
    }

    /**
     * Parses {@code 250ms}, {@code 2s} or {@code 1m}.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static Duration parse(String text) {
        Matcher matcher = SYNTAX.matcher(text == null ? "" : text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("bad duration '" + text + "'; expected e.g. 250ms, 2s or 1m");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }
}
