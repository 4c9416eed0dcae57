"""References rewritten as plain JSON Pointers into what a provider's schema keeps: a
reference by `$anchor` or `$id`, into `definitions` where only `$defs` is taken, or to a
schema outside the schema keywords. REF010 (`rules/refs.py`) finds them here and rewrites.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..model import Path
from ..paths import parse_pointer, pointer
from .refs import RefResolver
from .walker import iter_nodes


class Retarget(NamedTuple):
    path: Path  # of the node holding the `$ref`
    ref: str
    new: str


def _pointer_to(root: Any, segments: list[str] | Path, renamed: set[int], used: set[int],
                ) -> str | None:
    """`segments` followed from `root` as a pointer reference, each `definitions` of a
    node in `renamed` spelled `$defs` (and that node noted in `used`); None where the
    segments lead nowhere."""
    node: Any = root
    out: list[str | int] = []
    for seg in segments:
        if seg == "definitions" and id(node) in renamed:
            used.add(id(node))
            out.append("$defs")
        else:
            out.append(seg)
        try:
            node = node[int(seg)] if isinstance(node, list) else node[seg]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return "#" + pointer(tuple(out))


class Retargets(NamedTuple):
    found: list[Retarget]
    renamed: list[Path]  # nodes whose `definitions` becomes `$defs`
    copied: dict[str, Any]  # new root `$defs` entries: targets outside the schema keywords


def retargets(root: Any, allowed_keywords: frozenset[str]) -> Retargets:
    """The references to rewrite as plain JSON Pointers into what a profile keeps (of
    keywords, `allowed_keywords`): a reference by `$anchor` or `$id` (the metadata ANN001
    removes); where the profile takes `$defs` but not `definitions` (whose block ANN004
    would remove), a pointer into `definitions`, which becomes `$defs`; and a pointer to a
    schema outside the schema keywords (`#/components/schemas/X`, in a block ANN004 would
    remove), whose target is copied into the root's `$defs`."""
    nodes = [(path, node) for path, node in iter_nodes(root) if isinstance(node, dict)]
    renamed: set[int] = set()
    if "definitions" not in allowed_keywords and "$defs" in allowed_keywords:
        renamed = {id(n) for _, n in nodes
                   if isinstance(n.get("definitions"), dict) and "$defs" not in n}
    where = {id(n): path for path, n in nodes}
    resolver = RefResolver(root)
    used: set[int] = set()
    found = []
    copied: dict[str, Any] = {}
    names: dict[int, str] = {}
    taken = {*_names_in(root, "$defs"), *_names_in(root, "definitions")}
    can_copy = "$defs" in allowed_keywords and isinstance(root, dict) \
        and isinstance(root.get("$defs", {}), dict)
    for path, node in nodes:
        ref = node.get("$ref")
        if not isinstance(ref, str) or "%" in ref:
            continue
        new: str | None = None
        target = resolver.resolve(ref)
        at = where.get(id(target.node)) if target.kind == "local" else None
        if ref.startswith("#/"):
            segments = parse_pointer(ref[1:])
            if at is None and can_copy and segments and isinstance(target.node, dict):
                name = names.get(id(target.node))
                if name is None:
                    name = names[id(target.node)] = _free(str(segments[-1]), taken)
                    copied[name] = target.node
                new = "#" + pointer(("$defs", name))
            elif renamed and segments is not None:
                new = _pointer_to(root, segments, renamed, used)
        elif at is not None:
            new = _pointer_to(root, at, renamed, used)
        if new is not None and new != ref:
            found.append(Retarget(path, ref, new))
    return Retargets(found, [path for path, n in nodes if id(n) in used], copied)


def _names_in(root: Any, key: str) -> list[str]:
    block = root.get(key) if isinstance(root, dict) else None
    return list(block) if isinstance(block, dict) else []


def _free(name: str, taken: set[str]) -> str:
    """`name`, or `name_2`, `name_3`, ...: the first not in `taken` (which it joins)."""
    free, n = name, 1
    while free in taken:
        n += 1
        free = f"{name}_{n}"
    taken.add(free)
    return free
