"""knowledge.web.search (docs/design.md#plugin-search-two-answers .. #plugin-search-port).

Read-only, policy llm_follow_up, timeout 8 s, retried once on a transient failure inside that timeout. The resolver
keeps the focused question of the search clause, fillers removed; a follow-up that leans on context (a pronoun, or
fewer than two words) gets the previous user request's query appended. The follow-up sees a compact summary: at most
3 hits, evidence cut to 280 characters.
"""

import re

from . import text as T
from .kernel import Definition, HandlerFailure, LLM_FOLLOW_UP, Resolution

NAME = "knowledge.web.search"
DESCRIPTION = "Search the web when current or external facts matter; a second answer follows."
SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 300, "description": "focused web search query"},
        "max_results": {"type": "integer", "minimum": 1, "maximum": 10},
    },
    "required": ["query"],
    "additionalProperties": False,
}
DEFAULT_MAX_RESULTS = 5
SUMMARY_HITS = 3
EVIDENCE_CHARS = 280

_EN_LEAD = re.compile(
    r"^(?:(?:hey|ok|okay|so|um|uh|please|pip)\b[\s,]*|(?:can|could|would|will) you\b\s*|"
    r"(?:search(?: the web| online| google)?(?: for)?|look up|google|find out|tell me|check|i want to know|"
    r"i'd like to know|what's the|what is the)\b\s*)+", re.I)
_EN_TAIL = re.compile(r"(?:\s*\b(?:please|for me|thanks|thank you|online|on the web)\b|[\s?.!,]+)+$", re.I)
_ZH_LEAD = re.compile(r"^(?:请|麻烦|帮我|给我|帮忙|你能|能不能|可以)*(?:查一下|查查|查询|查|搜一下|搜搜|搜索|搜|"
                      r"我想知道|告诉我|看看|看一下)*")
_ZH_TAIL = re.compile(r"(?:吗|呢|吧|啊|呀|谢谢|[？?。！!，,\s])+$")
_LEANS = re.compile(r"\b(?:he|she|it|they|him|her|them|his|its|their|that|this)\b|它|他|她|那个|这个", re.I)


def focus(clause):
    """The focused query of one clause."""
    q = T.normalize_width(clause).strip()
    if T.is_chinese(q):
        q = _ZH_LEAD.sub("", q)
        q = _ZH_TAIL.sub("", q)
        q = re.sub(r"一下", "", q)
    else:
        q = _EN_LEAD.sub("", q)
        q = _EN_TAIL.sub("", q)
    return re.sub(r"\s+", " ", q).strip()


def query_of(utterance):
    clauses, _named = T.owned_clauses(utterance, "search")
    return [focus(c) for c in clauses if focus(c)]


def resolver(inp):
    queries = query_of(inp.utterance)
    zh = T.is_chinese(inp.utterance)
    if not queries:
        return Resolution(question="你想让我搜什么？" if zh else "What should I search for?")
    if len(queries) == inp.occurrences:
        index = inp.occurrence
    elif len(queries) == 1:
        index = 0
    else:
        index = None
    query = " ".join(queries) if index is None else queries[index]
    words = query.split() if not zh else list(query)
    if _LEANS.search(query) or len(words) < 2:
        previous = [text for role, text in inp.turn.history if role == "user"]
        if previous:
            earlier = " ".join(query_of(previous[-1]))
            if earlier and earlier not in query:
                query = (query + " " + earlier).strip()
    return Resolution(arguments={"query": query}, source=("search", index if index is not None else "all"))


def normalizer(arguments):
    out = dict(arguments)
    if isinstance(out.get("query"), str):
        out["query"] = re.sub(r"\s+", " ", out["query"]).strip()
    if out.get("max_results") is not None:
        value = T.number(out["max_results"])
        if value is not None:
            out["max_results"] = value
    return {k: v for k, v in out.items() if v is not None and v != ""}


def summarizer(payload):
    hits = []
    for hit in (payload or {}).get("results", [])[:SUMMARY_HITS]:
        evidence = str(hit.get("evidence"))
        hits.append({"title": hit.get("title"), "location": hit.get("location"),
                     "evidence": evidence if len(evidence) <= EVIDENCE_CHARS else evidence[:EVIDENCE_CHARS] + "…",
                     "retrieved_at": hit.get("retrieved_at")})
    return {"query": (payload or {}).get("query"), "results": hits}


def definition(ports):
    def handler(inv):
        query = inv.arguments["query"]
        limit = inv.arguments.get("max_results") or DEFAULT_MAX_RESULTS
        answer = ports.call("/search", {"query": query, "maxResults": limit}, inv.cancel)
        hits = answer.get("hits")
        if not isinstance(hits, list):
            raise HandlerFailure("port_bad_answer", "the search port answered no hits")
        results = [{"title": h.get("title"), "location": h.get("location"), "evidence": h.get("evidence"),
                    "retrieved_at": h.get("retrievedAt")} for h in hits[:limit] if isinstance(h, dict)]
        return {"query": query, "results": results}

    return Definition(NAME, DESCRIPTION, SCHEMA, handler, LLM_FOLLOW_UP, resolver=resolver, normalizer=normalizer,
                      fallback_allowed=True, timeout_s=8.0, read_only=True, summarizer=summarizer)
