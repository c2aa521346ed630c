package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.protocol.HiddenEventBlockParser;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import io.agentlab.tokens.PromptTokens;
import org.apiguardian.api.API;

/**
 * Provider-faithful streams from a script, in either mode: the visible reply split at given or random boundaries,
 * then a hidden event block ({@code dual_agent}) or tool-call deltas with their arguments ({@code chat_agent_tools}),
 * a finish reason and the usage — every chunk written by {@link ProviderStream} in the script's
 * {@link ProviderFamily} shape (envelope, role, tool-call continuations, where usage goes and how the cache is spelled).
 * Prompt tokens are left as the {@link TimedReplay#PROMPT_TOKENS} placeholder, so the replay fills in what the
 * request actually received costs, unless the script fixes them; completion tokens are counted with jtokkit. Every
 * recording says {@code synthesized: true} and names its latency model ({@code docs/design.md#provider-synthesized-labelled}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class StreamSynthesizer {

    /**
     * An event the model proposes.
     *
     * @param name          the name the hidden block carries (a registered, dotted name, or one the model made up)
     * @param argumentsJson the arguments text a tools-mode model sends (sent as written, so it may be broken JSON)
     * @param toolName      the function name a tools-mode model sends
     * @param callId        the tool-call id a tools-mode model sends, or {@code null} for {@code call_<n>} (the
     *                      n-th call); blank and repeated ids are what some models send
     */
    public record ScriptedEvent(String name, String argumentsJson, String toolName, String callId) {
        /** Rejects nulls, but for the call id. */
        public ScriptedEvent {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(argumentsJson, "argumentsJson");
            Objects.requireNonNull(toolName, "toolName");
        }

        /** An event with its own tool name and the synthesizer's call id. */
        public ScriptedEvent(String name, String argumentsJson, String toolName) {
            this(name, argumentsJson, toolName, null);
        }

        /** An event whose tool name is the provider-safe alias of {@code name} (dots become underscores). */
        public ScriptedEvent(String name, String argumentsJson) {
            this(name, argumentsJson, name.replace('.', '_'));
        }    }

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
        ProviderStream stream = script.provider().stream(script.model(), script.id(), date);
        visiblePieces.forEach(stream::content);
        StringBuilder completion = new StringBuilder(script.visibleText());
        boolean dual = script.mode() == InvocationMode.DUAL_AGENT;
        if (!script.events().isEmpty()) {
            if (dual) {
                String block = "\n" + HiddenEventBlockParser.MARKER + " "
                        + String.join(", ", script.events().stream().map(ScriptedEvent::name).toList());
                completion.append(block);
                split(block, random).forEach(stream::content);
            } else {
                for (int i = 0; i < script.events().size(); i++) {
                    ScriptedEvent event = script.events().get(i);
                    String args = event.argumentsJson();
                    int cut = args.isEmpty() ? 0 : random.nextInt(args.length() + 1);
                    stream.toolCall(i, event.callId() == null ? "call_" + (i + 1) : event.callId(), event.toolName(),
                            List.of(args.substring(0, cut), args.substring(cut)));
                    completion.append(event.name()).append(args);
                }
            }
        }
        String finish = !dual && !script.events().isEmpty() ? "tool_calls" : "stop";
        int completionTokens = PromptTokens.completion(completion.toString());
        List<String> payloads = stream.finish(finish, scriptedPromptTokens == null
                ? ProviderStream.Usage.filledByReplay(completionTokens)
                : ProviderStream.Usage.of(scriptedPromptTokens, completionTokens)).done().payloads();
        // The role chunk comes with the first token: it shares its offset, so the latency model's first event stays
        // the first content (or tool call), as before the role chunk was modelled.
        List<Recording.TimedEvent> events = new ArrayList<>();
        int modelled = payloads.size() - 1;
        for (int i = 0; i < payloads.size(); i++) {
            int step = Math.max(0, i - 1);
            long at = latency.offsetMs(Math.min(step, modelled - 2), promptTokens);
            events.add(new Recording.TimedEvent(Math.max(at, i == 0 ? 0 : events.get(i - 1).offsetMs()),
                    payloads.get(i)));
        }
        return new Recording(script.id(),
                new RequestMatcher(script.mode().wireName(), script.role().wireName(), script.lastUserMessage()),
                new Recording.RecordedResponse(200, Map.of("Content-Type", "text/event-stream"), events),
                new Recording.Metadata(script.provider().wireName(), script.model(), date.toString(), true, List.of(),
                        latency.describe()));
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
