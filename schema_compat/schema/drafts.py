"""A schema read by the draft it declares: draft-04/06/07 keywords rewritten into 2020-12.

Providers read every schema as 2020-12 (Anthropic checks it against that metaschema), and
MCP takes a schema without `$schema` as 2020-12. A document that declares an older draft
means something else by a few keywords, so it is rewritten once, before any other rule
reads it, into the 2020-12 spelling of the same meaning:

- draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` (a modifier of `minimum` /
  `maximum`) becomes the numeric bound of 2020-12;
- `dependencies` becomes `dependentRequired` (lists of names) and `dependentSchemas`;
- array-form `items` becomes `prefixItems`, its `additionalItems` the new `items`; an
  `additionalItems` beside no list of `items` applies to nothing and goes;
- `$schema` says 2020-12, so a provider that keeps it reads the document as written.

And for a provider that reads OpenAPI's `nullable: true` as "or null" (gemini, vertex,
portable), a JSON Schema document loses its `nullable`: JSON Schema has no such keyword, so
the server's validator lets no null through for it. Whether the document is JSON Schema is
the caller's to say (`nullable`): an MCP tool's schema is, unless the tool says it was
written in the OpenAPI dialect, as `transform` marks its own output for those providers
(`mcp_tool.with_dialect`); a Gemini declaration's `parameters` is not.

`definitions` stays where it is: a JSON Pointer into it resolves in 2020-12 too. Where a
node already holds the 2020-12 keyword a rewrite would write (`prefixItems` beside a list
of `items`), that node is left as it is rather than merged.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ..model import Path
from .jsoncopy import json_tree_copy
from .shape import is_number
from .walker import children, rewrite

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

_DRAFTS = {"draft-04": 4, "draft-06": 6, "draft-07": 7, "draft/2019-09": 2019,
           "draft/2020-12": 2020}
_BOUNDS = {"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"}
# The keys `_node` may rewrite: a node holding none of them is left as it is.
_KEYS = frozenset({*_BOUNDS, "dependencies", "items", "additionalItems", "nullable"})


def declared_draft(schema: Any) -> int | None:
    """4, 6, 7, 2019 or 2020 where `schema` declares that JSON Schema draft in its
    `$schema`; None otherwise (an unknown URI, or none: MCP's default is 2020-12)."""
    uri = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(uri, str):
        return None
    text = uri.strip().rstrip("#").rstrip("/")
    for scheme in ("http://", "https://"):
        if text.startswith(scheme + "json-schema.org/"):
            name = text[len(scheme + "json-schema.org/"):]
            if name.endswith("/schema"):
                return _DRAFTS.get(name[:-len("/schema")])
    return None


def draft_name(draft: int) -> str:
    """`07`, `2020-12`: a draft as its URI spells it."""
    return {2019: "2019-09", 2020: "2020-12"}.get(draft, f"{draft:02d}")


class Rewrite(NamedTuple):
    """One keyword rewritten: where (in the document as given) and what was done."""

    path: Path
    text: str


def _rewrites(node: dict[str, Any], draft: int, nullable: bool) -> bool:
    """Whether `_node` would rewrite something of `node`: asked of every node first, so
    that a document with nothing to rewrite (most) is neither copied nor rebuilt."""
    if _KEYS.isdisjoint(node):
        return False
    return (nullable and "nullable" in node) or (draft <= 7 and (
        isinstance(node.get("dependencies"), dict) or isinstance(node.get("items"), list)
        or "additionalItems" in node
        or (draft == 4 and any(isinstance(node.get(k), bool) for k in _BOUNDS))))


def _any_rewrite(schema: Any, draft: int, nullable: bool) -> bool:
    """Whether `_rewrites` holds of some node: the walk without the paths `iter_nodes`
    builds, asked of every document that declares a draft, on every pass."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if _rewrites(node, draft, nullable):
                return True
            stack.extend(child for _, child in children(node))
    return False


def _node(node: dict[str, Any], draft: int, nullable: str | None) -> list[tuple[Path, str]]:
    """Rewrite one node in place (a copy the caller owns); what was rewritten, by key.
    `nullable`: where the document's `nullable` goes, the dialect it is read in."""
    done: list[tuple[Path, str]] = []
    if nullable is not None and "nullable" in node:
        flag = node.pop("nullable")
        done.append((("nullable",), f"removed `nullable: {json.dumps(flag)[:40]}`: JSON Schema "
                                    f"({nullable}) has no such keyword, and the provider "
                                    "would read it as \"or null\""))
    if draft > 7:
        return done
    if draft == 4:
        for key, inclusive in _BOUNDS.items():
            flag = node.get(key)
            if flag is True and is_number(node.get(inclusive)):
                node[key] = node.pop(inclusive)
                done.append(((key,), f"`{inclusive}` with `{key}: true` (draft 4) became "
                                     f"`{key}: {node[key]}`"))
            elif isinstance(flag, bool):
                del node[key]
                done.append(((key,), f"removed `{key}: {str(flag).lower()}`, which bounds "
                                     "nothing here in draft 4"))
    deps = node.get("dependencies")
    if isinstance(deps, dict) and "dependentRequired" not in node \
            and "dependentSchemas" not in node:
        names = {k: v for k, v in deps.items() if isinstance(v, list)}
        schemas = {k: v for k, v in deps.items() if isinstance(v, (dict, bool))}
        if len(names) + len(schemas) == len(deps):
            del node["dependencies"]
            if names:
                node["dependentRequired"] = names
            if schemas:
                node["dependentSchemas"] = schemas
            done.append((("dependencies",), "`dependencies` became "
                         + " and ".join(k for k, v in (("`dependentRequired`", names),
                                                       ("`dependentSchemas`", schemas)) if v)))
    items = node.get("items")
    if isinstance(items, list) and "prefixItems" not in node:
        node["prefixItems"] = node.pop("items")
        if "additionalItems" in node:
            node["items"] = node.pop("additionalItems")
            done.append((("items",), "array-form `items` became `prefixItems`, and "
                                     "`additionalItems` the `items` after them"))
        else:
            done.append((("items",), "array-form `items` became `prefixItems`"))
    elif "additionalItems" in node and not isinstance(items, list):
        del node["additionalItems"]
        done.append((("additionalItems",), "removed `additionalItems`, which applies to "
                                           "nothing without a list of `items`"))
    return done


def to_2020_12(schema: Any, nullable: bool = False) -> tuple[Any, list[Rewrite]]:
    """`schema` (not changed) as 2020-12, and each rewrite made; the schema itself and no
    rewrites where it uses none of the keywords its draft (2020-12 where it declares none)
    reads differently. `nullable`: the document is JSON Schema and the provider reads
    `nullable`, which therefore goes (see above)."""
    declared = declared_draft(schema)
    draft = 2020 if declared is None else declared
    if not _any_rewrite(schema, draft, nullable):
        return schema, []
    why = (None if not nullable else "the dialect of the parameters" if declared is None
           else f"draft {draft_name(draft)}, its `$schema`")

    def visit(node: Any, path: Path, keyword: str | None, changed: bool,
              ) -> tuple[Any, list[Rewrite]]:
        if not isinstance(node, dict):
            return node, []
        return node, [Rewrite(path + rel, text) for rel, text in _node(node, draft, why)]

    new, found, _ = rewrite(json_tree_copy(schema), visit)
    if not found or draft > 7:
        return (new, found) if found else (schema, [])
    new["$schema"] = DRAFT_2020_12
    return new, [*found, Rewrite(("$schema",), f"`$schema` says 2020-12, the draft the "
                                               f"document is now written in (was draft "
                                               f"{draft:02d})")]
