package io.agentlab.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ConcurrencyClass;
import io.agentlab.kernel.api.Confirmation;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.ContinuationDecision.EndSession;
import io.agentlab.kernel.api.ContinuationDecision.FollowUp;
import io.agentlab.kernel.api.EventBatch;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventOutcome.Failed;
import io.agentlab.kernel.api.EventOutcome.Replayed;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.FollowUpReason;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.EventRegistry;
import io.agentlab.plugins.calendar.CalendarPlugin;
import io.agentlab.plugins.calendar.InMemoryCalendar;
import io.agentlab.plugins.calendar.ScheduleRequest;
import io.agentlab.plugins.port.PortException;
import io.agentlab.plugins.search.InMemoryWebSearch;
import io.agentlab.plugins.search.SearchHit;
import io.agentlab.plugins.search.SearchPlugin;
import io.agentlab.plugins.session.InMemorySessions;
import io.agentlab.plugins.session.SessionTerminatePlugin;
import io.agentlab.plugins.volume.DeviceVolumePort;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The four built-ins: metadata of {@code docs/design.md#plugin-namespaced-name} and each plugin's clauses, discovery,
 * and each flow through the real kernel.
 */
class BuiltInPluginsTest {

    private final InMemorySessions sessions = new InMemorySessions();
    private final InMemoryDeviceVolume volume = new InMemoryDeviceVolume();
    private final InMemoryCalendar calendar = new InMemoryCalendar();
    private final InMemoryWebSearch search = new InMemoryWebSearch();
    private Harness harness = new Harness(BuiltInPlugins.builder().session(sessions).volume(volume)
            .calendar(calendar).search(search).build());

    @AfterEach
    void close() {
        harness.close();
    }

    private static EventDefinition definition(String name) {
        return BuiltInPlugins.withInMemoryPorts().stream().map(EventPlugin::definition)
                .filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    private BatchResult dual(String text, String... events) {
        EventBatch.Builder builder = EventBatch.builder(
                Harness.turn(text, Harness.MONDAY_8AM_SHANGHAI, Harness.SHANGHAI, List.of()), InvocationMode.DUAL_AGENT);
        for (String event : events) {
            builder.event(event);
        }
        return harness.run(builder.build());
    }

    /** The clause this checks: {@code docs/design.md#plugin-schedule-create}. */
    @Test
    @DisplayName("each definition carries the policy and the metadata its design clauses declare")
    void metadata() {
        assertThat(definition(SessionTerminatePlugin.NAME)).satisfies(d -> {
            assertThat(d.resultPolicy()).isEqualTo(ResultPolicy.TERMINATE);
            assertThat(d.terminal()).isTrue();
        });
        assertThat(definition(VolumePlugin.NAME).resultPolicy()).isEqualTo(ResultPolicy.SILENT_SUCCESS);
        assertThat(definition(CalendarPlugin.NAME)).satisfies(d -> {
            assertThat(d.resultPolicy()).isEqualTo(ResultPolicy.TEMPLATE_FOLLOW_UP);
            assertThat(d.confirmationTemplate()).isPresent();
        });
        assertThat(definition(SearchPlugin.NAME)).satisfies(d -> {
            assertThat(d.resultPolicy()).isEqualTo(ResultPolicy.LLM_FOLLOW_UP);
            assertThat(d.concurrencyClass()).isEqualTo(ConcurrencyClass.READ_ONLY);
            assertThat(d.retryPolicy().retriesOnTransientFailure()).isEqualTo(1);
        });
        for (EventPlugin plugin : BuiltInPlugins.withInMemoryPorts()) {
            EventDefinition d = plugin.definition();
            assertThat(d.schemaVersion()).isEqualTo("1.0.0");
            assertThat(d.description()).hasSizeLessThan(120);
            assertThat(d.timeout()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(10));
            if (d.concurrencyClass() == ConcurrencyClass.SIDE_EFFECTING) {
                assertThat(d.retryPolicy().retriesOnTransientFailure()).as(d.name()).isZero();
            }
            assertThat(d.terminal()).as(d.name()).isEqualTo(d.resultPolicy() == ResultPolicy.TERMINATE);
        }
        // every schema is a valid draft 2020-12 object schema and names are unique
        assertThat(EventRegistry.ofPlugins(BuiltInPlugins.withInMemoryPorts()).names()).containsExactly(
                "session.terminate", "device.volume.adjust", "calendar.schedule.create", "knowledge.web.search");
    }

    @Test
    @DisplayName("ServiceLoader finds the four built-ins")
    void serviceLoader() {
        assertThat(ServiceLoader.load(EventPlugin.class).stream().map(p -> p.get().definition().name()))
                .containsExactlyInAnyOrder("session.terminate", "device.volume.adjust", "calendar.schedule.create",
                        "knowledge.web.search");
    }

    @Test
    @DisplayName("terminate: ends the session, no further ChatAgent call; ending it again succeeds and says so")
    void terminate() {
        BatchResult first = dual("ok bye", SessionTerminatePlugin.NAME);
        assertThat(first.decision()).isInstanceOf(EndSession.class);
        assertThat(sessions.isEnded("session-1")).isTrue();
        assertThat(((Succeeded) first.results().get(0).outcome()).payload()).containsEntry("already_ended", false);

        BatchResult again = dual("bye again", SessionTerminatePlugin.NAME);
        assertThat(((Succeeded) again.results().get(0).outcome()).payload()).containsEntry("already_ended", true);
    }

    @Test
    @DisplayName("terminate failure: a corrective follow-up instead of pretending the session ended")
    void terminateFailure() {
        harness.close();
        harness = new Harness(new SessionTerminatePlugin((sessionId, key) -> {
            throw new PortException("session_service_down", "session service unreachable", false);
        }));
        BatchResult result = dual("goodbye", SessionTerminatePlugin.NAME);
        assertThat(result.decision()).isInstanceOfSatisfying(FollowUp.class,
                followUp -> assertThat(followUp.reasons()).containsExactly(FollowUpReason.CORRECTION));
    }

    @Test
    @DisplayName("volume: success is silent (no second answer); a device failure gets one corrective follow-up")
    void volume() {
        BatchResult ok = dual("set the volume to 30", VolumePlugin.NAME);
        assertThat(ok.decision()).isEqualTo(new ContinuationDecision.Complete(List.of()));
        assertThat(volume.state("session-1").level()).isEqualTo(30);

        harness.close();
        DeviceVolumePort offline = command -> {
            throw new PortException("device_offline", "the toy is offline", false);
        };
        harness = new Harness(new VolumePlugin(offline));
        BatchResult failed = dual("louder", VolumePlugin.NAME);
        assertThat(failed.results().get(0).outcome()).isEqualTo(new Failed("device_offline", "the toy is offline",
                false, 1));
        assertThat(failed.decision()).isInstanceOfSatisfying(FollowUp.class, followUp -> {
            assertThat(followUp.reasons()).containsExactly(FollowUpReason.CORRECTION);
            assertThat(followUp.summary().json()).contains("device_offline");
        });
    }

    @Test
    @DisplayName("volume: the device clamps the resulting level and reports it")
    void volumeClampsResult() {
        dual("set the volume to 95", VolumePlugin.NAME);
        BatchResult up = dual("turn it up by 20", VolumePlugin.NAME);
        assertThat(((Succeeded) up.results().get(0).outcome()).payload()).containsEntry("level", 100);
    }

    /** The clause this checks: {@code docs/design.md#plugin-schedule-confirmation}. */
    @Test
    @DisplayName("schedule: a deterministic confirmation in the user's language, no LLM call")
    void scheduleConfirmation() {
        BatchResult english = dual("remind me tomorrow at 3pm to call mom", CalendarPlugin.NAME);
        assertThat(english.decision()).isEqualTo(new ContinuationDecision.Complete(List.of(new Confirmation("e1",
                "Added \"call mom\" on Tuesday, December 1 at 15:00."))));

        BatchResult chinese = dual("每周一早上九点开例会，提前十分钟提醒我", CalendarPlugin.NAME);
        assertThat(chinese.decision().confirmations()).extracting(Confirmation::text).containsExactly(
                "好的，已添加日程：11月30日（星期一）09:00「开例会」，每周一重复，提前10分钟提醒。");
    }

    @Test
    @DisplayName("schedule: ambiguous time → clarification with one focused question and no entry")
    void scheduleClarification() {
        BatchResult result = dual("remind me at 9 to call the bank", CalendarPlugin.NAME);
        assertThat(result.decision()).isInstanceOfSatisfying(FollowUp.class, followUp -> {
            assertThat(followUp.reasons()).containsExactly(FollowUpReason.CLARIFICATION);
            assertThat(followUp.summary().json()).contains("in the morning or");
        });
        assertThat(calendar.calls()).isEmpty();
    }

    @Test
    @DisplayName("schedule idempotency: a retransmission of the same event creates one entry")
    void scheduleIdempotency() {
        TurnContext turn = Harness.turn("remind me tomorrow at 3pm to call mom", Harness.MONDAY_8AM_SHANGHAI,
                Harness.SHANGHAI, List.of());
        EventBatch batch = EventBatch.builder(turn, InvocationMode.DUAL_AGENT).event(CalendarPlugin.NAME).build();
        harness.run(batch);
        BatchResult retransmitted = harness.run(batch);
        assertThat(retransmitted.results().get(0).outcome()).isInstanceOf(Replayed.class);
        assertThat(calendar.entries()).hasSize(1);

        // The adapter honours the key on its own too (a retransmission reaching it through another kernel).
        ScheduleRequest request = calendar.calls().get(0);
        assertThat(calendar.create(request).created()).isFalse();
        assertThat(calendar.entries()).hasSize(1);
        ScheduleRequest other = new ScheduleRequest("session-1", "call mom", LocalDate.of(2026, 12, 1),
                LocalTime.of(15, 0), Harness.SHANGHAI, Optional.empty(), Optional.empty(), "another-key");
        assertThat(calendar.create(other).created()).isTrue();
    }

    @Test
    @DisplayName("search: first answer stands, one follow-up with the compact summary; raw payload kept for audit")
    void search() {
        search.respond("weather", List.of(new SearchHit("Hangzhou forecast", "https://weather.example/hz",
                "Sunny, 21°C. " + "x".repeat(400), Instant.parse("2026-11-30T00:00:00Z"))));
        BatchResult result = dual("what's the weather in Hangzhou tomorrow?", SearchPlugin.NAME);
        EventResult event = result.results().get(0);
        assertThat(event.arguments()).isEqualTo(Map.of("query", "weather in Hangzhou tomorrow"));
        assertThat(((Succeeded) event.outcome()).payload().toString()).contains("x".repeat(400));
        assertThat(result.decision()).isInstanceOfSatisfying(FollowUp.class, followUp -> {
            assertThat(followUp.reasons()).containsExactly(FollowUpReason.SYNTHESIS);
            assertThat(followUp.summary().json()).contains("Hangzhou forecast", "https://weather.example/hz",
                    "retrieved_at").doesNotContain("x".repeat(300));
        });
    }

    @Test
    @DisplayName("search: one retry on a transient failure; a permanent failure still yields a non-blocking follow-up")
    void searchFailures() {
        search.failTransiently(1);
        BatchResult retried = dual("search for the latest Mars news", SearchPlugin.NAME);
        assertThat(((Succeeded) retried.results().get(0).outcome()).attempts()).isEqualTo(2);
        assertThat(search.calls()).hasSize(2);

        search.failPermanently();
        BatchResult failed = dual("search for the latest Mars news", SearchPlugin.NAME);
        assertThat(failed.results().get(0).outcome()).isInstanceOf(Failed.class);
        assertThat(search.calls()).hasSize(3);
        assertThat(failed.decision()).isInstanceOfSatisfying(FollowUp.class,
                followUp -> assertThat(followUp.reasons()).containsExactly(FollowUpReason.CORRECTION));
    }

    @Test
    @DisplayName("all four in one utterance: each resolver reads its own clause; terminate runs last and ends")
    void allFourInOneTurn() {
        BatchResult result = dual("set the volume to 20, remind me tomorrow at 9am to call grandma, "
                        + "search for the weather in Paris, and goodbye",
                VolumePlugin.NAME, CalendarPlugin.NAME, SearchPlugin.NAME, SessionTerminatePlugin.NAME);
        assertThat(result.results()).extracting(EventResult::status).containsOnly("succeeded");
        assertThat(result.results().get(0).arguments()).isEqualTo(Map.of("mode", "absolute", "value", 20));
        assertThat(result.results().get(1).arguments()).containsEntry("title", "call grandma")
                .containsEntry("time", "09:00");
        assertThat(result.results().get(2).arguments()).isEqualTo(Map.of("query", "the weather in Paris"));
        assertThat(result.decision()).isInstanceOf(EndSession.class);
        assertThat(result.decision().confirmations()).hasSize(1);
        assertThat(result.results().get(3).timings().dispatchOffset().orElseThrow())
                .isGreaterThanOrEqualTo(result.results().get(0).timings().completion());
    }

    @Test
    @DisplayName("chinese multi-event utterance: volume and schedule")
    void chineseMultiEvent() {
        BatchResult result = dual("音量调到三十，然后明天下午三点提醒我开会", VolumePlugin.NAME, CalendarPlugin.NAME);
        assertThat(result.results().get(0).arguments()).isEqualTo(Map.of("mode", "absolute", "value", 30));
        assertThat(result.results().get(1).arguments()).containsEntry("title", "开会").containsEntry("time", "15:00");
    }

    @Test
    @DisplayName("a direction without the word volume is still the volume's clause; \"7am\" and \"goodnight\" stay out")
    void directionClauseAmongOthers() {
        // found by examples/parity-gate: the volume resolver read "7" from "7am" and the title kept "and goodnight"
        BatchResult result = dual("turn it down a bit, remind me tomorrow at 7am to feed the cat, and goodnight",
                VolumePlugin.NAME, CalendarPlugin.NAME);
        assertThat(result.results().get(0).arguments()).isEqualTo(Map.of("mode", "relative", "delta", -10));
        assertThat(result.results().get(1).arguments()).containsEntry("title", "feed the cat")
                .containsEntry("time", "07:00");
    }
}
