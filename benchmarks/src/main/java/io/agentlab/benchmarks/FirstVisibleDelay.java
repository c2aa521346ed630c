package io.agentlab.benchmarks;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.Conversation;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.VisibleSink;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.llm.ScriptedChatProvider;
import io.agentlab.plugins.BuiltInPlugins;
import io.agentlab.providers.recorded.LatencyModel;
import io.agentlab.tokens.PromptTokens;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.StreamSynthesizer;
import io.agentlab.providers.recorded.TimedReplay;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The runtime-added first-visible delay, measured with the runtime's own metrics (a JMH operation cannot express "time
 * to the first visible delta"):
 * <ul>
 *   <li>in process: a provider that hands over the first content chunk at once, so turn start → first visible delta
 *       is the runtime's own work (prompt assembly, request JSON, stream parsing, the hidden-block parser, the sink);
 *   <li>over HTTP: a recording replayed by WireMock at speed 1.0, first-visible TTFT minus the recorded offset of the
 *       first content chunk — the runtime plus the client, loopback HTTP and the replay's scheduling.
 * </ul>
 * Both after a warm-up, in both modes, with the four built-in plugins registered.
 */
public final class FirstVisibleDelay {

    private static final String USER = "turn it up a bit";
    private static final String VISIBLE = "Sure, a little louder!";

    private FirstVisibleDelay() {
    }

    /** Writes the figures to {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        Figures figures = new Figures();
        for (InvocationMode mode : InvocationMode.values()) {
            List<Double> inProcess = inProcess(mode, 3000, 2000);
            figures.put("runtime_added_in_process_ms_p50." + mode.wireName(), Figures.round(Figures.percentile(inProcess, 0.5)));
            figures.put("runtime_added_in_process_ms_p95." + mode.wireName(), Figures.round(Figures.percentile(inProcess, 0.95)));
            List<Double> overHttp = overHttp(mode, 300, 60);
            figures.put("first_visible_over_recorded_offset_ms_p50." + mode.wireName(),
                    Figures.round(Figures.percentile(overHttp, 0.5)));
            figures.put("first_visible_over_recorded_offset_ms_p95." + mode.wireName(),
                    Figures.round(Figures.percentile(overHttp, 0.95)));
        }
        figures.write(Path.of(args.length > 0 ? args[0] : "target/figures/first-visible.json"));
        System.exit(0); // idle HTTP client threads would keep the JVM alive for a minute
    }

    private static TurnRuntime.Builder runtime(InvocationMode mode) {
        return TurnRuntime.builder().plugins(BuiltInPlugins.withInMemoryPorts())
                .config(RuntimeConfig.of(mode, "p", "gpt-4o-mini", "You are Pip, a friendly voice toy."));
    }

    private static List<String> stream(InvocationMode mode) {
        Chunks chunks = Chunks.stream("gpt-4o-mini").content("Sure, ", "a little ", "louder!");
        if (mode == InvocationMode.DUAL_AGENT) {
            chunks.content("\n[[EVENTS]] device.volume.adjust");
        } else {
            chunks.toolCall(0, "call_1", "device_volume_adjust", "{\"mode\":\"relative\",\"delta\":10}");
        }
        return chunks.finish(mode == InvocationMode.DUAL_AGENT ? "stop" : "tool_calls").done().payloads();
    }

    static List<Double> inProcess(InvocationMode mode, int warmUp, int measured) {
        ScriptedChatProvider provider = new ScriptedChatProvider();
        List<Double> samples = new ArrayList<>();
        try (TurnRuntime runtime = runtime(mode).providers(new ProviderRegistry().register("p", provider)).build()) {
            for (int i = 0; i < warmUp + measured; i++) {
                provider.enqueue(stream(mode));
                TurnResult result = runtime.runTurn(new Conversation("s" + i, ZoneId.of("UTC"), Locale.ENGLISH), USER,
                        VisibleSink.discard());
                if (i >= warmUp) {
                    samples.add(result.metrics().firstVisibleTtft().orElseThrow().toNanos() / 1e6);
                }
            }
        }
        return samples;
    }

    static List<Double> overHttp(InvocationMode mode, int warmUp, int measured) {
        StreamSynthesizer synthesizer = new StreamSynthesizer(new LatencyModel(60, 0.0, 5), LocalDate.of(2026, 11, 30));
        int tokens;
        try (TurnRuntime probe = runtime(mode).providers(new ProviderRegistry()).build()) {
            tokens = PromptTokens.count(probe.firstRequest(new Conversation("s", ZoneId.of("UTC"), Locale.ENGLISH),
                    USER));
        }
        Recording recording = synthesizer.synthesize(new StreamSynthesizer.Script("delay-" + mode.wireName(), mode,
                CallRole.CHAT, USER, VISIBLE, List.of(new StreamSynthesizer.ScriptedEvent("device.volume.adjust",
                "{\"mode\":\"relative\",\"delta\":10}")), ProviderFamily.OPENAI, "gpt-4o-mini"),
                3, tokens);
        long offset = recording.response().events().get(0).offsetMs();
        List<Double> samples = new ArrayList<>();
        for (double speed : new double[] {0, 1.0}) {
            try (TimedReplay replay = TimedReplay.start(List.of(recording), speed);
                 TurnRuntime runtime = runtime(mode).providers(new ProviderRegistry().register("p",
                         new OpenAiCompatibleClient(new OpenAiCompatibleClient.Config(replay.baseUrl(), null,
                                 Duration.ofSeconds(2), Duration.ofSeconds(10))))).build()) {
                int turns = speed == 0 ? warmUp : measured + 1;
                for (int i = 0; i < turns; i++) {
                    TurnResult result = runtime.runTurn(new Conversation("h" + i, ZoneId.of("UTC"), Locale.ENGLISH),
                            USER, VisibleSink.discard());
                    if (speed > 0 && i > 0) { // the first timed turn opens the timed server's connection
                        samples.add(result.metrics().firstVisibleTtft().orElseThrow().toNanos() / 1e6 - offset);
                    }
                }
            }
        }
        return samples;
    }
}
