package io.agentlab.engine;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;
import org.junit.platform.engine.UniqueId;

/**
 * How mode and parity tests are named ({@value Constants#NAMING_STRATEGY}; docs/engine.md#names), in the
 * manner of Cucumber's {@code cucumber.junit-platform.naming-strategy}. Surefire's and Gradle's XML name a test by its
 * class (the {@code @Suite} class) and its display name alone, so there the display name must carry the suite, or two
 * suites with the same case id give the same testcase name.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public enum Naming {
    /** {@code <case id> [<mode>]}: the suite is the test's parent in every tree. */
    SHORT,
    /** {@code <suite id>/<case id> [<mode>]}: unique in a flat list (Surefire and Gradle XML, a CI's test table). */
    LONG,
    /** {@link #LONG} when the engine runs inside {@code @Suite} (how Surefire and Gradle reach it), else {@link #SHORT}. */
    AUTO;

    /** The value of the key, or an error naming it and what is accepted. */
    static Naming parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Constants.NAMING_STRATEGY + ": cannot use '" + value
                    + "'; expected auto, short or long", e);
        }
    }

    /** The strategy in force for an engine whose unique id is {@code engineId}: {@link #AUTO} decided. */
    Naming resolve(UniqueId engineId) {
        if (this != AUTO) {
            return this;
        }
        return engineId.getSegments().size() > 1 ? LONG : SHORT;
    }

    /** A mode or parity test's display name. */
    String testName(String suiteId, String caseId, String label) {
        return (this == LONG ? suiteId + "/" : "") + caseId + " [" + label + "]";
    }
}
