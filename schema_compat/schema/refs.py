"""Local `$ref` resolution, recursion analysis, expansion budget and inlining.

Remote references are never fetched or read: a `$ref` resolves only to a node of the same
document (by JSON Pointer, `$id` or `$anchor`). jsonref follows the pointer, with a loader
that refuses every URI. It is imported without `requests` and without `urllib.request`, which
it would only use for the remote fetching we never do: `requests` costs ~35 ms on a `check` of
a file, `urllib.request` (http.client, ssl, email) ~15 ms.

The size of the inlined result is measured *before* inlining, because a few kilobytes of
references that point at each other twice per level inline to hundreds of megabytes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, Literal, NamedTuple

from ..model import Accepts, Path, Safety, Told
from .jsoncopy import ATOMIC, json_copy
from .merge import merge_exact
from .walker import children, iter_nodes

RefKind = Literal["local", "remote", "unresolvable"]
DEFS_KEYWORDS = ("$defs", "definitions")
# Keywords of a reference target that make no sense once it is copied elsewhere.
_DOCUMENT_ONLY = frozenset({"$defs", "definitions", "$schema", "$id", "$anchor"})


class RemoteRefRefused(Exception):
    """Raised by the loader handed to jsonref: nothing outside the document is read."""


def _refuse(uri: str) -> Any:
    raise RemoteRefRefused(uri)


def _urlopen(*args: Any, **kwargs: Any) -> Any:
    """jsonref's `urlopen`: the real one, imported on the first call (there is none: the
    loader refuses every URI before jsonref would fetch anything)."""
    from urllib.request import urlopen

    return urlopen(*args, **kwargs)


def _jsonref() -> ModuleType:
    """jsonref, imported with `requests` made unavailable to it and `urllib.request` standing
    in as a module whose `urlopen` imports the real one when called (see the module docstring).
    """
    if "jsonref" not in sys.modules:
        stand_ins: dict[str, ModuleType | None] = {}
        if "requests" not in sys.modules:
            stand_ins["requests"] = None  # `import requests` fails: jsonref goes without
        if "urllib.request" not in sys.modules:
            lazy = ModuleType("urllib.request", "Stand-in while jsonref is imported.")
            lazy.urlopen = _urlopen  # type: ignore[attr-defined]
            stand_ins["urllib.request"] = lazy
        sys.modules.update(stand_ins)  # type: ignore[arg-type]
        try:
            import jsonref
        finally:
            for name in stand_ins:
                del sys.modules[name]
    import jsonref

    module: ModuleType = jsonref
    return module


def resolve_pointer(document: Any, fragment: str) -> Any:
    """The node a URI fragment's JSON Pointer (RFC 6901, percent-decoded) names.

    Raises LookupError when a step names nothing: a missing key, an index that is not a
    non-negative integer or is out of range, or a step into a scalar.
    """
    if not fragment:
        return document
    if "%" in fragment:  # urllib.parse (and the ipaddress it imports) only when needed
        from urllib.parse import unquote

        parts = unquote(fragment).split("/")[1:]
    else:
        parts = fragment.split("/")[1:]
    for part in parts:  # jsonref reads "01" as 1 and "-1" as the last item; RFC 6901 does not
        if part.startswith("-") or (part.isdigit() and len(part) > 1 and part[0] == "0"):
            raise LookupError(part)
    if fragment[1:2] != "/" and fragment[:1] == "/" and "%" not in fragment \
            and "~" not in fragment and fragment.isprintable():
        # The usual `#/$defs/Name`: when every step is a key of a plain object, jsonref
        # would make the same lookups (no escapes to decode, nothing its URI parsing would
        # strip), only through a proxy that costs ~50 µs per reference.
        node = document
        for part in fragment[1:].split("/"):
            if type(node) is not dict or part not in node:
                break
            node = node[part]
        else:
            return node
    jsonref = _jsonref()  # after the fast path: most references never need it
    proxy = jsonref.JsonRef({"$ref": "#" + fragment}, base_uri="", loader=_refuse,
                            load_on_repr=False, _store=jsonref.URIDict({"": document}))
    try:
        node = proxy.__subject__
    except jsonref.JsonRefError as exc:
        raise LookupError(fragment) from exc
    if isinstance(node, str) and isinstance(
            resolve_pointer(document, fragment.rsplit("/", 1)[0]), str):
        raise LookupError(fragment)  # jsonref indexes into strings; a pointer does not
    return node


def local_target(node: Any, root: Any) -> Any:
    """What a local reference node (`{"$ref": "#/..."}`) names in `root`; None when `node`
    is not one, or names nothing there. For rules that judge a node by what its reference
    names without inlining it."""
    if root is None or not (isinstance(node, dict) and isinstance(node.get("$ref"), str)
                            and node["$ref"].startswith("#/")):
        return None
    try:
        return resolve_pointer(root, node["$ref"][1:])
    except LookupError:
        return None


class RefTarget(NamedTuple):
    kind: RefKind
    node: Any = None
    reason: str = ""


class RefResolver:
    """Resolves the `$ref` strings of one schema document to nodes of that document."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._cache: dict[str, RefTarget] = {}
        self._indexed = False
        self._ids: dict[str, Any] = {}
        self._anchors: dict[str, Any] = {}

    def _index(self) -> None:
        """Find the `$id`s and `$anchor`s, on the first reference that needs them: most
        references are JSON Pointers, and most documents have no reference at all."""
        if self._indexed:
            return
        self._indexed = True
        root = self.root
        for _, node in iter_nodes(root):
            if isinstance(node, dict):
                ident = node.get("$id")
                if isinstance(ident, str) and ident and node is not root:
                    self._ids[ident.rstrip("#")] = node
                anchor = node.get("$anchor")
                if isinstance(anchor, str):
                    self._anchors[anchor] = node
        root_id = root.get("$id") if isinstance(root, dict) else None
        if isinstance(root_id, str) and root_id:
            self._ids[root_id.rstrip("#")] = root

    def resolve(self, ref: Any) -> RefTarget:
        if not isinstance(ref, str):
            return RefTarget("unresolvable", reason="`$ref` is not a string")
        cached = self._cache.get(ref)
        if cached is None:
            cached = self._cache[ref] = self._resolve(ref)
        return cached

    def _resolve(self, ref: str) -> RefTarget:
        if ref[:1] == "#" and ref.isprintable():
            uri, fragment = "", ref[1:]  # what urldefrag makes of it, without its parsing
        else:
            from urllib.parse import urldefrag

            uri, fragment = urldefrag(ref)
        if uri or (fragment and not fragment.startswith("/")):
            self._index()
        if uri:
            base = self._ids.get(uri.rstrip("#"))
            if base is None:
                return RefTarget("remote", reason=f"`{ref}` points outside this schema")
        else:
            base = self.root
        if fragment and not fragment.startswith("/"):
            node = self._anchors.get(fragment)
            if node is None:
                return RefTarget("unresolvable", reason=f"no `$anchor` named {fragment!r}")
            return RefTarget("local", node)
        try:
            node = resolve_pointer(base, fragment)
        except LookupError:
            return RefTarget("unresolvable", reason=f"`{ref}` points to nothing in this schema")
        if not isinstance(node, (dict, bool)):  # junk where a schema belongs is TYP008's
            return RefTarget("unresolvable", reason=f"`{ref}` points to {_short(node)}, "
                                                    "which is not a schema")
        return RefTarget("local", node)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def iter_refs(schema: Any) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every node holding a `$ref`, with its path."""
    for path, node in iter_nodes(schema):
        if isinstance(node, dict) and "$ref" in node:
            yield path, node


Kids = dict[int, list[tuple[Path, Any]]]  # id(node) -> children(node), for one document
# What a walk of a document found for its analysis: each object's children, the objects
# holding a `$ref` and where `$defs` / `definitions` stand, all in walk order.
Walk = tuple[Kids, list[tuple[Path, dict[str, Any]]], list[tuple[Path, str]]]


def _refs_below(node: Any, kids: Kids | None = None) -> Iterator[dict[str, Any]]:
    """`$ref` nodes inside `node`, not looking into its own `$defs` (they are only a store).
    `kids` holds the children of the nodes of a walk of the document already made."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            if "$ref" in cur:
                yield cur
            below = kids.get(id(cur)) if kids is not None else None
            for rel, child in children(cur) if below is None else below:
                if rel[0] not in DEFS_KEYWORDS:
                    stack.append(child)


