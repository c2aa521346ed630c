"""calendar.schedule.create (docs/design.md#plugin-schedule-create .. #plugin-schedule-port; docs/plugins.md).

Policy template_follow_up (a deterministic confirmation, no model call), side-effecting, never retried, timeout 5 s.
The resolver reads the calendar clause(s) of the utterance, English or Chinese, against the turn's captured request
instant and the session's zone. It covers a subset of the phrase forms docs/plugins.md lists (README.md names which);
what it does not understand it asks about, and it never guesses a bare hour's half of the day.
"""

import datetime as dt
import re
from zoneinfo import ZoneInfo

from . import text as T
from .kernel import Definition, HandlerFailure, Resolution, TEMPLATE_FOLLOW_UP

NAME = "calendar.schedule.create"
DESCRIPTION = "Add a reminder or calendar entry at a date and time, optionally repeating."
SCHEMA = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 1, "maxLength": 200, "description": "what to remember"},
        "date": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "local date YYYY-MM-DD"},
        "time": {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$",
                 "description": "local time HH:MM, 24h"},
        "timezone": {"type": "string", "minLength": 1, "description": "IANA timezone, e.g. Asia/Shanghai"},
        "recurrence": {"type": "string",
                       "pattern": "^FREQ=(DAILY|WEEKLY|MONTHLY|YEARLY)"
                                  "(;BYDAY=(MO|TU|WE|TH|FR|SA|SU)(,(MO|TU|WE|TH|FR|SA|SU))*)?$",
                       "description": "RRULE subset, e.g. FREQ=WEEKLY;BYDAY=MO"},
        "reminder_minutes_before": {"type": "integer", "minimum": 0, "maximum": 10080},
    },
    "required": ["title", "date", "time", "timezone"],
    "additionalProperties": False,
}

EN_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RR_DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
ZH_DAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": None}
EN_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
             "november", "december"]

Q = {
    "when": {"en": "When should I remind you?", "zh": "要在什么时候提醒你？"},
    "time": {"en": "What time should I set it for?", "zh": "要设在几点呢？"},
    "day": {"en": "Which day should I set it for?", "zh": "要设在哪一天呢？"},
    "title": {"en": "What should I remind you of?", "zh": "要提醒你什么呢？"},
    "ampm": {"en": "Is that %d in the morning or %d in the evening?", "zh": "是上午%d点还是晚上%d点？"},
    "passed": {"en": "That time has already passed today — when should I set it for?",
               "zh": "今天这个时间已经过了——要设在什么时候？"},
    "part": {"en": "I didn't catch the \"%s\" part — could you say again when and what to remind you of?",
             "zh": "“%s”这部分我没听明白——能再说一下什么时候提醒你什么吗？"},
    "many": {"en": "I heard more than one reminder there — could you give them to me one at a time?",
             "zh": "我听到了不止一个提醒——能一个一个告诉我吗？"},
    "repeat": {"en": "How often should it repeat? I can do every day, every week, every month or every year.",
               "zh": "要多久重复一次？我可以设置每天、每周、每月或每年。"},
    "date": {"en": "That date does not exist — which day did you mean?", "zh": "这个日期不存在——你指的是哪一天？"},
}

N = T.EN_NUMBER
ZN = T.ZH_NUMBER


class Facts:
    """What one request's words say."""

    def __init__(self, lang):
        self.lang = lang
        self.date = None          # a date
        self.day_said = False
        self.weekday = None       # (weekday, "this"|"next")
        self.time = None          # (h, m)
        self.bare_hour = None     # an hour 1..12 with no half of the day
        self.part = None          # "am" | "pm" | "noon" | "night"
        self.offset = None        # dt.timedelta (elapsed)
        self.recurrence = None
        self.reminder = None
        self.title = ""
        self.question = None
        self.spans = []

    @property
    def has_time(self):
        return self.time is not None or self.bare_hour is not None or self.offset is not None

    def ask(self, key, *values):
        if self.question is None:
            text = Q[key][self.lang]
            self.question = text % values if values else text


def _cut(text, m, facts):
    """Removes a matched span from the working text (keeps positions stable with spaces)."""
    facts.spans.append(m.group(0))
    return text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]


def _en_num(word):
    word = word.strip()
    if word in ("a", "an", "one"):
        return 1
    return T.en_number(word)


# --- English -------------------------------------------------------------------------------------------------

