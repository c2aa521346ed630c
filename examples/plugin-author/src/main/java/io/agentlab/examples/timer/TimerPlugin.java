package io.agentlab.examples.timer;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code toy.timer.start}: "set a timer for 5 minutes", "十分钟的计时器". The resolver reads the minutes in digits,
 * in English number words up to twenty, or in Chinese numerals up to 九十九; a missing amount is a clarification.
 */
public final class TimerPlugin implements EventPlugin {

    /** The event name. */
    public static final String NAME = "toy.timer.start";
    private static final Pattern DIGITS = Pattern.compile("(\\d{1,3})\\s*(?:min|minute|minutes|分钟|分)");
    private static final Pattern WORDS = Pattern.compile("\\b(one|two|three|four|five|six|seven|eight|nine|ten|"
            + "fifteen|twenty)\\s+minutes?\\b");
    private static final Pattern CHINESE = Pattern.compile("([一二两三四五六七八九十]{1,3})\\s*分钟");
    private static final Map<String, Integer> ENGLISH = Map.ofEntries(Map.entry("one", 1), Map.entry("two", 2),
            Map.entry("three", 3), Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6),
            Map.entry("seven", 7), Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10),
            Map.entry("fifteen", 15), Map.entry("twenty", 20));
    private static final String DIGITS_ZH = "零一二三四五六七八九";

    private final EventDefinition definition;

    /** With timers in memory (for ServiceLoader). */
    public TimerPlugin() {
        this(new InMemoryTimers());
    }

    /** With the given port. */
    public TimerPlugin(TimerPort port) {
        this.definition = EventDefinition.builder(NAME).schemaVersion("1.0.0")
                .description("Start a countdown timer on the toy.")
                .argumentsSchema("""
                        {"type":"object","properties":{
                          "minutes":{"type":"integer","minimum":1,"maximum":180},
                          "label":{"type":"string","maxLength":60}},
                         "required":["minutes"],"additionalProperties":false}""")
                .resolver(input -> resolve(input.turn().userText()))
                .handler(invocation -> {
                    int minutes = ((Number) invocation.arguments().get("minutes")).intValue();
                    String label = (String) invocation.arguments().getOrDefault("label", "timer");
                    return HandlerResult.success(Map.of("timer_id", port.start(invocation.turn().scope().sessionId(),
                            minutes, label, invocation.idempotencyKey())));
                })
                .timeout(Duration.ofSeconds(3))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS).build();
    }

    static Resolution resolve(String text) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        Integer minutes = null;
        Matcher matcher = DIGITS.matcher(lower);
        if (matcher.find()) {
            minutes = Integer.parseInt(matcher.group(1));
        } else if ((matcher = WORDS.matcher(lower)).find()) {
            minutes = ENGLISH.get(matcher.group(1));
        } else if ((matcher = CHINESE.matcher(text)).find()) {
            minutes = chinese(matcher.group(1));
        }
        if (minutes == null) {
            return Resolution.ambiguous(Map.of(), "How many minutes should the timer run?");
        }
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("minutes", minutes);
        return Resolution.of(arguments);
    }

    private static int chinese(String numeral) {
        String n = numeral.replace('两', '二');
        if (n.equals("十")) {
            return 10;
        }
        int ten = n.indexOf('十');
        if (ten < 0) {
            return DIGITS_ZH.indexOf(n.charAt(0));
        }
        int tens = ten == 0 ? 1 : DIGITS_ZH.indexOf(n.charAt(0));
        int ones = ten == n.length() - 1 ? 0 : DIGITS_ZH.indexOf(n.charAt(ten + 1));
        return tens * 10 + ones;
    }

    @Override
    public EventDefinition definition() {
        return definition;
    }
}
