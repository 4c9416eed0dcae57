"""The inliner: a copy of a schema with its local references replaced by copies of their
targets, recursive ones unrolled a few levels, and a change-log event for each thing done.

Whether inlining is wise (recursion, size) is decided beforehand from `ref_analysis`; what a
reference names is `refs`.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from ..model import Accepts, Path, Safety, Told
from .jsoncopy import ATOMIC, json_copy
from .merge import merge_exact, or_null
from .ref_analysis import Kids
from .refs import DEFS_KEYWORDS, RefResolver
from .walker import children

# Keywords of a reference target that make no sense once it is copied elsewhere.
_DOCUMENT_ONLY = frozenset({"$defs", "definitions", "$schema", "$id", "$anchor"})


class InlineEvent(NamedTuple):
    """Something the inliner did, for the change log (mapped to rules by the caller)."""

    kind: Literal["inlined", "recursion-cut", "remote", "unresolvable", "defs-removed"]
    path: Path
    ref: str
    safety: Safety
    detail: str = ""
    # the effect where it is not the safety's usual one (rules.base.Edit)
    accepts: Accepts | None = None
    told: Told | None = None


def _type_of(node: Any) -> str:
    if isinstance(node, dict):
        t = node.get("type")
        if isinstance(t, str):
            return t
        if "properties" in node:
            return "object"
        if "items" in node:
            return "array"
    return "object"


def _label(ref: str, node: Any) -> str:
    if isinstance(node, dict) and isinstance(node.get("title"), str):
        return str(node["title"])
    tail = ref.rsplit("/", 1)[-1].lstrip("#")
    return tail or "copy of this schema"


def _defs_removed(path: Path, key: str) -> InlineEvent:
    """Every `$defs` block dropped from where it stands is a change on the record, the nested
    ones too: REF002 flags each of them, and a removal nobody reported would be a silent
    edit. (One inside another `$defs` goes with the outer block's removal.)"""
    return InlineEvent("defs-removed", (*path, key), "", "lossless",
                       f"removed `{key}` after inlining its definitions")


def inline(
    schema: Any,
    resolver: RefResolver | None = None,
    *,
    unroll: int = 3,
    drop_defs: bool = True,
    only: set[Path] | None = None,
    kids: Kids | None = None,
) -> tuple[Any, list[InlineEvent]]:
    """Return a copy of `schema` with references replaced by copies of their targets.

    Keywords beside a `$ref` win over the target's. A recursive target is unrolled
    `unroll` times and then cut to a typed placeholder that says so. Remote and
    unresolvable references become placeholders too: the caller reports each as lossy.
    With `only`, just the `$ref` nodes at those paths (of the original document) are
    inlined and `$defs` are kept. `kids`: the children of the document's objects, from
    its analysis (`RefAnalysis.kids`), so they are not worked out again.
    """
    inliner = _Inliner(resolver or RefResolver(schema), unroll, drop_defs, only, kids)
    inliner.active[id(schema)] = 1
    return inliner.expand(schema, (), True), inliner.events


class _Inliner:
    """`inline`'s settings and its two mutually recursive expansions. A class, not closures
    calling each other: those make a reference cycle, left with all they hold for the
    cyclic collector. `active` counts the reference targets being expanded on the way
    down to the node at hand (the document itself counts as one), which says when a
    recursive one is to be cut: a count, not the list of them, so that a long chain of
    references costs one look-up per link, not one scan of the chain per link."""

    def __init__(self, resolver: RefResolver, unroll: int, drop_defs: bool,
                 only: set[Path] | None, kids: Kids | None) -> None:
        self.resolver = resolver
        self.unroll = unroll
        self.only = only
        self.kids = kids
        self.events: list[InlineEvent] = []
        self.active: dict[int, int] = {}
        self.dropping = drop_defs and only is None

    def expand(self, node: Any, path: Path, top: bool, own: bool = True) -> Any:
        # `own`: the node stands at `path` in the input, not in a copy of a reference's target
        # (where a `$defs` removal would be reported at a path that holds a `$ref`)
        if not isinstance(node, dict):
            return node
        only = self.only
        if "$ref" in node and (only is None or (top and path in only)):
            return self.expand_ref(node, path, own)
        dropping, events = self.dropping, self.events
        out: dict[str, Any] = {}
        below = self.kids.get(id(node)) if self.kids is not None else None
        if below is None:
            below = children(node)
        if not below:  # a leaf (most nodes): its values copied, as below
            for key, value in node.items():
                if dropping and key in DEFS_KEYWORDS:
                    if own:
                        events.append(_defs_removed(path, key))
                    continue
                out[key] = value if type(value) in ATOMIC else json_copy(value)
            return out
        subs = dict(below)
        holders = {rel[0] for rel in subs}
        for key, value in node.items():
            if key in DEFS_KEYWORDS and dropping:
                if own:
                    events.append(_defs_removed(path, key))
                continue
            out[key] = value if key in holders else json_copy(value)
        copied: set[str] = set()  # holders of several subschemas, copied once
        for rel, child in subs.items():
            if rel[0] in DEFS_KEYWORDS and dropping:
                continue
            _assign(out, rel, self.expand(child, path + rel, top, own), copied)
        return out

    def expand_ref(self, node: dict[str, Any], path: Path, own: bool) -> Any:
        """The reference at `path` replaced by its target. A chain of references (a target
        that is itself a reference, and so on) is followed in a loop, and the links are
        then put together from the innermost out, as a recursion would: a chain can be
        longer than Python's stack however shallow the document is."""
        active, events, unroll = self.active, self.events, self.unroll
        links: list[tuple[str, dict[str, Any]]] = []  # (ref, its expanded siblings) followed
        entered: list[int] = []
        while True:
            ref = node["$ref"]
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            sib_expanded = self.expand(siblings, path, False, own) if siblings else {}
            target = self.resolver.resolve(ref)
            if target.kind != "local":
                kind: Literal["remote", "unresolvable"] = target.kind
                # the placeholder accepts any value the siblings allow (the target is unknown)
                events.append(InlineEvent(kind, path, str(ref), "lossy", target.reason,
                                          "wider", "lost"))
                note = (
                    f"Described by {ref}, which was not fetched."
                    if kind == "remote"
                    else f"Its schema ({ref}) could not be found."
                )
                result: Any = {"description": note, **sib_expanded}
                break
            key = id(target.node)
            if active.get(key, 0) >= unroll:
                label = _label(str(ref), target.node)
                events.append(
                    # any value of the target's type stands for the deeper levels: wider
                    # where the target says its type, else the placeholder's guessed type
                    # may refuse
                    InlineEvent("recursion-cut", path, str(ref), "lossy",
                                f"recursive `{label}` cut after {unroll} levels",
                                "wider" if isinstance(target.node, dict)
                                and isinstance(target.node.get("type"), str) else "changed",
                                "lost")
                )
                placeholder = {
                    "type": _type_of(target.node),
                    "description": (
                        f"A nested {label}; nesting deeper than {unroll} levels is not "
                        "described."
                    ),
                }
                result = {**placeholder, **sib_expanded}
                break
            active[key] = active.get(key, 0) + 1
            entered.append(key)
            links.append((str(ref), sib_expanded))
            if self.only is None and isinstance(target.node, dict) and "$ref" in target.node:
                node, own = target.node, False  # the next link of the chain
                continue
            result = self.expand(target.node, path, False, False)
            break
        for key in entered:
            active[key] -= 1
        for i in range(len(links) - 1, -1, -1):  # innermost first (mypyc: no reversed())
            link_ref, link_siblings = links[i]
            body = result
            if isinstance(body, bool):
                body = {} if body else {"not": {}}
            # `body` is the expansion's own new object: trimmed and merged in place
            for k in _DOCUMENT_ONLY.intersection(body):
                del body[k]
            if not link_siblings:
                events.append(InlineEvent("inlined", path, link_ref, "lossless",
                                          f"inlined `{link_ref}`"))
                result = body
            else:
                result, detail = with_siblings(body, link_siblings, link_ref)
                events.append(InlineEvent("inlined", path, link_ref, "lossless", detail))
        return result


def with_siblings(body: dict[str, Any], siblings: dict[str, Any], ref: str,
                  ) -> tuple[dict[str, Any], str]:
    """A reference's target and the keywords beside its `$ref`, which hold together
    (2020-12): one schema where they combine exactly (the siblings' annotations win,
    descriptions joined), else both kept under `allOf` for the rules that handle it; and
    what was done, for the change log. Never changes what is accepted."""
    own, null = or_null(siblings)  # `nullable: true` beside the `$ref`: it, or null
    merged = merge_exact(own, body)
    if merged is None:
        kept: dict[str, Any] = {"allOf": [body, own]}
        if null:
            kept["nullable"] = True
        return (kept, f"inlined `{ref}`; the keywords beside it kept with it under `allOf`")
    detail = f"inlined `{ref}`, its sibling keywords merged in"
    if merged.dropped:
        detail += ("; dropped " + ", ".join(f"`{n}`" for n in merged.dropped)
                   + ": the definition admits no such property")
    node = merged.node
    if null:
        node = {**node, "nullable": True}
    return {k: node[k] for k in dict.fromkeys([*body, *siblings]) if k in node}, detail


def _assign(out: dict[str, Any], rel: Path, value: Any, copied: set[str]) -> None:
    """Put `value` at `rel` in `out`, copying the list or map it goes into the first time
    (it is the input's until then). Its subschemas (the dicts and booleans) are all
    replaced by their expansions; anything else in it is copied, so the result shares
    nothing that can change with the input."""
    if len(rel) == 1:
        out[str(rel[0])] = value
        return
    key, sub = str(rel[0]), rel[1]
    container: Any = out.get(key)
    if key not in copied:
        copied.add(key)
        if isinstance(container, list):
            container = [v if isinstance(v, (dict, bool)) else json_copy(v) for v in container]
        elif isinstance(container, dict):
            container = {k: v if isinstance(v, (dict, bool)) else json_copy(v)
                         for k, v in container.items()}
        else:
            container = {}
        out[key] = container
    if isinstance(container, list):
        container[int(sub)] = value
    else:
        container[str(sub)] = value
