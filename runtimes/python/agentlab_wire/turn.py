"""The turn runtime: one AG-UI run per turn, for both invocation modes (docs/runtime.md,
docs/design.md#modes-two-modes and the modes clauses).

1. stream ChatAgent's first answer, visible text forwarded as it arrives (never waiting for events);
2. once the stream has ended, turn the hidden block (dual_agent) or the native tool calls (chat_agent_tools) into one
   ordered batch and run it through the kernel;
3. apply the decision: end the session, keep the first answer, emit template confirmations, or make exactly one
   follow-up call with the compact results.

A Conversation is one AG-UI thread: its settings (read from ``forwardedProps.agentlab`` on its first run), its kernel
(built-ins enabled for it plus its probes), its stored history and its turn ids.
"""

import datetime as dt
import json
import re
import threading
from zoneinfo import ZoneInfo

from . import CONTRACT, jsonutil
from .hidden_block import MARKER, HiddenBlockParser
from .kernel import (BatchCancelled, DEDUPLICATED, FALLBACK_HISTORY_MESSAGES, Kernel, NEEDS_CLARIFICATION, Proposal,
                     SUCCEEDED, TurnContext)
from .provider import Cancellable, ProviderError
from . import probes as probe_events
from . import schedule, search, session, volume

DUAL, TOOLS = "dual_agent", "chat_agent_tools"
DEFAULT_PERSONA = "You are a friendly voice assistant. Answer briefly."
DEFAULT_MODEL = "gpt-4o-mini"
EVENT_AGENT_MAX_TOKENS = 200
MAX_STORED_MESSAGES = 400   # a conversation's stored history; the oldest turns go first

DUAL_INSTRUCTION = (
    "You can trigger actions for the user. Always answer the user first, naturally and briefly.\n"
    "If the request needs actions, end your message with a new line that starts with " + MARKER + " followed by the "
    "action names, comma-separated, in the order they should run. Never mention that line or the action names to "
    "the user.\nActions:\n")
TOOLS_INSTRUCTION = ("You can call tools for the user. Always answer the user first, naturally and briefly, then call "
                     "the tools the request needs.")
FOLLOW_UP_INSTRUCTION = (
    "The actions have finished; their results follow and the user has not seen them. Answer the user once more, "
    "briefly: use the results, correct your first answer if needed, and do not repeat it. If an action failed, say "
    "so plainly; if one needs clarification, ask its question.")

BUILT_INS = [session, volume, schedule, search]
_SAFE_TOOL = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class SettingsError(ValueError):
    pass


def built_in_definitions(ports):
    return [module.definition(ports) for module in BUILT_INS]


def capabilities(ports):
    return {"contract": CONTRACT,
            "events": [{"name": d.name, "description": d.description, "schema": d.schema}
                       for d in built_in_definitions(ports)],
            "probes": True}


class Settings:
    """``forwardedProps.agentlab`` (docs/wire.md#conventions)."""

    def __init__(self, props):
        if not isinstance(props, dict):
            props = {}
        contract = props.get("contract")
        if contract is not None and contract != CONTRACT:
            raise SettingsError("unsupported contract %r (this runtime serves %s)" % (contract, CONTRACT))
        self.mode = props.get("mode") or DUAL
        if self.mode not in (DUAL, TOOLS):
            raise SettingsError("unknown mode %r" % self.mode)
        self.events = props.get("events")
        self.probes = props.get("probes") or []
        kernel = props.get("kernel") or {}
        self.concurrency = int(kernel.get("concurrency") or 4)
        self.batch_deadline_s = (kernel.get("batchDeadlineMs") or 15000) / 1000.0
        self.fallback_timeout_s = (kernel.get("fallbackTimeoutMs") or 5000) / 1000.0
        sess = props.get("session") or {}
        self.timezone = sess.get("timezone") or "UTC"
        try:
            ZoneInfo(self.timezone)
        except Exception:
            raise SettingsError("unknown time zone %r" % self.timezone)
        self.locale = sess.get("locale") or "en"
        clock = sess.get("clock")
        self.clock = None
        if clock:
            try:
                self.clock = dt.datetime.fromisoformat(clock)
            except ValueError:
                raise SettingsError("unreadable session clock %r" % clock)
            if self.clock.tzinfo is None:
                self.clock = self.clock.replace(tzinfo=ZoneInfo(self.timezone))
        self.model = props.get("model") or DEFAULT_MODEL
        self.persona = props.get("persona") or DEFAULT_PERSONA
        self.retransmit_of = props.get("retransmitOf")

    def now(self):
        return self.clock if self.clock is not None else dt.datetime.now(dt.timezone.utc)


