"""Local `$ref` resolution: what a reference names in its own document.

A `$ref` resolves only to a node of the same document, by JSON Pointer (`pointer`), `$id` or
`$anchor`; anything else is "remote" or "unresolvable", never fetched. What the references
of a document amount to is `ref_analysis`; replacing them by their targets is `inliner`.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NamedTuple

from .pointer import resolve_pointer
from .walker import iter_nodes

RefKind = Literal["local", "remote", "unresolvable"]
DEFS_KEYWORDS = ("$defs", "definitions")


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
