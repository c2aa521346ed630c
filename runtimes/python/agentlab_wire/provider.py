"""The OpenAI-compatible streaming client (docs/wire.md#provider, docs/design.md#provider-streaming-client).

One POST per call to ``{base}/chat/completions`` with ``"stream": true`` and ``stream_options.include_usage``; the
``X-Agentlab-Call-Role`` header names the call's role. The SSE stream is read line by line as it arrives; content
deltas go to a callback at once. Failures are ProviderError with one code: ``provider_http_<status>``,
``provider_connection``, ``provider_truncated``, ``provider_malformed_chunk``, ``provider_stream_error``,
``provider_not_streaming``, ``provider_response_too_large``, ``provider_deadline`` (the idle bound) or
``provider_cancelled`` (the caller cancelled the call).
"""

import http.client
import json
import socket
import threading
import time
import urllib.parse

MAX_LINE_BYTES = 1024 * 1024
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
MAX_EVENTS = 200_000
IDLE_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 5.0
FINISH_GRACE_S = 2.0
CALL_DEADLINE_S = 120.0   # bounds a provider that dribbles bytes and so never trips the idle timeout


class ProviderError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Cancellable:
    """A cancellation token: cancelling it shuts the registered socket down, which wakes a blocked read."""

    def __init__(self):
        self._lock = threading.Lock()
        self._socks = set()
        self.cancelled = False
        self._listeners = []

    def cancel(self):
        with self._lock:
            self.cancelled = True
            socks = list(self._socks)
            listeners = list(self._listeners)
        for sock in socks:
            _shutdown(sock)
        for listener in listeners:
            listener()

    def on_cancel(self, listener):
        with self._lock:
            if not self.cancelled:
                self._listeners.append(listener)
                return
        listener()

    def attach(self, sock):
        with self._lock:
            if self.cancelled:
                _shutdown(sock)
                return False
            self._socks.add(sock)
            return True

    def detach(self, sock):
        with self._lock:
            self._socks.discard(sock)


def _shutdown(sock):
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


class ToolCallAccumulator:
    """Folds streamed tool-call deltas into whole calls (docs/design.md#provider-streaming-client).

    With an ``index``, deltas accumulate by index alone: id and name from the first delta carrying a non-empty one,
    arguments concatenated; a call that never got an id is ``call_<index>``. Without an ``index`` (some
    OpenAI-compatible servers), a delta with a new non-empty id starts a call and one without an id (or with an
    empty one) continues the last call (docs/suite-format.md#provider-faults, toolCallsWithoutIndex).
    """

    def __init__(self):
        self._calls = {}
        self._order = []
        self._last = None
        self._unindexed = 0

    def add(self, delta):
        if not isinstance(delta, dict):
            return
        index = delta.get("index")
        ident = delta.get("id") or ""
        if not isinstance(index, int) or isinstance(index, bool):
            if ident and (self._last is None or self._calls[self._last]["id"] != ident):
                key = ("n", self._unindexed)
                self._unindexed += 1
            elif self._last is not None:
                key = self._last
            else:
                key = ("n", self._unindexed)
                self._unindexed += 1
        else:
            key = ("i", index)
        call = self._calls.get(key)
        if call is None:
            call = {"id": "", "name": "", "arguments": "", "index": len(self._order) if key[0] == "n" else key[1]}
            self._calls[key] = call
            self._order.append(key)
        self._last = key
        if ident and not call["id"]:
            call["id"] = ident
        function = delta.get("function") or {}
        if isinstance(function, dict):
            name = function.get("name")
            if isinstance(name, str) and name and not call["name"]:
                call["name"] = name
            args = function.get("arguments")
            if isinstance(args, str):
                call["arguments"] += args

    def calls(self):
        keys = sorted(self._order, key=lambda k: (k[0] != "i", k[1]))
        out = []
        for key in keys:
            call = dict(self._calls[key])
            if not call["id"]:
                call["id"] = "call_%d" % call["index"]
            out.append(call)
        return out


class Completion:
    def __init__(self):
        self.content = []
        self.tool_calls = ToolCallAccumulator()
        self.finish_reason = None
        self.usage = None
        self.tool_call_before_content = False
        self.saw_content = False

    @property
    def text(self):
        return "".join(self.content)


