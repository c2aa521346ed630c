package io.agentlab.oracles.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.completions.CompletionUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Judges exported provider streams with the official OpenAI Java SDK: every chunk must parse as
 * {@link ChatCompletionChunk} (and validate), and the SDK's {@link ChatCompletionAccumulator} must fold the stream to
 * what the kit folded it to — text, tool calls by index (id, name, arguments), finish reason and usage. Where a family
 * puts the usage on the finish chunk (DeepSeek), which the accumulator refuses (it takes a chunk with usage for a
 * usage-only chunk and never builds the choices), the choices are accumulated without the usage and the usage is
 * read with the SDK's typed getters. A stream the kit rejects must be rejected by the SDK too, for the same reason.
 */
final class SdkOracle {

    /** Reads the exported files (plain Jackson 2, as the SDK's own). */
    static final ObjectMapper FILES = new ObjectMapper();
    private static final String DONE = "[DONE]";

    /** How a stream came out. */
    enum Outcome {
        /** The SDK's accumulator took the stream as it is, and everything agrees. */
        ACCUMULATED,
        /** Usage on the finish chunk, folded with the typed getters, and everything agrees. */
        FOLDED,
        /** Both the kit and the SDK refuse the stream (a fault fixture), for the same reason. */
        BOTH_REJECT,
        /** The SDK and the kit disagree: see the findings. */
        DISAGREE
    }

    /**
     * One stream's verdict.
     *
     * @param id       the stream's id
     * @param family   its provider family
     * @param source   {@code shipped} or {@code synthesized}
     * @param outcome   how it came out
     * @param findings  what disagreed (empty unless {@link Outcome#DISAGREE})
     * @param toolCalls the tool calls compared (those of the SDK's fold)
     * @param usage     whether a usage object was compared
     */
    record Verdict(String id, String family, String source, Outcome outcome, List<String> findings, int toolCalls,
                   boolean usage) {
        Verdict {
            findings = List.copyOf(findings);
        }

        /** A verdict without a fold to count (a rejected stream, or one the SDK cannot fold). */
        Verdict(String id, String family, String source, Outcome outcome, List<String> findings) {
            this(id, family, source, outcome, findings, 0, false);
        }

        @Override
        public String toString() {
            return family + "/" + source + "/" + id + ": " + outcome + (findings.isEmpty() ? "" : " " + findings);
        }
    }

    private SdkOracle() {
    }

