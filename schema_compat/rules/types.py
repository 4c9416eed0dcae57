"""TYP: types and shapes: type arrays, missing or unknown types, arrays without items,
boolean schemas, values that are not schemas at all, and the root's type.

A provider reads a node by the kind of value it describes: a node whose type is missing,
a list the dialect cannot hold, or no JSON type at all, or a position holding something
that is not a schema, is refused or misread. These rules rewrite such nodes into a shape
the provider takes, and say in the description what the rewrite could not keep.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..model import Path
from ..schema.hints import NO_VALUE_HINT, value_text, with_hint
from ..schema.jsoncopy import json_copy
from ..schema.keywords import (
    JSON_TYPES,
    SCHEMA_KEYWORDS,
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    not_schemas,
)
from ..schema.shape import infer_type, nearest_type, type_named, values_of_type
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .type_lists import split_type_list

if TYPE_CHECKING:
    from ..profiles.base import Profile

_ANY_HINT = "Any JSON value; give other kinds of value as JSON text."
# Said where `type: null` becomes a nullable string: the provider has no null type (VTX-10).
NULL_ONLY_HINT = "Only null is accepted."
_SUBSCHEMA_KEYS = SCHEMA_KEYWORDS | SCHEMA_LIST_KEYWORDS | SCHEMA_MAP_KEYWORDS | {"items"}


def _not_an_object(keys: frozenset[str] | None, profile: Profile) -> bool:
    return keys is None


# --- TYP001 type arrays ----------------------------------------------------------------

def detect_type_array(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("type"), list):
        return (Hit(f"`type` is a list {value_text(node['type'])}; the provider takes one "
                    "type", ("type",), "type"),)
    return ()


def fix_type_array(node: Any, ctx: NodeContext) -> Fixed | None:
    fixed, splits = split_type_list(node, ctx.profile)
    if splits and ctx.parent == "allOf" and "UNI004" in ctx.in_force:
        # An `allOf` branch: UNI004 merges the branches next, intersecting their type
        # lists exactly (what the merged node still lists, this rule then splits). Split
        # here, each list would become a union, collapsed to one type before the merge saw
        # the others, and the merge would hold the first branch's pick against the rest.
        return None
    return fixed


# --- TYP002 missing type ---------------------------------------------------------------

_TYPED_ELSEWHERE = ("anyOf", "oneOf", "allOf", "$ref")


def _needs_type(node: Any, ctx: NodeContext) -> bool:
    if not isinstance(node, dict) or "type" in node:
        return False
    return not any(k in node for k in _TYPED_ELSEWHERE)


def _may_need_type(keys: frozenset[str] | None, profile: Profile) -> bool:
    return keys is not None and "type" not in keys and keys.isdisjoint(_TYPED_ELSEWHERE)


def detect_missing_type(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if _needs_type(node, ctx):
        inferred = "object" if ctx.is_root else infer_type(node)
        same = bool(inferred) and (ctx.is_root or values_of_type(node, str(inferred)))
        yield Hit("no `type`" + (f" (evidently {inferred})" if inferred else
                                 " and nothing says which: any value is accepted"),
                  (), "type", "lossless" if same else "lossy",
                  "equal" if same else "narrower" if inferred else "changed",
                  "kept" if inferred else "described")


def fix_missing_type(node: Any, ctx: NodeContext) -> Fixed:
    inferred = "object" if ctx.is_root else infer_type(node)
    out = dict(node)
    if inferred:
        out["type"] = inferred
        if (not ctx.profile.nullable_keyword and isinstance(node.get("enum"), list)
                and None in node["enum"] and inferred != "null"):
            out["type"] = [inferred, "null"]  # the enum's null stays accepted
        if ctx.is_root and "properties" not in out:
            out["properties"] = {}
        # Arguments are an object (MCP), and an enum's or const's values have the type
        # inferred from them; elsewhere values of other types were accepted and are not now.
        same = ctx.is_root or values_of_type(node, inferred)
        return Fixed(out, (Edit(("type",), "lossless" if same else "lossy",
                                f"added `type: {inferred}`" + ("" if same else
                                "; values of other types were accepted too"),
                                accepts="equal" if same else "narrower", told="kept"),))
    out["type"] = "string"
    if _says_no_value(node):
        # an empty union, removed: the description says no value is accepted, which
        # "any JSON value" would contradict
        return Fixed(out, (Edit(("type",), "lossy",
                                "a node whose schema accepted no value (as its description "
                                "says) became `type: string`", accepts="changed",
                                told="described"),))
    out = with_hint(out, _ANY_HINT)
    return Fixed(out, (Edit(("type",), "lossy",
                            "a node accepting any value became `type: string`; non-string "
                            "values must be sent as JSON text", accepts="changed",
                            told="described"),))


def _says_no_value(node: dict[str, Any]) -> bool:
    text = node.get("description")
    return isinstance(text, str) and NO_VALUE_HINT in text


# --- TYP003 unknown type names ---------------------------------------------------------

def detect_invalid_type(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict) or "type" not in node:
        return ()
    t = node["type"]
    if isinstance(t, list):  # a type list: each entry must be a type name the list keeps
        kept = _list_types(ctx)
        if all(isinstance(e, str) and e in kept for e in t):
            return ()
        return [_not_a_type(f"`type` lists {value_text(e)}, which is", e, node,
                            ("type", i))
                if not (isinstance(e, str) and e in JSON_TYPES) else
                Hit(f"`type` lists {value_text(e)}, a type the provider does not take",
                    ("type", i), "type", "lossy")
                for i, e in enumerate(t) if not (isinstance(e, str) and e in kept)]
    if isinstance(t, str) and t in JSON_TYPES:
        if t in _profile_types(ctx.profile):
            return ()
        if t == "null":
            if _union_null_branch(ctx):
                return ()  # UNI001 makes the union `nullable`: the branch goes
            nullable = ctx.profile.nullable_keyword
            return (Hit("`type: null`: the provider's `Type` has no null", ("type",), "type",
                        "hinted" if nullable else "lossy",
                        "wider" if nullable else "changed", "described"),)
        return (Hit(f"`type: {t}` is not a type the provider takes", ("type",), "type",
                    "lossy"),)
    return (_not_a_type(f"`type: {value_text(t)}` is", t, node, ("type",)),)


def _not_a_type(what: str, t: Any, node: dict[str, Any], rel: Path) -> Hit:
    """A `type` value naming no JSON type: fixed where it is a synonym (`int`), removed
    where it is JSON null (a serializer's unset field); else a guess would change what the
    server is taken to accept (`strng` read as any value, `integr` as a number), so there
    is no fix, and the nearest type name is suggested."""
    if type_named(t, node):
        return Hit(f"{what} not a JSON Schema type", rel, "type", "lossless")
    if t is None:  # a serializer's "no type given": removed, as if absent
        return Hit(f"{what} not a JSON Schema type", rel, "type", "lossy")
    near = nearest_type(t)
    return Hit(f"{what} not a JSON Schema type"
               + (f"; did you mean `{near}`?" if near else ""), rel, "type", fixable=False)


def _union_null_branch(ctx: NodeContext) -> bool:
    """Whether the node is a union's branch that UNI001 removes into `nullable` (a rule
    reads no sibling: a null branch alone is left to UNI001 too)."""
    return ctx.parent in ("anyOf", "oneOf") and "UNI001" in ctx.in_force \
        and ctx.profile.nullable_keyword


def _profile_types(profile: Profile) -> frozenset[str]:
    """The type names the provider's `type` takes."""
    return JSON_TYPES if profile.types is None else profile.types


