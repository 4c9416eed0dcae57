"""A machine-readable structural diff of two schemas, for `diff --json`.

deepdiff is imported here only: it is slow to import and only `diff` needs it.
"""

from __future__ import annotations

from typing import Any

from .model import Path
from .paths import jsonpath, pointer

_OPS = {
    "values_changed": "changed", "type_changes": "changed",
    "dictionary_item_added": "added", "dictionary_item_removed": "removed",
    "iterable_item_added": "added", "iterable_item_removed": "removed",
}
# A list of more plain values than this (an enum of a million ids) is compared here, by
# equality first, not value by value by deepdiff: ~10 µs a value, and ~450 µs a value when
# each one changed (a million integers made strings: minutes).
_LONG_LIST = 1_000
# Past this many values between the common ends of two long lists, deepdiff does not align
# them: they are compared index by index.
_ALIGN_AT = 10_000
_PLAIN = frozenset({str, int, float, bool, type(None)})  # what a JSON list of values holds


def structural_diff(before: Any, after: Any) -> list[dict[str, Any]]:
    """[{op, path, pointer, before?, after?}] for every changed leaf or subtree."""
    out: list[dict[str, Any]] = []
    before, after = _set_aside(before, after, (), out)
    out.extend(_deep(before, after, ()))
    out.sort(key=lambda e: (e["pointer"], e["op"]))
    return out


def _deep(before: Any, after: Any, prefix: Path, offset: int = 0) -> list[dict[str, Any]]:
    """deepdiff's changes of `before` to `after`, which stand at `prefix` (list slices from
    index `offset`)."""
    from deepdiff import DeepDiff

    tree = DeepDiff(before, after, view="tree", threshold_to_diff_deeper=0,
                    verbose_level=2)
    out: list[dict[str, Any]] = []
    for kind, op in _OPS.items():
        for level in tree.get(kind, []):
            steps = list(level.path(output_format="list"))
            if offset and steps:
                steps[0] += offset
            out.append(_entry(op, (*prefix, *steps), level.t1, level.t2))
    return out


def _entry(op: str, path: Path, before: Any, after: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"op": op, "path": jsonpath(path), "pointer": pointer(path)}
    if op != "added":
        entry["before"] = before
    if op != "removed":
        entry["after"] = after
    return entry


def _set_aside(before: Any, after: Any, path: Path, out: list[dict[str, Any]],
               ) -> tuple[Any, Any]:
    """`before` and `after` with each pair of long lists of plain values under the same
    keys replaced by None on both sides, their changes added to `out` instead. Only
    through objects: deepdiff pairs their members by key, as this does (it may pair the
    items of a list otherwise)."""
    if isinstance(before, dict) and isinstance(after, dict):
        new_b, new_a = dict(before), dict(after)
        for key in before:
            if key in after:
                new_b[key], new_a[key] = _set_aside(before[key], after[key], (*path, key), out)
        return new_b, new_a
    if (isinstance(before, list) and isinstance(after, list)
            and max(len(before), len(after)) > _LONG_LIST
            and {*map(type, before), *map(type, after)} <= _PLAIN):
        out.extend(_list_changes(before, after, path))
        return None, None
    return before, after


def _list_changes(before: list[Any], after: list[Any], path: Path) -> list[dict[str, Any]]:
    head, tail = common_ends(before, after)
    mid_b, mid_a = before[head:len(before) - tail], after[head:len(after) - tail]
    if max(len(mid_b), len(mid_a)) <= _ALIGN_AT:
        return _deep(mid_b, mid_a, path, head) if mid_b or mid_a else []
    out = [_entry("changed", (*path, head + i), x, y)
           for i, (x, y) in enumerate(zip(mid_b, mid_a, strict=False)) if not _same(x, y)]
    out.extend(_entry("removed", (*path, head + i), mid_b[i], None)
               for i in range(len(mid_a), len(mid_b)))
    out.extend(_entry("added", (*path, head + j), None, mid_a[j])
               for j in range(len(mid_b), len(mid_a)))
    return out


def common_ends(before: list[Any], after: list[Any]) -> tuple[int, int]:
    """How many values two lists have in common at their start, and then at their end, as
    JSON tells values apart (`1`, `1.0` and `true` are not the same): whole lists compared
    at C speed first, as a transform seldom touches a long enum."""
    n, m = len(before), len(after)
    if before == after and list(map(type, before)) == list(map(type, after)):
        return n, 0
    head = 0
    while head < min(n, m) and _same(before[head], after[head]):
        head += 1
    tail = 0
    while tail < min(n, m) - head and _same(before[n - 1 - tail], after[m - 1 - tail]):
        tail += 1
    return head, tail


def _same(x: Any, y: Any) -> bool:
    return type(x) is type(y) and x == y