class Conversation:
    def __init__(self, thread_id, settings, ports, provider):
        self.thread_id = thread_id
        self.settings = settings
        self.provider = provider
        self.lock = threading.Lock()
        self.messages = []          # stored messages: {"msg": provider message, "ui": shown in a history replay}
        self.turns = []
        self.retransmissions = {}
        self.ended = False
        definitions = []
        wanted = settings.events
        for d in built_in_definitions(ports):
            if wanted is None or d.name in wanted:
                definitions.append(d)
        for spec in settings.probes:
            definitions.append(probe_events.definition(spec, ports))
        self.kernel = Kernel(definitions, concurrency=settings.concurrency,
                             batch_deadline_s=settings.batch_deadline_s, fallback=self._fallback,
                             fallback_timeout_s=settings.fallback_timeout_s)
        self.definitions = definitions
        self.aliases = {}
        for d in definitions:   # docs/design.md#modes-tool-name-alias
            alias = d.name.replace(".", "_")
            if not _SAFE_TOOL.match(alias):
                raise SettingsError("event %r has no provider-safe tool name" % d.name)
            if alias in self.aliases:
                raise SettingsError("events %r and %r would both be offered as tool %r"
                                    % (self.aliases[alias], d.name, alias))
            self.aliases[alias] = d.name

    # -- prompts --

    def system_prompt(self):
        s = self.settings
        if not self.definitions:
            return s.persona   # no capability enabled: the persona alone (docs/design.md#modes-minimal-instruction)
        if s.mode == DUAL:
            catalog = "\n".join("- %s: %s" % (d.name, d.description) for d in self.definitions)
            return s.persona + "\n\n" + DUAL_INSTRUCTION + catalog
        return s.persona + "\n\n" + TOOLS_INSTRUCTION

    def tools(self):
        if self.settings.mode != TOOLS:
            return None
        return [{"type": "function", "function": {"name": d.name.replace(".", "_"), "description": d.description,
                                                  "parameters": d.schema}} for d in self.definitions] or None

    def store(self, produced):
        self.messages.extend({"msg": m, "ui": ui} for m, ui in produced)
        if len(self.messages) > MAX_STORED_MESSAGES:
            del self.messages[:len(self.messages) - MAX_STORED_MESSAGES]
            while self.messages and self.messages[0]["msg"]["role"] != "user":
                del self.messages[0]   # whole turns only: a tool message never loses its call

    def context(self):
        return [m["msg"] for m in self.messages]

    def visible_history(self):
        out = []
        for m in self.messages:
            msg = m["msg"]
            if m["ui"] and msg["role"] in ("user", "assistant") and msg.get("content"):
                out.append((msg["role"], msg["content"]))
        return out

    def event_name(self, from_model):
        if from_model in self.kernel.registry:
            return from_model
        return self.aliases.get(from_model, from_model)

    def request(self, messages, role_tools=True, max_tokens=None, temperature=None):
        body = {"model": self.settings.model, "messages": messages, "stream": True,
                "stream_options": {"include_usage": True}}
        tools = self.tools() if role_tools else None
        if tools:
            body["tools"] = tools
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if temperature is not None:
            body["temperature"] = temperature
        return body

    # -- the EventAgent fallback (docs/design.md#context-event-agent, #kernel-fallback-bounded) --

    def _fallback(self, definition, arguments, missing, turn, timeout_s, cancel):
        system = ("Extract arguments for the action '%s'.\nJSON Schema of its arguments: %s\nAlready known: %s\n"
                  "Return only a JSON object with these missing fields: %s. Use null for anything the conversation "
                  "does not say. The user's timezone is %s and the request was made at %s."
                  % (definition.name, jsonutil.write(definition.schema), jsonutil.write(arguments),
                     ", ".join(missing), turn.timezone, turn.now.isoformat()))
        messages = [{"role": "system", "content": system}]
        for role, text in turn.history[-FALLBACK_HISTORY_MESSAGES:]:
            messages.append({"role": role, "content": text})
        messages.append({"role": "user", "content": turn.utterance})
        token = Cancellable()
        cancel.on_cancel(token.cancel)
        timer = threading.Timer(timeout_s, token.cancel)   # the kernel's bound ends a stalled call
        timer.daemon = True
        timer.start()
        try:
            completion = self.provider.stream(self.request(messages, role_tools=False,
                                                           max_tokens=EVENT_AGENT_MAX_TOKENS, temperature=0),
                                              "event_agent", cancel=token)
        except ProviderError:
            return None   # contained: the event stays incomplete (docs/design.md#safety-fallback-failure-contained)
        finally:
            timer.cancel()
        content = completion.text.strip()
        content = re.sub(r"^```(?:json)?\s*", "", content)
        content = re.sub(r"\s*```$", "", content)
        try:
            answer = json.loads(content)
        except ValueError:
            return None
        return answer if isinstance(answer, dict) else None


