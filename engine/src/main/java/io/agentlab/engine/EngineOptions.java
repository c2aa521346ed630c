package io.agentlab.engine;

import static io.agentlab.engine.Constants.AGUI_PROFILE;
import static io.agentlab.engine.Constants.AUDIT_DIRECTORY;
import static io.agentlab.engine.Constants.CONTROL_RUNS;
import static io.agentlab.engine.Constants.DEFAULT_SEED;
import static io.agentlab.engine.Constants.EVALUATE;
import static io.agentlab.engine.Constants.KERNEL_FACTORY;
import static io.agentlab.engine.Constants.LIVE_API_KEY_ENV;
import static io.agentlab.engine.Constants.LIVE_BACKOFF;
import static io.agentlab.engine.Constants.LIVE_BASE_URL;
import static io.agentlab.engine.Constants.LIVE_CALL_TIMEOUT;
import static io.agentlab.engine.Constants.LIVE_EVENT_AGENT_MODEL;
import static io.agentlab.engine.Constants.LIVE_MAX_BACKOFF;
import static io.agentlab.engine.Constants.LIVE_MAX_CONCURRENT_REQUESTS;
import static io.agentlab.engine.Constants.LIVE_MAX_RETRIES;
import static io.agentlab.engine.Constants.LIVE_MAX_TOKENS;
import static io.agentlab.engine.Constants.LIVE_MODEL;
import static io.agentlab.engine.Constants.LIVE_READ_TIMEOUT;
import static io.agentlab.engine.Constants.LIVE_RECORD_DIRECTORY;
import static io.agentlab.engine.Constants.LIVE_RECORD_FAMILY;
import static io.agentlab.engine.Constants.LIVE_SEED;
import static io.agentlab.engine.Constants.LIVE_SPENDING_CAP;
import static io.agentlab.engine.Constants.LIVE_TEMPERATURE;
import static io.agentlab.engine.Constants.MODES;
import static io.agentlab.engine.Constants.NAMING_STRATEGY;
import static io.agentlab.engine.Constants.PARALLEL;
import static io.agentlab.engine.Constants.PREVIOUS_METRICS;
import static io.agentlab.engine.Constants.PRICING_FILE;
import static io.agentlab.engine.Constants.PROVIDER;
import static io.agentlab.engine.Constants.RECORDINGS_CLASSPATH;
import static io.agentlab.engine.Constants.RECORDING_DIRECTORIES;
import static io.agentlab.engine.Constants.REPETITIONS;
import static io.agentlab.engine.Constants.REPLAY_DIRECTORY;
import static io.agentlab.engine.Constants.REPLAY_SPEED;
import static io.agentlab.engine.Constants.REPORT_DIRECTORY;
import static io.agentlab.engine.Constants.RUNTIME_AGUI_PATH;
import static io.agentlab.engine.Constants.RUNTIME_COMMAND;
import static io.agentlab.engine.Constants.RUNTIME_DIRECTORY;
import static io.agentlab.engine.Constants.RUNTIME_PORTS_PORT;
import static io.agentlab.engine.Constants.RUNTIME_PROVIDER_PORT;
import static io.agentlab.engine.Constants.RUNTIME_READY_TIMEOUT;
import static io.agentlab.engine.Constants.RUNTIME_TURN_TIMEOUT;
import static io.agentlab.engine.Constants.RUNTIME_URL;
import static io.agentlab.engine.Constants.SEED;
import static io.agentlab.engine.Constants.SUITE_DIRECTORIES;

