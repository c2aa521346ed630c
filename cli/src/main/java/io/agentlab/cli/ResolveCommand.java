package io.agentlab.cli;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventRequest;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionInput;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.runner.UsageException;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code agentlab resolve}: what a plugin's deterministic resolver makes of an utterance. */
@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = "Show what an event's deterministic resolver makes of an utterance.")
final class ResolveCommand implements Callable<Integer> {

    /**
     * Made when resolve runs: every command line builds this command, and a mapper costs start-up
     * (docs/performance.md#start-up).
     */
    private static final class Mapper {
        static final JsonMapper JSON = JsonMapper.builder().build();
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--event", required = true, description = "The event, e.g. device.volume.adjust.")
    String event;

    @Option(names = "--timezone", description = "The session's IANA zone; default UTC.")
    String timezone = "UTC";

    @Option(names = "--now", description = "The request time, ISO-8601 with offset; default now.")
    String now;

    @Option(names = "--locale", description = "The session locale; default en.")
    String locale = "en";

    @Option(names = "--json", description = "Print one JSON object instead of the text lines.")
    boolean json;

    @Parameters(paramLabel = "UTTERANCE", arity = "1..*", description = "The user's words.")
    List<String> words;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        EventDefinition definition = null;
        StringBuilder known = new StringBuilder();
        for (EventPlugin plugin : ServiceLoader.load(EventPlugin.class)) {
            known.append(known.isEmpty() ? "" : ", ").append(plugin.definition().name());
            if (plugin.definition().name().equals(event)) {
                definition = plugin.definition();
            }
        }
        if (definition == null) {
            throw new UsageException("no event named '" + event + "'; the plugins on the classpath offer: " + known);
        }
        Instant at;
        try {
            at = now == null ? Instant.now() : OffsetDateTime.parse(now).toInstant();
        } catch (DateTimeParseException e) {
            throw new UsageException("--now: expected a date and time with its offset, e.g. 2026-12-01T08:00+08:00, "
                    + "got '" + Values.oneLine(now) + "'", e);
        }
        String utterance = String.join(" ", words);
        EventScope scope = new EventScope("cli", "resolve");
        TurnContext turn = TurnContext.of(scope, at, ZoneId.of(timezone), Locale.forLanguageTag(locale), utterance);
        Resolution resolution = definition.resolver().resolve(new ResolutionInput(new EventRequest("e1", event,
                Map.of(), InvocationMode.DUAL_AGENT, 0, scope, at), turn));
        List<String> missing = missing(definition, resolution.arguments());
        if (json) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("event", event);
            document.put("utterance", utterance);
            document.put("arguments", resolution.arguments());
            document.put("missing", missing);
            document.put("clarification", resolution.clarification().orElse(null));
            document.put("source", resolution.source().orElse(null));
            out.println(Mapper.JSON.writeValueAsString(document));
        } else {
            out.println("event:         " + event);
            out.println("utterance:     " + utterance);
            out.println("arguments:     " + CanonicalJson.write(resolution.arguments()));
            out.println("missing:       " + (missing.isEmpty() ? "none" : String.join(", ", missing)));
            resolution.clarification().ifPresent(question -> out.println("clarification: " + question));
        }
        out.flush();
        return 0;
    }

    /**
     * The required fields the resolution lacks: the definition's required fields and the arguments schema's top-level
     * {@code required} list, sorted.
     */
    static List<String> missing(EventDefinition definition, Map<String, Object> arguments) {
        Set<String> required = new TreeSet<>(definition.requiredFields());
        JsonNode schemaRequired = Mapper.JSON.readTree(definition.argumentsSchema()).get("required");
        if (schemaRequired != null) {
            schemaRequired.forEach(field -> required.add(field.asString()));
        }
        required.removeAll(arguments.keySet());
        return List.copyOf(required);
    }
}
