package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.ArgumentResolver;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionInput;
import io.agentlab.plugins.text.Clauses;
import io.agentlab.plugins.text.Language;
import io.agentlab.plugins.text.Leftovers;
import io.agentlab.plugins.text.MarkedText;
import io.agentlab.plugins.text.Numbers;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Volume arguments from the user's words, English and Chinese, read from the clause that talks about volume
 * ({@link #VOLUME_SIGNAL}). Rules, first match wins ({@code docs/plugins.md#device-volume-adjust}):
 *
 * <ol>
 *   <li>unmute, then mute;</li>
 *   <li>a change with "by" ("up by 20", "down by 15%") → relative ±amount;</li>
 *   <li>a target ("to 30", "调到30", "调高到80") → absolute, even after a direction ("turn it up to 80" sets 80);</li>
 *   <li>an extreme said as a path ("all the way up", "as quiet as it goes", "down to nothing", "开到头", "拉满") →
 *       100 or 0;</li>
 *   <li>a direction with an amount, with or without the unit "points"/"percent"/"个点" ("bump the volume 20 points",
 *       "turn it down 15", "调高二十个点", "往下调十") → relative ±amount, never a target;</li>
 *   <li>a bare level ("volume 30", "30%", "音量三十") → absolute;</li>
 *   <li>extremes: max/full/最大 → 100, min/lowest/最小 → 0, half/一半 → 50;</li>
 *   <li>complaints count as directions: "too loud"/"太吵了" → down, "too quiet"/"听不见" → up;</li>
 *   <li>a direction alone ("louder", "a bit quieter", "大声一点") → ±{@value #DEFAULT_STEP}
 *       (±{@value #LARGE_STEP} for "a lot"/"much"/"很多").</li>
 * </ol>
 *
 * <p>Then the safety net ({@link Leftovers}): words left unread that hold a number, a time word, a direction or a unit
 * ("two notches", "about 20", "in 5 minutes", "louder then quieter", "by half") mean the request was not understood
 * whole, so the resolver asks. A target outside 0..100 is asked about too, never clamped; a relative change beyond
 * ±100 is clamped to ±100 (the level is 0..100 anyway).
 */
@API(status = INTERNAL, since = "0.1")
public final class VolumeResolver implements ArgumentResolver {

    /** The step for "louder"/"quieter" without an amount. */
    public static final int DEFAULT_STEP = 10;
    /** The step for "a lot louder"/"大很多". */
    public static final int LARGE_STEP = 20;

    private static final String EN_UP_WORDS = "up|louder|increase|raise|higher|boost|pump|bump|crank";
    private static final String EN_DOWN_WORDS = "down|quieter|softer|lower|decrease|reduce|drop|knock";
    private static final String EN_UNIT = "(?:\\s*(?:%|percent\\b|per cent\\b|points?\\b|percentage points\\b))?";
    private static final Pattern EN_UNMUTE = Pattern.compile(
            "\\bun-?mute\\b|\\bsound (?:back )?on\\b|\\bturn (?:the )?sound (?:back )?on\\b|\\brestore (?:the )?sound\\b");
    private static final Pattern EN_MUTE = Pattern.compile(
            "\\bmute\\b|\\bsilence\\b|\\bturn (?:the )?sound off\\b|\\bturn off the sound\\b|\\bno sound\\b");
    private static final Pattern EN_UP = Pattern.compile("\\b(?:" + EN_UP_WORDS + ")\\b");
    private static final Pattern EN_DOWN = Pattern.compile("\\b(?:" + EN_DOWN_WORDS + ")\\b");
    private static final Pattern EN_TOO_LOUD = Pattern.compile("\\b(?:way )?too loud\\b|\\bit'?s loud\\b");
    private static final Pattern EN_TOO_QUIET = Pattern.compile(
            "\\b(?:a bit |way )?too (?:quiet|soft|low)\\b|\\bcan'?t hear\\b|\\bcannot hear\\b");
    private static final Pattern EN_BY = Pattern.compile("\\bby\\s+(\\d+)" + EN_UNIT);
    private static final Pattern EN_FROM_TO = Pattern.compile("\\bfrom\\s+\\d+" + EN_UNIT + "\\s+(?=to\\b)");
    private static final Pattern EN_TO_TARGET = Pattern.compile(
            "\\b(?:to|at|too)\\s+(?:(?:to|too)\\s+)?(?:level\\s+(?=\\d+\\s*(?:%|percent)))?(-?\\d+)" + EN_UNIT + "(?:\\s*(?:%|percent\\b))*");
    private static final Pattern EN_TO_NOTHING = Pattern.compile("\\b(?:down )?to (?:nothing|silence)\\b");
    private static final Pattern EN_PATH = Pattern.compile("\\ball the way(?: (up|down))?\\b"
            + "|\\bas (loud|high|quiet|low|soft) as (?:it|you) (?:goes|go|can go|can)\\b|\\bas (loud|high|quiet|low|soft) as possible\\b"
            + "|\\bas (?:far|much) as (?:it goes|it can go|you can|possible)\\b");
    private static final Pattern EN_AMOUNT_AFTER = Pattern.compile(
            "\\b(?:" + EN_UP_WORDS + "|" + EN_DOWN_WORDS + "|volume|sound|it)\\s+(\\d+)" + EN_UNIT + "(?:\\s+more\\b)?");
    private static final Pattern EN_AMOUNT_BEFORE = Pattern.compile(
            "\\b(\\d+)" + EN_UNIT + "\\s+(?:more\\s+)?(?:louder|quieter|softer|higher|lower)\\b");
    private static final Pattern EN_LEVEL = Pattern.compile(
            "\\bvolume\\s+(?:level\\s+)?(-?\\d+)" + EN_UNIT + "|\\b(-?\\d+)\\s*(?:%|percent\\b)");
    private static final Pattern EN_MAX = Pattern.compile("\\b(?:max|maximum|full|loudest|the top)\\b");
    private static final Pattern EN_MIN = Pattern.compile("\\b(?:min|minimum|lowest|quietest)\\b");
    private static final Pattern EN_HALF = Pattern.compile("(?<!\\bby )\\b(?:half|halfway)\\b");
    private static final Pattern EN_LARGE = Pattern.compile("\\b(?:a lot|lots|much|way|far)\\b");
    private static final Pattern EN_NEUTRAL = Pattern.compile(
            "\\b(?:a (?:little )?bit|a little|a notch|a tad|a touch|a lot|lots|much|way|far|more|out|(?:volume|sound) level)\\b");
    private static final Pattern EN_VOLUME_CONTEXT = Pattern.compile("\\b(?:volume|sound|louder|quieter|it)\\b");

    private static final String ZH_UP_WORDS = "调高|调大|提高|加大|增大|增加|升高|往上调|往上|开大|放大|加|大|升";
    private static final String ZH_DOWN_WORDS = "调低|调小|降低|减小|减少|往下调|往下降|往下|关小|降|减|小";
    private static final String ZH_UNIT = "(?:\\s*(?:个百分点|个点|百分点|%|点))?";
    private static final Pattern ZH_UNMUTE = Pattern.compile("取消静音|解除静音|关闭静音|打开声音|恢复声音|开声音|把声音打开");
    private static final Pattern ZH_MUTE = Pattern.compile("静音|关闭声音|关掉声音|把声音关|声音关掉|别出声|关到没声音|没声音");
    private static final Pattern ZH_HALVE = Pattern.compile("(?:调低|降低|减少|减小|降|减|调小)\\s*一半");
    private static final Pattern ZH_TARGET = Pattern.compile(
            "(?:调到|调成|调为|调至|设为|设置为|设置成|设成|改成|改为|变成|放到|开到|跳到|到)\\s*(-?\\d+)(?:\\s*%)?");
    private static final Pattern ZH_FROM = Pattern.compile("从\\s*\\d+(?=\\s*(?:调|降|升|开|到))");
    private static final Pattern ZH_PATH_MAX = Pattern.compile("最高|开到头|调到头|开到顶|调到顶|拉满|开满|能开多大开多大");
    private static final Pattern ZH_PATH_MIN = Pattern.compile("最低");
    private static final Pattern ZH_UP_AMOUNT = Pattern.compile("(?:再\\s*)?(?:" + ZH_UP_WORDS + ")\\s*(\\d+)" + ZH_UNIT);
    private static final Pattern ZH_DOWN_AMOUNT = Pattern.compile("(?:再\\s*)?(?:" + ZH_DOWN_WORDS + ")\\s*(\\d+)" + ZH_UNIT);
    private static final Pattern ZH_LEVEL = Pattern.compile("音量\\s*(-?\\d+)(?:\\s*%)?|(\\d+)\\s*%");
    private static final Pattern ZH_MAX = Pattern.compile("最大声?");
    private static final Pattern ZH_MIN = Pattern.compile("最小声?");
    private static final Pattern ZH_HALF = Pattern.compile("半数"); // "一半", folded before digitizing
    private static final Pattern ZH_UP = Pattern.compile("大声|大点|大些|大一|响点|响些|响一|调大|调高|提高|加大|增大|放大|开大|再大|加些|加点");
    private static final Pattern ZH_DOWN = Pattern.compile("小声|小点|小些|小一|轻点|轻些|轻一|调小|调低|降低|减小|关小|再小|减些|减点");
    private static final Pattern ZH_TOO_LOUD = Pattern.compile("太大了?|太响了?|太吵了?|好吵");
    private static final Pattern ZH_TOO_QUIET = Pattern.compile("太小了?|听不见|听不清楚?|听不到");
    private static final Pattern ZH_LARGE = Pattern.compile("很多|多一些|大幅");
    private static final Pattern ZH_NEUTRAL = Pattern.compile("些|很多|多一些|大幅|再");

    /** Words that put a clause about volume; other clauses of the utterance are ignored. */
    public static final Pattern VOLUME_SIGNAL = Pattern.compile(
            "(?i)volume|sound|louder|quieter|softer|\\bmute|unmute|\\bturn (?:it|the sound) (?:up|down)\\b"
                    + "|\\btoo (?:loud|quiet)\\b|音量|声音|静音|大声|小声|大点|小点|响");

    private static final Pattern HUNDRED_AND = Pattern.compile("(?i)\\bhundred and\\b");

    @Override
    public Resolution resolve(ResolutionInput input) {
        // "a hundred and ten" is one number, not two clauses
        String text = HUNDRED_AND.matcher(input.turn().userText()).replaceAll("hundred");
        List<String> requests = Clauses.requests(text, clause -> VOLUME_SIGNAL.matcher(clause).find(), clause -> true);
        Optional<String> request = requests.isEmpty() ? Optional.of(text)
                : Clauses.pick(requests, input.occurrence(), input.occurrences());
        if (request.isEmpty()) {
            return Resolution.ambiguous(Map.of(), Language.of(text) == Language.CHINESE
                    ? "我听到了不止一个音量调整——你要哪一个？"
                    : "I heard more than one volume change — which one do you want?");
        }
        String raw = request.get();
        Resolution fromText = (Language.of(raw) == Language.CHINESE ? chinese(raw) : english(raw)).withSource(raw);
        Map<String, Object> proposed = input.request().proposedArguments();
        if (!proposed.containsKey("mode")) {
            return fromText;
        }
        // The model chose (chat_agent_tools): the words only fill a gap in the same kind of request, so a model's
        // {"mode":"up","value":20} is never mixed with a "delta" read from the words.
        Map<String, Object> normalized = VolumeArguments.normalize(proposed);
        boolean complete = VolumeArguments.validator().validate(normalized).isEmpty();
        boolean sameMode = normalized.get("mode").equals(fromText.arguments().get("mode"));
        return complete || !sameMode ? Resolution.empty() : fromText;
    }

    private static Resolution english(String raw) {
        MarkedText text = new MarkedText(Numbers.digitize(raw));
        return checked(englishRules(text), text, Language.ENGLISH);
    }

    private static Resolution englishRules(MarkedText text) {
        if (text.take(EN_UNMUTE) != null) {
            return Resolution.of(Map.of("mode", "unmute"));
        }
        if (text.take(EN_MUTE) != null) {
            return Resolution.of(Map.of("mode", "mute"));
        }
        int sign = text.take(EN_TOO_LOUD) != null ? -1 : text.take(EN_TOO_QUIET) != null ? 1
                : text.has(EN_UP) ? 1 : text.has(EN_DOWN) ? -1 : 0;
        Matcher by = sign == 0 ? null : text.take(EN_BY);
        if (by != null) {
            takeDirection(text, sign, Language.ENGLISH);
            return relative(sign * parseBounded(by.group(1))); // "up by 20%" is a change, not a target
        }
        text.take(EN_FROM_TO); // "from 50 to 30": the target is what counts
        Matcher target = text.take(EN_TO_TARGET);
        if (target != null) {
            text.takeAll(EN_UP);
            text.takeAll(EN_DOWN);
            return absolute(parseBounded(target.group(1)), Language.ENGLISH);
        }
        if (text.take(EN_TO_NOTHING) != null) {
            text.takeAll(EN_DOWN);
            return absolute(0, Language.ENGLISH);
        }
        Matcher path = text.take(EN_PATH);
        if (path != null) {
            int way = pathDirection(path, sign);
            if (way != 0) {
                takeDirection(text, way, Language.ENGLISH);
                return absolute(way > 0 ? 100 : 0, Language.ENGLISH);
            }
        }
        if (sign != 0) {
            Matcher amount = text.take(EN_AMOUNT_AFTER);
            if (amount == null) {
                amount = text.take(EN_AMOUNT_BEFORE);
            }
            if (amount != null) {
                takeDirection(text, sign, Language.ENGLISH);
                return relative(sign * parseBounded(amount.group(1)));
            }
        }
        Matcher level = text.take(EN_LEVEL);
        if (level != null) {
            return absolute(firstGroup(level), Language.ENGLISH);
        }
        if (text.take(EN_MAX) != null) {
            text.takeAll(EN_UP);
            return absolute(100, Language.ENGLISH);
        }
        if (text.take(EN_MIN) != null) {
            text.takeAll(EN_DOWN);
            return absolute(0, Language.ENGLISH);
        }
        if (text.has(EN_HALF) && EN_VOLUME_CONTEXT.matcher(text.text()).find()) {
            text.take(EN_HALF);
            return absolute(50, Language.ENGLISH);
        }
        if (sign != 0) {
            boolean large = EN_LARGE.matcher(text.text()).find();
            takeDirection(text, sign, Language.ENGLISH);
            return relative(sign * (large ? LARGE_STEP : DEFAULT_STEP));
        }
        return unclear(Language.ENGLISH);
    }

    /** "all the way up" is up, "as quiet as it goes" is down; "all the way" alone follows the direction said. */
    private static int pathDirection(Matcher path, int sign) {
        for (int group = 1; group <= path.groupCount(); group++) {
            String word = path.group(group);
            if (word != null) {
                return word.equals("up") || word.equals("loud") || word.equals("high") ? 1 : -1;
            }
        }
        return sign;
    }

    private static void takeDirection(MarkedText text, int sign, Language language) {
        if (language == Language.CHINESE) {
            text.takeAll(sign > 0 ? ZH_UP : ZH_DOWN);
        } else {
            text.takeAll(sign > 0 ? EN_UP : EN_DOWN);
            text.takeAll(EN_NEUTRAL);
        }
    }

    private static Resolution chinese(String raw) {
        if (ZH_HALVE.matcher(raw).find()) {
            return unclear(Language.CHINESE); // halving needs the current level
        }
        // "一点/一些/一下" mean "a bit" here, not the number one: fold them before digitizing.
        MarkedText text = new MarkedText(Numbers.digitize(raw.replace("一点儿", "些").replace("一点点", "些")
                .replace("一点", "些").replace("一些", "些").replace("一下", "").replace("一半", "半数")));
        return checked(chineseRules(text), text, Language.CHINESE);
    }

    private static Resolution chineseRules(MarkedText text) {
        if (text.take(ZH_UNMUTE) != null) {
            return Resolution.of(Map.of("mode", "unmute"));
        }
        if (text.take(ZH_MUTE) != null) {
            return Resolution.of(Map.of("mode", "mute"));
        }
        text.take(ZH_FROM);
        Matcher target = text.take(ZH_TARGET);
        if (target != null) {
            text.takeAll(Pattern.compile(ZH_UP_WORDS + "|" + ZH_DOWN_WORDS));
            return absolute(parseBounded(target.group(1)), Language.CHINESE);
        }
        if (text.take(ZH_PATH_MAX) != null) {
            return absolute(100, Language.CHINESE);
        }
        if (text.take(ZH_PATH_MIN) != null) {
            return absolute(0, Language.CHINESE);
        }
        Matcher up = text.take(ZH_UP_AMOUNT);
        if (up != null) {
            return relative(parseBounded(up.group(1)));
        }
        Matcher down = text.take(ZH_DOWN_AMOUNT);
        if (down != null) {
            return relative(-parseBounded(down.group(1)));
        }
        Matcher level = text.take(ZH_LEVEL);
        if (level != null) {
            return absolute(firstGroup(level), Language.CHINESE);
        }
        if (text.take(ZH_MAX) != null) {
            text.takeAll(Pattern.compile("调到|开到|调|开"));
            return absolute(100, Language.CHINESE);
        }
        if (text.take(ZH_MIN) != null) {
            text.takeAll(Pattern.compile("调到|关到|调|关"));
            return absolute(0, Language.CHINESE);
        }
        if (text.take(ZH_HALF) != null) {
            return absolute(50, Language.CHINESE);
        }
        int step = ZH_LARGE.matcher(text.text()).find() ? LARGE_STEP : DEFAULT_STEP;
        int sign = text.take(ZH_TOO_LOUD) != null ? -1 : text.take(ZH_TOO_QUIET) != null ? 1
                : text.has(ZH_UP) ? 1 : text.has(ZH_DOWN) ? -1 : 0;
        if (sign == 0) {
            return unclear(Language.CHINESE);
        }
        takeDirection(text, sign, Language.CHINESE);
        return relative(sign * step);
    }

    /** The safety net: a resolution that left a number, time word, direction or unit unread becomes a question. */
    private static Resolution checked(Resolution resolution, MarkedText text, Language language) {
        if (resolution.clarification().isPresent()) {
            return resolution;
        }
        text.takeAll(language == Language.CHINESE ? ZH_NEUTRAL : EN_NEUTRAL);
        Optional<String> leftover = Leftovers.find(text.remainder(), language, EnumSet.allOf(Leftovers.Kind.class),
                false);
        return leftover.isEmpty() ? resolution : Resolution.ambiguous(Map.of(), language == Language.CHINESE
                ? "我没听懂“" + leftover.get() + "”这部分——音量要调大、调小，还是调到多少？"
                : "I didn't catch the \"" + leftover.get() + "\" part — should I turn the volume up, down, or set it to a level?");
    }

    private static int firstGroup(Matcher matcher) {
        for (int group = 1; group <= matcher.groupCount(); group++) {
            if (matcher.group(group) != null) {
                return parseBounded(matcher.group(group));
            }
        }
        throw new IllegalStateException("a target pattern matched without a number");
    }

    /** Digits beyond int range are out of range anyway; never throw on them. */
    private static int parseBounded(String digits) {
        String unsigned = digits.startsWith("-") ? digits.substring(1) : digits;
        int value = unsigned.length() > 6 ? 1_000_000 : Integer.parseInt(unsigned);
        return digits.startsWith("-") ? -value : value;
    }

    private static Resolution absolute(int value, Language language) {
        if (value < 0 || value > 100) {
            return Resolution.ambiguous(Map.of(), language == Language.CHINESE
                    ? "音量只能设在0到100之间，你想调到多少？"
                    : "I can set the volume between 0 and 100 — which level would you like?");
        }
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("mode", "absolute");
        arguments.put("value", value);
        return Resolution.of(arguments);
    }

    private static Resolution relative(int delta) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("mode", "relative");
        arguments.put("delta", Math.max(-100, Math.min(100, delta)));
        return Resolution.of(arguments);
    }

    private static Resolution unclear(Language language) {
        return Resolution.ambiguous(Map.of(), language == Language.CHINESE
                ? "音量要调大、调小，还是调到多少？"
                : "Should I turn the volume up, down, or set it to a level?");
    }
}
