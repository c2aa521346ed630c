"""Words shared by the built-in resolvers: numbers in English and Chinese, the user's language, and the split of an
utterance into clauses, each owned by the event it concerns (docs/plugins.md#two-requests-stay-two)."""

import re

_FULLWIDTH = str.maketrans("０１２３４５６７８９％：", "0123456789%:")

EN_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
           "ninety": 90}
ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}

EN_NUMBER = (r"(?:\d+(?:\.\d+)?|(?:a |one )?hundred|(?:%s)(?:[- ](?:%s))?|%s)"
             % ("|".join(EN_TENS), "|".join(k for k in EN_UNITS if EN_UNITS[k] < 10 and k != "zero"),
                "|".join(sorted(EN_UNITS, key=len, reverse=True))))
ZH_NUMBER = r"(?:[0-9]+|[零〇一二两三四五六七八九十百]+)"


def normalize_width(text):
    return text.translate(_FULLWIDTH)


def is_chinese(text):
    return re.search(r"[\u4e00-\u9fff]", text) is not None


def en_number(word):
    """An English number (digits or words, up to a hundred); None when it is none."""
    word = word.strip().lower()
    if re.fullmatch(r"\d+", word):
        return int(word)
    if re.fullmatch(r"\d+\.\d+", word):
        value = float(word)
        return int(value) if value.is_integer() else value
    if word in ("hundred", "a hundred", "one hundred"):
        return 100
    if word in EN_UNITS:
        return EN_UNITS[word]
    m = re.fullmatch(r"(%s)(?:[- ](\w+))?" % "|".join(EN_TENS), word)
    if m:
        unit = m.group(2)
        if unit is None:
            return EN_TENS[m.group(1)]
        if unit in EN_UNITS and 0 < EN_UNITS[unit] < 10:
            return EN_TENS[m.group(1)] + EN_UNITS[unit]
    return None


def zh_number(text):
    """A Chinese number (digits or characters, up to 999); None when it is none."""
    text = normalize_width(text.strip())
    if re.fullmatch(r"[0-9]+", text):
        return int(text)
    if not text or re.fullmatch(r"[零〇一二两三四五六七八九十百]+", text) is None:
        return None
    total = 0
    current = None
    for ch in text:
        if ch in ZH_DIGITS:
            current = ZH_DIGITS[ch] if current is None else current * 10 + ZH_DIGITS[ch]
        elif ch == "十":
            total += (1 if current is None else current) * 10
            current = None
        elif ch == "百":
            total += (1 if current is None else current) * 100
            current = None
    if current is not None:
        # 二百五 is 250, 一百零五 105
        if text.endswith(tuple(ZH_DIGITS)) and "百" in text and "十" not in text and "零" not in text \
                and len(text) >= 3 and text[-2] == "百":
            current *= 10
        total += current
    return total


def number(text):
    """A number in either language, or a percentage ("30%", "百分之三十"); None when it is none."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text
    if isinstance(text, float):
        return int(text) if text.is_integer() else text
    if not isinstance(text, str):
        return None
    t = normalize_width(text).strip().lower()
    t = re.sub(r"^\+", "", t)
    m = re.fullmatch(r"百分之(.+)", t)
    if m:
        return zh_number(m.group(1))
    t = re.sub(r"\s*(%|percent|per cent|个百分点|个点)$", "", t)
    sign = 1
    if t.startswith("-"):
        sign, t = -1, t[1:].strip()
    value = en_number(t)
    if value is None:
        value = zh_number(t)
    return None if value is None else sign * value


# --- clauses -------------------------------------------------------------------------------------------------

_WEEKDAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|" \
            r"fridays|saturdays|sundays)"
_EN_SPLIT = re.compile(
    r"\s*(?:[,;!?]+\s*(?:and then|and|then)?|\band then\b|\bthen\b|\band\b(?!\s+(?:a\s+half|twenty|thirty|forty|"
    r"fifty|\d+\s*minutes?|a\s+quarter)))\s*", re.I)
_ZH_SPLIT = re.compile(r"\s*(?:[，,。；;！!？?]+|然后|还有|并且)\s*")

OWNER_PATTERNS = {
    "volume": re.compile(
        r"\b(volume|sound|louder|quieter|softer|loud|quiet|mute|unmute|silence|noisy|can'?t hear)\b|"
        r"\b(turn|crank|bump|pump|drop|bring|knock)\b.*\b(up|down)\b|音量|声音|大声|小声|静音|太吵|太响|听不见|调高|调低|"
        r"调大|调小|开大|关小", re.I),
    "calendar": re.compile(
        r"\b(remind|reminder|reminders|schedule|appointment|calendar|alarm|don'?t let me forget)\b|提醒|日程|别让我忘|"
        r"闹钟|题型", re.I),
    "search": re.compile(
        r"\b(search|look up|look it up|google|find out|who is|who's|what is|what's|weather|news)\b|查|搜|天气|"
        r"我想知道|告诉我", re.I),
    "farewell": re.compile(
        r"\b(good\s*bye|bye|good night|goodnight|see you|that's all|talk later)\b|拜拜|再见|晚安|下次再聊", re.I),
}
OWNER_ORDER = ["calendar", "volume", "search", "farewell"]


def split_clauses(text):
    """The utterance's clauses, in order, without the separators."""
    text = normalize_width(text)
    parts = []
    for piece in _ZH_SPLIT.split(text):
        if is_chinese(piece) and not re.search(r"[A-Za-z]{3,}", piece):
            parts.append(piece)
        else:
            parts.extend(_split_en(piece))
    return [p.strip(" .") for p in parts if p and p.strip(" .")]


def _split_en(text):
    out = []
    last = 0
    for m in _EN_SPLIT.finditer(text):
        if m.start() == m.end():
            continue
        before = text[last:m.start()]
        after = text[m.end():]
        # "Tuesday and Thursday" stays one list
        if re.search(_WEEKDAYS + r"\s*$", before, re.I) and re.match(r"\s*(?:on\s+)?" + _WEEKDAYS, after, re.I):
            continue
        out.append(before)
        last = m.end()
    out.append(text[last:])
    return out


def owner(clause):
    """Which event family a clause names by its own words (None: it continues the previous clause)."""
    hits = [name for name in OWNER_ORDER if OWNER_PATTERNS[name].search(clause)]
    if not hits:
        return None
    if "calendar" in hits:
        return "calendar"
    return hits[0]


def owned_clauses(text, family):
    """The clauses of ``text`` that belong to ``family``: those naming it, and the unnamed ones that follow them.

    When no clause names the family, every clause that names no other family is taken instead, as one request."""
    clauses = split_clauses(text)
    owners = []
    current = None
    for clause in clauses:
        own = owner(clause)
        if own is not None:
            current = own
        owners.append(current)
    mine = [c for c, o in zip(clauses, owners) if o == family]
    if mine:
        return mine, True
    return [c for c, o in zip(clauses, owners) if o is None], False
