package io.agentlab.engine;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.report.gates.GateKeys;
import org.apiguardian.api.API;

/**
 * Every configuration key of the kit, in one list (docs/configuration.md#keys): the engine's {@code agentlab.*}
 * parameters, read from {@code junit-platform.properties}, {@code @ConfigurationParameter}, Surefire's
 * {@code <configurationParameters>} or {@code -D}, and the keys of the command line and the {@code agentlab:verify}
 * goal ({@link #SUITES} to {@link #JVM}). Each key's Javadoc gives its values and its default.
 *
 * <p>The engine jar's {@code META-INF/junit-platform-configuration-metadata.json} and the tables of
 * {@code docs/configuration.md} are checked against this class by a test, so a key added here and not there (or
 * there and not here) fails the build. The switches of the kit's own build are not here: they live under
 * {@code agentlab-build.*}, outside the engine's namespace (docs/development.md#build-switches).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Constants {

    /**
     * The invocation modes every case runs in, comma-separated: {@code dual_agent}, {@code chat_agent_tools}
     * (intersected with each suite's and case's modes). Default: both, {@code dual_agent,chat_agent_tools}.
     */
    public static final String MODES = "agentlab.modes";

    /**
     * The kernel under test: the class name of a {@link KernelUnderTestFactory} with a public no-argument
     * constructor. Default: {@link ServiceLoaderKernelFactory}.
     */
    public static final String KERNEL_FACTORY = "agentlab.kernel.factory";

    /** A directory that also receives {@code metrics.json}, {@code report.md} and {@code index.html}. Default: none. */
    public static final String REPORT_DIRECTORY = "agentlab.report.directory";

    /**
     * Whether the end-of-run report runs the control turns (every mode with all events disabled and all enabled):
     * {@code true} or {@code false}. Default: {@code true}.
     */
    public static final String CONTROL_RUNS = "agentlab.report.control";

    /**
     * A previous run's {@code metrics.json} the report shows what moved against. Default: the {@code metrics.json}
     * already in {@link #REPORT_DIRECTORY}, if any.
     */
    public static final String PREVIOUS_METRICS = "agentlab.report.previous";

    /**
     * How mode and parity tests are named: {@code auto}, {@code short} or {@code long} ({@link Naming}). Default:
     * {@code auto}.
     */
    public static final String NAMING_STRATEGY = "agentlab.naming.strategy";

    /**
     * The AG-UI wire shape of the audit streams and the rules they are checked against: {@code agui-1.0} or
     * {@code social-dialect}. Default: {@code agui-1.0}.
     */
    public static final String AGUI_PROFILE = "agentlab.agui.profile";

    /**
     * The base URL of a runtime over the wire the suites judge instead of the in-process kernel (docs/wire.md): attach
     * to it, or, with {@link #RUNTIME_COMMAND}, the URL the started runtime listens on ({@code {port}} replaced by the
     * free port chosen). Default: none.
     */
    public static final String RUNTIME_URL = "agentlab.runtime.url";

    /**
     * The command line that starts a runtime over the wire (split on white space, {@code "..."} quoting), configured
     * by the environment of docs/wire.md#configuration. Default: none.
     */
    public static final String RUNTIME_COMMAND = "agentlab.runtime.command";

    /** The directory {@link #RUNTIME_COMMAND} runs in. Default: the working directory. */
    public static final String RUNTIME_DIRECTORY = "agentlab.runtime.directory";

    /** The path of a runtime over the wire's AG-UI endpoint. Default: {@code /agui}. */
    public static final String RUNTIME_AGUI_PATH = "agentlab.runtime.agui-path";

    /** How long a runtime over the wire has to become ready, a positive duration. Default: 30s. */
    public static final String RUNTIME_READY_TIMEOUT = "agentlab.runtime.ready-timeout";

    /** The longest silence a turn's stream over the wire may keep, a positive duration. Default: 30s. */
    public static final String RUNTIME_TURN_TIMEOUT = "agentlab.runtime.turn-timeout";

    /**
     * The loopback port the kit serves its provider route on for a runtime over the wire, so a runtime already running
     * can be configured before the run (docs/wire.md#attach); that URL then carries no token. Default: a free port,
     * the route's path holding an unguessable token.
     */
    public static final String RUNTIME_PROVIDER_PORT = "agentlab.runtime.provider-port";

    /**
     * The loopback port of the kit's port stand-ins for a runtime over the wire (docs/wire.md#attach). Default: a free
     * port.
     */
    public static final String RUNTIME_PORTS_PORT = "agentlab.runtime.ports-port";

    /** A directory that receives each case's audit streams, {@code <suite>/<case>/<mode>/<turn>.sse}. Default: none. */
    public static final String AUDIT_DIRECTORY = "agentlab.audit.directory";

    /** Recorded and modelled offsets × this factor, {@code >= 0}: 1.0 faithful, 0 as fast as possible. Default: 1.0. */
    public static final String REPLAY_SPEED = "agentlab.replay.speed";

    /** Where model calls go: {@code recorded}, {@code synthesized} or {@code live}. Default: {@code recorded}. */
    public static final String PROVIDER = "agentlab.provider";

    /** The live OpenAI-compatible provider's {@code /v1} base URL ({@code agentlab.provider=live}). Default: none. */
    public static final String LIVE_BASE_URL = "agentlab.provider.live.base-url";

    /** The environment variable holding the live provider's key. Default: {@code AGENTLAB_API_KEY}. */
    public static final String LIVE_API_KEY_ENV = "agentlab.provider.live.api-key-env";

    /** The longest silence inside a live stream (idle timeout), a duration such as {@code 2s}. Default: 60s. */
    public static final String LIVE_READ_TIMEOUT = "agentlab.provider.live.read-timeout";

    /** The longest a whole live call may take, request to last byte, a positive duration. Default: 120s. */
    public static final String LIVE_CALL_TIMEOUT = "agentlab.provider.live.call-timeout";

    /** ChatAgent's model in a live run. Default: the suite's {@code provider.model}. */
    public static final String LIVE_MODEL = "agentlab.provider.live.model";

    /** The EventAgent's (cheaper) model in a live run. Default: ChatAgent's. */
    public static final String LIVE_EVENT_AGENT_MODEL = "agentlab.provider.live.event-agent-model";

    /** ChatAgent's output budget ({@code max_tokens}) in a live run, at least 1. Default: 300. */
    public static final String LIVE_MAX_TOKENS = "agentlab.provider.live.max-tokens";

    /** The sampling temperature of ChatAgent's calls in a live run, 0 to 2. Default: 0.7. */
    public static final String LIVE_TEMPERATURE = "agentlab.provider.live.temperature";

    /** The sampling seed sent with every live call, a whole number. Default: none sent. */
    public static final String LIVE_SEED = "agentlab.provider.live.seed";

    /** The most live requests in flight at once, 1 to 256. Default: 4. */
    public static final String LIVE_MAX_CONCURRENT_REQUESTS = "agentlab.provider.live.max-concurrent-requests";

    /** How often a request the provider refused (429, 503) is sent again, 0 to 10. Default: 2. */
    public static final String LIVE_MAX_RETRIES = "agentlab.provider.live.max-retries";

    /** The first wait before a retry when the provider sends no {@code Retry-After}, doubled each time. Default: 1s. */
    public static final String LIVE_BACKOFF = "agentlab.provider.live.backoff";

    /** The longest wait before a retry the run accepts, a positive duration. Default: 60s. */
    public static final String LIVE_MAX_BACKOFF = "agentlab.provider.live.max-backoff";

    /** The estimated cost in USD at which a live run stops, a positive amount such as 2.50. Default: none. */
    public static final String LIVE_SPENDING_CAP = "agentlab.provider.live.spending-cap";

    /**
     * Evaluation mode: expectations become labels the model is scored against, and only the kernel's guarantees fail
     * a case; {@code true} or {@code false}. Default: {@code false}.
     */
    public static final String EVALUATE = "agentlab.evaluate";

    /** How often each case runs in each mode in evaluation mode, 1 to 1000. Default: 1. */
    public static final String REPETITIONS = "agentlab.evaluate.repetitions";

    /** A directory where a live run keeps every exchange as a redacted recording. Default: none. */
    public static final String LIVE_RECORD_DIRECTORY = "agentlab.provider.live.record-directory";

    /**
     * The provider family those recordings are held to: {@code openai}, {@code deepseek}, {@code dashscope} or
     * {@code llamacpp}. Default: {@code openai}.
     */
    public static final String LIVE_RECORD_FAMILY = "agentlab.provider.live.record-family";

    /** A live run's recordings that answer every turn instead of the suite's replies, in recorded order. Default: none. */
    public static final String REPLAY_DIRECTORY = "agentlab.recordings.replay-directory";

    /** The seed of synthesized chunk boundaries, a whole number. Default: 42 ({@link #DEFAULT_SEED}). */
    public static final String SEED = "agentlab.seed";

    /** The seed of synthesized chunk boundaries when {@link #SEED} is not set. */
    public static final long DEFAULT_SEED = 42L;

    /** Comma-separated directories searched first for {@code <recording id>.json}. Default: none. */
    public static final String RECORDING_DIRECTORIES = "agentlab.recordings.directories";

    /** The classpath folder searched for {@code <recording id>.json}. Default: {@code recordings}. */
    public static final String RECORDINGS_CLASSPATH = "agentlab.recordings.classpath";

    /** Comma-separated directories searched for a suite named only by a unique id. Default: none (the classpath). */
    public static final String SUITE_DIRECTORIES = "agentlab.suites.directories";

    /**
     * A pricing catalog JSON file ({@code docs/runtime.md}). Default: none, and every cost is unknown, never zero.
     */
    public static final String PRICING_FILE = "agentlab.pricing.file";

    /** Whether suites and cases run in parallel: {@code true} or {@code false}. Default: {@code false}. */
    public static final String PARALLEL = "agentlab.execution.parallel.enabled";

    /**
     * Prefix of the parallel executor's settings, named as Jupiter's ({@code strategy}, {@code fixed.parallelism},
     * {@code dynamic.factor}, ...). Default: Jupiter's defaults.
     */
    public static final String PARALLEL_CONFIG_PREFIX = "agentlab.execution.parallel.config.";

    /**
     * Whether the gates node follows the suites, each gate a test: {@code true} or {@code false}. Default:
     * {@code false}.
     */
    public static final String GATES_ENABLED = GateKeys.ENABLED;

    /**
     * Whether the gates judge a partial launch too (docs/engine.md#partial-launches): {@code true} or {@code false}.
     * Default: {@code false}.
     */
    public static final String GATES_ON_PARTIAL = "agentlab.gates.on-partial";

    /**
     * Whether every case must behave identically in both modes (was {@code agentlab.gate.parity}): {@code true} or
     * {@code false}. Default: {@code true}.
     */
    public static final String GATES_PARITY = GateKeys.PARITY;

    /** Minimum event-selection precision per mode, a number. Default: 0.95. */
    public static final String GATES_MIN_PRECISION = GateKeys.MIN_PRECISION;

    /** Minimum event-selection recall per mode, a number. Default: 0.95. */
    public static final String GATES_MIN_RECALL = GateKeys.MIN_RECALL;

    /** Maximum ChatAgent calls per ordinary turn per mode, a number. Default: 1.0. */
    public static final String GATES_MAX_CALLS_PER_ORDINARY_TURN = GateKeys.MAX_CALLS_PER_ORDINARY_TURN;

    /** Maximum estimated cost per successful event per mode (USD), a number. Default: none (the gate is skipped). */
    public static final String GATES_MAX_COST_PER_SUCCESS = GateKeys.MAX_COST_PER_SUCCESS;

    /** Maximum chat_agent_tools ÷ dual_agent first-visible TTFT, beyond noise, a number. Default: 1.5. */
    public static final String GATES_MAX_TTFT_RATIO = GateKeys.MAX_TTFT_RATIO;

    /** A committed baseline of per-mode figures, each a gate. Default: none. */
    public static final String BASELINE_FILE = GateKeys.BASELINE_FILE;

    /** The largest regression against the baseline, as a fraction. Default: 0.10. */
    public static final String BASELINE_MAX_REGRESSION = GateKeys.BASELINE_MAX_REGRESSION;

    /**
     * Client key: the suites {@code agentlab run} and the {@code agentlab:verify} goal run, comma-separated folders
     * or files, or {@code classpath:FOLDER}. Under another client the engine warns that it does nothing
     * (docs/configuration.md#client-keys). Default: the shipped suites,
     * {@code classpath:agentlab/suites}.
     */
    public static final String SUITES = "agentlab.suites";

    /** Client key: JUnit tag expressions a test must match, comma-separated. Default: every test. */
    public static final String TAGS = "agentlab.tags";

    /** Client key: JUnit tag expressions that leave a test out, comma-separated. Default: none. */
    public static final String EXCLUDE_TAGS = "agentlab.exclude-tags";

    /** Client key: the cases to run ({@code case}, {@code suite/case} or unique ids), comma-separated. Default: all. */
    public static final String CASES = "agentlab.cases";

    /** Client key: this job's shard of the run, {@code I/N} (merged by {@code agentlab merge}). Default: all of it. */
    public static final String SHARD = "agentlab.shard";

    /** Client key: skip the {@code agentlab:verify} goal, {@code true} or {@code false}. Default: {@code false}. */
    public static final String SKIP = "agentlab.skip";

    /** Client key: the java executable of the JVM the {@code agentlab:verify} goal forks. Default: Maven's. */
    public static final String JVM = "agentlab.jvm";

    private Constants() {
    }
}
