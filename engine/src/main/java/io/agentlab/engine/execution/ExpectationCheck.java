package io.agentlab.engine.execution;

import io.agentlab.engine.suite.Expectations;
import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.runtime.CallRecord;
import io.agentlab.kernel.runtime.audit.AguiEvent;
import io.agentlab.kernel.runtime.audit.AguiProfile;
import io.agentlab.kernel.runtime.audit.AguiSseCodec;
import io.agentlab.kernel.runtime.audit.AguiStreamChecker;
import io.agentlab.kernel.runtime.llm.CallRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks a turn against its expectations. Each failure is one line saying which turn, what was expected and what
 * happened; the engine prefixes the case's clause.
 */
public final class ExpectationCheck {

    private ExpectationCheck() {
    }

    /** Every expectation of {@code run}'s turn that does not hold, its audit checked as AG-UI 1.0 on its own. */
    public static List<String> failures(TurnRun run) {
        return failures(run, AguiStreamChecker.thread(AguiProfile.AGUI_1_0));
    }

    /**
     * Every expectation of {@code run}'s turn that does not hold; empty when all do. The turn's audit stream joins
     * {@code audit}, the thread of the case's earlier turns (so ids are checked across turns), whether or not the turn
     * expects it valid.
     */
    public static List<String> failures(TurnRun run, AguiStreamChecker.ThreadCheck audit) {
        Expectations expect = run.turn().expect();
        List<String> failures = new ArrayList<>();
        String turn = "turn " + (run.index() + 1) + " (\"" + run.turn().user() + "\"): ";
        Optional<String> error = run.result().error();
        if (!error.equals(expect.error())) {
            failures.add(turn + "expected " + expect.error().map(e -> "error " + e).orElse("no error")
                    + " but the turn ended with " + error.map(e -> "error " + e).orElse("no error")
                    + (run.replayProblems().isEmpty() ? "" : "; the replay said: " + String.join("; ",
                    run.replayProblems())));
        }
        run.harnessProblems().forEach(problem -> failures.add(turn + problem));
        List<EventResult> results = run.result().batch().map(BatchResult::results).orElse(List.of());
        expect.events().ifPresent(events -> checkEvents(turn, events, results, failures));
        expect.policy().ifPresent(policy -> {
            String actual = run.result().decision().map(ContinuationDecision::kind).orElse("none");
            if (!policy.equals(actual)) {
                failures.add(turn + "expected policy " + policy + " but was " + actual);
            }
        });
        expect.answers().ifPresent(answers -> {
            int actual = (run.result().firstAnswer().isBlank() ? 0 : 1) + (run.result().followUp().isPresent() ? 1 : 0);
            if (answers != actual) {
                failures.add(turn + "expected " + answers + " ChatAgent answer(s) but the user saw " + actual);
            }
        });
        expect.calls().forEach((role, count) -> {
            CallRole callRole = switch (role) {
                case "chat" -> CallRole.CHAT;
                case "eventAgent" -> CallRole.EVENT_AGENT;
                default -> CallRole.FOLLOW_UP;
            };
            long actual = run.result().calls().stream().map(CallRecord::role).filter(callRole::equals).count();
            if (actual != count) {
                failures.add(turn + "expected " + count + " " + callRole.wireName() + " call(s) but there were " + actual);
            }
        });
        checkVisible(turn, expect.visible(), run.visibleText(), failures);
        checkAudit(turn, expect.audit(), run.result().audit(), failures);
        checkAuditValid(turn, run, audit, expect.auditValid() ? failures : new ArrayList<>());
        expect.portCalls().forEach((name, count) -> {
            long actual = run.handlerCalls().stream().filter(call -> call.name().equals(name)).count();
            if (actual != count) {
                failures.add(turn + "expected " + count + " port call(s) for " + name + " but there were " + actual);
            }
        });
        expect.sessionEnded().ifPresent(ended -> {
            if (ended != run.sessionEnded()) {
                failures.add(turn + "expected the session " + (ended ? "to have ended" : "to stay open")
                        + " but it " + (run.sessionEnded() ? "ended" : "stayed open"));
            }
        });
        expect.batch().ifPresent(batch -> checkBatch(turn, batch, results, run, failures));
        checkUsage(turn, expect.usage(), run, failures);
        return failures;
    }

