"""One run's AG-UI 1.0 events as SSE frames (docs/runtime.md#agui-profiles, docs/design.md#audit-events).

The emitter owns every id — message ids ``<runId>-m<n>``, tool-call ids ``<runId>-<eventId>``, a tool result's own
message id ``<toolCallId>-result`` — and tracks what is open, so a cancelled run closes its tool calls, messages and
steps (innermost first) before ``RUN_FINISHED`` with outcome ``cancelled``. Each event is written at once as one SSE
frame with ``id:`` (its 1-based position), ``event:`` (its type) and ``data:``, and flushed.
"""

import json
import threading


class StreamClosed(Exception):
    """The client went away."""


class Emitter:
    def __init__(self, write, thread_id, run_id):
        self._write = write
        self.thread_id = thread_id
        self.run_id = run_id
        self._count = 0
        self._messages = 0
        self._steps = []
        self._open_messages = []
        self._open_tools = []
        self._ended = False
        self._lock = threading.Lock()
        self.closed = False
        self.events = []
        self.frames = []   # the encoded frames, for a client reconnecting with Last-Event-ID

    def _emit(self, kind, fields, terminal=False):
        with self._lock:
            if self._ended:
                raise RuntimeError("%s after the end of run %s" % (kind, self.run_id))
            if terminal:
                self._ended = True
            event = {"type": kind}
            event.update(fields)
            self._count += 1
            self.events.append(event)
            frame = "id: %d\nevent: %s\ndata: %s\n\n" % (self._count, kind,
                                                         json.dumps(event, ensure_ascii=False, separators=(",", ":")))
            self.frames.append(frame.encode("utf-8"))
            if self.closed:
                return
            try:
                self._write(frame.encode("utf-8"))
            except OSError:
                self.closed = True

    @property
    def ended(self):
        return self._ended

    def run_started(self):
        self._emit("RUN_STARTED", {"threadId": self.thread_id, "runId": self.run_id, "protocolVersion": "1.0"})

    def step_started(self, name):
        self._steps.append(name)
        self._emit("STEP_STARTED", {"stepName": name})

    def step_finished(self, name):
        self._steps.remove(name)
        self._emit("STEP_FINISHED", {"stepName": name})

    def message_started(self):
        self._messages += 1
        mid = "%s-m%d" % (self.run_id, self._messages)
        self._open_messages.append(mid)
        self._emit("TEXT_MESSAGE_START", {"messageId": mid, "role": "assistant"})
        return mid

    def message_content(self, mid, delta):
        if delta:
            self._emit("TEXT_MESSAGE_CONTENT", {"messageId": mid, "delta": delta})

    def message_ended(self, mid):
        self._open_messages.remove(mid)
        self._emit("TEXT_MESSAGE_END", {"messageId": mid})

    def tool_call_id(self, event_id):
        return "%s-%s" % (self.run_id, event_id)

    def tool_started(self, event_id, name, parent):
        tid = self.tool_call_id(event_id)
        self._open_tools.append(tid)
        self._emit("TOOL_CALL_START", {"toolCallId": tid, "toolCallName": name, "parentMessageId": parent})

    def tool_args(self, event_id, arguments_json):
        self._emit("TOOL_CALL_ARGS", {"toolCallId": self.tool_call_id(event_id), "delta": arguments_json})

    def tool_ended(self, event_id):
        tid = self.tool_call_id(event_id)
        if tid in self._open_tools:
            self._open_tools.remove(tid)
        self._emit("TOOL_CALL_END", {"toolCallId": tid})

    def tool_result(self, event_id, content):
        tid = self.tool_call_id(event_id)
        self._emit("TOOL_CALL_RESULT", {"messageId": tid + "-result", "toolCallId": tid,
                                        "content": json.dumps(content, ensure_ascii=False, separators=(",", ":")),
                                        "role": "tool"})

    def close_open(self):
        """Closes what is open, innermost first: tool calls, text messages, steps."""
        for tid in list(self._open_tools):
            self._open_tools.remove(tid)
            self._emit("TOOL_CALL_END", {"toolCallId": tid})
        for mid in reversed(list(self._open_messages)):
            self.message_ended(mid)
        for step in reversed(list(self._steps)):
            self.step_finished(step)

    def run_finished(self, outcome="success"):
        self._emit("RUN_FINISHED", {"threadId": self.thread_id, "runId": self.run_id, "outcome": {"type": outcome}},
                   terminal=True)

    def run_error(self, message, code):
        self._emit("RUN_ERROR", {"message": message, "code": code}, terminal=True)

    def run_cancelled(self):
        self.close_open()
        self.run_finished("cancelled")
