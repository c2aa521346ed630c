package io.agentlab.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.SuiteSchema;
import io.agentlab.engine.internal.yaml.YamlReader;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.providers.recorded.TimedReplay;
import io.agentlab.tokens.PromptTokens;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.stream.XMLOutputFactory;
import org.apiguardian.api.API;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.engine.support.store.NamespacedHierarchicalStore;

/**
 * What a run needs before its first case, started by a client that knows the run will execute — the runner behind
 * {@code agentlab run} and the Maven goal — on other threads while the Launcher discovers the suites, and handed to
 * the engine through the launcher session's store (docs/performance.md#start-up): the replay server, the token
 * ranks, the HTTP client's pool and TLS set-up, and the XML writers JUnit's reporting listeners open. An engine run
 * without one (an IDE, Surefire) starts the replay server itself, as before; discovery alone starts nothing.
 */
@API(status = INTERNAL, since = "0.2")
public final class RunPreparation implements AutoCloseable {

    /** The store namespace the preparation is kept under. */
    public static final Namespace NAMESPACE = Namespace.create("agentlab", "preparation");
    /** Its key. */
    public static final String KEY = "run";

    private final double speed;
    private final Optional<CompletableFuture<TimedReplay>> replay;
    private final AtomicBoolean claimed = new AtomicBoolean();

    private RunPreparation(double speed, Optional<CompletableFuture<TimedReplay>> replay) {
        this.speed = speed;
        this.replay = replay;
    }

    /**
     * Starts what a run of {@code configuration} will need, each on a daemon thread: nothing waits for it here.
     *
     * @param configuration the run's {@code agentlab.*} configuration parameters
     */
    public static RunPreparation start(Map<String, String> configuration) {
        PromptTokens.loadInBackground();
        InBackground.start("agentlab-warm-up", () -> {
            // class initialisation only: the first case and the reporting listeners find it done
            new OpenAiCompatibleClient(OpenAiCompatibleClient.Config.of("http://127.0.0.1/v1"));
            XMLOutputFactory.newFactory();
            try {
                DocumentBuilderFactory.newInstance().newDocumentBuilder();
            } catch (ParserConfigurationException e) {
                // nothing to warm: the listener that needs one reports it
            }
            return null;
        });
        double speed = speed(configuration);
        boolean recorded = !"live".equalsIgnoreCase(configuration.getOrDefault(Constants.PROVIDER, "recorded").strip());
        return new RunPreparation(speed, recorded && !Double.isNaN(speed)
                ? Optional.of(InBackground.start("agentlab-replay-start", () -> TimedReplay.start(List.of(), speed)))
                : Optional.empty());
    }

    /**
     * Starts initialising, on a daemon thread, the classes every run's discovery needs first — the configuration keys'
     * metadata, the YAML reader and the suite schema (Jackson, SnakeYAML, networknt) — for a command line that knows,
     * from its first argument, that it will discover suites: they are then ready, or half-way, when its main thread
     * gets there (docs/performance.md#start-up).
     */
    public static void warmDiscovery() {
        InBackground.start("agentlab-warm-discovery", () -> {
            ConfigurationKeys.known();
            SuiteSchema.text(); // its class initialisation compiles the schema
            try {
                Class.forName(YamlReader.class.getName(), true, RunPreparation.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                // the engine's own class: present
            }
            return null;
        });
    }

    /** Puts this preparation where the engine of the session's launches looks for it. */
    public void offerTo(NamespacedHierarchicalStore<Namespace> sessionStore) {
        sessionStore.put(NAMESPACE, KEY, this);
    }

    /** The preparation a client offered the run of {@code request}, if one did. */
    static Optional<RunPreparation> of(ExecutionRequest request) {
        return Optional.ofNullable(request.getStore().get(NAMESPACE, KEY, RunPreparation.class));
    }

    /**
     * The replay server started for a run at {@code runSpeed}, once: a second launch of the session, or a run at
     * another speed than the configuration said, starts its own.
     */
    Optional<TimedReplay> replay(double runSpeed) {
        if (replay.isEmpty() || runSpeed != speed || !claimed.compareAndSet(false, true)) {
            return Optional.empty();
        }
        try {
            return Optional.of(InBackground.join(replay.get()));
        } catch (RuntimeException e) {
            return Optional.empty(); // the engine starts one itself and reports what goes wrong then
        }
    }

    /** Stops the replay server if no run claimed it (the session is closing). */
    @Override
    public void close() {
        if (replay.isPresent() && claimed.compareAndSet(false, true)) {
            replay.get().thenAccept(TimedReplay::close);
        }
    }

    /** The configured replay speed; NaN when it is not a number (the engine reports that). */
    private static double speed(Map<String, String> configuration) {
        try {
            return Double.parseDouble(configuration.getOrDefault(Constants.REPLAY_SPEED, "1.0").strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
