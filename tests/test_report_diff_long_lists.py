"""`diff` on a tool with a very long list of values (an `enum` of a million ids): the side
by side view shows each run of values by its ends, in time that does not depend on
printing a line per value (issue 28, point 8: over a minute for a million values). A
folded block still counts every line of the original; `--full` shows every value."""

from __future__ import annotations

import json
from typing import Any

from inprocess import run_main
from test_report_diff import diff_text

from schema_compat.cli import main
from schema_compat.model import Change, ToolDef, ToolResult


def _result(original: Any, transformed: Any, changes: tuple[Change, ...] = ()) -> ToolResult:
    return ToolResult(ToolDef("t", original, None, "t.json", 0), "gemini", (), changes, "t",
                      transformed, ())


def _enum(values: list[Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"x": {"type": "string", "enum": values}}}


def _rows(text: str) -> list[tuple[str, str]]:
    return [(left.strip(), right.strip()) for left, _, right in
            (line.partition("│") for line in text.splitlines() if "│" in line)]


def test_an_unchanged_long_enum_is_folded_with_every_line_counted() -> None:
    values = [f"v{i}" for i in range(100_000)]
    schema = _enum(values)
    text = diff_text(_result(schema, _enum(list(values))), 100)
    # what `properties` holds, as json prints it: every line between its braces
    inner = len(json.dumps(schema["properties"], indent=2).splitlines()) - 2
    assert inner == 100_005
    assert (f"… {inner} unchanged lines", f"… {inner} unchanged lines") in _rows(text)
    assert len(text.splitlines()) < 15, len(text.splitlines())


def test_an_unchanged_long_enum_beside_a_change_is_folded_to_its_count() -> None:
    values = [f"v{i}" for i in range(100_000)]
    after = _enum(list(values))
    after["properties"]["x"]["description"] = "Added."
    text = diff_text(_result(_enum(values), after), 100)
    assert ("… 100000 unchanged lines", "… 100000 unchanged lines") in _rows(text)
    assert len(text.splitlines()) < 20, len(text.splitlines())


def test_full_shows_every_value() -> None:
    values = [f"v{i}" for i in range(1000)]
    text = diff_text(_result(_enum(values), _enum(list(values))), 100, full=True)
    assert "more values" not in text and "unchanged lines" not in text
    assert all(f'"v{i}"' in text for i in range(1000))


def test_one_value_changed_in_a_long_list_is_shown_between_folded_runs() -> None:
    before = [f"v{i}" for i in range(1000)]
    after = list(before)
    after[500] = "changed"
    change = Change("VAL999", ("properties", "x", "enum", 500), "lossless", "a test change")
    rows = _rows(diff_text(_result(_enum(before), _enum(after), (change,)), 120))
    changed = [r for r in rows if r[0].startswith("~")]
    assert len(changed) == 1
    assert '"v500",' in changed[0][0] and '"changed",' in changed[0][1]
    assert "VAL999" in changed[0][1]  # the change is tagged on its own value's line
    assert ('… 490 more values unchanged', '… 490 more values unchanged') in rows  # 5..494
    assert ('… 489 more values unchanged', '… 489 more values unchanged') in rows  # 506..994


def test_a_long_list_removed_whole_is_folded_on_its_side_only() -> None:
    ints = list(range(5000))
    original = {"type": "object", "properties": {"x": {"type": "integer", "enum": ints}}}
    transformed = {"type": "object", "properties": {"x": {"type": "integer"}}}
    rows = _rows(diff_text(_result(original, transformed), 100))
    assert ("-         … 5001 more lines removed", "") in rows  # 5,000 values and `]`


def test_short_lists_are_shown_whole() -> None:
    values = [f"v{i}" for i in range(100)]
    after = [*values[:50], "changed", *values[51:]]  # a block with a change is not folded
    text = diff_text(_result(_enum(values), _enum(after)), 100)
    assert "more values" not in text
    assert all(f'"v{i}"' in text for i in range(100))


