package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The rules an adapter of one port must keep, registered for {@link java.util.ServiceLoader} as
 * {@code io.agentlab.contracts.AdapterRuleCatalogue} by the module that owns the port (the built-in ports'
 * catalogues ship in {@code agentlab-plugins-contracts}).
 *
 * @param <P> the port
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface AdapterRuleCatalogue<P> {

    /** The port these rules are for. */
    Class<P> port();

    /** The rules, in order. */
    List<Rule<P>> rules();

    /**
     * One rule.
     *
     * @param id          e.g. {@code AC-CAL-02}
     * @param name        what it checks, in snake case
     * @param required    required (passes or fails, never skips), or optional (skipped with the reason when its
     *                    state hook is not supported); the same rule as plugin contracts' ({@code Requirement})
     * @param clause      the clause it enforces
     * @param description one sentence for the catalogue
     * @param check       the check over the adapter under test
     * @param <P>         the port
     */
    record Rule<P>(String id, String name, boolean required, String clause, String description, Check<P> check) {
        /** The test's display name. */
        public String displayName() {
            return (required ? "required_" : "optional_") + id + "_" + name;
        }

        /** The failure for {@code message}, naming this rule and its clause. */
        public AssertionError failure(String message) {
            return new org.opentest4j.AssertionFailedError(displayName() + " (" + clause + "): " + message);
        }
    }

    /**
     * A rule's check.
     *
     * @param <P> the port
     */
    @FunctionalInterface
    interface Check<P> {
        /** Runs the check; throws an assertion error naming the rule, or aborts to skip. */
        void run(AdapterContractTests<P> subject, Rule<P> rule) throws Exception;
    }
}
