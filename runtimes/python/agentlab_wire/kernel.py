"""The event kernel (docs/design.md#kernel-pipeline, docs/design.md#batch-shared-executor,
docs/design.md#policy-declared and the clauses after each; docs/kernel.md).

It never looks at an event's name to decide anything (docs/design.md#kernel-no-event-names): every decision comes from
the Definition a plugin or a probe registered. One Kernel per conversation (thread) holds the registry, the replay
memory and the limits; ``run_batch`` takes one turn's ordered proposals and returns ordered Results and one Decision.
"""

import collections
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from . import jsonutil, schema as jsonschema
from .provider import Cancellable

# --- outcomes ------------------------------------------------------------------------------------------------

SUCCEEDED, FAILED, TIMED_OUT, REJECTED = "succeeded", "failed", "timed_out", "rejected"
NEEDS_CLARIFICATION, DEDUPLICATED, REPLAYED = "needs_clarification", "deduplicated", "replayed"

TERMINATE, SILENT_SUCCESS, TEMPLATE_FOLLOW_UP, LLM_FOLLOW_UP = (
    "terminate", "silent_success", "template_follow_up", "llm_follow_up")
POLICIES = (TERMINATE, SILENT_SUCCESS, TEMPLATE_FOLLOW_UP, LLM_FOLLOW_UP)

DUPLICATE_QUESTION = ("Two of your requests came out exactly the same — did you want it once, or twice with "
                      "different details?")
HIDDEN_FAILURE_MESSAGE = "the action could not be completed"
MAX_BATCH = 64
SUMMARY_LIMIT_CHARS = 4000
FALLBACK_HISTORY_MESSAGES = 4
REPLAY_CAPACITY = 10_000


@dataclass
class Outcome:
    status: str
    payload: Any = None           # succeeded
    code: Optional[str] = None    # failed: the failure's code; rejected: the reason
    message: Optional[str] = None
    scope: Optional[str] = None   # timed_out: "event" or "batch"
    limit_ms: Optional[int] = None
    started: bool = True          # timed_out by the batch: whether the handler had started
    question: Optional[str] = None
    missing: tuple = ()
    shared: Optional["Outcome"] = None   # deduplicated / replayed: the outcome it shares
    duplicate_of: Optional[int] = None   # deduplicated: 1-based position of the event it duplicates

    def effective(self):
        return self.shared.effective() if self.shared is not None else self

    def is_failure(self):
        return self.status in (FAILED, TIMED_OUT, REJECTED)

    def reason(self):
        if self.status == REJECTED or self.status == FAILED:
            return self.code
        if self.status == TIMED_OUT:
            return self.scope
        return None

    def error_text(self):
        if self.status == FAILED:
            return "%s: %s" % (self.code, self.message) if self.message else self.code
        if self.status == REJECTED:
            return "%s: %s" % (self.code, self.message) if self.message else self.code
        if self.status == TIMED_OUT:
            return "timed out after %d ms (%s)" % (self.limit_ms or 0, self.scope)
        if self.status == NEEDS_CLARIFICATION:
            return self.question
        return None


class HandlerFailure(Exception):
    """A structured failure a handler returns (docs/design.md#safety-structured-failure)."""

    def __init__(self, code, message="", transient=False):
        super().__init__(message or code)
        self.code = code
        self.message = message
        self.transient = transient


# --- definitions ---------------------------------------------------------------------------------------------

@dataclass
class Resolution:
    arguments: dict = field(default_factory=dict)
    source: Any = None
    question: Optional[str] = None


@dataclass
class ResolutionInput:
    name: str
    utterance: str
    occurrence: int
    occurrences: int
    turn: "TurnContext"


@dataclass
class TurnContext:
    session_id: str
    turn_id: str
    now: Any              # aware datetime: the captured request instant
    timezone: str
    locale: str
    history: list         # visible history of earlier turns: [(role, text)]
    utterance: str = ""   # the turn's user text


@dataclass
class Invocation:
    name: str
    event_id: str
    arguments: dict
    idempotency_key: str
    turn: TurnContext
    cancel: Cancellable


def _no_resolution(_input):
    return Resolution()


