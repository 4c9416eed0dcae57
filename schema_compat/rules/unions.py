"""Unions and composition: `anyOf`/`oneOf` (with and without null), `allOf`, `not`, `if`.

The rules here find the compositions a provider's dialect lacks and say what each fix
changed; writing a union's or an `allOf`'s branches as one schema is the algebra of
`schema/union_merge` and `schema/all_of_merge`, which the fixes call.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model import Told
from ..schema.all_of_merge import (
    all_of_as_one,
    all_of_exact,
    siblings_into_branches,
    siblings_miss,
)
from ..schema.hints import summarize, told_of, with_hint, worded
from ..schema.merge import join_text
from ..schema.shape import exclusive_branches, is_null_schema
from ..schema.union_merge import Merge, accepts_nothing, replaced_keywords, union_as_one
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .type_lists import split_type_list

UNION_KEYS = ("anyOf", "oneOf")

# --- UNI001: a union with null --------------------------------------------------------

def detect_nullable_union(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict):
        return ()
    hits = []
    for key in UNION_KEYS:
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        rest = [b for b in branches if not is_null_schema(b)]
        if len(rest) < len(branches):
            overlap = _null_overlaps(key, branches, rest)
            if len(rest) == 1 and isinstance(rest[0], dict) \
                    and replaced_keywords(node, rest[0], key):
                overlap = True
            hits.append(Hit(f"`{key}` with a null branch: use `nullable: true`", (key,), key,
                            "lossy" if overlap else None))
    return hits


def fix_nullable_union(node: Any, ctx: NodeContext) -> Fixed | None:
    for key in UNION_KEYS:
        branches = node.get(key)
        if not (isinstance(branches, list) and any(is_null_schema(b) for b in branches)):
            continue
        rest = [b for b in branches if not is_null_schema(b)]
        overlap = _null_overlaps(key, branches, rest)
        out = {k: v for k, v in node.items() if k != key}
        out["nullable"] = True
        lost: list[str] = []
        # what the null branches said of null, kept (their `type` is all the rest)
        said = [b["description"] for b in branches if is_null_schema(b)
                and isinstance(b, dict) and isinstance(b.get("description"), str)]
        if len(rest) == 1 and isinstance(rest[0], dict):
            merged = dict(rest[0])  # its subschemas move up unchanged
            # the node's own keywords (default, title) win; where one says otherwise
            # than the branch's (not just of it), both applied, and one of them is gone now;
            # the descriptions are joined, the node's first
            lost = replaced_keywords(out, merged)
            inner = merged.get("description")
            merged.update(out)
            if isinstance(inner, str) and isinstance(out.get("description"), str):
                merged["description"] = join_text(out["description"], inner)
            out = merged
        elif rest:
            out[key] = rest
        for text in said:
            out["description"] = join_text(out["description"], f"Null: {text}") \
                if isinstance(out.get("description"), str) else f"Null: {text}"
        if overlap:
            return Fixed(out, (Edit((key,), "lossy",
                                    f"removed the null branch of `{key}` and set `nullable: "
                                    "true`; null matched more than one branch, so the "
                                    "original refused it", accepts="wider", told="lost"),))
        if lost:
            return Fixed(out, (Edit((key,), "lossy", (
                f"removed the null branch of `{key}` and set `nullable: true`; the node's "
                "own " + ", ".join(f"`{k}`" for k in lost) + " replaced its branch's"),
                accepts="wider", told="lost"),))
        return Fixed(out, (Edit((key,), "lossless",
                                f"removed the null branch of `{key}` and set `nullable: true`"),))
    return None


def _null_overlaps(key: str, branches: list[Any], rest: list[Any]) -> bool:
    """`oneOf` accepts null only when exactly one branch does: if another branch takes
    null too, null was refused, and `nullable: true` now accepts it."""
    return key == "oneOf" and (
        len(branches) - len(rest) > 1 or any(_takes_null(b) for b in rest))


def _takes_null(schema: Any) -> bool:
    """Whether a (non-null) branch also accepts null: a null type, `nullable`, an empty
    schema, or a union with such a branch."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    t = schema.get("type")
    if (isinstance(t, list) and "null" in t) or schema.get("nullable") is True:
        return "enum" not in schema or None in schema["enum"]
    return any(isinstance(schema.get(k), list) and any(
        is_null_schema(b) or _takes_null(b) for b in schema[k]) for k in UNION_KEYS)


