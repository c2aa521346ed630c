package io.agentlab.oracles.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.JsonValue;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Judges exported provider streams with the official OpenAI Java SDK: every chunk must parse as
 * {@link ChatCompletionChunk} as the SDK's client parses it (its default, {@code responseValidation(false)}, which
 * reads a chunk without {@code validate()}; a chunk that parses but fails {@code validate()} is noted, not failed,
 * as long as the SDK still accumulates it), and the SDK's {@link ChatCompletionAccumulator} must fold the stream to
 * what the kit folded it to: choice 0 ({@code choices().get(0)}, the lowest index, which is what the kit's completion
 * is) field by field — text, tool calls by index (each index, id, name and arguments), finish reason — and then every
 * other choice ({@code n > 1}) against the kit's own, with refusals, and the usage. Two shapes the accumulator refuses
 * are folded with the SDK's pieces instead ({@code docs/recording.md#the-openai-sdk-as-an-oracle}): usage on the
 * finish chunk (DeepSeek; the accumulator takes a chunk with usage for the usage-only chunk and never builds the
 * choices), where the choices are accumulated without the usage and the usage is read with the typed getters; and a
 * finish reason before the end of a choice (the accumulator refuses every chunk after it), where each choice's earlier
 * finish reasons are left out so the accumulator reads the whole stream. Reasoning deltas
 * ({@code reasoning_content}, {@code reasoning}) are compared with their concatenation from the chunks as the SDK
 * parsed them: its accumulator keeps only the last delta's value, as an additional property. A stream the kit
 * rejects must be rejected by the SDK too, for the same reason.
 */
final class SdkOracle {

    /** Reads the exported files (plain Jackson 2, as the SDK's own). */
    static final ObjectMapper FILES = new ObjectMapper();
    /**
     * The SDK's own mapper, built once as the SDK's client builds it once: {@code ObjectMappers.jsonMapper()} makes a
     * new mapper, with empty caches, on every call (docs/performance.md#build-time).
     */
    static final ObjectMapper SDK_JSON = ObjectMappers.jsonMapper();
    private static final String DONE = "[DONE]";
    private static final String ALREADY_FINAL = "Already accumulated the final chunk(s).";

