"""CON: constraints on values that the provider's schema cannot state.

Exclusive bounds, `multipleOf`, `uniqueItems`, `contains`, tuples (`prefixItems`), formats
it does not know, and under Anthropic strict tool use every numeric and length bound. Each
narrows what the server accepts; the provider only needs the shape of the arguments, so the
constraint is removed and said in the description (hinted), or rewritten exactly where the
dialect has an equivalent (an exclusive bound, a tuple of one type). The server still
validates, so nothing it refuses gets through.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..schema.hints import value_text, with_hint, worded
from ..schema.shape import is_number
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .dropping import Drop, drop_rule

_EXCL = {"exclusiveMinimum": ("minimum", "greater than"),
         "exclusiveMaximum": ("maximum", "less than")}


def detect_exclusive_bound(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict):
        return
    for k in _EXCL:
        if k in node:
            yield Hit(f"`{k}` is not a field of the provider's schema", (k,), k,
                      "lossless" if node.get("type") == "integer" or node[k] is False
                      else "hinted")


def fix_exclusive_bound(node: Any, ctx: NodeContext) -> Fixed:
    """Integers get the exact inclusive bound; numbers get a sentence, never a wrong bound."""
    out = dict(node)
    edits = []
    for k, (inclusive, words) in _EXCL.items():
        if k not in node:
            continue
        value = out.pop(k)
        lower = inclusive == "minimum"
        if isinstance(value, bool):  # draft 4: the flag makes `minimum` exclusive
            if not value or not is_number(out.get(inclusive)):
                edits.append(Edit((k,), "lossless", f"removed `{k}: {str(value).lower()}`"))
                continue
            bound = out.pop(inclusive)
        elif is_number(value):
            bound = value
        else:
            edits.append(Edit((k,), "lossless", f"removed a malformed `{k}`"))
            continue
        if node.get("type") == "integer":
            exact = math.floor(bound) + 1 if lower else math.ceil(bound) - 1
            current = out.get(inclusive)
            if is_number(current):
                exact = max(exact, current) if lower else min(exact, current)
            out[inclusive] = int(exact)
            edits.append(Edit((k,), "lossless", f"`{k}: {bound}` → `{inclusive}: {exact}` "
                                                "(same integers)"))
            continue
        current = out.get(inclusive)
        if is_number(current) and ((lower and current > bound) or (not lower and current < bound)):
            edits.append(Edit((k,), "lossless", f"removed `{k}`, already implied by "
                                                f"`{inclusive}`"))
            continue
        if is_number(current) and current == bound:
            out.pop(inclusive)  # an inclusive bound equal to the exclusive one would be wrong
        out = with_hint(out, f"Must be {words} {value_text(bound)}.")
        edits.append(Edit((k,), "hinted", f"removed `{k}`; the description says "
                                          f"\"must be {words} {value_text(bound)}\""))
    return Fixed(out, tuple(edits))


def _format_ok(node: dict[str, Any], ctx: NodeContext) -> bool:
    formats = ctx.profile.formats
    if formats is None or not isinstance(node.get("format"), str):
        return True
    t = node.get("type")
    allowed = formats.get(t if isinstance(t, str) else "", frozenset())
    if node["format"] == "enum":
        return "enum" in allowed and bool(node.get("enum"))
    return node["format"] in allowed


def detect_unsupported_format(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and "format" in node and not _format_ok(node, ctx):
        return (Hit(f"`format: {value_text(node['format'])}` is not accepted for "
                    f"`type: {node.get('type')}`", ("format",), "format"),)
    return ()


def fix_unsupported_format(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k != "format"}
    fmt = node["format"]
    if fmt == "enum" or not isinstance(fmt, str):
        return Fixed(out, (Edit(("format",), "lossless", f"removed `format: {fmt}`"),))
    out = with_hint(out, f"Format: {fmt}.")
    return Fixed(out, (Edit(("format",), "hinted",
                            f"removed `format: {fmt}`; the description names it"),))


def detect_tuple_items(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and (isinstance(node.get("prefixItems"), list)
                                   or isinstance(node.get("items"), list)):
        key = "prefixItems" if "prefixItems" in node else "items"
        return (Hit(f"tuple `{key}` (a schema per position) is not supported", (key,), key),)
    return ()


def fix_tuple_items(node: Any, ctx: NodeContext) -> Fixed:
    key = "prefixItems" if isinstance(node.get("prefixItems"), list) else "items"
    positions = [p for p in node[key] if isinstance(p, (dict, bool))]
    out = {k: v for k, v in node.items() if k not in (key, "additionalItems")}
    if key == "prefixItems" and isinstance(node.get("items"), (dict, bool)):
        rest = node["items"]
        positions_all = [*positions, rest] if rest is not False else positions
    else:
        positions_all = positions
    uniq: list[Any] = []
    for p in positions_all:
        if p not in uniq:
            uniq.append(p)
    out["type"] = "array"
    out["items"] = uniq[0] if len(uniq) == 1 else {"anyOf": uniq}
    closed = (key == "prefixItems" and node.get("items") is False) or \
        (key == "items" and node.get("additionalItems") is False)
    if closed and "maxItems" not in out:
        out["maxItems"] = len(positions)
    text = "; ".join(f"{i + 1}: {worded(p)}" for i, p in enumerate(positions))
    out = with_hint(out, f"Positions: {text}.")
    return Fixed(out, (Edit((key,), "hinted",
                            f"tuple `{key}` → one `items` schema; positions described"),))


_MULTIPLE_OF = Drop(("multipleOf",),
                    lambda k, v, n: f"Must be a multiple of {value_text(v)}.")


def detect_multiple_of(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _MULTIPLE_OF.detect(node, ctx)


def fix_multiple_of(node: Any, ctx: NodeContext) -> Fixed | None:
    return _MULTIPLE_OF.fix(node, ctx)


_UNIQUE_ITEMS = Drop(("uniqueItems",),
                     lambda k, v, n: "Items must be unique." if v is True else None)


def detect_unique_items(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _UNIQUE_ITEMS.detect(node, ctx)


def fix_unique_items(node: Any, ctx: NodeContext) -> Fixed | None:
    return _UNIQUE_ITEMS.fix(node, ctx)


_CONTAINS = Drop(
    ("contains", "minContains", "maxContains"),
    lambda k, v, n: (f"Must contain at least one {worded(v)}."
                     if k == "contains" else None))


def detect_contains(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _CONTAINS.detect(node, ctx)


def fix_contains(node: Any, ctx: NodeContext) -> Fixed | None:
    return _CONTAINS.fix(node, ctx)


_BOUND_WORDS = {"minimum": "Must be at least {v}.", "maximum": "Must be at most {v}.",
                "minLength": "At least {v} characters.", "maxLength": "At most {v} characters.",
                "minItems": "At least {v} items.", "maxItems": "At most {v} items.",
                "minProperties": "At least {v} keys.", "maxProperties": "At most {v} keys."}

_STRICT_BOUNDS = Drop(
    ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"),
    lambda k, v, n: _BOUND_WORDS[k].format(v=value_text(v)),
    message="`{keyword}` is not supported in strict mode",
    applies=lambda k, v, n: k != "minItems" or not (isinstance(v, int) and v in (0, 1)))


def detect_strict_bounds(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _STRICT_BOUNDS.detect(node, ctx)


def fix_strict_bounds(node: Any, ctx: NodeContext) -> Fixed | None:
    return _STRICT_BOUNDS.fix(node, ctx)


RULES: list[Rule] = [
    Rule(
        code="CON001", name="exclusive-bound", severity="error",
        cases=(("on integers: the exact inclusive bound", "equal", "kept"),),
        triggers=frozenset(_EXCL),
        message="exclusive bounds are not supported", safety="hinted",
        fix_title="Exact inclusive bound for integers, a description for numbers",
        claims=frozenset(_EXCL), detect=detect_exclusive_bound, fix=fix_exclusive_bound,
        docs=RuleDocs(
            what="`exclusiveMinimum` / `exclusiveMaximum` (Zod's `.positive()`, Pydantic's "
                 "`gt`/`lt`), in the 2019+ numeric form or draft 4's boolean form.",
            error='Invalid JSON payload received. Unknown name "exclusiveMinimum" at '
                  "'tools[0].function_declarations[0].parameters.properties[0].value': "
                  "Cannot find field.",
            fix="For integers, the exact inclusive bound (`exclusiveMinimum: 0` → `minimum: "
                "1`, lossless). For numbers, no inclusive bound would be right, so the bound "
                "moves into the description (hinted).",
            before={"type": "object", "properties": {
                "n": {"type": "integer", "exclusiveMinimum": 0},
                "x": {"type": "number", "exclusiveMaximum": 1}}},
            after={"type": "object", "properties": {
                "n": {"type": "integer", "minimum": 1},
                "x": {"type": "number", "description": "Must be less than 1."}}},
            sources=("[GEM-01](../providers.md#gem-01)", "openswarm-ai/openswarm#24"),
        ),
    ),
    drop_rule(
        code="CON002", name="multiple-of", drop=_MULTIPLE_OF,
        detect=detect_multiple_of, fix=fix_multiple_of,
        docs=RuleDocs(
            what="`multipleOf`.",
            error='Invalid JSON payload received. Unknown name "multipleOf" …',
            fix="Remove; the description states it.",
            before={"type": "object", "properties": {"n": {"type": "integer",
                                                           "multipleOf": 5}}},
            after={"type": "object", "properties": {"n": {
                "type": "integer", "description": "Must be a multiple of 5."}}},
            sources=("[GEM-01](../providers.md#gem-01)", "AstrBotDevs/AstrBot#7572"),
        ),
    ),
    drop_rule(
        code="CON003", name="unique-items", drop=_UNIQUE_ITEMS,
        detect=detect_unique_items, fix=fix_unique_items,
        docs=RuleDocs(
            what="`uniqueItems` (Python `set[...]`, Zod sets).",
            error='Invalid JSON payload received. Unknown name "uniqueItems" …',
            fix="Remove; `true` is described, and repeated items are then accepted "
                "(hinted); `false`, which constrains nothing, goes as it is (lossless).",
            before={"type": "object", "properties": {"tags": {
                "type": "array", "items": {"type": "string"}, "uniqueItems": True}}},
            after={"type": "object", "properties": {"tags": {
                "type": "array", "items": {"type": "string"},
                "description": "Items must be unique."}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    drop_rule(
        code="CON004", name="contains", drop=_CONTAINS,
        detect=detect_contains, fix=fix_contains,
        docs=RuleDocs(
            what="`contains` and its counts.",
            error='Invalid JSON payload received. Unknown name "contains" …',
            fix="Remove; `contains` is described.",
            before={"type": "object", "properties": {"a": {
                "type": "array", "items": {"type": "string"}, "contains": {"const": "x"}}}},
            after={"type": "object", "properties": {"a": {
                "type": "array", "items": {"type": "string"},
                "description": 'Must contain at least one "x".'}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="CON005", name="tuple-items", severity="error",
        triggers=frozenset({"prefixItems", "items"}),
        message="tuple arrays are not supported", safety="hinted",
        fix_title="One `items` schema, positions described",
        claims=frozenset({"prefixItems", "additionalItems"}),
        detect=detect_tuple_items, fix=fix_tuple_items,
        docs=RuleDocs(
            what="`prefixItems` (2020-12) or a list-valued `items` (draft 4-7): a schema per "
                 "position. Pydantic emits it for `tuple[int, int]`.",
            error='Invalid JSON payload received. Unknown name "prefixItems" … / Proto field '
                  "is not repeating, cannot start list.",
            fix="One `items` schema (a union of the positions when they differ, which the "
                "union rules then resolve) and a description of each position.",
            before={"type": "object", "properties": {"point": {
                "type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                "items": False}}},
            after={"type": "object", "properties": {"point": {
                "type": "array", "items": {"type": "number"}, "maxItems": 2,
                "description": "Positions: 1: number; 2: number."}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="CON006", name="unsupported-format", severity="error",
        cases=(("`format: enum`, which says nothing", "equal", "kept"),),
        triggers=frozenset({"format"}),
        message="`format` value not accepted", safety="hinted",
        fix_title="Remove it, naming it in `description`", claims=frozenset({"format"}),
        detect=detect_unsupported_format, fix=fix_unsupported_format,
        docs=RuleDocs(
            what="A `format` the provider does not take. Gemini `parameters` takes `enum` "
                 "and `date-time` on strings, `int32`/`int64` on integers, `float`/`double` "
                 "on numbers.",
            error="…parameters.properties[url].format: only 'enum' and 'date-time' are "
                  "supported for STRING type",
            fix="Remove it and name the format in the description (hinted).",
            before={"type": "object", "properties": {"url": {"type": "string",
                                                             "format": "uri"}}},
            after={"type": "object", "properties": {"url": {"type": "string",
                                                            "description": "Format: uri."}}},
            sources=("[GEM-08](../providers.md#gem-08)", "google-gemini/gemini-cli#3178"),
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
]
