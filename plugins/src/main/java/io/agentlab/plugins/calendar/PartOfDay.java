package io.agentlab.plugins.calendar;

import java.time.LocalTime;
import java.util.Optional;

/**
 * Parts of the day and the documented defaults used when no hour is given ("tomorrow morning" → 09:00). A bare hour
 * is read inside its part: "8 in the evening"/"晚上八点" → 20:00.
 */
enum PartOfDay {
    /** 凌晨: small hours; no default, an hour is needed. */
    EARLY_MORNING(null, false),
    /** morning, 早上, 上午: 09:00. */
    MORNING(LocalTime.of(9, 0), false),
    /** noon, 中午: 12:00; "中午一点" is 13:00. */
    NOON(LocalTime.NOON, true),
    /** afternoon, 下午: 15:00. */
    AFTERNOON(LocalTime.of(15, 0), true),
    /** evening, 傍晚: 19:00. */
    EVENING(LocalTime.of(19, 0), true),
    /** tonight, night, 晚上, 今晚: 20:00; "晚上十二点" is midnight. */
    NIGHT(LocalTime.of(20, 0), true);

    private final LocalTime defaultTime;
    private final boolean afternoonHours;

    PartOfDay(LocalTime defaultTime, boolean afternoonHours) {
        this.defaultTime = defaultTime;
        this.afternoonHours = afternoonHours;
    }

    Optional<LocalTime> defaultTime() {
        return Optional.ofNullable(defaultTime);
    }

    /** The 24-hour hour for a 0..12 hour said in this part of the day; 24 is midnight at the end of the day. */
    int hour24(int hour) {
        if (hour == 12) {
            return this == NIGHT || this == EARLY_MORNING ? 24 : 12; // 晚上十二点, 凌晨十二点半: the midnight ahead
        }
        if (afternoonHours && hour < 12 && !(this == NOON && hour >= 11)) {
            return hour + 12;
        }
        return hour;
    }
}
