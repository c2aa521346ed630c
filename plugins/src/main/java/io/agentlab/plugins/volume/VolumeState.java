package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The device's state after a command: the level it reports and whether it is muted.
 *
 * @param level 0..100 after clamping
 * @param muted whether sound is off
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record VolumeState(int level, boolean muted) {
    /** Checks the range. */
    public VolumeState {
        if (level < 0 || level > 100) {
            throw new IllegalArgumentException("level must be within 0..100, was " + level);
        }
    }
}