class RefAnalysis:
    """What the references of one document look like before anything is inlined.

    A document without references is measured only when first asked (`measure`): one is
    analysed on every check and transform pass, and its size matters only when its
    `$defs` are to be dropped. A plain class, not a dataclass: `dataclasses` imports
    `inspect`, a few milliseconds of every `check`'s start-up.
    """

    __slots__ = ("defs", "kids", "kinds", "measure", "recursive", "resolver", "size")

    def __init__(self, *, kinds: dict[Path, RefTarget] | None = None,
                 recursive: set[Path] | None = None,
                 defs: list[tuple[Path, str]] | None = None,
                 size: tuple[int, int] | None = None,
                 measure: Callable[[], tuple[int, int]] | None = None,
                 resolver: RefResolver | None = None, kids: Kids | None = None) -> None:
        self.kinds: dict[Path, RefTarget] = {} if kinds is None else kinds
        self.recursive: set[Path] = set() if recursive is None else recursive
        # Where `$defs` / `definitions` stand, in walk order, found by the same walk as the
        # references (None when the analysis failed and found nothing).
        self.defs = defs
        self.size = size  # (expanded nodes, expanded depth) once measured
        self.measure = measure
        self.resolver = resolver
        # Each object's children, kept from the analysis's walk when the document has a
        # reference: the inliner, which walks it next, then need not work them out again.
        self.kids = kids

    def _size(self) -> tuple[int, int]:
        if self.size is None:
            assert self.measure is not None
            self.size = self.measure()
        return self.size

    @property
    def expanded_nodes(self) -> int:
        return self._size()[0]

    @property
    def expanded_depth(self) -> int:
        return self._size()[1]


