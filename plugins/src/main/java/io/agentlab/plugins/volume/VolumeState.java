package io.agentlab.plugins.volume;

/**
 * The device's state after a command: the level it reports and whether it is muted.
 *
 * @param level 0..100 after clamping
 * @param muted whether sound is off
 */
public record VolumeState(int level, boolean muted) {
    /** Checks the range. */
    public VolumeState {
        if (level < 0 || level > 100) {
            throw new IllegalArgumentException("level must be within 0..100, was " + level);
        }
    }
}