    private static void checkEvents(String turn, List<Expectations.EventExpectation> expected,
                                    List<EventResult> results, List<String> failures) {
        List<String> expectedNames = expected.stream().map(Expectations.EventExpectation::name).toList();
        List<String> actualNames = results.stream().map(EventResult::name).toList();
        if (!expectedNames.equals(actualNames)) {
            failures.add(turn + "expected events " + expectedNames + " but the batch had " + actualNames);
            return;
        }
        for (int i = 0; i < expected.size(); i++) {
            Expectations.EventExpectation event = expected.get(i);
            EventResult result = results.get(i);
            String label = turn + "event " + (i + 1) + " (" + event.name() + "): ";
            event.status().ifPresent(status -> {
                if (!status.equals(result.status())) {
                    failures.add(label + "expected status " + status + " but was " + result.status()
                            + describe(result));
                }
            });
            event.arguments().ifPresent(arguments -> {
                String mismatch = event.exact() ? exactMismatch(arguments, result.arguments())
                        : subsetMismatch(arguments, result.arguments());
                if (mismatch != null) {
                    failures.add(label + mismatch + "; arguments were " + CanonicalJson.write(result.arguments()));
                }
            });
        }
    }

    private static String describe(EventResult result) {
        return " (" + result.outcome() + ")";
    }

    private static String exactMismatch(Map<String, Object> expected, Map<String, Object> actual) {
        String want = CanonicalJson.write(expected);
        String have = CanonicalJson.write(actual);
        return want.equals(have) ? null : "expected arguments exactly " + want;
    }

    private static String subsetMismatch(Map<String, Object> expected, Map<String, Object> actual) {
        for (Map.Entry<String, Object> entry : expected.entrySet()) {
            if (!actual.containsKey(entry.getKey())) {
                return "expected argument '" + entry.getKey() + "' but it is absent";
            }
            String want = CanonicalJson.write(Map.of("v", entry.getValue()));
            String have = CanonicalJson.write(Map.of("v", actual.get(entry.getKey())));
            if (!want.equals(have)) {
                return "expected argument '" + entry.getKey() + "' = " + want.substring(5, want.length() - 1)
                        + " but was " + have.substring(5, have.length() - 1);
            }
        }
        return null;
    }

    private static void checkVisible(String turn, Expectations.Visible visible, String text, List<String> failures) {
        for (String part : visible.contains()) {
            if (!text.contains(part)) {
                failures.add(turn + "expected the visible text to contain \"" + part + "\" but it was \"" + text + "\"");
            }
        }
        for (String part : visible.notContains()) {
            if (text.contains(part)) {
                failures.add(turn + "expected the visible text not to contain \"" + part + "\" but it was \"" + text
                        + "\"");
            }
        }
        for (Pattern pattern : visible.matches()) {
            if (!pattern.matcher(text).find()) {
                failures.add(turn + "expected the visible text to match /" + pattern + "/ but it was \"" + text + "\"");
            }
        }
    }

    private static void checkAudit(String turn, List<String> expected, List<AguiEvent> audit, List<String> failures) {
        if (expected.isEmpty()) {
            return;
        }
        List<String> types = audit.stream().map(AguiEvent::type).toList();
        int at = 0;
        for (String type : types) {
            if (at < expected.size() && expected.get(at).equals(type)) {
                at++;
            }
        }
        if (at < expected.size()) {
            failures.add(turn + "expected the AG-UI stream to contain " + expected + " in order, but "
                    + expected.get(at) + " (item " + (at + 1) + ") never came after " + (at == 0 ? "the start"
                    : expected.get(at - 1)) + "; the stream was " + types);
        }
    }