def walk_for_analysis(schema: Any) -> Walk:
    """The walk `analyse` needs (that of `iter_nodes`, written out): it runs on every check
    and transform pass. Each object's children are kept for the walks after it (the
    document is not changed while it is analysed)."""
    kids: Kids = {}
    refs: list[tuple[Path, dict[str, Any]]] = []
    defs: list[tuple[Path, str]] = []
    todo: list[tuple[Path, Any]] = [((), schema)]
    while todo:
        path, node = todo.pop()
        if not isinstance(node, dict):
            continue
        for defs_key in DEFS_KEYWORDS:
            if defs_key in node:
                defs.append((path, defs_key))
        if "$ref" in node:
            refs.append((path, node))
        below = kids[id(node)] = children(node)
        for rel, child in below[::-1]:  # (mypyc cannot compile reversed() here)
            todo.append((path + rel, child))
    return kids, refs, defs


def analyse(schema: Any, resolver: RefResolver | None = None, *, unroll: int = 3,
            walk: Walk | None = None) -> RefAnalysis:
    """Classify every reference and estimate the size of the fully inlined schema.
    `walk`: what `walk_for_analysis` finds in `schema`, from a walk made already (the
    engine's check walk gathers it on the way)."""
    resolver = resolver or RefResolver(schema)
    kids, refs, defs = walk_for_analysis(schema) if walk is None else walk
    result = RefAnalysis(resolver=resolver, defs=defs)
    targets: dict[int, Any] = {}
    for path, node in refs:
        target = resolver.resolve(node["$ref"])
        result.kinds[path] = target
        if target.kind == "local":
            targets[id(target.node)] = target.node

    # Which targets reach themselves through references (a recursive schema)?
    edges: dict[int, set[int]] = {}
    for key, node in targets.items():
        out: set[int] = set()
        for ref_node in _refs_below(node, kids):
            t = resolver.resolve(ref_node["$ref"])
            if t.kind == "local":
                out.add(id(t.node))
        edges[key] = out
    cyclic: set[int] = set()
    for start in edges:
        seen: set[int] = set()
        stack = list(edges[start])
        while stack:
            cur = stack.pop()
            if cur == start:
                cyclic.add(start)
                break
            if cur in seen:
                continue
            seen.add(cur)
            stack.extend(edges.get(cur, ()))
    for path, target in result.kinds.items():
        if target.kind == "local" and id(target.node) in cyclic:
            result.recursive.add(path)

    if result.kinds:
        result.size = _measure(schema, resolver, cyclic, unroll, kids)
        result.kids = kids
    else:
        result.measure = lambda: _measure(schema, resolver, cyclic, unroll)
    return result


def _measure(schema: Any, resolver: RefResolver, cyclic: set[int], unroll: int,
             kids: Kids | None = None) -> tuple[int, int]:
    """(node count, depth) of the inlined document, memoised per target: linear in the input.

    A recursive target is counted as unrolled `unroll` times, as the inliner will do.
    """
    return _Sizes(resolver, cyclic, unroll, kids).measure(schema)


