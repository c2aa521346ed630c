package io.agentlab.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.ConversationMessage;
import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.plugins.search.InMemoryWebSearch;
import io.agentlab.plugins.search.SearchPlugin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** knowledge.web.search: a focused query, fillers dropped, entities kept, in both languages. */
class SearchQueryTest {

    private static Harness harness;

    @BeforeAll
    static void start() {
        harness = new Harness(new SearchPlugin(new InMemoryWebSearch()));
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @ParameterizedTest(name = "[{index}] {0} → {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            can you search for the latest news about SpaceX?   | the latest news about SpaceX
            what's the weather in Hangzhou tomorrow             | weather in Hangzhou tomorrow
            please look up the opening hours of the Louvre      | the opening hours of the Louvre
            who won the World Cup in 2022                       | who won the World Cup in 2022
            tell me the price of Bitcoin today please           | the price of Bitcoin today
            find out when the next iPhone launches              | when the next iPhone launches
            帮我查一下明天杭州的天气                              | 明天杭州的天气
            搜一下最新的火星新闻吧                                | 最新的火星新闻
            我想知道故宫几点开门                                  | 故宫几点开门
            请告诉我比特币现在多少钱                               | 比特币现在多少钱
            what's the weather in Paris? thanks, bye            | weather in Paris
            look up the weather in Paris thank you goodbye      | the weather in Paris
            查一下巴黎的天气，谢谢再见                             | 巴黎的天气
            查一下巴黎的天气谢谢拜拜                               | 巴黎的天气
            """)
    void focusesTheQuery(String utterance, String query) {
        assertThat(harness.dual(SearchPlugin.NAME, utterance).arguments()).isEqualTo(Map.of("query", query));
    }

    @Test
    @DisplayName("a follow-up leaning on earlier context takes the previous request's entities")
    void usesHistory() {
        List<ConversationMessage> history = List.of(ConversationMessage.user("who is the president of France"),
                ConversationMessage.assistant("Let me check."));
        assertThat(harness.dual(SearchPlugin.NAME, "how old is he", history).arguments())
                .isEqualTo(Map.of("query", "how old is he who is the president of France"));

        List<ConversationMessage> chinese = List.of(ConversationMessage.user("长城有多长"));
        assertThat(harness.dual(SearchPlugin.NAME, "它是什么时候建的", chinese).arguments())
                .isEqualTo(Map.of("query", "它是什么时候建的长城有多长"));
    }

    @Test
    @DisplayName("nothing left to search asks what to search")
    void emptyQuery() {
        assertThat(harness.dual(SearchPlugin.NAME, "can you search please").outcome())
                .isInstanceOfSatisfying(NeedsClarification.class,
                        c -> assertThat(c.question()).isEqualTo("What should I search for?"));
    }

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(strings = {"2003", "3000"})
    @DisplayName("Unicode white space at a query's ends counts as a space does: whether context is added, and the join")
    void unicodeWhiteSpaceAtTheEnds(String codePoint) {
        // focus() strips as the normalizer does (SearchQueryResolver.normalQuery): "查一下\u3000雨" focused to
        // "\u3000雨" counted two characters, so it took no context where "查一下 雨" does (an IME types U+3000)
        String space = Character.toString(Integer.parseInt(codePoint, 16));
        assertThat(query("search for" + space + "news", "who is the president of France"))
                .isEqualTo(query("search for news", "who is the president of France"))
                .isEqualTo("news who is the president of France");
        assertThat(query("查一下" + space + "雨", "长城有多长")).isEqualTo(query("查一下 雨", "长城有多长"))
                .isEqualTo("雨长城有多长");
        assertThat(query("它有多高", "帮我查一下" + space + "长城")).isEqualTo(query("它有多高", "帮我查一下 长城"))
                .isEqualTo("它有多高长城");
    }

    /** The query resolved for {@code utterance} after a user message {@code previous}. */
    private static Object query(String utterance, String previous) {
        return harness.dual(SearchPlugin.NAME, utterance, List.of(ConversationMessage.user(previous))).arguments()
                .get("query");
    }

    @ParameterizedTest(name = "U+{0}")
    @ValueSource(strings = {"2003", "3000", "1680", "2028", "205F"})
    @DisplayName("an utterance of Unicode white space alone asks what to search, never searches a blank query")
    void unicodeWhiteSpaceOnly(String codePoint) {
        // the normalizer strips Unicode white space; a query that is nothing else would reach the port as "" (found
        // by ResolverPropertiesTest#completeResolutionsAreValid, a space the regular expressions' \s does not match)
        String text = Character.toString(Integer.parseInt(codePoint, 16));
        assertThat(harness.dual(SearchPlugin.NAME, text).outcome()).isInstanceOf(NeedsClarification.class);
        assertThat(harness.dual(SearchPlugin.NAME, "search " + text + " please").outcome())
                .isInstanceOf(NeedsClarification.class);
    }
}
