package io.agentlab.engine;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.EventPlugin;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/** The default factory: the reference kernel and the plugins {@link ServiceLoader} finds on the test classpath. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ServiceLoaderKernelFactory implements KernelUnderTestFactory {

    /**
     * The providers found, per class loader, looked up once: every case asks for plugins, and reading the service
     * files again each time was 3 % of a run's CPU (docs/performance.md#per-case).
     */
    private final Map<ClassLoader, List<ServiceLoader.Provider<EventPlugin>>> providers = new ConcurrentHashMap<>();

    @Override
    public List<EventPlugin> plugins() {
        ClassLoader loader = Objects.requireNonNullElse(Thread.currentThread().getContextClassLoader(),
                ClassLoader.getSystemClassLoader());
        // each get() instantiates its provider anew: fresh plugins with fresh in-memory ports
        return providers.computeIfAbsent(loader, found -> ServiceLoader.load(EventPlugin.class, found).stream()
                .toList()).stream().map(ServiceLoader.Provider::get).collect(Collectors.toCollection(ArrayList::new));
    }
}