    private static void checkAuditValid(String turn, TurnRun run, AguiStreamChecker.ThreadCheck audit,
                                        List<String> failures) {
        // the stream as a client receives it: SSE frames with ids, event names and JSON data
        String sse = AguiSseCodec.encode(run.result().audit(), 1);
        List<AguiSseCodec.Frame> frames = AguiSseCodec.decode(sse);
        AguiStreamChecker.StreamCheck stream = audit.stream(run.result().turnId());
        frames.forEach(stream::frame);
        for (AguiStreamChecker.Violation violation : stream.finish()) {
            failures.add(turn + "the AG-UI stream (" + audit.profile() + ") breaks " + violation);
        }
        if (!AguiSseCodec.events(frames).equals(run.result().audit())) {
            failures.add(turn + "the AG-UI stream does not survive SSE encoding unchanged");
        }
    }

    private static void checkBatch(String turn, Expectations.Batch batch, List<EventResult> results, TurnRun run,
                                   List<String> failures) {
        if (!batch.order().isEmpty()) {
            List<String> actual = results.stream().map(EventResult::name).toList();
            if (!batch.order().equals(actual)) {
                failures.add(turn + "expected result order " + batch.order() + " but was " + actual);
            }
        }
        for (Expectations.StartsAfter relation : batch.startsAfter()) {
            String expected = turn + "expected " + relation.event() + " to start after " + relation.describeAfter()
                    + " returned, but ";
            List<HandlerLog.Call> later = calls(run, relation.event());
            if (later.isEmpty()) {
                failures.add(expected + relation.event() + "'s handler never ran");
                continue;
            }
            long firstStart = later.stream().mapToLong(HandlerLog.Call::startTick).min().orElseThrow();
            boolean anyReturnedBefore = false;
            List<String> ran = new ArrayList<>();
            for (String name : relation.after()) {
                List<HandlerLog.Call> earlier = calls(run, name);
                if (!earlier.isEmpty()) {
                    ran.add(name);
                }
                // every call of that event returned before the later event's first start
                anyReturnedBefore |= !earlier.isEmpty() && earlier.stream()
                        .allMatch(call -> call.endTick() >= 0 && call.endTick() < firstStart);
            }
            if (ran.isEmpty()) {
                failures.add(expected + (relation.after().size() == 1 ? relation.after().get(0) + "'s handler"
                        : "none of their handlers") + " never ran");
            } else if (!anyReturnedBefore) {
                failures.add(expected + "it started while " + (ran.size() == 1 ? ran.get(0) + " was"
                        : String.join(" and ", ran) + " were") + " still running");
            }
        }
        batch.maxConcurrency().ifPresent(max -> {
            if (run.maxConcurrency() > max) {
                failures.add(turn + "expected at most " + max + " handler(s) at once but " + run.maxConcurrency()
                        + " ran together");
            }
        });
        batch.statuses().forEach((name, status) -> {
            List<String> actual = results.stream().filter(r -> r.name().equals(name)).map(EventResult::status).toList();
            if (actual.isEmpty() || actual.stream().anyMatch(s -> !s.equals(status))) {
                failures.add(turn + "expected " + name + " to end " + status + " but " + (actual.isEmpty()
                        ? "it is not in the batch" : "it ended " + actual));
            }
        });
    }

    private static void checkUsage(String turn, Expectations.Usage usage, TurnRun run, List<String> failures) {
        usage.costSource().ifPresent(source -> {
            String actual = run.result().metrics().costSource().wireName();
            if (!source.equals(actual)) {
                failures.add(turn + "expected cost source " + source + " but was " + actual);
            }
        });
        usage.cachedPromptTokens().ifPresent(cached -> {
            long actual = run.result().calls().stream().filter(call -> call.role() != CallRole.EVENT_AGENT)
                    .mapToLong(call -> call.usage().cachedPromptTokens()).sum();
            if (actual != cached) {
                failures.add(turn + "expected " + cached + " cached prompt tokens over the ChatAgent calls but counted "
                        + actual);
            }
        });
        usage.reported().ifPresent(reported -> {
            boolean actual = run.result().calls().stream().allMatch(call -> call.usage().present());
            if (actual != reported) {
                failures.add(turn + "expected usage " + (reported ? "reported by every call" : "missing from a call")
                        + " but it was " + (actual ? "reported by every call" : "missing from a call"));
            }
        });
    }

    private static List<HandlerLog.Call> calls(TurnRun run, String name) {
        return run.handlerCalls().stream().filter(call -> call.name().equals(name)).toList();
    }
}
