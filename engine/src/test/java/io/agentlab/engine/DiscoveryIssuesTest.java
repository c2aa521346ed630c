package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Malformed suites never crash discovery and are never skipped silently: each problem is an ERROR discovery issue
 * naming file:line:column, the key and what was expected, with a source pointing at the spot.
 */
class DiscoveryIssuesTest {

    private static final String HEAD = """
            id: broken
            title: Broken suite
            """;
    private static final String CASE = """
            cases:
              - id: one
                clause: c1
                turns:
                  - user: set the volume to 30
                    reply: {visible: ok, events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 30}}]}
            """;

    @TempDir
    Path directory;

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("invalid YAML", "id: [unclosed\ntitle: x\n", "2:", "", "invalid YAML"),
                Arguments.of("empty file", "", "1:1", "", "the file is empty"),
                Arguments.of("not a mapping", "- a\n- b\n", "1:1", "", "a suite is a mapping"),
                Arguments.of("unknown top-level key", HEAD + "colour: blue\n" + CASE, "3:1", "colour",
                        "unknown key 'colour'"),
                Arguments.of("unknown key in a case", HEAD + CASE.replace("clause: c1", "clause: c1\n    owner: me"),
                        "6:5", "cases[0].owner", "unknown key 'owner'"),
                Arguments.of("wrong type", HEAD + "kernel: {concurrency: four}\n" + CASE, "3:23",
                        "kernel.concurrency", "integer"),
                Arguments.of("missing required key", HEAD + CASE.replace("    clause: c1\n", ""), "4:5", "cases[0]",
                        "clause"),
                Arguments.of("bad suite id", "id: Broken Suite\ntitle: t\n" + CASE, "1:5", "id", "pattern"),
                Arguments.of("empty cases", HEAD + "cases: []\n", "3:8", "cases", "at least 1"),
                Arguments.of("duplicate case id", HEAD + CASE + CASE.substring("cases:\n".length()), "9:5",
                        "cases[1].id", "duplicate case id 'one'; first used at 4:5"),
                Arguments.of("duplicate key", HEAD + "title: again\n" + CASE, "3:1", "title",
                        "duplicate key; first written at 2:1"),
                Arguments.of("unknown event in a reply", HEAD + CASE.replace("device.volume.adjust", "device.lamp.on"),
                        "8:46", "cases[0].turns[0].reply.events[0].name", "unknown event 'device.lamp.on'"),
                Arguments.of("unknown event in kernel.events", HEAD + "kernel: {events: [device.volume.adjust, x.y]}\n"
                        + CASE, "3:41", "kernel.events[1]", "unknown event 'x.y'"),
                Arguments.of("expectation on an event that is not enabled", HEAD
                        + "kernel: {events: [device.volume.adjust]}\n" + CASE
                        + "        expect: {portCalls: {session.terminate: 0}}\n", "10:30",
                        "cases[0].turns[0].expect.portCalls.session.terminate",
                        "event 'session.terminate', which kernel.events does not enable"),
                Arguments.of("unknown recording", HEAD + CASE.replace(
                        "reply: {visible: ok, events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 30}}]}",
                        "recordings: [no-such-recording]"), "8:22", "cases[0].turns[0].recordings[0]",
                        "unknown recording 'no-such-recording'; looked in classpath:recordings/"),
                Arguments.of("recording for another user text", HEAD + CASE.replace(
                        "reply: {visible: ok, events: [{name: device.volume.adjust, arguments: {mode: absolute, value: 30}}]}",
                        "recordings: [volume-forty-dual_agent, volume-forty-chat_agent_tools]"), "8:22",
                        "cases[0].turns[0].recordings[0]", "answers \"set the volume to 40\", not this turn's user text"),
                Arguments.of("bad duration", HEAD + "kernel: {batchDeadline: 5 seconds}\n" + CASE, "3:25",
                        "kernel.batchDeadline", "pattern"),
                Arguments.of("batch deadline too long", HEAD + "kernel: {batchDeadline: 10m}\n" + CASE, "3:25",
                        "kernel.batchDeadline", "at most 5m"),
                Arguments.of("bad timezone", HEAD + "session: {timezone: Mars/Olympus}\n" + CASE, "3:21",
                        "session.timezone", "unknown time zone 'Mars/Olympus'"),
                Arguments.of("bad clock", HEAD + "session: {clock: tomorrow}\n" + CASE, "3:18", "session.clock",
                        "not an ISO-8601 instant"),
                Arguments.of("invalid regex", HEAD + CASE + "        expect: {visible: {matches: [\"(unclosed\"]}}\n",
                        "9:38", "cases[0].turns[0].expect.visible.matches[0]", "invalid regular expression"),
                Arguments.of("mode not supported", HEAD + "modes: [dual_agent]\n" + CASE.replace("clause: c1",
                        "clause: c1\n    modes: [chat_agent_tools]"), "7:12", "cases[0].modes",
                        "mode chat_agent_tools is not one of the suite's modes [dual_agent]"),
                Arguments.of("unknown mode", HEAD + "modes: [turbo]\n" + CASE, "3:9", "modes[0]",
                        "does not have a value in the enumeration"),
                Arguments.of("reply and recordings together", HEAD + CASE + "        recordings: [x]\n", "9:9",
                        "cases[0].turns[0].recordings", "not both"),
                Arguments.of("no answer for a mode", HEAD + CASE.replace("reply: {", "replyByMode: {dual_agent: {")
                        .replace("30}}]}", "30}}]}}"), "7:9", "cases[0].turns[0]",
                        "no provider answer for mode chat_agent_tools"),
                Arguments.of("probe named like an offered event", HEAD + "probes: [{name: device.volume.adjust}]\n"
                        + CASE, "3:10", "probes[0].name", "has the name of an event the kernel factory offers"),
                Arguments.of("event starting after itself", HEAD + CASE + "        expect: {batch: {startsAfter: "
                        + "[{event: device.volume.adjust, after: device.volume.adjust}]}}\n", "9:40",
                        "cases[0].turns[0].expect.batch.startsAfter[0]", "cannot start after itself"),
                Arguments.of("unknown status", HEAD + CASE + "        expect: {events: [{name: device.volume.adjust, "
                        + "status: done}]}\n", "9:64", "cases[0].turns[0].expect.events[0].status",
                        "does not have a value in the enumeration"),
                Arguments.of("bad locale", HEAD + "session: {locale: \"12\"}\n" + CASE, "3:19", "session.locale",
                        "not a BCP 47 language tag"),
                Arguments.of("retransmission of a turn that did not happen", HEAD + CASE + "        retransmit: 2\n",
                        "9:9", "cases[0].turns[0].retransmit", "expected a turn number from 1 to 0, was 2"),
                Arguments.of("retransmission with other words", HEAD + CASE
                        + "      - {user: set the volume to 40, retransmit: 1}\n", "9:10", "cases[0].turns[1].user",
                        "a retransmission re-sends turn 1's user text"),
                Arguments.of("two faults on one call entry", HEAD + CASE + "        providerFaults: [{call: chat, "
                        + "reset: {afterEvents: 1}, stall: {afterEvents: 1}}]\n", "9:26",
                        "cases[0].turns[0].providerFaults[0]", "a provider fault is exactly one of http, reset, stall, "
                                + "malformedChunk, invalidToolArguments or toolCallsWithoutIndex; 2 given"),
                Arguments.of("broken tool arguments on the follow-up", HEAD + CASE + "        providerFaults: [{call: "
                        + "followUp, invalidToolArguments: {event: 1, text: x}}]\n", "9:26",
                        "cases[0].turns[0].providerFaults[0]", "invalidToolArguments breaks the tool calls of the chat"),
                Arguments.of("tool calls without an index on the follow-up", HEAD + CASE + "        providerFaults: "
                        + "[{call: followUp, toolCallsWithoutIndex: true}]\n", "9:26",
                        "cases[0].turns[0].providerFaults[0]", "toolCallsWithoutIndex changes the tool calls of the chat"),
                Arguments.of("broken arguments of an event the reply lacks", HEAD + CASE + "        providerFaults: "
                        + "[{call: chat, invalidToolArguments: {event: 2, text: x}}]\n", "9:39",
                        "cases[0].turns[0].providerFaults[0].invalidToolArguments", "there is no event 2"),
                Arguments.of("a fault in the middle of a follow-up nobody scripted", HEAD + CASE + "        "
                        + "providerFaults: [{call: followUp, reset: {afterEvents: 2}}]\n", "9:26",
                        "cases[0].turns[0].providerFaults[0]", "needs the call's answer to cut: write 'followUp'"),
                Arguments.of("one call faulted twice", HEAD + CASE + "        providerFaults: [{call: chat, http: "
                        + "{status: 500}}, {call: chat, reset: {afterEvents: 0}}]\n", "9:61",
                        "cases[0].turns[0].providerFaults[1]", "the chat call 1 already has a fault in this turn"),
                Arguments.of("provider faults on a recorded turn", HEAD + CASE.replace("user: set the volume to 30",
                        "user: set the volume to 40").replace("reply: {visible: ok, events: [{name: device.volume.adjust, "
                        + "arguments: {mode: absolute, value: 30}}]}", "recordings: [volume-forty-dual_agent, "
                        + "volume-forty-chat_agent_tools]") + "        providerFaults: [{call: chat, http: {status: 500}}]\n",
                        "9:26", "cases[0].turns[0].providerFaults[0]", "provider faults are synthesized from a scripted turn"),
                Arguments.of("an offered event declared unknown", HEAD + "unknownEvents: [device.volume.adjust]\n" + CASE,
                        "3:17", "unknownEvents[0]", "is declared unknown, but the kernel factory offers it"),
                Arguments.of("a declared unknown event enabled", HEAD + "unknownEvents: [lamp.power.toggle]\n"
                        + "kernel: {events: [device.volume.adjust, lamp.power.toggle]}\n" + CASE, "4:41", "kernel.events[1]",
                        "an unknown event cannot be enabled"),
                Arguments.of("a typo is refused although unknown names are declared", HEAD
                        + "unknownEvents: [lamp.power.toggle]\n" + CASE
                        + "        expect: {events: [{name: lamp.power.togle}]}\n", "10:34",
                        "cases[0].turns[0].expect.events[0].name", "unknown event 'lamp.power.togle'"),
                Arguments.of("a reason for a status that has none", HEAD + CASE + "        expect: {events: [{name: "
                        + "device.volume.adjust, status: succeeded, reason: x}]}\n", "9:27",
                        "cases[0].turns[0].expect.events[0]", "a reason needs status rejected"),
                Arguments.of("a rejection reason that does not exist", HEAD + CASE + "        expect: {events: [{name: "
                        + "device.volume.adjust, status: rejected, reason: lost}]}\n", "9:27",
                        "cases[0].turns[0].expect.events[0]", "a rejection's reason is one of [batch_too_large, "
                                + "invalid_arguments, resolution_error, unknown_event], not 'lost'"),
                Arguments.of("exact arguments without arguments", HEAD + CASE + "        expect: {events: [{name: "
                        + "device.volume.adjust, match: exact}]}\n", "9:27", "cases[0].turns[0].expect.events[0]",
                        "match: exact needs arguments to compare"),
                Arguments.of("an argument the event does not have", HEAD + CASE + "        expect: {events: [{name: "
                        + "device.volume.adjust, arguments: {level: 3}}]}\n", "9:56",
                        "cases[0].turns[0].expect.events[0].arguments", "'device.volume.adjust' has no argument 'level'"),
                Arguments.of("bounds the wrong way round", HEAD + CASE + "        expect: {portCalls: "
                        + "{device.volume.adjust: {atLeast: 3, atMost: 2}}}\n", "9:52",
                        "cases[0].turns[0].expect.portCalls.device.volume.adjust", "atLeast 3 is more than atMost 2"),
                Arguments.of("a single alternative", HEAD + CASE + "        expect: {anyOf: [{policy: complete}]}\n",
                        "9:25", "cases[0].turns[0].expect.anyOf", "at least 2"),
                Arguments.of("an alternative that expects nothing", HEAD + CASE
                        + "        expect: {anyOf: [{policy: complete}, {}]}\n", "9:46",
                        "cases[0].turns[0].expect.anyOf[1]", "at least 1"),
                Arguments.of("history that checks nothing", HEAD + CASE + "        expect: {history: {}}\n", "9:27",
                        "cases[0].turns[0].expect.history", "at least 1"),
                Arguments.of("a time bound that is no duration", HEAD + CASE + "        expect: {finishedWithin: soon}\n",
                        "9:34", "cases[0].turns[0].expect.finishedWithin", "pattern"),
                Arguments.of("port state of an event that is not enabled", HEAD + "kernel: {events: [device.volume.adjust]}\n"
                        + CASE + "        expect: {portState: {calendar.schedule.create: {entries: []}}}\n", "10:30",
                        "cases[0].turns[0].expect.portState.calendar.schedule.create",
                        "event 'calendar.schedule.create', which kernel.events does not enable"),
                Arguments.of("expectations for a mode the case does not run", HEAD + "modes: [dual_agent]\n" + CASE
                        + "        expectByMode: {chat_agent_tools: {policy: complete}}\n", "10:24",
                        "cases[0].turns[0].expectByMode.chat_agent_tools", "the case does not run in chat_agent_tools"),
                Arguments.of("a parity rule on an argument the event lacks", HEAD + CASE.replace("clause: c1",
                        "clause: c1\n    parity: {device.volume.adjust: {level: ignore}}"), "6:37",
                        "cases[0].parity.device.volume.adjust.level", "'device.volume.adjust' has no argument 'level'"),
                Arguments.of("an unknown normalization", HEAD + CASE.replace("clause: c1",
                        "clause: c1\n    parity: {device.volume.adjust: {mode: [upcase]}}"), "6:44",
                        "cases[0].parity.device.volume.adjust.mode[0]", "does not have a value in the enumeration"),
                Arguments.of("a parity rule that is neither ignore nor a list", HEAD + CASE.replace("clause: c1",
                        "clause: c1\n    parity: {device.volume.adjust: {mode: skip}}"), "6:43",
                        "cases[0].parity.device.volume.adjust.mode", "expected 'ignore' or a list of normalizations"),
                Arguments.of("a probe awaiting a name that is no probe", HEAD
                        + "probes: [{name: probe.a, awaits: [probe.b]}]\n" + CASE, "3:35", "probes[0].awaits[0]",
                        "'probe.b' is no probe of this suite"),
                Arguments.of("a probe awaiting itself", HEAD + "probes: [{name: probe.a, awaits: [probe.a]}]\n" + CASE,
                        "3:", "probes[0].awaits", "a probe cannot await its own start"),
                Arguments.of("awaitsAtMost without awaits", HEAD + "probes: [{name: probe.a, awaitsAtMost: 1s}]\n"
                        + CASE, "3:", "probes[0].awaitsAtMost", "awaitsAtMost bounds a wait: it needs 'awaits'"),
                Arguments.of("event starting before itself", HEAD + CASE + "        expect: {batch: {startsBefore: "
                        + "[{event: device.volume.adjust, before: device.volume.adjust}]}}\n", "9:41",
                        "cases[0].turns[0].expect.batch.startsBefore[0]", "cannot start before itself returned"),
                Arguments.of("minConcurrency above maxConcurrency", HEAD + CASE
                        + "        expect: {batch: {maxConcurrency: 1, minConcurrency: 2}}\n", "9:",
                        "cases[0].turns[0].expect.batch.minConcurrency", "minConcurrency 2 is above maxConcurrency 1"),
                Arguments.of("a duplicate of itself", HEAD + CASE + "        expect: {events: [{name: "
                        + "device.volume.adjust, duplicateOf: 1}]}\n", "9:56",
                        "cases[0].turns[0].expect.events[0].duplicateOf",
                        "duplicateOf names an earlier event of the batch: expected 1 to 0, was 1"),
                Arguments.of("a duplicate whose status is not deduplicated", HEAD + CASE + "        expect: {events: "
                        + "[{name: device.volume.adjust}, {name: device.volume.adjust, status: succeeded, "
                        + "duplicateOf: 1}]}\n", "9:57", "cases[0].turns[0].expect.events[1]",
                        "duplicateOf needs status deduplicated (or none), not succeeded"),
                Arguments.of("an interrupted retransmission", HEAD + CASE
                        + "      - {retransmit: 1, interrupt: {whileRunning: device.volume.adjust}}\n", "9:25",
                        "cases[0].turns[1].interrupt", "a retransmission cannot be interrupted"),
                Arguments.of("an unknown tool-call result status", HEAD + CASE + "        expect: {auditToolCalls: "
                        + "[{name: device.volume.adjust, status: done}]}\n", "9:72",
                        "cases[0].turns[0].expect.auditToolCalls[0].status",
                        "does not have a value in the enumeration"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @DisplayName("each malformed suite is an error naming file:line:column, the key and what was expected")
    void malformedSuite(String kind, String yaml, String position, String key, String expected) throws IOException {
        Path file = Files.writeString(directory.resolve("broken.suite.yaml"), yaml);
        EngineDiscoveryResults results = discover(file);
        assertThat(results.getEngineDescriptor().getChildren()).as("a malformed suite contributes no test").isEmpty();
        assertThat(results.getDiscoveryIssues()).as(kind).anySatisfy(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(issue.message()).startsWith(file + ":" + position).contains(expected);
            if (!key.isEmpty()) {
                assertThat(issue.message()).contains(": " + key + ": ");
            }
            assertThat(issue.source()).get().isInstanceOfSatisfying(FileSource.class, source -> {
                assertThat(source.getFile()).isEqualTo(file.toFile());
                FilePosition at = source.getPosition().orElseThrow();
                assertThat(issue.message()).startsWith(file + ":" + at.getLine() + ":" + at.getColumn().orElseThrow());
            });
        });
    }

