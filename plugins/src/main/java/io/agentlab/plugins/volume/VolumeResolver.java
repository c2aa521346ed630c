package io.agentlab.plugins.volume;

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
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Volume arguments from the user's words, English and Chinese, read from the first clause that talks about volume
 * ({@link #VOLUME_SIGNAL}). Rules, first match wins:
 *
 * <ol>
 *   <li>unmute ("unmute", "sound back on", "取消静音", "打开声音"), then mute ("mute", "silence", "静音");</li>
 *   <li>a change with "by" ("up by 20", "down by 15%") → relative ±amount;</li>
 *   <li>a target ("to 30", "volume 30%", "调到30", "调高到80", "百分之三十") → absolute, even after "up"
 *       ("turn it up to 80" is a target, not a change);</li>
 *   <li>Chinese changes with an amount ("调高十", "调低20", "音量加五") → relative ±amount;</li>
 *   <li>a bare level ("音量三十", "30%") → absolute;</li>
 *   <li>extremes: "max"/"full"/"最大" → 100, "min"/"lowest"/"最小" → 0, "half volume"/"一半" → 50;</li>
 *   <li>complaints count as directions: "too loud"/"太吵了" → down, "too quiet"/"听不见" → up;</li>
 *   <li>a direction with an amount ("turn it down 15") → relative ±amount; alone ("louder", "a bit quieter",
 *       "大声一点", "小声点") → relative ±{@value #DEFAULT_STEP} ({@value #LARGE_STEP} for "a lot"/"much"/"很多");</li>
 *   <li>relative amounts are clamped to ±100 (the level is 0..100 anyway); anything else, or a target outside
 *       0..100, needs clarification with one focused question: a level outside the range is never silently
 *       clamped.</li>
 * </ol>
 */
public final class VolumeResolver implements ArgumentResolver {

    /** The step for "louder"/"quieter" without an amount. */
    public static final int DEFAULT_STEP = 10;
    /** The step for "a lot louder"/"大很多". */
    public static final int LARGE_STEP = 20;

    private static final Pattern EN_UNMUTE = Pattern.compile(
            "\\bun-?mute\\b|\\bsound (?:back )?on\\b|\\bturn (?:the )?sound (?:back )?on\\b|\\brestore (?:the )?sound\\b");
    private static final Pattern EN_MUTE = Pattern.compile(
            "\\bmute\\b|\\bsilence\\b|\\bturn (?:the )?sound off\\b|\\bturn off the sound\\b|\\bno sound\\b");
    private static final Pattern EN_MAX = Pattern.compile("\\b(?:max|maximum|full|loudest)\\b");
    private static final Pattern EN_MIN = Pattern.compile("\\b(?:min|minimum|lowest|quietest)\\b");
    private static final Pattern EN_HALF = Pattern.compile("\\bhalf\\b");
    private static final Pattern EN_TARGET = Pattern.compile(
            "\\b(?:to|at)\\s+(-?\\d+)\\s*(?:%|percent\\b)?|\\bvolume\\s+(?:level\\s+)?(-?\\d+)\\b|\\b(-?\\d+)\\s*(?:%|percent\\b)");
    private static final Pattern EN_UP = Pattern.compile(
            "\\b(?:up|louder|increase|raise|higher|boost|turn it up|pump)\\b");
    private static final Pattern EN_DOWN = Pattern.compile(
            "\\b(?:down|quieter|softer|lower|decrease|reduce|less loud)\\b");
    private static final Pattern EN_BY = Pattern.compile("\\bby\\s+(\\d+)");
    private static final Pattern EN_AMOUNT = Pattern.compile("\\b(\\d+)\\b");
    private static final Pattern EN_TOO_LOUD = Pattern.compile("\\btoo loud\\b|\\bit'?s loud\\b");
    private static final Pattern EN_TOO_QUIET = Pattern.compile(
            "\\btoo (?:quiet|soft|low)\\b|\\bcan'?t hear\\b|\\bcannot hear\\b");
    private static final Pattern EN_LARGE = Pattern.compile("\\b(?:a lot|lots|much|way|far)\\b");
    private static final Pattern EN_VOLUME_CONTEXT = Pattern.compile("\\b(?:volume|sound|louder|quieter|it)\\b");

    private static final Pattern ZH_UNMUTE = Pattern.compile("取消静音|解除静音|关闭静音|打开声音|恢复声音|开声音|把声音打开");
    private static final Pattern ZH_MUTE = Pattern.compile("静音|关闭声音|关掉声音|把声音关|声音关掉|别出声");
    private static final Pattern ZH_MAX = Pattern.compile("最大");
    private static final Pattern ZH_MIN = Pattern.compile("最小");
    private static final Pattern ZH_HALF = Pattern.compile("半数"); // "一半", folded before digitizing
    private static final Pattern ZH_TARGET = Pattern.compile(
            "(?:调到|调成|调为|调至|设为|设置为|设置成|设成|改成|改为|变成|放到|开到|到)\\s*(-?\\d+)");
    private static final Pattern ZH_LEVEL = Pattern.compile("音量\\s*(-?\\d+)|(\\d+)\\s*%");
    private static final Pattern ZH_UP_AMOUNT = Pattern.compile(
            "(?:调高|调大|提高|加大|增大|增加|升高|加|大)\\s*(\\d+)");
    private static final Pattern ZH_DOWN_AMOUNT = Pattern.compile(
            "(?:调低|调小|降低|减小|减少|降|减|小)\\s*(\\d+)");
    private static final Pattern ZH_UP = Pattern.compile("大声|大点|大些|大一|响点|响些|响一|调大|调高|提高|加大|增大|放大|开大");
    private static final Pattern ZH_DOWN = Pattern.compile("小声|小点|小些|小一|轻点|轻些|轻一|调小|调低|降低|减小|关小");
    private static final Pattern ZH_TOO_LOUD = Pattern.compile("太大|太响|太吵|好吵");
    private static final Pattern ZH_TOO_QUIET = Pattern.compile("太小|听不见|听不清|听不到");
    private static final Pattern ZH_LARGE = Pattern.compile("很多|多一些|大幅");

    /** Words that put a clause about volume; other clauses of the utterance are ignored. */
    public static final Pattern VOLUME_SIGNAL = Pattern.compile(
            "(?i)volume|sound|louder|quieter|softer|\\bmute|unmute|\\bturn (?:it|the sound) (?:up|down)\\b"
                    + "|\\btoo (?:loud|quiet)\\b|音量|声音|静音|大声|小声|大点|小点|响");

    @Override
    public Resolution resolve(ResolutionInput input) {
        String raw = Clauses.firstMatching(input.turn().userText(), VOLUME_SIGNAL);
        Resolution fromText = Language.of(raw) == Language.CHINESE ? chinese(raw) : english(raw);
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

    private static final Pattern EN_NEUTRAL = Pattern.compile("\\b(?:a (?:little )?bit|a little|a lot|lots|much|way|far)\\b");
    private static final Pattern ZH_NEUTRAL = Pattern.compile("些|很多|多一些|大幅");

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
        text.takeAll(sign > 0 ? EN_UP : sign < 0 ? EN_DOWN : Pattern.compile("$^"));
        text.takeAll(EN_NEUTRAL);
        Matcher by = text.take(EN_BY);
        if (sign != 0 && by != null) {
            return relative(sign * parseBounded(by.group(1))); // "up by 20%" is a change, not a target
        }
        Matcher target = text.take(EN_TARGET);
        if (target != null) {
            return absolute(firstGroup(target), Language.ENGLISH);
        }
        if (text.take(EN_MAX) != null) {
            return absolute(100, Language.ENGLISH);
        }
        if (text.take(EN_MIN) != null) {
            return absolute(0, Language.ENGLISH);
        }
        if (text.has(EN_HALF) && EN_VOLUME_CONTEXT.matcher(text.text()).find()) {
            text.take(EN_HALF);
            return absolute(50, Language.ENGLISH);
        }
        if (sign != 0) {
            Matcher amount = text.take(EN_AMOUNT);
            int step = amount != null ? parseBounded(amount.group(1))
                    : EN_LARGE.matcher(text.text()).find() ? LARGE_STEP : DEFAULT_STEP;
            return relative(sign * step);
        }
        return unclear(Language.ENGLISH);
    }

    private static Resolution chinese(String raw) {
        // "一点/一些/一下" mean "a bit" here, not the number one: fold them before digitizing.
        MarkedText text = new MarkedText(Numbers.digitize(raw.replace("一点儿", "些").replace("一点", "些")
                .replace("一些", "些").replace("一下", "").replace("一半", "半数")));
        return checked(chineseRules(text), text, Language.CHINESE);
    }

    private static Resolution chineseRules(MarkedText text) {
        if (text.take(ZH_UNMUTE) != null) {
            return Resolution.of(Map.of("mode", "unmute"));
        }
        if (text.take(ZH_MUTE) != null) {
            return Resolution.of(Map.of("mode", "mute"));
        }
        text.takeAll(ZH_NEUTRAL);
        Matcher target = text.take(ZH_TARGET);
        if (target != null) {
            text.takeAll(ZH_UP);
            text.takeAll(ZH_DOWN);
            return absolute(parseBounded(target.group(1)), Language.CHINESE);
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
            return absolute(100, Language.CHINESE);
        }
        if (text.take(ZH_MIN) != null) {
            return absolute(0, Language.CHINESE);
        }
        if (text.take(ZH_HALF) != null) {
            return absolute(50, Language.CHINESE);
        }
        int step = ZH_LARGE.matcher(text.text()).find() ? LARGE_STEP : DEFAULT_STEP;
        if (text.take(ZH_TOO_LOUD) != null) {
            return relative(-step);
        }
        if (text.take(ZH_TOO_QUIET) != null) {
            return relative(step);
        }
        if (text.take(ZH_UP) != null) {
            text.takeAll(ZH_UP);
            return relative(step);
        }
        if (text.take(ZH_DOWN) != null) {
            text.takeAll(ZH_DOWN);
            return relative(-step);
        }
        return unclear(Language.CHINESE);
    }

    /** The safety net: a resolution that left a number, time word, direction or unit unread becomes a question. */
    private static Resolution checked(Resolution resolution, MarkedText text, Language language) {
        if (resolution.clarification().isPresent()) {
            return resolution;
        }
        if (resolution.arguments().get("mode") instanceof String mode && (mode.equals("absolute"))) {
            // a target may be reached by going up or down: the direction word is understood
            text.takeAll(language == Language.CHINESE ? ZH_UP : EN_UP);
            text.takeAll(language == Language.CHINESE ? ZH_DOWN : EN_DOWN);
        }
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
