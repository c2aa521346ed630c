"""Starts the runtime in-process (port 0) against a FakeProvider and FakePorts, and drives turns over HTTP."""

import http.client
import json
import threading
import itertools

import _path  # noqa: F401
from agentlab_wire.server import serve
from fakes import FakePorts, FakeProvider, read_sse

_runs = itertools.count(1)


class Harness:
    def __init__(self, script):
        self.provider = FakeProvider(script)
        self.ports = FakePorts()
        self.server = serve("127.0.0.1", 0, self.provider.url + "/v1", self.ports.url)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.port = self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.provider.close()
        self.ports.close()

    def props(self, mode="dual_agent", events=None, probes=(), retransmit_of=None, **kernel):
        return {"contract": "agentlab-wire/1", "mode": mode,
                "events": events, "probes": list(probes),
                "kernel": {"concurrency": kernel.get("concurrency", 4),
                           "batchDeadlineMs": kernel.get("batchDeadlineMs", 15000),
                           "fallbackTimeoutMs": kernel.get("fallbackTimeoutMs")},
                "session": {"timezone": "Asia/Shanghai", "locale": "en", "clock": "2026-11-30T09:00:00+08:00"},
                "model": "gpt-4o-mini", "persona": "You are Pip.", "retransmitOf": retransmit_of}

    def turn(self, thread, text, props, run_id=None, on_event=None):
        run_id = run_id or "run-%d" % next(_runs)
        body = {"threadId": thread, "runId": run_id, "state": {}, "tools": [], "context": [],
                "messages": [{"id": "u-" + run_id, "role": "user", "content": text}],
                "forwardedProps": {"agentlab": props}}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = json.dumps(body).encode()
        conn.request("POST", "/agui", body=data, headers={"Content-Type": "application/json",
                                                          "Accept": "text/event-stream"})
        response = conn.getresponse()
        assert response.status == 200, response.status
        assert response.getheader("Content-Type").startswith("text/event-stream")
        events = read_sse(response, on_event)
        conn.close()
        return run_id, events

    def post(self, path, value):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        data = json.dumps(value).encode()
        conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        answer = json.loads(response.read())
        conn.close()
        return response.status, answer


def visible(events, step=None):
    """The text deltas, in order (of one step when named)."""
    out = []
    current = None
    for e in events:
        if e["type"] == "STEP_STARTED":
            current = e["stepName"]
        elif e["type"] == "STEP_FINISHED":
            current = None
        elif e["type"] == "TEXT_MESSAGE_CONTENT" and (step is None or current == step):
            out.append(e["delta"])
    return "".join(out)


def results(events):
    """[(name, arguments, content)] of the tool calls, in start order."""
    names = {}
    args = {}
    out = {}
    order = []
    for e in events:
        if e["type"] == "TOOL_CALL_START":
            names[e["toolCallId"]] = e["toolCallName"]
            order.append(e["toolCallId"])
        elif e["type"] == "TOOL_CALL_ARGS":
            args[e["toolCallId"]] = json.loads(e["delta"])
        elif e["type"] == "TOOL_CALL_RESULT":
            out[e["toolCallId"]] = json.loads(e["content"])
    return [(names[t], args.get(t), out.get(t)) for t in order]


def types(events):
    return [e["type"] for e in events]