class _Sizes:
    """`_measure`'s memo and its recursive walk. A class, not a closure that calls itself:
    that is a reference cycle, left with everything it holds for the cyclic collector."""

    def __init__(self, resolver: RefResolver, cyclic: set[int], unroll: int,
                 kids: Kids | None) -> None:
        self.resolver = resolver
        self.cyclic = cyclic
        self.unroll = unroll
        self.kids = kids
        self.memo: dict[int, tuple[int, int]] = {}
        self.in_progress: set[int] = set()

    def measure(self, node: Any) -> tuple[int, int]:
        key = id(node)
        memo = self.memo
        if key in memo:
            return memo[key]
        if key in self.in_progress:
            return (1, 0)  # the back edge of a cycle: counted by the multiplier below
        self.in_progress.add(key)
        total, deepest = 1, 0
        if isinstance(node, dict):
            if "$ref" in node:
                target = self.resolver.resolve(node["$ref"])
                if target.kind == "local":
                    n, d = self.measure(target.node)
                    if id(target.node) in self.cyclic:
                        n, d = n * self.unroll, d * self.unroll
                    total += n
                    deepest = max(deepest, d)
            below = self.kids.get(key) if self.kids is not None else None
            for rel, child in children(node) if below is None else below:
                if rel[0] in DEFS_KEYWORDS:
                    continue
                n, d = self.measure(child)
                total += n
                deepest = max(deepest, d + 1)
        self.in_progress.discard(key)
        memo[key] = (total, deepest)
        return total, deepest


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


_NO_ORIGIN = (None, None, False)


def inline(
    schema: Any,
    resolver: RefResolver | None = None,
    *,
    unroll: int = 3,
    drop_defs: bool = True,
    only: set[Path] | None = None,
    kids: Kids | None = None,
    origins: dict[int, tuple[Any, Any, bool]] | None = None,
) -> tuple[Any, list[InlineEvent]]:
    """Return a copy of `schema` with references replaced by copies of their targets.

    Keywords beside a `$ref` win over the target's. A recursive target is unrolled
    `unroll` times and then cut to a typed placeholder that says so. Remote and
    unresolvable references become placeholders too: the caller reports each as lossy.
    With `only`, just the `$ref` nodes at those paths (of the original document) are
    inlined and `$defs` are kept. `kids`: the children of the document's objects, from
    its analysis (`RefAnalysis.kids`), so they are not worked out again. `origins` is
    filled with id() of each object of the result that copies an object of the input, with
    its own keywords and values unchanged (no `$defs` dropped from it, not a reference),
    mapped to (that copy, that object, whether the copy is whole: nothing below changed
    either) (`Fixed.origins`).
    """
    inliner = _Inliner(resolver or RefResolver(schema), unroll, drop_defs, only, kids, origins)
    return inliner.expand(schema, (), (id(schema),), True), inliner.events


