package io.agentlab.engine.wire;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a proof that runs every shipped suite over the wire (minutes, not seconds): it runs in CI's build
 * ({@code mvn install -Pits}, as {@code .ci/run} does), not in every {@code mvn verify}; the engine's POM excludes the
 * tag {@value #TAG} outside that profile (docs/development.md#wire-proofs).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(WireProof.TAG)
@interface WireProof {

    /** The JUnit tag the engine's POM filters on. */
    String TAG = "wire-proof";
}