@dataclass
class Definition:
    name: str
    description: str
    schema: dict
    handler: Callable[[Invocation], Any]
    policy: str
    resolver: Callable[[ResolutionInput], Resolution] = _no_resolution
    normalizer: Callable[[dict], dict] = lambda a: a
    validator: Callable[[dict], list] = lambda a: []
    required: tuple = ()
    conditional_required: Callable[[dict], list] = lambda a: []
    fallback_allowed: bool = False
    timeout_s: float = 5.0
    read_only: bool = False
    conflict_keys: Callable[[dict], set] = lambda a: set()
    terminal: bool = False
    failure_visible: bool = True
    confirmation: Optional[Callable[[dict, Any, str], Optional[str]]] = None
    summarizer: Callable[[Any], Any] = lambda p: p

    def check(self):
        """docs/design.md#kernel-definition-valid, as far as a wire runtime declares its events."""
        import re
        if not re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+", self.name):
            raise ValueError("event name %r is not namespaced (lowercase dot-separated segments)" % self.name)
        if not self.description or "\n" in self.description.strip():
            raise ValueError("event %r needs one description line" % self.name)
        if self.policy not in POLICIES:
            raise ValueError("event %r has an unknown policy %r" % (self.name, self.policy))
        if not (0 < self.timeout_s <= 60):
            raise ValueError("event %r needs a timeout in (0, 60] s" % self.name)
        if self.policy == TERMINATE and not self.terminal:
            raise ValueError("event %r: terminate needs the terminal flag" % self.name)
        if self.policy == TEMPLATE_FOLLOW_UP and self.confirmation is None:
            raise ValueError("event %r: template_follow_up needs a confirmation template" % self.name)
        if not jsonschema.well_formed(self.schema):
            raise ValueError("event %r: the argument schema needs an object root" % self.name)

    def missing(self, arguments):
        names = list(self.required) + list(self.schema.get("required") or [])
        names += list(self.conditional_required(arguments))
        seen = []
        for n in names:
            if arguments.get(n) is None and n not in seen:
                seen.append(n)
        return seen


# --- results -------------------------------------------------------------------------------------------------

@dataclass
class Proposal:
    event_id: str
    name: str
    arguments: dict
    unparsable: bool = False


@dataclass
class Result:
    event_id: str
    name: str
    arguments: dict
    outcome: Outcome
    resolution: str = "not_attempted"   # deterministic | fallback | incomplete | not_attempted
    source: Any = None
    key: Optional[str] = None


@dataclass
class Decision:
    kind: str                          # end_session | complete | follow_up
    confirmations: list                # [(event_id, text)]
    reasons: list = field(default_factory=list)   # synthesis | correction | clarification
    summary: list = field(default_factory=list)   # the compact items
    summary_json: str = "[]"


# --- the replay memory (docs/design.md#batch-replay-scope) -------------------------------------------------------

class ReplayGuard:
    def __init__(self, capacity=REPLAY_CAPACITY):
        self._lock = threading.Lock()
        self._seen = collections.OrderedDict()
        self._capacity = capacity

    @staticmethod
    def key(session, turn, event_id, name, arguments):
        return (session, turn, event_id, name, jsonutil.canonical(arguments))

    def get(self, key):
        with self._lock:
            return self._seen.get(key)

    def started(self, key):
        with self._lock:
            self._seen[key] = None
            self._seen.move_to_end(key)
            while len(self._seen) > self._capacity:
                self._seen.popitem(last=False)

    def finished(self, key, outcome):
        with self._lock:
            if key in self._seen:
                self._seen[key] = outcome

    def forget(self, key):
        with self._lock:
            self._seen.pop(key, None)

    def __contains__(self, key):
        with self._lock:
            return key in self._seen


# --- the kernel ----------------------------------------------------------------------------------------------

class BatchCancelled(Exception):
    pass


