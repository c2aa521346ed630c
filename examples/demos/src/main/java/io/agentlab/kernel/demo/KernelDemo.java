package io.agentlab.kernel.demo;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome.Deduplicated;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventOutcome.Replayed;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.api.RetryPolicy;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A runnable tour of the reference kernel with four demo definitions (none of them a built-in event): it submits
 * real batches and prints the ordered results and the continuation decision of each.
 *
 * <p>Run with {@code mvn -B -q compile exec:java} in {@code examples/demos}, after {@code mvn -B -q install -DskipTests}.
 */
public final class KernelDemo {

    private KernelDemo() {
    }

    /** Runs the tour and prints to standard output. */
    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the tour, printing to {@code out}. */
    public static void run(PrintStream out) {
        AtomicInteger weatherCalls = new AtomicInteger();
        try (ReferenceKernel kernel = ReferenceKernel.builder()
                .register(lamp(), note(), weather(weatherCalls), exit())
                .build()) {
            TurnContext turn1 = turn("t1", "turn the lamp on, note buy milk, how is the weather? bye");
            EventBatch batch = EventBatch.builder(turn1, InvocationMode.DUAL_AGENT)
                    .event("demo.lamp.switch")
                    .event("demo.note.create")
                    .event("demo.weather.lookup")
                    .event("demo.lamp.switch")          // an exact duplicate of e1: coalesced
                    .event("demo.teleport.start")       // unknown: rejected, no side effect
                    .event("demo.app.exit")             // terminal: runs after its siblings settled
                    .build();
            print(out, "turn t1 (dual_agent)", kernel.execute(batch));

            print(out, "turn t1 again (a retransmission: replay protection)", kernel.execute(batch));

            TurnContext turn2 = turn("t2", "note call grandma and what's the weather");
            EventBatch second = EventBatch.builder(turn2, InvocationMode.CHAT_AGENT_TOOLS)
                    .event("demo.note.create", Map.of("text", "call grandma"))
                    .event("demo.weather.lookup", Map.of("city", "Hangzhou"))
                    .event("demo.lamp.switch", Map.of("state", "dim"))   // invalid: rejected with the field named
                    .build();
            print(out, "turn t2 (chat_agent_tools)", kernel.execute(second));
            out.println("weather handler calls (one transient failure retried once): " + weatherCalls.get());
        }
    }

    private static TurnContext turn(String turnId, String text) {
        return TurnContext.of(new EventScope("demo-session", turnId), Instant.parse("2026-11-30T08:00:00Z"),
                ZoneId.of("Asia/Shanghai"), Locale.ENGLISH, text);
    }

    private static void print(PrintStream out, String title, BatchResult result) {
        out.println("== " + title);
        out.printf("%-4s %-22s %-20s %-14s %-28s %s%n", "id", "event", "status", "resolution", "arguments", "detail");
        for (EventResult r : result.results()) {
            out.printf("%-4s %-22s %-20s %-14s %-28s %s%n", r.eventId(), r.name(), r.status(),
                    r.resolution().outcome().name().toLowerCase(Locale.ROOT), CanonicalJson.write(r.arguments()),
                    detail(r));
        }
        ContinuationDecision decision = result.decision();
        out.println("decision: " + decision.kind());
        decision.confirmations().forEach(c -> out.println("  confirmation [" + c.eventId() + "]: " + c.text()));
        if (decision instanceof ContinuationDecision.FollowUp followUp) {
            out.println("  follow-up reasons: " + followUp.reasons());
            out.println("  follow-up summary: " + followUp.summary().json());
        }
        out.println();
    }

    private static String detail(EventResult result) {
        return switch (result.status()) {
            case "succeeded" -> "payload " + CanonicalJson.write(((Succeeded) result.outcome()).payload());
            case "rejected" -> ((Rejected) result.outcome()).message();
            case "deduplicated" -> "of " + ((Deduplicated) result.outcome()).primaryEventId();
            case "replayed" -> "original " + ((Replayed) result.outcome()).originalOutcome().status();
            default -> result.outcome().toString();
        };
    }

    static EventDefinition lamp() {
        return EventDefinition.builder("demo.lamp.switch")
                .schemaVersion("1.0.0")
                .description("Switch the desk lamp on or off.")
                .argumentsSchema("""
                        {"type":"object","properties":{"state":{"enum":["on","off"]}},
                         "required":["state"],"additionalProperties":false}""")
                // One lamp request per utterance: naming the words as the source lets the kernel coalesce a
                // repeated proposal instead of asking which of two requests was meant.
                .resolver(input -> (input.turn().userText().contains(" on") ? Resolution.of(Map.of("state", "on"))
                        : input.turn().userText().contains(" off") ? Resolution.of(Map.of("state", "off"))
                        : Resolution.empty()).withSource(input.turn().userText()))
                .handler(invocation -> HandlerResult.success(Map.of("lamp", invocation.arguments().get("state"))))
                .resultPolicy(ResultPolicy.SILENT_SUCCESS)
                .conflictKeys("lamp")
                .build();
    }

    static EventDefinition note() {
        return EventDefinition.builder("demo.note.create")
                .schemaVersion("1.0.0")
                .description("Write down a short note.")
                .argumentsSchema("""
                        {"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]}""")
                .resolver(input -> {
                    String text = input.turn().userText();
                    int at = text.indexOf("note ");
                    if (at < 0) {
                        return Resolution.empty();
                    }
                    String rest = text.substring(at + 5).split(",| and ")[0].trim();
                    return Resolution.of(Map.of("text", rest));
                })
                .handler(invocation -> HandlerResult.success(Map.of("noteId", "n-" + invocation.idempotencyKey()
                        .substring(0, 8))))
                .resultPolicy(ResultPolicy.TEMPLATE_FOLLOW_UP)
                .confirmationTemplate((arguments, payload, locale) -> "Noted: \"" + arguments.get("text") + "\".")
                .build();
    }

    static EventDefinition weather(AtomicInteger calls) {
        return EventDefinition.builder("demo.weather.lookup")
                .schemaVersion("1.0.0")
                .description("Look up today's weather for a city.")
                .argumentsSchema("""
                        {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}""")
                .resolver(input -> Resolution.of(Map.of("city", "Shanghai")))
                .handler(invocation -> calls.incrementAndGet() % 2 == 1
                        ? HandlerResult.transientFailure("upstream_busy", "weather service answered 503")
                        : HandlerResult.success(Map.of("city", invocation.arguments().get("city"),
                                "forecast", "sunny", "high_c", 21)))
                .resultPolicy(ResultPolicy.LLM_FOLLOW_UP)
                .concurrencyClass(ConcurrencyClass.READ_ONLY)
                .retryPolicy(RetryPolicy.onceOnTransientFailure())
                .timeout(Duration.ofSeconds(2))
                .build();
    }

    static EventDefinition exit() {
        return EventDefinition.builder("demo.app.exit")
                .schemaVersion("1.0.0")
                .description("Close the demo app.")
                .argumentsSchema("{\"type\":\"object\"}")
                .handler(invocation -> HandlerResult.success(Map.of("closed", true)))
                .resultPolicy(ResultPolicy.TERMINATE)
                .terminal(true)
                .build();
    }
}
