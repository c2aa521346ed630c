"""Test doubles served by the tests themselves on 127.0.0.1:0: a scripted OpenAI-compatible provider and the port
stand-ins of docs/wire.md#ports (recording every call, holding volume and calendar state, injecting faults)."""

import io
import json
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler

import _path  # noqa: F401
from agentlab_wire.server import Server as QuietServer


def chunk(content=None, tool_calls=None, finish=None, usage=None, choices=True):
    delta = {}
    if content is not None:
        delta["content"] = content
    if tool_calls is not None:
        delta["tool_calls"] = tool_calls
    body = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}] if choices else []}
    if usage is not None:
        body["usage"] = usage
    return json.dumps(body)


def text_stream(text, pieces=3, events=(), tool_calls=None):
    """SSE data payloads of a reply: the text in ``pieces`` chunks, then (dual_agent) a hidden block naming
    ``events``, or (chat_agent_tools) ``tool_calls`` [(id, name, arguments_text)]."""
    full = text + ("\n[[EVENTS]] " + ", ".join(events) if events else "")
    size = max(1, len(full) // pieces)
    out = [chunk(content=full[i:i + size]) for i in range(0, len(full), size)]
    for index, (cid, name, args) in enumerate(tool_calls or []):
        out.append(chunk(tool_calls=[{"index": index, "id": cid, "type": "function",
                                      "function": {"name": name, "arguments": ""}}]))
        half = len(args) // 2
        out.append(chunk(tool_calls=[{"index": index, "function": {"arguments": args[:half]}}]))
        out.append(chunk(tool_calls=[{"index": index, "function": {"arguments": args[half:]}}]))
    out.append(chunk(finish="tool_calls" if tool_calls else "stop"))
    out.append(chunk(choices=False, usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}))
    out.append("[DONE]")
    return out


class Server:
    def __init__(self, handler_cls):
        self.server = QuietServer(("127.0.0.1", 0), handler_cls)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class FakeProvider(Server):
    """Answers each call with ``script(role, body)``: a list of data payloads, or a dict fault
    ({"status": 429}, {"reset": n}, {"stall": True}, {"raw": bytes})."""

    def __init__(self, script):
        self.script = script
        self.requests = []
        self.lock = threading.Lock()
        self.release = threading.Event()
        outer = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                role = self.headers.get("X-Agentlab-Call-Role")
                with outer.lock:
                    outer.requests.append((role, body, dict(self.headers)))
                answer = outer.script(role, body)
                if isinstance(answer, dict) and "status" in answer:
                    data = json.dumps({"error": {"message": "injected"}}).encode()
                    self.send_response(answer["status"])
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                events = answer if isinstance(answer, list) else answer.get("events", [])
                for i, data in enumerate(events):
                    if isinstance(answer, dict) and answer.get("reset") == i:
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        self.wfile.flush()
                        self.rfile.close()
                        self.wfile.close()
                        self.connection.close()   # the last reference: an RST, not a FIN
                        self.wfile = io.BytesIO()  # what the server flushes after the handler
                        self.close_connection = True
                        return
                    frame = ("data: %s\n\n" % data).encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame))
                    self.wfile.flush()
                if isinstance(answer, dict) and answer.get("stall"):
                    outer.release.wait(10)
                    return
                self.wfile.write(b"0\r\n\r\n")

        super().__init__(H)

    def roles(self):
        with self.lock:
            return [r for r, _, _ in self.requests]

    def close(self):
        self.release.set()
        super().close()


class FakePorts(Server):
    """The port stand-ins: records every call; ``faults[path]`` is {"code", "message", "transient", "hang",
    "throw"}; ``gates[path]`` is a threading.Event the call waits for before answering."""

    def __init__(self):
        self.calls = []
        self.faults = {}
        self.gates = {}
        self.arrived = {}
        self.level = 50
        self.muted = False
        self.entries = {}
        self.ended = set()
        self.lock = threading.Lock()
        self.release = threading.Event()
        outer = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                path = self.path[len("/ports"):]
                with outer.lock:
                    outer.calls.append((path, body))
                    arrived = outer.arrived.setdefault(path, threading.Event())
                arrived.set()
                status, answer = outer.answer(path, body)
                data = json.dumps(answer).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass

        super().__init__(H)

    @property
    def url(self):
        return super().url + "/ports"

    def arrival(self, path):
        with self.lock:
            return self.arrived.setdefault(path, threading.Event())

    def count(self, path):
        with self.lock:
            return sum(1 for p, _ in self.calls if p == path)

    def answer(self, path, body):
        gate = self.gates.get(path)
        if gate is not None:
            gate.wait(10)
        fault = self.faults.get(path)
        if fault:
            if fault.get("hang"):
                self.release.wait(10)
                return 503, {"error": {"code": "released", "transient": False}}
            if fault.get("throw"):
                return 500, {"error": {"code": "probe_threw", "throw": True}}
            status = 503 if fault.get("transient") else 422
            return status, {"error": {"code": fault["code"], "message": fault.get("message", ""),
                                      "transient": bool(fault.get("transient"))}}
        with self.lock:
            if path == "/device/volume":
                mode = body["mode"]
                if mode == "absolute":
                    self.level = body["value"]
                elif mode == "relative":
                    self.level = max(0, min(100, self.level + body["delta"]))
                elif mode == "mute":
                    self.muted = True
                else:
                    self.muted = False
                return 200, {"level": self.level, "muted": self.muted}
            if path == "/calendar/entries":
                key = body["idempotencyKey"]
                created = key not in self.entries
                if created:
                    self.entries[key] = body
                return 200, {"entryId": "entry-%d" % len(self.entries),
                             "start": "%sT%s+08:00" % (body["date"], body["time"]), "created": created}
            if path == "/search":
                return 200, {"hits": [{"title": "Weather", "location": "https://example.org/w",
                                       "evidence": "Mild, 14 degrees.", "retrievedAt": "2026-11-30T01:00:00Z"}]}
            if path == "/session/terminate":
                already = body["sessionId"] in self.ended
                self.ended.add(body["sessionId"])
                return 200, {"sessionId": body["sessionId"], "alreadyEnded": already}
            if path.startswith("/probe/"):
                return 200, {"result": {"probe": path[len("/probe/"):]}}
        return 404, {"error": {"code": "no_port", "message": path}}

    def close(self):
        self.release.set()
        for gate in self.gates.values():
            gate.set()
        super().close()


def read_sse(response, on_event=None, limit_s=20):
    """The AG-UI events of an SSE response, in order (``on_event`` sees each as it arrives)."""
    events = []
    data = []
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        line = response.readline()
        if not line:
            break
        text = line.decode("utf-8").rstrip("\n")
        if text == "":
            if data:
                event = json.loads("\n".join(data))
                events.append(event)
                if on_event:
                    on_event(event)
                data = []
            continue
        if text.startswith("data:"):
            data.append(text[5:].lstrip(" "))
    return events