def _list_types(ctx: NodeContext) -> frozenset[str]:
    """The names a type list may hold: the provider's types, and null where TYP001 makes it
    `nullable` (the list itself is TYP001's)."""
    types = _profile_types(ctx.profile)
    if "null" not in types and ctx.profile.nullable_keyword and "TYP001" in ctx.in_force:
        return types | {"null"}
    return types


def fix_invalid_type(node: Any, ctx: NodeContext) -> Fixed | None:
    """A synonym mapped to its type name, a type the provider does not take rewritten; a
    value naming no type (a typo) is left, flagged: any guess at it would change what the
    server is taken to accept."""
    out = {k: v for k, v in node.items() if k != "type"}
    if isinstance(node["type"], list):
        return _fix_type_list(node, out, _list_types(ctx))
    if node["type"] == "null":
        return _fix_null_type(out, ctx.profile)
    new = type_named(node["type"], node)
    if new:
        out["type"] = new
        return Fixed(out, (Edit(("type",), "lossless",
                                f"`type: {value_text(node['type'])}` → `type: {new}`"),))
    if node["type"] is None:
        return Fixed(out, (Edit(("type",), "lossy", "removed `type` holding JSON null (no "
                                                    "type given)"),))
    return None


def _fix_null_type(out: dict[str, Any], profile: Profile) -> Fixed:
    """`type: null` where the provider has no null type: a string that is `nullable`
    (the one way the dialect accepts null), described as null only. The server then also
    takes a string, which the description rules out; without `nullable` it takes no null."""
    out["type"] = "string"
    if profile.nullable_keyword:
        out["nullable"] = True
        out = with_hint(out, NULL_ONLY_HINT)
        return Fixed(out, (Edit(("type",), "hinted",
                                "`type: null` (the provider has no null type) became a "
                                "nullable string described as null only; strings are "
                                "accepted too"),))
    out = with_hint(out, NULL_ONLY_HINT)
    return Fixed(out, (Edit(("type",), "lossy",
                            "`type: null` (the provider has no null type) became `type: "
                            "string` described as null only; null is no longer accepted",
                            accepts="changed", told="described"),))


