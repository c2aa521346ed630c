"""device.volume.adjust (docs/design.md#plugin-volume-adjust to docs/design.md#plugin-volume-port;
docs/plugins.md#device-volume-adjust).

Policy silent_success, side-effecting, never retried, timeout 3 s, conflict key ``device.volume``. The resolver reads
the volume clause(s) of the utterance in English or Chinese; rules are tried in the order docs/plugins.md lists them,
then a small safety net turns words it did not understand into one question instead of a guessed change.
"""

import re

from . import text as T
from .kernel import Definition, HandlerFailure, Resolution, SILENT_SUCCESS

NAME = "device.volume.adjust"
DESCRIPTION = "Change the device volume: set a level 0-100, turn it up or down, mute or unmute."
SCHEMA = {
    "type": "object",
    "properties": {
        "mode": {"type": "string", "enum": ["absolute", "relative", "mute", "unmute"],
                 "description": "absolute: set to value; relative: change by delta; mute; unmute"},
        "value": {"type": "integer", "minimum": 0, "maximum": 100, "description": "target level for absolute"},
        "delta": {"type": "integer", "minimum": -100, "maximum": 100, "description": "signed change for relative"},
    },
    "required": ["mode"],
    "additionalProperties": False,
}
DEFAULT_STEP = 10
BIG_STEP = 20

Q_WHAT = {"en": "Should I turn the volume up, down, or set it to a level?",
          "zh": "要把音量调高、调低，还是调到某个音量？"}
Q_RANGE = {"en": "I can set the volume between 0 and 100 — which level would you like?",
           "zh": "音量可以设在0到100之间——你想调到多少？"}
Q_PART = {"en": "I didn't catch the \"%s\" part — could you say again how to change the volume?",
          "zh": "“%s”这部分我没听明白——能再说一下要怎么调音量吗？"}
Q_MANY = {"en": "I heard more than one volume change there — could you give them to me one at a time?",
          "zh": "我听到了不止一个音量调整——能一个一个告诉我吗？"}

N = T.EN_NUMBER
ZN = r"(?:百分之)?" + T.ZH_NUMBER
UP_EN = r"(?:up|louder|higher|raise|increase|boost|turn it up|pump it up)"
DOWN_EN = r"(?:down|quieter|softer|lower|decrease|reduce|turn it down)"
UNIT = r"(?:\s*(?:%|percent|per cent|points?|个百分点|个点))?"
UP_ZH = r"(?:调高|调大|开大|提高|加大|增加|升高|往上调|加|大)"
DOWN_ZH = r"(?:调低|调小|关小|降低|减少|减小|往下调|减|小)"


def _lang(text):
    return "zh" if T.is_chinese(text) else "en"


def _num(s):
    return T.number(s)


