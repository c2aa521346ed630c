package io.agentlab.engine;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.engine.internal.execution.LiveCalls;
import io.agentlab.engine.internal.suite.RecordingLibrary;
import io.agentlab.engine.internal.yaml.Durations;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.runtime.audit.AguiProfile;
import io.agentlab.kernel.runtime.llm.OpenAiCompatibleClient;
import io.agentlab.kernel.runtime.usage.PricingCatalog;
import io.agentlab.providers.recorded.ProviderFamily;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * The engine's configuration parameters, all under {@code agentlab.*} (reference: {@code docs/configuration.md};
 * IDE metadata: {@code META-INF/junit-platform-configuration-metadata.json}). A bad value fails fast with a message
 * naming the key, the value and what is accepted.
 *
 * @param modes                the modes cases run in ({@code agentlab.modes})
 * @param factory              the kernel under test ({@code agentlab.kernel.factory})
 * @param reportDirectory      an extra directory for the reports ({@code agentlab.report.directory})
 * @param replaySpeed          offsets × speed ({@code agentlab.replay.speed}; 1.0 faithful, 0 as fast as possible)
 * @param provider             where model calls go ({@code agentlab.provider})
 * @param liveBaseUrl          the live provider's {@code /v1} URL ({@code agentlab.provider.live.base-url})
 * @param liveApiKeyEnv        the environment variable holding its key ({@code agentlab.provider.live.api-key-env})
 * @param seed                 the seed of synthesized chunk boundaries ({@code agentlab.seed})
 * @param recordingDirectories directories searched for recordings ({@code agentlab.recordings.directories})
 * @param recordingsClasspath  the classpath folder of recordings ({@code agentlab.recordings.classpath})
 * @param suiteDirectories     directories searched when only a unique id names a suite ({@code agentlab.suites.directories})
 * @param parallel             whether suites and cases run in parallel ({@code agentlab.execution.parallel.enabled})
 * @param pricing              prices for cost estimates ({@code agentlab.pricing.file}; empty: costs unknown)
 * @param controlRuns          whether the report runs the all-disabled/all-enabled control turns
 *                             ({@code agentlab.report.control})
 * @param liveReadTimeout      the longest silence inside a live stream ({@code agentlab.provider.live.read-timeout})
 * @param liveCallTimeout      the longest a whole live call may take ({@code agentlab.provider.live.call-timeout})
 * @param previousMetrics      a previous run's {@code metrics.json} the report compares with
 *                             ({@code agentlab.report.previous}; default the report directory's own, if any)
 * @param aguiProfile          the AG-UI wire shape of the audit streams and the rules they are checked against
 *                             ({@code agentlab.agui.profile})
 * @param auditDirectory       a directory receiving every case's audit streams as SSE files
 *                             ({@code agentlab.audit.directory})
 * @param liveCalls            models, sampling, concurrency, retries and spending cap of a live run
 *                             ({@code agentlab.provider.live.*})
 * @param evaluate             whether expectations are labels the model is scored against, and only the kernel's
 *                             guarantees fail a case ({@code agentlab.evaluate})
 * @param repetitions          how often each case runs in each mode when evaluating ({@code agentlab.evaluate.repetitions})
 * @param liveRecordDirectory  where a live run keeps every exchange as a redacted recording
 *                             ({@code agentlab.provider.live.record-directory})
 * @param liveRecordFamily     the provider family those recordings are held to
 *                             ({@code agentlab.provider.live.record-family})
 * @param replayDirectory      a live run's recordings that answer every turn, in the order they were recorded
 *                             ({@code agentlab.recordings.replay-directory})
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ConformanceSettings(List<InvocationMode> modes, KernelUnderTestFactory factory,
                                  Optional<Path> reportDirectory, double replaySpeed, Provider provider,
                                  Optional<String> liveBaseUrl, String liveApiKeyEnv, long seed,
                                  List<Path> recordingDirectories, String recordingsClasspath,
                                  List<Path> suiteDirectories, boolean parallel, PricingCatalog pricing,
                                  boolean controlRuns, Duration liveReadTimeout, Duration liveCallTimeout,
                                  Optional<Path> previousMetrics,
                                  AguiProfile aguiProfile, Optional<Path> auditDirectory,
                                  LiveCalls.Settings liveCalls, boolean evaluate, int repetitions,
                                  Optional<Path> liveRecordDirectory, String liveRecordFamily,
                                  Optional<Path> replayDirectory) {

    /** Comma-separated modes; default both. */
    public static final String MODES = "agentlab.modes";
    /** A {@link KernelUnderTestFactory} class name; default {@link ServiceLoaderKernelFactory}. */
    public static final String KERNEL_FACTORY = "agentlab.kernel.factory";
    /** A directory that also receives {@code metrics.json}, {@code report.md} and {@code index.html}. */
    public static final String REPORT_DIRECTORY = "agentlab.report.directory";
    /** Replay speed factor, {@code >= 0}; default 1.0. */
    public static final String REPLAY_SPEED = "agentlab.replay.speed";
    /** {@code recorded} (default), {@code synthesized} or {@code live}. */
    public static final String PROVIDER = "agentlab.provider";
    /** The live provider's base URL. */
    public static final String LIVE_BASE_URL = "agentlab.provider.live.base-url";
    /** The environment variable with the live provider's key; default {@code AGENTLAB_API_KEY}. */
    public static final String LIVE_API_KEY_ENV = "agentlab.provider.live.api-key-env";
    /** Seed of synthesized chunk boundaries; default {@link #DEFAULT_SEED}. */
    public static final String SEED = "agentlab.seed";
    /** The seed of synthesized chunk boundaries when {@link #SEED} is not set. */
    public static final long DEFAULT_SEED = 42L;
    /** Comma-separated recording directories. */
    public static final String RECORDING_DIRECTORIES = "agentlab.recordings.directories";
    /** The classpath folder of recordings; default {@code recordings}. */
    public static final String RECORDINGS_CLASSPATH = "agentlab.recordings.classpath";
    /** Comma-separated directories to search for a suite named only by a unique id. */
    public static final String SUITE_DIRECTORIES = "agentlab.suites.directories";
    /** Whether to run suites and cases in parallel; default false. */
    public static final String PARALLEL = "agentlab.execution.parallel.enabled";
    /** A previous run's {@code metrics.json} the report shows what moved against; default the report directory's. */
    public static final String PREVIOUS_METRICS = "agentlab.report.previous";
    /** Whether the end-of-run report runs the control turns with all events disabled and all enabled; default true. */
    public static final String CONTROL_RUNS = "agentlab.report.control";
    /** A pricing catalog JSON file ({@code docs/runtime.md}); without one every cost is unknown, never zero. */
    public static final String PRICING_FILE = "agentlab.pricing.file";
    /** The longest silence inside a live stream (idle timeout); default 60s. */
    public static final String LIVE_READ_TIMEOUT = "agentlab.provider.live.read-timeout";
    /** The longest a whole live call may take, first byte to last; default 120s. */
    public static final String LIVE_CALL_TIMEOUT = "agentlab.provider.live.call-timeout";
    /** ChatAgent's model in a live run; default the suite's. */
    public static final String LIVE_MODEL = "agentlab.provider.live.model";
    /** The EventAgent's (cheaper) model in a live run; default ChatAgent's. */
    public static final String LIVE_EVENT_AGENT_MODEL = "agentlab.provider.live.event-agent-model";
    /** ChatAgent's output budget ({@code max_tokens}) in a live run; default 300. */
    public static final String LIVE_MAX_TOKENS = "agentlab.provider.live.max-tokens";
    /** The sampling temperature of ChatAgent's calls in a live run, 0 to 2; default 0.7. */
    public static final String LIVE_TEMPERATURE = "agentlab.provider.live.temperature";
    /** The sampling seed sent with every live call; default none. */
    public static final String LIVE_SEED = "agentlab.provider.live.seed";
    /** The most live requests in flight at once, 1 to 256; default 4. */
    public static final String LIVE_MAX_CONCURRENT_REQUESTS = "agentlab.provider.live.max-concurrent-requests";
    /** How often a request the provider refused (429, 503) is sent again, 0 to 10; default 2. */
    public static final String LIVE_MAX_RETRIES = "agentlab.provider.live.max-retries";
    /** The first wait before a retry when the provider sends no {@code Retry-After}, doubled each time; default 1s. */
    public static final String LIVE_BACKOFF = "agentlab.provider.live.backoff";
    /** The longest wait before a retry the run accepts; default 60s. */
    public static final String LIVE_MAX_BACKOFF = "agentlab.provider.live.max-backoff";
    /** The estimated cost in USD at which a live run stops; default none. */
    public static final String LIVE_SPENDING_CAP = "agentlab.provider.live.spending-cap";
    /** Evaluation mode: expectations become labels, only the kernel's guarantees fail a case; default false. */
    public static final String EVALUATE = "agentlab.evaluate";
    /** How often each case runs in each mode in evaluation mode, 1 to 1000; default 1. */
    public static final String REPETITIONS = "agentlab.evaluate.repetitions";
    /** A directory where a live run keeps every exchange as a redacted recording; default none. */
    public static final String LIVE_RECORD_DIRECTORY = "agentlab.provider.live.record-directory";
    /** The provider family those recordings are held to; default {@code openai}. */
    public static final String LIVE_RECORD_FAMILY = "agentlab.provider.live.record-family";
    /** A live run's recordings that answer every turn instead of the suite's replies, in recorded order. */
    public static final String REPLAY_DIRECTORY = "agentlab.recordings.replay-directory";
    /** The AG-UI profile of the audit streams: {@code agui-1.0} (default) or {@code social-dialect}. */
    public static final String AGUI_PROFILE = "agentlab.agui.profile";
    /** A directory that receives each case's audit streams, {@code <suite>/<case>/<mode>/<turn>.sse}. */
    public static final String AUDIT_DIRECTORY = "agentlab.audit.directory";
    /** How mode and parity tests are named: {@code auto} (default), {@code short} or {@code long} ({@link Naming}). */
    public static final String NAMING_STRATEGY = "agentlab.naming.strategy";
    /** Prefix of the parallel executor's settings (as Jupiter's, e.g. {@code ...config.strategy=fixed}). */
    public static final String PARALLEL_CONFIG_PREFIX = "agentlab.execution.parallel.config.";

    /** Where model calls go. */
    public enum Provider {
        /** Recordings replayed, scripted turns synthesized and replayed: the default. */
        RECORDED,
        /** Only scripted turns run; cases answered by recordings are skipped, saying why. */
        SYNTHESIZED,
        /** Every call goes to a live OpenAI-compatible provider (smoke runs; needs base URL and key). */
        LIVE
    }

    /**
     * Reads the settings; a deprecated key still counts ({@link ConfigurationKeys#aliases()}). The engine reads them
     * once per run, at discovery, and executes with the same instance.
     */
    public static ConformanceSettings from(ConfigurationParameters configuration) {
        ConfigurationParameters parameters = ConfigurationKeys.withAliases(configuration);
        List<InvocationMode> modes = parameters.get(MODES).map(value -> Arrays.stream(value.split(","))
                .map(String::strip).filter(s -> !s.isEmpty()).map(mode -> parse(MODES, mode,
                        () -> InvocationMode.fromWireName(mode))).distinct().toList())
                .orElse(List.of(InvocationMode.values()));
        if (modes.isEmpty()) {
            throw new IllegalArgumentException(MODES + " names no mode; expected dual_agent, chat_agent_tools or both");
        }
        KernelUnderTestFactory factory = parameters.get(KERNEL_FACTORY).map(ConformanceSettings::factory)
                .orElseGet(ServiceLoaderKernelFactory::new);
        double speed = parameters.get(REPLAY_SPEED).map(value -> parse(REPLAY_SPEED, value,
                () -> Double.parseDouble(value))).orElse(1.0);
        if (speed < 0 || Double.isNaN(speed)) {
            throw new IllegalArgumentException(REPLAY_SPEED + " must be >= 0 (1.0 faithful, 0 as fast as possible), was "
                    + speed);
        }
        Provider provider = parameters.get(PROVIDER).map(ConformanceSettings::provider).orElse(Provider.RECORDED);
        long seed = parameters.get(SEED).map(value -> parse(SEED, value, () -> Long.parseLong(value.strip())))
                .orElse(DEFAULT_SEED);
        return new ConformanceSettings(modes, factory, parameters.get(REPORT_DIRECTORY).map(Path::of), speed, provider,
                parameters.get(LIVE_BASE_URL), parameters.get(LIVE_API_KEY_ENV).orElse("AGENTLAB_API_KEY"), seed,
                paths(parameters.get(RECORDING_DIRECTORIES)), parameters.get(RECORDINGS_CLASSPATH).orElse("recordings"),
                paths(parameters.get(SUITE_DIRECTORIES)), parameters.getBoolean(PARALLEL).orElse(false),
                parameters.get(PRICING_FILE).map(ConformanceSettings::pricing).orElseGet(PricingCatalog::empty),
                parameters.getBoolean(CONTROL_RUNS).orElse(true),
                positiveDuration(parameters, LIVE_READ_TIMEOUT, Duration.ofSeconds(60)),
                positiveDuration(parameters, LIVE_CALL_TIMEOUT, OpenAiCompatibleClient.DEFAULT_CALL_TIMEOUT),
                parameters.get(PREVIOUS_METRICS).map(value -> Path.of(value.strip())),
                parameters.get(AGUI_PROFILE).map(value -> parse(AGUI_PROFILE, value, () -> AguiProfile.fromId(value)))
                        .orElse(AguiProfile.AGUI_1_0),
                parameters.get(AUDIT_DIRECTORY).map(String::strip).filter(v -> !v.isEmpty()).map(Path::of),
                liveCalls(parameters), parameters.getBoolean(EVALUATE).orElse(false),
                parameters.get(REPETITIONS).map(value -> bounded(REPETITIONS, value, 1, 1000)).orElse(1),
                text(parameters, LIVE_RECORD_DIRECTORY).map(Path::of),
                text(parameters, LIVE_RECORD_FAMILY).map(value -> parse(LIVE_RECORD_FAMILY, value,
                        () -> ProviderFamily.fromWireName(value).wireName())).orElse("openai"),
                text(parameters, REPLAY_DIRECTORY).map(Path::of));
    }

    private static LiveCalls.Settings liveCalls(ConfigurationParameters parameters) {
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
        Optional<java.math.BigDecimal> cap = parameters.get(LIVE_SPENDING_CAP).map(value -> {
            java.math.BigDecimal amount = parse(LIVE_SPENDING_CAP, value, () -> new java.math.BigDecimal(value.strip()));
            if (amount.signum() <= 0) {
                throw new IllegalArgumentException(LIVE_SPENDING_CAP + ": cannot use '" + value
                        + "': expected a positive amount in USD, such as 2.50");
            }
            return amount;
        });
        return new LiveCalls.Settings(text(parameters, LIVE_MODEL), text(parameters, LIVE_EVENT_AGENT_MODEL),
                maxTokens, temperature,
                parameters.get(LIVE_SEED).map(value -> parse(LIVE_SEED, value, () -> Long.parseLong(value.strip()))),
                parameters.get(LIVE_MAX_CONCURRENT_REQUESTS).map(value -> bounded(LIVE_MAX_CONCURRENT_REQUESTS, value,
                        1, 256)).orElse(defaults.maxConcurrentRequests()),
                parameters.get(LIVE_MAX_RETRIES).map(value -> bounded(LIVE_MAX_RETRIES, value, 0, 10))
                        .orElse(defaults.maxRetries()),
                parameters.get(LIVE_BACKOFF).map(value -> parse(LIVE_BACKOFF, value, () -> Durations.parse(value)))
                        .orElse(defaults.backoff()),
                positiveDuration(parameters, LIVE_MAX_BACKOFF, defaults.maxBackoff()), cap);
    }

    private static Optional<String> text(ConfigurationParameters parameters, String key) {
        return parameters.get(key).map(String::strip).filter(value -> !value.isEmpty());
    }

    private static int bounded(String key, String value, int min, int max) {
        int number = parse(key, value, () -> Integer.parseInt(value.strip()));
        if (number < min || number > max) {
            throw new IllegalArgumentException(key + ": cannot use '" + value + "': expected a whole number from "
                    + min + (max == Integer.MAX_VALUE ? " up" : " to " + max));
        }
        return number;
    }

    /** The live provider's connection settings, when {@code agentlab.provider=live}. */
    public Optional<OpenAiCompatibleClient.Config> live() {
        if (provider != Provider.LIVE) {
            return Optional.empty();
        }
        String baseUrl = liveBaseUrl.orElseThrow(() -> new IllegalStateException(PROVIDER + "=live needs "
                + LIVE_BASE_URL));
        return Optional.of(new OpenAiCompatibleClient.Config(baseUrl, liveApiKeyEnv, Duration.ofSeconds(10),
                liveReadTimeout, liveCallTimeout, OpenAiCompatibleClient.DEFAULT_FINISH_GRACE));
    }

    private static Duration positiveDuration(ConfigurationParameters parameters, String key, Duration fallback) {
        Duration value = parameters.get(key).map(text -> parse(key, text, () -> Durations.parse(text)))
                .orElse(fallback);
        if (value.isZero()) {
            throw new IllegalArgumentException(key + " must be positive, was " + value);
        }
        return value;
    }

    /** The recording library these settings describe. */
    public RecordingLibrary recordings() {
        return new RecordingLibrary(recordingDirectories, recordingsClasspath,
                Thread.currentThread().getContextClassLoader());
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

    private static <T> T parse(String key, String value, java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": cannot use '" + value + "': " + e.getMessage(), e);
        }
    }
}
