package io.agentlab.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The checked option types: each converter rejects a value outside what its option accepts while picocli parses the
 * command line, so a mistake is the usage error 2 in one line naming the option, the value and what is allowed
 * ({@code Invalid value for option '--speed': ...}) before any command starts (docs/cli.md#accepted-values).
 */
final class Values {

    /** The slowest replay {@code --speed} accepts (docs/cli.md#accepted-values). */
    static final double MAX_SPEED = 10;
    /** The longest {@code check-stream --timeout}, in seconds: an hour. */
    static final long MAX_TIMEOUT_SECONDS = 3600;
    /** The most cases {@code --parallel} runs at once (docs/cli.md#parallel). */
    static final int MAX_PARALLEL = 64;
    /** The most repetitions of a case {@code run --evaluate --repetitions} takes. */
    static final int MAX_REPETITIONS = 1000;

    private Values() {
    }

    /** An http or https URL with a host, kept as typed: a provider's {@code /v1} URL. */
    static final class HttpUrl implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String problem = "expected an http or https URL with a host (e.g. http://127.0.0.1:8080/v1), got '"
                    + value + "'";
            URI uri;
            try {
                uri = new URI(value);
            } catch (URISyntaxException e) {
                throw new TypeConversionException(problem);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || uri.getHost().isEmpty()) {
                throw new TypeConversionException(problem);
            }
            return value;
        }
    }

    /**
     * {@code run --runtime}: the base URL of a runtime over the wire, http or https on loopback (the kit, its replay and
     * stand-ins and the runtime are one machine's, docs/wire.md#roles); {@code {port}} stands for the free port a
     * started runtime is given. Kept as typed.
     */
    static final class RuntimeUrl implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String problem = "expected an http or https URL with a host on loopback (127.0.0.1, localhost or [::1]; "
                    + "the port may be {port}), e.g. http://127.0.0.1:8080, got '" + value + "'";
            URI uri;
            try {
                uri = new URI(value.replace("{port}", "1"));
            } catch (URISyntaxException e) {
                throw new TypeConversionException(problem);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")
                    || !List.of("127.0.0.1", "localhost", "[::1]").contains(host)) {
                throw new TypeConversionException(problem);
            }
            return value;
        }
    }

    /**
     * {@code run --runtime-command}: a command line, split on white space with {@code "..."} quoting as the engine
     * splits it (docs/wire.md#configuration-keys); blank or with an unclosed quote is refused.
     */
    static final class CommandLine implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (value.isBlank() || value.chars().filter(c -> c == '"').count() % 2 != 0) {
                throw new TypeConversionException("expected a command line (words split on white space, \"...\" "
                        + "quoting a word with spaces) with every quote closed, got '" + value + "'");
            }
            return value;
        }
    }

    /**
     * A replay speed, 0 to {@value #MAX_SPEED}: offsets × speed. Above that a recorded pause of 3 s (a live model's
     * wait before its first token) would outlast the 30 s idle timeout of the replay's client
     * (docs/limits-and-safety.md), and every case would fail as {@code provider_connection} instead of measuring.
     */
    static final class Speed implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double speed;
            try {
                speed = Double.parseDouble(value.strip());
            } catch (NumberFormatException e) {
                speed = Double.NaN;
            }
            if (!(speed >= 0 && speed <= MAX_SPEED)) { // NaN too
                throw new TypeConversionException("expected a number from 0 to " + plain(MAX_SPEED)
                        + " (recorded offsets times speed: 1.0 faithful, 0 as fast as possible, 2 twice as slow), got '"
                        + value + "'");
            }
            return speed;
        }
    }

    /** {@code check-stream --timeout}: 1 to {@value #MAX_TIMEOUT_SECONDS} whole seconds. */
    static final class TimeoutSeconds implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return whole(value, 1, MAX_TIMEOUT_SECONDS, "seconds");
        }
    }

    /** A count from 1 to {@link Integer#MAX_VALUE}. */
    static final class PositiveInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) whole(value, 1, Integer.MAX_VALUE, "");
        }
    }

    /** A TCP port, 1 to 65535. */
    static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) whole(value, 1, 65535, "");
        }
    }

    /** {@code --parallel}: 1 to {@value #MAX_PARALLEL} cases at once. */
    static final class Parallel implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) whole(value, 1, MAX_PARALLEL, "");
        }
    }

    /** {@code run --repetitions}: 1 to {@value #MAX_REPETITIONS}. */
    static final class Repetitions implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) whole(value, 1, MAX_REPETITIONS, "");
        }
    }

    /** A count from 1 to {@link Long#MAX_VALUE}. */
    static final class PositiveLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return whole(value, 1, Long.MAX_VALUE, "");
        }
    }

    private static long whole(String value, long min, long max, String unit) {
        String range = "expected a whole number" + (unit.isEmpty() ? "" : " of " + unit) + " from " + min + " to "
                + max + ", got '" + value + "'";
        long parsed;
        try {
            parsed = Long.parseLong(value.strip());
        } catch (NumberFormatException e) { // too long for a long is out of range too
            throw new TypeConversionException(range);
        }
        if (parsed < min || parsed > max) {
            throw new TypeConversionException(range);
        }
        return parsed;
    }

    /**
     * A message quoting what the user typed, kept on one line: a value may hold a line break or another control
     * character (a pasted value, {@code $'1\n2'}), which is written as a Java escape instead of ending the line.
     */
    static String oneLine(String message) {
        StringBuilder line = new StringBuilder(message.length());
        message.codePoints().forEach(c -> {
            switch (c) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
                        line.append(String.format(Locale.ROOT, "\\u%04x", c));
                    } else {
                        line.appendCodePoint(c);
                    }
                }
            }
        });
        return line.toString();
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
