package io.agentlab.plugins;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.plugins.calendar.CalendarPlugin;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.InMemoryCalendar;
import io.agentlab.plugins.search.InMemoryWebSearch;
import io.agentlab.plugins.search.SearchPlugin;
import io.agentlab.plugins.search.WebSearchPort;
import io.agentlab.plugins.session.InMemorySessions;
import io.agentlab.plugins.session.SessionTerminatePlugin;
import io.agentlab.plugins.session.SessionTerminationPort;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Builds the four built-in plugins, in catalog order (terminate, volume, schedule, search), with in-memory ports
 * unless real adapters are injected:
 *
 * <pre>{@code
 * List<EventPlugin> plugins = BuiltInPlugins.builder().calendar(myCalendarAdapter).build();
 * }</pre>
 *
 * The same four are registered for {@link java.util.ServiceLoader} as {@code io.agentlab.kernel.api.EventPlugin}
 * (with in-memory ports).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class BuiltInPlugins {

    private SessionTerminationPort session = new InMemorySessions();
    private DeviceVolumePort volume = new InMemoryDeviceVolume();
    private CalendarSchedulePort calendar = new InMemoryCalendar();
    private WebSearchPort search = new InMemoryWebSearch();

    private BuiltInPlugins() {
    }

    /** All four with in-memory ports. */
    public static List<EventPlugin> withInMemoryPorts() {
        return builder().build();
    }

    /** Starts a configuration with in-memory ports. */
    public static BuiltInPlugins builder() {
        return new BuiltInPlugins();
    }

    /** The session port. */
    public BuiltInPlugins session(SessionTerminationPort port) {
        this.session = Objects.requireNonNull(port, "port");
        return this;
    }

    /** The device volume port. */
    public BuiltInPlugins volume(DeviceVolumePort port) {
        this.volume = Objects.requireNonNull(port, "port");
        return this;
    }

    /** The calendar port. */
    public BuiltInPlugins calendar(CalendarSchedulePort port) {
        this.calendar = Objects.requireNonNull(port, "port");
        return this;
    }

    /** The search port. */
    public BuiltInPlugins search(WebSearchPort port) {
        this.search = Objects.requireNonNull(port, "port");
        return this;
    }

    /** The four plugins. */
    public List<EventPlugin> build() {
        return List.of(new SessionTerminatePlugin(session), new VolumePlugin(volume), new CalendarPlugin(calendar),
                new SearchPlugin(search));
    }
}
