package io.agentlab.providers.recorded;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.llm.CallRole;
import io.agentlab.kernel.runtime.llm.Chunks;
import io.agentlab.kernel.runtime.protocol.HiddenEventBlockParser;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Provider-faithful streams from a script, in either mode: the visible reply split at given or random boundaries,
 * then a hidden event block ({@code dual_agent}) or tool-call deltas with their arguments ({@code chat_agent_tools}),
 * a finish reason and the usage in the provider family's shape — OpenAI (a final chunk with {@code choices: []}),
 * DeepSeek (usage on the last chunk, with cache hit/miss), DashScope ({@code prompt_tokens_details.cached_tokens}).
 * Prompt tokens are left as the {@link TimedReplay#PROMPT_TOKENS} placeholder, so the replay fills in what the
 * request actually received costs, unless the script fixes them; completion tokens are counted with jtokkit. Every recording says
 * {@code synthesized: true} and names its latency model.
 */
public final class StreamSynthesizer {

    /** Provider families whose stream shapes the synthesizer reproduces. */
    public enum ProviderFamily {
        /** Usage in a separate final chunk with empty choices. */
        OPENAI,
        /** Usage on the last chunk, with prompt cache hit/miss tokens. */
        DEEPSEEK,
        /** OpenAI-compatible mode: final usage chunk with prompt_tokens_details.cached_tokens. */
        DASHSCOPE
    }

    /**
     * An event the model proposes.
     *
     * @param name          the name the hidden block carries (a registered, dotted name, or one the model made up)
     * @param argumentsJson the arguments text a tools-mode model sends (sent as written, so it may be broken JSON)
     * @param toolName      the function name a tools-mode model sends
     */
    public record ScriptedEvent(String name, String argumentsJson, String toolName) {
        /** Rejects nulls. */
        public ScriptedEvent {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(argumentsJson, "argumentsJson");
            Objects.requireNonNull(toolName, "toolName");
        }

        /** An event whose tool name is the provider-safe alias of {@code name} (dots become underscores). */
        public ScriptedEvent(String name, String argumentsJson) {
            this(name, argumentsJson, name.replace('.', '_'));
        }
    }

    /**
     * What the model says in one call.
     *
     * @param id              recording id
     * @param mode            the invocation mode the stream is for
     * @param role            the call role
     * @param lastUserMessage the user message the call answers
     * @param visibleText     the visible reply
     * @param events          proposed events (hidden block or tool calls), in order
     * @param provider        the stream shape
     * @param model           the model name
     */
    public record Script(String id, InvocationMode mode, CallRole role, String lastUserMessage, String visibleText,
                         List<ScriptedEvent> events, ProviderFamily provider, String model) {
        /** Rejects nulls and copies the events. */
        public Script {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(lastUserMessage, "lastUserMessage");
            Objects.requireNonNull(visibleText, "visibleText");
            events = List.copyOf(events);
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(model, "model");
        }
    }

    private final LatencyModel latency;
    private final LocalDate date;

    /** A synthesizer with a latency model, dating its recordings {@code date}. */
    public StreamSynthesizer(LatencyModel latency, LocalDate date) {
        this.latency = latency;
        this.date = date;
    }

    /**
     * Synthesizes a recording.
     *
     * @param script       what the model says
     * @param seed         chunk boundaries are random but reproducible for a seed
     * @param promptTokens the prompt tokens of the request this answers (for the latency model; usage is filled in
     *                     by the replay from the request actually received)
     */
    public Recording synthesize(Script script, long seed, int promptTokens) {
        Random random = new Random(seed);
        return synthesize(script, split(script.visibleText(), random), random, promptTokens, null);
    }

    /**
     * Synthesizes a recording with the visible reply split at {@code boundaries} (character offsets, ascending) and
     * the usage's prompt tokens fixed by the script instead of computed at replay.
     *
     * @param scriptedPromptTokens the prompt tokens to report, or null to fill them from the request received
     */
    public Recording synthesize(Script script, List<Integer> boundaries, int promptTokens,
                                Integer scriptedPromptTokens) {
        List<String> pieces = new ArrayList<>();
        int from = 0;
        for (int boundary : boundaries) {
            int to = Math.max(from, Math.min(script.visibleText().length(), boundary));
            if (to > from) {
                pieces.add(script.visibleText().substring(from, to));
            }
            from = to;
        }
        if (from < script.visibleText().length()) {
            pieces.add(script.visibleText().substring(from));
        }
        return synthesize(script, pieces, new Random(0), promptTokens, scriptedPromptTokens);
    }

    private Recording synthesize(Script script, List<String> visiblePieces, Random random, int promptTokens,
                                 Integer scriptedPromptTokens) {
        Chunks chunks = Chunks.stream(script.model());
        for (String piece : visiblePieces) {
            chunks.content(piece);
        }
        StringBuilder completion = new StringBuilder(script.visibleText());
        boolean dual = script.mode() == InvocationMode.DUAL_AGENT;
        if (!script.events().isEmpty()) {
            if (dual) {
                String block = "\n" + HiddenEventBlockParser.MARKER + " "
                        + String.join(", ", script.events().stream().map(ScriptedEvent::name).toList());
                completion.append(block);
                for (String piece : split(block, random)) {
                    chunks.content(piece);
                }
            } else {
                for (int i = 0; i < script.events().size(); i++) {
                    ScriptedEvent event = script.events().get(i);
                    String args = event.argumentsJson();
                    int cut = args.isEmpty() ? 0 : random.nextInt(args.length() + 1);
                    chunks.toolCall(i, "call_" + (i + 1), event.toolName(), args.substring(0, cut));
                    chunks.toolCall(i, null, null, args.substring(cut));
                    completion.append(event.name()).append(args);
                }
            }
        }
        String finish = !dual && !script.events().isEmpty() ? "tool_calls" : "stop";
        int completionTokens = PromptTokens.completion(completion.toString());
        List<String> payloads = new ArrayList<>();
        for (String payload : usage(chunks, script.provider(), finish, completionTokens).payloads()) {
            payloads.add(scriptedPromptTokens == null ? payload : payload
                    .replace(TimedReplay.PROMPT_TOKENS, scriptedPromptTokens.toString())
                    .replace(TimedReplay.TOTAL_TOKENS_PLUS + completionTokens + "@\"",
                            Integer.toString(scriptedPromptTokens + completionTokens)));
        }
        List<Recording.TimedEvent> events = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            long at = latency.offsetMs(Math.min(i, payloads.size() - 2), promptTokens);
            events.add(new Recording.TimedEvent(Math.max(at, i == 0 ? 0 : events.get(i - 1).offsetMs()),
                    payloads.get(i)));
        }
        return new Recording(script.id(),
                new RequestMatcher(script.mode().wireName(), script.role().wireName(), script.lastUserMessage()),
                new Recording.RecordedResponse(200, Map.of("Content-Type", "text/event-stream"), events),
                new Recording.Metadata(script.provider().name().toLowerCase(Locale.ROOT), script.model(),
                        date.toString(), true, List.of(), latency.describe()));
    }

    private static Chunks usage(Chunks chunks, ProviderFamily provider, String finish, int completionTokens) {
        // Placeholders the replay fills from the request it receives (see TimedReplay).
        String prompt = TimedReplay.PROMPT_TOKENS.replace("\"", "");
        String total = (TimedReplay.TOTAL_TOKENS_PLUS + completionTokens + "@").replace("\"", "");
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", prompt);
        usage.put("completion_tokens", completionTokens);
        usage.put("total_tokens", total);
        switch (provider) {
            case DEEPSEEK -> {
                usage.put("prompt_cache_hit_tokens", 0);
                usage.put("prompt_cache_miss_tokens", prompt);
                chunks.finishWithUsage(finish, usage);
            }
            case OPENAI, DASHSCOPE -> {
                usage.put("prompt_tokens_details", Map.of("cached_tokens", 0));
                chunks.finish(finish).usageChunk(usage);
            }
        }
        return chunks.done();
    }

    /** Splits text into pieces of 1..8 characters (never inside a surrogate pair). */
    static List<String> split(String text, Random random) {
        List<String> pieces = new ArrayList<>();
        int from = 0;
        while (from < text.length()) {
            int to = Math.min(text.length(), from + 1 + random.nextInt(8));
            if (to < text.length() && Character.isLowSurrogate(text.charAt(to))) {
                to++;
            }
            pieces.add(text.substring(from, to));
            from = to;
        }
        return pieces;
    }
}
