package io.agentlab.engine;

import io.agentlab.engine.execution.CaseRunner;
import io.agentlab.kernel.runtime.llm.OpenAiCompatibleClient;
import io.agentlab.providers.recorded.TimedReplay;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * The engine's root: starts the shared replay server before any suite runs, and afterwards writes
 * {@code metrics.json} through the request's output directory creator and publishes it as a file entry.
 */
final class ConformanceEngineDescriptor extends EngineDescriptor implements Node<ConformanceContext> {

    /** The report file's name. */
    static final String METRICS_FILE = "metrics.json";

    private TimedReplay replay;

    ConformanceEngineDescriptor(UniqueId uniqueId) {
        super(uniqueId, "Agent Lab conformance");
    }

    @Override
    public ConformanceContext before(ConformanceContext context) {
        ConformanceSettings settings = context.settings();
        Optional<OpenAiCompatibleClient.Config> live = Optional.empty();
        if (settings.provider() == ConformanceSettings.Provider.LIVE) {
            String baseUrl = settings.liveBaseUrl().orElseThrow(() -> new IllegalStateException(
                    ConformanceSettings.PROVIDER + "=live needs " + ConformanceSettings.LIVE_BASE_URL));
            live = Optional.of(new OpenAiCompatibleClient.Config(baseUrl, settings.liveApiKeyEnv(),
                    Duration.ofSeconds(10), Duration.ofSeconds(60)));
        } else {
            replay = TimedReplay.start(List.of(), settings.replaySpeed());
        }
        BooleanSupplier cancelled = () -> context.request().getCancellationToken().isCancellationRequested();
        return context.withRunner(new CaseRunner(new CaseRunner.Environment(settings.factory(), replay,
                settings.recordings(), settings.seed(), cancelled, live, settings.pricing())));
    }

    @Override
    public void after(ConformanceContext context) throws IOException {
        try {
            if (context.metrics().records().isEmpty()) {
                return;
            }
            String json = context.metrics().toJson();
            Path directory = context.request().getOutputDirectoryCreator().createOutputDirectory(this);
            Path file = Files.writeString(directory.resolve(METRICS_FILE), json, StandardCharsets.UTF_8);
            context.request().getEngineExecutionListener().fileEntryPublished(this,
                    FileEntry.from(file, "application/json"));
            if (context.settings().reportDirectory().isPresent()) {
                Path extra = Files.createDirectories(context.settings().reportDirectory().get());
                Files.writeString(extra.resolve(METRICS_FILE), json, StandardCharsets.UTF_8);
            }
        } finally {
            if (replay != null) {
                replay.close();
            }
        }
    }
}
