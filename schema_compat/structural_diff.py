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


def structural_diff(before: Any, after: Any) -> list[dict[str, Any]]:
    """[{op, path, pointer, before?, after?}] for every changed leaf or subtree."""
    from deepdiff import DeepDiff

    tree = DeepDiff(before, after, view="tree", threshold_to_diff_deeper=0,
                    verbose_level=2)
    out: list[dict[str, Any]] = []
    for kind, op in _OPS.items():
        for level in tree.get(kind, []):
            path: Path = tuple(level.path(output_format="list"))
            entry: dict[str, Any] = {"op": op, "path": jsonpath(path), "pointer": pointer(path)}
            if op != "added":
                entry["before"] = level.t1
            if op != "removed":
                entry["after"] = level.t2
            out.append(entry)
    out.sort(key=lambda e: (e["pointer"], e["op"]))
    return out