def resolve_text(text):
    """One request's words -> (arguments, question, span of the words used)."""
    lang = _lang(text)
    t = T.normalize_width(text).lower()
    t = re.sub(r"\s+", " ", t).strip()
    # 1. unmute, then mute
    m = re.search(r"\bunmute\b|\bsound back on\b|\bturn (?:the )?sound (?:back )?on\b|取消静音|打开声音|恢复声音", t)
    if m:
        return {"mode": "unmute"}, None, m.span()
    m = re.search(r"\bmute\b|\bsilence\b|\bturn (?:the )?sound off\b|\bturn off the sound\b|静音|关掉声音|关闭声音", t)
    if m:
        return {"mode": "mute"}, None, m.span()
    # 2. a change with "by"
    m = re.search(r"\bby (?:about |around )?(%s)%s" % (N, UNIT), t)
    if m and (re.search(UP_EN, t) or re.search(DOWN_EN, t)):
        if re.search(r"\bby (?:about|around)\b", t):
            return {}, Q_PART[lang] % m.group(0), m.span()
        up = re.search(r"\b" + UP_EN + r"\b", t) is not None
        down = re.search(r"\b" + DOWN_EN + r"\b", t) is not None
        if up == down:
            return {}, Q_PART[lang] % m.group(0), m.span()
        amount = _num(m.group(1))
        return {"mode": "relative", "delta": _clamp(amount if up else -amount)}, None, m.span()
    # 4. an extreme said as a path
    m = re.search(r"all the way up|as loud as (?:it goes|possible)|as far as it goes|as much as possible|开到头|开到顶|"
                  r"拉满|能开多大开多大|(?:调|开)到最(?:高|大)", t)
    if m:
        return {"mode": "absolute", "value": 100}, None, m.span()
    m = re.search(r"all the way down|as quiet as (?:it goes|possible)|down to nothing|(?:调|开)到最(?:低|小)", t)
    if m:
        return {"mode": "absolute", "value": 0}, None, m.span()
    # 3. a target
    m = re.search(r"(\bfrom (?:%s)%s )?\bto (%s)%s" % (N, UNIT, N, UNIT), t) if lang == "en" else \
        re.search(r"(?:调到|调成|调至|设为|设置为|设成|设置成|开到|调高到|调低到|调大到|调小到|放到)(%s)%s" % (ZN, UNIT), t)
    if m and (lang == "zh" or m.group(1) or re.search(r"\b(volume|sound|set|turn|put|make|it)\b", t)):
        value = _num(m.group(m.lastindex))
        if value is None:
            return {}, Q_WHAT[lang], m.span()
        if not 0 <= value <= 100 or not isinstance(value, int):
            return {"mode": "absolute"}, Q_RANGE[lang], m.span()
        return {"mode": "absolute", "value": value}, None, m.span()
    # 5. a direction with an amount
    if lang == "en":
        m = re.search(r"\b(%s) (%s)%s" % (UP_EN + "|" + DOWN_EN, N, UNIT), t) or \
            re.search(r"\b(%s)%s (%s)\b" % (N, UNIT, UP_EN + "|" + DOWN_EN), t)
        if m:
            words = m.groups()
            direction = words[0] if re.fullmatch(UP_EN + "|" + DOWN_EN, words[0]) else words[1]
            amount = _num(words[1] if direction == words[0] else words[0])
            if amount is not None:
                up = re.fullmatch(UP_EN, direction) is not None
                return {"mode": "relative", "delta": _clamp(amount if up else -amount)}, None, m.span()
    else:
        m = re.search(r"(%s|%s)(%s)%s" % (UP_ZH, DOWN_ZH, T.ZH_NUMBER, UNIT), t)
        if m and m.group(2) not in ("一",):
            amount = _num(m.group(2))
            if amount is not None:
                up = re.fullmatch(UP_ZH, m.group(1)) is not None
                return {"mode": "relative", "delta": _clamp(amount if up else -amount)}, None, m.span()
    # 6. a bare level
    m = re.search(r"\bvolume (?:level )?(%s)(?:\s*(?:%%|percent))?\b" % N, t) or \
        re.fullmatch(r"(%s)\s*(?:%%|percent)" % N, t) or re.search(r"音量(%s)" % ZN, t)
    if m:
        value = _num(m.group(1))
        if isinstance(value, int) and 0 <= value <= 100:
            return {"mode": "absolute", "value": value}, None, m.span()
        return {"mode": "absolute"}, Q_RANGE[lang], m.span()
    # 7. extremes
    m = re.search(r"\b(?:max|maximum|full|loudest)\b|最大|最高", t)
    if m:
        return {"mode": "absolute", "value": 100}, None, m.span()
    m = re.search(r"\b(?:min|minimum|lowest)\b|最小|最低", t)
    if m:
        return {"mode": "absolute", "value": 0}, None, m.span()
    m = re.search(r"\bhalf volume\b|\bhalf\b(?! an?)|一半", t)
    if m and not re.search(r"\bby half\b|调低一半|调小一半|减半", t):
        return {"mode": "absolute", "value": 50}, None, m.span()
    # 8. complaints
    m = re.search(r"\btoo (?:loud|noisy)\b|too much noise|太吵|太响|太大声", t)
    if m:
        return {"mode": "relative", "delta": -DEFAULT_STEP}, None, m.span()
    m = re.search(r"\btoo (?:quiet|soft|low)\b|\bcan'?t hear\b|\bcannot hear\b|听不见|听不清|太小声", t)
    if m:
        return {"mode": "relative", "delta": DEFAULT_STEP}, None, m.span()
    # 9. a direction without an amount
    up = re.search(r"\b" + UP_EN + r"\b|大声|调高|调大|开大|大一点|大点|提高|加大", t)
    down = re.search(r"\b" + DOWN_EN + r"\b|小声|调低|调小|关小|小一点|小点|降低", t)
    if up and down:
        return {}, Q_PART[lang] % (up.group(0) + " … " + down.group(0)), None
    hit = up or down
    if hit:
        step = BIG_STEP if re.search(r"\b(?:a lot|much|way|lots)\b|很多|多一些", t) else DEFAULT_STEP
        return {"mode": "relative", "delta": step if up else -step}, None, hit.span()
    return {}, Q_WHAT[lang], None


def _clamp(delta):
    if isinstance(delta, float) and delta.is_integer():
        delta = int(delta)
    return max(-100, min(100, delta)) if isinstance(delta, int) else delta


_UNCLEAR = [
    (r"\b(?:%s) (?:notch|notches|steps?|clicks?|bars?)\b|\blevel (?:%s)\b|[0-9一二两三四五六七八九十]+\s*[格档]" % (N, N),
     "unit"),
    (r"\b(?:about|around|roughly|approximately|or so)\b|大概|左右|差不多|大约", "approximation"),
    (r"\bby half\b|调低一半|调小一半|减半", "halving"),
    (r"\bin (?:%s|a|an) (?:minutes?|hours?|seconds?)\b|\btomorrow\b|\btonight\b|\bmorning\b|\bevening\b|\blater\b|"
     r"\b(?:am|pm)\b|o'clock|明天|今晚|晚上|早上|分钟|小时|[0-9一二两三四五六七八九十]+点(?!儿)" % N, "time"),
    (r"\b(?:%s) or (?:%s)\b|[一二三四五六七八九]{2}十" % (N, N), "two levels"),
]


