"""Probe events a suite declares, registered per thread from ``forwardedProps.agentlab.probes`` (docs/wire.md#probes).

Each becomes an event with the given schema, policy, terminal and read-only flags, timeout, conflict keys (a key
``device:{device}`` is read from the final arguments; a key naming an argument the event lacks is not held), required
fields, fallback permission, failure visibility and template confirmation; its resolver returns ``resolves`` with no
source, and its handler makes exactly one port call, ``POST /ports/probe/<name>`` (a read-only probe's retry is a
second call).
"""

import re

from .kernel import Definition, POLICIES, Resolution

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def conflict_keys(declared):
    def keys(arguments):
        out = set()
        for key in declared:
            complete = True

            def fill(m):
                nonlocal complete
                value = arguments.get(m.group(1))
                if value is None:
                    complete = False
                    return ""
                return str(value)

            resolved = _PLACEHOLDER.sub(fill, key)
            if complete:
                out.add(resolved)
        return out

    return keys


def definition(spec, ports):
    name = spec["name"]
    policy = spec.get("policy") or ("terminate" if spec.get("terminal") else "silent_success")
    if policy not in POLICIES:
        raise ValueError("probe %r has an unknown policy %r" % (name, policy))
    resolves = dict(spec.get("resolves") or {})
    template = spec.get("confirmation")
    timeout_ms = spec.get("timeoutMs") or 5000

    def handler(inv):
        answer = ports.call("/probe/" + name, {"sessionId": inv.turn.session_id, "arguments": inv.arguments,
                                               "idempotencyKey": inv.idempotency_key}, inv.cancel)
        return answer.get("result", {})

    def confirmation(arguments, payload, locale):
        # null: the default template ("<name> done."); "": renders nothing, so ChatAgent phrases it
        return name + " done." if template is None else template

    description = spec.get("description") or "Probe event declared by the suite."
    return Definition(
        name, description.splitlines()[0] if description.strip() else "Probe event declared by the suite.",
        spec.get("schema") or {"type": "object"}, handler, policy,
        resolver=lambda inp: Resolution(arguments=dict(resolves)),
        required=tuple(spec.get("requiredFields") or ()),
        fallback_allowed=bool(spec.get("fallback")),
        timeout_s=timeout_ms / 1000.0,
        read_only=bool(spec.get("readOnly")),
        conflict_keys=conflict_keys(list(spec.get("conflictKeys") or [])),
        terminal=bool(spec.get("terminal")),
        failure_visible=spec.get("failureVisible", True) is not False,
        confirmation=confirmation if policy == "template_follow_up" else None)
