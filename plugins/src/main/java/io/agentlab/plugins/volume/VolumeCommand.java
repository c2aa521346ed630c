package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What the device is asked to do.
 *
 * @param sessionId      the session (identifies the device)
 * @param mode           absolute, relative, mute or unmute
 * @param value          the target level 0..100 for {@code absolute}, else null
 * @param delta          the signed change -100..100 for {@code relative}, else null
 * @param idempotencyKey the same key for a retransmission of the same request
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record VolumeCommand(String sessionId, VolumeMode mode, Integer value, Integer delta, String idempotencyKey) {
    /** Rejects a missing mode, session or key. */
    public VolumeCommand {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }
}
