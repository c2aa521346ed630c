package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apiguardian.api.API;

/**
 * Derives the key a handler passes to its port so a retransmission creates one side effect, not two ({@code
 * docs/design.md#safety-idempotency-key}: a key "based on session, turn, event ID, and normalized arguments").
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface IdempotencyKeyDerivation {

    /**
     * Derives the key.
     *
     * @param scope              session and turn
     * @param eventId            the event id from the batch
     * @param name               the event name
     * @param canonicalArguments {@link CanonicalJson} of the normalized arguments
     */
    String derive(EventScope scope, String eventId, String name, String canonicalArguments);

    /** SHA-256 over session, turn, event id, name and canonical arguments, as lowercase hex. */
    static IdempotencyKeyDerivation standard() {
        return (scope, eventId, name, canonicalArguments) -> sha256(String.join("\u001f",
                scope.sessionId(), scope.turnId(), eventId, name, canonicalArguments));
    }

    private static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }
}
