package io.agentlab.runtime;

import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.HandlerResult;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResultPolicy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** Test events for the runtime (the built-in plugins live in another module; the kernel must not know them). */
final class TestEvents {

    final List<String> sideEffects = new CopyOnWriteArrayList<>();
    final AtomicBoolean lampBroken = new AtomicBoolean();

    List<EventDefinition> all() {
        return List.of(lamp(), color(), note(), lookup(), close());
    }

    EventDefinition lamp() {
        return EventDefinition.builder("lamp.power.toggle").schemaVersion("1.0.0")
                .description("Switch the lamp on or off.")
                .argumentsSchema("{\"type\":\"object\",\"properties\":{\"state\":{\"enum\":[\"on\",\"off\"]}},"
                        + "\"required\":[\"state\"],\"additionalProperties\":false}")
                .resolver(input -> input.turn().userText().contains(" off") ? Resolution.of(Map.of("state", "off"))
                        : input.turn().userText().contains(" on") ? Resolution.of(Map.of("state", "on"))
                        : Resolution.empty())
                .handler(invocation -> {
                    if (lampBroken.get()) {
                        return HandlerResult.failure("lamp_offline", "the lamp does not answer");
                    }
                    sideEffects.add("lamp " + invocation.arguments().get("state"));
                    return HandlerResult.success(Map.of("state", invocation.arguments().get("state")));
                })
                .resultPolicy(ResultPolicy.SILENT_SUCCESS).build();
    }

    EventDefinition color() {
        return EventDefinition.builder("lamp.color.set").schemaVersion("1.0.0")
                .description("Set the lamp color.")
                .argumentsSchema("{\"type\":\"object\",\"properties\":{\"color\":{\"type\":\"string\"}},"
                        + "\"required\":[\"color\"]}")
                .fallbackAllowed(true)
                .handler(invocation -> {
                    sideEffects.add("color " + invocation.arguments().get("color"));
                    return HandlerResult.success(Map.of());
                })
                .resultPolicy(ResultPolicy.SILENT_SUCCESS).build();
    }

    EventDefinition note() {
        return EventDefinition.builder("note.text.create").schemaVersion("1.0.0")
                .description("Write down a note.")
                .argumentsSchema("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
                        + "\"required\":[\"text\"]}")
                .resolver(input -> {
                    String text = input.turn().userText();
                    int at = text.indexOf("note ");
                    return at < 0 ? Resolution.empty()
                            : Resolution.of(Map.of("text", text.substring(at + 5).split(" and ")[0].trim()));
                })
                .handler(invocation -> {
                    sideEffects.add("note " + invocation.arguments().get("text"));
                    return HandlerResult.success(Map.of("id", "n1"));
                })
                .resultPolicy(ResultPolicy.TEMPLATE_FOLLOW_UP)
                .confirmationTemplate((arguments, payload, locale) -> "Noted: " + arguments.get("text") + ".")
                .build();
    }

    EventDefinition lookup() {
        return EventDefinition.builder("info.web.lookup").schemaVersion("1.0.0")
                .description("Look something up on the web.")
                .argumentsSchema("{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}},"
                        + "\"required\":[\"query\"]}")
                .resolver(input -> Resolution.of(Map.of("query", input.turn().userText())))
                .handler(invocation -> HandlerResult.success(Map.of("answer", "sunny, 21 degrees",
                        "source", "https://weather.example/today")))
                .resultPolicy(ResultPolicy.LLM_FOLLOW_UP)
                .concurrencyClass(ConcurrencyClass.READ_ONLY).build();
    }

    EventDefinition close() {
        return EventDefinition.builder("app.session.close").schemaVersion("1.0.0")
                .description("End the conversation.")
                .argumentsSchema("{\"type\":\"object\"}")
                .handler(invocation -> {
                    sideEffects.add("close");
                    return HandlerResult.success(Map.of());
                })
                .resultPolicy(ResultPolicy.TERMINATE).terminal(true).build();
    }
}