class TurnControl:
    def __init__(self, thread_id, run_id):
        self.thread_id = thread_id
        self.run_id = run_id
        self.cancel = Cancellable()


def user_text(run_input):
    for message in reversed(run_input.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return None


def result_content(result):
    """TOOL_CALL_RESULT.content (docs/wire.md#stream)."""
    o = result.outcome
    effective = o.effective()
    status = "success" if effective.status == SUCCEEDED else \
        "partial" if effective.status == NEEDS_CLARIFICATION else "failure"
    content = {"status": status, "outcome": o.status}
    error = effective.error_text() if effective.status != SUCCEEDED else None
    if error:
        content["error"] = error
    if o.reason():
        content["reason"] = o.reason()
    if o.status == DEDUPLICATED and o.duplicate_of:
        content["duplicateOf"] = o.duplicate_of
    return content


def run_turn(conversation, run_input, emitter, control, retransmit_of=None):
    """Runs one turn and writes its AG-UI run through ``emitter``. Returns the error code, or None.

    The thread's settings were read on its first run (identical within a thread, docs/wire.md#conventions); only
    ``retransmit_of`` (``forwardedProps.agentlab.retransmitOf``) is the run's own."""
    c = conversation
    s = c.settings
    text = user_text(run_input)
    emitter.run_started()
    if text is None:
        emitter.run_error("the run carries no user message", "no_user_message")
        return "no_user_message"
    turn_id = control.run_id
    if retransmit_of:
        if retransmit_of not in c.turns:
            emitter.run_error("retransmitOf names no turn of this thread: %s" % retransmit_of, "unknown_turn")
            return "unknown_turn"
        turn_id = retransmit_of   # the same turn again: replay protection holds (docs/runtime.md#retransmission)
    elif c.ended:
        emitter.run_error("the session has ended", "session_ended")
        return "session_ended"
    if turn_id not in c.turns:
        c.turns.append(turn_id)
    produced = []   # (provider message, shown in a history replay)
    history_before = c.visible_history()

    def cancelled(first_answer=None):
        if first_answer is not None and not produced:
            produced.append(({"role": "user", "content": text}, True))
            produced.append(({"role": "assistant", "content": first_answer}, True))
        c.store(produced)
        emitter.run_cancelled()
        return "RUN_CANCELED"

    # 1. the first answer
    emitter.step_started("chat")
    first_id = emitter.message_started()
    parser = HiddenBlockParser() if s.mode == DUAL else None
    shown = []

    def on_content(delta):
        visible = parser.accept(delta) if parser else delta
        if visible:
            shown.append(visible)
            emitter.message_content(first_id, visible)

    messages = [{"role": "system", "content": c.system_prompt()}] + c.context() + [{"role": "user", "content": text}]
    try:
        completion = c.provider.stream(c.request(messages), "chat", on_content=on_content, cancel=control.cancel)
    except ProviderError as e:
        if control.cancel.cancelled:
            return cancelled("".join(shown))
        emitter.close_open()
        emitter.run_error("the model call failed: %s" % e, e.code)   # history unchanged: the next turn starts clean
        return e.code
    if parser:
        rest = parser.finish()
        if rest:
            shown.append(rest)
            emitter.message_content(first_id, rest)
    emitter.message_ended(first_id)
    emitter.step_finished("chat")
    answer = "".join(shown).strip()

    # 2. the proposals, one ordered batch
    proposals = []
    calls = []
    if s.mode == DUAL:
        for i, name in enumerate(parser.names()):
            proposals.append(Proposal("e%d" % (i + 1), c.event_name(name), {}))
    else:
        calls = completion.tool_calls.calls()
        taken = set()
        provider_ids = {call["id"] for call in calls}
        fresh = 0
        for call in calls:
            event_id = call["id"]
            if not event_id or not event_id.strip() or event_id in taken:
                while True:   # a blank or repeated id gets a fresh one no other event of the batch has
                    fresh += 1
                    candidate = "e%d" % fresh
                    if candidate not in taken and candidate not in provider_ids:
                        break
                event_id = candidate
            taken.add(event_id)
            try:
                arguments = json.loads(call["arguments"]) if call["arguments"].strip() else {}
                unparsable = not isinstance(arguments, dict) or jsonutil.depth(arguments) > jsonutil.MAX_DEPTH
            except ValueError:
                arguments, unparsable = {}, True
            if unparsable:
                arguments = {}   # docs/design.md#provider-bad-tool-arguments: an empty proposal, never a guess
            proposals.append(Proposal(event_id, c.event_name(call["name"]), arguments, unparsable))
    produced.append(({"role": "user", "content": text}, True))
    if calls:
        produced.append(({"role": "assistant", "content": answer or None,
                          "tool_calls": [{"id": call["id"], "type": "function",
                                          "function": {"name": call["name"], "arguments": call["arguments"]}}
                                         for call in calls]}, True))
    else:
        produced.append(({"role": "assistant", "content": answer}, True))
    if not proposals:
        c.store(produced)
        emitter.run_finished()
        return None

    # 3. the batch
    emitter.step_started("events")
    for p in proposals:
        emitter.tool_started(p.event_id, p.name, first_id)
    turn = TurnContext(c.thread_id, turn_id, s.now(), s.timezone, s.locale, history_before, text)
    try:
        results, decision = c.kernel.run_batch(proposals, turn, text, cancel=control.cancel)
    except BatchCancelled:
        return cancelled()
    if control.cancel.cancelled:
        return cancelled()
    for r in results:
        emitter.tool_args(r.event_id, jsonutil.canonical(r.arguments))
        emitter.tool_ended(r.event_id)
        emitter.tool_result(r.event_id, result_content(r))
    if calls:
        compact = {item["id"]: item for item in decision.summary if "id" in item}
        for call, r in zip(calls, results):
            produced.append(({"role": "tool", "tool_call_id": call["id"],
                              "content": jsonutil.canonical(compact.get(r.event_id, {"status": r.outcome.status}))},
                             False))
    for _event_id, confirmation in decision.confirmations:
        mid = emitter.message_started()
        emitter.message_content(mid, confirmation)
        emitter.message_ended(mid)
        produced.append(({"role": "assistant", "content": confirmation}, True))
    emitter.step_finished("events")
    if decision.kind == "end_session":
        c.ended = True

    # 4. at most one follow-up
    if decision.kind == "follow_up":
        emitter.step_started("follow_up")
        mid = emitter.message_started()
        instruction = FOLLOW_UP_INSTRUCTION
        if s.mode == DUAL:
            instruction += "\nResults: " + decision.summary_json
        messages = ([{"role": "system", "content": c.system_prompt()}] + c.context() + [m for m, _ in produced]
                    + [{"role": "system", "content": instruction}])
        second = HiddenBlockParser()   # a block in the second answer is never shown, in either mode
        said = []

        def on_second(delta):
            visible = second.accept(delta)
            if visible:
                said.append(visible)
                emitter.message_content(mid, visible)

        try:
            c.provider.stream(c.request(messages), "follow_up", on_content=on_second, cancel=control.cancel)
        except ProviderError as e:
            if control.cancel.cancelled:
                return cancelled()
            c.store(produced)
            emitter.close_open()
            emitter.run_error("the follow-up answer failed: %s" % e, e.code)
            return e.code
        rest = second.finish()
        if rest:
            said.append(rest)
            emitter.message_content(mid, rest)
        emitter.message_ended(mid)
        emitter.step_finished("follow_up")
        produced.append(({"role": "assistant", "content": "".join(said).strip()}, True))
    c.store(produced)
    emitter.run_finished()
    return None