def _fix_type_list(node: dict[str, Any], out: dict[str, Any], allowed: frozenset[str]
                   ) -> Fixed | None:
    """Each entry of a type list that is not a type name the list keeps mapped to one, or
    removed where it is a type the provider does not take; an entry naming no type (a
    typo) is kept, flagged, as `fix_invalid_type` keeps a lone one. A list left empty is
    removed (any value). None: nothing to change."""
    kept: list[Any] = []
    edits = []
    for i, e in enumerate(node["type"]):
        # Any, not `str | None`: an entry naming no type is kept as it is, whatever it is
        # (the compiled build checks a variable's declared type on every assignment)
        new: Any = e if isinstance(e, str) and e in JSON_TYPES else type_named(e, node)
        if new is not None and new not in allowed:
            edits.append(Edit(("type", i), "lossy", f"removed {value_text(e)} from the type "
                                                    "list: a type the provider does not take"))
            continue
        if e is None:
            edits.append(Edit(("type", i), "lossy", "removed JSON null from the type list "
                                                    "(no type given)"))
            continue
        if new is None:
            new = e  # no type name: left for the user to correct
        elif new != e:
            edits.append(Edit(("type", i), "lossless", f"`{value_text(e)}` → `{new}` in "
                                                       "the type list"))
        if new not in kept:
            kept.append(new)
    if not edits:
        return None
    if kept:
        out["type"] = kept
    return Fixed(out, tuple(edits))


# --- TYP004 arrays without items -------------------------------------------------------

def detect_array_without_items(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict) or "prefixItems" in node:
        return ()
    kind = node.get("type")
    # OAI-08: an array allowed by a type list needs `items` too.
    if kind != "array" and not (isinstance(kind, list) and "array" in kind):
        return ()
    if "items" not in node:
        return (Hit("`type: array` without `items`", (), "items"),)
    if node["items"] is False:
        return (Hit("`items: false`: the array must be empty", ("items",), "items",
                    "lossless"),)
    return ()


def fix_array_without_items(node: Any, ctx: NodeContext) -> Fixed:
    out = dict(node)
    if node.get("items") is False:
        out["items"] = {"type": "string"}
        out["maxItems"] = 0
        return Fixed(out, (Edit(("items",), "lossless",
                                "`items: false` → `maxItems: 0` (an empty array)"),))
    out["items"] = {"type": "string", "description": _ANY_HINT}
    return Fixed(out, (Edit(("items",), "lossy",
                            "added `items: {type: string}`; items of other kinds must be sent "
                            "as JSON text", accepts="narrower", told="described"),))


# --- TYP005 boolean schemas ------------------------------------------------------------

# Where a boolean stays a schema; elsewhere (`additionalProperties: false`, ...) the rule
# for the keyword that holds it removes or describes it.
_BOOLEAN_STAYS = frozenset({None, "properties", "items", "anyOf", "oneOf", "allOf",
                            "prefixItems", "$defs", "definitions"})


def detect_boolean_schema(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, bool) and ctx.parent in _BOOLEAN_STAYS and not (
            node is False and ctx.parent == "items"):  # `items: false`: the array rules
        yield Hit(f"boolean schema `{str(node).lower()}`", (), None,
                  "lossless" if node else "hinted")


def fix_boolean_schema(node: Any, ctx: NodeContext) -> Fixed:
    if node:
        return Fixed({}, (Edit((), "lossless", "`true` → `{}` (any value)"),))
    return Fixed({"type": "string", "description": "No value is accepted here; omit it."},
                 (Edit((), "hinted", "`false` (no value allowed) → a described placeholder",
                       accepts="wider", told="described"),))


