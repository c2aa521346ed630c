package io.agentlab.agui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The AG-UI 1.0 event definitions as the checker reads them: {@code @ag-ui/core} 1.0.0's own, converted to JSON Schema
 * (docs/runtime.md#schemas), and the one-line findings made of networknt's errors. Each case seeds one violation.
 */
class AguiSchemaTest {

    private static final AguiSchema SCHEMA = AguiSchema.of(AguiProfile.AGUI_1_0);

    private static List<AguiSchema.Finding> check(String json) {
        List<AguiSchema.Finding> findings = new ArrayList<>();
        SCHEMA.check(AguiJson.object(AguiJson.tree(json.replace('\'', '"'))), findings);
        return findings;
    }

    private static AguiSchema.Finding defect(String path, String message) {
        return new AguiSchema.Finding(path, message, false);
    }

    private static AguiSchema.Finding undefined(String path, String message) {
        return new AguiSchema.Finding(path, message, true);
    }

    @Test
    @DisplayName("the 31 event types of @ag-ui/core 1.0.0, in its order; compiled once")
    void types() {
        assertThat(SCHEMA.types()).hasSize(31).startsWith("TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT")
                .endsWith("SUBAGENT_FINISHED", "SUBAGENT_ERROR").contains("REASONING_ENCRYPTED_VALUE");
        assertThat(AguiSchema.of(AguiProfile.AGUI_1_0)).isSameAs(SCHEMA);
        assertThatThrownBy(() -> AguiSchema.of(AguiProfile.SOCIAL_DIALECT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("social-dialect");
    }

    @Test
    @DisplayName("valid events, open positions and integral numbers pass")
    void valid() {
        assertThat(check("{'type':'TEXT_MESSAGE_CONTENT','messageId':'m','delta':'hi','timestamp':3.0,"
                + "'metadata':{'anything':[null]},'rawEvent':{'whatever':1}}")).isEmpty();
        assertThat(check("{'type':'STATE_DELTA','delta':[{'op':'add','path':'/a','value':null,'extra':1}]}"))
                .as("JSON Patch operations keep unknown members (specOpen)").isEmpty();
        assertThat(check("{'type':'RUN_STARTED','threadId':'t','runId':'r','input':{'threadId':'t','runId':'r',"
                + "'messages':[{'id':'u','role':'user','content':[{'type':'text','text':'hi'}]}],'state':null}}"))
                .isEmpty();
    }

    @Test
    @DisplayName("a missing required field and a field of the wrong type are AGUI1-03 findings")
    void defects() {
        assertThat(check("{'type':'TOOL_CALL_ARGS','toolCallId':'c'}"))
                .containsExactly(defect("/delta", "is missing; TOOL_CALL_ARGS requires it (a string)"));
        assertThat(check("{'type':'TEXT_MESSAGE_CONTENT','messageId':'m','delta':3}"))
                .containsExactly(defect("/delta", "is the number 3, expected a string"));
        assertThat(check("{'type':'TEXT_MESSAGE_CONTENT','messageId':'m','delta':'x','timestamp':1.5}"))
                .containsExactly(defect("/timestamp", "is the number 1.5, expected an integer"));
        assertThat(check("{'type':'TEXT_MESSAGE_START','messageId':'m','name':null}"))
                .containsExactly(defect("/name", "is null; an optional field is left out, never null"));
        assertThat(check("{'type':'TEXT_MESSAGE_START','messageId':'m','metadata':[]}"))
                .containsExactly(defect("/metadata", "is an array, expected a JSON object"));
        assertThat(check("{'type':'STATE_DELTA','delta':[{'op':'add','path':'a','value':1}]}"))
                .singleElement().satisfies(f -> assertThat(f.path()).isEqualTo("/delta/0/path"))
                .satisfies(f -> assertThat(f.message()).startsWith("is the string \"a\", expected a string matching"));
        assertThat(check("{'type':'RUN_FINISHED','threadId':'t','runId':'r','outcome':{'type':'interrupt',"
                + "'interrupts':[]}}"))
                .containsExactly(defect("/outcome/interrupts", "has 0 item(s), at least 1 required"));
        assertThat(check("{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'a','role':'assistant','toolCalls':[{'id':'c',"
                + "'type':'function','function':{'name':'n'}}]}]}"))
                .containsExactly(defect("/messages/0/toolCalls/0/function/arguments",
                        "is missing; FunctionCall requires it (a string)"));
    }

    @Test
    @DisplayName("a union of a string and content parts is judged by the branch of the value's kind")
    void unionByKind() {
        assertThat(check("{'type':'TOOL_CALL_RESULT','messageId':'m','toolCallId':'c','content':5}"))
                .containsExactly(defect("/content", "is the number 5, expected a string or an array of ContentPart"));
        assertThat(check("{'type':'TOOL_CALL_RESULT','messageId':'m','toolCallId':'c','content':[{'type':'text'}]}"))
                .containsExactly(defect("/content/0/text", "is missing; TextPart requires it (a string)"));
    }

    @Test
    @DisplayName("a value of a discriminated union that is no object fails once, naming the union")
    void unionThatIsNoObject() {
        assertThat(check("{'type':'RUN_FINISHED','threadId':'t','runId':'r','outcome':'done'}"))
                .containsExactly(defect("/outcome", "is the string \"done\", expected a RunFinishedOutcome"));
        assertThat(check("{'type':'TOOL_CALL_RESULT','messageId':'m','toolCallId':'c','content':'ok','role':[]}"))
                .as("type and const fail alike: one finding").hasSize(1);
    }

    @Test
    @DisplayName("material the definition lacks, at any depth, and an unknown tag are AGUI1-04 findings")
    void undefinedMaterial() {
        assertThat(check("{'type':'RUN_ERROR','message':'m','threadId':'t'}"))
                .containsExactly(undefined("/threadId", "is not a field of RUN_ERROR"));
        assertThat(check("{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'a','role':'assistant','toolCalls':[{'id':'c',"
                + "'type':'function','function':{'name':'n','arguments':'{}'},'zz':1}]}]}"))
                .containsExactly(undefined("/messages/0/toolCalls/0/zz", "is not a field of ToolCall"));
        assertThat(check("{'type':'MESSAGES_SNAPSHOT','messages':[{'id':'a','role':'robot','content':'x'}]}"))
                .singleElement().satisfies(f -> assertThat(f.undefined()).isTrue())
                .satisfies(f -> assertThat(f.path()).isEqualTo("/messages/0/role"))
                .satisfies(f -> assertThat(f.message()).startsWith("is the string \"robot\", not a Message [developer, "
                        + "system, assistant, user, tool, activity, reasoning]; the client drops"));
    }
}
