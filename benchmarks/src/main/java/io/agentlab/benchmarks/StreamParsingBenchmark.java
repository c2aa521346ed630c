package io.agentlab.benchmarks;

import io.agentlab.runtime.llm.Chunks;
import io.agentlab.runtime.llm.StreamAccumulator;
import io.agentlab.runtime.protocol.HiddenEventBlockParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.annotations.Measurement;

/**
 * Throughput of the two stream parsers on the deltas a provider streams: the hidden-block parser over a
 * {@code dual_agent} answer (visible text then the block) and the accumulator over a {@code chat_agent_tools} stream
 * of content and tool-call chunk JSON. The report turns operations per second into MB/s with the bytes per
 * operation printed by {@link #main}; {@code -prof gc} gives allocation per operation.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class StreamParsingBenchmark {

    /** Visible characters per answer. */
    public static final int VISIBLE_CHARS = 64 * 1024;

    private List<String> dualDeltas;
    private List<String> toolPayloads;

    @Setup
    public void build() {
        dualDeltas = dualDeltas();
        toolPayloads = toolPayloads();
    }

    static List<String> dualDeltas() {
        Random random = new Random(7);
        StringBuilder text = new StringBuilder();
        String[] words = {"sure", "the", "lamp", "is", "on", "and", "I", "noted", "that", "for", "you", "today", "好的"};
        while (text.length() < VISIBLE_CHARS) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(10) == 0 ? ". " : " ");
        }
        text.append('\n').append(HiddenEventBlockParser.MARKER).append(" device.volume.adjust, calendar.schedule.create");
        List<String> deltas = new ArrayList<>();
        for (int from = 0; from < text.length(); ) {
            int to = Math.min(text.length(), from + 1 + random.nextInt(8)); // provider-like 1..8 character deltas
            deltas.add(text.substring(from, to));
            from = to;
        }
        return deltas;
    }

    static List<String> toolPayloads() {
        Random random = new Random(11);
        Chunks chunks = Chunks.stream("bench-model");
        int size = 0;
        while (size < VISIBLE_CHARS) {
            String piece = "word" + random.nextInt(1000) + " ";
            chunks.content(piece);
            size += piece.length();
        }
        String args = "{\"mode\":\"absolute\",\"value\":30}";
        chunks.toolCall(0, "call_1", "device_volume_adjust", args.substring(0, 10));
        chunks.toolCall(0, null, null, args.substring(10));
        return chunks.finish("tool_calls").done().payloads();
    }

    /** The bytes one operation parses, per benchmark (for MB/s). */
    public static long bytes(List<String> pieces) {
        return pieces.stream().mapToLong(piece -> piece.getBytes(StandardCharsets.UTF_8).length).sum();
    }

    @Benchmark
    public Object hiddenBlockParser() {
        HiddenEventBlockParser parser = new HiddenEventBlockParser();
        int visible = 0;
        for (String delta : dualDeltas) {
            visible += parser.accept(delta).length();
        }
        visible += parser.finish().length();
        return visible + parser.eventNames().size();
    }

    @Benchmark
    public Object toolCallAccumulator() {
        StreamAccumulator accumulator = new StreamAccumulator();
        int visible = 0;
        for (String payload : toolPayloads) {
            visible += accumulator.accept(payload).length();
        }
        return visible;
    }

    /** Prints the bytes per operation of each benchmark. */
    public static void main(String[] args) {
        System.out.println("hiddenBlockParser bytes/op " + bytes(dualDeltas()));
        System.out.println("toolCallAccumulator bytes/op " + bytes(toolPayloads()));
    }
}
