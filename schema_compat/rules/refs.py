"""References: `$ref`, `$defs`, recursion, remote and dangling references, expansion size.

The Gemini `parameters` dialect has no references at all, so they are inlined. That is a
whole-document operation, done once per pass by `inline_fix`, which every reference rule
shares; the rules differ in what they flag and in the safety of their part of the fix.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model import Path
from ..paths import resolve
from ..schema.inliner import InlineEvent, inline, with_siblings
from ..schema.jsoncopy import json_copy, json_tree_copy
from ..schema.ref_analysis import RefAnalysis, analyse
from ..schema.refs import DEFS_KEYWORDS, RefResolver
from ..schema.retarget import retargets
from ..schema.walker import iter_nodes, set_child
from . import doc_examples
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs

_EVENT_RULE = {
    "inlined": "REF001",
    "defs-removed": "REF002",
    "recursion-cut": "REF003",
    "remote": "REF004",
    "unresolvable": "REF005",
}
# The keys without which a document's analysis finds nothing: every rule here needs a
# `$ref` (or, REF002, a `$defs`) in some schema node of the document.
_REF = frozenset({"$ref"})
# What the one inlining (`inline_fix`, the fix of REF001-REF005) does depends on which of
# these are in force: every reference (REF001), else the remote or unresolvable ones.
_INLINING = ("REF001", "REF004", "REF005")
_DEFS = frozenset(DEFS_KEYWORDS)


_TOO_DEEP = (10**18, 10**6)  # the size reported when measuring overflows Python's stack


def _analysis(root: Any, ctx: NodeContext) -> RefAnalysis:
    """The document's reference analysis, which every reference rule reads: made once per
    document of a run and kept in the run (`RunState`) until the engine says the document
    may have changed."""
    run = ctx.run
    known = run.analysis
    if known is not None and known[0] is root:
        return known[1]
    try:
        result = analyse(root, unroll=ctx.profile.unroll_depth)
    except RecursionError:  # a reference chain longer than Python's stack
        result = RefAnalysis(size=_TOO_DEEP)
    run.analysis = (root, result)
    return result


def _size(a: RefAnalysis) -> tuple[int, int]:
    try:
        return a.expanded()
    except RecursionError:
        a.size = _TOO_DEEP
        return _TOO_DEEP


def _too_large(a: RefAnalysis, ctx: NodeContext) -> bool:
    p = ctx.profile
    nodes, depth = _size(a)
    return nodes > p.max_inlined_nodes or depth > p.max_inlined_depth


def _kind_hits(root: Any, ctx: NodeContext, kind: str, recursive: bool | None) -> Iterable[Hit]:
    a = _analysis(root, ctx)
    for path, target in a.kinds.items():
        if target.kind != kind:
            continue
        if recursive is not None and (path in a.recursive) != recursive:
            continue
        yield Hit(_message(kind, resolve(root, path)["$ref"], target.reason),
                  (*path, "$ref"), "$ref")


def _message(kind: str, ref: Any, reason: str) -> str:
    if kind == "remote":
        return f"`$ref` {ref!r} points outside the schema; it is never fetched"
    if kind == "unresolvable":
        return f"`$ref` {ref!r} cannot be resolved: {reason}"
    return f"`$ref` {ref!r}"


def detect_ref_unsupported(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    for hit in _kind_hits(root, ctx, "local", False):
        yield Hit(f"{hit.message} must be inlined: the provider has no references",
                  hit.rel, hit.keyword)


def detect_defs_unsupported(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    found = _analysis(root, ctx).defs
    if found is None:
        found = [(path, key) for path, node in iter_nodes(root) if isinstance(node, dict)
                 for key in DEFS_KEYWORDS if key in node]
    for path, key in found:
        yield Hit(f"`{key}` is not a field the provider knows", (*path, key), key)


def detect_recursive_ref(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    for hit in _kind_hits(root, ctx, "local", True):
        yield Hit(f"{hit.message} is recursive; only {ctx.profile.unroll_depth} levels "
                  "can be described", hit.rel, hit.keyword)


def detect_remote_ref(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _kind_hits(root, ctx, "remote", None)


def detect_unresolvable_ref(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _kind_hits(root, ctx, "unresolvable", None)


def detect_ref_expansion_too_large(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    a = _analysis(root, ctx)
    if any(t.kind == "local" for t in a.kinds.values()) and _too_large(a, ctx):
        p = ctx.profile
        nodes, depth = _size(a)
        yield Hit(f"inlining the references would make about {nodes:,} schema nodes "
                  f"{depth} levels deep (limits: {p.max_inlined_nodes:,} nodes, "
                  f"{p.max_inlined_depth} levels); refused", (), "$ref")


def inline_fix(root: Any, ctx: NodeContext) -> Fixed | None:
    """Inline references: all of them when REF001 is in force, else only broken ones."""
    a = _analysis(root, ctx)
    if _too_large(a, ctx):  # REF006: left as it is, never half inlined
        return None
    resolver = a.resolver or RefResolver(root)
    unroll = ctx.profile.unroll_depth
    if "REF001" in ctx.in_force:
        new, events = inline(root, resolver, unroll=unroll, kids=a.kids)
    else:
        only = {
            p for p, t in a.kinds.items()
            if (t.kind == "remote" and "REF004" in ctx.in_force)
            or (t.kind == "unresolvable" and "REF005" in ctx.in_force)
        }
        if not only:
            return None
        new, events = inline(root, resolver, unroll=unroll, only=only, kids=a.kids)
    return _fixed(new, events)


def inline_lossless_fix(root: Any, ctx: NodeContext) -> Fixed | None:
    """The lossless part of `inline_fix`, which the engine applies where only lossless
    changes may be made and the whole inlining is not: the local references outside a
    recursion, each replaced by a copy of its target (the `$defs` block dropped once no
    reference is left)."""
    if "REF001" not in ctx.in_force:
        return None
    a = _analysis(root, ctx)
    if _too_large(a, ctx):
        return None
    resolver = a.resolver or RefResolver(root)
    only = {p for p, t in a.kinds.items() if t.kind == "local" and p not in a.recursive}
    new, events = inline(root, resolver, unroll=ctx.profile.unroll_depth, only=only,
                         kids=a.kids)
    if not any(isinstance(sub, dict) and "$ref" in sub for _, sub in iter_nodes(new)):
        new = {k: v for k, v in new.items() if k not in DEFS_KEYWORDS}
    return _fixed(new, events)


def _fixed(new: Any, events: list[InlineEvent]) -> Fixed | None:
    edits = tuple(
        Edit(e.path, e.safety, e.detail, _EVENT_RULE[e.kind], e.accepts, e.told)
        for e in events
    )
    if not edits:
        return None
    return Fixed(new, edits)


# The reference rules share the one inlining (see above): each names it as its fix.
fix_ref_unsupported = inline_fix
fix_defs_unsupported = inline_fix
fix_recursive_ref = inline_fix
fix_remote_ref = inline_fix
fix_unresolvable_ref = inline_fix


def detect_ref_with_siblings(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and "$ref" in node:
        extra = [k for k in node if k not in ("$ref", "description", "default")
                 and not k.startswith("$")]
        if extra:
            yield Hit(f"`$ref` has sibling keywords {', '.join(extra)}; only `description` and "
                      "`default` may stand beside it", (), "$ref")


def fix_ref_with_siblings(node: Any, ctx: NodeContext) -> Fixed | None:
    inlined = _inline_one(node, _local_target(node, ctx), ctx)
    if inlined is None:
        return None
    out, detail = inlined
    return Fixed(out, (Edit(("$ref",), "lossless", detail + " to keep them"),))


def _local_target(node: dict[str, Any], ctx: NodeContext) -> Any:
    """The object the node's `$ref` points to in the document; None where it points
    elsewhere, nowhere, or at a boolean."""
    target = RefResolver(ctx.root).resolve(node["$ref"])
    return target.node if target.kind == "local" and isinstance(target.node, dict) else None


def _inline_one(node: dict[str, Any], target: Any, ctx: NodeContext) -> tuple[Any, str] | None:
    """The node with its `$ref` replaced by the target's keywords merged with the node's
    own, and the change in words (REF007, REF009)."""
    # A reference on a cycle stays: inlining one level of it copies the cycle's own
    # reference, siblings and all, and the next pass would inline that one again.
    if target is None or ctx.path in _analysis(ctx.root, ctx).recursive:
        return None
    # a copy: the definition stays where it is, and one object at two places would be
    # rewritten at both by the next pass with the change recorded at one
    body = {k: json_copy(v) for k, v in target.items()
            if k not in ("$defs", "definitions", "$schema", "$id", "$anchor")}
    return with_siblings(body, {k: v for k, v in node.items() if k != "$ref"},
                         str(node["$ref"]))


def detect_recursion_through_required(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    for obj_path, name, _ in _required_recursion(root, ctx):
        yield Hit(f"property {name!r} leads back to a recursive reference but is required; "
                  "recursion may only pass through optional properties",
                  (*obj_path, "required"), "required")


def _required_recursion(root: Any, ctx: NodeContext) -> list[tuple[Path, str, Path]]:
    a = _analysis(root, ctx)
    found: list[tuple[Path, str, Path]] = []
    for ref_path in sorted(a.recursive, key=str):
        for i in range(len(ref_path) - 1):
            if ref_path[i] != "properties":
                continue
            obj_path, name = ref_path[:i], ref_path[i + 1]
            obj = resolve(root, obj_path)
            req = obj.get("required") if isinstance(obj, dict) else None
            if isinstance(req, list) and name in req:
                entry = (obj_path, str(name), ref_path)
                if entry not in found:
                    found.append(entry)
    return found


def fix_recursion_through_required(root: Any, ctx: NodeContext) -> Fixed | None:
    found = _required_recursion(root, ctx)
    if not found:
        return None
    new = json_tree_copy(root)  # each object at one place: the passes rewrite it in place
    edits = []
    for obj_path, name, _ in found:
        obj = resolve(new, obj_path)
        obj["required"] = [r for r in obj["required"] if r != name]
        hint = f"The server requires {name}."
        desc = obj.get("description")
        obj["description"] = f"{desc.rstrip()} {hint}" if isinstance(desc, str) and desc else hint
        edits.append(Edit((*obj_path, "required"), "hinted",
                          f"made {name!r} optional so recursion passes only through optional "
                          "properties"))
    return Fixed(new, tuple(edits))


_FS_BEFORE = {
    "type": "object",
    "properties": {"files": {"type": "array", "items": {"$ref": "#/$defs/FileReadRequest"}}},
    "$defs": {"FileReadRequest": {"type": "object", "properties": {"path": {"type": "string"}},
                                  "required": ["path"]}},
}
_FS_AFTER = {
    "type": "object",
    "properties": {"files": {"type": "array", "items": {
        "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
}

RULES: list[Rule] = [
    Rule(
        code="REF001", name="ref-unsupported", severity="error", scope="document",
        acts_for=_INLINING,
        triggers=_REF,
        message="`$ref` must be inlined", safety="lossless",
        fix_title="Inline the referenced schema", claims=frozenset({"$ref"}),
        detect=detect_ref_unsupported, fix=fix_ref_unsupported, lossless_fix=inline_lossless_fix,
        docs=RuleDocs(
            what="A `$ref` in a dialect without references. Pydantic emits one for every "
                 "nested model. Gemini does not reject it everywhere: an array whose `items` "
                 "is a `$ref` is silently sent as an array of STRING, so the model never sees "
                 "the object's fields.",
            error='Invalid JSON payload received. Unknown name "$ref" at '
                  "'tools[0].function_declarations[0].parameters.properties[0].value.items': "
                  "Cannot find field. (or, through some clients, the item silently becomes "
                  "STRING)",
            fix="Replace the reference with a copy of its target. Keywords written beside "
                "the `$ref` hold together with the target's (2020-12): merged exactly "
                "(properties and `required` united, a closed target dropping the names it "
                "refuses, descriptions joined, the siblings' other annotations winning), "
                "else kept beside it under `allOf`. Lossless for non-recursive references.",
            before=_FS_BEFORE, after=_FS_AFTER,
            sources=("[GEM-13](../providers.md#gem-13)", "googleapis/python-genai#1122"),
        ),
    ),
    Rule(
        code="REF002", name="defs-unsupported", severity="error", scope="document",
        acts_for=_INLINING,
        triggers=_DEFS,
        message="`$defs` / `definitions` are not fields of the provider's schema",
        safety="lossless", fix_title="Remove the definitions once they are inlined",
        claims=frozenset({"$defs", "definitions"}), detect=detect_defs_unsupported,
        fix=fix_defs_unsupported, lossless_fix=inline_lossless_fix,
        docs=RuleDocs(
            what="A `$defs` or `definitions` block, which the Gemini `parameters` Schema "
                 "object has no field for.",
            error='Invalid JSON payload received. Unknown name "$defs" at '
                  "'tools[0].function_declarations[0].parameters': Cannot find field.",
            fix="Inline every reference, then drop the block.",
            before=_FS_BEFORE, after=_FS_AFTER,
            sources=("[GEM-13](../providers.md#gem-13)", "decolua/9router#1036"),
        ),
    ),
    Rule(
        code="REF003", name="recursive-ref", severity="error", scope="document",
        acts_for=_INLINING,
        cases=(("the target's type not stated: the placeholder's may refuse values",
                "changed", "lost"),),
        triggers=_REF,
        message="recursive `$ref` cannot be expressed", safety="lossy", accepts="wider",
        told="lost",
        fix_title="Unroll the recursion to a bounded depth", detect=detect_recursive_ref,
        fix=fix_recursive_ref, lossless_fix=inline_lossless_fix,
        docs=RuleDocs(
            what="A reference to a schema that contains itself (a tree node with children "
                 "of its own type). A dialect without references cannot describe unbounded "
                 "nesting.",
            error='Unknown name "$ref" (the reference cannot simply be inlined: it never '
                  "ends)",
            fix="Unroll the recursion a fixed number of levels (3 by default) and end it "
                "with a typed placeholder whose description says deeper nesting is not "
                "described. Lossy: deeper values are no longer described to the model.",
            before={"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
                    "$defs": {"Node": {"type": "object", "properties": {
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}},
            passing={"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
                     "$defs": {"Node": {"type": "object", "properties": {
                         "name": {"type": "string"}}}}},
            sources=("[GEM-13](../providers.md#gem-13)",),
        ),
    ),
    Rule(
        code="REF004", name="remote-ref", severity="error", scope="document",
        acts_for=_INLINING,
        triggers=_REF,
        message="`$ref` points outside the schema", safety="lossy",
        fix_title="Replace with a placeholder (never fetched)", detect=detect_remote_ref,
        fix=fix_remote_ref, lossless_fix=inline_lossless_fix,
        docs=RuleDocs(
            what="A `$ref` to another document (`http:`, `https:`, `file:` or a relative "
                 "file name). schema-compat never fetches or reads it: a tool listing from "
                 "an untrusted server must not make this machine open URLs or read files.",
            error="reference to undefined schema (the provider cannot resolve it either)",
            fix="Replace the reference by a placeholder whose description names the URI. "
                "Lossy: the model is no longer told the shape.",
            before={"type": "object", "properties": {
                "a": {"$ref": "https://example.com/schemas/address.json"}}},
            passing={"type": "object", "properties": {"a": {"$ref": "#/$defs/Address"}},
                     "$defs": {"Address": {"type": "object", "properties": {
                         "street": {"type": "string"}}}}},
            sources=("[GJS-05](../providers.md#gjs-05)",),
        ),
    ),
    Rule(
        code="REF005", name="unresolvable-ref", severity="error", scope="document",
        acts_for=_INLINING,
        triggers=_REF,
        message="`$ref` cannot be resolved", safety="lossy",
        fix_title="Replace with a placeholder", detect=detect_unresolvable_ref,
        fix=fix_unresolvable_ref, lossless_fix=inline_lossless_fix,
        docs=RuleDocs(
            what="A local `$ref` whose target does not exist in the document.",
            error="reference to undefined schema at properties.target_object.anyOf.1",
            fix="Replace the reference by a placeholder that says its schema is missing.",
            before={"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}},
            passing={"type": "object", "properties": {"a": {"$ref": "#/$defs/Present"}},
                     "$defs": {"Present": {"type": "string"}}},
            sources=("[GJS-05](../providers.md#gjs-05)", "google-gemini/gemini-cli#13326"),
        ),
    ),
    Rule(
        code="REF006", name="ref-expansion-too-large", severity="error", scope="document",
        triggers=_REF,
        message="inlining the references would make the schema too large", safety=None,
        fix_title=None, detect=detect_ref_expansion_too_large,
        docs=RuleDocs(
            what="References that point at each other many times over: a few kilobytes "
                 "that would inline to millions of nodes. The size is measured before "
                 "inlining, in time linear in the input, and the tool is left as it is.",
            error="A FunctionDeclaration in the request exceeds the maximum allowed nesting "
                  "depth. / the request is too large",
            fix="None automatic: restructure the schema (fewer shared references).",
            before=doc_examples.ref_fan_out(18),
            passing=doc_examples.ref_fan_out(3),
            sources=("[GEM-16](../providers.md#gem-16)",),
        ),
    ),
    Rule(
        code="REF007", name="ref-with-siblings", severity="error",
        message="`$ref` has sibling keywords", safety="lossless",
        fix_title="Inline the reference so the siblings can stay",
        detect=detect_ref_with_siblings, fix=fix_ref_with_siblings,
        docs=RuleDocs(
            what="A node holding `$ref` and other keywords besides `description` and "
                 "`default` (Pydantic puts `title` or `default` there).",
            error="$ref 'QuestionOption' was set alongside unsupported fields. If a schema "
                  "node has $ref set, then only description and default can be set alongside "
                  "it",
            fix="Inline that one reference, keeping the siblings (they win).",
            before={"type": "object", "properties": {
                "o": {"$ref": "#/$defs/O", "title": "Option"}},
                "$defs": {"O": {"type": "string"}}},
            after={"type": "object", "properties": {"o": {"type": "string", "title": "Option"}},
                   "$defs": {"O": {"type": "string"}}},
            sources=("[GJS-04](../providers.md#gjs-04)", "google-gemini/gemini-cli#4758"),
        ),
    ),
    Rule(
        code="REF008", name="recursion-through-required", severity="error", scope="document",
        triggers=_REF,
        message="recursion passes through a required property", safety="hinted",
        fix_title="Make the property optional (the server still requires it)",
        detect=detect_recursion_through_required, fix=fix_recursion_through_required,
        docs=RuleDocs(
            what="A recursive reference reached through a required property. Gemini "
                 "unrolls cycles to a limited depth, so they may only pass through optional "
                 "properties.",
            error="Cyclic references are unrolled to a limited degree and, as such, may only "
                  "be used within non-required properties.",
            fix="Remove the property from `required` and say in the description that the "
                "server requires it.",
            before={"type": "object", "properties": {"root": {"$ref": "#/$defs/N"}},
                    "$defs": {"N": {"type": "object", "properties": {
                        "next": {"$ref": "#/$defs/N"}}, "required": ["next"]}}},
            passing={"type": "object", "properties": {"root": {"$ref": "#/$defs/N"}},
                     "$defs": {"N": {"type": "object", "properties": {
                         "next": {"$ref": "#/$defs/N"}}}}},
            sources=("[GJS-06](../providers.md#gjs-06)",),
        ),
    ),
]


# --- REF009: $ref with any sibling (OpenAI strict) ----------------------------------------

def _ref_target(node: Any, ctx: NodeContext) -> Any:
    if not (isinstance(node, dict) and isinstance(node.get("$ref"), str) and len(node) > 1):
        return None
    return _local_target(node, ctx)


def detect_ref_with_any_sibling(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if _ref_target(node, ctx) is not None:
        extra = ", ".join(f"`{k}`" for k in node if k != "$ref")
        yield Hit(f"`$ref` with {extra} beside it", ("$ref",), "$ref", "lossless")


def fix_ref_with_any_sibling(node: Any, ctx: NodeContext) -> Fixed | None:
    inlined = _inline_one(node, _ref_target(node, ctx), ctx)
    if inlined is None:
        return None
    out, detail = inlined
    return Fixed(out, (Edit(("$ref",), "lossless", detail.replace(
        "inlined", "inlined one level of", 1)),))


RULES.append(Rule(
    code="REF009", name="ref-with-any-sibling", severity="warning",
    message="`$ref` must stand alone in strict mode", safety="lossless",
    fix_title="Inline one level of the reference", detect=detect_ref_with_any_sibling,
    fix=fix_ref_with_any_sibling,
    docs=RuleDocs(
        what="A `$ref` with any keyword beside it, even `description` (Pydantic emits "
             "`{$ref, description}` for every documented nested model). The OpenAI SDK's "
             "strict helper says such schemas cannot be used and inlines them; no API "
             "error text is on record, so this is a warning.",
        error="(OpenAI SDK, lib/_pydantic.py) \"we can't use `$ref`s if there are also "
              "other properties defined\"",
        fix="Replace the reference by its target's keywords (one level; a recursive "
            "target keeps its inner references), merged exactly with the node's own "
            "(descriptions joined; under `allOf` where they cannot be). Lossless.",
        before={"type": "object", "properties": {"p": {
            "$ref": "#/$defs/P", "description": "Where."}}, "required": ["p"],
            "additionalProperties": False,
            "$defs": {"P": {"type": "string"}}},
        after={"type": "object", "properties": {"p": {
            "type": "string", "description": "Where."}}, "required": ["p"],
            "additionalProperties": False, "$defs": {"P": {"type": "string"}}},
        sources=("openai/openai-python src/openai/lib/_pydantic.py",
                 "[OAIS-10](../providers.md#oais-10)"),
    ),
))


# --- REF010: references by name, or into a block the profile removes ----------------------


def detect_ref_by_name(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    return [Hit(f"`$ref` {r.ref!r} names its target through "
                + ("an `$anchor` or `$id`" if not r.ref.startswith("#/") else
                   "`definitions`" if "/definitions/" in r.ref else
                   "a block outside the schema keywords")
                + ", which the provider's schema drops", (*r.path, "$ref"), "$ref")
            for r in retargets(root, ctx.profile.allowed_keywords).found]


def fix_ref_by_name(root: Any, ctx: NodeContext) -> Fixed | None:
    found, renamed, copied = retargets(root, ctx.profile.allowed_keywords)
    if not found:
        return None
    new = json_tree_copy(root)
    edits = []
    for r in found:  # at the paths as given, before any block is renamed
        set_child(resolve(new, r.path), ("$ref",), r.new)
        edits.append(Edit((*r.path, "$ref"), "lossless",
                          f"`$ref` {r.ref!r} now points to its target: {r.new!r}"))
    for path in sorted(renamed, key=len, reverse=True):  # inner blocks first
        node = resolve(new, path)  # renamed in place, its keys in their order
        items = [("$defs" if k == "definitions" else k, v) for k, v in node.items()]
        node.clear()
        node.update(items)
        edits.append(Edit((*path, "definitions"), "lossless",
                          "renamed `definitions` to `$defs`, where the provider looks"))
    if copied:
        defs = new.setdefault("$defs", {})
        for name, target in copied.items():
            defs[name] = json_tree_copy(target)
            edits.append(Edit(("$defs", name), "lossless",
                              f"copied a referenced schema from outside the schema keywords "
                              f"to `$defs/{name}`"))
    return Fixed(new, tuple(edits))


RULES.append(Rule(
    code="REF010", name="ref-by-name", severity="error", scope="document", triggers=_REF,
    message="`$ref` names its target through a keyword the provider's schema drops",
    safety="lossless", fix_title="Point to the target with a JSON Pointer",
    detect=detect_ref_by_name, fix=fix_ref_by_name,
    docs=RuleDocs(
        what="A reference by `$anchor` name (`#node`) or by `$id`, which the provider's "
             "schema has no field for, or (where it takes `$defs` only) a pointer into "
             "`definitions` (schemars' Rust enums, Pydantic v1). Removing the anchor, the "
             "id or the block would leave the reference pointing at nothing.",
        error="`$ref` '#node' cannot be resolved: no `$anchor` named 'node' (after the "
              "metadata is removed)",
        fix="Rewrite the reference as a JSON Pointer to the same node (`#/$defs/N`), "
            "renaming `definitions` to `$defs` where the provider takes only that: the "
            "same target, so lossless.",
        before={"type": "object", "properties": {"op": {"$ref": "#/definitions/Op"}},
                "required": ["op"],
                "definitions": {"Op": {"type": "string", "enum": ["add", "sub"]}}},
        after={"type": "object", "properties": {"op": {"$ref": "#/$defs/Op"}},
               "required": ["op"],
               "$defs": {"Op": {"type": "string", "enum": ["add", "sub"]}}},
        profile="gemini-json",
        sources=("[GJS-02](../providers.md#gjs-02)",),
    ),
))
