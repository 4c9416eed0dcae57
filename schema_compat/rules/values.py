"""`const` and `enum`: Gemini takes enums only of strings, and only on strings.

Integer and boolean enums keep their type and move the allowed values into the
description (hinted), so the model still sends numbers and the server still validates;
stringifying them would make the model send "1" where the server wants 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .hints import value_text, values_text, with_hint
from .shape import value_type


def detect_const(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and "const" in node:
        yield Hit("`const` is not a field of the provider's schema", ("const",), "const")


def fix_const(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k != "const"}
    value = node["const"]
    if "enum" in out and isinstance(out["enum"], list):
        out["enum"] = [v for v in out["enum"] if v == value]
    else:
        out["enum"] = [value]
    if "type" not in out:
        out["type"] = value_type(value)
    return Fixed(out, (Edit(("const",), "lossless", "`const` → a one-value `enum`"),))


def detect_enum_null(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("enum"), list) and None in node["enum"] \
            and any(v is not None for v in node["enum"]):
        return (Hit("`enum` contains null", ("enum",), "enum"),)
    return ()


def fix_enum_null(node: Any, ctx: NodeContext) -> Fixed:
    out = dict(node)
    out["enum"] = [v for v in node["enum"] if v is not None]
    t = node.get("type")
    if t is not None and t != "null" and not (isinstance(t, list) and "null" in t):
        # the type refuses null, so the enum's null was never accepted: no `nullable`
        return Fixed(out, (Edit(("enum",), "lossless",
                                f"removed null from `enum` (`type: {value_text(t, 40)}` "
                                "refuses it)"),))
    out["nullable"] = True
    if isinstance(out.get("type"), list):
        out["type"] = [t for t in out["type"] if t != "null"]
    return Fixed(out, (Edit(("enum",), "lossless",
                            "removed null from `enum` and set `nullable: true`"),))


def _enum_case(node: dict[str, Any]) -> str | None:
    enum = node.get("enum")
    if not isinstance(enum, list):
        return None
    values = [v for v in enum if v is not None]
    t = node.get("type")
    if not values:
        return "empty"
    if all(isinstance(v, str) for v in values) and t in (None, "string"):
        return None
    kinds = {value_type(v) for v in values}
    if kinds <= {"integer", "number"} or kinds == {"boolean"} or kinds <= {"object", "array"}:
        return "describe"
    if all(isinstance(v, str) for v in values):
        return "describe"  # string values on a non-string type
    return "stringify"


def detect_enum(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict):
        return ()
    case = _enum_case(node)
    if case == "empty":
        return (Hit("empty `enum` accepts nothing", ("enum",), "enum", "hinted"),)
    if case:
        what = ("values that are not strings" if any(not isinstance(v, str) for v in node["enum"]
                                                     if v is not None)
                else f"on `type: {node.get('type')}`")
        return (Hit(f"`enum` with {what}: the provider takes string enums on strings only",
                    ("enum",), "enum", "hinted" if case == "describe" else "lossy"),)
    return ()


def fix_enum(node: Any, ctx: NodeContext) -> Fixed | None:
    case = _enum_case(node)
    values = [v for v in node["enum"] if v is not None]
    out = {k: v for k, v in node.items() if k != "enum"}
    if case == "empty":
        return Fixed(out, (Edit(("enum",), "lossy", "removed an empty `enum`, which accepted "
                                "no value", accepts="wider", told="lost"),))
    if case == "describe":
        kinds = {value_type(v) for v in values}
        if "type" not in out:
            out["type"] = "number" if kinds == {"integer", "number"} else kinds.pop() \
                if len(kinds) == 1 else "string"
        if len(values) == 1:
            hint = f"Must be {values_text(values)}."
        else:
            hint = f"One of: {values_text(values)}."
        out = with_hint(out, hint)
        return Fixed(out, (Edit(("enum",), "hinted",
                                f"removed the non-string `enum` ({values_text(values, 60)}); "
                                "the allowed values are in `description`"),))
    if case == "stringify":
        out["type"] = "string"
        out["enum"] = [v if isinstance(v, str) else _text(v) for v in values]
        return Fixed(out, (Edit(("enum",), "lossy",
                                "mixed-type `enum` became a string enum; non-string values "
                                "are sent as their JSON text", accepts="changed",
                                told="kept"),))
    return None


def _text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def detect_enum_kinds(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("enum"), list):
        bad = [v for v in node["enum"] if not isinstance(v, (str, int, float)) or
               isinstance(v, bool)]
        if bad and any(v is not None for v in bad):
            yield Hit(f"`enum` holds {values_text(bad, 60)}: only strings and numbers are "
                      "accepted", ("enum",), "enum")


def fix_enum_kinds(node: Any, ctx: NodeContext) -> Fixed:
    values = node["enum"]
    out = {k: v for k, v in node.items() if k != "enum"}
    if "type" not in out:
        kinds = {value_type(v) for v in values if v is not None}
        if len(kinds) == 1:
            out["type"] = kinds.pop()
    out = with_hint(out, f"One of: {values_text(values)}." if len(values) > 1
                    else f"Must be {values_text(values)}.")
    return Fixed(out, (Edit(("enum",), "hinted",
                            "removed an `enum` of booleans or objects; the values are in "
                            "`description`"),))


RULES: list[Rule] = [
    Rule(
        code="VAL001", name="const-unsupported", severity="error",
        triggers=frozenset({"const"}),
        message="`const` is not supported", safety="lossless",
        fix_title="Use a one-value `enum`", claims=frozenset({"const"}),
        detect=detect_const, fix=fix_const,
        docs=RuleDocs(
            what="`const`, which Zod literals and discriminators emit.",
            error='Invalid JSON payload received. Unknown name "const" at '
                  "'tools[0].function_declarations[0].parameters.properties[0].value': "
                  "Cannot find field.",
            fix="Replace with `enum: [value]` (then the enum rules apply to non-strings).",
            before={"type": "object", "properties": {"kind": {"const": "circle"}}},
            after={"type": "object", "properties": {"kind": {"type": "string",
                                                             "enum": ["circle"]}}},
            sources=("[GEM-01](../providers.md#gem-01)", "zed-industries/zed#43231"),
        ),
    ),
    Rule(
        code="VAL002", name="enum-not-string", severity="error",
        cases=(("an empty `enum`, which accepted nothing", "wider", "lost"),
               ("a mixed-type `enum` becomes a string enum", "changed", "kept")),
        reads_below=False,
        triggers=frozenset({"enum"}),
        message="`enum` must hold strings on a string type", safety="hinted",
        fix_title="Describe the values (or stringify mixed enums)", claims=frozenset({"enum"}),
        detect=detect_enum, fix=fix_enum,
        docs=RuleDocs(
            what="An `enum` of integers, numbers, booleans or objects, or an enum on a "
                 "non-string type.",
            error="Invalid value at 'tools[0].function_declarations[0].parameters."
                  "properties[1].value.enum[0]' (TYPE_STRING), 0 / …enum: only allowed for "
                  "STRING type",
            fix="Keep the type and move the allowed values into the description (hinted: the "
                "model still sends numbers and booleans, the server still validates). An enum "
                "mixing strings and other values becomes a string enum of JSON texts (lossy).",
            before={"type": "object", "properties": {"level": {"type": "integer",
                                                               "enum": [1, 2, 3]}}},
            after={"type": "object", "properties": {"level": {
                "type": "integer", "description": "One of: 1, 2, 3."}}},
            sources=("[GEM-05](../providers.md#gem-05), [GEM-06](../providers.md#gem-06)",
                     "google-gemini/gemini-cli#2031"),
        ),
    ),
    Rule(
        code="VAL003", name="enum-null-member", severity="error",
        reads_below=False,
        triggers=frozenset({"enum"}),
        message="`enum` contains null", safety="lossless", fix_title="Use `nullable: true`",
        detect=detect_enum_null, fix=fix_enum_null,
        docs=RuleDocs(
            what="`null` among the values of an `enum` (Pydantic's `Optional[Literal[...]]`).",
            error="Invalid value at '…enum[2]' (TYPE_STRING), null",
            fix="Remove `null` from the values and set `nullable: true` (only `null` removed "
                "where the node's `type` refuses null anyway).",
            before={"type": "object", "properties": {"m": {"enum": ["a", "b", None]}}},
            after={"type": "object", "properties": {"m": {"type": "string", "enum": ["a", "b"],
                                                          "nullable": True}}},
            sources=("[GEM-05](../providers.md#gem-05)",),
        ),
    ),
    Rule(
        code="VAL004", name="enum-value-kind", severity="warning",
        message="`enum` values must be strings or numbers", safety="hinted",
        fix_title="Describe the values", claims=frozenset({"enum"}),
        detect=detect_enum_kinds, fix=fix_enum_kinds,
        docs=RuleDocs(
            what="An `enum` holding booleans, objects or arrays, where only strings and "
                 "numbers are documented (Gemini `parametersJsonSchema`). Unverified in "
                 "practice, hence a warning.",
            error="(not observed; documented list: strings and numbers)",
            fix="Remove the enum and list the values in the description.",
            before={"type": "object", "properties": {"on": {"type": "boolean",
                                                            "enum": [True]}}},
            after={"type": "object", "properties": {"on": {"type": "boolean",
                                                           "description": "Must be true."}}},
            sources=("[GJS-07](../providers.md#gjs-07)",),
        ),
    ),
]