def test_values_that_json_tells_apart_are_not_folded_as_unchanged() -> None:
    before = [1] * 200
    after = [True] * 200  # equal in Python, not in JSON
    rows = _rows(diff_text(_result({"enum": before}, {"enum": after}), 100))
    assert ("~     1,", "~     true,") in rows
    assert ("… 190 more values changed", "… 190 more values changed") in rows
    assert not any("unchanged" in left for left, _ in rows)


def test_the_diff_command_on_a_100_000_value_enum() -> None:
    listing = {"tools": [{"name": "big", "description": "d",
                          "inputSchema": _enum([f"id-{i}" for i in range(100_000)])}]}
    code, out, err = run_main(main, ["diff", "big", "-"], json.dumps(listing).encode())
    assert code == 0, err
    assert "… 100005 unchanged lines" in out
    assert len(out.splitlines()) < 40


# --- diff --json: the structural diff ------------------------------------------------------

def _deepdiff_whole(before: Any, after: Any) -> list[tuple[str, str, Any, Any]]:
    """What deepdiff itself says of the two documents, value by value, in the structural
    diff's terms: the reference the fast path must agree with."""
    from deepdiff import DeepDiff

    from schema_compat.paths import pointer

    ops = {"values_changed": "changed", "type_changes": "changed",
           "dictionary_item_added": "added", "dictionary_item_removed": "removed",
           "iterable_item_added": "added", "iterable_item_removed": "removed"}
    tree = DeepDiff(before, after, view="tree", threshold_to_diff_deeper=0, verbose_level=2)
    return sorted((pointer(tuple(level.path(output_format="list"))), op,
                   None if op == "added" else level.t1, None if op == "removed" else level.t2)
                  for kind, op in ops.items() for level in tree.get(kind, []))


def _entries(before: Any, after: Any) -> list[tuple[str, str, Any, Any]]:
    from schema_compat.structural_diff import structural_diff

    return sorted((e["pointer"], e["op"], e.get("before"), e.get("after"))
                  for e in structural_diff(before, after))


def _big(values: list[Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"x": {"enum": values, **more}}}


def test_a_long_list_compares_as_deepdiff_compares_it() -> None:
    values = [f"v{i}" for i in range(3000)]
    cases = [
        (values, [*values[:1500], "new", *values[1500:]]),  # one inserted
        (values, [*values[:10], *values[11:]]),  # one removed
        (values, [v if i % 700 else "x" for i, v in enumerate(values)]),  # a few changed
        (list(range(1500)), [str(i) for i in range(1500)]),  # every value a new type
    ]
    for before, after in cases:
        expected = _deepdiff_whole(_big(before), _big(after, description="d"))
        assert _entries(_big(before), _big(after, description="d")) == expected


def test_deepdiff_is_not_given_an_equal_long_list(monkeypatch: Any) -> None:
    import deepdiff

    seen: list[int] = []
    real = deepdiff.DeepDiff

    def counting(t1: Any, t2: Any, **kwargs: Any) -> Any:
        seen.append(len(repr(t1)) + len(repr(t2)))
        return real(t1, t2, **kwargs)

    monkeypatch.setattr(deepdiff, "DeepDiff", counting)
    values = [f"id-{i}" for i in range(200_000)]
    assert _entries(_big(values), _big(list(values), type="string")) == [
        ("/properties/x/type", "added", None, "string")]
    assert max(seen) < 1000  # the schema around the list, not the list


def test_a_long_list_whose_every_value_changed_is_listed_value_by_value() -> None:
    before = list(range(12_000))
    after = [str(i) for i in range(12_000)] + ["extra"]
    entries = _entries(_big(before), _big(after))
    assert len(entries) == 12_001
    assert entries[0] == ("/properties/x/enum/0", "changed", 0, "0")
    assert ("/properties/x/enum/11999", "changed", 11999, "11999") in entries
    assert ("/properties/x/enum/12000", "added", None, "extra") in entries

