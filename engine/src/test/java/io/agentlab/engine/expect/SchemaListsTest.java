package io.agentlab.engine.expect;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.engine.internal.suite.SuiteSchema;
import io.agentlab.kernel.api.ContinuationKind;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.OutcomeStatus;
import io.agentlab.kernel.api.ResolutionOutcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One list for one thing: the suite schema's enums of statuses, policies, follow-up reasons and resolutions are the
 * wire names of the kernel API's enums, which the expectations read too. The schema is JSON for editors and
 * networknt, so it cannot read the enums; this test ties them (docs/suite-format.md).
 */
class SchemaListsTest {

    /** JSON pointer in {@code suite.schema.json} → the names the kernel API gives, in its order. */
    static Map<String, List<String>> expectedLists() {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        lists.put("/$defs/status/enum", Arrays.stream(OutcomeStatus.values()).map(OutcomeStatus::wireName).toList());
        lists.put("/$defs/expect/properties/policy/oneOf/0/enum", Stream.concat(Arrays.stream(ContinuationKind
                .values()).map(ContinuationKind::wireName), Stream.of(PolicyExpectation.NO_DECISION)).toList());
        lists.put("/$defs/expect/properties/policy/oneOf/1/properties/follow_up/items/enum",
                Arrays.stream(FollowUpReason.values()).map(reason -> reason.name().toLowerCase(Locale.ROOT)).toList());
        lists.put("/$defs/expect/properties/events/items/properties/resolution/enum",
                Arrays.stream(ResolutionOutcome.values()).map(outcome -> outcome.name().toLowerCase(Locale.ROOT))
                        .toList());
        return lists;
    }

    /** Each list of {@code schema} that differs from the kernel API's, or is missing. */
    static List<String> mismatches(String schema) {
        JsonNode root = JsonMapper.builder().build().readTree(schema);
        List<String> mismatches = new ArrayList<>();
        expectedLists().forEach((pointer, expected) -> {
            JsonNode node = root.at(pointer);
            List<String> written = new ArrayList<>();
            node.forEach(value -> written.add(value.asString()));
            if (!node.isArray() || !written.equals(expected)) {
                mismatches.add(pointer + ": the schema writes " + (node.isArray() ? written : "nothing")
                        + ", the kernel API " + expected);
            }
        });
        return mismatches;
    }

    @Test
    @DisplayName("the suite schema's statuses, policies, follow-up reasons and resolutions are the kernel API's")
    void schemaListsAreTheApis() {
        assertThat(mismatches(SuiteSchema.text())).isEmpty();
    }

    @Test
    @DisplayName("the expectations accept exactly the kernel API's names")
    void expectationsReadTheApi() {
        assertThat(EventsExpectation.STATUSES).containsExactlyInAnyOrderElementsOf(expectedLists()
                .get("/$defs/status/enum"));
        assertThat(PolicyExpectation.POLICIES).containsExactlyInAnyOrderElementsOf(expectedLists()
                .get("/$defs/expect/properties/policy/oneOf/0/enum"));
    }

    @Test
    @DisplayName("a schema that renames a status, drops a policy or loses a list is caught")
    void seededMismatchesAreCaught() {
        String schema = SuiteSchema.text();
        assertThat(mismatches(schema.replace("\"timed_out\"", "\"timeout\""))).singleElement().asString()
                .startsWith("/$defs/status/enum").contains("timeout");
        assertThat(mismatches(schema.replace("\"end_session\", \"complete\"", "\"end_session\"")))
                .singleElement().asString().startsWith("/$defs/expect/properties/policy/oneOf/0/enum");
        assertThat(mismatches(schema.replace("\"status\": {\"enum\"", "\"status\": {\"oneOf\"")))
                .anySatisfy(mismatch -> assertThat(mismatch).contains("the schema writes nothing"));
    }
}