class Kernel:
    """One conversation's kernel: registry, limits, EventAgent fallback and replay memory."""

    def __init__(self, definitions, concurrency=4, batch_deadline_s=15.0, fallback=None, fallback_timeout_s=5.0):
        registry = {}
        for d in definitions:
            d.check()
            if d.name in registry:
                raise ValueError("event %r is registered twice" % d.name)
            registry[d.name] = d
        if not 1 <= concurrency <= 16:
            raise ValueError("concurrency must be 1..16, was %r" % concurrency)
        if not 0 < batch_deadline_s <= 300:
            raise ValueError("the batch deadline must be positive and at most 5 min")
        self.registry = registry
        self.concurrency = concurrency
        self.batch_deadline_s = batch_deadline_s
        self.fallback = fallback
        self.fallback_timeout_s = fallback_timeout_s
        self.replay = ReplayGuard()

    # -- the per-event pipeline (docs/design.md#kernel-pipeline) --

    def _prepare(self, proposal, turn, occurrence, occurrences, utterance, cancel):
        d = self.registry.get(proposal.name)
        result = Result(proposal.event_id, proposal.name, dict(proposal.arguments), None)
        if d is None:
            known = ", ".join(sorted(self.registry))
            result.outcome = Outcome(REJECTED, code="unknown_event",
                                     message="no event named '%s' is registered; known: %s" % (proposal.name, known))
            return result, None
        try:
            resolution = d.resolver(ResolutionInput(d.name, utterance, occurrence, occurrences, turn)) or Resolution()
            merged = {k: v for k, v in (resolution.arguments or {}).items() if v is not None}
            for k, v in proposal.arguments.items():
                if v is not None:
                    merged[k] = v   # the model's explicit values win
            arguments = d.normalizer(dict(merged))
        except Exception as e:  # a throwing resolver rejects its event (docs/design.md#kernel-resolver-total)
            result.outcome = Outcome(REJECTED, code="resolution_error", message="%s: %s" % (type(e).__name__, e))
            return result, None
        if resolution.source is not None:
            result.source = ("resolver", resolution.source)
        elif proposal.arguments:
            result.source = ("proposed", jsonutil.canonical(proposal.arguments))
        result.arguments = arguments
        invalid = self._violations(d, arguments)
        if invalid:
            result.outcome = Outcome(REJECTED, code="invalid_arguments", message=invalid)
            return result, None
        missing = d.missing(arguments)
        if not missing:
            result.resolution = "deterministic"
            return result, d
        if d.fallback_allowed and self.fallback is not None and not cancel.cancelled:
            answer = self.fallback(d, arguments, missing, turn, self.fallback_timeout_s, cancel)
            if isinstance(answer, dict):
                declared = (d.schema.get("properties") or {}).keys()
                filled = dict(arguments)
                for k, v in answer.items():
                    # fills only what is still absent; a value offered for a resolved field is ignored
                    if v is not None and filled.get(k) is None and (not declared or k in declared):
                        filled[k] = v
                try:
                    filled = d.normalizer(filled)
                except Exception as e:
                    result.outcome = Outcome(REJECTED, code="resolution_error", message=str(e))
                    return result, None
                invalid = self._violations(d, filled)
                if invalid:
                    result.arguments = filled
                    result.resolution = "fallback"
                    result.outcome = Outcome(REJECTED, code="invalid_arguments", message=invalid)
                    return result, None
                still = d.missing(filled)
                result.arguments = filled
                if not still:
                    result.resolution = "fallback"
                    return result, d
                missing = still
        result.resolution = "incomplete"
        question = resolution.question or "Could you tell me the %s?" % " and ".join(m.replace("_", " ")
                                                                                       for m in missing)
        result.outcome = Outcome(NEEDS_CLARIFICATION, question=question, missing=tuple(sorted(missing)))
        return result, None

    @staticmethod
    def _violations(d, arguments):
        try:
            found = jsonschema.validate(d.schema, arguments, skip_required=True)
            found += list(d.validator(arguments) or [])
        except Exception as e:  # a validator never throws; one that does rejects its event
            found = [("", "the validator failed: %s" % e)]
        return "; ".join("%s: %s" % (p or "/", m) for p, m in found) if found else None

    # -- the batch --

    def run_batch(self, proposals, turn, utterance, cancel=None, observer=None):
        """Resolves, deduplicates, schedules and executes one batch; returns (results, decision).

        ``cancel`` (a Cancellable) cancels the batch: running handlers are interrupted, nothing more starts, and
        BatchCancelled is raised (never an ordinary failure). ``observer(event, index)`` hears "start" and "end"."""
        cancel = cancel or Cancellable()
        started_at = time.monotonic()
        deadline = started_at + self.batch_deadline_s
        if len(proposals) > MAX_BATCH:
            results = [Result(p.event_id, p.name, p.arguments,
                              Outcome(REJECTED, code="batch_too_large",
                                      message="a batch holds at most %d events" % MAX_BATCH)) for p in proposals]
            return results, self.decide(results, turn.locale)
        # 1. resolution in input order; only the EventAgent fallbacks run concurrently
        counts = collections.Counter(p.name for p in proposals)
        seen = collections.Counter()
        prepared = [None] * len(proposals)
        waits = []
        for i, p in enumerate(proposals):
            occurrence = seen[p.name]
            seen[p.name] += 1
            d = self.registry.get(p.name)
            needs_thread = d is not None and d.fallback_allowed and self.fallback is not None
            if needs_thread:
                holder = {}
                t = threading.Thread(target=lambda h=holder, p=p, o=occurrence: h.setdefault(
                    "r", self._prepare_safe(p, turn, o, counts[p.name], utterance, cancel)), daemon=True)
                t.start()
                waits.append((i, t, holder))
            else:
                prepared[i] = self._prepare_safe(p, turn, occurrence, counts[p.name], utterance, cancel)
        for i, t, holder in waits:
            t.join()
            prepared[i] = holder["r"]
        if cancel.cancelled:
            raise BatchCancelled()
        results = [r for r, _ in prepared]
        definitions = [d for _, d in prepared]
        for i, r in enumerate(results):
            if definitions[i] is not None:
                r.key = jsonutil.idempotency_key(turn.session_id, turn.turn_id, r.event_id, r.name, r.arguments)
        # 2. duplicates (docs/design.md#batch-duplicates-coalesced, docs/kernel.md#two-requests-stay-two)
        primary_of = {}
        for j, r in enumerate(results):
            if definitions[j] is None:
                continue
            for i in range(j):
                if definitions[i] is None or i in primary_of or results[i].name != r.name:
                    continue
                if jsonutil.canonical(results[i].arguments) != jsonutil.canonical(r.arguments):
                    continue
                if not r.arguments or (r.source is not None and r.source == results[i].source):
                    primary_of[j] = i
                else:
                    r.outcome = Outcome(NEEDS_CLARIFICATION, question=DUPLICATE_QUESTION)
                    definitions[j] = None
                break
        # 3. replay protection (docs/design.md#batch-replay-scope)
        to_run = []
        for i, r in enumerate(results):
            if definitions[i] is None or i in primary_of:
                continue
            key = ReplayGuard.key(turn.session_id, turn.turn_id, r.event_id, r.name, r.arguments)
            if key in self.replay:
                original = self.replay.get(key) or Outcome(FAILED, code="in_progress",
                                                           message="the original execution has not finished")
                r.outcome = Outcome(REPLAYED, shared=original)
            else:
                to_run.append(i)
        # 4. execution
        executor = _BatchExecution(self, results, definitions, to_run, turn, deadline, cancel, observer)
        executor.run()
        # copies share their primary's outcome
        for j, i in primary_of.items():
            results[j].outcome = Outcome(DEDUPLICATED, shared=results[i].outcome, duplicate_of=i + 1)
        return results, self.decide(results, turn.locale)

    def _prepare_safe(self, proposal, turn, occurrence, occurrences, utterance, cancel):
        try:
            return self._prepare(proposal, turn, occurrence, occurrences, utterance, cancel)
        except Exception as e:  # plugin code that throws never escapes the batch
            return (Result(proposal.event_id, proposal.name, proposal.arguments,
                           Outcome(REJECTED, code="resolution_error", message="%s: %s" % (type(e).__name__, e))),
                    None)

    # -- the decision (docs/design.md#policy-declared; docs/kernel.md#policy-aggregation) --

    def decide(self, results, locale):
        confirmations = []
        reasons = []
        items = []
        ended = False

        def reason(r):
            if r not in reasons:
                reasons.append(r)

        for r in results:
            d = self.registry.get(r.name)
            o = r.outcome
            if o.status == REPLAYED:
                # a retransmission repeats no message, but a session that ended stays ended
                if o.effective().status == SUCCEEDED and d is not None and d.policy == TERMINATE:
                    ended = True
                continue
            if o.status == DEDUPLICATED:
                continue
            item = {"id": r.event_id, "event": r.name, "status": o.status}
            if o.status == SUCCEEDED and d is not None:
                if d.policy == TERMINATE:
                    ended = True
                elif d.policy == TEMPLATE_FOLLOW_UP:
                    text = None
                    try:
                        text = d.confirmation(r.arguments, o.payload, locale)
                    except Exception:
                        text = None
                    if text and text.strip():
                        confirmations.append((r.event_id, text))
                        item["confirmed"] = text
                    else:   # a template that renders nothing does not swallow the success
                        reason("synthesis")
                        item["result"] = _summarize(d, o.payload)
                elif d.policy == LLM_FOLLOW_UP:
                    reason("synthesis")
                    item["result"] = _summarize(d, o.payload)
            elif o.status == NEEDS_CLARIFICATION:
                reason("clarification")
                item["question"] = o.question
                item["missing"] = sorted(o.missing)
            elif o.is_failure():
                reason("correction")
                visible = d.failure_visible if d is not None else True
                if o.status == TIMED_OUT:
                    item["error"] = {"code": "timed_out", "limit_ms": o.limit_ms, "scope": o.scope}
                else:
                    item["error"] = {"code": o.code, "message": o.message if visible else HIDDEN_FAILURE_MESSAGE}
            items.append(item)
        if ended:
            return Decision("end_session", confirmations)
        if not reasons:
            return Decision("complete", confirmations)
        order = {"synthesis": 0, "correction": 1, "clarification": 2}
        reasons.sort(key=order.get)
        items, text = bounded_summary(items)
        return Decision("follow_up", confirmations, reasons, items, text)