    /** How a stream came out. */
    enum Outcome {
        /** The SDK's accumulator took the stream as it is, and everything agrees. */
        ACCUMULATED,
        /** Usage on the finish chunk, folded with the typed getters, and everything agrees. */
        FOLDED,
        /** A finish reason before the end of a choice, folded from the last one, and everything agrees. */
        EARLY_FINISH,
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
     * @param toolCalls the tool calls compared (those of the SDK's fold, every choice)
     * @param usage     whether a usage object was compared
     * @param notes     what the SDK noticed without disagreeing (a chunk failing {@code validate()}, choices beyond 0)
     */
    record Verdict(String id, String family, String source, Outcome outcome, List<String> findings, int toolCalls,
                   boolean usage, List<String> notes) {
        Verdict {
            findings = List.copyOf(findings);
            notes = List.copyOf(notes);
        }

        /** A verdict without a fold to count (a rejected stream, or one the SDK cannot fold). */
        Verdict(String id, String family, String source, Outcome outcome, List<String> findings) {
            this(id, family, source, outcome, findings, 0, false, List.of());
        }

        @Override
        public String toString() {
            return family + "/" + source + "/" + id + ": " + outcome + (findings.isEmpty() ? "" : " " + findings)
                    + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
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
        List<String> invalid = new ArrayList<>();
        JsonNode payloads = stream.path("payloads");
        for (int event = 0; event < payloads.size(); event++) {
            String payload = payloads.get(event).asText();
            if (payload.trim().equals(DONE)) {
                continue;
            }
            ChatCompletionChunk chunk;
            try {
                chunk = SDK_JSON.readValue(payload, ChatCompletionChunk.class);
            } catch (IOException | RuntimeException e) {
                return unparsed(id, family, source, kitRejects, kitError,
                        "event " + event + " does not parse as ChatCompletionChunk: " + oneLine(e));
            }
            try {
                chunk.validate();
            } catch (RuntimeException e) {
                invalid.add("event " + event + " does not parse as ChatCompletionChunk: " + oneLine(e));
            }
            chunks.add(chunk);
        }

        Folded folded = accumulate(chunks, false, false);
        Outcome outcome = Outcome.ACCUMULATED;
        boolean split = chunks.stream().anyMatch(c -> c.usage().isPresent() && !c.choices().isEmpty());
        if (folded.failure() != null && split) {
            folded = accumulate(chunks, true, false);
            outcome = Outcome.FOLDED;
        }
        if (folded.failure() != null && folded.failure().contains(ALREADY_FINAL)) {
            folded = accumulate(chunks, split, true);
            outcome = Outcome.EARLY_FINISH;
        }
        if (folded.failure() != null) {
            if (!invalid.isEmpty()) {
                // the SDK cannot use the stream, and validate() says why
                return unparsed(id, family, source, kitRejects, kitError, invalid.get(0));
            }
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
        List<String> notes = new ArrayList<>();
        invalid.forEach(why -> notes.add("with responseValidation(true) the SDK would refuse it: " + why));
        List<String> findings = compare(folded.completion(), folded.usage(), toolCallIndexes(chunks), kit, notes);
        compareReasoning(findings, chunks, kit.path("choices"));
        int toolCalls = folded.completion().choices().stream()
                .mapToInt(choice -> choice.message().toolCalls().map(List::size).orElse(0)).sum();
        return new Verdict(id, family, source, findings.isEmpty() ? outcome : Outcome.DISAGREE, findings, toolCalls,
                folded.usage() != null, notes);
    }

    private static Verdict unparsed(String id, String family, String source, boolean kitRejects, String kitError,
                                    String why) {
        if (kitRejects && (kitError.equals("MALFORMED_CHUNK") || kitError.equals("STREAM_ERROR"))) {
            return new Verdict(id, family, source, Outcome.BOTH_REJECT, List.of());
        }
        return new Verdict(id, family, source, Outcome.DISAGREE, List.of(kitRejects
                ? why + ", but the kit rejects the stream for another reason: " + kitError : why));
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
     * its usage, and the usage is taken from it with the typed getter {@link ChatCompletionChunk#usage()}. With
     * {@code lastFinish}, a choice's finish reason is kept only on the last chunk that carries one for that choice.
     */
    private static Folded accumulate(List<ChatCompletionChunk> chunks, boolean split, boolean lastFinish) {
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        CompletionUsage splitUsage = null;
        Map<Long, Integer> lastFinishAt = new HashMap<>();
        try {
            for (int i = 0; i < chunks.size(); i++) {
                for (ChatCompletionChunk.Choice choice : chunks.get(i).choices()) {
                    if (choice.finishReason().isPresent()) {
                        lastFinishAt.put(choice.index(), i);
                    }
                }
            }
            for (int i = 0; i < chunks.size(); i++) {
                ChatCompletionChunk chunk = chunks.get(i);
                if (lastFinish) {
                    int at = i;
                    chunk = chunk.toBuilder().choices(chunk.choices().stream().map(choice ->
                            choice.finishReason().isPresent() && lastFinishAt.get(choice.index()) != at
                                    ? choice.toBuilder().finishReason(Optional.empty()).build() : choice).toList())
                            .build();
                }
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

    /** Per choice index, the tool-call indexes its deltas named, in order (the SDK's keys, which it does not keep). */
    private static Map<Long, List<Long>> toolCallIndexes(List<ChatCompletionChunk> chunks) {
        Map<Long, TreeSet<Long>> indexes = new TreeMap<>();
        for (ChatCompletionChunk chunk : chunks) {
            for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                choice.delta().toolCalls().ifPresent(calls -> calls.forEach(call ->
                        indexes.computeIfAbsent(choice.index(), i -> new TreeSet<>()).add(call.index())));
            }
        }
        Map<Long, List<Long>> out = new TreeMap<>();
        indexes.forEach((choice, calls) -> out.put(choice, List.copyOf(calls)));
        return out;
    }

    private static List<String> compare(ChatCompletion completion, CompletionUsage usage,
                                        Map<Long, List<Long>> toolCallIndexes, JsonNode kit, List<String> notes) {
        List<String> findings = new ArrayList<>();
        List<ChatCompletion.Choice> choices = completion.choices();
        if (choices.isEmpty()) {
            findings.add("the SDK accumulated no choice");
            return findings;
        }
        // choice 0 against the kit's completion, which is what the runtime reads
        compareChoice(findings, "", choices.get(0), toolCallIndexes.getOrDefault(choices.get(0).index(), List.of()),
                kit, kit.path("toolCalls"));
        JsonNode kitChoices = kit.path("choices");
        if (choices.size() > 1 || kitChoices.size() > 1) {
            notes.add(choices.size() + " choices: choice 0 is the kit's completion, the others compared apart");
            if (kitChoices.size() != choices.size()) {
                findings.add("choices: the SDK has " + choices.size() + ", the kit " + kitChoices.size());
            }
            for (int c = 0; c < Math.min(choices.size(), kitChoices.size()); c++) {
                ChatCompletion.Choice choice = choices.get(c);
                JsonNode kitChoice = kitChoices.get(c);
                same(findings, "choice " + c + " index", choice.index(), kitChoice.path("index").asLong());
                compareChoice(findings, "choice " + choice.index() + " ", choice,
                        toolCallIndexes.getOrDefault(choice.index(), List.of()), kitChoice, kitChoice.path("toolCalls"));
            }
        }
        for (int c = 0; c < Math.min(choices.size(), kitChoices.size()); c++) {
            String refusal = choices.get(c).message().refusal().orElse("");
            same(findings, "choice " + c + " refusal", refusal, kitChoices.get(c).path("refusal").asText(""));
        }
        compareUsage(findings, usage, kit.path("usage"));
        return findings;
    }

    /**
     * Each choice's reasoning against the {@code reasoning_content} / {@code reasoning} strings of its deltas as the
     * SDK parsed them (its accumulator keeps only the last delta's value, so the oracle concatenates them).
     */
    private static void compareReasoning(List<String> findings, List<ChatCompletionChunk> chunks, JsonNode kitChoices) {
        Map<Long, StringBuilder> reasoning = new TreeMap<>();
        for (ChatCompletionChunk chunk : chunks) {
            for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                StringBuilder text = reasoning.computeIfAbsent(choice.index(), i -> new StringBuilder());
                for (String key : List.of("reasoning_content", "reasoning")) {
                    JsonValue value = choice.delta()._additionalProperties().get(key);
                    if (value != null) {
                        value.asString().ifPresent(text::append);
                    }
                }
            }
        }
        for (JsonNode kitChoice : kitChoices) {
            StringBuilder sdk = reasoning.get(kitChoice.path("index").asLong());
            same(findings, "choice " + kitChoice.path("index").asLong() + " reasoning", sdk == null ? "" : sdk.toString(),
                    kitChoice.path("reasoning").asText(""));
        }
    }

    private static void compareChoice(List<String> findings, String prefix, ChatCompletion.Choice choice,
                                      List<Long> indexes, JsonNode kit, JsonNode kitCalls) {
        ChatCompletionMessage message = choice.message();
        same(findings, prefix + "content", message.content().orElse(""), kit.path("content").asText());
        String finish;
        try {
            finish = choice.finishReason().asString();
        } catch (RuntimeException e) {
            finish = null;
        }
        same(findings, prefix + "finish reason", finish, kit.path("finishReason").asText(null));
        List<ChatCompletionMessageToolCall> sdkCalls = message.toolCalls().orElse(List.of());
        if (sdkCalls.size() != kitCalls.size()) {
            findings.add(prefix + "tool calls: the SDK has " + sdkCalls.size() + ", the kit " + kitCalls.size() + " "
                    + kitCalls);
        }
        for (int i = 0; i < Math.min(sdkCalls.size(), kitCalls.size()); i++) {
            ChatCompletionMessageFunctionToolCall call = sdkCalls.get(i).asFunction();
            JsonNode kitCall = kitCalls.get(i);
            long index = i < indexes.size() ? indexes.get(i) : -1;
            String what = prefix + "tool call " + index;
            same(findings, what + " index", index, kitCall.path("index").asLong());
            String sdkId = call._id().asString().orElse("");
            // a call the provider never named gets call_<index> from the kit; the SDK leaves it without an id
            same(findings, what + (sdkId.isEmpty() ? " id (none sent: call_" + index + ")" : " id"),
                    sdkId.isEmpty() ? "call_" + index : sdkId, kitCall.path("id").asText());
            same(findings, what + " name", call.function()._name().asString().orElse(""),
                    kitCall.path("name").asText());
            same(findings, what + " arguments", call.function().arguments(), kitCall.path("arguments").asText());
        }
    }

    private static void compareUsage(List<String> findings, CompletionUsage usage, JsonNode kitUsage) {
        if (usage == null || kitUsage.isEmpty()) {
            if ((usage == null) != kitUsage.isEmpty()) {
                findings.add("usage: the SDK has " + (usage == null ? "none" : usage) + ", the kit " + kitUsage);
            }
            return;
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
            // the kit leaves null-valued fields out ("prompt_tokens_details": null is no details); so does this
            JsonNode sdkUsage = withoutNulls(FILES.readTree(SDK_JSON.writeValueAsString(usage)));
            if (!sdkUsage.equals(kitUsage)) {
                findings.add("usage: the SDK has " + sdkUsage + ", the kit " + kitUsage);
            }
        } catch (IOException e) {
            findings.add("usage: the SDK's usage does not write as JSON: " + oneLine(e));
        }
    }

    private static JsonNode withoutNulls(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ObjectNode out = FILES.createObjectNode();
            object.fields().forEachRemaining(field -> {
                if (!field.getValue().isNull()) {
                    out.set(field.getKey(), withoutNulls(field.getValue()));
                }
            });
            return out;
        }
        return node;
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
