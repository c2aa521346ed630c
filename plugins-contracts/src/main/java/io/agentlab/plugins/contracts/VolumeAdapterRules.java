package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContractTests;
import io.agentlab.contracts.AdapterRuleCatalogue;
import io.agentlab.kernel.api.rule.Rule;
import static org.apiguardian.api.API.Status.INTERNAL;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.VolumeCommand;
import io.agentlab.plugins.volume.VolumeMode;
import io.agentlab.plugins.volume.VolumeState;
import java.util.List;
import java.util.UUID;
import org.apiguardian.api.API;

/** {@link DeviceVolumePort} adapters: absolute, relative, mute semantics, clamping, the level reported, idempotency. */
@API(status = INTERNAL, since = "0.1")
public final class VolumeAdapterRules implements AdapterRuleCatalogue<DeviceVolumePort> {

    @Override
    public Class<DeviceVolumePort> port() {
        return DeviceVolumePort.class;
    }

    @Override
    public List<RuleCheck<DeviceVolumePort>> rules() {
        return List.of(
                new RuleCheck<>(Rule.required("AC-VOL-01", "absolute_sets_and_reports_level",
                        "docs/design.md#plugin-volume-port",
                        "An absolute command sets the level and reports it."), VolumeAdapterRules::absolute),
                new RuleCheck<>(Rule.required("AC-VOL-02", "relative_changes_and_clamps",
                        "docs/design.md#plugin-volume-range",
                        "A relative change moves from the current level and is clamped to 0..100."),
                        VolumeAdapterRules::relative),
                new RuleCheck<>(Rule.required("AC-VOL-03", "mute_keeps_level", "docs/design.md#plugin-volume-port",
                        "Mute reports muted with the level kept; unmute restores it."), VolumeAdapterRules::mute),
                new RuleCheck<>(Rule.required("AC-VOL-04", "idempotent_when_repeated",
                        "docs/design.md#plugin-volume-port",
                        "The same relative command with the same key applies once."), VolumeAdapterRules::idempotent));
    }

    private static VolumeState apply(DeviceVolumePort port, String session, VolumeMode mode, Integer value,
                                     Integer delta) {
        return port.apply(new VolumeCommand(session, mode, value, delta, "contract-" + UUID.randomUUID()));
    }

    private static void absolute(AdapterContractTests<DeviceVolumePort> subject, RuleCheck<DeviceVolumePort> rule) {
        VolumeState state = apply(subject.adapter(), "s-" + UUID.randomUUID(), VolumeMode.ABSOLUTE, 30, null);
        if (state.level() != 30 || state.muted()) {
            throw rule.failure("absolute 30 reported " + state + "; expected level 30, not muted");
        }
    }

    private static void relative(AdapterContractTests<DeviceVolumePort> subject, RuleCheck<DeviceVolumePort> rule) {
        DeviceVolumePort port = subject.adapter();
        String session = "s-" + UUID.randomUUID();
        apply(port, session, VolumeMode.ABSOLUTE, 50, null);
        VolumeState up = apply(port, session, VolumeMode.RELATIVE, null, 10);
        VolumeState clampedHigh = apply(port, session, VolumeMode.RELATIVE, null, 100);
        VolumeState clampedLow = apply(port, session, VolumeMode.RELATIVE, null, -100);
        if (up.level() != 60 || clampedHigh.level() != 100 || clampedLow.level() != 0) {
            throw rule.failure("50 then +10, +100, -100 reported " + up.level() + ", " + clampedHigh.level() + ", "
                    + clampedLow.level() + "; expected 60, 100, 0");
        }
    }

    private static void mute(AdapterContractTests<DeviceVolumePort> subject, RuleCheck<DeviceVolumePort> rule) {
        DeviceVolumePort port = subject.adapter();
        String session = "s-" + UUID.randomUUID();
        apply(port, session, VolumeMode.ABSOLUTE, 40, null);
        VolumeState muted = apply(port, session, VolumeMode.MUTE, null, null);
        VolumeState unmuted = apply(port, session, VolumeMode.UNMUTE, null, null);
        if (!muted.muted() || muted.level() != 40 || unmuted.muted() || unmuted.level() != 40) {
            throw rule.failure("40, mute, unmute reported " + muted + " then " + unmuted
                    + "; expected muted at 40, then unmuted at 40");
        }
    }

    private static void idempotent(AdapterContractTests<DeviceVolumePort> subject, RuleCheck<DeviceVolumePort> rule) {
        DeviceVolumePort port = subject.adapter();
        String session = "s-" + UUID.randomUUID();
        apply(port, session, VolumeMode.ABSOLUTE, 50, null);
        VolumeCommand louder = new VolumeCommand(session, VolumeMode.RELATIVE, null, 10, "contract-" + UUID.randomUUID());
        port.apply(louder);
        VolumeState again = port.apply(louder);
        if (again.level() != 60) {
            throw rule.failure("+10 twice with one key reported level " + again.level() + "; expected 60 (applied once)");
        }
    }
}
