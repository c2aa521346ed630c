package io.agentlab.plugins.calendar;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What is left of a schedule request once its temporal phrases are consumed: the title. */
final class Titles {

    private static final Pattern[] EN_TRIGGERS = {
        Pattern.compile("\\bremind me (?:to|about|of|that)\\s+(.+)"),
        Pattern.compile("\\b(?:don'?t|do not) let me forget (?:to\\s+)?(.+)"),
        Pattern.compile("\\bremember (?:to\\s+)?(.+)"),
        Pattern.compile("\\b(?:add|create|schedule|set up|set|put|make|book|plan)\\s+(?:(?:a|an|the|my)\\s+)?"
                + "(?:new\\s+)?(?:reminder\\s+|calendar (?:entry|event)\\s+)?"
                + "(?:for|to|called|titled|named|about|:)?\\s*(.+)"),
        Pattern.compile("\\bi have (?:a|an)\\s+(.+)"),
    };
    private static final Pattern EN_FILLERS = Pattern.compile(
            "\\b(?:please|can you|could you|would you|hey|ok|okay|so|um+|uh+|erm|hmm|thanks|thank you|for me"
                    + "|(?:on|to|in|into) (?:my|the) calendar"
                    + "|remind me|a reminder|reminder)\\b");
    private static final Pattern EN_EDGE_START = Pattern.compile("^(?:(?:to|for|about|that|and|a|an|the|at|on|in)\\b\\s*)+");
    private static final Pattern EN_EDGE_END = Pattern.compile(
            "(?:\\s*\\b(?:to|for|at|on|in|by|and|the|a|an|every|each|next|this|of|from)\\b)+$");
    private static final Pattern PUNCTUATION = Pattern.compile("[\\p{Punct}，。！？、；：“”‘’「」（）\\s]+");
    private static final Pattern ZH_FILLERS = Pattern.compile(
            "提醒一下|提醒我|别让我忘了|别忘了|记得|帮我|帮忙|请|给我|麻烦你?|添加|加个|加一个|创建|新建|安排|设置|设个|设一个|定个|定一个"
                    + "|那个|嗯|呃|谢谢|好的|的时候"
                    + "|记一下|记下|一个|日程|闹钟|事项|提醒|我要|我得|到时候|叫我|喊我|通知我");
    private static final Pattern ZH_EDGES = Pattern.compile("^[的了吧啊呢哦在于]+|[的了吧啊呢哦]+$");

    private Titles() {
    }

    static String english(String remainder) {
        String text = remainder.replaceAll("\\s+", " ").trim();
        for (Pattern trigger : EN_TRIGGERS) {
            Matcher m = trigger.matcher(text);
            if (m.find()) {
                text = m.group(1);
                break;
            }
        }
        text = EN_FILLERS.matcher(text).replaceAll(" ");
        text = text.replaceAll("[\\p{Punct}&&[^'&+-]]+", " ").replaceAll("\\s+", " ").trim();
        String previous;
        do {
            previous = text;
            text = EN_EDGE_START.matcher(text).replaceAll("").trim();
            text = EN_EDGE_END.matcher(text).replaceAll("").trim();
        } while (!text.equals(previous));
        return text.isEmpty() ? null : text;
    }

    static String chinese(String remainder) {
        String text = ZH_FILLERS.matcher(remainder).replaceAll(" ");
        text = PUNCTUATION.matcher(text).replaceAll("");
        String previous;
        do {
            previous = text;
            text = ZH_EDGES.matcher(text).replaceAll("");
        } while (!text.equals(previous));
        return text.isEmpty() ? null : text;
    }
}