    /** Every exported stream file under {@code directory} (the manifest aside), sorted. */
    static List<Path> streamFiles(Path directory) {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(p -> p.toString().endsWith(".json") && !p.getFileName().toString().equals("manifest.json"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Judges one exported file. */
    static Verdict judge(Path file) {
        try {
            return judge(FILES.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Judges one exported stream: {@code id}, {@code family}, {@code source}, {@code payloads}, {@code kit}. */
    static Verdict judge(JsonNode stream) {
        String id = stream.path("id").asText();
        String family = stream.path("family").asText();
        String source = stream.path("source").asText();
        JsonNode kit = stream.path("kit");
        boolean kitRejects = kit.path("outcome").asText().equals("rejected");
        String kitError = kit.path("error").asText();

        List<ChatCompletionChunk> chunks = new ArrayList<>();
        JsonNode payloads = stream.path("payloads");
        for (int event = 0; event < payloads.size(); event++) {
            String payload = payloads.get(event).asText();
            if (payload.trim().equals(DONE)) {
                continue;
            }
            try {
                chunks.add(ObjectMappers.jsonMapper().readValue(payload, ChatCompletionChunk.class).validate());
            } catch (IOException | RuntimeException e) {
                String why = "event " + event + " does not parse as ChatCompletionChunk: " + oneLine(e);
                if (kitRejects && (kitError.equals("MALFORMED_CHUNK") || kitError.equals("STREAM_ERROR"))) {
                    return new Verdict(id, family, source, Outcome.BOTH_REJECT, List.of());
                }
                return new Verdict(id, family, source, Outcome.DISAGREE, List.of(kitRejects
                        ? why + ", but the kit rejects the stream for another reason: " + kitError : why));
            }
        }

        Folded folded = accumulate(chunks, false);
        Outcome outcome = Outcome.ACCUMULATED;
        if (folded.failure() != null && chunks.stream().anyMatch(c -> c.usage().isPresent() && !c.choices().isEmpty())) {
            folded = accumulate(chunks, true);
            outcome = Outcome.FOLDED;
        }
        if (folded.failure() != null) {
            if (kitRejects && kitError.equals("TRUNCATED") && folded.unfinished()) {
                return new Verdict(id, family, source, Outcome.BOTH_REJECT, List.of());
            }
            return new Verdict(id, family, source, Outcome.DISAGREE, List.of("the SDK's accumulator fails: "
                    + folded.failure() + (kitRejects ? " (the kit rejects it as " + kitError + ")"
                    : " (the kit completes it)")));
        }
        if (kitRejects) {
            return new Verdict(id, family, source, Outcome.DISAGREE, List.of("the kit rejects the stream (" + kitError
                    + ": " + kit.path("message").asText() + ") which the SDK accumulates"));
        }
        List<String> findings = compare(folded.completion(), folded.usage(), kit);
        int toolCalls = folded.completion().choices().stream()
                .mapToInt(choice -> choice.message().toolCalls().map(List::size).orElse(0)).sum();
        return new Verdict(id, family, source, findings.isEmpty() ? outcome : Outcome.DISAGREE, findings, toolCalls,
                folded.usage() != null);
    }

    /**
     * The SDK's fold of a stream.
     *
     * @param completion the accumulated completion, or null on failure
     * @param usage      the usage (the accumulator's, or read with the typed getters when split), or null when none
     * @param failure    why the accumulator failed, or null
     * @param unfinished whether it failed only because no finish reason ever came
     */
    private record Folded(ChatCompletion completion, CompletionUsage usage, String failure, boolean unfinished) {
    }

    /**
     * Accumulates with the SDK. With {@code split}, a chunk that carries both choices and usage is accumulated without
     * its usage, and the usage is taken from it with the typed getter {@link ChatCompletionChunk#usage()}.
     */
    private static Folded accumulate(List<ChatCompletionChunk> chunks, boolean split) {
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        CompletionUsage splitUsage = null;
        try {
            for (ChatCompletionChunk chunk : chunks) {
                if (split && chunk.usage().isPresent() && !chunk.choices().isEmpty()) {
                    splitUsage = chunk.usage().get();
                    accumulator.accumulate(chunk.toBuilder().usage(Optional.empty()).build());
                } else {
                    accumulator.accumulate(chunk);
                }
            }
        } catch (RuntimeException e) {
            return new Folded(null, null, oneLine(e), false);
        }
        ChatCompletion completion;
        try {
            completion = accumulator.chatCompletion();
        } catch (IllegalStateException e) {
            return new Folded(null, null, oneLine(e), true);
        }
        return new Folded(completion, splitUsage != null ? splitUsage : completion.usage().orElse(null), null, false);
    }

    private static List<String> compare(ChatCompletion completion, CompletionUsage usage, JsonNode kit) {
        List<String> findings = new ArrayList<>();
        if (completion.choices().size() != 1) {
            findings.add("the SDK accumulated " + completion.choices().size() + " choices; the kit folds one");
            return findings;
        }
        ChatCompletion.Choice choice = completion.choices().get(0);
        ChatCompletionMessage message = choice.message();
        same(findings, "content", message.content().orElse(""), kit.path("content").asText());
        same(findings, "finish reason", choice.finishReason().asString(), kit.path("finishReason").asText(null));

        List<ChatCompletionMessageToolCall> sdkCalls = message.toolCalls().orElse(List.of());
        JsonNode kitCalls = kit.path("toolCalls");
        if (sdkCalls.size() != kitCalls.size()) {
            findings.add("tool calls: the SDK has " + sdkCalls.size() + ", the kit " + kitCalls.size() + " "
                    + kitCalls);
        }
        for (int i = 0; i < Math.min(sdkCalls.size(), kitCalls.size()); i++) {
            ChatCompletionMessageFunctionToolCall call = sdkCalls.get(i).asFunction();
            JsonNode kitCall = kitCalls.get(i);
            same(findings, "tool call " + i + " id", call.id(), kitCall.path("id").asText());
            same(findings, "tool call " + i + " name", call.function().name(), kitCall.path("name").asText());
            same(findings, "tool call " + i + " arguments", call.function().arguments(),
                    kitCall.path("arguments").asText());
        }

        JsonNode kitUsage = kit.path("usage");
        if (usage == null || kitUsage.isEmpty()) {
            if ((usage == null) != kitUsage.isEmpty()) {
                findings.add("usage: the SDK has " + (usage == null ? "none" : usage) + ", the kit " + kitUsage);
            }
            return findings;
        }
        // the typed getters first, then every field (the extensions too: cache hits, a cost) as JSON
        same(findings, "usage.prompt_tokens", usage.promptTokens(), kitUsage.path("prompt_tokens").asLong());
        same(findings, "usage.completion_tokens", usage.completionTokens(), kitUsage.path("completion_tokens").asLong());
        same(findings, "usage.total_tokens", usage.totalTokens(), kitUsage.path("total_tokens").asLong());
        JsonNode kitCached = kitUsage.path("prompt_tokens_details").path("cached_tokens");
        Optional<Long> cached = usage.promptTokensDetails().flatMap(CompletionUsage.PromptTokensDetails::cachedTokens);
        same(findings, "usage.prompt_tokens_details.cached_tokens", cached.orElse(null),
                kitCached.isMissingNode() ? null : kitCached.asLong());
        try {
            JsonNode sdkUsage = FILES.readTree(ObjectMappers.jsonMapper().writeValueAsString(usage));
            if (!sdkUsage.equals(kitUsage)) {
                findings.add("usage: the SDK has " + sdkUsage + ", the kit " + kitUsage);
            }
        } catch (IOException e) {
            findings.add("usage: the SDK's usage does not write as JSON: " + oneLine(e));
        }
        return findings;
    }

    private static void same(List<String> findings, String what, Object sdk, Object kit) {
        if (sdk == null ? kit != null : !sdk.equals(kit)) {
            findings.add(what + ": the SDK has " + quoted(sdk) + ", the kit " + quoted(kit));
        }
    }

    private static String quoted(Object value) {
        return value instanceof String text ? "\"" + text + "\"" : String.valueOf(value);
    }

    private static String oneLine(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