def safety_net(text, span):
    """One question when words outside the rule that matched still hold something it did not understand."""
    lang = _lang(text)
    t = re.sub(r"\s+", " ", T.normalize_width(text).lower()).strip()
    rest = t if span is None else t[:span[0]] + " " + t[span[1]:]
    rest = re.sub(r"一点儿?|一些|一下|点儿|一会儿?|\ba bit\b|\ba notch\b|\ba little\b|\ba tad\b", " ", rest)
    for pattern, _kind in _UNCLEAR:
        m = re.search(pattern, t if _kind in ("unit", "halving", "approximation", "two levels") else rest)
        if m:
            return Q_PART[lang] % m.group(0).strip()
    m = re.search(r"\b(?:%s)\b|[0-9]+|[零两三四五六七八九十百]+" % N, rest) if lang == "en" else \
        re.search(r"[0-9]+|[零两三四五六七八九十百]+", rest)
    if m and m.group(0).strip():
        return Q_PART[lang] % m.group(0).strip()
    return None


def requests_of(utterance):
    """The volume requests of the utterance: a clause with its own change starts one, others continue it."""
    clauses, _named = T.owned_clauses(utterance, "volume")
    requests = []
    for clause in clauses:
        args, _q, _span = resolve_text(clause)
        if args or not requests:
            requests.append(clause)
        else:
            requests[-1] = requests[-1] + " " + clause
    return requests


def resolver(inp):
    requests = requests_of(inp.utterance)
    lang = _lang(inp.utterance)
    if not requests:
        return Resolution(question=Q_WHAT[lang])
    if len(requests) == inp.occurrences:
        index = inp.occurrence
    elif len(requests) == 1:
        index = 0
    else:
        return Resolution(question=Q_MANY[lang], source=("volume-requests", len(requests)))
    request = requests[index]
    args, question, span = resolve_text(request)
    if question is None:
        question = safety_net(request, span)
        if question is not None:
            args = {}
    return Resolution(arguments=args, source=("volume", index), question=question)


_MODE_WORDS = {
    "absolute": ("absolute", 0), "set": ("absolute", 0), "level": ("absolute", 0), "to": ("absolute", 0),
    "relative": ("relative", 0), "change": ("relative", 0), "by": ("relative", 0),
    "up": ("relative", 1), "increase": ("relative", 1), "louder": ("relative", 1), "raise": ("relative", 1),
    "higher": ("relative", 1), "down": ("relative", -1), "decrease": ("relative", -1), "quieter": ("relative", -1),
    "lower": ("relative", -1), "softer": ("relative", -1), "reduce": ("relative", -1),
    "mute": ("mute", 0), "silence": ("mute", 0), "unmute": ("unmute", 0),
}


def normalizer(arguments):
    """Model proposals to canonical arguments (docs/design.md#modes-tools-through-pipeline): "30%", "thirty", "三十",
    30.0 -> 30; up/down -> relative with a signed delta; set -> absolute; fields the mode does not use dropped."""
    out = dict(arguments)
    direction = 0
    mode = out.get("mode")
    if isinstance(mode, str):
        key = mode.strip().lower()
        if key in _MODE_WORDS:
            out["mode"], direction = _MODE_WORDS[key]
    for field in ("value", "delta"):
        if field in out and out[field] is not None:
            value = T.number(out[field]) if not isinstance(out[field], bool) else None
            if value is not None:
                out[field] = value
    if out.get("mode") == "relative":
        if out.get("delta") is None and isinstance(out.get("value"), (int, float)) and direction:
            out["delta"] = out["value"]
        if isinstance(out.get("delta"), (int, float)):
            if direction:
                out["delta"] = abs(out["delta"]) * direction
            out["delta"] = _clamp(out["delta"])
        out.pop("value", None)
    elif out.get("mode") == "absolute":
        out.pop("delta", None)
    elif out.get("mode") in ("mute", "unmute"):
        out.pop("value", None)
        out.pop("delta", None)
    return {k: v for k, v in out.items() if v is not None}


def conditional_required(arguments):
    mode = arguments.get("mode")
    return ["value"] if mode == "absolute" else ["delta"] if mode == "relative" else []


def definition(ports):
    def handler(inv):
        a = inv.arguments
        answer = ports.call("/device/volume", {
            "sessionId": inv.turn.session_id, "mode": a["mode"], "value": a.get("value"), "delta": a.get("delta"),
            "idempotencyKey": inv.idempotency_key}, inv.cancel)
        if "level" not in answer:
            raise HandlerFailure("port_bad_answer", "the volume port answered no level")
        return {"mode": a["mode"], "level": answer.get("level"), "muted": answer.get("muted")}

    return Definition(NAME, DESCRIPTION, SCHEMA, handler, SILENT_SUCCESS, resolver=resolver, normalizer=normalizer,
                      conditional_required=conditional_required, required=("mode",), fallback_allowed=True,
                      timeout_s=3.0, conflict_keys=lambda a: {"device.volume"})
