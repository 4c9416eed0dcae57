"""Union branches are deduplicated as JSON sees them: `1`, `1.0` and `true` differ, key order
does not. The shortcut that spares writing every branch out as JSON must agree with doing so."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from schema_compat.schema.union_merge import dedupe as _dedupe

# few keys and values, so that equal branches (and near misses) come up often
_SCALARS = st.sampled_from([0, 1, 1.0, 0.0, True, False, None, "a", "1", "string"])
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=2), st.dictionaries(st.sampled_from(["x", "y"]), inner,
                                                  max_size=2)), max_leaves=4)
_BRANCH = st.one_of(
    st.dictionaries(st.sampled_from(["type", "const", "enum", "items"]), _VALUES, max_size=3),
    st.booleans())


def _by_json(items: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = json.dumps(item, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(_BRANCH, max_size=5))
def test_dedupe_agrees_with_comparing_as_json(items: list[Any]) -> None:
    got = _dedupe(items)
    want = _by_json(items)
    assert [id(x) for x in got] == [id(x) for x in want]


def test_dedupe_keeps_branches_that_python_calls_equal_but_json_does_not() -> None:
    one, true, one_float = {"const": 1}, {"const": True}, {"const": 1.0}
    assert _dedupe([one, true, one_float]) == [one, true, one_float]
    same = {"type": "string", "enum": ["a"]}
    assert _dedupe([same, {"enum": ["a"], "type": "string"}]) == [same]
