"""Schemas with malformed keyword values at any depth, and where each malformed value is.

A generated schema is built as a tree whose malformed values are wrapped in `Bad`; `unwrap`
turns it into plain JSON and lists the JSON path of every wrapped value. Everything else in
the tree is a valid JSON Schema (2020-12) built from the keywords MCP servers use, so any
finding a test needs is owed to a `Bad` value, and any crash is one a malformed value
caused. Used by tests/test_malformed_any_profile.py.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Path = tuple[Any, ...]


class Bad:
    """A keyword value (or an entry of one) that no JSON Schema draft accepts there."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Bad({self.value!r})"


def unwrap(tree: Any, path: Path = ()) -> tuple[Any, list[Path]]:
    """The plain JSON of `tree`, and the path of each `Bad` value in it, in document order."""
    if isinstance(tree, Bad):
        return tree.value, [path]
    if isinstance(tree, dict):
        out: dict[str, Any] = {}
        found: list[Path] = []
        for k, v in tree.items():
            out[k], below = unwrap(v, (*path, k))
            found += below
        return out, found
    if isinstance(tree, list):
        items: list[Any] = []
        found = []
        for i, v in enumerate(tree):
            item, below = unwrap(v, (*path, i))
            items.append(item)
            found += below
        return items, found
    return tree, []


# Values no keyword of its kind accepts, by what the keyword must hold.
_JUNK_CONTAINERS = [[], {}, [[]], [{"a": 1}], {"a": [1]}]
_NOT_STRING = st.sampled_from([None, True, 1, 2.5, [], {}, ["a"], {"a": 1}])
_NOT_NUMBER = st.sampled_from([None, "1", "x", [], {}, [1], {"value": 5}])
_NOT_COUNT = st.sampled_from([None, "3", -1, 1.5, [], {}, True])
_NOT_BOOL = st.sampled_from([None, "yes", 1, 0, [], {}])
_NOT_LIST = st.sampled_from([None, True, 1, "a", {}, {"a": 1}])
_NOT_MAP = st.sampled_from([None, True, 1, "a", [], [{"type": "string"}], ["a"]])
_NOT_SCHEMA = st.sampled_from([None, 1, 2.5, "string", "object", [], ["a"], [{}]])
_NOT_SCHEMA_ENTRY = st.sampled_from([None, 1, "string", [], [[]], ["a"]])
_NOT_NAME = st.sampled_from([None, 1, True, [], {}, [[]], {"a": 1}])
_NOT_TYPE = st.sampled_from([None, True, 1, {}, {"a": 1}, [[]], [1], [{}], "strin", "",
                             ["string", "str"]])
_NOT_REF = st.sampled_from([None, True, 1, [], {}, ["#/$defs/D"], {"$ref": "#/$defs/D"}])

# keyword -> malformed values for it (the keyword's whole value)
WHOLE: dict[str, st.SearchStrategy[Any]] = {
    "required": st.one_of(_NOT_LIST, st.sampled_from(_JUNK_CONTAINERS[2:4])),
    "properties": _NOT_MAP,
    "$defs": _NOT_MAP,
    "definitions": _NOT_MAP,
    "patternProperties": _NOT_MAP,
    "enum": _NOT_LIST,
    "items": st.sampled_from([None, 1, 2.5, "string", "array"]),
    "anyOf": _NOT_LIST, "oneOf": _NOT_LIST, "allOf": _NOT_LIST,
    "prefixItems": _NOT_LIST,
    "type": _NOT_TYPE,
    "$ref": _NOT_REF,
    "additionalProperties": _NOT_SCHEMA,
    "not": _NOT_SCHEMA, "propertyNames": _NOT_SCHEMA, "contains": _NOT_SCHEMA,
    "minimum": _NOT_NUMBER, "maximum": _NOT_NUMBER,
    "exclusiveMinimum": _NOT_NUMBER, "exclusiveMaximum": _NOT_NUMBER,
    "multipleOf": st.one_of(_NOT_NUMBER, st.sampled_from([0, -2])),
    "minLength": _NOT_COUNT, "maxLength": _NOT_COUNT,
    "minItems": _NOT_COUNT, "maxItems": _NOT_COUNT,
    "minProperties": _NOT_COUNT, "maxProperties": _NOT_COUNT,
    "pattern": _NOT_STRING, "format": _NOT_STRING,
    "description": _NOT_STRING, "title": _NOT_STRING,
    "nullable": _NOT_BOOL, "uniqueItems": _NOT_BOOL,
    "deprecated": _NOT_BOOL, "readOnly": _NOT_BOOL,
    "examples": _NOT_LIST, "$comment": _NOT_STRING, "$id": _NOT_STRING,
    "minContains": _NOT_COUNT,
    "dependentRequired": st.sampled_from([None, "a", [], ["a"], {"a": "b"}, {"a": [1]}]),
}

