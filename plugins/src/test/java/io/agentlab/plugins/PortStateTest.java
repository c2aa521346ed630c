package io.agentlab.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.PortState;
import io.agentlab.plugins.calendar.CalendarPlugin;
import io.agentlab.plugins.calendar.CalendarSchedulePort;
import io.agentlab.plugins.calendar.InMemoryCalendar;
import io.agentlab.plugins.calendar.ScheduledEntry;
import io.agentlab.plugins.search.SearchPlugin;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The port-state SPI of the built-ins: what a suite's {@code expect.portState} reads after a turn. */
class PortStateTest {

    @Test
    @DisplayName("the calendar lists its entries with the local time read back from what it stored")
    void calendarEntries() {
        InMemoryCalendar calendar = new InMemoryCalendar();
        CalendarPlugin plugin = new CalendarPlugin(calendar);
        try (Harness harness = new Harness(plugin)) {
            harness.dual(CalendarPlugin.NAME, "remind me tomorrow at 9am to call grandma");
            harness.dual(CalendarPlugin.NAME, "remind me tomorrow at 10am to water the plants");
        }
        Map<String, Object> state = plugin.portState().orElseThrow().snapshot();
        assertThat(state).containsOnlyKeys("entries");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> entries = (List<Map<String, Object>>) state.get("entries");
        assertThat(entries).hasSize(2).satisfiesExactly(
                first -> assertThat(first).containsEntry("title", "call grandma")
                        .containsEntry("date", "2026-12-01").containsEntry("time", "09:00")
                        .containsEntry("timezone", "Asia/Shanghai").containsEntry("start", "2026-12-01T09:00+08:00"),
                second -> assertThat(second).containsEntry("time", "10:00"));
    }

    @Test
    @DisplayName("the calendar's payload is its port's entry, key for key and in order, and whether it was created")
    void calendarPayloadIsTheEntry() {
        CalendarPlugin plugin = new CalendarPlugin(new InMemoryCalendar());
        EventResult recurring;
        EventResult reminded;
        try (Harness harness = new Harness(plugin)) {
            recurring = harness.dual(CalendarPlugin.NAME, "remind me every day at 8pm to practice piano");
            reminded = harness.dual(CalendarPlugin.NAME, "dentist next Tuesday at 4:30 pm, remind me 30 minutes before");
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> entries = (List<Map<String, Object>>) plugin.portState().orElseThrow().snapshot()
                .get("entries");
        List<EventResult> results = List.of(recurring, reminded);
        assertThat(results).hasSameSizeAs(entries);
        for (int i = 0; i < entries.size(); i++) {
            Map<String, Object> expected = new LinkedHashMap<>(entries.get(i));
            expected.put("created", true);
            assertThat(results.get(i).outcome()).isInstanceOfSatisfying(Succeeded.class,
                    succeeded -> assertThat(succeeded.payload()).containsExactlyEntriesOf(expected));
        }
        assertThat(entries.get(0)).containsEntry("entry_id", "cal-1").containsEntry("title", "practice piano")
                .containsEntry("time", "20:00").containsEntry("timezone", "Asia/Shanghai")
                .containsEntry("recurrence", "FREQ=DAILY").containsKeys("date", "start");
        assertThat(entries.get(1)).containsEntry("entry_id", "cal-2").containsEntry("time", "16:30")
                .containsEntry("reminder_minutes_before", 30);
    }

    @Test
    @DisplayName("the device lists each session's level and mute state")
    void volumeDevices() {
        VolumePlugin plugin = new VolumePlugin(new InMemoryDeviceVolume());
        try (Harness harness = new Harness(plugin)) {
            harness.dual(VolumePlugin.NAME, "set the volume to 30");
        }
        assertThat(plugin.portState().orElseThrow().snapshot())
                .isEqualTo(Map.of("devices", List.of(Map.of("session", "session-1", "level", 30, "muted", false))));
    }

    @Test
    @DisplayName("a port that cannot show its state leaves the plugin without one; a plugin without a port has none")
    void noState() {
        CalendarSchedulePort opaque = request -> new ScheduledEntry("x", null, true);
        assertThat(new CalendarPlugin(opaque).portState()).isEmpty();
        assertThat(new SearchPlugin().portState()).isEmpty();
        EventPlugin lambda = () -> new SearchPlugin().definition();
        assertThat(lambda.portState()).isEmpty();
        PortState state = new InMemoryCalendar();
        assertThat(state.snapshot()).isEqualTo(Map.of("entries", List.of()));
    }
}