# --- UNI002 / UNI003: unions without null ---------------------------------------------

def _real_union(node: Any, key: str) -> list[Any] | None:
    if not isinstance(node, dict):
        return None
    branches = node.get(key)
    if not isinstance(branches, list):
        return None
    rest = [b for b in branches if not is_null_schema(b)]
    return rest if rest else None


def _empty_union(node: Any, key: str) -> Iterable[Hit]:
    """`anyOf: []` is not valid JSON Schema and accepts nothing: flagged, and removed by the
    fix (lossy: the node then accepts values)."""
    if isinstance(node, dict) and node.get(key) == []:
        yield Hit(f"`{key}` is empty: a union without branches accepts no value", (key,), key,
                  "lossy")


# The rule that already reports an empty union of its keyword, where the profile has it.
_EMPTY_OWNER = {"anyOf": "UNI003", "oneOf": "UNI002"}


def detect_empty_union(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    for key, owner in _EMPTY_OWNER.items():
        if owner not in ctx.in_force:
            yield from _empty_union(node, key)


def fix_empty_union(node: Any, ctx: NodeContext) -> Fixed | None:
    keys = [k for k in _EMPTY_OWNER if node.get(k) == [] and _EMPTY_OWNER[k] not in ctx.in_force]
    if not keys:
        return None
    out = with_hint({k: v for k, v in node.items() if k not in keys},
                    "The server's schema accepts no value here.")
    return Fixed(out, tuple(Edit((k,), "lossy", f"removed the empty `{k}` (it accepted no "
                                               "value; the node now accepts values)")
                            for k in keys))


def detect_one_of_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    yield from _empty_union(node, "oneOf")
    rest = _real_union(node, "oneOf")
    if rest is not None and not _nullable_of_one(node, "oneOf", rest, ctx):
        yield Hit(f"`oneOf` is not a field of the provider's schema ({len(rest)} branches)",
                  ("oneOf",), "oneOf")


def _nullable_of_one(node: dict[str, Any], key: str, rest: list[Any],
                     ctx: NodeContext) -> bool:
    """`oneOf [X, null]`: UNI001 makes it X with `nullable: true`, leaving no union."""
    return len(rest) == 1 and len(rest) < len(node[key]) and "UNI001" in ctx.in_force


def detect_any_of_union(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    yield from _empty_union(node, "anyOf")
    rest = _real_union(node, "anyOf")
    if rest is not None and (len(rest) > 1 or len(node.get("anyOf", [])) == 1):
        yield Hit(f"`anyOf` union of {len(rest)} branches: Gemini clients built before its "
                  "support reject unions, and the model handles them poorly",
                  ("anyOf",), "anyOf")


def fix_union(node: Any, ctx: NodeContext) -> Fixed | None:
    if ctx.parent == "allOf" and "UNI004" in ctx.in_force:
        # An `allOf` branch: UNI004 merges the branches next, crossing their unions exactly
        # (`all_of_merge.all_of_exact`); what the merged node still holds, this rule then
        # merges. Collapsed here, a union would keep a type before the merge saw the other
        # branches, and an `allOf` of two unions that leaves integers became a string.
        return None
    merged = union_as_one(node, ctx.is_root)
    return None if merged is None else _merged(merged[1], merged[0])


def _merged(merged: Merge, key: str) -> Fixed:
    """A merge's node as the fix's result, its change recorded at `key`."""
    return Fixed(merged.node, (Edit((key,), merged.safety, merged.description,
                                    accepts=merged.accepts, told=merged.told),))


# UNI002 and UNI003 share the fix: one merge, whichever union keyword holds the branches.
fix_one_of_unsupported = fix_union
fix_any_of_union = fix_union


# --- UNI004: allOf ---------------------------------------------------------------------

def detect_all_of_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("allOf"), list):
        most = ctx.profile.all_of_branches
        if len(node["allOf"]) <= most:  # xAI takes one subschema (XAI-01)
            return
        said = (f"`allOf` with {len(node['allOf'])} subschemas; the provider takes at most "
                f"{most}" if most else "`allOf` is not a field of the provider's schema")
        if all_of_exact(node) is not None:
            yield Hit(said, ("allOf",), "allOf", "lossless")
        else:
            yield Hit(said, ("allOf",), "allOf", "lossy", "changed", "kept")


def split_all_of_type_lists(node: Any, ctx: NodeContext) -> Fixed | None:
    """TYP001's fix of the `allOf` branches' type lists that `fix_type_array` leaves to
    the merge: UNI004's lossless part, for where only lossless changes are made and the
    merge is not one of them (the branches then stay, each type list split as anywhere
    else)."""
    branches = node.get("allOf") if isinstance(node, dict) else None
    if not isinstance(branches, list) or "TYP001" not in ctx.in_force:
        return None  # (type lists are the provider's own where TYP001 is not in force)
    out_branches = list(branches)
    edits: list[Edit] = []
    for i, branch in enumerate(branches):
        if isinstance(branch, dict) and isinstance(branch.get("type"), list):
            fixed, splits = split_type_list(branch, ctx.profile)
            if splits:
                out_branches[i] = fixed.node
                edits.extend(Edit(("allOf", i, *e.rel), e.safety, e.description, "TYP001")
                             for e in fixed.edits)
    if not edits:
        return None
    return Fixed({**node, "allOf": out_branches}, tuple(edits))


def fix_all_of_unsupported(node: Any, ctx: NodeContext) -> Fixed:
    return _merged(all_of_as_one(node), "allOf")


# --- UNI005 / UNI006: not, if/then/else --------------------------------------------------

def detect_not_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and "not" in node:
        yield Hit("`not` is not a field of the provider's schema", ("not",), "not")


def fix_not_unsupported(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k != "not"}
    out = with_hint(out, f"Must not be {worded(node['not'])}.")
    return Fixed(out, (Edit(("not",), "hinted", "removed `not`; described it instead"),))


_COND = ("if", "then", "else")


def detect_conditional_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict):
        for k in _COND:
            if k in node:
                yield Hit(f"`{k}` is not a field of the provider's schema", (k,), k)


