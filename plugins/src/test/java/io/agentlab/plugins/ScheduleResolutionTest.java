package io.agentlab.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.plugins.calendar.CalendarPlugin;
import io.agentlab.plugins.calendar.InMemoryCalendar;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * calendar.schedule.create resolved from English and Chinese through the real kernel (dual_agent). The request is
 * captured on Monday 2026-11-30 at 08:00 in Asia/Shanghai unless a test says otherwise.
 */
class ScheduleResolutionTest {

    private static InMemoryCalendar calendar;
    private static Harness harness;

    @BeforeAll
    static void start() {
        calendar = new InMemoryCalendar();
        harness = new Harness(new CalendarPlugin(calendar));
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    /** Columns: utterance | date | time | title | recurrence | reminder; date "?" = clarification whose question contains the time column. */
    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("utterance → normalized schedule or one focused question")
    @CsvSource(delimiter = '|', quoteCharacter = '"', nullValues = "-", textBlock = """
            remind me tomorrow at 3pm to call mom                  | 2026-12-01 | 15:00 | call mom             | -                  | -
            tomorrow morning remind me to water the plants          | ?          | What time         |              |                    |
            remind me in 2 hours to take out the trash              | 2026-11-30 | 10:00 | take out the trash   | -                  | -
            remind me in 30 minutes to check the oven               | 2026-11-30 | 08:30 | check the oven       | -                  | -
            remind me in an hour to stretch                         | 2026-11-30 | 09:00 | stretch              | -                  | -
            remind me in half an hour to check the laundry          | 2026-11-30 | 08:30 | check the laundry    | -                  | -
            next Friday at 3pm dentist appointment                  | 2026-12-11 | 15:00 | dentist appointment  | -                  | -
            on Friday at 3pm dentist appointment                    | 2026-12-04 | 15:00 | dentist appointment  | -                  | -
            add a meeting with Bob tonight                          | ?          | What time         |              |                    |
            remind me tonight at 9 to take my medicine              | 2026-11-30 | 21:00 | take my medicine     | -                  | -
            remind me at 7:30am to go jogging                       | 2026-12-01 | 07:30 | go jogging           | -                  | -
            every Monday at 9am team standup                        | 2026-11-30 | 09:00 | team standup         | FREQ=WEEKLY;BYDAY=MO | -
            remind me every day at 8pm to practice piano            | 2026-11-30 | 20:00 | practice piano       | FREQ=DAILY         | -
            remind me to stretch every weekday at 10am              | 2026-11-30 | 10:00 | stretch              | FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR | -
            remind me every Tuesday and Thursday at 6pm to go to the gym | 2026-12-01 | 18:00 | go to the gym | FREQ=WEEKLY;BYDAY=TU,TH | -
            every month on the 1st at 9am pay bills                 | 2026-12-01 | 09:00 | pay bills            | FREQ=MONTHLY       | -
            schedule a haircut on December 5 at 11am                | 2026-12-05 | 11:00 | haircut              | -                  | -
            add lunch with Anna on the 15th at noon                 | 2026-12-15 | 12:00 | lunch with anna      | -                  | -
            remind me on the 31st at 9am to pay the cleaner         | 2026-12-31 | 09:00 | pay the cleaner      | -                  | -
            remind me the day after tomorrow at 6pm to pay rent     | 2026-12-02 | 18:00 | pay rent             | -                  | -
            remind me at 3pm tomorrow to call grandma and remind me 10 minutes before | 2026-12-01 | 15:00 | call grandma | - | 10
            dentist next Tuesday at 4:30 pm, remind me 30 minutes before | 2026-12-08 | 16:30 | dentist           | -                  | 30
            yoga class tomorrow at 6pm, an hour before              | 2026-12-01 | 18:00 | yoga class           | -                  | 60
            remind me to call dad at 21:00                          | 2026-11-30 | 21:00 | call dad             | -                  | -
            remind me to call dad at 0:30                           | 2026-12-01 | 00:30 | call dad             | -                  | -
            remind me at midnight to lock the door                  | 2026-12-01 | 00:00 | lock the door        | -                  | -
            remind me this afternoon to buy milk                    | ?          | What time         |              |                    |
            remind me this evening at 7 to call Sam                 | 2026-11-30 | 19:00 | call sam             | -                  | -
            add a reminder for 2026-12-24 at 6pm: christmas dinner  | 2026-12-24 | 18:00 | christmas dinner     | -                  | -
            remind me on 31 December at 11pm to call everyone       | 2026-12-31 | 23:00 | call everyone        | -                  | -
            at half past seven in the evening remind me to feed the cat | 2026-11-30 | 19:30 | feed the cat     | -                  | -
            at quarter to nine tomorrow morning remind me to leave  | 2026-12-01 | 08:45 | leave                | -                  | -
            remind me in 3 days at 10am to water the garden         | 2026-12-03 | 10:00 | water the garden     | -                  | -
            tomorrow at 10 in the morning meeting with the team     | 2026-12-01 | 10:00 | meeting with the team | -                 | -
            remind me at 9 to call the bank                         | ?          | in the morning or |              |                    |
            every Monday at 9                                       | ?          | in the evening    |              |                    |
            meeting with the team tomorrow at 10                    | ?          | 10 in the morning |              |                    |
            remind me tomorrow to buy flowers                       | ?          | What time         |              |                    |
            remind me next week to renew my passport                | ?          | Which day next week |            |                    |
            remind me today at 7am to jog                           | ?          | already passed    |              |                    |
            remind me on February 30 at 9am                         | ?          | does not exist    |              |                    |
            tomorrow at 3pm                                         | ?          | What should the reminder say |   |                    |
            dentist tomorrow at 3pm, remind me 20000 minutes before | ?          | How long before   |              |                    |
            dentist tomorrow at 3pm, remind me 168 hours before     | 2026-12-01 | 15:00 | dentist              | -                  | 10080
            dentist tomorrow at 3pm, remind me 10081 minutes before | ?          | How long before   |              |                    |
            明天早上八点提醒我吃药                                   | 2026-12-01 | 08:00 | 吃药                 | -                  | -
            两小时后提醒我关火                                       | 2026-11-30 | 10:00 | 关火                 | -                  | -
            三十分钟后提醒我收衣服                                   | 2026-11-30 | 08:30 | 收衣服               | -                  | -
            半小时后提醒我喝水                                       | 2026-11-30 | 08:30 | 喝水                 | -                  | -
            一个半小时后提醒我出门                                   | 2026-11-30 | 09:30 | 出门                 | -                  | -
            下周五下午三点看牙医                                     | 2026-12-11 | 15:00 | 看牙医               | -                  | -
            周三上午十点交报告                                       | 2026-12-02 | 10:00 | 交报告               | -                  | -
            后天晚上七点和朋友吃饭                                   | 2026-12-02 | 19:00 | 和朋友吃饭           | -                  | -
            大后天下午两点去医院                                     | 2026-12-03 | 14:00 | 去医院               | -                  | -
            今晚八点半看球赛                                         | 2026-11-30 | 20:30 | 看球赛               | -                  | -
            明晚十点提醒我关窗                                       | 2026-12-01 | 22:00 | 关窗                 | -                  | -
            中午十二点提醒我吃午饭                                   | 2026-11-30 | 12:00 | 吃午饭               | -                  | -
            凌晨两点提醒我看流星雨                                   | 2026-12-01 | 02:00 | 看流星雨             | -                  | -
            晚上十二点提醒我睡觉                                     | 2026-12-01 | 00:00 | 睡觉                 | -                  | -
            下午3:30提醒我接孩子                                     | 2026-11-30 | 15:30 | 接孩子               | -                  | -
            12月25日晚上八点圣诞聚会                                 | 2026-12-25 | 20:00 | 圣诞聚会             | -                  | -
            下个月5号上午十点体检                                    | 2026-12-05 | 10:00 | 体检                 | -                  | -
            每天晚上九点提醒我刷牙                                   | 2026-11-30 | 21:00 | 刷牙                 | FREQ=DAILY         | -
            每天早上七点半提醒我跑步                                 | 2026-12-01 | 07:30 | 跑步                 | FREQ=DAILY         | -
            每周一早上九点开例会                                     | 2026-11-30 | 09:00 | 开例会               | FREQ=WEEKLY;BYDAY=MO | -
            工作日早上七点提醒我起床                                 | 2026-12-01 | 07:00 | 起床                 | FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR | -
            每个月1号上午九点交水电费                                | 2026-12-01 | 09:00 | 交水电费             | FREQ=MONTHLY       | -
            提前十分钟提醒我，明天下午三点开会                        | 2026-12-01 | 15:00 | 开会                 | -                  | 10
            明天下午两点面试，提前半小时提醒我                        | 2026-12-01 | 14:00 | 面试                 | -                  | 30
            明天提醒我买菜                                           | ?          | 几点              |              |                    |
            明天八点叫我起床                                         | ?          | 上午8点还是晚上8点 |             |                    |
            下周提醒我交房租                                         | ?          | 下周哪一天         |             |                    |
            今天早上七点提醒我吃早饭                                  | ?          | 已经过了           |             |                    |
            2月30号上午九点开会                                      | ?          | 日期不存在         |             |                    |
            明天下午三点开会，提前200小时提醒我                        | ?          | 要提前多久         |             |                    |
            明天下午三点开会，提前 1 两个小时提醒我                     | ?          | 1两               |             |                    |
            提前 3 两小时后提醒我开会                                  | ?          | 3两               |             |                    |
            每周一19点开例会                                         | 2026-11-30 | 19:00 | 开例会               | FREQ=WEEKLY;BYDAY=MO | -
            """)
    void resolves(String utterance, String date, String time, String title, String recurrence, Integer reminder) {
        EventResult result = harness.dual(CalendarPlugin.NAME, utterance);
        if ("?".equals(date)) {
            assertThat(result.outcome()).as("%s: %s", utterance, result.outcome())
                    .isInstanceOfSatisfying(NeedsClarification.class,
                            clarification -> assertThat(clarification.question()).contains(time));
            return;
        }
        assertThat(result.outcome()).as("%s: %s", utterance, result.outcome()).isInstanceOf(Succeeded.class);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("title", title);
        expected.put("timezone", "Asia/Shanghai");
        if (recurrence != null) {
            expected.put("recurrence", recurrence);
        }
        if (reminder != null) {
            expected.put("reminder_minutes_before", reminder);
        }
        expected.put("date", date);
        expected.put("time", time);
        assertThat(result.arguments()).as(utterance).isEqualTo(expected);
    }

    @Test
    @DisplayName("the schema's reminder bound is the resolver's: one week, 10080 minutes")
    void reminderBoundInTheSchema() {
        assertThat(new CalendarPlugin().definition().argumentsSchema())
                .contains("\"reminder_minutes_before\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":10080}");
    }

    @Test
    @DisplayName("a needs-clarification result creates no calendar entry")
    void clarificationHasNoSideEffect() {
        int before = calendar.calls().size();
        assertThat(harness.dual(CalendarPlugin.NAME, "remind me at 9 to call the bank").outcome())
                .isInstanceOf(NeedsClarification.class);
        assertThat(calendar.calls()).hasSize(before);
    }

    // ------------------------------------------------------------------ DST and boundaries

    private static Map<String, Object> resolved(String utterance, String instant, String zone) {
        EventResult result = harness.dual(CalendarPlugin.NAME, utterance, Instant.parse(instant), ZoneId.of(zone));
        assertThat(result.outcome()).as("%s: %s", utterance, result.outcome()).isInstanceOf(Succeeded.class);
        return result.arguments();
    }

    @Test
    @DisplayName("DST spring forward: 'in 2 hours' is elapsed time (01:30 CET + 2 h = 04:30 CEST)")
    void springForwardElapsed() {
        assertThat(resolved("remind me in 2 hours to check the boiler", "2027-03-28T00:30:00Z", "Europe/Berlin"))
                .containsEntry("date", "2027-03-28").containsEntry("time", "04:30");
    }

    @Test
    @DisplayName("DST spring forward: a local time inside the gap moves forward by the gap (02:30 → 03:30)")
    void springForwardGap() {
        assertThat(resolved("tomorrow at 2:30am remind me to feed the fish", "2027-03-27T11:00:00Z", "Europe/Berlin"))
                .containsEntry("date", "2027-03-28").containsEntry("time", "03:30");
    }

    @Test
    @DisplayName("DST fall back: 'in 3 hours' from 00:30 CEST lands on the repeated 02:30 (CET): a local time cannot say "
            + "which 02:30, so it is asked about; 'in 2 hours' lands on the first 02:30 and executes")
    void fallBackElapsed() {
        EventResult repeated = harness.dual(CalendarPlugin.NAME, "remind me in 3 hours to sleep",
                Instant.parse("2027-10-30T22:30:00Z"), ZoneId.of("Europe/Berlin"));
        assertThat(repeated.outcome()).isInstanceOfSatisfying(NeedsClarification.class,
                question -> assertThat(question.question()).contains("02:30 happens twice"));
        assertThat(resolved("remind me in 2 hours to sleep", "2027-10-30T22:30:00Z", "Europe/Berlin"))
                .containsEntry("date", "2027-10-31").containsEntry("time", "02:30");
    }

    @Test
    @DisplayName("midnight, month and year boundaries")
    void boundaries() {
        // 23:30 on New Year's Eve in Shanghai
        assertThat(resolved("remind me tomorrow at 9am to go running", "2026-12-31T15:30:00Z", "Asia/Shanghai"))
                .containsEntry("date", "2027-01-01").containsEntry("time", "09:00");
        assertThat(resolved("remind me in 2 hours to text Lee", "2026-12-31T15:30:00Z", "Asia/Shanghai"))
                .containsEntry("date", "2027-01-01").containsEntry("time", "01:30");
        assertThat(resolved("两小时后提醒我放烟花", "2026-12-31T15:30:00Z", "Asia/Shanghai"))
                .containsEntry("date", "2027-01-01").containsEntry("time", "01:30");
        // 22:00 on 28 February 2026 (not a leap year)
        assertThat(resolved("remind me tomorrow at 8am to call the plumber", "2026-02-28T14:00:00Z", "Asia/Shanghai"))
                .containsEntry("date", "2026-03-01");
        // December 5 already passed → next year's
        assertThat(resolved("remind me on December 5 at 10am to renew insurance", "2026-12-10T02:00:00Z",
                "Asia/Shanghai")).containsEntry("date", "2027-12-05");
        // the same utterance in another zone resolves against that zone's clock
        assertThat(resolved("remind me tomorrow at 9am to go running", "2026-12-31T15:30:00Z", "America/New_York"))
                .containsEntry("date", "2027-01-01").containsEntry("timezone", "America/New_York");
    }
}
