package io.agentlab.kernel.reference;

import static io.agentlab.kernel.reference.Definitions.ok;
import static io.agentlab.kernel.reference.Definitions.silent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The flat registry refuses what would fail mid-turn. */
class EventRegistryTest {

    /** The clause this checks: {@code docs/design.md#kernel-flat-registry}. */
    @Test
    @DisplayName("a duplicate name is refused at registration")
    void duplicateName() {
        assertThatThrownBy(() -> EventRegistry.of(List.of(silent("t.one", ok()).build(), silent("t.one", ok()).build())))
                .isInstanceOf(RegistrationException.class)
                .hasMessageContaining("duplicate event name 't.one'");
    }

    @Test
    @DisplayName("a schema that is not JSON is refused with its line and column")
    void schemaNotJson() {
        assertThatThrownBy(() -> EventRegistry.of(List.of(silent("t.one", ok())
                .argumentsSchema("{\"type\":\n \"object\",,}").build())))
                .isInstanceOf(RegistrationException.class)
                .hasMessageContaining("t.one")
                .hasMessageContaining("not valid JSON")
                .hasMessageContaining("line 2");
    }

    /** The clause this checks: {@code docs/design.md#plugin-schema-provider-safe}. */
    @Test
    @DisplayName("a schema whose root is not an object schema is refused (provider tools take objects)")
    void schemaNotObject() {
        assertThatThrownBy(() -> EventRegistry.of(List.of(silent("t.one", ok())
                .argumentsSchema("{\"type\":\"string\"}").build())))
                .isInstanceOf(RegistrationException.class)
                .hasMessageContaining("\"type\": \"object\"");
    }

    /** The clause this checks: {@code docs/design.md#plugin-schema-provider-safe}. */
    @Test
    @DisplayName("a schema that violates the draft 2020-12 meta-schema is refused naming where")
    void schemaInvalidAgainstMetaSchema() {
        assertThatThrownBy(() -> EventRegistry.of(List.of(silent("t.one", ok())
                .argumentsSchema("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":5}}}").build())))
                .isInstanceOf(RegistrationException.class)
                .hasMessageContaining("draft 2020-12")
                .hasMessageContaining("/properties/n/type");
    }

    /** The clause this checks: {@code docs/design.md#kernel-flat-registry}. */
    @Test
    @DisplayName("an invalid schema is refused for every event that uses it, each time naming that event")
    void invalidSchemaRefusedEveryTime() {
        String invalid = "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":5}}}";
        for (String name : List.of("t.first", "t.second", "t.first")) {
            assertThatThrownBy(() -> EventRegistry.of(List.of(silent(name, ok()).argumentsSchema(invalid).build())))
                    .isInstanceOf(RegistrationException.class)
                    .hasMessageStartingWith(name + ": ")
                    .hasMessageContaining("/properties/n/type");
        }
    }

    @Test
    @DisplayName("the same schema text compiles once, and validates the same, in every registry")
    void sameSchemaCompiledOnce() {
        String schema = "{\"type\":\"object\",\"properties\":{\"level\":{\"type\":\"integer\",\"maximum\":100}},"
                + "\"required\":[\"level\"]}";
        EventRegistry one = EventRegistry.of(List.of(silent("t.one", ok()).argumentsSchema(schema).build()));
        EventRegistry two = EventRegistry.of(List.of(silent("t.two", ok()).argumentsSchema(schema).build()));
        ArgumentSchema first = one.schema("t.one").orElseThrow();
        assertThat(two.schema("t.two")).containsSame(first);
        assertThat(first.check(Map.of()).missing()).containsExactly("level");
        assertThat(first.check(Map.of("level", 101)).violations()).singleElement()
                .satisfies(v -> assertThat(v.toString()).contains("level"));
        // the shared schema's tree is handed out as a copy, so no caller can change what another registry checks
        ((ObjectNode) first.node()).remove("required");
        assertThat(two.schema("t.two").orElseThrow().node().has("required")).isTrue();
    }

    @Test
    @DisplayName("definitions keep registration order and are found by name")
    void lookup() {
        EventRegistry registry = EventRegistry.of(List.of(silent("t.b", ok()).build(), silent("t.a", ok()).build()));
        assertThat(registry.names()).containsExactly("t.b", "t.a");
        assertThat(registry.lookup("t.a")).isPresent();
        assertThat(registry.lookup("t.c")).isEmpty();
        assertThat(registry.schema("t.a")).isPresent();
    }
}
