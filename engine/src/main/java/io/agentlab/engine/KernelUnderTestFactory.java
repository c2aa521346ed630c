package io.agentlab.engine;

import static org.apiguardian.api.API.Status.STABLE;

import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Supplies what the suites run against: the plugins (with their ports) and the kernel. Name an implementation with
 * the configuration parameter {@code agentlab.kernel.factory} (a class with a public no-argument constructor); the
 * default is {@link ServiceLoaderKernelFactory}: the reference kernel and every {@link EventPlugin} that
 * {@link java.util.ServiceLoader} finds, each with its in-memory ports.
 */
@API(status = STABLE, since = "0.1")
public interface KernelUnderTestFactory {

    /**
     * The plugins, freshly made: every case in every mode gets its own instances, so ports never carry state from one
     * run into another.
     */
    List<EventPlugin> plugins();

    /** The kernel under test; the reference kernel unless a service team brings its own (TCK use). */
    default EventKernelFactory kernels() {
        return ReferenceKernel.factory();
    }
}
