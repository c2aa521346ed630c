package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;

/**
 * Marks a plugin author's contract test and configures it. The class implements {@link PluginContractTests}, which
 * contributes one dynamic test per rule of the catalogue ({@link PluginContractRules}, {@code docs/plugin-contract.md}):
 *
 * <pre>{@code
 * @PluginContract(catalogTokenBudget = 40)
 * class BrightnessContractTest implements PluginContractTests {
 *     public EventPlugin plugin() { return new BrightnessPlugin(new InMemoryLights()); }
 *     public List<PluginExample> examples() { return List.of(PluginExample.of("dim the lights to 30", Map.of("level", 30))); }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("plugin-contract")
@API(status = EXPERIMENTAL, since = "0.1")
public @interface PluginContract {

    /** The most tokens the catalog line ({@code - name: description}) may cost ChatAgent on every turn. */
    int catalogTokenBudget() default 60;

    /** Seeds for the examples' random chunking (PC-11); each example runs once per seed in each mode. */
    long[] seeds() default {1, 2, 3};
}