def fix_conditional_unsupported(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k not in _COND}
    if "if" in node:
        text = f"If it is {worded(node['if'])}"
        if "then" in node:
            text += f", it must be {worded(node['then'])}"
        if "else" in node:
            text += f"; otherwise it must be {worded(node['else'])}"
        out = with_hint(out, text + ".")
    edits = tuple(Edit((k,), "hinted", f"removed `{k}`; described the condition instead")
                  for k in _COND if k in node)
    return Fixed(out, edits)


_SHAPES_BEFORE = {"type": "object", "properties": {"shape": {"oneOf": [
    {"type": "object", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
     "required": ["kind", "radius"]},
    {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
     "required": ["kind", "side"]}]}}}


# --- UNI007: anyOf with sibling fields (Vertex) -------------------------------------------

def _siblings(node: Any) -> list[str]:
    if not (isinstance(node, dict) and isinstance(node.get("anyOf"), list)):
        return []
    return [k for k in node if k != "anyOf"]


def detect_any_of_with_siblings(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    extra = _siblings(node)
    if extra and not ctx.is_root:
        yield Hit("`anyOf` must be the only field of its node; this one also has "
                  + ", ".join(f"`{k}`" for k in extra), ("anyOf",), "anyOf",
                  "lossy" if siblings_into_branches(node)[1] else "lossless")


def fix_any_of_with_siblings(node: Any, ctx: NodeContext) -> Fixed | None:
    if not _siblings(node) or ctx.is_root:
        return None
    misses = siblings_miss(node)
    if len(misses) == len(node["anyOf"]):  # an empty `anyOf` too: nothing to move into
        return _merged(accepts_nothing(
            {k: v for k, v in node.items() if k != "anyOf"}, "anyOf",
            "none of its branches (" + "; ".join(summarize(b) for b in misses)
            + ") meets the node's own `type`" if misses else "it has no branch"), "anyOf")
    branches, conflicts, refused = siblings_into_branches(node)
    moved = ", ".join(f"`{k}`" for k in _siblings(node))
    dropped = "; dropped " + "; ".join(summarize(b) for b in misses) + ": no value of the " \
        "node's own type meets it" if misses else ""
    told: Told | None = "lost" if told_of(misses) else None  # it spoke of refused values
    if conflicts:
        return Fixed({"anyOf": branches}, (Edit(("anyOf",), "lossy",
                     f"moved {moved} into every `anyOf` branch{dropped}; conflicting "
                     "keywords kept the outer value: " + "; ".join(conflicts), told=told),))
    left = len(node["anyOf"]) - len(misses) - len(branches)
    closed = (f"; the names the closed object refuses stay out of them "
              f"({', '.join(refused)})" if refused else "") + (
        f", and {left} branch{'es' if left > 1 else ''} requiring one, which no object "
        "meets, left out" if left else "")
    return Fixed({"anyOf": branches}, (Edit(("anyOf",), "lossy" if told else "lossless",
                 f"moved {moved} into every `anyOf` branch{dropped}{closed}", told=told),))

RULES: list[Rule] = [
    Rule(
        code="UNI001", name="nullable-union", severity="error",
        cases=(("null matched two `oneOf` branches, or the node's own keywords replace "
                "the branch's",
                "wider", "lost"),),
        triggers=frozenset(UNION_KEYS),
        message="union with null", safety="lossless", fix_title="Use `nullable: true`",
        detect=detect_nullable_union, fix=fix_nullable_union,
        docs=RuleDocs(
            what="`anyOf`/`oneOf` with a `{type: null}` branch: Pydantic's `Optional[X]`, "
                 "Zod's `.nullable()`. Gemini has no null branch; it has `nullable`.",
            error="Gemini cannot handle union types (client side), or the branch type "
                  "silently becomes STRING",
            fix="Drop the null branch and set `nullable: true`; a single remaining branch "
                "is merged into the node (the node's own description and default win).",
            before={"type": "object", "properties": {"head": {
                "anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}}},
            after={"type": "object", "properties": {"head": {
                "type": "integer", "default": None, "nullable": True}}},
            sources=("[GEM-15](../providers.md#gem-15)", "langchain-ai/langchainjs#9893"),
        ),
    ),
    Rule(
        code="UNI002", name="one-of-unsupported", severity="error",
        defers_to=("UNI001", "UNI004"),  # `oneOf [X, null]`; an `allOf` branch
        cases=(("a variant open to other keys held to the others' properties",
                "changed", "described"),
               ("scalar variants collapsed to one (the others described)", "narrower", "described"),
               ("overlapping variants collapsed to one", "changed", "described"),
               ("a branch listed twice, refused by the server, merged", "changed", "described")),
        triggers=frozenset({"oneOf"}),
        message="`oneOf` is not supported", safety="hinted",
        fix_title="Merge object variants / collapse scalar variants", claims=frozenset({"oneOf"}),
        detect=detect_one_of_unsupported, fix=fix_one_of_unsupported,
        docs=RuleDocs(
            what="`oneOf`, which the Gemini Schema object has no field for. Zod's "
                 "discriminatedUnion emits it.",
            error='Invalid JSON payload received. Unknown name "oneOf" … / Gemini cannot handle '
                  "union types (discriminatedUnion, anyOf, oneOf).",
            fix="Object variants merge into one object: properties united, a discriminator's "
                "constants become one enum, `required` is what every variant requires, the "
                "parent's own properties and required stay, and the variants are spelled out "
                "in the description (hinted: the server still checks which form was sent). "
                "Array variants merge their items. Scalar variants of one type merge: "
                "enums into one enum, leaving out a value that more than one branch lists "
                "(the server refuses it), with each value's title and description described "
                "(hinted; lossless when the branches differ in nothing else); other variants "
                "keep what they share, the rest described (hinted). Every branch's "
                "description goes into the merged one word for word. Scalar variants of "
                "different types collapse to the richest branch with the others named in the "
                "description (lossy).",
            before=_SHAPES_BEFORE,
            after={"type": "object", "properties": {"shape": {
                "type": "object",
                "properties": {"kind": {"type": "string", "enum": ["circle", "square"]},
                               "radius": {"type": "number"}, "side": {"type": "number"}},
                "required": ["kind"],
                "description": "Give exactly one of these forms: kind=\"circle\": radius "
                               "(required); kind=\"square\": side (required)."}}},
            sources=("[GEM-15](../providers.md#gem-15)", "langchain-ai/langchainjs#9893"),
        ),
    ),
    Rule(
        code="UNI003", name="any-of-union", severity="warning",
        defers_to=("UNI004",),  # an `allOf` branch: to the merge
        cases=(("a variant open to other keys held to the others' properties",
                "changed", "described"),
               ("scalar variants collapsed to one (the others described)", "narrower", "described"),
               ("`number` kept over `integer`", "equal", "kept"),
               ("branches of one type told apart by their annotations alone",
                "equal", "described")),
        triggers=frozenset({"anyOf"}),
        message="`anyOf` union", safety="hinted",
        fix_title="Merge object variants / collapse scalar variants", claims=frozenset({"anyOf"}),
        detect=detect_any_of_union, fix=fix_any_of_union,
        docs=RuleDocs(
            what="`anyOf` with several non-null branches. The Gemini API has accepted "
                 "`anyOf` since 2025-04, but clients that predate it reject unions "
                 "(LangChain's converter throws), and the model fills merged objects more "
                 "reliably.",
            error="zod_to_gemini_parameters: Gemini cannot handle union types "
                  "(discriminatedUnion, anyOf, oneOf).",
            fix="As for `oneOf`: merge objects (hinted), merge arrays (hinted), merge "
                "scalars of one type (enums into one enum, keeping every branch's values), "
                "collapse scalars of different types to one branch (lossy; `number` over "
                "`integer` is lossless).",
            before={"type": "object", "properties": {"id": {
                "anyOf": [{"type": "string"}, {"type": "integer"}]}}},
            after={"type": "object", "properties": {"id": {
                "type": "string", "description": "The server also accepts integer."}}},
            sources=("[GEM-15](../providers.md#gem-15)",),
        ),
    ),
    Rule(
        code="UNI004", name="all-of-unsupported", severity="error",
        acts_for=("TYP001",),  # its lossless part splits the branches' type lists
        cases=(("branches that cannot be combined exactly (conflicting keywords, a "
                "closed branch beside names it refuses that another requires)",
                "changed", "kept"),
               ("no value meets every branch: the description says the server accepts none",
                "wider", "described"),
               ("a union branch no value meets beside the others left out, with its "
                "description", "equal", "lost")),
        triggers=frozenset({"allOf"}),
        message="`allOf` is not supported", safety="lossless",
        fix_title="Merge the branches into one schema", claims=frozenset({"allOf"}),
        detect=detect_all_of_unsupported, fix=fix_all_of_unsupported,
        lossless_fix=split_all_of_type_lists,  # the type lists TYP001 leaves to the merge
        docs=RuleDocs(
            what="`allOf`, used for inheritance and for `$ref` with siblings in older "
                 "drafts.",
            error='Invalid JSON payload received. Unknown name "allOf" …',
            fix="Merge: properties and required united, bounds tightened, enums "
                "intersected, descriptions joined; a closed branch (`additionalProperties: "
                "false`) drops the names it refuses. Unions in several branches are crossed "
                "into one (`allOf` of `anyOf [string, integer]` and `anyOf [integer, "
                "boolean]` is integer), never collapsed one by one. Lossless unless the "
                "branches cannot be combined exactly (then lossy, reported); where no value "
                "meets every branch, the description says the server accepts none.",
            before={"type": "object", "properties": {"p": {"allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}},
                {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}}},
            after={"type": "object", "properties": {"p": {
                "type": "object", "properties": {"a": {"type": "string"},
                                                 "b": {"type": "integer"}},
                "required": ["b"]}}},
            sources=("[GEM-15](../providers.md#gem-15)",),
        ),
    ),
    Rule(
        code="UNI005", name="not-unsupported", severity="error",
        triggers=frozenset({"not"}),
        message="`not` is not supported", safety="hinted", fix_title="Describe it instead",
        claims=frozenset({"not"}), detect=detect_not_unsupported, fix=fix_not_unsupported,
        docs=RuleDocs(
            what="`not`, which the provider's schema has no field for.",
            error='Invalid JSON payload received. Unknown name "not" …',
            fix="Remove it; the description says what the value must not be.",
            before={"type": "object", "properties": {"s": {"type": "string",
                                                           "not": {"const": ""}}}},
            after={"type": "object", "properties": {"s": {
                "type": "string", "description": 'Must not be "".'}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="UNI006", name="conditional-unsupported", severity="error",
        triggers=frozenset(_COND),
        message="`if`/`then`/`else` are not supported", safety="hinted",
        fix_title="Describe the condition instead", claims=frozenset(_COND),
        detect=detect_conditional_unsupported, fix=fix_conditional_unsupported,
        docs=RuleDocs(
            what="Conditional subschemas.",
            error='Invalid JSON payload received. Unknown name "if" …',
            fix="Remove them; the description states the condition.",
            before={"type": "object", "properties": {"n": {
                "type": "integer", "if": {"minimum": 10}, "then": {"multipleOf": 10}}}},
            after={"type": "object", "properties": {"n": {
                "type": "integer",
                "description": "If it is number (≥ 10), it must be number (multiple of 10)."}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="UNI007", name="any-of-with-siblings", severity="error",
        cases=(("no branch meets the node's own `type`: the description says the server "
                "accepts no value", "wider", "described"),
               ("a branch the node's own `type` never meets left out, with its description",
                "equal", "lost")),
        message="`anyOf` must be the only field of its node", safety="lossless",
        fix_title="Move the sibling fields into every branch",
        detect=detect_any_of_with_siblings, fix=fix_any_of_with_siblings,
        docs=RuleDocs(
            what="A node with `anyOf` and other fields beside it (`description`, `type`, "
                 "`nullable`, `default`). Vertex AI (Gemini 3 models) refuses it. Observed in "
                 "issues, not in the proto's documentation.",
            error="Unable to submit request because `f` functionDeclaration "
                  "`parameters.value` schema specified other fields alongside any_of. When "
                  "using any_of, it must be the only field set.",
            fix="Copy the siblings into each branch (a node means its own keywords AND one "
                "of the branches, so this is lossless); a branch keeps its own description, "
                "followed by the node's. A branch that no value of the node's own `type` "
                "meets goes (where none is left, the description says the server accepts no "
                "value). Conflicting keywords keep the outer value (lossy).",
            before={"type": "object", "properties": {"value": {
                "description": "The value.", "anyOf": [{"type": "string"}, {"type": "integer"}]}}},
            after={"type": "object", "properties": {"value": {"anyOf": [
                {"type": "string", "description": "The value."},
                {"type": "integer", "description": "The value."}]}}},
            sources=("[VTX-03](../providers.md#vtx-03)", "anomalyco/opencode#15795",
                     "charmbracelet/crush#2294"),
        ),
    ),
    Rule(
        code="UNI009", name="empty-union", severity="error",
        defers_to=("UNI002", "UNI003"),  # the empty unions of their keyword
        message="`anyOf` or `oneOf` without branches", safety="lossy",
        fix_title="Remove it, saying so in `description`", detect=detect_empty_union,
        fix=fix_empty_union, triggers=frozenset({"anyOf", "oneOf"}),
        docs=RuleDocs(
            what="`anyOf: []` or `oneOf: []`. The JSON Schema meta-schema requires at least "
                 "one branch, so providers that validate schemas (OpenAI, Anthropic) refuse "
                 "it, and it accepts no value at all. In `gemini` and `portable` the union "
                 "rules (UNI002, UNI003) report it.",
            error="(JSON Schema meta-schema validation, which OpenAI and Anthropic run on "
                  "tool schemas; no provider message on record) [] should be non-empty",
            fix="Remove the empty union and say in the description that the server's schema "
                "accepts no value there (lossy: the node now accepts values).",
            before={"type": "object", "properties": {"a": {"anyOf": []}}},
            after={"type": "object", "properties": {"a": {
                "description": "The server's schema accepts no value here."}}},
            passing={"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}},
            profile="vertex",
            sources=("JSON Schema 2020-12 meta-schema (schemaArray minItems 1)",
                     "[OAI-09](../providers.md#oai-09), [ANT-05](../providers.md#ant-05)"),
        ),
    ),
]


# --- UNI008: oneOf -> anyOf --------------------------------------------------------------

def detect_one_of_in_strict(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("oneOf"), list) and node["oneOf"] and \
            not isinstance(node.get("anyOf"), list):  # an empty one is UNI009's
        yield Hit("`oneOf` is not permitted in strict mode", ("oneOf",), "oneOf",
                  "lossless" if exclusive_branches(node["oneOf"], ctx.root) else "hinted")


def fix_one_of_in_strict(node: Any, ctx: NodeContext) -> Fixed | None:
    if isinstance(node.get("anyOf"), list):
        return None
    branches = node["oneOf"]
    out = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
    if exclusive_branches(branches, ctx.root):
        return Fixed(out, (Edit(("oneOf",), "lossless",
                                "`oneOf` → `anyOf` (its branches cannot overlap)"),))
    out = with_hint(out, "Exactly one of the alternatives applies.")
    return Fixed(out, (Edit(("oneOf",), "hinted",
                            "`oneOf` → `anyOf`; \"exactly one\" is described"),))


RULES.append(Rule(
    code="UNI008", name="one-of-in-strict", severity="warning",
    message="`oneOf` is not permitted in strict mode", safety="lossless",
    fix_title="Rename it to `anyOf`", detect=detect_one_of_in_strict, fix=fix_one_of_in_strict,
    claims=frozenset({"oneOf"}),
    docs=RuleDocs(
        what="`oneOf` under strict mode. Not in either provider's supported list; OpenAI "
             "refusing it is observed in issues, Anthropic's SDK rewrites it to `anyOf` "
             "(so a warning).",
        error="Invalid schema for response_format 'example': In context=(), 'oneOf' is "
              "not permitted.",
        fix="Use `anyOf`: lossless when no value can match two branches (different "
            "types, or objects told apart by a required property's single value, as "
            "tagged unions are), otherwise \"exactly one\" is described (hinted).",
        before={"type": "object", "properties": {"v": {"oneOf": [
            {"type": "string"}, {"type": "integer"}]}}, "required": ["v"],
            "additionalProperties": False},
        after={"type": "object", "properties": {"v": {"anyOf": [
            {"type": "string"}, {"type": "integer"}]}}, "required": ["v"],
            "additionalProperties": False},
        sources=("[OAIS-08](../providers.md#oais-08), [ANTS-02](../providers.md#ants-02), "
                 "[ANTS-08](../providers.md#ants-08)",
                 "vercel-labs/json-render#180"),
    ),
))
