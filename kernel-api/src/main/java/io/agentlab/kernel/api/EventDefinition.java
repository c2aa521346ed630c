package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Everything a plugin declares about one event ({@code docs/design.md#kernel-definition}). The kernel schedules,
 * validates, executes and aggregates purely from this metadata; it never branches on {@link #name()}.
 *
 * <p>Construction checks the rules that need no other definition: a namespaced name, a semantic schema version, a
 * concise description, a positive timeout, {@code terminate} only on terminal events, a template for
 * {@code template_follow_up}, and no retries for side-effecting events. The registry checks the rest (unique names,
 * a valid JSON Schema).
 *
 * @param name                      namespaced event name, e.g. {@code lamp.power.toggle}
 * @param schemaVersion             semantic version of the argument schema, e.g. {@code 1.0.0}
 * @param description               concise ChatAgent catalog description (one line)
 * @param argumentsSchema           JSON Schema (draft 2020-12) of the arguments, as JSON text; it is also the
 *                                  provider tool schema in {@code chat_agent_tools} mode
 * @param resolver                  deterministic resolver from the user's words
 * @param normalizer                brings merged arguments to canonical form before validation
 * @param requiredFields            fields that must be present before execution (in addition to the schema's
 *                                  {@code required}); missing ones trigger the fallback or a clarification
 * @param fallbackAllowed           whether one bounded EventAgent LLM fallback may fill missing fields
 * @param validator                 plugin validation beyond the schema
 * @param handler                   executes the event through a port
 * @param resultPolicy              what success asks of the rest of the turn
 * @param timeout                   per-event execution timeout, covering a retry
 * @param retryPolicy               retries on transient failure (read-only events only)
 * @param concurrencyClass          read-only or side-effecting
 * @param conflictKeys              resources held while running
 * @param terminal                  runs after every accepted sibling reached a terminal result (e.g. ending a session)
 * @param idempotencyKeys           derivation of the handler's idempotency key
 * @param failureVisibleToChatAgent whether a failure's message may be shown to ChatAgent in a corrective follow-up
 * @param confirmationTemplate      deterministic confirmation; required for {@code template_follow_up}
 * @param resultSummarizer          compacts a success payload for a follow-up call
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record EventDefinition(
        String name,
        String schemaVersion,
        String description,
        String argumentsSchema,
        ArgumentResolver resolver,
        ArgumentNormalizer normalizer,
        Set<String> requiredFields,
        boolean fallbackAllowed,
        ArgumentValidator validator,
        EventHandler handler,
        ResultPolicy resultPolicy,
        Duration timeout,
        RetryPolicy retryPolicy,
        ConcurrencyClass concurrencyClass,
        ConflictKeys conflictKeys,
        boolean terminal,
        IdempotencyKeyDerivation idempotencyKeys,
        boolean failureVisibleToChatAgent,
        Optional<ConfirmationTemplate> confirmationTemplate,
        ResultSummarizer resultSummarizer) {

    /** Namespaced: at least two dot-separated lowercase segments. */
    public static final Pattern NAME_PATTERN = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+");
    /** Semantic version {@code MAJOR.MINOR.PATCH} with an optional pre-release. */
    public static final Pattern SCHEMA_VERSION_PATTERN = Pattern.compile("\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?");
    /** The default per-event timeout when a plugin declares none. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /** Checks the rules described on the type. */
    public EventDefinition {
        Objects.requireNonNull(name, "name");
        if (!NAME_PATTERN.matcher(name).matches()) {
            throw new IllegalArgumentException("event name '" + name
                    + "' is not namespaced: use lowercase dot-separated segments such as 'lamp.power.toggle'");
        }
        if (schemaVersion == null || !SCHEMA_VERSION_PATTERN.matcher(schemaVersion).matches()) {
            throw new IllegalArgumentException(name + ": schemaVersion '" + schemaVersion + "' is not MAJOR.MINOR.PATCH");
        }
        if (description == null || description.isBlank() || description.contains("\n")) {
            throw new IllegalArgumentException(name + ": description must be one non-blank line");
        }
        if (argumentsSchema == null || argumentsSchema.isBlank()) {
            throw new IllegalArgumentException(name + ": argumentsSchema is required (use {\"type\":\"object\"} for none)");
        }
        Objects.requireNonNull(resolver, name + ": resolver");
        Objects.requireNonNull(normalizer, name + ": normalizer");
        requiredFields = Set.copyOf(requiredFields);
        Objects.requireNonNull(validator, name + ": validator");
        Objects.requireNonNull(handler, name + ": handler");
        Objects.requireNonNull(resultPolicy, name + ": resultPolicy");
        Objects.requireNonNull(timeout, name + ": timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException(name + ": timeout must be positive, was " + timeout);
        }
        Objects.requireNonNull(retryPolicy, name + ": retryPolicy");
        Objects.requireNonNull(concurrencyClass, name + ": concurrencyClass");
        Objects.requireNonNull(conflictKeys, name + ": conflictKeys");
        Objects.requireNonNull(idempotencyKeys, name + ": idempotencyKeys");
        confirmationTemplate = confirmationTemplate == null ? Optional.empty() : confirmationTemplate;
        Objects.requireNonNull(resultSummarizer, name + ": resultSummarizer");
        if (resultPolicy == ResultPolicy.TERMINATE && !terminal) {
            throw new IllegalArgumentException(name + ": policy 'terminate' requires terminal(true)");
        }
        if (resultPolicy == ResultPolicy.TEMPLATE_FOLLOW_UP && confirmationTemplate.isEmpty()) {
            throw new IllegalArgumentException(name + ": policy 'template_follow_up' requires a confirmationTemplate");
        }
        if (concurrencyClass == ConcurrencyClass.SIDE_EFFECTING && retryPolicy.retriesOnTransientFailure() > 0) {
            throw new IllegalArgumentException(name
                    + ": a side-effecting event must never be retried (docs/design.md#safety-no-side-effect-retry); "
                    + "use RetryPolicy.none()");
        }
    }

    /**
     * Starts a definition; {@code name}, {@code schemaVersion}, {@code description}, schema, handler and policy are
     * required.
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** A builder holding every part of this definition, to build a variant (a wrapped handler, another policy). */
    public Builder toBuilder() {
        Builder builder = new Builder(name);
        builder.schemaVersion = schemaVersion;
        builder.description = description;
        builder.argumentsSchema = argumentsSchema;
        builder.resolver = resolver;
        builder.normalizer = normalizer;
        builder.requiredFields = requiredFields;
        builder.fallbackAllowed = fallbackAllowed;
        builder.validator = validator;
        builder.handler = handler;
        builder.resultPolicy = resultPolicy;
        builder.timeout = timeout;
        builder.retryPolicy = retryPolicy;
        builder.concurrencyClass = concurrencyClass;
        builder.conflictKeys = conflictKeys;
        builder.terminal = terminal;
        builder.idempotencyKeys = idempotencyKeys;
        builder.failureVisibleToChatAgent = failureVisibleToChatAgent;
        builder.confirmationTemplate = confirmationTemplate.orElse(null);
        builder.resultSummarizer = resultSummarizer;
        return builder;
    }

    /** Fluent construction with the documented defaults. */
    public static final class Builder {
        private final String name;
        private String schemaVersion;
        private String description;
        private String argumentsSchema;
        private ArgumentResolver resolver = ArgumentResolver.none();
        private ArgumentNormalizer normalizer = ArgumentNormalizer.identity();
        private Set<String> requiredFields = Set.of();
        private boolean fallbackAllowed;
        private ArgumentValidator validator = ArgumentValidator.none();
        private EventHandler handler;
        private ResultPolicy resultPolicy;
        private Duration timeout = DEFAULT_TIMEOUT;
        private RetryPolicy retryPolicy = RetryPolicy.none();
        private ConcurrencyClass concurrencyClass = ConcurrencyClass.SIDE_EFFECTING;
        private ConflictKeys conflictKeys = ConflictKeys.none();
        private boolean terminal;
        private IdempotencyKeyDerivation idempotencyKeys = IdempotencyKeyDerivation.standard();
        private boolean failureVisibleToChatAgent = true;
        private ConfirmationTemplate confirmationTemplate;
        private ResultSummarizer resultSummarizer = ResultSummarizer.identity();

        private Builder(String name) {
            this.name = name;
        }

        /** Semantic version of the argument schema. */
        public Builder schemaVersion(String schemaVersion) {
            this.schemaVersion = schemaVersion;
            return this;
        }

        /** One-line catalog description. */
        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /** JSON Schema (draft 2020-12) text of the arguments. */
        public Builder argumentsSchema(String argumentsSchema) {
            this.argumentsSchema = argumentsSchema;
            return this;
        }

        /** Deterministic resolver; default resolves nothing. */
        public Builder resolver(ArgumentResolver resolver) {
            this.resolver = resolver;
            return this;
        }

        /** Normalizer; default identity. */
        public Builder normalizer(ArgumentNormalizer normalizer) {
            this.normalizer = normalizer;
            return this;
        }

        /** Fields required before execution; default none beyond the schema's {@code required}. */
        public Builder requiredFields(String... fields) {
            this.requiredFields = Set.of(fields);
            return this;
        }

        /** Whether the EventAgent fallback may fill missing fields; default false. */
        public Builder fallbackAllowed(boolean fallbackAllowed) {
            this.fallbackAllowed = fallbackAllowed;
            return this;
        }

        /** Plugin validator; default accepts what the schema accepts. */
        public Builder validator(ArgumentValidator validator) {
            this.validator = validator;
            return this;
        }

        /** The handler (required). */
        public Builder handler(EventHandler handler) {
            this.handler = handler;
            return this;
        }

        /** The result policy (required). */
        public Builder resultPolicy(ResultPolicy resultPolicy) {
            this.resultPolicy = resultPolicy;
            return this;
        }

        /** Per-event timeout; default {@link EventDefinition#DEFAULT_TIMEOUT}. */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** Retry policy; default none. */
        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = retryPolicy;
            return this;
        }

        /** Concurrency class; default side-effecting (the safe assumption). */
        public Builder concurrencyClass(ConcurrencyClass concurrencyClass) {
            this.concurrencyClass = concurrencyClass;
            return this;
        }

        /** Conflict keys; default none. */
        public Builder conflictKeys(ConflictKeys conflictKeys) {
            this.conflictKeys = conflictKeys;
            return this;
        }

        /** Fixed conflict keys. */
        public Builder conflictKeys(String... keys) {
            return conflictKeys(ConflictKeys.of(keys));
        }

        /** Whether the event runs last in its batch; default false. */
        public Builder terminal(boolean terminal) {
            this.terminal = terminal;
            return this;
        }

        /** Idempotency-key derivation; default {@link IdempotencyKeyDerivation#standard()}. */
        public Builder idempotencyKeys(IdempotencyKeyDerivation idempotencyKeys) {
            this.idempotencyKeys = idempotencyKeys;
            return this;
        }

        /** Whether failure messages may reach ChatAgent; default true. */
        public Builder failureVisibleToChatAgent(boolean visible) {
            this.failureVisibleToChatAgent = visible;
            return this;
        }

        /** Deterministic confirmation; required for {@code template_follow_up}. */
        public Builder confirmationTemplate(ConfirmationTemplate template) {
            this.confirmationTemplate = template;
            return this;
        }

        /** Payload compaction for follow-ups; default identity. */
        public Builder resultSummarizer(ResultSummarizer summarizer) {
            this.resultSummarizer = summarizer;
            return this;
        }

        /**
         * The definition.
         *
         * @throws IllegalArgumentException naming the event and the broken rule
         */
        public EventDefinition build() {
            return new EventDefinition(name, schemaVersion, description, argumentsSchema, resolver, normalizer,
                    requiredFields, fallbackAllowed, validator, handler, resultPolicy, timeout, retryPolicy,
                    concurrencyClass, conflictKeys, terminal, idempotencyKeys, failureVisibleToChatAgent,
                    Optional.ofNullable(confirmationTemplate), resultSummarizer);
        }
    }
}
