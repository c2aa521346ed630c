package io.agentlab.engine;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The expectations the usage, policy, withheld-content and EventAgent-request checks added go red on a wrong result,
 * saying what was expected and what came: a suite whose every case expects something the reference kernel does not
 * do, run end to end.
 */
class AccountingExpectationsTest {

    @TempDir
    Path temp;

    private EngineExecutionResults results;

    @BeforeEach
    void run() throws IOException {
        Path file = Files.writeString(temp.resolve("wrong.suite.yaml"), """
                id: wrong-accounting
                title: Wrong accounting expectations
                kernel: {events: [knowledge.web.search, device.volume.adjust]}
                provider:
                  pricing:
                    models:
                      gpt-4o-mini: {tiers: [{max_prompt_tokens: null, input_cost_per_token: 0.000001,
                                             output_cost_per_token: 0.000002}]}
                cases:
                  - id: usage-wrong
                    clause: docs/design.md#usage-real-calls-only wrong on purpose
                    turns:
                      - user: search the weather in Paris
                        reply:
                          visible: Let me look that up.
                          events: [{name: knowledge.web.search, arguments: {query: the weather in Paris}}]
                        followUp: Mild today.
                        expect:
                          usage: {totalTokens: 1, eventAgentCalls: 1, cost: 0.5}
                  - id: usage-right
                    clause: docs/design.md#usage-real-calls-only the follow-up is no EventAgent call; a priced turn has a cost
                    turns:
                      - user: search the weather in Paris
                        reply:
                          visible: Let me look that up.
                          events: [{name: knowledge.web.search, arguments: {query: the weather in Paris}}]
                        followUp: Mild today.
                        expect:
                          usage: {eventAgentCalls: 0, costSource: catalog_fallback}
                  - id: reasons-wrong
                    clause: docs/design.md#policy-failure-corrective wrong on purpose
                    turns:
                      - user: do something about the sound
                        reply: {visible: Sure., events: [{name: device.volume.adjust}]}
                        eventAgent: {}
                        followUp: Up or down?
                        expect:
                          policy: {follow_up: [correction]}
                          eventAgentRequest: {contains: [words nobody said], endedWith: provider_deadline}
                  - id: reasons-right
                    clause: docs/design.md#policy-failure-corrective a clarification's follow-up has that reason
                    turns:
                      - user: do something about the sound
                        reply: {visible: Sure., events: [{name: device.volume.adjust}]}
                        eventAgent: {}
                        followUp: Up or down?
                        expect:
                          policy: {follow_up: [clarification]}
                          eventAgentRequest: {contains: [do something about the sound], endedWith: completed}
                  - id: no-fallback
                    clause: docs/design.md#context-event-agent wrong on purpose
                    turns:
                      - user: set the volume to 30
                        reply:
                          visible: Thirty.
                          events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 30}}]
                        expect:
                          eventAgentRequest: {contains: [thirty]}
                  - id: withheld-wrong
                    clause: docs/design.md#modes-visible-withheld-recorded wrong on purpose
                    modes: [chat_agent_tools]
                    turns:
                      - user: set the volume to 30
                        reply:
                          visible: Thirty.
                          events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 30}}]
                        expect:
                          visible: {withheldUntilToolCalls: true}
                """);
        results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectFile(file.toFile()))
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .outputDirectoryCreator(new TempOutputDirectories(temp.resolve("out"))).execute();
    }

    @Test
    @DisplayName("usage: a wrong total, EventAgent count or cost fails, naming expected and actual")
    void usage() {
        results.testEvents().assertThatEvents().haveExactly(2, event(finishedWithFailure(message(m ->
                m.contains("wrong-accounting/usage-wrong")
                        && m.contains("expected 1 total tokens over the ChatAgent calls but counted ")
                        && m.contains("expected the turn metrics to count 1 EventAgent call(s) but they counted 0")
                        && m.contains("expected cost 0.5 but was 0.0")))));
        results.testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("usage-right [dual_agent]"), finishedSuccessfully()))
                .haveExactly(1, event(displayName("usage-right [chat_agent_tools]"), finishedSuccessfully()));
    }

    @Test
    @DisplayName("policy reasons and the EventAgent request: a wrong reason, text or ending fails")
    void reasonsAndEventAgentRequest() {
        results.testEvents().assertThatEvents().haveExactly(2, event(finishedWithFailure(message(m ->
                m.contains("wrong-accounting/reasons-wrong")
                        && m.contains("expected the follow-up's reasons [correction] but they were [clarification]")
                        && m.contains("expected the EventAgent request to contain \"words nobody said\"")
                        && m.contains("expected the EventAgent call to end with provider_deadline but it ended with "
                        + "completed")))));
        results.testEvents().assertThatEvents().haveExactly(2, event(finishedWithFailure(message(m ->
                m.contains("wrong-accounting/no-fallback")
                        && m.contains("expected an EventAgent request, but no EventAgent call was made")))));
        results.testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("reasons-right [dual_agent]"), finishedSuccessfully()))
                .haveExactly(1, event(displayName("reasons-right [chat_agent_tools]"), finishedSuccessfully()));
    }

    @Test
    @DisplayName("visible.withheldUntilToolCalls: text streamed before the tool calls is not withheld")
    void withheld() {
        results.testEvents().assertThatEvents().haveExactly(1, event(displayName("withheld-wrong [chat_agent_tools]"),
                finishedWithFailure(message(m -> m.contains("expected the visible content to be recorded as withheld "
                        + "until the tool calls, but it was not")))));
    }
}
