package io.agentlab.suites;

import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiSseCodec;
import io.agentlab.runtime.llm.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Variants of real audit streams for the oracle comparison: each deliberately broken one breaks one AG-UI 1.0 rule
 * (the defects the official client found in the kit's former stream among them), each valid one uses what AG-UI 1.0
 * allows and the runtime never sends (chunks, reasoning, metadata, keep-alives, a byte order mark, split data lines).
 * A variant is made from one thread of the suites' streams and keeps the runs before the one it changes, so rules
 * that span a thread are exercised too.
 */
final class AguiStreamVariants {

    /** How many threads each variant is made from (spread over the suites). */
    static final int PER_VARIANT = 3;

    /** What a variant's last stream should get from both checkers. */
    enum Expected {
        /** It breaks {@link Variant#rule()}. */
        FAIL,
        /**
         * The official client takes it (accepts it, or merges a run into an earlier one without a warning) and the
         * kit rejects it for {@link Variant#rule()}, one of its documented deliberate strictnesses
         * ({@code docs/runtime.md#strictness}).
         */
        STRICTER,
        /** It is valid AG-UI 1.0. */
        PASS,
        /** A random change: whatever the verdict, both must give it (or the kit be stricter as documented). */
        EITHER
    }

    /**
     * A variant thread.
     *
     * @param name     the variant's name and the thread it was made from
     * @param streams  the SSE bodies of its runs; the last is the changed one
     * @param rule     the AG-UI 1.0 rule the last stream breaks, or null
     * @param expected the verdict both checkers should give the last stream
     */
    record Variant(String name, List<String> streams, String rule, Expected expected) {
    }

    private record Kind(String name, String rule, Expected expected,
                        Function<List<String>, Optional<List<String>>> make) {
        Kind(String name, String rule, Function<List<String>, Optional<List<String>>> make) {
            this(name, rule, rule == null ? Expected.PASS : Expected.FAIL, make);
        }
    }

    private AguiStreamVariants() {
    }

    /** Every variant of {@code threads} (thread name → its runs' SSE bodies, in order). */
    static List<Variant> of(Map<String, List<String>> threads) {
        List<Variant> variants = new ArrayList<>();
        List<String> names = new ArrayList<>(threads.keySet());
        for (Kind kind : kinds()) {
            List<Variant> applicable = new ArrayList<>();
            for (String name : names) {
                kind.make.apply(threads.get(name)).ifPresent(streams -> applicable.add(new Variant(kind.name + " <- "
                        + name, streams, kind.rule, kind.expected)));
            }
            if (applicable.isEmpty()) {
                throw new IllegalStateException("variant " + kind.name + " applies to no thread of the suites");
            }
            for (int i = 0; i < PER_VARIANT && i < applicable.size(); i++) {
                variants.add(applicable.get(i * (applicable.size() - 1) / Math.max(1, PER_VARIANT - 1)));
            }
        }
        return variants;
    }

    private static final List<String> TYPES = List.of("RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "STEP_STARTED",
            "STEP_FINISHED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TEXT_MESSAGE_CHUNK",
            "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_CHUNK", "TOOL_CALL_RESULT", "CUSTOM", "RAW",
            "STATE_SNAPSHOT", "REASONING_START", "REASONING_END", "REASONING_MESSAGE_START", "REASONING_MESSAGE_END",
            "REASONING_MESSAGE_CHUNK");
    private static final List<String> FIELDS = List.of("timestamp", "metadata", "rawEvent", "subagentRunId", "role",
            "name", "parentMessageId", "outcome", "result", "protocolVersion", "code", "delta", "messageId");
    private static final List<Object> VALUES = java.util.Arrays.asList(null, "x", "", 0, 1.5, true, List.of(), Map.of(),
            Map.of("type", "success"), Map.of("type", "cancelled"), Map.of("type", "bogus"), "1.0", "assistant", "tool",
            "user", "reasoning", 12345, "sa");

    /**
     * {@code count} random variants of {@code threads} from {@code seed}: one or two changes each to one run (events
     * dropped, repeated, swapped, inserted or retyped; fields dropped, added, given other values or other events'
     * ids). No verdict is expected, only the same one from both checkers.
     */
    static List<Variant> random(Map<String, List<String>> threads, long seed, int count) {
        java.util.Random random = new java.util.Random(seed);
        List<String> names = new ArrayList<>(threads.keySet());
        List<Variant> variants = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            String name = names.get(random.nextInt(names.size()));
            List<String> thread = threads.get(name);
            int run = random.nextInt(thread.size());
            List<Map<String, Object>> events = events(thread.get(run));
            int changes = 1 + random.nextInt(2);
            for (int c = 0; c < changes && !events.isEmpty(); c++) {
                change(random, events);
            }
            variants.add(new Variant("random #" + (n + 1) + " of seed " + seed + " <- " + name, replaced(thread, run,
                    sse(events)), null, Expected.EITHER));
        }
        return variants;
    }

    private static void change(java.util.Random random, List<Map<String, Object>> events) {
        int i = random.nextInt(events.size());
        Map<String, Object> event = events.get(i);
        List<String> keys = event.keySet().stream().filter(k -> !k.equals("type")).toList();
        switch (random.nextInt(9)) {
            case 0 -> {
                if (events.size() > 1) {
                    events.remove(i);
                }
            }
            case 1 -> events.add(i, new LinkedHashMap<>(event));
            case 2 -> java.util.Collections.swap(events, i, random.nextInt(events.size()));
            case 3 -> {
                if (!keys.isEmpty()) {
                    event.remove(keys.get(random.nextInt(keys.size())));
                }
            }
            case 4 -> {
                if (!keys.isEmpty()) {
                    event.put(keys.get(random.nextInt(keys.size())), VALUES.get(random.nextInt(VALUES.size())));
                }
            }
            case 5 -> event.put(FIELDS.get(random.nextInt(FIELDS.size())), VALUES.get(random.nextInt(VALUES.size())));
            case 6 -> event.put("type", TYPES.get(random.nextInt(TYPES.size())));
            case 7 -> {
                List<Object> ids = events.stream().flatMap(e -> e.entrySet().stream())
                        .filter(f -> f.getKey().endsWith("Id") && f.getValue() instanceof String)
                        .map(Map.Entry::getValue).toList();
                List<String> own = keys.stream().filter(k -> k.endsWith("Id")).toList();
                if (!ids.isEmpty() && !own.isEmpty()) {
                    event.put(own.get(random.nextInt(own.size())), ids.get(random.nextInt(ids.size())));
                }
            }
            default -> {
                Map<String, Object> inserted = new LinkedHashMap<>();
                inserted.put("type", TYPES.get(random.nextInt(TYPES.size())));
                inserted.put(List.of("messageId", "toolCallId", "stepName", "subagentRunId").get(random.nextInt(4)),
                        List.of("m", "t", "chat", "s1").get(random.nextInt(4)));
                inserted.put("delta", "d");
                inserted.put("toolCallName", "n");
                events.add(i, inserted);
            }
        }
    }

    private static List<Kind> kinds() {
        return List.of(
                // the defects the official client found in the kit's former stream
                each("args-object", "AGUI1-03", "TOOL_CALL_ARGS", (events, i) -> {
                    Map<String, Object> args = events.get(i);
                    args.put("args", Json.object(Json.tree(String.valueOf(args.remove("delta")))));
                    return true;
                }),
                each("snake-case-result", "AGUI1-03", "TOOL_CALL_RESULT", (events, i) -> {
                    Map<String, Object> result = events.get(i);
                    result.put("tool_call_id", result.remove("toolCallId"));
                    result.remove("content");
                    result.put("tool_call_args", Map.of());
                    result.put("status", "success");
                    return true;
                }),
                stricter(each("result-reuses-assistant-message-id", "AGUI1-15", "TOOL_CALL_RESULT", (events, i) -> {
                    String call = String.valueOf(events.get(i).get("toolCallId"));
                    Optional<Map<String, Object>> start = events.stream().filter(e -> "TOOL_CALL_START".equals(
                            e.get("type")) && call.equals(e.get("toolCallId"))).findFirst();
                    start.ifPresent(s -> events.get(i).put("messageId", s.get("parentMessageId")));
                    return start.isPresent();
                })),
                new Kind("tool-call-ids-restart-next-turn", "AGUI1-14", Expected.STRICTER, thread -> again(thread,
                        "toolCallId")),
                new Kind("message-id-reused-next-turn", "AGUI1-14", Expected.STRICTER, thread -> again(thread,
                        "messageId")),
                each("messageId-for-parentMessageId", "AGUI1-04", "TOOL_CALL_START", (events, i) ->
                        events.get(i).put("messageId", events.get(i).remove("parentMessageId")) == null),
                last("run-ids-on-every-event", "AGUI1-04", events -> {
                    String thread = String.valueOf(events.get(0).get("threadId"));
                    String run = String.valueOf(events.get(0).get("runId"));
                    for (Map<String, Object> event : events) {
                        event.putIfAbsent("threadId", thread);
                        event.putIfAbsent("runId", run);
                    }
                    return true;
                }),
                last("cancel-as-run-error", "AGUI1-04", events -> {
                    Map<String, Object> end = events.get(events.size() - 1);
                    if (!"RUN_FINISHED".equals(end.get("type"))) {
                        return false;
                    }
                    end.put("type", "RUN_ERROR");
                    end.remove("outcome");
                    end.put("message", "run canceled by user");
                    end.put("code", "RUN_CANCELED");
                    return true;
                }),
                // every other rule the checker and the client share
                text("frame-not-an-object", "AGUI1-01", sse -> {
                    int second = sse.indexOf("\n\n") + 2;
                    return sse.substring(0, second) + "data: [1, 2]\n\n" + sse.substring(second);
                }),
                text("cut-mid-frame", "AGUI1-01", sse -> sse.substring(0, sse.lastIndexOf("data: ") + 20)),
                insert("unknown-event-type", "AGUI1-02", Map.of("type", "THINKING_START")),
                each("delta-not-a-string", "AGUI1-03", "TEXT_MESSAGE_CONTENT", (events, i) ->
                        events.get(i).put("delta", 42) != null),
                each("null-parentMessageId", "AGUI1-03", "TOOL_CALL_START", (events, i) ->
                        events.get(i).put("parentMessageId", null) != null),
                last("first-event-not-run-started", "AGUI1-05", events -> events.remove(0) != null),
                last("event-after-run-finished", "AGUI1-06", events -> "RUN_FINISHED".equals(events.get(events.size()
                        - 1).get("type")) && events.add(new LinkedHashMap<>(Map.of("type", "STEP_STARTED",
                        "stepName", "late")))),
                stricter(last("no-terminal-event", "AGUI1-07", events -> events.remove(events.size() - 1) != null)),
                each("content-before-start", "AGUI1-08", "TEXT_MESSAGE_START", (events, i) -> {
                    if (i + 1 < events.size() && "TEXT_MESSAGE_CONTENT".equals(events.get(i + 1).get("type"))) {
                        events.remove(i);
                        return true;
                    }
                    return false;
                }),
                each("args-after-end", "AGUI1-09", "TOOL_CALL_ARGS", (events, i) -> {
                    Map<String, Object> args = events.get(i);
                    events.set(i, events.get(i + 1));
                    events.set(i + 1, args);
                    return true;
                }),
                insert("step-finished-never-started", "AGUI1-10", Map.of("type", "STEP_FINISHED",
                        "stepName", "ghost")),
                insert("reasoning-content-never-started", "AGUI1-11", Map.of("type", "REASONING_MESSAGE_CONTENT",
                        "messageId", "r1", "delta", "hm")),
                insert("subagent-finished-never-started", "AGUI1-12", Map.of("type", "SUBAGENT_FINISHED",
                        "subagentRunId", "sa")),
                each("step-left-open", "AGUI1-13", "STEP_FINISHED", (events, i) -> {
                    return "RUN_FINISHED".equals(events.get(events.size() - 1).get("type")) && events.remove(i) != null;
                }),
                each("parent-is-a-tool-message", "AGUI1-16", "TOOL_CALL_RESULT", (events, i) -> {
                    String id = events.get(i).get("toolCallId") + "-again";
                    events.add(i + 1, new LinkedHashMap<>(Map.of("type", "TOOL_CALL_START", "toolCallId", id,
                            "toolCallName", "x", "parentMessageId", events.get(i).get("messageId"))));
                    events.add(i + 2, new LinkedHashMap<>(Map.of("type", "TOOL_CALL_END", "toolCallId", id)));
                    return true;
                }),
                last("newer-protocol-version", "AGUI1-17", events -> {
                    events.get(0).put("protocolVersion", "1.1");
                    return true;
                }),
                text("crlf-line-ends", "AGUI1-18", sse -> sse.replace("\n", "\r\n")),
                each("continuation-by-another-subagent", "AGUI1-19", "TEXT_MESSAGE_CONTENT", (events, i) ->
                        events.get(i).put("subagentRunId", "helper") == null),
                // valid streams the runtime never sends
                each("text-as-chunks", null, "TEXT_MESSAGE_START", (events, i) -> {
                    Map<String, Object> start = events.get(i);
                    Object id = start.get("messageId");
                    events.set(i, new LinkedHashMap<>(Map.of("type", "TEXT_MESSAGE_CHUNK", "messageId", id,
                            "role", "assistant")));
                    for (int j = i + 1; j < events.size(); j++) {
                        Map<String, Object> event = events.get(j);
                        if (id.equals(event.get("messageId")) && "TEXT_MESSAGE_CONTENT".equals(event.get("type"))) {
                            event.put("type", "TEXT_MESSAGE_CHUNK");
                        } else if (id.equals(event.get("messageId")) && "TEXT_MESSAGE_END".equals(event.get("type"))) {
                            events.remove(j);
                            break;
                        }
                    }
                    return true;
                }),
                each("tool-call-as-chunk", null, "TOOL_CALL_ARGS", (events, i) -> {
                    Object id = events.get(i).get("toolCallId");
                    Map<String, Object> start = events.stream().filter(e -> "TOOL_CALL_START".equals(e.get("type"))
                            && id.equals(e.get("toolCallId"))).findFirst().orElseThrow();
                    Map<String, Object> chunk = new LinkedHashMap<>(start);
                    chunk.put("type", "TOOL_CALL_CHUNK");
                    chunk.put("delta", events.get(i).get("delta"));
                    events.set(i, chunk);
                    events.remove(i + 1); // its TOOL_CALL_END: the next event closes the chunk's call
                    events.remove(start);
                    return true;
                }),
                last("reasoning-before-the-answer", null, events -> {
                    String id = events.get(0).get("runId") + "-reasoning";
                    events.addAll(1, List.of(
                            new LinkedHashMap<>(Map.of("type", "REASONING_START", "messageId", id)),
                            new LinkedHashMap<>(Map.of("type", "REASONING_MESSAGE_START", "messageId", id,
                                    "role", "reasoning")),
                            new LinkedHashMap<>(Map.of("type", "REASONING_MESSAGE_CONTENT", "messageId", id,
                                    "delta", "The user wants the volume changed.")),
                            new LinkedHashMap<>(Map.of("type", "REASONING_MESSAGE_END", "messageId", id)),
                            new LinkedHashMap<>(Map.of("type", "REASONING_END", "messageId", id))));
                    return "RUN_STARTED".equals(events.get(0).get("type"));
                }),
                last("timestamps-metadata-result", null, events -> {
                    long at = 1_764_489_600_000L;
                    for (Map<String, Object> event : events) {
                        event.put("timestamp", at++);
                        event.put("metadata", Map.of("source", "agentlab"));
                    }
                    Map<String, Object> end = events.get(events.size() - 1);
                    if ("RUN_FINISHED".equals(end.get("type"))) {
                        end.put("result", Map.of("answered", true));
                    }
                    return true;
                }),
                text("bom-and-keep-alives", null, sse -> "\uFEFF: keep-alive\n\n" + sse.replace("\n\n",
                        "\n\n: keep-alive\n\n")),
                text("data-split-over-lines", null, sse -> sse.replace("\",\"", "\",\ndata: \"")),
                // several runs in one stream, runs without messages, snapshot-only runs, retransmissions
                runs("two-runs-in-one-stream", null, Expected.PASS, true, (first, again) -> List.of(first,
                        again.fresh())),
                runs("tool-call-id-reused-in-one-stream", "AGUI1-14", Expected.STRICTER, true, (first, again) ->
                        first.stream().anyMatch(e -> "TOOL_CALL_START".equals(e.get("type")))
                                ? List.of(first, again.keeping(false, true)) : null),
                runs("tool-call-id-reused-under-another-name-in-one-stream", "AGUI1-14", Expected.FAIL, true,
                        (first, again) -> {
                            List<Map<String, Object>> renamed = again.keeping(false, true);
                            renamed.stream().filter(e -> "TOOL_CALL_START".equals(e.get("type")))
                                    .forEach(e -> e.put("toolCallName", e.get("toolCallName") + ".again"));
                            // the client warns that the call exists under another name, then merges them
                            return renamed.stream().anyMatch(e -> "TOOL_CALL_START".equals(e.get("type")))
                                    ? List.of(first, renamed) : null;
                        }),
                runs("message-id-reused-in-one-stream", "AGUI1-14", Expected.STRICTER, true, (first, again) ->
                        first.stream().anyMatch(e -> "TEXT_MESSAGE_START".equals(e.get("type")))
                                ? List.of(first, again.keeping(true, false)) : null),
                runs("second-run-in-stream-left-open", "AGUI1-07", Expected.STRICTER, true, (first, again) -> {
                    List<Map<String, Object>> open = again.fresh();
                    return "RUN_FINISHED".equals(open.get(open.size() - 1).get("type"))
                            ? List.of(first, open.subList(0, open.size() - 1)) : null;
                }),
                runs("run-without-messages", null, Expected.PASS, false, (first, again) -> List.of(first,
                        again.bare(List.of()))),
                runs("run-without-messages-then-run-in-one-stream", null, Expected.PASS, true, (first, again) ->
                        List.of(again.bare(List.of()), first)),
                runs("snapshot-only-run", null, Expected.PASS, false, (first, again) -> List.of(first,
                        again.bare(List.of(snapshot())))),
                runs("snapshot-only-run-left-open", "AGUI1-07", Expected.STRICTER, false, (first, again) -> {
                    List<Map<String, Object>> open = again.bare(List.of(snapshot()));
                    return List.of(first, open.subList(0, open.size() - 1));
                }),
                runs("retransmission-with-new-ids", null, Expected.PASS, false, (first, again) -> List.of(first,
                        again.fresh())),
                runs("retransmission-reusing-the-runs-ids", "AGUI1-14", Expected.STRICTER, false, (first, again) ->
                        first.stream().anyMatch(e -> "TEXT_MESSAGE_START".equals(e.get("type")))
                                ? List.of(first, again.keeping(true, true)) : null));
    }

    private static Map<String, Object> snapshot() {
        return new LinkedHashMap<>(Map.of("type", "STATE_SNAPSHOT", "snapshot", Map.of("volume", 30)));
    }

    /**
     * A copy of one run as the next run of its thread, {@code <runId>-r2} as the runtime names a retransmission: its
     * ids renamed after the new run id, except those a producer that reuses ids would keep.
     */
    record Rerun(List<Map<String, Object>> events, String runId) {

        /** The copy with every id new. */
        List<Map<String, Object>> fresh() {
            return keeping(false, false);
        }

        /** The copy keeping the original's message ids ({@code messages}) or tool-call ids ({@code toolCalls}). */
        List<Map<String, Object>> keeping(boolean messages, boolean toolCalls) {
            String run = String.valueOf(events.get(0).get("runId"));
            List<Map<String, Object>> copy = new ArrayList<>();
            for (Map<String, Object> event : events) {
                Map<String, Object> renamed = new LinkedHashMap<>();
                event.forEach((field, value) -> {
                    boolean kept = messages && (field.equals("messageId") || field.equals("parentMessageId"))
                            || toolCalls && field.equals("toolCallId");
                    renamed.put(field, kept || !(value instanceof String s) || !(s.equals(run)
                            || s.startsWith(run + "-")) ? value : runId + s.substring(run.length()));
                });
                copy.add(renamed);
            }
            return copy;
        }

        /** A run of the new id with nothing but {@code body} between its RUN_STARTED and RUN_FINISHED. */
        List<Map<String, Object>> bare(List<Map<String, Object>> body) {
            Map<String, Object> start = events.get(0);
            List<Map<String, Object>> run = new ArrayList<>();
            run.add(new LinkedHashMap<>(Map.of("type", "RUN_STARTED", "threadId", start.get("threadId"),
                    "runId", runId)));
            body.forEach(event -> run.add(new LinkedHashMap<>(event)));
            run.add(new LinkedHashMap<>(Map.of("type", "RUN_FINISHED", "threadId", start.get("threadId"),
                    "runId", runId)));
            return run;
        }
    }

    private interface Runs {
        /** The runs of the changed stream(s), from the thread's first run and a re-run of it; null: not applicable. */
        List<List<Map<String, Object>>> of(List<Map<String, Object>> first, Rerun again);
    }

    /**
     * The thread's first run and the runs {@code runs} makes of it (each copy named {@code <runId>-r2}), in one stream
     * ({@code oneStream}) or one stream each, as the thread's streams.
     */
    private static Kind runs(String name, String rule, Expected expected, boolean oneStream, Runs runs) {
        return new Kind(name, rule, expected, thread -> {
            List<Map<String, Object>> first = events(thread.get(0));
            if (first.isEmpty() || !"RUN_STARTED".equals(first.get(0).get("type"))
                    || !"RUN_FINISHED".equals(first.get(first.size() - 1).get("type"))) {
                return Optional.empty();
            }
            List<List<Map<String, Object>>> made = runs.of(first, new Rerun(first, first.get(0).get("runId")
                    + "-r2"));
            return made == null ? Optional.empty() : Optional.of(layout(made, oneStream));
        });
    }

    private static List<String> layout(List<List<Map<String, Object>>> runs, boolean oneStream) {
        if (!oneStream) {
            return runs.stream().map(AguiStreamVariants::sse).toList();
        }
        List<Map<String, Object>> all = new ArrayList<>();
        runs.forEach(all::addAll);
        return List.of(sse(all));
    }

    /**
     * {@code count} random multi-run threads from {@code seed}: two or three runs made from one run of a suite thread
     * (copies with new ids, or keeping its message ids, tool-call ids or both; a run without messages; a
     * snapshot-only run), the last one sometimes left open, all in one stream or one stream each, after the thread's
     * earlier streams. No verdict is expected, only the same one from both checkers or the kit's documented
     * strictness.
     */
    static List<Variant> randomRuns(Map<String, List<String>> threads, long seed, int count) {
        java.util.Random random = new java.util.Random(seed);
        List<String> names = new ArrayList<>(threads.keySet());
        List<Variant> variants = new ArrayList<>();
        while (variants.size() < count) {
            String name = names.get(random.nextInt(names.size()));
            List<String> thread = threads.get(name);
            int at = random.nextInt(thread.size());
            List<Map<String, Object>> base = events(thread.get(at));
            if (base.isEmpty() || !"RUN_STARTED".equals(base.get(0).get("type"))) {
                continue;
            }
            List<List<Map<String, Object>>> runs = new ArrayList<>();
            List<String> made = new ArrayList<>();
            int size = 2 + random.nextInt(2);
            boolean oneStream = random.nextBoolean();
            for (int r = 0; r < size; r++) {
                Rerun again = new Rerun(base, base.get(0).get("runId") + "-r" + (r + 2));
                int pick = r == 0 ? random.nextInt(2) * 6 : random.nextInt(7);
                if (!oneStream && r > 0 && r < size - 1 && pick <= 4 && pick != 1) {
                    // a stream each: only the last may reuse ids, as the oracle stops rebuilding a thread's
                    // conversation after the first stream that merges (verdicts.mjs)
                    pick = 1;
                }
                made.add(List.of("itself", "new ids", "its message ids", "its tool-call ids", "its ids",
                        "no messages", "a state snapshot only").get(pick));
                runs.add(switch (pick) {
                    case 0 -> base;
                    case 1 -> again.fresh();
                    case 2 -> again.keeping(true, false);
                    case 3 -> again.keeping(false, true);
                    case 4 -> again.keeping(true, true);
                    case 5 -> again.bare(List.of());
                    default -> again.bare(List.of(snapshot()));
                });
            }
            boolean open = random.nextInt(5) == 0;
            List<Map<String, Object>> last = runs.get(runs.size() - 1);
            if (open && "RUN_FINISHED".equals(last.get(last.size() - 1).get("type"))) {
                runs.set(runs.size() - 1, last.subList(0, last.size() - 1));
            }
            List<String> streams = new ArrayList<>(thread.subList(0, at));
            streams.addAll(layout(runs, oneStream));
            variants.add(new Variant("random runs #" + (variants.size() + 1) + " of seed " + seed + " (" + made
                    + (open ? ", the last left open" : "") + (oneStream ? ", one stream" : ", a stream each")
                    + ") <- " + name, streams, null, Expected.EITHER));
        }
        return variants;
    }

    // ---- how variants are made ----

    private interface Change {
        /** Changes the event at {@code index} (and others); false when the change does not apply here. */
        boolean at(List<Map<String, Object>> events, int index);
    }

    /** {@code kind}, expected to be taken by the client and rejected by the kit (docs/runtime.md#strictness). */
    private static Kind stricter(Kind kind) {
        return new Kind(kind.name, kind.rule, Expected.STRICTER, kind.make);
    }

    /** Changes the first event of {@code type} in the first run that has one and where the change applies. */
    private static Kind each(String name, String rule, String type, Change change) {
        return new Kind(name, rule, thread -> {
            for (int run = 0; run < thread.size(); run++) {
                List<Map<String, Object>> events = events(thread.get(run));
                for (int i = 0; i < events.size(); i++) {
                    if (type.equals(events.get(i).get("type"))) {
                        if (!change.at(events, i)) {
                            return Optional.empty();
                        }
                        return Optional.of(replaced(thread, run, sse(events)));
                    }
                }
            }
            return Optional.empty();
        });
    }

    /** Changes the thread's last run; {@code change} says whether it applied. */
    private static Kind last(String name, String rule, java.util.function.Predicate<List<Map<String, Object>>> change) {
        return new Kind(name, rule, thread -> {
            List<Map<String, Object>> events = events(thread.get(thread.size() - 1));
            return events.isEmpty() || !change.test(events) ? Optional.empty()
                    : Optional.of(replaced(thread, thread.size() - 1, sse(events)));
        });
    }

    /** Inserts {@code event} after the last run's first event. */
    private static Kind insert(String name, String rule, Map<String, Object> event) {
        return last(name, rule, events -> {
            events.add(1, new LinkedHashMap<>(event));
            return true;
        });
    }

    /** Changes the last run's SSE text. */
    private static Kind text(String name, String rule, Function<String, String> change) {
        return new Kind(name, rule, thread -> Optional.of(replaced(thread, thread.size() - 1,
                change.apply(thread.get(thread.size() - 1)))));
    }

    /**
     * The thread's first run, then a copy of it as a second run whose ids are all new except the {@code kept} ones
     * (tool-call ids, or text message ids): what a producer whose ids restart every turn sends.
     */
    private static Optional<List<String>> again(List<String> thread, String kept) {
        List<Map<String, Object>> first = events(thread.get(0));
        boolean has = first.stream().anyMatch(e -> kept.equals("toolCallId") ? "TOOL_CALL_START".equals(e.get("type"))
                : "TEXT_MESSAGE_START".equals(e.get("type")));
        if (!has || first.isEmpty() || !"RUN_STARTED".equals(first.get(0).get("type"))) {
            return Optional.empty();
        }
        String run = String.valueOf(first.get(0).get("runId"));
        List<Map<String, Object>> second = new ArrayList<>();
        for (Map<String, Object> event : first) {
            Map<String, Object> copy = new LinkedHashMap<>();
            boolean keep = String.valueOf(event.get("type")).startsWith(kept.equals("toolCallId") ? "TOOL_CALL_"
                    : "TEXT_MESSAGE_");
            event.forEach((field, value) -> copy.put(field, keep && field.equals(kept) || !(value instanceof String s)
                    || !(s.equals(run) || s.startsWith(run + "-")) ? value : run + "-again" + s.substring(run.length())));
            if (kept.equals("messageId") && "TOOL_CALL_START".equals(event.get("type"))) {
                copy.put("parentMessageId", event.get("parentMessageId"));
            }
            second.add(copy);
        }
        return Optional.of(List.of(thread.get(0), sse(second)));
    }

    private static List<String> replaced(List<String> thread, int run, String stream) {
        List<String> streams = new ArrayList<>(thread.subList(0, run));
        streams.add(stream);
        return streams;
    }

    static List<Map<String, Object>> events(String sse) {
        List<Map<String, Object>> events = new ArrayList<>();
        for (AguiSseCodec.Frame frame : AguiSseCodec.decode(sse)) {
            events.add(new LinkedHashMap<>(Json.object(Json.tree(frame.data()))));
        }
        return events;
    }

    private static String sse(List<Map<String, Object>> events) {
        List<AguiEvent> wire = new ArrayList<>();
        for (Map<String, Object> event : events) {
            wire.add(new AguiEvent(String.valueOf(event.get("type")), event));
        }
        return AguiSseCodec.encode(wire, 1);
    }
}
