package io.agentlab.plugins.search;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.ArgumentResolver;
import io.agentlab.kernel.api.ConversationMessage;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionInput;
import io.agentlab.plugins.text.Clauses;
import io.agentlab.plugins.text.Language;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * A focused search query from the current request and relevant history ({@code docs/design.md#plugin-search-query}):
 * conversational fillers are dropped ("can you search for", "帮我查一下", trailing "please", question particles), entities
 * and their case are kept. When what is left is a follow-up that leans on earlier context (a pronoun such as "it"/"他",
 * or fewer than two words), the previous user message's focused query is appended, so "how old is he" after "who is the
 * president of France" searches "how old is he president of France".
 */
@API(status = INTERNAL, since = "0.1")
public final class SearchQueryResolver implements ArgumentResolver {

    /** Clauses that ask for a search; other clauses of the utterance are ignored. */
    public static final Pattern SEARCH_SIGNAL = Pattern.compile(
            "(?i)\\bsearch|\\blook up|\\bgoogle|\\bfind out|\\bwhat|\\bwho|\\bwhen|\\bwhere|\\bhow|\\bweather"
                    + "|\\bnews|\\bprice|\\blatest|搜|查|天气|新闻|怎么样|多少|是什么|是谁|哪|最新");

    private static final Pattern EN_FILLERS = Pattern.compile("(?i)^(?:\\s*(?:hey|hi|ok|okay|so|please|can you|could you"
            + "|would you|will you|do you know|i want to know|i'd like to know|i wonder|tell me|let me know|check"
            + "|search(?: the web| online| the internet| google)?(?: for)?|look up|google|find out|find|me"
            + "|what's(?: the)?|what is(?: the)?|what are(?: the)?)\\b\\s*)+");
    private static final Pattern EN_TRAILING = Pattern.compile("(?i)(?:\\s*\\b(?:please|for me|online|on the web|thanks|thank you"
            + "|bye(?: bye)?|goodbye|good ?night|see you(?: later)?)\\b)+\\s*$");
    private static final Pattern EN_PRONOUN = Pattern.compile("(?i)\\b(?:it|that|there|they|them|he|she|him|her|this)\\b");
    private static final Pattern ZH_FILLERS = Pattern.compile(
            "帮我|请|麻烦你?|你能不能|能不能|可不可以|可以|搜索一下|搜一下|搜搜|搜索|搜|查一下|查查|查询|查|看看|看一下"
                    + "|告诉我|我想知道|想知道|一下|上网|网上");
    private static final Pattern ZH_PARTICLES = Pattern.compile("(?:[吗呢啊吧呀嘛]|谢谢|再见|拜拜|晚安)+$");
    private static final Pattern ZH_PRONOUN = Pattern.compile("它|他|她|那里|那边|这个|那个|这里");
    private static final Pattern PUNCTUATION = Pattern.compile("[?？!！。,，.;；:：\"“”]+");

    @Override
    public Resolution resolve(ResolutionInput input) {
        String current = Clauses.firstMatching(input.turn().userText(), SEARCH_SIGNAL);
        Language language = Language.of(current);
        String query = focus(current);
        if (needsContext(query, language)) {
            String previous = previousUserMessage(input.turn().history());
            if (previous != null) {
                String context = focus(Clauses.firstMatching(previous, SEARCH_SIGNAL));
                if (!context.isEmpty() && !query.contains(context)) {
                    query = normalQuery(query + (language == Language.CHINESE ? "" : " ") + context);
                }
            }
        }
        if (query.isEmpty()) {
            return Resolution.ambiguous(Map.of(), language == Language.CHINESE
                    ? "你想让我搜什么？" : "What should I search for?");
        }
        return Resolution.of(Map.of("query", query));
    }

    /**
     * The query as the normalizer leaves it: stripped of Unicode white space (U+2003, U+3000, ...), which {@code trim()}
     * and {@code \s} leave, and its runs of white space made one space. The resolver and the normalizer share it, so a
     * query the resolver judges non-blank is never emptied before the schema's {@code minLength}.
     */
    static String normalQuery(String query) {
        return query.strip().replaceAll("\\s+", " ");
    }

    /** The utterance without fillers, as {@link #normalQuery} leaves it; never null. */
    static String focus(String utterance) {
        String text = PUNCTUATION.matcher(utterance).replaceAll(" ").replaceAll("\\s+", " ").trim();
        if (Language.of(text) == Language.CHINESE) {
            text = ZH_FILLERS.matcher(text).replaceAll("");
            text = ZH_PARTICLES.matcher(text.trim()).replaceAll("");
            // trim() first: it also drops control characters at the ends, which strip() keeps
            return normalQuery(text.trim());
        }
        text = EN_FILLERS.matcher(text).replaceAll("");
        text = EN_TRAILING.matcher(text).replaceAll("");
        return normalQuery(text.trim());
    }

    private static boolean needsContext(String query, Language language) {
        if (language == Language.CHINESE) {
            return ZH_PRONOUN.matcher(query).find() || query.codePointCount(0, query.length()) < 2;
        }
        return EN_PRONOUN.matcher(query).find() || query.split(" ").length < 2;
    }

    private static String previousUserMessage(List<ConversationMessage> history) {
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).role() == ConversationMessage.Role.USER) {
                return history.get(i).text();
            }
        }
        return null;
    }
}