def _english(text, now, facts):
    t = " " + T.normalize_width(text).lower() + " "
    t = re.sub(r"\btomm?or+ow\b|\btmrw\b|\bto morrow\b", "tomorrow", t)
    t = re.sub(r"\bwensday\b", "wednesday", t)
    t = re.sub(r"(\d)\s*p\.?\s?m\b\.?", r"\1pm", t)
    t = re.sub(r"(\d)\s*a\.?\s?m\b\.?", r"\1am", t)
    t = re.sub(r"\b(%s)\s+(a\.?\s?m|p\.?\s?m)\b\.?" % "|".join(T.EN_UNITS),
               lambda m: str(T.EN_UNITS[m.group(1)]) + m.group(2).replace(".", "").replace(" ", ""), t)
    t = re.sub(r"\bat (\d{1,2}) (\d{2})\b", r"at \1:\2", t)
    t = re.sub(r"\bat for pm\b", "at 4pm", t)
    t = re.sub(r"(\d(?:am|pm)?|\b(?:am|pm|noon|midnight|tomorrow|today|tonight)) (?:too|two) (?=[a-z]{3,})",
               r"\1 to ", t)
    # reminders
    m = re.search(r"\b(%s|an?|half an?)\s*(minutes?|mins?|hours?|hrs?)\s+(?:before|ahead|early|in advance)\b" % N, t)
    if m:
        amount = 0.5 if m.group(1).startswith("half") else _en_num(m.group(1))
        facts.reminder = int(amount * (60 if m.group(2).startswith("h") else 1)) if amount is not None else None
        t = _cut(t, m, facts)
    # recurrence
    if re.search(r"\bevery (?:other|second|two|three|\d+)\b|\bbiweekly\b", t):
        facts.ask("repeat")
    m = re.search(r"\bevery weekday\b|\b(?:on )?weekdays\b", t)
    if m:
        facts.recurrence = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        t = _cut(t, m, facts)
    days = r"(?:%s)" % "|".join(EN_DAYS)
    m = re.search(r"\b(?:every|on) (%ss?(?:(?:,| and|, and) %ss?)*)\b" % (days, days), t)
    if m and (m.group(0).startswith("every") or re.search(days + "s\\b", m.group(1))):
        named = [EN_DAYS.index(d) for d in re.findall(days, m.group(1))]
        facts.recurrence = "FREQ=WEEKLY;BYDAY=" + ",".join(RR_DAYS[d] for d in sorted(set(named)))
        facts.weekday = ("every", sorted(set(named)))
        t = _cut(t, m, facts)
    m = re.search(r"\bevery (day|morning|evening|night)\b|\bdaily\b|\beach day\b", t)
    if m:
        facts.recurrence = "FREQ=DAILY"
        if m.group(1) == "morning":
            facts.part = "am"
        elif m.group(1) in ("evening", "night"):
            facts.part = "pm"
        t = _cut(t, m, facts)
    for pattern, rule in ((r"\bevery week\b|\bweekly\b", "FREQ=WEEKLY"),
                          (r"\bevery month\b|\bmonthly\b", "FREQ=MONTHLY"),
                          (r"\bevery year\b|\byearly\b|\bannually\b", "FREQ=YEARLY")):
        m = re.search(pattern, t)
        if m:
            facts.recurrence = facts.recurrence or rule
            t = _cut(t, m, facts)
    # vague times
    m = re.search(r"\b(?:later(?: today)?|sometime|some time|in a bit|in a while|in a (?:couple|few) (?:of )?"
                  r"(?:hours|minutes)|soon)\b", t)
    if m:
        facts.ask("time")
        t = _cut(t, m, facts)
    # elapsed offsets
    unit = r"(hours?|hrs?|minutes?|mins?)"
    m = re.search(r"\bin (?:(%s|an?|half an?|a quarter of an?)(?: and a (half|quarter))? %s)"
                  r"(?:(?: and|,)? (%s|an?|a quarter of an?) %s)?\b" % (N, unit, N, unit), t)
    if m:
        total = 0.0
        for amount, extra, u in ((m.group(1), m.group(2), m.group(3)), (m.group(4), None, m.group(5))):
            if amount is None:
                continue
            if amount.startswith("half"):
                value = 0.5
            elif amount.startswith("a quarter"):
                value = 0.25
            else:
                value = _en_num(amount)
            if value is None:
                continue
            if extra == "half":
                value += 0.5
            elif extra == "quarter":
                value += 0.25
            total += value * (60 if u.startswith("h") else 1)
        facts.offset = dt.timedelta(minutes=total)
        t = _cut(t, m, facts)
    # days
    today = now.date()
    m = re.search(r"\bthe day after tomorrow\b", t)
    if m:
        facts.date, facts.day_said = today + dt.timedelta(days=2), True
        t = _cut(t, m, facts)
    m = re.search(r"\btomorrow(?: (morning|afternoon|evening|night))?\b", t)
    if m:
        facts.date, facts.day_said = today + dt.timedelta(days=1), True
        if m.group(1):
            facts.part = "am" if m.group(1) == "morning" else "pm"
        t = _cut(t, m, facts)
    m = re.search(r"\btonight\b|\bthis (morning|afternoon|evening)\b", t)
    if m:
        facts.date, facts.day_said = today, True
        facts.part = "am" if m.group(1) == "morning" else "pm"
        facts.explicit_today = True
        t = _cut(t, m, facts)
    m = re.search(r"\btoday\b", t)
    if m:
        facts.date, facts.day_said = today, True
        facts.explicit_today = True
        t = _cut(t, m, facts)
    m = re.search(r"\bin (%s|a) (days?|weeks?)\b" % N, t)
    if m:
        count = _en_num(m.group(1))
        if count is not None:
            facts.date = today + dt.timedelta(days=int(count) * (7 if m.group(2).startswith("w") else 1))
            facts.day_said = True
            t = _cut(t, m, facts)
    m = re.search(r"\b(?:on |this |next |coming )*(%s)\b" % days, t)
    if m and facts.weekday is None:
        wd = EN_DAYS.index(m.group(1))
        facts.weekday = ("next" if "next" in m.group(0) else "this", [wd])
        facts.day_said = True
        t = _cut(t, m, facts)
    months = "|".join(EN_MONTHS) + "|" + "|".join(mo[:3] for mo in EN_MONTHS) + "|sept"
    m = re.search(r"\b(?:on )?(%s)\.? (\d{1,2})(?:st|nd|rd|th)?\b" % months, t) or \
        re.search(r"\b(?:on )?(?:the )?(\d{1,2})(?:st|nd|rd|th)? (?:of )?(%s)\b" % months, t)
    if m:
        a, b = m.group(1), m.group(2)
        month_word, day = (a, b) if not a.isdigit() else (b, a)
        month = [i for i, mo in enumerate(EN_MONTHS) if mo.startswith(month_word[:3])][0] + 1
        facts.date = _month_day(today, month, int(day), facts)
        facts.day_said = True
        t = _cut(t, m, facts)
    m = re.search(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", t)
    if m:
        try:
            facts.date = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            facts.ask("date")
        facts.day_said = True
        t = _cut(t, m, facts)
    m = re.search(r"\bon the (\d{1,2})(?:st|nd|rd|th)\b", t)
    if m:
        facts.date = _day_of_month(today, int(m.group(1)), facts)
        facts.day_said = True
        t = _cut(t, m, facts)
    m = re.search(r"\bnext (?:week|month|year)\b|\bthis weekend\b|\bthe weekend\b|\bend of the (?:month|week)\b", t)
    if m:
        facts.ask("day")
        t = _cut(t, m, facts)
    # parts of the day said alone
    m = re.search(r"\bin the (morning|afternoon|evening)\b|\bat night\b", t)
    if m:
        facts.part = "am" if m.group(1) == "morning" else "pm"
        t = _cut(t, m, facts)
    # times
    m = re.search(r"\b(?:at )?(half|(?:a )?quarter) (past|to) (%s|noon|midnight)\b(?: ?(am|pm))?" % N, t)
    if m:
        base = {"noon": 12, "midnight": 0}.get(m.group(3), _en_num(m.group(3)))
        minutes = 30 if m.group(1) == "half" else 15
        if base is not None:
            h, mi = (base, minutes) if m.group(2) == "past" else ((base - 1) % 24, 60 - minutes)
            if m.group(3) in ("noon", "midnight"):
                facts.time = (h % 24, mi)
            else:
                _hour(facts, h if m.group(2) == "past" else base - 1 if base > 1 else 12, mi, m.group(4))
            t = _cut(t, m, facts)
    if facts.time is None and facts.bare_hour is None:
        m = re.search(r"\b(?:at )?(\d{1,2}):(\d{2}) ?(am|pm)?\b", t)
        if m:
            h, mi = int(m.group(1)), int(m.group(2))
            if h > 23 or mi > 59:
                facts.ask("part", m.group(0).strip())
            elif m.group(3) or (h <= 12 and not m.group(1).startswith("0") and h != 0):
                _hour(facts, h, mi, m.group(3))
            else:
                facts.time = (h, mi)
            t = _cut(t, m, facts)
    if facts.time is None and facts.bare_hour is None:
        m = re.search(r"\b(?:at )?(%s) ?(am|pm)\b" % N, t) or re.search(r"\b(?:at )?(\d{1,2})(am|pm)\b", t)
        if m:
            h = _en_num(m.group(1))
            if h is not None and 1 <= h <= 12:
                _hour(facts, h, 0, m.group(2))
                t = _cut(t, m, facts)
    if facts.time is None and facts.bare_hour is None:
        m = re.search(r"\b(?:at )?(noon|midday|midnight)\b", t)
        if m:
            if m.group(1) == "midnight":
                facts.time = (0, 0)
                facts.midnight = True
            else:
                facts.time = (12, 0)
            t = _cut(t, m, facts)
    if facts.time is None and facts.bare_hour is None:
        m = re.search(r"\bat (%s)(?: o'?clock)?\b" % N, t) or re.search(r"\b(%s) o'?clock\b" % N, t)
        if m:
            h = _en_num(m.group(1))
            if h is not None and 0 <= h <= 23:
                _hour(facts, h, 0, None)
                t = _cut(t, m, facts)
    return t


def _hour(facts, h, mi, ampm):
    """An hour with its half of the day, or a bare one to ask about (resolved with a part of the day later)."""
    if ampm == "pm":
        facts.time = ((h % 12) + 12, mi)
    elif ampm == "am":
        facts.time = (h % 12, mi)
    elif h == 0 or h > 12:
        facts.time = (h, mi)
    else:
        facts.bare_hour = (h, mi)


def _month_day(today, month, day, facts):
    for year in (today.year, today.year + 1):
        try:
            candidate = dt.date(year, month, day)
        except ValueError:
            facts.ask("date")
            return None
        if candidate >= today:
            return candidate
    return None


def _day_of_month(today, day, facts):
    year, month = today.year, today.month
    for _ in range(2):
        try:
            candidate = dt.date(year, month, day)
            if candidate >= today:
                return candidate
        except ValueError:
            facts.ask("date")
            return None
        month += 1
        if month > 12:
            year, month = year + 1, 1
    return None


# --- Chinese -------------------------------------------------------------------------------------------------

def _zh_num(s):
    if s == "半":
        return 0.5
    if re.fullmatch(r"[0-9]+\.[0-9]+", s or ""):
        return float(s)
    return T.zh_number(s)


def _chinese(text, now, facts):
    t = T.normalize_width(text)
    t = re.sub(r"\s+", "", t).replace("题型", "提醒")
    today = now.date()
    m = re.search(r"提前(%s|半)个?(分钟|小时|钟头)(提醒我?)?" % ZN, t) or re.search(r"(%s)分钟前提醒我?" % ZN, t)
    if m:
        amount = _zh_num(m.group(1))
        hours = m.lastindex >= 2 and m.group(2) in ("小时", "钟头")
        facts.reminder = int(amount * (60 if hours else 1)) if amount is not None else None
        t = _cut(t, m, facts)
    if re.search(r"每隔|每两|每三", t):
        facts.ask("repeat")
    m = re.search(r"工作日|每个?工作日", t)
    if m:
        facts.recurrence = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        t = _cut(t, m, facts)
    m = re.search(r"每(?:周|星期|礼拜)([一二三四五六日天](?:[和、,]?(?:周|星期)?[一二三四五六日天])*)", t)
    if m:
        named = sorted({ZH_DAYS[c] for c in re.findall(r"[一二三四五六日天]", m.group(1))})
        facts.recurrence = "FREQ=WEEKLY;BYDAY=" + ",".join(RR_DAYS[d] for d in named)
        facts.weekday = ("every", named)
        t = _cut(t, m, facts)
    m = re.search(r"每天|每日|每晚|每天晚上|每天早上", t)
    if m:
        facts.recurrence = "FREQ=DAILY"
        if "晚" in m.group(0):
            facts.part = "pm"
        t = _cut(t, m, facts)
    for pattern, rule in ((r"每周|每星期|每个?礼拜", "FREQ=WEEKLY"), (r"每个?月", "FREQ=MONTHLY"), (r"每年", "FREQ=YEARLY")):
        m = re.search(pattern, t)
        if m:
            facts.recurrence = facts.recurrence or rule
            t = _cut(t, m, facts)
    m = re.search(r"过几个小时|几个小时后|待会儿?|回头|找个时间|过一会儿?|一会儿", t)
    if m:
        facts.ask("time")
        t = _cut(t, m, facts)
    # elapsed offsets
    ZD = r"(?:[0-9]+\.[0-9]+|%s)" % ZN
    m = re.search(r"(?:过)?(%s|半)(个半)?(?:个)?(小时|钟头)(?:(%s)分钟?)?(?:后|以后|之后)" % (ZD, ZN), t) or \
        re.search(r"过(%s|半)(个半)?(?:个)?(小时|钟头)(?:(%s)分钟?)?" % (ZD, ZN), t)
    if m:
        value = _zh_num(m.group(1)) or 0
        if m.group(2):
            value += 0.5
        minutes = value * 60 + (_zh_num(m.group(4)) or 0 if m.group(4) else 0)
        facts.offset = dt.timedelta(minutes=minutes)
        t = _cut(t, m, facts)
    else:
        m = re.search(r"(%s)分钟(?:后|以后|之后)|一刻钟(?:后|以后|之后)" % ZN, t)
        if m:
            facts.offset = dt.timedelta(minutes=15 if m.group(0).startswith("一刻") else _zh_num(m.group(1)) or 0)
            t = _cut(t, m, facts)
    # days
    for pattern, days, part in ((r"大后天", 3, None), (r"后天", 2, None), (r"明早|明天早上|明天早晨", 1, "am"),
                                (r"明晚|明天晚上", 1, "pm"), (r"明天", 1, None), (r"今晚|今天晚上", 0, "pm"),
                                (r"今早|今天早上", 0, "am"), (r"今天", 0, None)):
        m = re.search(pattern, t)
        if m:
            facts.date, facts.day_said = today + dt.timedelta(days=days), True
            if days == 0:
                facts.explicit_today = True
            if part:
                facts.part = part
            t = _cut(t, m, facts)
            break
    m = re.search(r"(%s)天(?:后|以后|之后)" % ZN, t)
    if m:
        facts.date, facts.day_said = today + dt.timedelta(days=_zh_num(m.group(1)) or 0), True
        t = _cut(t, m, facts)
    m = re.search(r"(下个?)?(?:周|星期|礼拜)([一二三四五六日天])", t)
    if m and facts.weekday is None:
        facts.weekday = ("next" if m.group(1) else "this", [ZH_DAYS[m.group(2)]])
        facts.day_said = True
        t = _cut(t, m, facts)
    m = re.search(r"(%s)月(%s)[日号]" % (ZN, ZN), t)
    if m:
        facts.date = _month_day(today, _zh_num(m.group(1)), _zh_num(m.group(2)), facts)
        facts.day_said = True
        t = _cut(t, m, facts)
    m = re.search(r"下个?月(%s)[日号]" % ZN, t)
    if m:
        month = today.month % 12 + 1
        year = today.year + (1 if month == 1 else 0)
        try:
            facts.date = dt.date(year, month, _zh_num(m.group(1)))
        except (ValueError, TypeError):
            facts.ask("date")
        facts.day_said = True
        t = _cut(t, m, facts)
    m = re.search(r"(%s)[号]" % ZN, t)
    if m and facts.date is None:
        facts.date = _day_of_month(today, _zh_num(m.group(1)), facts)
        facts.day_said = True
        t = _cut(t, m, facts)
    m = re.search(r"下周|这周末|周末", t)
    if m and facts.weekday is None:
        facts.ask("day")
        t = _cut(t, m, facts)
    # parts of the day
    m = re.search(r"凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里", t)
    if m:
        facts.part = {"凌晨": "night", "中午": "noon"}.get(m.group(0),
                                                        "am" if m.group(0) in ("早上", "早晨", "上午") else "pm")
        t = _cut(t, m, facts)
    # times
    m = re.search(r"(%s)[点:：](半|一刻|三刻|(%s)分?|钟|整)?" % (ZN, ZN), t) or re.search(r"(\d{1,2}):(\d{2})", t)
    if m:
        h = _zh_num(m.group(1))
        rest = m.group(2) or ""
        mi = {"半": 30, "一刻": 15, "三刻": 45, "钟": 0, "整": 0, "": 0}.get(rest)
        if mi is None:
            mi = _zh_num(rest.rstrip("分"))
        if h is None or mi is None or h > 24 or mi > 59:
            facts.ask("part", m.group(0))
        else:
            m2 = re.search(r"差(一刻|(%s)分)" % ZN, t[m.end():m.end() + 6])
            if m2:
                back = 15 if m2.group(1) == "一刻" else _zh_num(m2.group(2)) or 0
                h, mi = (h - 1) % 24, 60 - back
            if h == 0 or h > 12:
                facts.time = (h % 24, mi)
            else:
                facts.bare_hour = (h, mi)
        t = _cut(t, m, facts)
    return t


# --- both ----------------------------------------------------------------------------------------------------

_EN_TRIGGERS = (r"\b(?:please |can you |could you |would you |hey |okay |ok |so |um |uh )*"
                r"(?:remind me|set (?:a|an) (?:reminder|alarm)|add (?:a|an) (?:reminder|entry)|"
                r"create (?:a|an) reminder|"
                r"schedule(?: (?:a|an))?|put (?:it|this) (?:in|on) my calendar|don'?t let me forget|make sure i)"
                r"(?: (?:to|that|about|of|for))?\b")
_EN_FILLERS = r"\b(?:um|uh|okay so|please|thanks|thank you|again|also|and|then|just|for me|would you)\b"
_ZH_TRIGGERS = r"别让我忘了|别让我忘记|提醒一下我|提醒我|提醒|帮我|记得|日程|叫我"
_ZH_FILLERS = r"那个|嗯|好的|谢谢|的时候|一下|请|要|在|到时候"


def parse(text, now):
    """Facts of one request's words, read at ``now`` (an aware datetime in the session's zone)."""
    lang = "zh" if T.is_chinese(text) else "en"
    facts = Facts(lang)
    vague = re.search(r"\b(?:about|around|roughly|approximately|or so|ish)\b|左右|大概|大约|差不多",
                      T.normalize_width(text).lower())
    if vague:   # an approximate time is never guessed
        facts.ask("part", vague.group(0))
    rest = _chinese(text, now, facts) if lang == "zh" else _english(text, now, facts)
    if lang == "en":
        title = re.sub(_EN_TRIGGERS, " ", rest)
        title = re.sub(r"\b(?:to|at|on|in|by|for|of)\b(?=\s*$)", " ", title)
        title = re.sub(_EN_FILLERS, " ", title)
        title = re.sub(r"^\s*(?:to|that|about|at|on)\b", " ", title.strip())
        title = re.sub(r"[\s,.!?;:]+", " ", title).strip()
        title = re.sub(r"^(?:to|that|about)\s+", "", title)
    else:
        title = re.sub(_ZH_TRIGGERS, "", rest)
        title = re.sub(_ZH_FILLERS, "", title)
        title = re.sub(r"^(?:我|去提醒)", "", title.strip()) if not title.strip().startswith("我们") else title
        title = re.sub(r"[\s，,。.!！?？、]+", "", title)
    facts.title = title.strip()
    # the safety net: a number or a time word left in the title was not understood
    if lang == "en":
        m = re.search(r"\d+(?::\d+)?|\b(?:tomorrow|today|tonight|morning|evening|afternoon|noon|midnight|o'?clock|"
                      r"am|pm|%s|%s)\b" % ("|".join(EN_DAYS), "|".join(EN_MONTHS)), facts.title)
        if m and not re.search(r"\b(?:take|buy|get|pack|bring|drink|eat|call|read|do|write) \d+\b", facts.title):
            facts.ask("part", m.group(0))
    else:
        m = re.search(r"[0-9]+[点:]|[零一二两三四五六七八九十]+[点时]|明天|今天|后天|早上|晚上|下午|上午|周[一二三四五六日天]", facts.title)
        if m:
            facts.ask("part", m.group(0))
    return facts


def arguments(facts, now, zone, previous=None):
    """The arguments the facts give (only those it is sure of) and the question for what is missing."""
    lang = facts.lang
    out = {"timezone": zone.key}
    if facts.title:
        out["title"] = facts.title
    if facts.question:
        return out, facts.question
    local_now = now.astimezone(zone)
    today = local_now.date()
    if facts.offset is not None:
        if facts.time is not None or facts.bare_hour is not None or facts.day_said:
            facts.ask("part", "in …")
            return out, facts.question
        # added to the request instant, not to the wall clock (Python adds to an aware datetime's wall time)
        at = (now.astimezone(dt.timezone.utc) + facts.offset).astimezone(zone)
        # the later of a repeated hour (a fall-back night) cannot be said as a local date and time
        if getattr(at, "fold", 0) == 1:
            facts.ask("time")
            return out, facts.question
        out["date"], out["time"] = at.date().isoformat(), "%02d:%02d" % (at.hour, at.minute)
        return _finish(out, facts)
    hour = facts.time
    if hour is None and facts.bare_hour is not None:
        h, mi = facts.bare_hour
        if facts.part in ("pm",):
            hour = (h + 12 if h < 12 else h, mi)
        elif facts.part == "am":
            hour = (h % 12, mi)
        elif facts.part == "noon":
            hour = (h + 12 if h < 6 else h, mi) if h != 12 else (12, mi)
        elif facts.part == "night":
            hour = (h % 12, mi)
        else:
            facts.ask("ampm", h, h)
            return out, facts.question
    if facts.date is not None and facts.weekday is not None and facts.weekday[0] != "every":
        facts.ask("day")   # two different days for one request ("tomorrow ... on Friday") are asked about
        return out, facts.question
    if facts.date is None and facts.weekday is None and previous is not None and hour is not None:
        facts.date = previous   # a request naming no day takes the previous request's day
        facts.day_said = True
    if hour is None:
        if facts.part is not None or facts.day_said or facts.recurrence:
            facts.ask("time")
        else:
            facts.ask("when")
        return out, facts.question
    h, mi = hour
    when = dt.time(h % 24, mi)
    if facts.weekday is not None:
        _kind, wanted = facts.weekday
        date = _next_weekday(local_now, wanted, when, facts.weekday[0] == "next")
    elif facts.date is not None:
        date = facts.date
        if getattr(facts, "midnight", False):
            date = date + dt.timedelta(days=1)
        if date == today and dt.datetime.combine(date, when, zone) <= local_now:
            if getattr(facts, "explicit_today", False):
                facts.ask("passed")
                return out, facts.question
    else:
        date = today
        if getattr(facts, "midnight", False) or dt.datetime.combine(today, when, zone) <= local_now:
            date = today + dt.timedelta(days=1)
    if facts.recurrence and facts.recurrence.startswith("FREQ=WEEKLY;BYDAY=") and facts.weekday is None:
        days = [RR_DAYS.index(d) for d in facts.recurrence.split("=")[-1].split(",")]
        date = _next_weekday(local_now, days, when, False)
    local = dt.datetime.combine(date, when, zone)
    moved = local.astimezone(dt.timezone.utc).astimezone(zone)
    if moved.replace(tzinfo=None) != local.replace(tzinfo=None):
        date, when = moved.date(), moved.time()   # a local time in a DST gap moves forward by the gap
    out["date"], out["time"] = date.isoformat(), "%02d:%02d" % (when.hour, when.minute)
    return _finish(out, facts)


def _finish(out, facts):
    if facts.recurrence:
        out["recurrence"] = facts.recurrence
    if facts.reminder is not None:
        out["reminder_minutes_before"] = facts.reminder
    if not facts.title:
        return out, Q["title"][facts.lang]
    return out, None


def _next_weekday(local_now, weekdays, when, next_week):
    today = local_now.date()
    if next_week:
        monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
        return monday + dt.timedelta(days=min(weekdays))
    for ahead in range(0, 8):
        day = today + dt.timedelta(days=ahead)
        if day.weekday() in weekdays and dt.datetime.combine(day, when, local_now.tzinfo) > local_now:
            return day
    return today + dt.timedelta(days=7)


def requests_of(utterance, now):
    """The schedule requests: a clause with its own time starts a new one when the one being read has a time."""
    clauses, _named = T.owned_clauses(utterance, "calendar")
    requests = []
    current_has_time = False
    for clause in clauses:
        has_time = parse(clause, now).has_time
        if not requests or (has_time and current_has_time):
            requests.append(clause)
            current_has_time = has_time
        else:
            joiner = "，" if T.is_chinese(clause) else " "
            requests[-1] = requests[-1] + joiner + clause
            current_has_time = current_has_time or has_time
    return requests


def resolver(inp):
    zone = ZoneInfo(inp.turn.timezone)
    now = inp.turn.now.astimezone(zone)
    requests = requests_of(inp.utterance, now)
    lang = "zh" if T.is_chinese(inp.utterance) else "en"
    if not requests:
        return Resolution(arguments={"timezone": zone.key}, question=Q["when"][lang])
    if len(requests) == inp.occurrences:
        index = inp.occurrence
    elif len(requests) == 1:
        index = 0
    else:
        return Resolution(arguments={"timezone": zone.key}, question=Q["many"][lang],
                          source=("calendar-requests", len(requests)))
    previous = None
    for i in range(index):
        facts = parse(requests[i], now)
        args, _q = arguments(facts, now, zone, previous)
        if "date" in args:
            previous = dt.date.fromisoformat(args["date"])
    facts = parse(requests[index], now)
    args, question = arguments(facts, now, zone, previous)
    return Resolution(arguments=args, source=("calendar", index), question=question)


# --- normalization, validation, handler, confirmation --------------------------------------------------------

def normalizer(arguments):
    out = dict(arguments)
    if isinstance(out.get("title"), str):
        out["title"] = re.sub(r"\s+", " ", out["title"]).strip()
    if isinstance(out.get("date"), str):
        m = re.fullmatch(r"\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s*", out["date"])
        if m:
            out["date"] = "%s-%02d-%02d" % (m.group(1), int(m.group(2)), int(m.group(3)))
    if isinstance(out.get("time"), str):
        raw = out["time"].strip().lower().replace(".", "")
        m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*(am|pm)?", raw)
        if m and (m.group(2) is not None or m.group(3)):
            h, mi = int(m.group(1)), int(m.group(2) or 0)
            if m.group(3) == "pm" and h < 12:
                h += 12
            elif m.group(3) == "am" and h == 12:
                h = 0
            out["time"] = "%02d:%02d" % (h, mi)
    if isinstance(out.get("recurrence"), str):
        rule = out["recurrence"].strip().upper()
        rule = re.sub(r"^RRULE:", "", rule)
        out["recurrence"] = rule or None
    if "reminder_minutes_before" in out and out["reminder_minutes_before"] is not None:
        value = T.number(out["reminder_minutes_before"])
        if value is not None:
            out["reminder_minutes_before"] = value
    if isinstance(out.get("timezone"), str):
        out["timezone"] = out["timezone"].strip()
    return {k: v for k, v in out.items() if v is not None and v != ""}


def validator(arguments):
    found = []
    if isinstance(arguments.get("date"), str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", arguments["date"]):
        try:
            dt.date.fromisoformat(arguments["date"])
        except ValueError:
            found.append(("/date", "is not a calendar date"))
    if isinstance(arguments.get("timezone"), str) and arguments["timezone"]:
        try:
            ZoneInfo(arguments["timezone"])
        except Exception:
            found.append(("/timezone", "is not an IANA time zone"))
    if isinstance(arguments.get("title"), str) and not arguments["title"].strip():
        found.append(("/title", "is blank"))
    return found


_WEEKDAY_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_WEEKDAY_ZH = ["一", "二", "三", "四", "五", "六", "日"]
_MONTH_EN = [m.capitalize() for m in EN_MONTHS]


def confirmation(arguments, payload, locale):
    """The deterministic confirmation in the turn's locale (docs/design.md#plugin-schedule-confirmation)."""
    date = dt.date.fromisoformat((payload or {}).get("date") or arguments["date"])
    time = (payload or {}).get("time") or arguments["time"]
    title = arguments["title"]
    rule = arguments.get("recurrence")
    reminder = arguments.get("reminder_minutes_before")
    if (locale or "en").lower().startswith("zh"):
        text = "好的，已添加日程：%d月%d日（星期%s）%s「%s」" % (date.month, date.day, _WEEKDAY_ZH[date.weekday()],
                                                        time, title)
        if rule:
            text += "，" + _rule_zh(rule)
        if reminder:
            text += "，提前%d分钟提醒" % reminder
        return text + "。"
    text = 'Added "%s" on %s, %s %d at %s' % (title, _WEEKDAY_EN[date.weekday()], _MONTH_EN[date.month - 1],
                                              date.day, time)
    if rule:
        text += ", " + _rule_en(rule)
    if reminder:
        text += ", with a reminder %d minutes before" % reminder
    return text + "."


def _rule_en(rule):
    freq = rule.split(";")[0].split("=")[1]
    if "BYDAY=" in rule:
        days = [_WEEKDAY_EN[RR_DAYS.index(d)] for d in rule.split("BYDAY=")[1].split(",")]
        return "repeating every " + " and ".join(days)
    return {"DAILY": "repeating every day", "WEEKLY": "repeating every week", "MONTHLY": "repeating every month",
            "YEARLY": "repeating every year"}[freq]


def _rule_zh(rule):
    freq = rule.split(";")[0].split("=")[1]
    if "BYDAY=" in rule:
        days = "、".join("周" + _WEEKDAY_ZH[RR_DAYS.index(d)] for d in rule.split("BYDAY=")[1].split(","))
        return "每%s重复" % days
    return {"DAILY": "每天重复", "WEEKLY": "每周重复", "MONTHLY": "每月重复", "YEARLY": "每年重复"}[freq]


def definition(ports):
    def handler(inv):
        a = inv.arguments
        answer = ports.call("/calendar/entries", {
            "sessionId": inv.turn.session_id, "title": a["title"], "date": a["date"], "time": a["time"],
            "timezone": a["timezone"], "recurrence": a.get("recurrence"),
            "reminderMinutesBefore": a.get("reminder_minutes_before"), "idempotencyKey": inv.idempotency_key},
            inv.cancel)
        if "entryId" not in answer:
            raise HandlerFailure("port_bad_answer", "the calendar port answered no entryId")
        payload = {"entry_id": answer.get("entryId"), "title": a["title"], "date": a["date"], "time": a["time"],
                   "timezone": a["timezone"], "start": answer.get("start")}
        start = answer.get("start")
        if isinstance(start, str):
            try:   # the local date and time read back from the stored start, in the entry's zone
                local = dt.datetime.fromisoformat(start).astimezone(ZoneInfo(a["timezone"]))
                payload["date"], payload["time"] = local.date().isoformat(), local.strftime("%H:%M")
            except ValueError:
                pass
        if a.get("recurrence"):
            payload["recurrence"] = a["recurrence"]
        if a.get("reminder_minutes_before") is not None:
            payload["reminder_minutes_before"] = a["reminder_minutes_before"]
        payload["created"] = answer.get("created")
        return payload

    return Definition(NAME, DESCRIPTION, SCHEMA, handler, TEMPLATE_FOLLOW_UP, resolver=resolver, normalizer=normalizer,
                      validator=validator, fallback_allowed=True, timeout_s=5.0, confirmation=confirmation)