# Values that are odd but valid: they must not crash anything, and need no finding.
ODD_CONSTS = st.sampled_from([None, True, 0, 1.5, "x", [], {}, [[]], [{"a": 1}], {"a": [1]},
                              {"$ref": "#/$defs/D"}])

NAMES = ["a", "b", "c"]


def _leaf() -> st.SearchStrategy[dict[str, Any]]:
    return st.sampled_from([
        {"type": "string"},
        {"type": "integer", "minimum": 0, "maximum": 9},
        {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
        {"type": "string", "enum": ["x", "y"]},
        {"type": "string", "format": "date-time"},
        {"type": "string", "pattern": "^a+$", "minLength": 1, "maxLength": 5},
        {"type": "boolean", "description": "a flag", "title": "Flag"},
        {"type": ["string", "null"]},
        {"$ref": "#/$defs/D"},
        {},
    ]).map(dict).flatmap(lambda d: st.one_of(
        st.just(d), ODD_CONSTS.map(lambda c: {**d, "const": c}) if "$ref" not in d
        else st.just(d)))


def _composite(child: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    props = st.dictionaries(st.sampled_from(NAMES), child, min_size=1, max_size=3)
    obj = st.builds(
        lambda p, req, extra: {"type": "object", "properties": p,
                               "required": [n for n in NAMES if n in p and n in req],
                               **extra},
        props, st.sets(st.sampled_from(NAMES)),
        st.sampled_from([{}, {"additionalProperties": False}, {"minProperties": 1}]))
    arr = st.builds(lambda i, extra: {"type": "array", "items": i, **extra}, child,
                    st.sampled_from([{}, {"minItems": 1, "maxItems": 3},
                                     {"uniqueItems": True}]))
    union = st.builds(lambda k, bs: {k: bs}, st.sampled_from(["anyOf", "oneOf", "allOf"]),
                      st.lists(child, min_size=1, max_size=3))
    return st.one_of(obj, arr, union)


def _entry_junk(node: dict[str, Any], draw: Any) -> None:
    """Make one entry of one of the node's lists or maps malformed."""
    choices = [k for k in ("required", "properties", "anyOf", "oneOf", "allOf", "type",
                           "$defs")
               if isinstance(node.get(k), (list, dict)) and node[k]]
    if not choices:
        return
    key = draw(st.sampled_from(choices))
    value = node[key]
    if isinstance(value, dict):
        name = draw(st.sampled_from(sorted(value)))
        node[key] = {**value, name: Bad(draw(_NOT_SCHEMA_ENTRY))}
    else:
        at = draw(st.integers(0, len(value) - 1))
        junk = _NOT_NAME if key in ("required", "type") else _NOT_SCHEMA_ENTRY
        node[key] = [*value[:at], Bad(draw(junk)), *value[at + 1:]]


@st.composite
def _spoil(draw: Any, node: Any) -> Any:
    """`node` (a valid schema, children already spoiled or not), with at most two of its
    own keyword values made malformed."""
    if not isinstance(node, dict) or not draw(st.integers(0, 2)):
        return node
    node = dict(node)
    for _ in range(draw(st.integers(1, 2))):
        if draw(st.booleans()):
            _entry_junk(node, draw)
        else:
            key = draw(st.sampled_from(sorted(WHOLE)))
            node[key] = Bad(draw(WHOLE[key]))
    return node


def _spoiled(child: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return _composite(child).flatmap(_spoil)


TREES = st.recursive(_leaf().flatmap(_spoil), _spoiled, max_leaves=8)


@st.composite
def documents(draw: Any) -> Any:
    """A tool's input schema: an object with properties, a `$defs` block that `$ref`s
    name, and at least one malformed value somewhere (the root included)."""
    props = draw(st.dictionaries(st.sampled_from(NAMES), TREES, min_size=1, max_size=3))
    defs = {"D": draw(TREES)}
    root: dict[str, Any] = {"type": "object", "properties": props, "$defs": defs}
    if draw(st.booleans()):
        root["required"] = sorted(props)[:1]
    root = draw(_spoil(root))
    return root
