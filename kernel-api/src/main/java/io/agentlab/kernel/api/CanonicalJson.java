package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * The canonical text of a JSON value: object keys sorted by code point, no insignificant white space, and one form
 * per number ({@code 30}, {@code 30.0}, {@code 30L} and {@code 3.0E1} all render as {@code 30}; {@code 0.50} as
 * {@code 0.5}). Deduplication, replay protection and idempotency keys compare this text, so two proposals that differ
 * only in key order or number spelling are the same request.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** Renders {@code value} canonically. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        append(out, value);
        return out.toString();
    }

    private static void append(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            appendString(out, s);
        } else if (value instanceof Boolean b) {
            out.append(b.booleanValue());
        } else if (value instanceof Number n) {
            out.append(number(n));
        } else if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                appendString(out, e.getKey());
                out.append(':');
                append(out, e.getValue());
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                append(out, list.get(i));
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    /** The one canonical spelling of a number: integral values without a fraction, others without trailing zeros. */
    public static String number(Number n) {
        BigDecimal decimal;
        if (n instanceof BigDecimal bd) {
            decimal = bd;
        } else if (n instanceof BigInteger bi) {
            decimal = new BigDecimal(bi);
        } else if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("not a JSON number: " + n);
            }
            decimal = new BigDecimal(Double.toString(d));
        } else {
            return Long.toString(n.longValue());
        }
        if (decimal.signum() == 0) {
            return "0";
        }
        BigDecimal stripped = decimal.stripTrailingZeros();
        return stripped.scale() <= 0 ? stripped.toBigIntegerExact().toString() : stripped.toPlainString();
    }

    private static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
