package io.agentlab.plugins.text;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Turns number words into digits so resolvers can match one pattern per phrase family: "twenty-five" → "25",
 * "a hundred" → "100", "三十" → "30", "两" → "2", "百分之三十" → "30%", full-width "３０" → "30".
 * Total: any input yields a string, never an exception.
 */
@API(status = INTERNAL, since = "0.1")
public final class Numbers {

    private static final Map<String, Integer> UNITS = Map.ofEntries(
            Map.entry("zero", 0), Map.entry("one", 1), Map.entry("two", 2), Map.entry("three", 3),
            Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6), Map.entry("seven", 7),
            Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10), Map.entry("eleven", 11),
            Map.entry("twelve", 12), Map.entry("thirteen", 13), Map.entry("fourteen", 14), Map.entry("fifteen", 15),
            Map.entry("sixteen", 16), Map.entry("seventeen", 17), Map.entry("eighteen", 18),
            Map.entry("nineteen", 19));
    private static final Map<String, Integer> TENS = Map.ofEntries(Map.entry("twenty", 20), Map.entry("thirty", 30),
            Map.entry("forty", 40), Map.entry("fourty", 40), Map.entry("fifty", 50), Map.entry("sixty", 60),
            Map.entry("seventy", 70), Map.entry("eighty", 80), Map.entry("ninety", 90));
    private static final Pattern ENGLISH_NUMBER = Pattern.compile(
            "\\b(?:(?:a|one)\\s+hundred(?:\\s+and)?(?:[\\s-]+[a-z]+(?:[\\s-]+[a-z]+)?)?"
                    + "|(?:twenty|thirty|fou?rty|fifty|sixty|seventy|eighty|ninety)(?:[\\s-]+[a-z]+)?"
                    + "|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
                    + "|fifteen|sixteen|seventeen|eighteen|nineteen)\\b");
    private static final Pattern CHINESE_NUMBER = Pattern.compile("[零〇一二两三四五六七八九十百]+");
    private static final Pattern CHINESE_PERCENT = Pattern.compile("百分之\\s*(\\d+)");
    private static final String CHINESE_DIGITS = "零一二三四五六七八九";

    private Numbers() {
    }

    /** Lower-cases, folds full-width digits and punctuation, and replaces number words with digits. */
    public static String digitize(String text) {
        String folded = fold(text.toLowerCase(Locale.ROOT));
        String english = replaceEnglish(folded);
        String chinese = replaceChinese(english);
        return CHINESE_PERCENT.matcher(chinese).replaceAll("$1%");
    }

    /** The value of a lone number token in any supported form, e.g. "30", "30%", "thirty", "三十". */
    public static OptionalInt parse(String token) {
        String digits = digitize(token).trim().replace("%", "");
        if (digits.matches("\\d{1,9}")) {
            return OptionalInt.of(Integer.parseInt(digits));
        }
        return OptionalInt.empty();
    }

    private static String fold(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '０' && c <= '９') {
                out.append((char) ('0' + (c - '０')));
            } else if (c == '：') {
                out.append(':');
            } else if (c == '％') {
                out.append('%');
            } else if (c == '\u00a0' || c == '　') {
                out.append(' ');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String replaceEnglish(String text) {
        Matcher matcher = ENGLISH_NUMBER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            Parsed parsed = englishValue(matcher.group());
            // Only the words that formed the number are replaced; a trailing non-number word is kept.
            matcher.appendReplacement(out, Matcher.quoteReplacement(parsed.value + parsed.rest));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private record Parsed(int value, String rest) {
    }

    private static Parsed englishValue(String phrase) {
        String[] words = phrase.split("[\\s-]+");
        int value = 0;
        int i = 0;
        if (i + 1 < words.length && (words[i].equals("a") || words[i].equals("one")) && words[i + 1].equals("hundred")) {
            value = 100;
            i += 2;
            if (i < words.length && words[i].equals("and")) {
                i++;
            }
        }
        if (i < words.length && TENS.containsKey(words[i])) {
            value += TENS.get(words[i]);
            i++;
            if (i < words.length && UNITS.containsKey(words[i]) && UNITS.get(words[i]) < 10 && UNITS.get(words[i]) > 0) {
                value += UNITS.get(words[i]);
                i++;
            }
        } else if (i < words.length && UNITS.containsKey(words[i])) {
            value += UNITS.get(words[i]);
            i++;
        }
        StringBuilder rest = new StringBuilder();
        for (; i < words.length; i++) {
            rest.append(' ').append(words[i]);
        }
        return new Parsed(value, rest.toString());
    }

    private static String replaceChinese(String text) {
        Matcher matcher = CHINESE_NUMBER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            OptionalInt value = chineseValue(matcher.group());
            matcher.appendReplacement(out, Matcher.quoteReplacement(
                    value.isPresent() ? Integer.toString(value.getAsInt()) : matcher.group()));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /** 十 → 10, 十五 → 15, 二十五 → 25, 一百零五 → 105, 两百 → 200; anything else is left alone. */
    static OptionalInt chineseValue(String numeral) {
        int total = 0;
        int current = -1;
        boolean any = false;
        for (int i = 0; i < numeral.length(); i++) {
            char c = numeral.charAt(i);
            int digit = c == '两' ? 2 : c == '〇' ? 0 : CHINESE_DIGITS.indexOf(c);
            if (digit >= 0) {
                if (current >= 0 && current != 0 && digit != 0) {
                    return OptionalInt.empty(); // "三四" (three or four) is not one number
                }
                current = digit;
                any = true;
            } else if (c == '十') {
                if (current < 0 && i > 0 && numeral.charAt(i - 1) == '十') {
                    return OptionalInt.empty(); // "十十" is a stutter, not twenty
                }
                total += (current < 0 ? 1 : current) * 10;
                current = -1;
                any = true;
            } else if (c == '百') {
                if (current < 0 || total > 0) {
                    return OptionalInt.empty();
                }
                total += current * 100;
                current = -1;
                any = true;
            }
        }
        if (!any) {
            return OptionalInt.empty();
        }
        if (current > 0) {
            total += current;
        }
        return OptionalInt.of(total);
    }
}