def _summarize(d, payload):
    try:
        return d.summarizer(payload)
    except Exception as e:
        return {"summary_error": type(e).__name__}


def bounded_summary(items, limit=SUMMARY_LIMIT_CHARS):
    """The items as canonical JSON within ``limit`` characters: the largest payloads, then the largest texts, are
    replaced by a marker naming their size, then the last items fold into one ``omitted`` count."""
    text = jsonutil.canonical(items)
    if len(text) <= limit:
        return items, text
    work = [dict(i, error=dict(i["error"])) if isinstance(i.get("error"), dict) else dict(i) for i in items]
    parts = []
    for item in work:
        for key in ("result", "question", "confirmed"):
            if key in item:
                parts.append((item, key, 1 if key == "result" else 0))
        if isinstance(item.get("error"), dict) and "message" in item["error"]:
            parts.append((item["error"], "message", 0))
    parts.sort(key=lambda p: (p[2], len(jsonutil.canonical(p[0][p[1]]))), reverse=True)
    for owner, key, _ in parts:
        if len(jsonutil.canonical(work)) <= limit:
            break
        size = len(jsonutil.canonical(owner[key]))
        if size > 60:
            owner[key] = "truncated: %d chars over the summary limit" % size
    text = jsonutil.canonical(work)
    kept = len(work)
    while len(text) > limit and kept > 0:
        kept -= 1
        shown = work[:kept] + [{"omitted": len(work) - kept, "reason": "over the summary limit"}]
        text = jsonutil.canonical(shown)
    return (work if kept == len(work) else work[:kept]), text


