package io.agentlab.plugins.text;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The safety net before execution ({@code docs/plugins.md#safety-net}): the words a resolver did not understand must
 * not hold a number, a time or date word, a direction or a unit. When they do, the resolver understood only part of
 * the request, so it asks (or leaves the event to the EventAgent fallback) instead of executing a guess.
 *
 * <p>The input is a resolver's remainder after {@link Numbers#digitize}: lower case, digits for number words.
 */
@API(status = INTERNAL, since = "0.1")
public final class Leftovers {

    /** What a leftover word may be. */
    public enum Kind {
        /** A number: "30", "2". */
        NUMBER,
        /** A time or date word, misspelled or not: "tomorrow", "tomorow", "pm", "minutes", "下午", "点". */
        TIME,
        /** A direction: "up", "louder", "大", "低". */
        DIRECTION,
        /** A unit or an approximation: "percent", "notches", "about", "格", "档", "左右". */
        UNIT
    }

    private static final Pattern EN_NUMBER = Pattern.compile("\\d+(?:[.,:]\\d+)*");
    private static final Pattern EN_TIME = Pattern.compile("\\b(?:today|tonight|tomorrow|tmrw?|tomorow|morrow|yesterday"
            + "|mornings?|afternoons?|evenings?|nights?|noon|midnight|midday|lunchtime|dinnertime|bedtime"
            + "|am|pm|a\\.?m\\b\\.?|p\\.?m\\b\\.?|o'?clock|oclock|(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
            + "|weekends?|weeks?|months?|years?|days?|daily|weekly|monthly|yearly|annually|hours?|hrs?|minutes?|mins?"
            + "|seconds?|secs?|half|quarter|past|later|sometime|soon|early|late|between|around|every|each|before|after|until"
            + "|till|next|last|fortnight|january|february|april|june|july|august|september|october|november|december"
            + "|jan|feb|apr|jun|jul|aug|sept?|oct|nov|couple|few|while|bit|end)\\b");
    private static final List<String> EN_TIME_WORDS = List.of("tomorrow", "tonight", "today", "monday", "tuesday",
            "wednesday", "thursday", "friday", "saturday", "sunday", "morning", "afternoon", "evening", "midnight",
            "minutes", "minute", "hours", "o'clock", "december", "november", "january", "february", "weekend");
    private static final Pattern EN_DIRECTION = Pattern.compile("\\b(?:up|down|louder|quieter|softer|higher|lower"
            + "|more|less|increase|decrease|raise|reduce|boost|drop|bump|crank|loud|quiet|max|min|full|half)\\b");
    private static final Pattern EN_UNIT = Pattern.compile("%|\\b(?:percent|per cent|points?|notch(?:es)?|steps?"
            + "|levels?|clicks?|bars?|degrees?|decibels?|db|times|roughly|approximately|maybe|ish)\\b"
            + "|\\b(?:about|around)(?=\\s*\\d)");
    private static final Pattern WORD = Pattern.compile("[a-z']{5,}");

    private static final Pattern ZH_NUMBER = Pattern.compile("\\d+(?:[.:]\\d+)*");
    private static final Pattern ZH_TIME = Pattern.compile("今天|明天|后天|昨天|今晚|明晚|明早|今早|明儿|今儿|早上|早晨|清晨"
            + "|上午|中午|下午|晚上|傍晚|凌晨|夜里|半夜|晚间|夜间|点钟|点半|小时|分钟|钟头|刻钟|星期|礼拜|周末|下周|这周|本周"
            + "|上周|每天|每周|每月|每年|每隔|每晚|每早|以后|之后|以前|之前|待会|回头|一会|等下|等一下|找个时间|改天"
            + "|下个?月|这个?月|月底|月初|年底|饭后|饭前|一早|半个|整点|差\\d*刻|\\d\\s*[点时分刻号日月年天周]"
            + "|周[一二三四五六日天\\d]|[一二三四五六七八九十两几]\\s*[点天周]|\\d\\s*个\\s*(?:小时|钟头|月|星期|礼拜)");
    private static final Pattern ZH_DIRECTION = Pattern.compile("[大小高低加减增降升响轻吵]");
    private static final Pattern ZH_UNIT = Pattern.compile("%|格|档|级|个点|百分点|分贝|倍|大概|左右|差不多|或者|还是|大约|约");
    private static final Pattern ZH_MEASURE_AFTER = Pattern.compile("\\s*[片个瓶杯本张块斤次件份盒包袋颗粒位名元只条双支把台辆套]"
            + "(?!\\s*(?:小时|钟头|月|星期|礼拜|多?小时))");
    private static final Pattern EN_CONTENT_AFTER = Pattern.compile("\\s+([a-z][a-z']*)");

    private Leftovers() {
    }

    /**
     * The first leftover word of one of the {@code kinds}, or empty when the remainder is clean.
     *
     * @param remainder     what the resolver did not understand (digitized)
     * @param language      its language
     * @param kinds         what must not be left over
     * @param countedThings whether a number counting things inside a title is content ("take 2 pills",
     *                      "买6个鸡蛋"): preceded by a word and followed by a word that is no unit or time word
     */
    public static Optional<String> find(String remainder, Language language, Set<Kind> kinds, boolean countedThings) {
        String text = remainder.toLowerCase(Locale.ROOT);
        return language == Language.CHINESE ? chinese(text, kinds, countedThings) : english(text, kinds, countedThings);
    }

    private static Optional<String> english(String text, Set<Kind> kinds, boolean countedThings) {
        Optional<String> found = words(text, kinds, EN_TIME, EN_DIRECTION, EN_UNIT);
        if (found.isEmpty() && kinds.contains(Kind.TIME)) {
            Matcher word = WORD.matcher(text);
            while (word.find() && found.isEmpty()) {
                for (String known : EN_TIME_WORDS) {
                    if (Edits.distance(word.group(), known) <= (known.length() >= 7 ? 2 : 1)) {
                        found = Optional.of(word.group());
                        break;
                    }
                }
            }
        }
        if (found.isEmpty() && kinds.contains(Kind.NUMBER)) {
            Matcher number = EN_NUMBER.matcher(text);
            while (number.find()) {
                if (!(countedThings && countsThings(text, number))) {
                    return Optional.of(number.group());
                }
            }
        }
        return found;
    }

    /** The first time, direction or unit word of the kinds asked for, in that order. */
    private static Optional<String> words(String text, Set<Kind> kinds, Pattern time, Pattern direction, Pattern unit) {
        Map<Kind, Pattern> patterns = new EnumMap<>(Kind.class);
        patterns.put(Kind.TIME, time);
        patterns.put(Kind.DIRECTION, direction);
        patterns.put(Kind.UNIT, unit);
        for (Map.Entry<Kind, Pattern> entry : patterns.entrySet()) {
            if (kinds.contains(entry.getKey())) {
                Matcher matcher = entry.getValue().matcher(text);
                if (matcher.find()) {
                    return Optional.of(matcher.group().trim());
                }
            }
        }
        return Optional.empty();
    }

    /** "take 2 pills": a word before, a content word after. */
    private static boolean countsThings(String text, Matcher number) {
        boolean wordBefore = text.substring(0, number.start()).matches("(?s).*[a-z]\\s+");
        Matcher after = EN_CONTENT_AFTER.matcher(text);
        after.region(number.end(), text.length());
        return wordBefore && after.lookingAt() && !EN_TIME.matcher(after.group(1)).matches()
                && !EN_UNIT.matcher(after.group(1)).matches();
    }

    private static Optional<String> chinese(String text, Set<Kind> kinds, boolean countedThings) {
        Optional<String> found = words(text, kinds, ZH_TIME, ZH_DIRECTION, ZH_UNIT);
        if (found.isEmpty() && kinds.contains(Kind.NUMBER)) {
            Matcher number = ZH_NUMBER.matcher(text);
            while (number.find()) {
                Matcher after = ZH_MEASURE_AFTER.matcher(text);
                after.region(number.end(), text.length());
                if (!(countedThings && number.start() > 0 && after.lookingAt())) {
                    return Optional.of(number.group());
                }
            }
        }
        return found;
    }

    /** Optimal-string-alignment distance: a speech recognizer's typo is one or two edits from the word. */
    static final class Edits {
        private Edits() {
        }

        static int distance(String a, String b) {
            if (Math.abs(a.length() - b.length()) > 2) {
                return 3;
            }
            int[][] d = new int[a.length() + 1][b.length() + 1];
            for (int i = 0; i <= a.length(); i++) {
                d[i][0] = i;
            }
            for (int j = 0; j <= b.length(); j++) {
                d[0][j] = j;
            }
            for (int i = 1; i <= a.length(); i++) {
                for (int j = 1; j <= b.length(); j++) {
                    int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                    d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                    if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                    }
                }
            }
            return d[a.length()][b.length()];
        }
    }
}
