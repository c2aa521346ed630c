"""The port stand-ins over HTTP (docs/wire.md#ports): ``POST {AGENTLAB_PORTS_URL}/<port>`` with a JSON body.

``200`` with a JSON body is success. An error status with ``{"error": {"code", "message", "transient"}}`` is a
structured failure with that code (``503``, or ``transient: true``, is transient; ``422`` permanent); an answer with
``"throw": true`` makes the handler raise instead (the kernel then fails the event with ``handler_exception``). Every
call goes through the caller's Cancellable, so an event timeout or a cancelled batch interrupts a call held open.
"""

import http.client
import json
import socket
import urllib.parse

from .kernel import HandlerFailure

PORT_CALL_BOUND_S = 65.0   # above the longest event timeout (60 s): the kernel's timer ends a call first
MAX_ANSWER_BYTES = 4 * 1024 * 1024


class PortThrew(RuntimeError):
    pass


class Ports:
    def __init__(self, base_url):
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme != "http":
            raise ValueError("AGENTLAB_PORTS_URL must be an http URL: %r" % base_url)
        self.host = parsed.hostname
        self.port = parsed.port or 80
        self.prefix = parsed.path.rstrip("/")

    def call(self, path, body, cancel):
        """Posts ``body`` to the port at ``path``; returns the answer's JSON object or raises HandlerFailure."""
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        conn = http.client.HTTPConnection(self.host, self.port, timeout=PORT_CALL_BOUND_S)
        sock = None
        try:
            if cancel.cancelled:
                raise HandlerFailure("interrupted", "the event was interrupted before its port call")
            try:
                conn.connect()
                sock = conn.sock
                if not cancel.attach(sock):
                    raise HandlerFailure("interrupted", "the event was interrupted before its port call")
                conn.request("POST", self.prefix + path, body=payload,
                             headers={"Content-Type": "application/json", "Accept": "application/json"})
                response = conn.getresponse()
                raw = response.read(MAX_ANSWER_BYTES + 1)
            except HandlerFailure:
                raise
            except (OSError, http.client.HTTPException) as e:
                if cancel.cancelled:
                    raise HandlerFailure("interrupted", "the event was interrupted during its port call")
                if isinstance(e, (socket.timeout, TimeoutError)):
                    raise HandlerFailure("port_timeout", "the port did not answer", transient=True)
                raise HandlerFailure("port_unreachable", "%s: %s" % (type(e).__name__, e), transient=True)
        finally:
            if sock is not None:
                cancel.detach(sock)
            conn.close()
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            answer = None
        if response.status == 200:
            if not isinstance(answer, dict):
                raise HandlerFailure("port_bad_answer", "the port answered no JSON object")
            return answer
        error = answer.get("error") if isinstance(answer, dict) else None
        if isinstance(error, dict):
            if error.get("throw") is True:
                raise PortThrew(error.get("message") or error.get("code") or "the port asked the handler to throw")
            code = error.get("code") if isinstance(error.get("code"), str) and error.get("code") else (
                "port_http_%d" % response.status)
            transient = bool(error.get("transient")) or response.status == 503
            raise HandlerFailure(code, error.get("message") or "", transient=transient)
        raise HandlerFailure("port_http_%d" % response.status, "the port answered HTTP %d" % response.status,
                             transient=response.status in (502, 503, 504))
