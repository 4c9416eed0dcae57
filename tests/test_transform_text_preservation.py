"""What the model is told survives a transform, or the change log says where it went.

Over every tool of both corpora and every profile: each description (of a property, a
branch, a `$defs` target, the schema root), enum value, property name and `required` entry of
the original is still in the transformed schema (in a description, an enum, a `properties`
map or a `required` list, anywhere: inlining moves things), unless a logged change at its
path or at one above it (the node that was removed or replaced) accounts for it. The walk
here is the test's own, not the package's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from schema_compat.engine import run
from schema_compat.extract.files import load_sources
from schema_compat.model import Change, ToolDef
from schema_compat.profiles import PROFILES

TESTS = Path(__file__).resolve().parent
CORPORA = [TESTS / "data" / "corpus",
           Path(os.environ.get("SCHEMA_COMPAT_SHARED") or TESTS.parents[1] / "shared")
           / "corpus"]
SHAPES = TESTS / "data" / "fidelity" / "shapes.json"

_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
        "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")

Item = tuple[str, str, tuple[Any, ...]]  # (kind, text, path of the node holding it)


def schema_nodes(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...],
                                                                         dict[str, Any]]]:
    if not isinstance(node, dict):
        return
    yield path, node
    for key in _ONE:
        if key in node:
            yield from schema_nodes(node[key], (*path, key))
    for key in _MAP:
        if isinstance(node.get(key), dict):
            for name, sub in node[key].items():
                yield from schema_nodes(sub, (*path, key, name))
    for key in _LIST:
        if isinstance(node.get(key), list):
            for i, sub in enumerate(node[key]):
                yield from schema_nodes(sub, (*path, key, i))
    if isinstance(node.get("items"), list):
        for i, sub in enumerate(node["items"]):
            yield from schema_nodes(sub, (*path, "items", i))


def told(schema: Any) -> list[Item]:
    out: list[Item] = []
    for path, node in schema_nodes(schema):
        if isinstance(node.get("description"), str) and node["description"].strip():
            out.append(("description", node["description"], path))
        if isinstance(node.get("enum"), list):
            out += [("enum value", json.dumps(v), path) for v in node["enum"]
                    if isinstance(v, str | int | float | bool)]
        if isinstance(node.get("properties"), dict):
            out += [("property", str(name), path) for name in node["properties"]]
        if isinstance(node.get("required"), list):
            out += [("required", r, path) for r in node["required"] if isinstance(r, str)]
    return out


class Seen:
    """Everything the transformed schema tells, by kind."""

    def __init__(self, schema: Any) -> None:
        self.text: list[str] = []
        self.values: set[str] = set()
        self.names: set[str] = set()
        self.required: set[str] = set()
        for _, node in schema_nodes(schema):
            for key in ("description", "title"):
                if isinstance(node.get(key), str):
                    self.text.append(" ".join(node[key].split()))
            if isinstance(node.get("enum"), list):
                self.values.update(json.dumps(v) for v in node["enum"])
            if "const" in node:
                self.values.add(json.dumps(node["const"]))
            if isinstance(node.get("properties"), dict):
                self.names.update(node["properties"])
            if isinstance(node.get("required"), list):
                self.required.update(r for r in node["required"] if isinstance(r, str))
        self.blob = "\n".join(self.text)

    def has(self, kind: str, text: str) -> bool:
        if kind == "description":
            return " ".join(text.split()) in self.blob
        if kind == "enum value":
            # described values are quoted or bare in the description; numbers may be strings
            bare = json.loads(text)
            return text in self.values or json.dumps(str(bare)) in self.values \
                or str(bare) in self.blob
        if kind == "property":
            return text in self.names or text in self.blob
        return text in self.required or text in self.blob


def accounted(kind: str, text: str, path: tuple[Any, ...], changes: list[Change]) -> bool:
    """A change that says so, at the node holding the item (at its keyword, or at a
    property of it) or at a node above (replaced or removed with everything below): one
    that declares what the model is told lost, or names the item. A change saying
    `described` must hold the words it describes (issue 28: union merges said so and left
    "Any of: string; string."); an enum value, name or `required` entry may also go with a
    keyword removed whole (`removed `$defs``)."""
    return any((c.path == path[:len(c.path)] or (
        c.path[:len(path)] == path and len(c.path) - len(path) <= 2))
        and (c.told == "lost" or text in c.description or (
            kind != "description" and c.description.startswith("removed `")))
        for c in changes)


@cache
def tools() -> tuple[ToolDef, ...]:
    files = [f for c in CORPORA if c.is_dir()
             for f in [*sorted(c.glob("*.json")), *sorted((c / "servers").glob("*.json"))]]
    sources, errors = load_sources([str(f) for f in files])
    assert not errors
    shapes = [ToolDef(c["name"], c["schema"], "Shape.") for c in json.loads(SHAPES.read_text())]
    seen: set[str] = set()
    out = []
    for t in [*(t for s in sources for t in s.tools), *shapes]:
        key = json.dumps(t.schema, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return tuple(out)


@pytest.mark.parametrize("lossless_only", [False, True], ids=["all", "lossless-only"])
@pytest.mark.parametrize("profile", list(PROFILES))
def test_nothing_the_model_is_told_disappears_unsaid(profile: str, lossless_only: bool) -> None:
    missing = []
    checked = 0
    for r in run(list(tools()), profile, lossless_only=lossless_only):
        if r.transformed_schema is None or not r.changes:
            continue
        seen = Seen(r.transformed_schema)
        changes = [c for c in r.changes if c.scope == "schema"]
        for kind, text, path in told(r.tool.schema):
            checked += 1
            if not seen.has(kind, text) and not accounted(kind, text, path, changes):
                missing.append(f"{r.tool.name}: {kind} {text[:80]!r} at {list(path)}")
    assert not missing, f"{len(missing)} lost unsaid:\n" + "\n".join(missing[:20])
    # the profiles that leave keywords alone may change no schema at all
    assert checked > 0 or profile in ("openai", "anthropic", "bedrock", "mistral")


# Issue 28's shapes: union branches that differ in their descriptions, at the top and nested
# (workspace-mcp's `batch_update_doc`: one request object per branch, each with described
# properties, two of them sharing a name). Merged, every description must still be there,
# word for word: nothing here need be lost, so no change may account for a missing one.
TWO_STRINGS = {"type": "object", "properties": {"src": {"anyOf": [
    {"type": "string", "description": "A file path"},
    {"type": "string", "description": "A URL"}]}}}
REQUESTS = {"type": "object", "required": ["requests"], "properties": {"requests": {
    "type": "array", "description": "The edits to make, in order.", "items": {"anyOf": [
        {"type": "object", "description": "Insert text at an index.", "properties": {
            "type": {"const": "insert_text", "description": "Inserts text."},
            "text": {"type": "string", "description": "The text to insert."},
            "index": {"type": "integer", "description": "Where the text goes."}},
         "required": ["type", "text"]},
        {"type": "object", "description": "Replace every match of a text.", "properties": {
            "type": {"const": "replace_all", "description": "Replaces text."},
            "text": {"type": "string", "description": "The text that replaces each match."},
            "find": {"type": "string", "description": "The text to find."}},
         "required": ["type", "text", "find"]},
        {"type": "object", "description": "Delete a range.", "properties": {
            "type": {"const": "delete_range", "description": "Deletes a range."},
            "range": {"type": "object", "description": "The range deleted.", "properties": {
                "start": {"type": "integer", "description": "First index deleted."},
                "end": {"type": "integer",
                        "description": "Index after the last one deleted."}},
                "required": ["start", "end"]}},
         "required": ["type", "range"]}]}}}}
SCALARS = {"type": "object", "properties": {
    "id": {"oneOf": [{"type": "string", "description": "The name."},
                     {"type": "integer", "description": "The number."}]},
    "size": {"anyOf": [{"type": "array", "items": {"type": "string"},
                        "description": "Each size named."},
                       {"type": "array", "items": {"type": "integer"},
                        "description": "Each size in bytes."}]},
    "one": {"description": "Outer.", "anyOf": [{"type": "string", "description": "Inner."}]}}}

PARENT = {"type": "object", "properties": {"p": {
    "type": "object", "properties": {"a": {"type": "string", "description": "The parent's a."}},
    "anyOf": [{"properties": {"a": {"type": "string", "description": "An a in form one."},
                              "b": {"type": "integer"}}, "required": ["b"]},
              {"properties": {"a": {"type": "string", "description": "An a in form two."},
                              "c": {"type": "string"}}, "required": ["c"]}]}}}


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)
    elif isinstance(node, str):
        yield node


@pytest.mark.parametrize("shape", [TWO_STRINGS, REQUESTS, SCALARS, PARENT],
                         ids=["two-strings", "requests", "scalars", "parent"])
@pytest.mark.parametrize("profile", list(PROFILES))
def test_union_branch_descriptions_survive_word_for_word(profile: str, shape: Any) -> None:
    [r] = run([ToolDef("t", shape, "A tool.")], profile)
    text = "\n".join(_strings(r.transformed_schema))
    missing = [d for kind, d, _ in told(shape) if kind == "description" and d not in text]
    assert not missing, (missing, r.transformed_schema)


def test_merged_strings_name_each_branch_by_its_own_words() -> None:
    [r] = run([ToolDef("t", TWO_STRINGS, "A tool.")], "gemini")
    assert r.transformed_schema["properties"]["src"] == {
        "type": "string", "description": "Any of: string (A file path); string (A URL)."}
    [change] = r.changes
    assert (change.accepts, change.told) == ("equal", "described")
