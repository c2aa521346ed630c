package io.agentlab.engine.internal.execution;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Where a run gets fresh plugins and the kernel under test. The engine adapts the user's {@code
 * KernelUnderTestFactory} to it, so this package, which runs cases, never depends on the engine's root package that
 * starts it (docs/development.md#guards).
 */
@API(status = INTERNAL, since = "0.1")
@FunctionalInterface
public interface KernelSource {

    /** The plugins, freshly made for one case in one mode. */
    List<EventPlugin> plugins();

    /** The kernel under test; the reference kernel unless one is given. */
    default EventKernelFactory kernels() {
        return ReferenceKernel.factory();
    }
}
