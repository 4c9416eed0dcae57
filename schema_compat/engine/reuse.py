"""What the engine reuses instead of asking the rules again, and why that is sound.

Node rules see only a node's subtree and whether it stands at the root (`NodeContext`;
the rules that read the whole document say so, `Rule.reads_root`, and turn reuse off). So
a node met again unchanged, wherever it now stands under the same keyword, has the same
findings: the check's record of the document (`Checked`) answers for the transform's first
pass where it rewrites a copy of the same document, the inliner's map of copies
(`Origins`, `Fixed.origins`) for the nodes it copied, and a pass's clean nodes (`Clean`)
for the next pass. tests/test_rule_place.py holds the rules to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..model import (
    Finding,
    Path,
)
from ..schema.walker import children


class Unchecked(NamedTuple):
    """A subtree a node pass leaves alone: checked only if that pass turns out the last
    (usually the rule of the keyword holding it removes it in the same pass)."""

    node: Any
    path: Path
    keyword: str


class Checked(NamedTuple):
    """The nodes of a check where no rule with a fix fired, with their findings."""

    at: dict[Path, list[Finding]]  # path -> the findings there
    # id(node) -> (node, path, keyword holding it, the findings there)
    nodes: dict[int, tuple[Any, Path, str | None, list[Finding]]]


# id(node) -> (node, path, keyword, findings) for nodes a pass left with no fixable rule
# firing
Clean = dict[int, tuple[Any, Path, "str | None", list["Finding | Unchecked"]]]


# id(node) -> (node, the node it copies, whether the copy is whole): `Fixed.origins`
Origins = dict[int, tuple[Any, Any, bool]]


NO_COPY: tuple[Any, Any, bool] = (None, None, False)


def moved(found: Sequence[Finding | Unchecked], old: Path, new: Path,
           ) -> list[Finding | Unchecked]:
    """Findings made at `old`, said of the same node standing at `new`."""
    cut = len(old)
    return [f._replace(path=new + f.path[cut:]) for f in found]


CONTAINERS = (dict, list)


NO_CLEAN: tuple[Any, ...] = (None,)


def adds_triggers(new: Any, old: Any, triggers: frozenset[str],
                   looked_at: Clean | None = None) -> bool:
    """Whether `new`, a fix's result for `old`, holds one of the `triggers` keys: in any
    node but the subschemas of `old` it kept and the nodes of `looked_at` (a pass's clean
    nodes, as they are), which a node pass has looked at already, subtree and all (with
    `old` None: in any node of `new`)."""
    if isinstance(new, dict) and isinstance(old, dict):
        # The usual fix removes or sets a few keywords and keeps every other value as it
        # was: then only the new node's own keys are new.
        if not triggers.isdisjoint(new):
            return True
        get = old.get
        for k, v in new.items():
            if v is not get(k) and isinstance(v, CONTAINERS):
                break
        else:
            return False
    kept = {id(child) for _, child in children(old)}
    seen = looked_at or {}
    stack = [new]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if not triggers.isdisjoint(node):
                return True
            stack.extend(child for _, child in children(node) if id(child) not in kept
                         and seen.get(id(child), NO_CLEAN)[0] is not child)
    return False
