package io.agentlab.engine;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.EventPlugin;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.apiguardian.api.API;

/** The default factory: the reference kernel and the plugins {@link ServiceLoader} finds on the test classpath. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ServiceLoaderKernelFactory implements KernelUnderTestFactory {

    @Override
    public List<EventPlugin> plugins() {
        // a new ServiceLoader instantiates new providers: fresh plugins with fresh in-memory ports
        List<EventPlugin> plugins = new ArrayList<>();
        ServiceLoader.load(EventPlugin.class, Thread.currentThread().getContextClassLoader()).forEach(plugins::add);
        return plugins;
    }
}
