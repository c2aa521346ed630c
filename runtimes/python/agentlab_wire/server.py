"""The HTTP side of agentlab-wire/1 (docs/wire.md#endpoint, #start-up): ``POST /agui`` (RunAgentInput in, SSE out),
``GET /agentlab/capabilities`` and ``POST /agentlab/interrupt``. Loopback only; one thread per request."""

import collections
import json
import os
import threading
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .agui import Emitter
from .ports import Ports
from .provider import ProviderClient
from .turn import Conversation, Settings, SettingsError, TurnControl, capabilities, run_turn

MAX_BODY = 1024 * 1024
MAX_CONVERSATIONS = 512
MAX_KEPT_RUNS = 64   # finished runs kept for Last-Event-ID resumption
KEEP_ALIVE_S = 10.0


class Runtime:
    """The runtime's state: its configuration, the conversations by thread id and the runs in flight."""

    def __init__(self, provider_url, ports_url, api_key="agentlab-replay", agui_path="/agui"):
        self.provider = ProviderClient(provider_url, api_key) if provider_url else None
        self.ports = Ports(ports_url) if ports_url else None
        self.agui_path = agui_path
        self.lock = threading.Lock()
        self.conversations = collections.OrderedDict()
        self.running = {}
        self.finished = collections.OrderedDict()   # (threadId, runId) -> frames of a finished run

    def keep(self, key, frames):
        with self.lock:
            self.finished[key] = frames
            while len(self.finished) > MAX_KEPT_RUNS:
                self.finished.popitem(last=False)

    def conversation(self, thread_id, settings):
        with self.lock:
            conv = self.conversations.get(thread_id)
            if conv is None:
                conv = Conversation(thread_id, settings, self.ports, self.provider)
                self.conversations[thread_id] = conv
                while len(self.conversations) > MAX_CONVERSATIONS:
                    self.conversations.popitem(last=False)
            else:
                self.conversations.move_to_end(thread_id)
            return conv


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "agentlab-python-runtime"
    runtime = None

    def log_message(self, fmt, *args):
        if os.environ.get("AGENTLAB_RUNTIME_LOG"):
            super().log_message(fmt, *args)

    def _json(self, status, value):
        body = json.dumps(value, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _body(self):
        try:
            length = int(self.headers.get("Content-Length") or "-1")
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            self._json(411, {"error": "a Content-Length is required"})
            return None
        if length > MAX_BODY:
            self.close_connection = True
            self._json(413, {"error": "the body is over %d bytes" % MAX_BODY})
            return None
        raw = self.rfile.read(length)
        try:
            value = json.loads(raw.decode("utf-8"))
        except ValueError:
            self._json(400, {"error": "the body is not JSON"})
            return None
        if not isinstance(value, dict):
            self._json(400, {"error": "the body is not a JSON object"})
            return None
        return value

    def do_GET(self):
        if self.path.split("?")[0] == "/agentlab/capabilities":
            self._json(200, capabilities(self.runtime.ports))
        else:
            self._json(404, {"error": "no route %s" % self.path})

    def do_POST(self):
        path = self.path.split("?")[0]
        if path == self.runtime.agui_path:
            self._agui()
        elif path == "/agentlab/interrupt":
            body = self._body()
            if body is None:
                return
            key = (body.get("threadId"), body.get("runId"))
            with self.runtime.lock:
                control = self.runtime.running.get(key)
            if control is None:
                self._json(200, {"interrupted": False, "reason": "no such run is running"})
            else:
                control.cancel.cancel()
                self._json(200, {"interrupted": True})
        else:
            self._json(404, {"error": "no route %s" % self.path})

    def _agui(self):
        run_input = self._body()
        if run_input is None:
            return
        thread_id = run_input.get("threadId")
        run_id = run_input.get("runId")
        if not isinstance(thread_id, str) or not thread_id or not isinstance(run_id, str) or not run_id:
            self._json(400, {"error": "a RunAgentInput needs threadId and runId"})
            return
        props = (run_input.get("forwardedProps") or {}).get("agentlab") if isinstance(
            run_input.get("forwardedProps"), dict) else None
        key = (thread_id, run_id)
        last_id = self.headers.get("Last-Event-ID")
        if last_id is not None:
            with self.runtime.lock:
                kept = self.runtime.finished.get(key)
                live = key in self.runtime.running
            if live:
                self._json(409, {"error": "run %s is still running; resume it once it has ended" % run_id})
                return
            if kept is not None:
                self._resume(kept, last_id)
                return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        control = TurnControl(thread_id, run_id)
        write_lock = threading.Lock()
        last = [time.monotonic()]

        def write(data):
            with write_lock:
                try:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                    last[0] = time.monotonic()
                except OSError:
                    control.cancel.cancel()   # the client went away: stop the turn
                    raise

        emitter = Emitter(write, thread_id, run_id)
        stop = threading.Event()

        def keep_alive():
            while not stop.wait(1.0):
                if time.monotonic() - last[0] >= KEEP_ALIVE_S and not emitter.closed:
                    try:
                        write(b": keep-alive\n\n")
                    except OSError:
                        return

        threading.Thread(target=keep_alive, daemon=True).start()
        with self.runtime.lock:
            self.runtime.running[key] = control
        try:
            if self.runtime.provider is None or self.runtime.ports is None:
                emitter.run_started()
                emitter.run_error("AGENTLAB_PROVIDER_BASE_URL and AGENTLAB_PORTS_URL must be set", "not_configured")
                return
            try:
                settings = Settings(props)
                conversation = self.runtime.conversation(thread_id, settings)
            except (SettingsError, ValueError) as e:
                emitter.run_started()
                emitter.run_error(str(e), "invalid_settings")
                return
            with conversation.lock:
                try:
                    run_turn(conversation, run_input, emitter, control, settings.retransmit_of)
                except Exception as e:   # never a stream without its terminal event
                    if not emitter.ended:
                        try:
                            emitter.close_open()
                        except Exception:
                            pass
                        emitter.run_error("the runtime failed: %s: %s" % (type(e).__name__, e), "runtime_error")
                    raise
        finally:
            stop.set()
            with self.runtime.lock:
                self.runtime.running.pop(key, None)
            if emitter.ended:
                self.runtime.keep(key, emitter.frames)
            try:
                with write_lock:
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
            except OSError:
                pass


    def _resume(self, frames, last_id):
        """The events after ``last_id`` of a finished run (ids are the events' 1-based positions)."""
        try:
            after = max(0, int(last_id))
        except ValueError:
            after = 0
        body = b"".join(frames[after:])
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(ThreadingHTTPServer):
    """A threading HTTP server that does not print a traceback when a client hangs up: the kit closes a stream it
    has read, or gives up on a hung one, and that is not an error of the runtime."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def serve(host, port, provider_url, ports_url, api_key="agentlab-replay", agui_path="/agui"):
    """A started (not yet serving) server bound to host:port (port 0: any free one)."""
    runtime = Runtime(provider_url, ports_url, api_key, agui_path)
    handler = type("BoundHandler", (Handler,), {"runtime": runtime})
    server = Server((host, port), handler)
    server.runtime = runtime
    return server
