"""Canonical JSON and the idempotency key (docs/design.md#safety-idempotency-key)."""

import hashlib
import json

MAX_DEPTH = 64


def canonical(value):
    """Canonical JSON text: keys sorted, no insignificant white space, non-ASCII kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def write(value):
    """Compact JSON text, keys in their own order."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def depth(value, level=0):
    """Nesting depth of a JSON value, stopping early once past MAX_DEPTH."""
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max([depth(v, level + 1) for v in value.values()] or [level + 1])
    if isinstance(value, list):
        return max([depth(v, level + 1) for v in value] or [level + 1])
    return level


def idempotency_key(session, turn, event_id, name, arguments):
    """SHA-256 over session, turn, event id, name and canonical arguments: equivalent arguments give the same key,
    a different turn or different arguments another one."""
    text = "\u0000".join([session, turn, event_id, name, canonical(arguments)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