class _Inliner:
    """`inline`'s settings and its two mutually recursive expansions. A class, not closures
    calling each other: those make a reference cycle, left with all they hold for the
    cyclic collector."""

    def __init__(self, resolver: RefResolver, unroll: int, drop_defs: bool,
                 only: set[Path] | None, kids: Kids | None,
                 origins: dict[int, tuple[Any, Any, bool]] | None) -> None:
        self.resolver = resolver
        self.unroll = unroll
        self.only = only
        self.kids = kids
        self.origins = origins
        self.events: list[InlineEvent] = []
        self.dropping = drop_defs and only is None

    def expand(self, node: Any, path: Path, active: tuple[int, ...], top: bool,
               own: bool = True) -> Any:
        # `own`: the node stands at `path` in the input, not in a copy of a reference's target
        # (where a `$defs` removal would be reported at a path that holds a `$ref`)
        if not isinstance(node, dict):
            return node
        only = self.only
        if "$ref" in node and (only is None or (top and path in only)):
            return self.expand_ref(node, path, active, own)
        origins, dropping, events = self.origins, self.dropping, self.events
        out: dict[str, Any] = {}
        below = self.kids.get(id(node)) if self.kids is not None else None
        if below is None:
            below = children(node)
        verbatim = True
        if not below:  # a leaf (most nodes): its values copied, as below
            for key, value in node.items():
                if dropping and key in DEFS_KEYWORDS:
                    if own:
                        events.append(_defs_removed(path, key))
                    verbatim = False
                    continue
                out[key] = value if type(value) in ATOMIC else json_copy(value)
            if verbatim and origins is not None:
                origins[id(out)] = (out, node, True)
            return out
        subs = dict(below)
        holders = {rel[0] for rel in subs}
        same = True  # its own keywords and values as they were
        for key, value in node.items():
            if key in DEFS_KEYWORDS and dropping:
                if own:
                    events.append(_defs_removed(path, key))
                same = False
                continue
            out[key] = value if key in holders else json_copy(value)
        copied: set[str] = set()  # holders of several subschemas, copied once
        for rel, child in subs.items():
            if rel[0] in DEFS_KEYWORDS and dropping:
                continue
            new = self.expand(child, path + rel, active, top, own)
            if verbatim and origins is not None and new is not child:
                copy = origins.get(id(new), _NO_ORIGIN)
                verbatim = copy[1] is child and copy[2]
            _assign(out, rel, new, copied)
        if same and origins is not None:
            origins[id(out)] = (out, node, verbatim)
        return out

    def expand_ref(self, node: dict[str, Any], path: Path, active: tuple[int, ...],
                   own: bool) -> Any:
        ref = node["$ref"]
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        sib_expanded = self.expand(siblings, path, active, False, own) if siblings else {}
        target = self.resolver.resolve(ref)
        events, unroll = self.events, self.unroll
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
            placeholder: dict[str, Any] = {"description": note}
            return _merge(placeholder, sib_expanded)
        key = id(target.node)
        label = _label(str(ref), target.node)
        if active.count(key) >= unroll:
            events.append(
                # any value of the target's type stands for the deeper levels: wider where
                # the target says its type, else the placeholder's guessed type may refuse
                InlineEvent("recursion-cut", path, str(ref), "lossy",
                            f"recursive `{label}` cut after {unroll} levels",
                            "wider" if isinstance(target.node, dict)
                            and isinstance(target.node.get("type"), str) else "changed",
                            "lost")
            )
            placeholder = {
                "type": _type_of(target.node),
                "description": (
                    f"A nested {label}; nesting deeper than {unroll} levels is not described."
                ),
            }
            return _merge(placeholder, sib_expanded)
        body = self.expand(target.node, path, (*active, key), False, False)
        if isinstance(body, bool):
            body = {} if body else {"not": {}}
        elif self.origins is not None:
            # rebuilt here and merged: not a copy in the result
            self.origins.pop(id(body), None)
        # `body` is the expansion's own new object: trimmed and merged in place
        for k in _DOCUMENT_ONLY.intersection(body):
            del body[k]
        if not sib_expanded:
            events.append(InlineEvent("inlined", path, str(ref), "lossless",
                                      f"inlined `{ref}`"))
            return body
        return self.with_siblings(body, sib_expanded, path, str(ref))

    def with_siblings(self, body: dict[str, Any], siblings: dict[str, Any], path: Path,
                      ref: str) -> dict[str, Any]:
        node, detail = with_siblings(body, siblings, ref)
        self.events.append(InlineEvent("inlined", path, ref, "lossless", detail))
        origins = self.origins
        if origins and not (node.get("allOf") == [body, siblings] and len(node) == 1):
            # merged: a new node made of copies, so nothing of either part is in the result
            stack: list[Any] = [body, siblings]
            while stack:
                sub = stack.pop()
                if isinstance(sub, dict):
                    origins.pop(id(sub), None)
                    stack.extend(sub.values())
                elif isinstance(sub, list):
                    stack.extend(sub)
        return node


def with_siblings(body: dict[str, Any], siblings: dict[str, Any], ref: str,
                  ) -> tuple[dict[str, Any], str]:
    """A reference's target and the keywords beside its `$ref`, which hold together
    (2020-12): one schema where they combine exactly (the siblings' annotations win,
    descriptions joined), else both kept under `allOf` for the rules that handle it; and
    what was done, for the change log. Never changes what is accepted."""
    merged = merge_exact(siblings, body)
    if merged is None:
        return ({"allOf": [body, siblings]},
                f"inlined `{ref}`; the keywords beside it kept with it under `allOf`")
    detail = f"inlined `{ref}`, its sibling keywords merged in"
    if merged.dropped:
        detail += ("; dropped " + ", ".join(f"`{n}`" for n in merged.dropped)
                   + ": the definition admits no such property")
    node = merged.node
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


def _merge(base: dict[str, Any], siblings: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    merged.update(siblings)
    return merged
