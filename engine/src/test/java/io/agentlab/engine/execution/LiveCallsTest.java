package io.agentlab.engine.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatMessage;
import io.agentlab.runtime.llm.ChatProvider;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ChatRequestJson;
import io.agentlab.runtime.llm.ProviderException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.testkit.engine.EngineTestKit;

/** The live settings around every model call: models and sampling, concurrency, retries that honour Retry-After, cap. */
@Timeout(30)
class LiveCallsTest {

    private static final ChatRequest REQUEST = new ChatRequest("m", List.of(ChatMessage.user("hi")), List.of(), null,
            null, true, CallRole.CHAT);
    private static final ChatCompletion ANSWER = new ChatCompletion("Hello", List.of(), "stop", Map.of(),
            Duration.ZERO, Optional.empty(), Duration.ZERO, false);

    private final List<Duration> waits = new CopyOnWriteArrayList<>();

    private static LiveCalls.Settings settings(int concurrency, int retries, Optional<BigDecimal> cap) {
        LiveCalls.Settings d = LiveCalls.Settings.defaults();
        return new LiveCalls.Settings(d.model(), d.eventAgentModel(), d.maxTokens(), d.temperature(), d.seed(),
                concurrency, retries, Duration.ofSeconds(1), Duration.ofSeconds(30), cap);
    }

    /** A provider that fails with each of {@code failures} in turn, then answers; it counts its calls. */
    private static ChatProvider failing(AtomicInteger calls, ProviderException... failures) {
        return (request, listener) -> {
            int call = calls.getAndIncrement();
            if (call < failures.length) {
                throw failures[call];
            }
            return ANSWER;
        };
    }

    private static ProviderException status(int code, Duration retryAfter) {
        return new ProviderException(ProviderException.Kind.HTTP_STATUS, "HTTP " + code, code, retryAfter, null);
    }

    @Test
    @DisplayName("a 429 is waited out as long as Retry-After says, a 503 without one by the doubling backoff")
    void refusalsAreWaitedOut() {
        LiveCalls live = new LiveCalls(settings(4, 2, Optional.empty()), waits::add);
        AtomicInteger calls = new AtomicInteger();
        assertThat(live.wrap(failing(calls, status(429, Duration.ofSeconds(7)), status(429, Duration.ofSeconds(7))))
                .stream(REQUEST, d -> { })).isSameAs(ANSWER);
        assertThat(waits).containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(7));
        assertThat(calls).hasValue(3);

