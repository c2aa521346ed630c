package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Builds the kernel a turn runtime drives. The reference kernel provides one; a service team that ships its own Java
 * kernel implements this to run the same conformance suites against it (TCK use).
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface EventKernelFactory {

    /**
     * What the kernel is built from.
     *
     * @param definitions     the events to register, in catalog order
     * @param limits          concurrency limit and batch deadline
     * @param fallback        the EventAgent's LLM fallback for missing required fields
     * @param fallbackTimeout the bound of one fallback call
     */
    record Setup(List<EventDefinition> definitions, KernelLimits limits, EventAgentFallback fallback,
                 Duration fallbackTimeout) {
        /** Rejects nulls and copies the definitions. */
        public Setup {
            definitions = List.copyOf(definitions);
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(fallback, "fallback");
            Objects.requireNonNull(fallbackTimeout, "fallbackTimeout");
        }
    }

    /**
     * Builds a kernel; the caller closes it.
     *
     * @throws RuntimeException when the definitions cannot be registered (the message says which and why)
     */
    EventKernel create(Setup setup);
}
