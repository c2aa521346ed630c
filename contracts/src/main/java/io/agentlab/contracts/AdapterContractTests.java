package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.rule.Rule;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.TestAbortedException;

/**
 * Implemented by an {@link AdapterContract} test class: supplies the adapter under test and, Pact-style, puts the
 * service behind it into named states for the optional rules; inherits one dynamic test per rule of the port's
 * {@link AdapterRuleCatalogue}.
 *
 * @param <P> the port the adapter implements
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface AdapterContractTests<P> {

    /** A fresh adapter talking to the service in its normal state. */
    P adapter();

    /**
     * Puts the service into a named state before a rule that needs it (for example {@code unavailable},
     * {@code rejecting} or {@code slow}; each catalogue documents its states). The default supports none, so the
     * rules that need a state are skipped, saying which.
     */
    default void given(String state) {
        throw new TestAbortedException("state '" + state + "' is not supported by this test (override given(String))");
    }

    /** Restores the normal state after each rule. */
    default void reset() {
    }

    /** One test per rule of the catalogue registered for the annotated port. */
    @TestFactory
    @SuppressWarnings("unchecked")
    default Stream<DynamicTest> adapterContract() {
        AdapterContract contract = getClass().getAnnotation(AdapterContract.class);
        if (contract == null) {
            throw new IllegalStateException(getClass().getName()
                    + " implements AdapterContractTests but is not annotated @AdapterContract(Port.class)");
        }
        portOfTheClass(getClass()).filter(port -> !contract.value().isAssignableFrom(port)).ifPresent(port -> {
            throw new IllegalStateException(getClass().getName() + " implements AdapterContractTests<"
                    + port.getSimpleName() + "> but is annotated @AdapterContract(" + contract.value().getSimpleName()
                    + ".class): name the port its adapter() implements");
        });
        AdapterRuleCatalogue<P> catalogue = null;
        StringBuilder known = new StringBuilder();
        for (AdapterRuleCatalogue<?> candidate : ServiceLoader.load(AdapterRuleCatalogue.class)) {
            known.append(known.isEmpty() ? "" : ", ").append(candidate.port().getName());
            if (candidate.port().equals(contract.value())) {
                catalogue = (AdapterRuleCatalogue<P>) candidate;
            }
        }
        if (catalogue == null) {
            throw new IllegalStateException("no adapter rule catalogue for " + contract.value().getName()
                    + " on the test classpath; catalogues found: [" + known + "]");
        }
        List<AdapterRuleCatalogue.RuleCheck<P>> rules = catalogue.rules();
        // each id once, as in every catalogue (docs/adapter-contract.md#the-catalogues): a team's own catalogue fails here
        Rule.catalogue(rules.stream().map(AdapterRuleCatalogue.RuleCheck::rule).toList());
        return rules.stream().map(rule -> DynamicTest.dynamicTest(rule.displayName(), () -> {
            try {
                Requirement.of(rule.rule().required()).run(rule.displayName(), () -> rule.check().run(this, rule));
            } finally {
                reset();
            }
        }));
    }

    /**
     * The port {@code type} declares as its {@code AdapterContractTests} type argument, when it names a class: read
     * from the declaration, so the check costs no adapter (one may connect to a service when made).
     */
    private static Optional<Class<?>> portOfTheClass(Class<?> type) {
        for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
            for (Type implemented : declaring.getGenericInterfaces()) {
                if (implemented instanceof ParameterizedType parameterized
                        && parameterized.getRawType() == AdapterContractTests.class
                        && parameterized.getActualTypeArguments()[0] instanceof Class<?> port) {
                    return Optional.of(port);
                }
            }
        }
        return Optional.empty();
    }
}
