package io.agentlab.kernel.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The definition rules that need no registry.
 * The clauses this checks: {@code docs/design.md#kernel-definition}, {@code docs/design.md#kernel-definition-valid}.
 */
class EventDefinitionTest {

    private static EventDefinition.Builder valid(String name) {
        return EventDefinition.builder(name)
                .schemaVersion("1.2.0")
                .description("Does a thing.")
                .argumentsSchema("{\"type\":\"object\"}")
                .handler(invocation -> HandlerResult.success(Map.of()))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS);
    }

    @Test
    @DisplayName("defaults: side-effecting, no retry, 5 s timeout, no fallback, failures visible")
    void defaults() {
        EventDefinition definition = valid("lamp.power.toggle").build();
        assertThat(definition.concurrencyClass()).isEqualTo(ConcurrencyClass.SIDE_EFFECTING);
        assertThat(definition.retryPolicy()).isEqualTo(RetryPolicy.none());
        assertThat(definition.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(definition.fallbackAllowed()).isFalse();
        assertThat(definition.failureVisibleToChatAgent()).isTrue();
        assertThat(definition.terminal()).isFalse();
    }

    @Test
    @DisplayName("toBuilder keeps every part, so a variant differs only where it says")
    void toBuilder() {
        EventDefinition original = valid("lamp.power.toggle").timeout(Duration.ofSeconds(2)).requiredFields("state")
                .confirmationTemplate((arguments, payload, locale) -> "done").build();
        assertThat(original.toBuilder().build()).isEqualTo(original);
        EventHandler other = invocation -> HandlerResult.success(Map.of("other", true));
        EventDefinition variant = original.toBuilder().handler(other).build();
        assertThat(variant.handler()).isSameAs(other);
        assertThat(variant.toBuilder().handler(original.handler()).build()).isEqualTo(original);
    }

    @Test
    @DisplayName("a name must be namespaced")
    void namespacedName() {
        assertThatThrownBy(() -> valid("terminate").build()).hasMessageContaining("not namespaced");
        assertThatThrownBy(() -> valid("Lamp.Toggle").build()).hasMessageContaining("not namespaced");
        assertThatThrownBy(() -> valid("lamp-power.toggle").build()).hasMessageContaining("not namespaced");
    }

    @Test
    @DisplayName("the schema version must be semantic")
    void semver() {
        assertThatThrownBy(() -> valid("a.b").schemaVersion("v1").build()).hasMessageContaining("MAJOR.MINOR.PATCH");
        assertThat(valid("a.b").schemaVersion("2.0.0-rc.1").build().schemaVersion()).isEqualTo("2.0.0-rc.1");
    }

    @Test
    @DisplayName("the description is one non-blank line")
    void description() {
        assertThatThrownBy(() -> valid("a.b").description(" ").build()).hasMessageContaining("description");
        assertThatThrownBy(() -> valid("a.b").description("two\nlines").build()).hasMessageContaining("description");
    }

    @Test
    @DisplayName("terminate requires a terminal definition")
    void terminateIsTerminal() {
        assertThatThrownBy(() -> valid("a.b").resultPolicy(ResultPolicy.TERMINATE).build())
                .hasMessageContaining("a.b").hasMessageContaining("terminal(true)");
    }

    @Test
    @DisplayName("template_follow_up requires a confirmation template")
    void templateRequired() {
        assertThatThrownBy(() -> valid("a.b").resultPolicy(ResultPolicy.TEMPLATE_FOLLOW_UP).build())
                .hasMessageContaining("confirmationTemplate");
    }

    @Test
    @DisplayName("a side-effecting event may never be retried")
    void noRetryForSideEffects() {
        assertThatThrownBy(() -> valid("a.b").retryPolicy(RetryPolicy.onceOnTransientFailure()).build())
                .hasMessageContaining("never be retried");
        assertThat(valid("a.b").concurrencyClass(ConcurrencyClass.READ_ONLY)
                .retryPolicy(RetryPolicy.onceOnTransientFailure()).build().retryPolicy().retriesOnTransientFailure())
                .isEqualTo(1);
        assertThatThrownBy(() -> new RetryPolicy(2)).hasMessageContaining("0 or 1");
    }

    @Test
    @DisplayName("the timeout must be positive")
    void timeout() {
        assertThatThrownBy(() -> valid("a.b").timeout(Duration.ZERO).build()).hasMessageContaining("positive");
    }

    /** The clause this checks: {@code docs/design.md#safety-idempotency-key}. */
    @Test
    @DisplayName("the standard idempotency key is stable and changes with every input")
    void idempotencyKey() {
        IdempotencyKeyDerivation keys = IdempotencyKeyDerivation.standard();
        EventScope scope = new EventScope("s", "t");
        String key = keys.derive(scope, "e1", "a.b", "{\"x\":1}");
        assertThat(keys.derive(scope, "e1", "a.b", "{\"x\":1}")).isEqualTo(key).hasSize(64);
        assertThat(keys.derive(new EventScope("s", "t2"), "e1", "a.b", "{\"x\":1}")).isNotEqualTo(key);
        assertThat(keys.derive(scope, "e2", "a.b", "{\"x\":1}")).isNotEqualTo(key);
        assertThat(keys.derive(scope, "e1", "a.b", "{\"x\":2}")).isNotEqualTo(key);
    }
}
