"""Reference analysis: what the references of one document amount to before anything is
inlined: each reference's kind, which ones recurse, where `$defs` stand, and the size of
the fully inlined document.

The size is measured *before* inlining, because a few kilobytes of references that point
at each other twice per level inline to hundreds of megabytes. Apart from the inliner
(`inliner`) because the engine analyses every document on every pass, and inlines few.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..model import Path
from .refs import DEFS_KEYWORDS, RefResolver, RefTarget
from .walker import children

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

    def expanded(self) -> tuple[int, int]:
        """(nodes, depth) of the document with every reference inlined, measured when
        first asked."""
        if self.size is None:
            assert self.measure is not None
            self.size = self.measure()
        return self.size


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
            ) -> RefAnalysis:
    """Classify every reference and estimate the size of the fully inlined schema."""
    resolver = resolver or RefResolver(schema)
    kids, refs, defs = walk_for_analysis(schema)
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
    cyclic = _cyclic(edges)
    for path, target in result.kinds.items():
        if target.kind == "local" and id(target.node) in cyclic:
            result.recursive.add(path)

    if result.kinds:
        result.size = _measure(schema, resolver, cyclic, unroll, kids)
        result.kids = kids
    else:
        result.measure = lambda: _measure(schema, resolver, cyclic, unroll)
    return result


def _cyclic(edges: dict[int, set[int]]) -> set[int]:
    """The targets that reach themselves through references: those in a strongly connected
    component of more than one target, or with an edge to themselves. Tarjan's algorithm,
    iterative and linear in the edges: a search from every target, as this was once done,
    is quadratic in a chain of references, and a recursive one overflows Python's stack
    on a long chain."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    component: list[int] = []
    cyclic: set[int] = set()
    for root in edges:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        component.append(root)
        on_stack.add(root)
        work: list[tuple[int, list[int]]] = [(root, list(edges[root]))]
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    component.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, list(edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] != index[node]:
                continue
            members: list[int] = []
            while True:
                member = component.pop()
                on_stack.discard(member)
                members.append(member)
                if member == node:
                    break
            if len(members) > 1 or node in edges.get(node, ()):
                cyclic.update(members)
    return cyclic


def _measure(schema: Any, resolver: RefResolver, cyclic: set[int], unroll: int,
             kids: Kids | None = None) -> tuple[int, int]:
    """(node count, depth) of the inlined document, memoised per target: linear in the input.

    A recursive target is counted as unrolled `unroll` times, as the inliner will do.
    """
    return _Sizes(resolver, cyclic, unroll, kids).measure(schema)


class _Sizes:
    """`_measure`'s memo and its walk, which follows references: iterative, with a stack
    of its own, because a chain of references (`$ref` to a `$ref` to ...) can be longer
    than Python's stack however shallow the document is."""

    def __init__(self, resolver: RefResolver, cyclic: set[int], unroll: int,
                 kids: Kids | None) -> None:
        self.resolver = resolver
        self.cyclic = cyclic
        self.unroll = unroll
        self.kids = kids
        self.memo: dict[int, tuple[int, int]] = {}
        self.in_progress: set[int] = set()

    def measure(self, node: Any) -> tuple[int, int]:
        """(node count, depth) of `node` inlined: itself, plus what its reference names
        (times `unroll` for a recursive target, at the same depth), plus its children one
        level down. The back edge of a cycle counts as one node."""
        stack: list[_Frame] = []
        value = self._enter(node, stack)
        while stack:
            frame = stack[-1]
            if value is not None:  # what the part last entered measured
                n, d = value
                if frame.parts[frame.done][1]:  # the reference's target
                    if id(frame.parts[frame.done][0]) in self.cyclic:
                        n, d = n * self.unroll, d * self.unroll
                    frame.total += n
                    frame.deepest = max(frame.deepest, d)
                else:
                    frame.total += n
                    frame.deepest = max(frame.deepest, d + 1)
                frame.done += 1
                value = None
            if frame.done < len(frame.parts):
                value = self._enter(frame.parts[frame.done][0], stack)
                continue
            stack.pop()
            self.in_progress.discard(frame.key)
            value = self.memo[frame.key] = (frame.total, frame.deepest)
        assert value is not None
        return value

    def _enter(self, node: Any, stack: list[_Frame]) -> tuple[int, int] | None:
        """`node`'s measure when known at once, else None with its frame pushed."""
        key = id(node)
        known = self.memo.get(key)
        if known is not None:
            return known
        if key in self.in_progress:
            return (1, 0)  # the back edge of a cycle: counted by the multiplier
        parts: list[tuple[Any, bool]] = []  # (what to measure, whether a reference's target)
        if isinstance(node, dict):
            if "$ref" in node:
                target = self.resolver.resolve(node["$ref"])
                if target.kind == "local":
                    parts.append((target.node, True))
            below = self.kids.get(key) if self.kids is not None else None
            for rel, child in children(node) if below is None else below:
                if rel[0] not in DEFS_KEYWORDS:
                    parts.append((child, False))
        if not parts:
            self.memo[key] = (1, 0)
            return (1, 0)
        self.in_progress.add(key)
        stack.append(_Frame(key, parts))
        return None


class _Frame:
    """A node being measured: its parts, how many are measured, and their sum so far."""

    __slots__ = ("deepest", "done", "key", "parts", "total")

    def __init__(self, key: int, parts: list[tuple[Any, bool]]) -> None:
        self.key = key
        self.parts = parts
        self.done = 0
        self.total = 1
        self.deepest = 0