        waits.clear();
        calls.set(0);
        assertThat(live.wrap(failing(calls, status(503, null), status(503, null))).stream(REQUEST, d -> { }))
                .isSameAs(ANSWER);
        assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    @DisplayName("what may have been processed is never retried; nor a refusal past the retries or the longest wait")
    void whatIsNotRetried() {
        LiveCalls live = new LiveCalls(settings(4, 2, Optional.empty()), waits::add);
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> live.wrap(failing(calls, status(500, null))).stream(REQUEST, d -> { }))
                .hasMessageContaining("HTTP 500");
        assertThat(calls).hasValue(1);
        calls.set(0);
        assertThatThrownBy(() -> live.wrap(failing(calls, new ProviderException(ProviderException.Kind.TRUNCATED,
                "cut"))).stream(REQUEST, d -> { })).hasMessageContaining("cut");
        assertThat(calls).hasValue(1);
        calls.set(0);
        assertThatThrownBy(() -> live.wrap(failing(calls, status(429, Duration.ofSeconds(3600))))
                .stream(REQUEST, d -> { })).hasMessageContaining("HTTP 429");
        assertThat(calls).as("a wait of an hour is not accepted").hasValue(1);
        calls.set(0);
        assertThatThrownBy(() -> live.wrap(failing(calls, status(429, null), status(429, null), status(429, null)))
                .stream(REQUEST, d -> { })).hasMessageContaining("HTTP 429");
        assertThat(calls).as("the first try and two retries").hasValue(3);
        assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    @DisplayName("no more requests in flight than the limit, however many callers")
    void concurrencyLimit() throws Exception {
        LiveCalls live = new LiveCalls(settings(2, 0, Optional.empty()), waits::add);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch twoIn = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        ChatProvider provider = live.wrap((request, listener) -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            twoIn.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inFlight.decrementAndGet();
            return ANSWER;
        });
        ExecutorService callers = Executors.newFixedThreadPool(6);
        try {
            List<Future<ChatCompletion>> results = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                results.add(callers.submit(() -> provider.stream(REQUEST, d -> { })));
            }
            assertThat(twoIn.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(inFlight).as("the two holding the slots").hasValue(2);
            release.countDown();
            for (Future<ChatCompletion> result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS)).isSameAs(ANSWER);
            }
            assertThat(most).hasValue(2);
        } finally {
            callers.shutdownNow();
        }
    }

    /** The clause this checks: {@code docs/design.md#usage-fair-comparison}. */
    @Test
    @DisplayName("the models, output budget, temperature and seed reach every request, in both modes alike")
    void modelsAndSampling() {
        LiveCalls.Settings d = LiveCalls.Settings.defaults();
        LiveCalls live = new LiveCalls(new LiveCalls.Settings(Optional.of("qwen2.5-7b-instruct"),
                Optional.of("qwen2.5-0.5b-instruct"), Optional.of(128), Optional.of(0.2), Optional.of(7L),
                d.maxConcurrentRequests(), d.maxRetries(), d.backoff(), d.maxBackoff(), Optional.empty()));
        for (InvocationMode mode : InvocationMode.values()) {
            RuntimeConfig config = live.configure(RuntimeConfig.of(mode, "p", "suite-model", "persona"));
            assertThat(config.model()).isEqualTo("qwen2.5-7b-instruct");
            assertThat(config.eventAgentModel()).isEqualTo("qwen2.5-0.5b-instruct");
            assertThat(config.maxTokens()).isEqualTo(128);
            assertThat(config.temperature()).isEqualTo(0.2);
            assertThat(config.seed()).isEqualTo(7L);
            assertThat(config.mode()).isEqualTo(mode);
        }
        RuntimeConfig untouched = new LiveCalls(d).configure(RuntimeConfig.of(InvocationMode.DUAL_AGENT, "p",
                "suite-model", "persona"));
        assertThat(untouched).isEqualTo(RuntimeConfig.of(InvocationMode.DUAL_AGENT, "p", "suite-model", "persona"));
        assertThat(ChatRequestJson.write(new ChatRequest("m", List.of(ChatMessage.user("hi")), List.of(), 0.2, 128,
                true, CallRole.CHAT, 7L))).contains("\"seed\":7", "\"max_tokens\":128", "\"temperature\":0.2");
        assertThat(ChatRequestJson.write(REQUEST)).doesNotContain("seed");
    }

    @Test
    @DisplayName("the spending cap stops the run once the estimated cost reaches it, or once a cost is unknown")
    void spendingCap() {
        LiveCalls live = new LiveCalls(settings(4, 2, Optional.of(new BigDecimal("1.00"))), waits::add);
        live.spent("turn 1", Optional.of(new BigDecimal("0.40")));
        live.spent("turn 2", Optional.of(new BigDecimal("0.40")));
        assertThat(live.stopped()).isEmpty();
        live.spent("turn 3", Optional.of(new BigDecimal("0.25")));
        assertThat(live.stopped()).contains("the spending cap of 1.00 USD was reached: 1.05 USD estimated after turn 3");
        assertThat(live.spent()).isEqualByComparingTo("1.05");

        LiveCalls unpriced = new LiveCalls(settings(4, 2, Optional.of(new BigDecimal("1.00"))), waits::add);
        unpriced.spent("turn 1", Optional.empty());
        assertThat(unpriced.stopped()).get().asString().contains("cannot be kept", "turn 1", "agentlab.pricing.file");

        LiveCalls uncapped = new LiveCalls(settings(4, 2, Optional.empty()), waits::add);
        uncapped.spent("turn 1", Optional.empty());
        uncapped.spent("turn 2", Optional.of(new BigDecimal("5")));
        assertThat(uncapped.stopped()).isEmpty();
    }

    @ParameterizedTest
    @DisplayName("a bad live setting is one discovery error naming the key, the value and what is accepted")
    @CsvSource(delimiter = '|', textBlock = """
            agentlab.provider.live.temperature             | 3     | expected a number from 0 to 2
            agentlab.provider.live.max-tokens              | 0     | expected a whole number from 1 up
            agentlab.provider.live.max-concurrent-requests | 1000  | expected a whole number from 1 to 256
            agentlab.provider.live.max-retries             | -1    | expected a whole number from 0 to 10
            agentlab.provider.live.spending-cap            | -2    | expected a positive amount in USD
            agentlab.provider.live.spending-cap            | lots  | cannot use 'lots'
            agentlab.provider.live.seed                    | seven | cannot use 'seven'
            agentlab.provider.live.backoff                 | soon  | cannot use 'soon'
            """)
    void badSettings(String key, String value, String expected) {
        List<DiscoveryIssue> issues = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectClasspathResource("sample-suites")).configurationParameter(key, value).discover()
                .getDiscoveryIssues();
        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(issue.message()).contains(key + ": ", expected);
        });
    }
}
