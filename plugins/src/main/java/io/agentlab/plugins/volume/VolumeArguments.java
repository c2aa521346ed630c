package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.ArgumentNormalizer;
import io.agentlab.kernel.api.ArgumentValidator;
import io.agentlab.kernel.api.ArgumentViolation;
import io.agentlab.plugins.text.Numbers;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * Normalization and validation of volume arguments, whoever proposed them: a model's {@code "30%"}, {@code "30"} or
 * {@code 30.0} become {@code 30}; mode synonyms ({@code up}, {@code louder}, {@code set}, ...) become the four modes,
 * with the direction folded into the sign of {@code delta}; fields a mode does not use are dropped so both invocation
 * modes reach the same canonical arguments; a relative {@code delta} is clamped to ±100 (the level is 0..100 anyway).
 * An absolute {@code value} is never clamped: out of range is invalid.
 */
@API(status = INTERNAL, since = "0.1")
public final class VolumeArguments {

    private VolumeArguments() {
    }

    /** The normalizer. */
    public static ArgumentNormalizer normalizer() {
        return VolumeArguments::normalize;
    }

    /** The validator: absolute needs {@code value}, relative needs {@code delta}. */
    public static ArgumentValidator validator() {
        return arguments -> {
            List<ArgumentViolation> violations = new ArrayList<>();
            Object mode = arguments.get("mode");
            if ("absolute".equals(mode) && !arguments.containsKey("value")) {
                violations.add(ArgumentViolation.of("value", "an absolute volume needs a value 0..100"));
            }
            if ("relative".equals(mode) && !arguments.containsKey("delta")) {
                violations.add(ArgumentViolation.of("delta", "a relative volume change needs a delta -100..100"));
            }
            return violations;
        };
    }

    static Map<String, Object> normalize(Map<String, Object> arguments) {
        Map<String, Object> out = new LinkedHashMap<>(arguments);
        int direction = 0;
        if (out.get("mode") instanceof String mode) {
            String m = mode.trim().toLowerCase(Locale.ROOT);
            switch (m) {
                case "set", "to", "level", "absolute" -> out.put("mode", "absolute");
                case "up", "increase", "louder", "raise" -> {
                    out.put("mode", "relative");
                    direction = 1;
                }
                case "down", "decrease", "quieter", "lower" -> {
                    out.put("mode", "relative");
                    direction = -1;
                }
                case "relative", "change" -> out.put("mode", "relative");
                case "mute", "silence" -> out.put("mode", "mute");
                case "unmute" -> out.put("mode", "unmute");
                default -> out.put("mode", m);
            }
        }
        number(out, "value");
        number(out, "delta");
        Object mode = out.get("mode");
        if ("relative".equals(mode)) {
            if (!out.containsKey("delta") && out.get("value") instanceof Integer value) {
                out.put("delta", value); // "up, value 10" means "up by 10"
            }
            out.remove("value");
            if (out.get("delta") instanceof Integer delta) {
                int signed = direction == 0 ? delta : direction * Math.abs(delta);
                out.put("delta", Math.max(-100, Math.min(100, signed)));
            }
        } else if ("absolute".equals(mode)) {
            out.remove("delta");
        } else if ("mute".equals(mode) || "unmute".equals(mode)) {
            out.remove("value");
            out.remove("delta");
        }
        return out;
    }

    /** "30%", "30", "thirty", "三十", 30.0 → 30; anything else is left for validation to reject. */
    private static void number(Map<String, Object> arguments, String field) {
        Object value = arguments.get(field);
        if (value instanceof String text) {
            String trimmed = text.trim();
            boolean negative = trimmed.startsWith("-");
            OptionalInt parsed = Numbers.parse(negative ? trimmed.substring(1) : trimmed);
            if (parsed.isPresent()) {
                arguments.put(field, negative ? -parsed.getAsInt() : parsed.getAsInt());
            }
        } else if (value instanceof Number number && !(value instanceof Integer)) {
            BigDecimal decimal = new BigDecimal(number.toString());
            if (decimal.stripTrailingZeros().scale() <= 0 && decimal.abs().compareTo(BigDecimal.valueOf(1_000_000)) < 0) {
                arguments.put(field, decimal.intValueExact());
            }
        }
    }
}
