package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.kernel.api.EventPlugin;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * What the plugin contract borrows from the engine when {@code agentlab-engine} is on the test classpath: YAML
 * example files and the suites' case runner (PC-11). The contracts artifact carries no YAML parser, HTTP client or
 * replay server, so a plugin author's test classpath holds none unless they add the engine
 * (docs/plugin-contract.md#artifacts). Found with {@link ServiceLoader}; the engine registers one.
 */
@API(status = INTERNAL, since = "0.2")
public interface PluginContractSupport {

    /** The artifact that provides this support, named in every message that needs it. */
    String PROVIDER = "io.agentlab:agentlab-engine (test scope)";

    /** A YAML document as JSON-shaped values (maps, lists, strings, numbers, booleans). */
    Map<String, Object> readYaml(InputStream in) throws IOException;

    /**
     * Runs each example as a one-turn suite case in both invocation modes, once per seed, and compares the modes.
     *
     * @return the failures, one message each; empty when every example passes in both modes and they agree
     */
    List<String> runExamples(Supplier<EventPlugin> plugins, List<PluginExample> examples, List<Long> seeds);

    /** The support on the classpath, if any. */
    static Optional<PluginContractSupport> find() {
        return ServiceLoader.load(PluginContractSupport.class, PluginContractSupport.class.getClassLoader())
                .findFirst();
    }
}