class ProviderClient:
    def __init__(self, base_url, api_key="agentlab-replay", idle_timeout=IDLE_TIMEOUT_S):
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https"):
            raise ValueError("AGENTLAB_PROVIDER_BASE_URL must be an http URL: %r" % base_url)
        self.scheme = parsed.scheme
        self.host = parsed.hostname
        self.port = parsed.port or (443 if parsed.scheme == "https" else 80)
        self.path = parsed.path.rstrip("/") + "/chat/completions"
        self.api_key = api_key
        self.idle_timeout = idle_timeout

    def stream(self, body, role, on_content=None, cancel=None):
        """Posts ``body`` (a dict) as a streaming call of ``role``; returns the Completion.

        ``on_content`` receives each content delta as it arrives; ``cancel`` (a Cancellable) ends the call with
        ``provider_cancelled``."""
        cancel = cancel or Cancellable()
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        if self.scheme == "https":
            conn = http.client.HTTPSConnection(self.host, self.port, timeout=CONNECT_TIMEOUT_S)
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=CONNECT_TIMEOUT_S)
        sock = None
        try:
            try:
                if cancel.cancelled:
                    raise ProviderError("provider_cancelled", "the call was cancelled")
                conn.connect()
                sock = conn.sock
                if not cancel.attach(sock):
                    raise ProviderError("provider_cancelled", "the call was cancelled")
                sock.settimeout(self.idle_timeout)
                conn.request("POST", self.path, body=payload, headers={
                    "Content-Type": "application/json",
                    "Accept": "text/event-stream",
                    "Authorization": "Bearer " + self.api_key,
                    "X-Agentlab-Call-Role": role,
                })
                response = conn.getresponse()
            except ProviderError:
                raise
            except (OSError, http.client.HTTPException) as e:
                raise self._failure(cancel, e)
            if response.status != 200:
                try:
                    quoted = response.read(4096).decode("utf-8", "replace")
                except (OSError, http.client.HTTPException):
                    quoted = ""
                raise ProviderError("provider_http_%d" % response.status,
                                    "HTTP %d: %s" % (response.status, quoted[:200]))
            ctype = (response.getheader("Content-Type") or "").lower()
            if ctype.startswith("application/json") or "+json" in ctype.split(";")[0]:
                quoted = response.read(200).decode("utf-8", "replace")
                raise ProviderError("provider_not_streaming", "a JSON body where a stream was asked for: " + quoted)
            return self._read(response, sock, on_content, cancel)
        finally:
            if sock is not None:
                cancel.detach(sock)
            conn.close()

    def _failure(self, cancel, error):
        if cancel.cancelled:
            return ProviderError("provider_cancelled", "the call was cancelled")
        if isinstance(error, (socket.timeout, TimeoutError)):
            return ProviderError("provider_deadline", "no byte for %.0f s" % self.idle_timeout)
        return ProviderError("provider_connection", "%s: %s" % (type(error).__name__, error))

    def _read(self, response, sock, on_content, cancel):
        completion = Completion()
        total = 0
        events = 0
        data_lines = []
        done = False
        deadline = time.monotonic() + CALL_DEADLINE_S
        try:
            while not done:
                if time.monotonic() > deadline:
                    raise ProviderError("provider_deadline", "the call took longer than %.0f s" % CALL_DEADLINE_S)
                try:
                    line = response.readline(MAX_LINE_BYTES + 1)
                except (socket.timeout, TimeoutError):
                    if completion.finish_reason is not None:
                        break  # finish grace passed: complete without [DONE]
                    raise
                if not line:
                    if data_lines:
                        done = self._event("\n".join(data_lines), completion, on_content)
                    break
                total += len(line)
                if len(line) > MAX_LINE_BYTES or total > MAX_RESPONSE_BYTES:
                    raise ProviderError("provider_response_too_large", "the response passed its size bound")
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                if text == "":
                    if data_lines:
                        events += 1
                        if events > MAX_EVENTS:
                            raise ProviderError("provider_response_too_large", "too many events")
                        done = self._event("\n".join(data_lines), completion, on_content)
                        data_lines = []
                        if completion.finish_reason is not None and sock is not None:
                            sock.settimeout(FINISH_GRACE_S)
                    continue
                if text.startswith(":"):
                    continue
                if text.startswith("data:"):
                    value = text[5:]
                    data_lines.append(value[1:] if value.startswith(" ") else value)
        except ProviderError:
            raise
        except (OSError, http.client.HTTPException, ValueError) as e:
            raise self._failure(cancel, e)
        if cancel.cancelled:
            raise ProviderError("provider_cancelled", "the call was cancelled")
        if not done and completion.finish_reason is None:
            raise ProviderError("provider_truncated", "the stream ended without [DONE] or a finish reason")
        return completion

    @staticmethod
    def _event(data, completion, on_content):
        """Applies one SSE data payload; True at [DONE]."""
        if data.strip() == "[DONE]":
            return True
        try:
            chunk = json.loads(data)
        except ValueError:
            raise ProviderError("provider_malformed_chunk", "a chunk that is not JSON: " + data[:200])
        if not isinstance(chunk, dict):
            raise ProviderError("provider_malformed_chunk", "a chunk that is not a JSON object: " + data[:200])
        if chunk.get("error") is not None:
            raise ProviderError("provider_stream_error", "an error in the stream: " + json.dumps(chunk["error"])[:200])
        if chunk.get("usage") is not None:
            completion.usage = chunk["usage"]
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            if isinstance(delta, dict):
                content = delta.get("content")
                for call in delta.get("tool_calls") or []:
                    if not completion.saw_content:
                        completion.tool_call_before_content = True
                    completion.tool_calls.add(call)
                if isinstance(content, str) and content:
                    completion.saw_content = True
                    completion.content.append(content)
                    if on_content is not None:
                        on_content(content)
            if choice.get("finish_reason"):
                completion.finish_reason = choice["finish_reason"]
        return False


def monotonic():
    return time.monotonic()