import io.agentlab.engine.internal.execution.LiveCalls;
import io.agentlab.engine.internal.wire.RuntimeProcess;
import io.agentlab.engine.internal.yaml.Durations;
import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.agui.AguiProfile;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import io.agentlab.runtime.usage.PricingCatalog;
import io.agentlab.providers.recorded.ProviderFamily;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * The engine's settings, read on demand from the configuration parameters by the keys of {@link Constants}
 * (docs/configuration.md#keys). Package-private, as Cucumber's engine options are: a new key is one more method
 * here, and no public constructor or INTERNAL type reaches a user.
 *
 * <p>Each value is parsed when it is asked for, from the parameters with their deprecated aliases
 * ({@link ConfigurationKeys#withAliases}). {@link #read} asks for every one once, at discovery, so a bad value fails
 * fast with a message naming the key, the value and what is accepted; the kernel factory and the pricing catalog are
 * made once and kept, so the run executes with the same ones.
 */
final class EngineOptions {

    /** Where model calls go. */
    enum Provider {
        /** Recordings replayed, scripted turns synthesized and replayed: the default. */
        RECORDED,
        /** Only scripted turns run; cases answered by recordings are skipped, saying why. */
        SYNTHESIZED,
        /** Every call goes to a live OpenAI-compatible provider (smoke runs; needs base URL and key). */
        LIVE
    }

    private final ConfigurationParameters parameters;
    private KernelUnderTestFactory factory;
    private PricingCatalog pricing;

    private EngineOptions(ConfigurationParameters parameters) {
        this.parameters = ConfigurationKeys.withAliases(parameters);
    }

    /**
     * The options of {@code configuration}, every value checked now (in the order the keys were always checked, so
     * the first bad one is the one reported), the kernel factory and the pricing catalog made.
     */
    static EngineOptions read(ConfigurationParameters configuration) {
        EngineOptions options = new EngineOptions(configuration);
        options.modes();
        options.factory();
        options.replaySpeed();
        options.provider();
        options.seed();
        options.pricing();
        options.liveReadTimeout();
        options.liveCallTimeout();
        options.aguiProfile();
        options.liveCalls();
        options.repetitions();
        options.liveRecordFamily();
        options.runtime();
        return options;
    }

    /** The modes cases run in ({@value Constants#MODES}). */
    List<InvocationMode> modes() {
        List<InvocationMode> modes = parameters.get(MODES).map(value -> Arrays.stream(value.split(","))
                .map(String::strip).filter(s -> !s.isEmpty()).map(mode -> parse(MODES, mode,
                        () -> InvocationMode.fromWireName(mode))).distinct().toList())
                .orElse(List.of(InvocationMode.values()));
        if (modes.isEmpty()) {
            throw new IllegalArgumentException(MODES + " names no mode; expected dual_agent, chat_agent_tools or both");
        }
        return modes;
    }

    /** The kernel under test ({@value Constants#KERNEL_FACTORY}), made once. */
    synchronized KernelUnderTestFactory factory() {
        if (factory == null) {
            factory = parameters.get(KERNEL_FACTORY).map(EngineOptions::factory)
                    .orElseGet(ServiceLoaderKernelFactory::new);
        }
        return factory;
    }

    /** An extra directory for the reports ({@value Constants#REPORT_DIRECTORY}). */
    Optional<Path> reportDirectory() {
        return parameters.get(REPORT_DIRECTORY).map(Path::of);
    }

    /** Offsets × speed ({@value Constants#REPLAY_SPEED}; 1.0 faithful, 0 as fast as possible). */
    double replaySpeed() {
        double speed = parameters.get(REPLAY_SPEED).map(value -> parse(REPLAY_SPEED, value,
                () -> Double.parseDouble(value))).orElse(1.0);
        if (speed < 0 || Double.isNaN(speed)) {
            throw new IllegalArgumentException(REPLAY_SPEED + " must be >= 0 (1.0 faithful, 0 as fast as possible), was "
                    + speed);
        }
        return speed;
    }

    /** Where model calls go ({@value Constants#PROVIDER}). */
    Provider provider() {
        return parameters.get(PROVIDER).map(EngineOptions::provider).orElse(Provider.RECORDED);
    }

    /** The live provider's {@code /v1} URL ({@value Constants#LIVE_BASE_URL}). */
    Optional<String> liveBaseUrl() {
        return parameters.get(LIVE_BASE_URL);
    }

    /** The environment variable holding the live key ({@value Constants#LIVE_API_KEY_ENV}). */
    String liveApiKeyEnv() {
        return parameters.get(LIVE_API_KEY_ENV).orElse("AGENTLAB_API_KEY");
    }

    /** The seed of synthesized chunk boundaries ({@value Constants#SEED}). */
    long seed() {
        return parameters.get(SEED).map(value -> parse(SEED, value, () -> Long.parseLong(value.strip())))
                .orElse(DEFAULT_SEED);
    }

    /** Directories searched for a suite named only by a unique id ({@value Constants#SUITE_DIRECTORIES}). */
    List<Path> suiteDirectories() {
        return paths(parameters.get(SUITE_DIRECTORIES));
    }

    /**
     * Whether suites and cases run in parallel ({@value Constants#PARALLEL}); never for a runtime over the wire, which
     * is served one turn at a time (docs/wire.md#one-turn-at-a-time).
     */
    boolean parallel() {
        return parameters.getBoolean(PARALLEL).orElse(false) && runtime().isEmpty();
    }

    /** Whether the subject is a runtime over the wire (docs/wire.md), not the in-process kernel. */
    boolean overTheWire() {
        return parameters.get(RUNTIME_URL).filter(value -> !value.isBlank()).isPresent()
                || parameters.get(RUNTIME_COMMAND).filter(value -> !value.isBlank()).isPresent();
    }

    /**
     * The runtime over the wire the suites judge ({@value Constants#RUNTIME_URL}, {@value Constants#RUNTIME_COMMAND};
     * docs/wire.md#configuration-keys); empty: the in-process kernel of the factory.
     */
    Optional<RuntimeProcess.Settings> runtime() {
        Optional<String> url = parameters.get(RUNTIME_URL).map(String::strip).filter(value -> !value.isEmpty());
        List<String> command = parameters.get(RUNTIME_COMMAND).map(value -> parse(RUNTIME_COMMAND, value,
                () -> RuntimeProcess.split(value))).orElse(List.of());
        if (url.isEmpty() && command.isEmpty()) {
            return Optional.empty();
        }
        url.ifPresent(value -> {
            // loopback only: the kit, its replay and stand-ins and the runtime are one machine's (docs/wire.md#roles)
            String host;
            try {
                host = java.net.URI.create(value.replace("{port}", "1")).getHost();
            } catch (IllegalArgumentException e) {
                host = null;
            }
            if (!value.startsWith("http://") && !value.startsWith("https://") || host == null
                    || !List.of("127.0.0.1", "localhost", "[::1]").contains(host.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(RUNTIME_URL + " must be an http:// or https:// URL on loopback "
                        + "(127.0.0.1, localhost or [::1]), was '" + value + "'");
            }
        });
        if (provider() == Provider.LIVE) {
            throw new IllegalArgumentException(RUNTIME_URL + "/" + RUNTIME_COMMAND + " judge a runtime against the "
                    + "kit's replay; " + PROVIDER + "=live cannot serve it");
        }
        String path = parameters.get(RUNTIME_AGUI_PATH).orElse("/agui");
        // with no report folder, one log per process: two runs at once must not write one file (docs/wire.md#start-up)
        Path log = reportDirectory().map(folder -> folder.resolve("runtime.log")).orElseGet(() -> Path.of(
                System.getProperty("java.io.tmpdir"), "agentlab-runtime-" + ProcessHandle.current().pid() + ".log"));
        return Optional.of(new RuntimeProcess.Settings(url, command, parameters.get(RUNTIME_DIRECTORY).map(Path::of),
                path.startsWith("/") ? path : "/" + path,
                positiveDuration(RUNTIME_READY_TIMEOUT, Duration.ofSeconds(30)),
                positiveDuration(RUNTIME_TURN_TIMEOUT, Duration.ofSeconds(30)), log,
                parameters.get(RUNTIME_PROVIDER_PORT).map(value -> bounded(RUNTIME_PROVIDER_PORT, value, 1, 65535))
                        .orElse(0),
                parameters.get(RUNTIME_PORTS_PORT).map(value -> bounded(RUNTIME_PORTS_PORT, value, 1, 65535))
                        .orElse(0)));
    }

    /** Prices for cost estimates ({@value Constants#PRICING_FILE}; empty: costs unknown), read once. */
    synchronized PricingCatalog pricing() {
        if (pricing == null) {
            pricing = parameters.get(PRICING_FILE).map(EngineOptions::pricing).orElseGet(PricingCatalog::empty);
        }
        return pricing;
    }

    /** Whether the report runs the control turns ({@value Constants#CONTROL_RUNS}). */
    boolean controlRuns() {
        return parameters.getBoolean(CONTROL_RUNS).orElse(true);
    }

    /** The longest silence inside a live stream ({@value Constants#LIVE_READ_TIMEOUT}). */
    Duration liveReadTimeout() {
        return positiveDuration(LIVE_READ_TIMEOUT, Duration.ofSeconds(60));
    }

    /** The longest a whole live call may take ({@value Constants#LIVE_CALL_TIMEOUT}). */
    Duration liveCallTimeout() {
        return positiveDuration(LIVE_CALL_TIMEOUT, OpenAiCompatibleClient.DEFAULT_CALL_TIMEOUT);
    }

    /** A previous run's {@code metrics.json} the report compares with ({@value Constants#PREVIOUS_METRICS}). */
    Optional<Path> previousMetrics() {
        return parameters.get(PREVIOUS_METRICS).map(value -> Path.of(value.strip()));
    }

    /** The AG-UI wire shape of the audit streams ({@value Constants#AGUI_PROFILE}). */
    AguiProfile aguiProfile() {
        return parameters.get(AGUI_PROFILE).map(value -> parse(AGUI_PROFILE, value, () -> AguiProfile.fromId(value)))
                .orElse(AguiProfile.AGUI_1_0);
    }

    /** A directory receiving every case's audit streams as SSE files ({@value Constants#AUDIT_DIRECTORY}). */
    Optional<Path> auditDirectory() {
        return parameters.get(AUDIT_DIRECTORY).map(String::strip).filter(v -> !v.isEmpty()).map(Path::of);
    }

    /** Models, sampling, concurrency, retries and spending cap of a live run ({@code agentlab.provider.live.*}). */
    LiveCalls.Settings liveCalls() {
        LiveCalls.Settings defaults = LiveCalls.Settings.defaults();
        Optional<Integer> maxTokens = parameters.get(LIVE_MAX_TOKENS).map(value -> bounded(LIVE_MAX_TOKENS, value,
                1, Integer.MAX_VALUE));
        Optional<Double> temperature = parameters.get(LIVE_TEMPERATURE).map(value -> {
            double t = parse(LIVE_TEMPERATURE, value, () -> Double.parseDouble(value.strip()));
            if (!(t >= 0 && t <= 2)) {
                throw new IllegalArgumentException(LIVE_TEMPERATURE + ": cannot use '" + value
                        + "': expected a number from 0 to 2");
            }
            return t;
        });
        Optional<BigDecimal> cap = parameters.get(LIVE_SPENDING_CAP).map(value -> {
            BigDecimal amount = parse(LIVE_SPENDING_CAP, value, () -> new BigDecimal(value.strip()));
            if (amount.signum() <= 0) {
                throw new IllegalArgumentException(LIVE_SPENDING_CAP + ": cannot use '" + value
                        + "': expected a positive amount in USD, such as 2.50");
            }
            return amount;
        });
        return new LiveCalls.Settings(text(LIVE_MODEL), text(LIVE_EVENT_AGENT_MODEL), maxTokens, temperature,
                parameters.get(LIVE_SEED).map(value -> parse(LIVE_SEED, value, () -> Long.parseLong(value.strip()))),
                parameters.get(LIVE_MAX_CONCURRENT_REQUESTS).map(value -> bounded(LIVE_MAX_CONCURRENT_REQUESTS, value,
                        1, 256)).orElse(defaults.maxConcurrentRequests()),
                parameters.get(LIVE_MAX_RETRIES).map(value -> bounded(LIVE_MAX_RETRIES, value, 0, 10))
                        .orElse(defaults.maxRetries()),
                parameters.get(LIVE_BACKOFF).map(value -> parse(LIVE_BACKOFF, value, () -> Durations.parse(value)))
                        .orElse(defaults.backoff()),
                positiveDuration(LIVE_MAX_BACKOFF, defaults.maxBackoff()), cap);
    }

    /** Whether expectations are labels the model is scored against ({@value Constants#EVALUATE}). */
    boolean evaluate() {
        return parameters.getBoolean(EVALUATE).orElse(false);
    }

    /** How often each case runs in each mode when evaluating ({@value Constants#REPETITIONS}). */
    int repetitions() {
        return parameters.get(REPETITIONS).map(value -> bounded(REPETITIONS, value, 1, 1000)).orElse(1);
    }

    /** Where a live run keeps every exchange as a redacted recording ({@value Constants#LIVE_RECORD_DIRECTORY}). */
    Optional<Path> liveRecordDirectory() {
        return text(LIVE_RECORD_DIRECTORY).map(Path::of);
    }

    /** The provider family those recordings are held to ({@value Constants#LIVE_RECORD_FAMILY}). */
    String liveRecordFamily() {
        return text(LIVE_RECORD_FAMILY).map(value -> parse(LIVE_RECORD_FAMILY, value,
                () -> ProviderFamily.fromWireName(value).wireName())).orElse("openai");
    }

    /** A live run's recordings that answer every turn, in recorded order ({@value Constants#REPLAY_DIRECTORY}). */
    Optional<Path> replayDirectory() {
        return text(REPLAY_DIRECTORY).map(Path::of);
    }

    /** How mode and parity tests are named ({@value Constants#NAMING_STRATEGY}). */
    Naming naming() {
        return parameters.get(NAMING_STRATEGY).map(Naming::parse).orElse(Naming.AUTO);
    }

    /** The live provider's connection settings, when {@code agentlab.provider=live}. */
    Optional<OpenAiCompatibleClient.Config> live() {
        if (provider() != Provider.LIVE) {
            return Optional.empty();
        }
        String baseUrl = liveBaseUrl().orElseThrow(() -> new IllegalStateException(PROVIDER + "=live needs "
                + LIVE_BASE_URL));
        return Optional.of(new OpenAiCompatibleClient.Config(baseUrl, liveApiKeyEnv(), Duration.ofSeconds(10),
                liveReadTimeout(), liveCallTimeout(), OpenAiCompatibleClient.DEFAULT_FINISH_GRACE));
    }

    /** The recording library these settings describe. */
    RecordingLibrary recordings() {
        return new RecordingLibrary(paths(parameters.get(RECORDING_DIRECTORIES)),
                parameters.get(RECORDINGS_CLASSPATH).orElse("recordings"),
                Thread.currentThread().getContextClassLoader());
    }

    private Optional<String> text(String key) {
        return parameters.get(key).map(String::strip).filter(value -> !value.isEmpty());
    }

    private Duration positiveDuration(String key, Duration fallback) {
        Duration value = parameters.get(key).map(text -> parse(key, text, () -> Durations.parse(text)))
                .orElse(fallback);
        if (value.isZero()) {
            throw new IllegalArgumentException(key + " must be positive, was " + value);
        }
        return value;
    }

    private static int bounded(String key, String value, int min, int max) {
        int number = parse(key, value, () -> Integer.parseInt(value.strip()));
        if (number < min || number > max) {
            throw new IllegalArgumentException(key + ": cannot use '" + value + "': expected a whole number from "
                    + min + (max == Integer.MAX_VALUE ? " up" : " to " + max));
        }
        return number;
    }

    private static List<Path> paths(Optional<String> value) {
        return value.map(v -> Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(Path::of).toList()).orElse(List.of());
    }

    private static KernelUnderTestFactory factory(String className) {
        try {
            Class<?> type = Class.forName(className.strip(), true, Thread.currentThread().getContextClassLoader());
            if (!KernelUnderTestFactory.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException(KERNEL_FACTORY + ": " + className + " does not implement "
                        + KernelUnderTestFactory.class.getName());
            }
            return (KernelUnderTestFactory) type.getConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(KERNEL_FACTORY + ": class " + className + " is not on the test classpath", e);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new IllegalArgumentException(KERNEL_FACTORY + ": " + className
                    + " needs a public no-argument constructor", e);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(KERNEL_FACTORY + ": the constructor of " + className + " threw "
                    + e.getCause(), e.getCause());
        }
    }

    private static PricingCatalog pricing(String file) {
        try {
            return PricingCatalog.load(Path.of(file.strip()));
        } catch (IOException e) {
            throw new IllegalArgumentException(PRICING_FILE + ": cannot read '" + file + "': " + e, e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PRICING_FILE + ": " + e.getMessage(), e);
        }
    }

    private static Provider provider(String value) {
        for (Provider provider : Provider.values()) {
            if (provider.name().equalsIgnoreCase(value.strip())) {
                return provider;
            }
        }
        throw new IllegalArgumentException(PROVIDER + ": cannot use '" + value
                + "'; expected recorded, synthesized or live");
    }

    private static <T> T parse(String key, String value, Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": cannot use '" + value + "': " + e.getMessage(), e);
        }
    }
}
