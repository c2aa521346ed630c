package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.rule.Rule;
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

    /** The rules with their checks, in order; each id once ({@link Rule#catalogue(List)}). */
    List<RuleCheck<P>> rules();

    /**
     * One rule of the catalogue and its check. The rule is the {@link Rule} every catalogue shares: required rules
     * pass or fail, never skip; optional ones are skipped with the reason when their state hook is not supported
     * (the same as plugin contracts', {@code Requirement}).
     *
     * @param rule  the rule, e.g. {@code AC-CAL-02}
     * @param check the check over the adapter under test
     * @param <P>   the port
     */
    record RuleCheck<P>(Rule rule, Check<P> check) {
        /** Rejects nulls. */
        public RuleCheck {
            java.util.Objects.requireNonNull(rule, "rule");
            java.util.Objects.requireNonNull(check, "check");
        }

        /** The test's display name. */
        public String displayName() {
            return rule.displayName();
        }

        /** The failure for {@code message}, naming this rule and its clause. */
        public AssertionError failure(String message) {
            return new org.opentest4j.AssertionFailedError(rule.failureMessage(message));
        }
    }

    /**
     * A rule's check.
     *
     * @param <P> the port
     */
    @FunctionalInterface
    interface Check<P> {
        /** Runs the check; throws an assertion error naming the rule ({@link RuleCheck#failure}), or aborts to skip. */
        void run(AdapterContractTests<P> subject, RuleCheck<P> rule) throws Exception;
    }
}
