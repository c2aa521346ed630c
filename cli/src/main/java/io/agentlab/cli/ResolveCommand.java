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
import java.io.PrintWriter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code agentlab resolve}: what a plugin's deterministic resolver makes of an utterance. */
@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = "Show what an event's deterministic resolver makes of an utterance.")
final class ResolveCommand implements Callable<Integer> {

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

    @Parameters(paramLabel = "UTTERANCE", arity = "1..*", description = "The user's words.")
    List<String> words;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EventDefinition definition = null;
        StringBuilder known = new StringBuilder();
        for (EventPlugin plugin : ServiceLoader.load(EventPlugin.class)) {
            known.append(known.isEmpty() ? "" : ", ").append(plugin.definition().name());
            if (plugin.definition().name().equals(event)) {
                definition = plugin.definition();
            }
        }
        if (definition == null) {
            err.println("no event named '" + event + "'; the plugins on the classpath offer: " + known);
            return 2;
        }
        Instant at = now == null ? Instant.now() : OffsetDateTime.parse(now).toInstant();
        String utterance = String.join(" ", words);
        EventScope scope = new EventScope("cli", "resolve");
        TurnContext turn = TurnContext.of(scope, at, ZoneId.of(timezone), Locale.forLanguageTag(locale), utterance);
        Resolution resolution = definition.resolver().resolve(new ResolutionInput(new EventRequest("e1", event,
                Map.of(), InvocationMode.DUAL_AGENT, 0, scope, at), turn));
        out.println("event:         " + event);
        out.println("utterance:     " + utterance);
        out.println("arguments:     " + CanonicalJson.write(resolution.arguments()));
        List<String> missing = definition.requiredFields().stream()
                .filter(field -> !resolution.arguments().containsKey(field)).sorted().toList();
        out.println("missing:       " + (missing.isEmpty() ? "none" : String.join(", ", missing)));
        resolution.clarification().ifPresent(question -> out.println("clarification: " + question));
        out.flush();
        return 0;
    }
}