# --- TYP006 items on a non-array -------------------------------------------------------

def detect_items_on_non_array(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and "items" in node and isinstance(node.get("type"), str) \
            and node["type"] != "array":
        return (Hit(f"`items` on `type: {node['type']}`", ("items",), "items"),)
    return ()


def fix_items_on_non_array(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k != "items"}
    return Fixed(out, (Edit(("items",), "lossless",
                            "removed `items`, which only applies to arrays"),))


# --- TYP007 root not an object ---------------------------------------------------------

def detect_root_not_object(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if ctx.path or not isinstance(node, dict) or not isinstance(node.get("type"), str) \
            or node["type"] == "object":
        return ()
    return (Hit(f"the parameters root is `type: {node['type']}`; it must be an object",
                ("type",), "type"),)


def fix_root_not_object(node: Any, ctx: NodeContext) -> Fixed:
    inner = {k: v for k, v in node.items() if k not in ("$schema", "$id", "title")}
    out = {"type": "object", "properties": {"value": inner}, "required": ["value"]}
    return Fixed(out, (Edit((), "lossy",
                            "wrapped the non-object root in an object with one required "
                            "property `value`; calls must be unwrapped"),))


# --- TYP008 values that are not schemas ------------------------------------------------

def detect_not_a_schema(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict):
        return ()
    return [Hit(f"`{key}` holds {value_text(value, 40)}, which is not a schema", rel, key)
            for key, rel, value in not_schemas(node)]


def fix_not_a_schema(node: Any, ctx: NodeContext) -> Fixed:
    out = json_copy(node)
    edits = []
    for key, rel, _ in not_schemas(node):
        if len(rel) == 1:
            out.pop(key, None)
        else:
            container = out[key]
            if isinstance(container, dict):
                container.pop(rel[1], None)
        edits.append(Edit(rel, "lossy", f"removed the malformed `{key}` entry"))
    for key in ("anyOf", "oneOf", "allOf", "prefixItems", "items"):
        if isinstance(out.get(key), list):
            out[key] = [v for v in out[key] if isinstance(v, (dict, bool))]
            if key != "items" and not out[key]:
                out.pop(key)
    return Fixed(out, tuple(edits))


# --- TYP009 the root is not a schema ---------------------------------------------------

def detect_invalid_root(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if ctx.is_root and node is None:
        yield Hit("the tool has no input schema", (), None, "lossless")
    elif ctx.is_root and not isinstance(node, (dict, bool)):
        yield Hit(f"the input schema is {value_text(node, 40)}, not a JSON Schema object",
                  (), None, "lossy")


def fix_invalid_root(node: Any, ctx: NodeContext) -> Fixed:
    empty = {"type": "object", "properties": {}}
    if node is None:
        return Fixed(empty, (Edit((), "lossless", "added an empty parameters object"),))
    return Fixed(empty, (Edit((), "lossy", f"replaced the malformed input schema "
                                            f"{value_text(node, 40)} by an empty object"),))


RULES: list[Rule] = [
    Rule(
        code="TYP001", name="type-array", severity="error",
        defers_to=("UNI004",),  # an `allOf` branch's list: to the merge
        triggers=frozenset({"type"}),
        message="`type` is a list", safety="lossless",
        fix_title="Use one type (`nullable` for null)", detect=detect_type_array,
        fix=fix_type_array,
        docs=RuleDocs(
            what='A type list such as `["string", "null"]`. The provider\'s `type` is one '
                 "enum value.",
            error='Invalid JSON payload received. Unknown name "type" at '
                  "'tools[0].function_declarations[0].parameters.properties[0].value': Proto "
                  "field is not repeating, cannot start list.",
            fix="`[T, null]` becomes `type: T` with `nullable: true`; several non-null types "
                "become one `anyOf` branch each (keywords moved to the branch they belong "
                "to), which the union rules then handle. Beside the node's own `anyOf` each "
                "of its branches is met by each type it allows (merged where that is exact, "
                "else kept under the type), the null type too: the same values, one `anyOf`. "
                "In an `allOf` branch such a list is left to the `allOf` merge (UNI004), "
                "which intersects the branches' lists exactly; with lossless-only, where that "
                "merge is lossy, it is split.",
            before={"type": "object", "properties": {"q": {"type": ["string", "null"]}}},
            after={"type": "object", "properties": {"q": {"type": "string", "nullable": True}}},
            sources=("[GEM-02](../providers.md#gem-02)", "n8n-io/n8n#15553",
                     "[OLL-03](../providers.md#oll-03)"),
        ),
    ),
    Rule(
        code="TYP002", name="missing-type", severity="error",
        cases=(("inside the schema, inferred from `properties`, `items` or bounds "
                "(values of other types were accepted)",
                "narrower", "kept"),
               ("nothing says which type: `string`, the rest sent as JSON text",
                "changed", "described")),
        gate=_may_need_type,
        message="no `type`", safety="lossless", fix_title="Add the evident type",
        detect=detect_missing_type, fix=fix_missing_type,
        docs=RuleDocs(
            what="A node without `type` (and without a union): `{}`, Python's `Any`, a "
                 "bare `enum`, or an object given only by `properties`.",
            error="GenerateContentRequest.tools[0].function_declarations[0].parameters."
                  "properties[x].type: must be specified when not using one_of, any_of or "
                  "all_of fields",
            fix="Add the type the other keywords imply (object for `properties`, array for "
                "`items`, the type of `enum` values). A node that accepts any value becomes "
                "`type: string` with a description asking for JSON text (lossy), unless its "
                "description says the server accepts no value (an empty union removed).",
            before={"properties": {"tags": {"items": {"type": "string"}}}},
            after={"type": "object", "properties": {"tags": {"type": "array",
                                                             "items": {"type": "string"}}}},
            sources=("[GEM-04](../providers.md#gem-04)", "danny-avila/LibreChat#6971"),
        ),
    ),
    Rule(
        code="TYP003", name="invalid-type", severity="error",
        defers_to=("TYP001", "UNI001"),  # a type list, a union's null branch
        cases=(("`type: null` where the provider has no null type (vertex, portable): a "
                "nullable string described as null only",
                "wider", "described"),),
        triggers=frozenset({"type"}),
        message="unknown `type` value", safety="lossless", fix_title="Use the JSON type name",
        detect=detect_invalid_type, fix=fix_invalid_type,
        docs=RuleDocs(
            what='A `type` that is not a JSON Schema type: `"enum"`, `"int"`, `"strng"`, '
                 '`"any"`, `""`, `1`; also such an entry of a type list. And `type: null` '
                 "where the provider's `Type` has no null (Vertex v1, so portable too): a "
                 "null branch of a union or a null in a type list is not flagged, as the "
                 "union and type-list rules make it `nullable`.",
            error="Invalid value at 'tools.function_declarations[1].parameters.properties[1]."
                  "value.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "
                  '"enum"',
            fix="Map evident synonyms (`int` → integer, `enum` → the enum's type). Any other "
                "value (a typo: `strng`, `integr`) has no fix: a guess would change what the "
                "server is taken to accept, so it stays an error in every profile (OpenAI "
                "and Anthropic validate the schema against the JSON Schema metaschema, "
                "OAI-09, ANT-05), the tool incompatible, and the message names the nearest "
                "type (`did you mean string?`). A `type` holding JSON null (a serializer's "
                "unset field) is removed (lossy) and the missing-type rule decides. In a "
                "type list, each entry is mapped, or removed where the provider does not "
                "take its type (or it is JSON null). `type: null` without a "
                "null type becomes `type: string` with `nullable: true` and the description "
                "\"Only null is accepted.\": null stays accepted, and so are strings (wider, "
                "described); the dialect says null only by `nullable` on a type.",
            before={"type": "object", "properties": {"n": {"type": "int"}}},
            after={"type": "object", "properties": {"n": {"type": "integer"}}},
            sources=("[GEM-03](../providers.md#gem-03)", "zereight/gitlab-mcp#166",
                     "[VTX-10](../providers.md#vtx-10)"),
        ),
    ),
    Rule(
        code="TYP004", name="array-without-items", severity="error",
        cases=(("`items: false`, which becomes `maxItems: 0`", "equal", "kept"),),
        triggers=frozenset({"type"}),
        message="`type: array` without `items`", safety="lossy",
        fix_title="Add string items", detect=detect_array_without_items,
        fix=fix_array_without_items,
        docs=RuleDocs(
            what="An array that does not say what it holds.",
            error="…parameters.properties[<key>].items: missing field.",
            fix="Add `items: {type: string}` and ask for JSON text for other kinds (lossy).",
            before={"type": "object", "properties": {"ids": {"type": "array"}}},
            after={"type": "object", "properties": {"ids": {
                "type": "array", "items": {"type": "string", "description": _ANY_HINT}}}},
            sources=("[GEM-09](../providers.md#gem-09)", "cline/cline#7339"),
        ),
    ),
    Rule(
        code="TYP005", name="boolean-schema", severity="error",
        cases=(("`false`, which accepted nothing, becomes a described string",
                "wider", "described"),),
        gate=_not_an_object,
        message="boolean schema", safety="lossless", fix_title="Use an object schema",
        detect=detect_boolean_schema, fix=fix_boolean_schema,
        docs=RuleDocs(
            what="`true` or `false` used as a schema. The provider's Schema is an object.",
            error="Invalid value at '…' (type.googleapis.com/google.ai.generativelanguage."
                  "v1beta.Schema), true",
            fix="`true` becomes `{}` (then typed by the missing-type rule); `false` becomes "
                "a described placeholder (lossy).",
            before={"type": "object", "properties": {"extra": True}},
            after={"type": "object", "properties": {"extra": {
                "type": "string", "description": _ANY_HINT}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="TYP006", name="items-on-non-array", severity="error",
        triggers=frozenset({"items"}),
        message="`items` on a non-array", safety="lossless", fix_title="Remove `items`",
        detect=detect_items_on_non_array, fix=fix_items_on_non_array,
        docs=RuleDocs(
            what="`items` on a node whose type is not array.",
            error="…properties[graph_root].items: field predicate failed: $type == Type.ARRAY",
            fix="Remove it: `items` never applies to other types.",
            before={"type": "object", "properties": {"s": {"type": "string",
                                                           "items": {"type": "string"}}}},
            after={"type": "object", "properties": {"s": {"type": "string"}}},
            sources=("[GEM-10](../providers.md#gem-10)", "aovestdipaperino/tokensave#440"),
        ),
    ),
    Rule(
        code="TYP007", name="root-not-object", severity="error",
        triggers=frozenset({"type"}),
        message="the parameters root is not an object", safety="lossy",
        fix_title="Wrap it in an object", detect=detect_root_not_object,
        fix=fix_root_not_object,
        docs=RuleDocs(
            what="An input schema whose root type is not `object`.",
            error="Unable to submit request because function parameters schema should be of "
                  "type OBJECT",
            fix="Wrap it as the one required property `value` (lossy: calls change shape).",
            before={"type": "string"},
            after={"type": "object", "properties": {"value": {"type": "string"}},
                   "required": ["value"]},
            sources=("[VTX-05](../providers.md#vtx-05)", "spring-projects/spring-ai#1373"),
        ),
    ),
    Rule(
        code="TYP008", name="not-a-schema", severity="error",
        triggers=_SUBSCHEMA_KEYS,
        message="a schema keyword holds something that is not a schema", safety="lossy",
        fix_title="Remove the malformed entry", detect=detect_not_a_schema,
        fix=fix_not_a_schema,
        docs=RuleDocs(
            what='A schema position holding a string, number or list: `"properties": '
                 '{"a": "string"}`, `"items": "string"`.',
            error="Invalid JSON payload received. … Starting an object on a scalar field",
            fix="Remove the malformed entry (lossy); the server's own validation is unchanged.",
            before={"type": "object", "properties": {"a": "string", "b": {"type": "string"}}},
            after={"type": "object", "properties": {"b": {"type": "string"}}},
            sources=("[OAI-09](../providers.md#oai-09)",),
        ),
    ),
    Rule(
        code="TYP009", name="invalid-root", severity="error",
        gate=_not_an_object,
        message="the input schema is missing or not an object", safety="lossless",
        fix_title="Use an empty parameters object", detect=detect_invalid_root,
        fix=fix_invalid_root,
        docs=RuleDocs(
            what="A tool without `inputSchema`, or one whose schema is a string, number, "
                 "list or null. MCP requires an object schema.",
            error="tools.0.custom.input_schema: Field required / Invalid schema for function "
                  "'<fn>': None is not of type 'object'",
            fix="A missing schema becomes `{type: object, properties: {}}` (lossless: the "
                "tool takes no arguments); a malformed one too, reported lossy.",
            before="object",  # a type name where the schema belongs; a missing one too
            after={"type": "object", "properties": {}},
            sources=("[ANT-03](../providers.md#ant-03), [OAI-09](../providers.md#oai-09)",),
        ),
    ),
]
