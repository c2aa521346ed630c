package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One named, documented rule of a contract catalogue, in the Reactive Streams TCK's manner: its display name says
 * whether it is required and what it checks ({@code required_PC-02_catalog_description_within_budget}); a failure
 * names the rule, the clause and what to check.
 *
 * @param id          the rule id, e.g. {@code PC-02}
 * @param name        what it checks, in snake case
 * @param required    required (passes or fails, never skips) or optional (may skip, saying why, when it cannot
 *                    run); {@code Requirement} decides it for every catalogue
 * @param clause      the design clause it enforces
 * @param description one sentence for the catalogue
 * @param check       the check
 */
@API(status = INTERNAL, since = "0.1")
public record ContractRule(String id, String name, boolean required, String clause, String description, Check check) {

    /** Rejects nulls. */
    public ContractRule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(clause, "clause");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(check, "check");
    }

    /** The test's display name. */
    public String displayName() {
        return (required ? "required_" : "optional_") + id + "_" + name;
    }

    /** A rule's check over the plugin under test. */
    @FunctionalInterface
    public interface Check {
        /**
         * Runs the check.
         *
         * @throws AssertionError with what broke; {@link org.opentest4j.TestAbortedException} to skip with a reason
         */
        void run(PluginContractSubject subject) throws Exception;
    }
}
