package io.agentlab.kernel.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Validation of the API's value types: bad input is refused where it enters, naming where and why. */
class ValueTypesTest {

    private static final TurnContext TURN = TurnContext.of(new EventScope("s", "t"), Instant.EPOCH, ZoneId.of("UTC"),
            Locale.ENGLISH, "hi");

    @Test
    @DisplayName("limits: concurrency within 1..16, a positive bounded deadline, defaults 4 and 15 s")
    void limits() {
        assertThat(KernelLimits.defaults()).isEqualTo(new KernelLimits(4, Duration.ofSeconds(15)));
        assertThatThrownBy(() -> new KernelLimits(0, Duration.ofSeconds(1))).hasMessageContaining("1..16");
        assertThatThrownBy(() -> new KernelLimits(17, Duration.ofSeconds(1))).hasMessageContaining("1..16");
        assertThatThrownBy(() -> new KernelLimits(4, Duration.ZERO)).hasMessageContaining("positive");
        assertThatThrownBy(() -> new KernelLimits(4, Duration.ofHours(1))).hasMessageContaining("at most");
    }

    @Test
    @DisplayName("a batch numbers its events e1.. in emission order and refuses duplicate ids")
    void batch() {
        EventBatch batch = EventBatch.builder(TURN, InvocationMode.DUAL_AGENT).event("a.b").event("c.d").build();
        assertThat(batch.requests()).extracting(EventRequest::eventId).containsExactly("e1", "e2");
        assertThat(batch.requests()).extracting(EventRequest::orderIndex).containsExactly(0, 1);
        assertThatThrownBy(() -> EventBatch.builder(TURN, InvocationMode.DUAL_AGENT)
                .event("x", "a.b", Map.of()).event("x", "c.d", Map.of()).build())
                .hasMessageContaining("duplicate eventId 'x'");
    }

    @Test
    @DisplayName("a batch refuses a request from another turn")
    void batchScope() {
        EventRequest foreign = new EventRequest("e1", "a.b", Map.of(), InvocationMode.DUAL_AGENT, 0,
                new EventScope("s", "other"), Instant.EPOCH);
        assertThatThrownBy(() -> new EventBatch(TURN, List.of(foreign))).hasMessageContaining("s/other");
    }

    @Test
    @DisplayName("arguments must be JSON-shaped; the error names the path")
    void jsonValues() {
        assertThatThrownBy(() -> JsonValues.copyObject(Map.of("when", Map.of("date", LocalDate.EPOCH))))
                .hasMessageContaining("$.when.date").hasMessageContaining("LocalDate");
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("a", null);
        assertThat(JsonValues.copyObject(withNull)).containsEntry("a", null);
    }

    @Test
    @DisplayName("copies are deep and immutable")
    void immutable() {
        java.util.List<Object> list = new java.util.ArrayList<>(List.of(1));
        Map<String, Object> source = new HashMap<>(Map.of("list", list));
        Map<String, Object> copy = JsonValues.copyObject(source);
        list.add(2);
        assertThat(copy.get("list")).isEqualTo(List.of(1));
        assertThatThrownBy(() -> copy.put("b", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    @DisplayName("modes parse from their wire names only")
    void modes() {
        assertThat(InvocationMode.fromWireName("chat_agent_tools")).isEqualTo(InvocationMode.CHAT_AGENT_TOOLS);
        assertThatThrownBy(() -> InvocationMode.fromWireName("tools")).hasMessageContaining("dual_agent");
    }

    @Test
    @DisplayName("the recent history slice keeps the newest messages")
    void recentHistory() {
        TurnContext turn = new TurnContext(TURN.scope(), Instant.EPOCH, ZoneId.of("UTC"), Locale.ENGLISH, "now",
                List.of(ConversationMessage.user("1"), ConversationMessage.assistant("2"), ConversationMessage.user("3")));
        assertThat(turn.recentHistory(2)).extracting(ConversationMessage::text).containsExactly("2", "3");
        assertThat(turn.recentHistory(0)).isEmpty();
        assertThat(turn.recentHistory(9)).hasSize(3);
    }
}
