package io.agentlab.plugins.calendar;

/**
 * Parts of the day. A bare hour is read inside its part: "8 in the evening"/"晚上八点" → 20:00. A part without an hour
 * is never turned into a default time: the resolver asks (docs/plugins.md, calendar.schedule.create).
 */
enum PartOfDay {
    /** 凌晨: small hours; "凌晨十二点半" is 00:30. */
    EARLY_MORNING(false),
    /** morning, 早上, 上午. */
    MORNING(false),
    /** noon, 中午: "中午一点" is 13:00. */
    NOON(true),
    /** afternoon, 下午. */
    AFTERNOON(true),
    /** evening, 傍晚. */
    EVENING(true),
    /** tonight, night, 晚上, 今晚: "晚上十二点" is midnight. */
    NIGHT(true);

    private final boolean afternoonHours;

    PartOfDay(boolean afternoonHours) {
        this.afternoonHours = afternoonHours;
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
