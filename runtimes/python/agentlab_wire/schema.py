"""A small JSON Schema (draft 2020-12) validator: the keywords the built-in schemas and the probe schemas use.

Supported: type, enum, const, properties, required, additionalProperties (boolean or schema), items, minimum,
maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, minItems, maxItems. Any other keyword is
ignored (README.md: deviations). Violations are (JSON Pointer, message) pairs.
"""

import re

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


def _pointer(path):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else ""


def validate(schema, value, path=(), skip_required=False):
    """Violations of ``value`` against ``schema``; ``skip_required`` leaves missing required properties of the root
    object out (the pipeline reports those as missing fields, not as invalid values)."""
    out = []
    _check(schema, value, list(path), out, skip_required)
    return out


def _check(schema, value, path, out, skip_required):
    if not isinstance(schema, dict):
        if schema is False:
            out.append((_pointer(path), "is not allowed"))
        return
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        if not any(_TYPES.get(k, lambda v: True)(value) for k in kinds):
            out.append((_pointer(path), "must be " + " or ".join(kinds)))
            return
    if "enum" in schema and value not in schema["enum"]:
        out.append((_pointer(path), "must be one of " + ", ".join(str(e) for e in schema["enum"])))
    if "const" in schema and value != schema["const"]:
        out.append((_pointer(path), "must be " + str(schema["const"])))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append((_pointer(path), "must be at least %s" % schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            out.append((_pointer(path), "must be at most %s" % schema["maximum"]))
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            out.append((_pointer(path), "must be more than %s" % schema["exclusiveMinimum"]))
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            out.append((_pointer(path), "must be less than %s" % schema["exclusiveMaximum"]))
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            out.append((_pointer(path), "must have at least %d characters" % schema["minLength"]))
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            out.append((_pointer(path), "must have at most %d characters" % schema["maxLength"]))
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            out.append((_pointer(path), "must match " + schema["pattern"]))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            out.append((_pointer(path), "must have at least %d items" % schema["minItems"]))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            out.append((_pointer(path), "must have at most %d items" % schema["maxItems"]))
        if isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                _check(schema["items"], item, path + [i], out, False)
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        if not skip_required:
            for name in schema.get("required") or []:
                if name not in value:
                    out.append((_pointer(path + [name]), "is missing"))
        for name, item in value.items():
            if name in props:
                _check(props[name], item, path + [name], out, False)
            else:
                extra = schema.get("additionalProperties", True)
                if extra is False:
                    out.append((_pointer(path + [name]), "is not a declared argument"))
                elif isinstance(extra, dict):
                    _check(extra, item, path + [name], out, False)


def well_formed(schema):
    """Whether ``schema`` can serve as an argument schema: an object root."""
    return isinstance(schema, dict) and schema.get("type", "object") == "object"
