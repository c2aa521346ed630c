package io.agentlab.plugins.volume;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/** The four kinds of volume request ({@code docs/design.md#plugin-volume-modes}). */
@API(status = EXPERIMENTAL, since = "0.1")
public enum VolumeMode {
    /** Set to a level. */
    ABSOLUTE,
    /** Change by a signed amount. */
    RELATIVE,
    /** Silence, keeping the level. */
    MUTE,
    /** Restore sound at the kept level. */
    UNMUTE;

    /** The argument value, e.g. {@code absolute}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