    @Test
    @DisplayName("a suite id used by two files: the second is refused, naming the first")
    void duplicateSuiteId() throws IOException {
        Files.writeString(directory.resolve("a.suite.yaml"), HEAD + CASE);
        Path second = Files.writeString(directory.resolve("b.suite.yaml"), HEAD + CASE);
        EngineDiscoveryResults results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectDirectory(directory.toFile())).discover();
        assertThat(results.getEngineDescriptor().getChildren()).hasSize(1);
        assertThat(results.getDiscoveryIssues()).singleElement().satisfies(issue -> assertThat(issue.message())
                .startsWith(second + ":1:1: id: duplicate suite id 'broken'; ")
                .contains("a.suite.yaml already uses it"));
    }

    @Test
    @DisplayName("a unique id naming a missing case is an issue, not a silent empty run")
    void unknownUniqueId() {
        UniqueId id = UniqueId.forEngine(ConformanceTestEngine.ENGINE_ID).append("suite", "volume")
                .append("case", "no-such-case");
        EngineDiscoveryResults results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectUniqueId(id)).discover();
        assertThat(results.getDiscoveryIssues()).extracting(DiscoveryIssue::message)
                .anySatisfy(message -> assertThat(message).contains("suite 'volume' has no case with id 'no-such-case'"));
    }

    @Test
    @DisplayName("every problem of a file is reported, not only the first")
    void allProblemsReported() throws IOException {
        Path file = Files.writeString(directory.resolve("many.suite.yaml"), HEAD
                + "session: {timezone: Mars/Olympus, clock: later}\n" + CASE);
        assertThat(discover(file).getDiscoveryIssues()).extracting(DiscoveryIssue::message)
                .anySatisfy(m -> assertThat(m).contains("unknown time zone"))
                .anySatisfy(m -> assertThat(m).contains("not an ISO-8601 instant"));
    }

    @Test
    @DisplayName("a bad configuration parameter is one clear issue naming the key")
    void badConfiguration() {
        EngineDiscoveryResults results = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "fast").discover();
        assertThat(results.getDiscoveryIssues()).singleElement().satisfies(issue -> assertThat(issue.message())
                .contains("agentlab.replay.speed: cannot use 'fast'"));
    }

    private static EngineDiscoveryResults discover(Path file) {
        return EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID).selectors(selectFile(file.toFile())).discover();
    }
}
