package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.llm.ChatProvider;
import io.agentlab.runtime.llm.ProviderException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.apiguardian.api.API;

/**
 * What a live run puts around every model call, shared by the whole run: the models and sampling it asks for, at most
 * so many requests at once, a wait and one more try when the provider says it is busy ({@code 429} or {@code 503},
 * honouring {@code Retry-After}; such a request was refused, never processed or billed), and a spending cap that stops
 * the run once the estimated cost reaches it (see {@code docs/configuration.md#live-settings}).
 */
@API(status = INTERNAL, since = "0.1")
public final class LiveCalls {

    /**
     * The live settings ({@code agentlab.provider.live.*}).
     *
     * @param model                 ChatAgent's model; empty: the suite's
     * @param eventAgentModel       the EventAgent's model; empty: ChatAgent's
     * @param maxTokens             ChatAgent's output budget; empty: the runtime's default
     * @param temperature           the sampling temperature; empty: the runtime's default
     * @param seed                  the sampling seed sent with every call; empty: none sent
     * @param maxConcurrentRequests the most requests in flight at once, whatever runs in parallel
     * @param maxRetries            how often a refused request ({@code 429}, {@code 503}) is sent again
     * @param backoff               the first wait when the provider names none (doubled at each retry)
     * @param maxBackoff            the longest wait accepted; a provider asking for longer fails the call
     * @param spendingCap           the estimated cost (USD) at which the run stops; empty: no cap
     */
    public record Settings(Optional<String> model, Optional<String> eventAgentModel, Optional<Integer> maxTokens,
                           Optional<Double> temperature, Optional<Long> seed, int maxConcurrentRequests,
                           int maxRetries, Duration backoff, Duration maxBackoff, Optional<BigDecimal> spendingCap) {

        /** The default concurrency. */
        public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 4;
        /** The default number of retries of a refused request. */
        public static final int DEFAULT_MAX_RETRIES = 2;

        /** Rejects values outside their bounds, naming the setting. */
        public Settings {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(eventAgentModel, "eventAgentModel");
            Objects.requireNonNull(maxTokens, "maxTokens");
            Objects.requireNonNull(temperature, "temperature");
            Objects.requireNonNull(seed, "seed");
            Objects.requireNonNull(backoff, "backoff");
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            Objects.requireNonNull(spendingCap, "spendingCap");
            maxTokens.filter(tokens -> tokens < 1).ifPresent(tokens -> {
                throw new IllegalArgumentException("max tokens must be at least 1, was " + tokens);
            });
            temperature.filter(t -> !(t >= 0 && t <= 2)).ifPresent(t -> {
                throw new IllegalArgumentException("temperature must be from 0 to 2, was " + t);
            });
            if (maxConcurrentRequests < 1 || maxConcurrentRequests > 256) {
                throw new IllegalArgumentException("at most 1 to 256 concurrent requests, was " + maxConcurrentRequests);
            }
            if (maxRetries < 0 || maxRetries > 10) {
                throw new IllegalArgumentException("retries must be from 0 to 10, was " + maxRetries);
            }
            if (backoff.isNegative() || maxBackoff.isNegative()) {
                throw new IllegalArgumentException("a backoff cannot be negative");
            }
            spendingCap.filter(cap -> cap.signum() <= 0).ifPresent(cap -> {
                throw new IllegalArgumentException("a spending cap must be positive, was " + cap);
            });
        }

        /** Nothing set: the suite's model, the runtime's sampling, 4 requests at once, 2 retries, no cap. */
        public static Settings defaults() {
            return new Settings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), DEFAULT_MAX_CONCURRENT_REQUESTS, DEFAULT_MAX_RETRIES, Duration.ofSeconds(1),
                    Duration.ofSeconds(60), Optional.empty());
        }
    }

    /** How a wait passes; tests record waits instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        /** Waits {@code duration}. */
        void sleep(Duration duration) throws InterruptedException;
    }

    private final Settings settings;
    private final Sleeper sleeper;
    private final Semaphore permits;
    private BigDecimal spent = BigDecimal.ZERO;
    private String stopped;

    /** The calls of one run under {@code settings}, waiting by sleeping. */
    public LiveCalls(Settings settings) {
        this(settings, duration -> java.util.concurrent.TimeUnit.NANOSECONDS.sleep(duration.toNanos()));
    }

    /** The calls of one run under {@code settings}, waiting with {@code sleeper}. */
    public LiveCalls(Settings settings, Sleeper sleeper) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.permits = new Semaphore(settings.maxConcurrentRequests(), true);
    }

    /** The settings. */
    public Settings settings() {
        return settings;
    }

    /** {@code config} with the models and sampling the settings ask for. */
    public RuntimeConfig configure(RuntimeConfig config) {
        String chat = settings.model().orElse(config.model());
        return config.withModels(chat, settings.eventAgentModel().orElse(chat))
                .withSampling(settings.temperature().orElse(config.temperature()),
                        settings.maxTokens().orElse(config.maxTokens()), settings.seed().orElse(config.seed()));
    }

    /**
     * {@code provider} behind the concurrency limit and the retries. A refused request is sent again after the
     * provider's {@code Retry-After}, or after the backoff when it names none; a provider asking for longer than the
     * longest accepted wait, or refusing more often than the retries allow, fails the call with its own error.
     */
    public ChatProvider wrap(ChatProvider provider) {
        return (request, listener) -> {
            try {
                permits.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProviderException(ProviderException.Kind.CANCELLED, "interrupted while waiting for a "
                        + "request slot");
            }
            try {
                for (int attempt = 0; ; attempt++) {
                    try {
                        return provider.stream(request, listener);
                    } catch (ProviderException e) {
                        Duration wait = e.retryAfter().orElse(settings.backoff().multipliedBy(1L << attempt));
                        if (!refused(e) || attempt >= settings.maxRetries()
                                || wait.compareTo(settings.maxBackoff()) > 0) {
                            throw e;
                        }
                        sleeper.sleep(wait);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProviderException(ProviderException.Kind.CANCELLED, "interrupted while backing off");
            } finally {
                permits.release();
            }
        };
    }

    /** A refusal the provider asks to be retried: it was not processed, so nothing was billed. */
    private static boolean refused(ProviderException e) {
        return e.kind() == ProviderException.Kind.HTTP_STATUS && (e.status() == 429 || e.status() == 503);
    }

    /**
     * Adds a finished turn's estimated cost. The run stops once the total reaches the cap, or when a turn's cost is
     * unknown while a cap is set (a cap that cannot be counted against cannot be kept).
     *
     * @param turn what the turn was, for the reason
     * @param cost its estimated cost, empty when unknown
     */
    public synchronized void spent(String turn, Optional<BigDecimal> cost) {
        if (settings.spendingCap().isEmpty() || stopped != null) {
            cost.ifPresent(amount -> spent = spent.add(amount));
            return;
        }
        BigDecimal cap = settings.spendingCap().get();
        if (cost.isEmpty()) {
            stopped = "the spending cap of " + cap.toPlainString() + " USD cannot be kept: the cost of " + turn
                    + " is unknown (set agentlab.pricing.file with a price for every model called)";
            return;
        }
        spent = spent.add(cost.get());
        if (spent.compareTo(cap) >= 0) {
            stopped = "the spending cap of " + cap.toPlainString() + " USD was reached: " + spent.toPlainString()
                    + " USD estimated after " + turn;
        }
    }

    /** The estimated cost so far. */
    public synchronized BigDecimal spent() {
        return spent;
    }

    /** Why the run stopped, once it has. */
    public synchronized Optional<String> stopped() {
        return Optional.ofNullable(stopped);
    }
}
