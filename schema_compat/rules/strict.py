"""Strict modes (OpenAI Structured Outputs, Anthropic strict tool use).

Both grammars want every object closed (`additionalProperties: false`); OpenAI also wants
every property listed in `required`, optional ones taking `null` instead of being left out.
Anthropic strict takes no numeric or length bounds. Both have size limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import doc_examples
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .dropping import Drop, drop_rule
from .hints import summarize, value_text, with_hint
from .shape import looks_object

NULL_HINT = "Null when not given."


def _is_object(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    t = node.get("type")
    return looks_object(node) or (isinstance(t, list) and "object" in t)


# --- OBJ008: additionalProperties false on every object ----------------------------------

def _declared(node: dict[str, Any]) -> bool:
    """The object lists its properties (at least one: closing an empty one leaves only
    `{}`) and requires none it does not list."""
    props, req = node.get("properties"), node.get("required")
    return isinstance(props, dict) and bool(props) and (
        not isinstance(req, list) or all(r in props for r in req if isinstance(r, str)))


def detect_closed(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if _is_object(node) and node.get("additionalProperties") is not False:
        absent = "additionalProperties" not in node
        yield Hit("strict mode needs `additionalProperties: false` on every object",
                  () if absent else ("additionalProperties",), "additionalProperties",
                  "lossless" if absent and _declared(node) else "lossy", "narrower",
                  "kept" if absent and _declared(node) else "described")


def fix_closed(node: Any, ctx: NodeContext) -> Fixed:
    if "additionalProperties" not in node:
        if _declared(node):
            return Fixed({**node, "additionalProperties": False}, (Edit(
                (), "lossy", "added `additionalProperties: false`; keys not listed can no "
                "longer be sent", accepts="narrower", told="kept"),))
        out = with_hint({**node, "additionalProperties": False},
                        "The server also accepts keys not listed here.")
        return Fixed(out, (Edit((), "lossy", "added `additionalProperties: false` to an "
                                             "object with undeclared keys; they can no "
                                             "longer be sent", accepts="narrower",
                                told="described"),))
    extra = node["additionalProperties"]
    out = with_hint({**node, "additionalProperties": False},
                    f"The server also accepts other keys ({summarize(extra)}).")
    return Fixed(out, (Edit(("additionalProperties",), "lossy",
                            f"`additionalProperties: {value_text(extra, 40)}` became `false`; "
                            "other keys can no longer be sent", accepts="narrower",
                            told="described"),))


# --- OBJ009: every property required, optional ones nullable -----------------------------

def _missing(node: Any) -> list[str]:
    if not _is_object(node) or not isinstance(node.get("properties"), dict):
        return []
    req = node.get("required")
    req = req if isinstance(req, list) else []
    return [k for k in node["properties"] if k not in req]


def _accepts_null(schema: Any) -> bool:
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    t = schema.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t):
        # (an `enum` that is no list is VAL005's, removed before this matters)
        return not isinstance(schema.get("enum"), list) or None in schema["enum"]
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and any(_accepts_null(b) for b in schema[key]):
            return True
    return False


def make_nullable(schema: Any) -> Any:
    """The schema, also accepting `null` (a type list where it can, else an anyOf)."""
    if _accepts_null(schema) or not isinstance(schema, dict):
        return schema
    t = schema.get("type")
    if (isinstance(t, (str, list)) and t != "null"
            and not any(k in schema for k in ("$ref", "anyOf", "oneOf", "allOf", "const"))):
        out = dict(schema)
        out["type"] = [t, "null"] if isinstance(t, str) else [*t, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return with_hint(out, NULL_HINT)
    if isinstance(schema.get("anyOf"), list):
        return with_hint({**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}, NULL_HINT)
    inner = {k: v for k, v in schema.items() if k not in ("description", "title")}
    out = {k: v for k, v in schema.items() if k in ("description", "title")}
    out["anyOf"] = [inner, {"type": "null"}]
    return with_hint(out, NULL_HINT)


def _no_required(node: Any) -> bool:
    return _is_object(node) and isinstance(node.get("properties"), dict) and not isinstance(
        node.get("required"), list)


def detect_all_required(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    missing = _missing(node)
    if not missing and _no_required(node):
        yield Hit("strict mode needs `required`, even when empty", (), "required",
                  "lossless")
    elif missing:
        yield Hit("strict mode needs every property in `required`; missing "
                  + ", ".join(repr(m) for m in missing[:5])
                  + (" …" if len(missing) > 5 else ""),
                  # The finding points at `required` when there is one, else at the object:
                  # a path must reach a node of the original.
                  ("required",) if "required" in node else (), "required", "lossy",
                  "changed" if any(not _accepts_null(node["properties"][m]) for m in missing)
                  else "narrower")


def fix_all_required(node: Any, ctx: NodeContext) -> Fixed | None:
    missing = _missing(node)
    if not missing:
        if not _no_required(node):
            return None
        return Fixed({**node, "required": []},
                     (Edit(("required",), "lossless", "added an empty `required`"),))
    props = dict(node["properties"])
    for name in missing:
        props[name] = make_nullable(props[name])
    out = {**node, "properties": props, "required": list(node["properties"])}
    # Absent is no longer accepted (narrower); null now is, where it was not (wider).
    widened = any(props[name] is not node["properties"][name] for name in missing)
    return Fixed(out, (Edit(("required",), "lossy",
                            "made " + ", ".join(f"`{m}`" for m in missing) + " required and "
                            "nullable (send null to leave one out; drop nulls before calling "
                            "the server)", accepts="changed" if widened else "narrower",
                            told="described" if widened else "kept"),))


# --- LIM002-LIM004: size limits ----------------------------------------------------------

def _object_depth(schema: Any) -> int:
    from ..schema.walker import iter_nodes

    depth = 0
    for path, node in iter_nodes(schema):
        if _is_object(node):
            depth = max(depth, 1 + sum(1 for p in path if p == "properties"))
    return depth


def detect_depth(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    depth = _object_depth(node)
    if depth > 10:
        yield Hit(f"objects nest {depth} levels deep; strict mode allows 10", (), None)


def _sizes(schema: Any) -> tuple[int, int, int]:
    from ..schema.walker import iter_nodes

    props = chars = enums = 0
    for _, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        for key in ("properties", "$defs", "definitions"):
            if isinstance(node.get(key), dict):
                chars += sum(len(k) for k in node[key])
                if key == "properties":
                    props += len(node[key])
        if isinstance(node.get("enum"), list):
            enums += len(node["enum"])
            chars += sum(len(v) for v in node["enum"] if isinstance(v, str))
        if isinstance(node.get("const"), str):
            chars += len(node["const"])
    return props, chars, enums


def detect_size(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    props, chars, enums = _sizes(node)
    if props > 5000:
        yield Hit(f"{props} object properties; strict mode allows 5,000", (), None)
    if chars > 120_000:
        yield Hit(f"{chars} characters of property names, definition names, enum and const "
                  "values; strict mode allows 120,000", (), None)
    if enums > 1000:
        yield Hit(f"{enums} enum values; strict mode allows 1,000", (), None)


def _complexity(schema: Any) -> tuple[int, int]:
    from ..schema.walker import iter_nodes

    optional = unions = 0
    for _, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("properties"), dict):
            raw = node.get("required")
            req: list[Any] = raw if isinstance(raw, list) else []
            optional += sum(1 for k in node["properties"] if k not in req)
        if isinstance(node.get("anyOf"), list) or isinstance(node.get("type"), list):
            unions += 1
    return optional, unions


def tally_complexity(schema: Any) -> dict[str, int]:
    optional, unions = _complexity(schema)
    return {"optional": optional, "unions": unions}


def detect_complexity(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    """Flag the tool whose schema takes the request past a limit, and every one after it."""
    own = tally_complexity(tool.schema)
    before = tool.tallies_before
    for key, limit, what in (("optional", 24, "optional parameters"),
                             ("unions", 16, "parameters with `anyOf` or a type list")):
        total = before.get(key, 0) + own[key]
        if total > limit and own[key]:
            earlier = before.get(key, 0)
            yield Hit(f"{own[key]} {what} here"
                      + (f", {total} with the {earlier} of the tools listed before it"
                         if earlier else "")
                      + f"; strict tool use allows {limit} per request", (), None)


_BOUND_WORDS = {"minimum": "Must be at least {v}.", "maximum": "Must be at most {v}.",
                "minLength": "At least {v} characters.", "maxLength": "At most {v} characters.",
                "minItems": "At least {v} items.", "maxItems": "At most {v} items.",
                "minProperties": "At least {v} keys.", "maxProperties": "At most {v} keys."}

_CLOSED = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}

_STRICT_BOUNDS = Drop(
    ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"),
    "`{keyword}` is not supported in strict mode",
    lambda k, v, n: _BOUND_WORDS[k].format(v=value_text(v)),
    applies=lambda k, v, n: k != "minItems" or not (isinstance(v, int) and v in (0, 1)))




def detect_strict_bounds(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _STRICT_BOUNDS.detect(node, ctx)


def fix_strict_bounds(node: Any, ctx: NodeContext) -> Fixed | None:
    return _STRICT_BOUNDS.fix(node, ctx)


RULES: list[Rule] = [
    Rule(
        code="OBJ008", name="strict-open-object", severity="error",
        message="strict mode needs `additionalProperties: false` on every object",
        safety="lossy", accepts="narrower", told="kept",
        cases=(("on an object whose other keys are described (or a map)", "narrower",
                "described"),),
        fix_title="Set `additionalProperties: false`",
        detect=detect_closed, fix=fix_closed, claims=frozenset({"additionalProperties"}),
        docs=RuleDocs(
            what="An object without `additionalProperties: false` (absent, `true`, or a "
                 "schema for map values). OpenAI strict mode requires it on every object "
                 "(documented); Anthropic's SDK always adds it (its docs reject anything but "
                 "`false`; whether a missing one is refused is unverified).",
            error="Invalid schema for function 'f': In context=('properties', 'permissions'), "
                  "'additionalProperties' is required to be supplied and to be false.",
            fix="Add `additionalProperties: false`. The object then refuses keys it does not "
                "list, which the server accepted: narrower, so lossy. When it was absent "
                "from an object that lists its properties, nothing the model was told "
                "changes (only undeclared keys are closed off); when it was `true` or a "
                "schema (a map), or the object lists no properties or requires unlisted "
                "ones, the other keys are described.",
            before=_CLOSED, after={**_CLOSED, "additionalProperties": False},
            sources=("[OAIS-01](../providers.md#oais-01), [ANTS-03](../providers.md#ants-03)",
                     "lastmile-ai/openai-agents-mcp#2",
                     "openai/openai-agents-python#1023"),
        ),
    ),
    Rule(
        code="OBJ009", name="strict-optional-property", severity="error",
        message="strict mode needs every property in `required`", safety="lossy",
        accepts="changed", told="described",
        cases=(("when the optional properties accept null already", "narrower", "kept"),
               ("adding an empty `required`", "equal", "kept")),
        fix_title="Require every property; optional ones become nullable",
        detect=detect_all_required, fix=fix_all_required,
        docs=RuleDocs(
            what="An object whose `required` does not list every property. OpenAI strict "
                 "mode requires them all; an optional parameter is expressed as one that "
                 "may be `null`.",
            error="Invalid schema for function 'f': In context=(), 'required' is required to "
                  "be supplied and to be an array including every key in properties. "
                  "Missing 'id'.",
            fix="List every property in `required`; each optional one also accepts `null` "
                "(`type: [T, \"null\"]`, or an `anyOf` with `{type: null}` where a type list "
                "cannot say it) and its description says so. Hinted: the model sends `null` "
                "where it used to leave the key out, so a client or proxy drops null values "
                "of these properties before calling the server.",
            before={"type": "object", "properties": {"q": {"type": "string"},
                                                      "n": {"type": "integer"}},
                    "required": ["q"], "additionalProperties": False},
            after={"type": "object", "properties": {
                "q": {"type": "string"},
                "n": {"type": ["integer", "null"], "description": NULL_HINT}},
                "required": ["q", "n"], "additionalProperties": False},
            sources=("[OAIS-02](../providers.md#oais-02)", "ash-project/ash_ai#155",
                     "laravel/ai#506"),
        ),
    ),
    drop_rule(
        code="CON007", name="strict-bounds", drop=_STRICT_BOUNDS,
        detect=detect_strict_bounds, fix=fix_strict_bounds,
        docs=RuleDocs(
            what="Numeric and length bounds under Anthropic strict tool use: `minimum`, "
                 "`maximum`, `minLength`, `maxLength`, `maxItems`, and `minItems` above 1.",
            error="400 invalid_request_error naming the unsupported keyword (\"If you use an "
                  "unsupported feature, you'll receive a 400 error with details\").",
            fix="Remove it; the description states the bound (as Anthropic's SDK does).",
            before={"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}},
                    "required": ["n"], "additionalProperties": False},
            after={"type": "object", "properties": {"n": {
                "type": "integer", "description": "Must be at least 1."}},
                "required": ["n"], "additionalProperties": False},
            sources=("[ANTS-02](../providers.md#ants-02), [ANTS-08](../providers.md#ants-08)",),
        ),
    ),
    Rule(
        code="LIM002", name="strict-nesting-depth", severity="error", scope="document",
        message="objects nest deeper than strict mode allows", safety=None, fix_title=None,
        detect=detect_depth,
        docs=RuleDocs(
            what="Objects nested more than 10 levels deep under OpenAI strict mode.",
            error="Invalid schema: objects nested more than 10 levels (message unverified).",
            fix="Flatten the schema in the server; schema-compat does not restructure it.",
            before=doc_examples.nested_objects(11), passing=doc_examples.nested_objects(10),
            sources=("[OAIS-11](../providers.md#oais-11)",),
        ),
    ),
    Rule(
        code="LIM003", name="strict-schema-size", severity="error", scope="document",
        message="the schema is larger than strict mode allows", safety=None, fix_title=None,
        detect=detect_size,
        docs=RuleDocs(
            what="More than 5,000 object properties, more than 120,000 characters of "
                 "property names, definition names, enum and const values, or more than "
                 "1,000 enum values, under OpenAI strict mode (documented; checked per tool, "
                 "while OpenAI counts them per schema).",
            error="Invalid schema: limits exceeded (message unverified).",
            fix="Split the tool or shorten its enums in the server.",
            before=doc_examples.big_enum(1001), passing=doc_examples.big_enum(1000),
            sources=("[OAIS-11](../providers.md#oais-11)",),
        ),
    ),
    Rule(
        code="LIM004", name="strict-complexity", severity="error", scope="tool",
        message="more optional parameters or unions than strict tool use allows per request",
        safety=None, fix_title=None, detect=detect_complexity, tally=tally_complexity,
        docs=RuleDocs(
            what="More than 24 optional parameters, or more than 16 parameters using `anyOf` "
                 "or a type list, summed over the strict tools of one request (Anthropic "
                 "strict tool use). The tools of one source are taken as one request: the "
                 "tool that crosses a limit is flagged, and every later one that adds to it.",
            error="400 invalid_request_error (schema too complex).",
            fix="Mark fewer tools strict, send fewer tools per request, or require more "
                "parameters.",
            before=doc_examples.union_params(17), passing=doc_examples.union_params(16),
            sources=("[ANTS-05](../providers.md#ants-05)", "genkit-ai/genkit#5230"),
        ),
    ),
]
