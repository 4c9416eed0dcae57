"""Moving meaning into `description`, and short human summaries of schemas.

A hinted fix removes a keyword the provider cannot take; the hint keeps what it said in
front of the model. Hints are whole sentences appended once, so transforming twice adds
nothing.
"""

from __future__ import annotations

import json
from typing import Any

# Said where a node that accepts no value (an empty union, a union none of whose branches
# meets the node's own type) loses what made it so: the model is told, and TYP002, typing
# the node next, does not tell it the opposite.
NO_VALUE_HINT = "The server's schema accepts no value here."


def with_hint(node: dict[str, Any], hint: str) -> dict[str, Any]:
    """A copy of `node` whose description ends with `hint` (added once)."""
    out = dict(node)
    current = out.get("description")
    if not isinstance(current, str) or not current.strip():
        out["description"] = hint
    elif hint not in current:
        sep = " " if current.rstrip().endswith((".", "!", "?", ":", ")")) else ". "
        out["description"] = current.rstrip() + sep + hint
    return out


def value_text(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def values_text(values: list[Any], limit: int = 200) -> str:
    return value_text(values, limit)[1:-1] if isinstance(values, list) else value_text(values)


def summarize(schema: Any, depth: int = 0) -> str:
    """`integer`, `string (uri)`, `object with a, b`, `array of string`: for hints."""
    if schema is True or schema == {}:
        return "any value"
    if schema is False:
        return "nothing"
    if not isinstance(schema, dict):
        return value_text(schema, 40)
    if "const" in schema:
        return _with_details(value_text(schema["const"], 40), schema)
    if isinstance(schema.get("enum"), list):
        if len(schema["enum"]) == 1:
            return _with_details(value_text(schema["enum"][0], 40), schema)
        return _with_details("one of " + values_text(schema["enum"], 60), schema)
    t = schema.get("type")
    if isinstance(t, list):
        t = " or ".join(str(x) for x in t)
    if t is None:
        if "properties" in schema:
            t = "object"
        elif "items" in schema:
            t = "array"
        elif "$ref" in schema:
            return str(schema["$ref"]).rsplit("/", 1)[-1]
        else:
            for key in ("anyOf", "oneOf"):
                if isinstance(schema.get(key), list) and depth < 2:
                    return " or ".join(summarize(s, depth + 1) for s in schema[key])
            t = {"minimum": "number", "maximum": "number", "exclusiveMinimum": "number",
                 "exclusiveMaximum": "number", "multipleOf": "number", "pattern": "string",
                 "minLength": "string", "maxLength": "string", "format": "string"}.get(
                next((k for k in schema if k in ("minimum", "maximum", "exclusiveMinimum",
                                                  "exclusiveMaximum", "multipleOf", "pattern",
                                                  "minLength", "maxLength", "format")), ""))
            if t is None:
                return "any value"
    text = str(t)
    if t == "array" and depth < 2 and "items" in schema:
        text = f"array of {summarize(schema['items'], depth + 1)}"
    elif t == "object" and isinstance(schema.get("properties"), dict) and schema["properties"]:
        names = list(schema["properties"])
        shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
        text = f"object with {shown}"
    return _with_details(text, schema)


def worded(schema: Any) -> str:
    """A schema as a hint names it (`summarize`), followed by its own description word for
    word: where a hint replaces a schema (a merged union's branch, a map's value schema),
    its description is the model's only word on what it is for, and must not vanish."""
    text = summarize(schema)
    own = schema.get("description") if isinstance(schema, dict) else None
    return f"{text} ({own.strip()})" if isinstance(own, str) and own.strip() else text


def told_of(schemas: list[Any]) -> bool:
    """Whether any of these schemas has a description of its own: a fix that drops them
    (a union branch no value can meet) takes what it told the model along (`told: lost`)."""
    return any(isinstance(s, dict) and isinstance(s.get("description"), str)
               and s["description"].strip() for s in schemas)


def _with_details(text: str, schema: dict[str, Any]) -> str:
    """`text` followed by the schema's format, pattern and bounds, if any."""
    details = []
    if isinstance(schema.get("format"), str):
        details.append(str(schema["format"]))
    if isinstance(schema.get("pattern"), str):
        details.append(f"matching {value_text(schema['pattern'], 40)}")
    for key, word in (("minimum", "≥"), ("maximum", "≤"), ("exclusiveMinimum", ">"),
                      ("exclusiveMaximum", "<"), ("multipleOf", "multiple of"),
                      ("minLength", "min length"), ("maxLength", "max length")):
        if key in schema and not isinstance(schema[key], bool):
            details.append(f"{word} {value_text(schema[key], 20)}")
    if details:
        text = f"{text} ({', '.join(details)})"
    return text
