"""session.terminate (docs/design.md#plugin-session-terminate .. #plugin-session-port): no arguments, terminal, policy
terminate, never retried, timeout 3 s, conflict key ``session``."""

from .kernel import Definition, HandlerFailure, TERMINATE

NAME = "session.terminate"
DESCRIPTION = "End the voice conversation when the user clearly wants to leave; say goodbye first."
SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}


def definition(ports):
    def handler(inv):
        answer = ports.call("/session/terminate", {"sessionId": inv.turn.session_id,
                                                   "idempotencyKey": inv.idempotency_key}, inv.cancel)
        if "alreadyEnded" not in answer:
            raise HandlerFailure("port_bad_answer", "the session port answered no alreadyEnded")
        return {"session_id": answer.get("sessionId", inv.turn.session_id), "already_ended": answer["alreadyEnded"]}

    return Definition(NAME, DESCRIPTION, SCHEMA, handler, TERMINATE, timeout_s=3.0, terminal=True,
                      conflict_keys=lambda a: {"session"})
