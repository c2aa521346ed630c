package io.agentlab.contracts;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
import org.junit.jupiter.api.function.Executable;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * What a rule's {@code required} flag decides, the same for every catalogue (plugin and adapter contracts), as in the
 * Reactive Streams TCK: a required rule passes or fails, never skips; an optional rule may skip, saying why, when the
 * subject cannot offer what it needs (a failing port, a named state). Its failures fail like a required rule's. The
 * one abort a required rule passes on is {@link PrerequisiteFailed}: another rule has already failed for its cause.
 */
@API(status = INTERNAL, since = "0.1")
enum Requirement {
    /** Passes or fails; a check that aborts is a failure naming why it could not run. */
    REQUIRED,
    /** Passes, fails, or skips with the reason the check gave. */
    OPTIONAL;

    /**
     * A check that cannot run because another rule already failed for the same reason (the definition cannot be
     * built: PC-01 says why); it aborts even where required, so the cause is reported once.
     */
    static final class PrerequisiteFailed extends TestAbortedException {
        private static final long serialVersionUID = 1L;

        PrerequisiteFailed(String message) {
            super(message);
        }
    }

    static Requirement of(boolean required) {
        return required ? REQUIRED : OPTIONAL;
    }

    /** Runs {@code check} for the rule named {@code rule}, holding it to this requirement. */
    void run(String rule, Executable check) throws Throwable {
        try {
            check.execute();
        } catch (TestAbortedException skipped) {
            if (this == REQUIRED && !(skipped instanceof PrerequisiteFailed)) {
                throw new AssertionFailedError(rule + " is required and never skips, but it could not run: "
                        + skipped.getMessage(), skipped);
            }
            throw skipped;
        }
    }
}
