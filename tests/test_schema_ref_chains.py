"""A chain of references (`$ref` to a `$ref` to ... to a schema) of any length is followed
to its end by every command, in time that grows with the chain's length, not its square:
a server's schema is untrusted input, and such a chain once ended in "internal error:
RecursionError" under every profile that inlines references (issue 28, point 5).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from inprocess import run_main

from schema_compat.cli import main
from schema_compat.schema.inliner import inline
from schema_compat.schema.ref_analysis import analyse

# main() raises the limit to this on start, as the CLI runs; set once here so that a
# recursion the length of the chain fails below exactly as it would in a terminal.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

INLINING = ("gemini", "vertex", "anthropic-strict", "portable")


def chain(n: int, link: Callable[[int], dict[str, Any]] | None = None) -> dict[str, Any]:
    """An object whose one property names `d0`, which names `d1`, ..., `dn`: a string."""
    make = link or (lambda i: {"$ref": f"#/$defs/d{i + 1}"})
    defs = {f"d{i}": make(i) for i in range(n)}
    defs[f"d{n}"] = {"type": "string", "enum": ["abc", "d"],
                     "description": "The end."}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}},
            "required": ["x"], "$defs": defs}


def _listing(schema: dict[str, Any]) -> bytes:
    return json.dumps({"tools": [{"name": "chained", "description": "A tool.",
                                  "inputSchema": schema}]}).encode()


def _cli(*args: str, stdin: bytes) -> tuple[int, str, str]:
    """The CLI in-process with SCHEMA_COMPAT_DEBUG=1: a RecursionError raises here rather
    than becoming the one-line internal error."""
    code, out, err = run_main(main, args, stdin)
    assert "Traceback" not in err and "internal error" not in err, err[-2000:]
    return code, out, err


def _assert_is_the_end_of_the_chain(schema: dict[str, Any]) -> None:
    """What the chain means, checked by jsonschema on arguments: `x` is "abc" or "d"."""
    assert "$defs" not in schema and "$ref" not in json.dumps(schema)
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid({"x": "abc"})
    for refused in ({"x": "abcd"}, {"x": 1}, {}):
        assert not check.is_valid(refused), refused


@pytest.mark.parametrize("profile", INLINING)
def test_a_chain_of_5000_references_is_inlined_by_transform(profile: str) -> None:
    code, out, _ = _cli("transform", "--quiet", "-p", profile, "-", stdin=_listing(chain(5000)))
    assert code == 0
    (tool,) = json.loads(out)["tools"]
    schema = tool.get("inputSchema") or tool.get("parameters") or tool.get("input_schema")
    _assert_is_the_end_of_the_chain(schema)


@pytest.mark.parametrize("profile", INLINING)
def test_a_chain_of_5000_references_is_checked(profile: str) -> None:
    code, out, _ = _cli("check", "--format", "json", "-p", profile, "-",
                        stdin=_listing(chain(5000)))
    assert code == 1  # the references are findings: each profile here has none
    (tool,) = json.loads(out)["tools"]
    codes = [f["code"] for f in tool["issues"]]
    assert codes.count("REF001") == 5001  # each reference, to be inlined
    assert "REF006" not in codes  # not refused as too large: it inlines to one string
    assert tool["fix_status"] != "unfixable"


@pytest.mark.parametrize("profile", INLINING)
def test_a_chain_of_5000_references_is_diffed(profile: str) -> None:
    code, out, _ = _cli("diff", "--json", "-p", profile, "chained", "-",
                        stdin=_listing(chain(5000)))
    assert code == 0
    data = json.loads(out)
    (tool,) = data["tools"]
    # the property's `$ref` became the string it names, and that is what the diff says
    changed = {e["pointer"]: e for e in tool["structural_diff"]}
    assert changed["/properties/x/$ref"]["op"] == "removed"
    assert changed["/properties/x/type"]["after"] == "string"


def test_the_text_diff_of_a_chain_of_5000_references() -> None:
    code, out, _ = _cli("diff", "-p", "gemini", "chained", "-", stdin=_listing(chain(5000)))
    assert code == 0
    assert '"$ref": "#/$defs/d4999"' in out  # the original, shown whole on the left
    assert "REF001" in out


def test_a_chain_longer_than_the_stack_is_followed_to_its_end() -> None:
    """Twice the recursion limit the CLI sets: no part of the work recurses per link."""
    n = 2 * sys.getrecursionlimit()
    schema = chain(n)
    analysis = analyse(schema)
    assert analysis.recursive == set()
    assert analysis.expanded()[1] == 1  # depth: the string at `x`, one level down
    new, events = inline(schema, kids=analysis.kids)
    _assert_is_the_end_of_the_chain(new)
    assert sum(e.kind == "inlined" for e in events) == n + 1  # each link reported


def test_every_link_s_own_keywords_are_kept_along_a_long_chain() -> None:
    """Keywords beside each `$ref` of the chain hold together with what it names
    (2020-12): the innermost link's are merged first, the outermost's win."""
    n = 2 * sys.getrecursionlimit()
    schema = chain(n, lambda i: {"$ref": f"#/$defs/d{i + 1}", "title": f"link {i}"}
                   if i % 1000 == 0 else {"$ref": f"#/$defs/d{i + 1}"})
    new, _ = inline(schema)
    x = new["properties"]["x"]
    assert x["title"] == "link 0" and x["type"] == "string" and x["enum"] == ["abc", "d"]


def test_a_cycle_of_bare_references_is_cut_not_followed_forever() -> None:
    n = 2 * sys.getrecursionlimit()
    defs = {f"d{i}": {"$ref": f"#/$defs/d{(i + 1) % n}"} for i in range(n)}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    analysis = analyse(schema, unroll=2)
    assert len(analysis.recursive) == n + 1  # every reference is on the cycle
    new, events = inline(schema, unroll=2, kids=analysis.kids)
    assert [e.kind for e in events].count("recursion-cut") == 1
    assert new["properties"]["x"]["description"].startswith("A nested d0")


def _calls(work: Callable[[], object]) -> int:
    """How many functions (Python's and built-in ones) `work` calls: a count of the work
    done that does not depend on the machine's speed or load."""
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def test_the_work_on_a_chain_grows_linearly_with_its_length() -> None:
    """Doubling the chain doubles the calls made to analyse and inline it. (Searching for
    cycles from every target, as once done, made it four times as many: n² set and list
    operations.)"""
    def work(n: int) -> int:
        schema = chain(n)

        def both() -> None:
            analysis = analyse(schema)
            inline(schema, kids=analysis.kids)
        return _calls(both)

    small, large = work(1000), work(2000)
    assert large / small < 2.2, (small, large)