class _BatchExecution:
    """The scheduler of one batch (docs/design.md#batch-concurrency-limit .. #batch-cancellation).

    A dispatcher starts pending events in input order while permits remain and none of an event's conflict keys is
    held; a terminal event only once every non-terminal sibling has settled. Each handler runs on its own thread,
    under its own timeout counted from its start; the batch has one deadline. A slot (permit and keys) is released
    only when the handler has actually returned, so a timed-out handler still unwinding never overlaps its successor.
    """

    def __init__(self, kernel, results, definitions, to_run, turn, deadline, cancel, observer):
        self.k = kernel
        self.results = results
        self.defs = definitions
        self.pending = list(to_run)
        self.to_run = set(to_run)
        self.turn = turn
        self.deadline = deadline
        self.cancel = cancel
        self.observer = observer
        self.cond = threading.Condition()
        self.running = {}        # index -> (deadline, token)
        self.settled = set()     # handler returned, or never started
        self.held_keys = set()
        self.permits = kernel.concurrency
        self.keys = {}
        for i in to_run:
            try:
                self.keys[i] = set(definitions[i].conflict_keys(results[i].arguments) or ())
            except Exception:
                self.keys[i] = set()
        cancel.on_cancel(self._wake)

    def _wake(self):
        with self.cond:
            self.cond.notify_all()

    def run(self):
        with self.cond:
            while True:
                if self.cancel.cancelled:
                    self._cancel_all()
                    raise BatchCancelled()
                now = time.monotonic()
                if now >= self.deadline:
                    self._deadline()
                    return
                self._expire(now)
                self._dispatch()
                if all(self.results[i].outcome is not None for i in self.to_run) and not self.pending:
                    return
                wake = self.deadline
                for i, (end, _) in self.running.items():
                    if self.results[i].outcome is None:   # a timed-out handler still unwinding wakes us itself
                        wake = min(wake, end)
                self.cond.wait(max(0.0, wake - time.monotonic()))

    def _non_terminal_settled(self):
        return all(i in self.settled for i in self.to_run if not self.defs[i].terminal)

    def _dispatch(self):
        for i in list(self.pending):
            if self.permits <= 0:
                break
            d = self.defs[i]
            if d.terminal and not self._non_terminal_settled():
                continue
            if self.keys[i] & self.held_keys:
                continue
            self.pending.remove(i)
            self.permits -= 1
            self.held_keys |= self.keys[i]
            token = Cancellable()
            self.running[i] = (time.monotonic() + d.timeout_s, token)
            r = self.results[i]
            self.k.replay.started(ReplayGuard.key(self.turn.session_id, self.turn.turn_id, r.event_id, r.name,
                                                  r.arguments))
            threading.Thread(target=self._work, args=(i, token), daemon=True,
                             name="agentlab-handler-%s" % r.event_id).start()

    def _work(self, i, token):
        d = self.defs[i]
        r = self.results[i]
        if self.observer:
            self.observer("start", i)
        invocation = Invocation(r.name, r.event_id, r.arguments, r.key, self.turn, token)
        started = time.monotonic()
        try:
            outcome = self._attempt(d, invocation, started)
        finally:
            if self.observer:
                self.observer("end", i)
        with self.cond:
            if r.outcome is None and not token.cancelled:
                r.outcome = outcome
                self._remember(i, outcome)
            self.running.pop(i, None)
            self.settled.add(i)
            self.permits += 1
            self.held_keys -= self.keys[i]
            self.cond.notify_all()

    def _attempt(self, d, invocation, started):
        tries = 2 if d.read_only else 1   # side effects are never retried (docs/design.md#safety-no-side-effect-retry)
        outcome = None
        for _ in range(tries):
            try:
                payload = d.handler(invocation)
                return Outcome(SUCCEEDED, payload=payload)
            except HandlerFailure as f:
                outcome = Outcome(FAILED, code=f.code, message=f.message)
                if not f.transient or invocation.cancel.cancelled or time.monotonic() - started >= d.timeout_s:
                    return outcome
            except Exception as e:   # a handler that throws ends failed with a code
                return Outcome(FAILED, code="handler_exception", message="%s: %s" % (type(e).__name__, e))
        return outcome

    def _remember(self, i, outcome):
        r = self.results[i]
        self.k.replay.finished(ReplayGuard.key(self.turn.session_id, self.turn.turn_id, r.event_id, r.name,
                                               r.arguments), outcome)

    def _expire(self, now):
        for i, (end, token) in list(self.running.items()):
            if now >= end and self.results[i].outcome is None:
                ms = int(round(self.defs[i].timeout_s * 1000))
                self.results[i].outcome = Outcome(TIMED_OUT, scope="event", limit_ms=ms)
                self._remember(i, self.results[i].outcome)
                token.cancel()   # interrupt the handler; its slot frees when it returns

    def _deadline(self):
        ms = int(round(self.k.batch_deadline_s * 1000))
        for i in self.to_run:
            r = self.results[i]
            if r.outcome is None:
                started = i in self.running or i in self.settled
                r.outcome = Outcome(TIMED_OUT, scope="batch", limit_ms=ms, started=started)
                if started:
                    self._remember(i, r.outcome)
                else:
                    self.settled.add(i)
        for _, token in self.running.values():
            token.cancel()
        self.pending = []

    def _cancel_all(self):
        for i, (_, token) in list(self.running.items()):
            r = self.results[i]
            # a cancelled event may run again (it was not an ordinary execution)
            self.k.replay.forget(ReplayGuard.key(self.turn.session_id, self.turn.turn_id, r.event_id, r.name,
                                                 r.arguments))
            token.cancel()
        self.pending = []
