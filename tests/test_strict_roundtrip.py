"""A strict profile reads back what its own transform wrote: `transform -p PROFILE`, then
`check -p PROFILE` of the output, finds on each tool exactly what the transform said it
left there, and no request limit over. A tool the planner sent without `strict` is checked
as it was sent (its entry says so: `strict: false`, also in an MCP listing), not as a strict
tool that breaks the strict rules and spends the strict budgets.

And `check` says of an input what `transform` will do with it: the tools the planner sends
without `strict` are those the check says it sends so, fixable, with that fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inprocess import run_main

from schema_compat.entry import main
from schema_compat.extract.shapes import declared_strict, sent_strict
from schema_compat.profiles import PROFILES
from schema_compat.rules.limits import SENT_PLAIN

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus"
FILES = sorted(CORPUS.glob("*.json")) + sorted((CORPUS / "servers").glob("*.json"))
MIXED = ROOT / "examples" / "mixed.json"
SHAPES = ROOT / "tests" / "data" / "shapes"
# quick in `make test`: a budget spent (github), a tool strict decoding gains nothing on
# (memory), a tool alone over a budget (mixed); every corpus file in `make test-slow`
QUICK = [CORPUS / "github-mcp-server-toolsnaps-v1.10.1-3-g64a49f34.json",
         CORPUS / "servers" / "server-memory.json", MIXED]
# `--to` targets taking each profile's schemas; None: the input's own shape (MCP)
TARGETS = {"anthropic-strict": [None, "anthropic"],
           "openai-strict": [None, "openai-chat", "openai-responses"]}
CASES = [(profile, to) for profile, tos in TARGETS.items() for to in tos]


def run(*args: str) -> tuple[int, str, str]:
    return run_main(main, list(args))


def _issues(found: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return sorted((i["code"], i["path"], i["severity"]) for i in found)


def _roundtrip(source: Path, profile: str, to: str | None, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code, report, err = run("transform", "--json", "-p", profile, str(source), "-o", str(out),
                            *(["--to", to] if to else []))
    assert code in (0, 1), err
    transformed = json.loads(report)
    left = {t["transformed_name"]: _issues(t["remaining_issues"])
            for t in transformed["tools"]}
    code, report, err = run("check", "--json", "-p", profile, str(out))
    checked = json.loads(report)
    assert not checked["errors"], err
    found = {t["name"]: _issues(t["issues"]) for t in checked["tools"]}
    assert found == left
    for request in checked.get("requests", []):
        assert not [lim for lim in request["limits"] if lim["over"]]
    clean = not any(sev == "error" for issues in left.values() for _, _, sev in issues)
    assert (code == 0) == clean, err


@pytest.mark.parametrize(("profile", "to"), CASES)
@pytest.mark.parametrize("source", QUICK, ids=lambda p: p.stem)
def test_a_strict_profile_reads_back_its_own_transform(source: Path, profile: str,
                                                       to: str | None, tmp_path: Path) -> None:
    _roundtrip(source, profile, to, tmp_path)


@pytest.mark.slow  # every corpus file
@pytest.mark.parametrize(("profile", "to"), CASES)
@pytest.mark.parametrize("source", FILES, ids=lambda p: p.stem)
def test_a_strict_profile_reads_back_its_own_transform_on_the_corpus(
        source: Path, profile: str, to: str | None, tmp_path: Path) -> None:
    _roundtrip(source, profile, to, tmp_path)


def test_the_transform_marks_what_it_sends_without_strict(tmp_path: Path) -> None:
    # the budget leaves most of github's tools non-strict: the MCP listing says which, the
    # Anthropic tools say `strict` of every one
    source = CORPUS / "github-mcp-server-toolsnaps-v1.10.1-3-g64a49f34.json"
    _, report, _ = run("transform", "--json", "-p", "anthropic-strict", str(source))
    decisions = json.loads(report)["requests"][0]["decisions"]
    plain = {d["tool"] for d in decisions if d["kind"] == "non-strict"}
    assert len(plain) == 97
    for to in (None, "anthropic"):
        out = tmp_path / f"{to}.json"
        run("transform", "-q", "-p", "anthropic-strict", str(source), "-o", str(out),
            *(["--to", to] if to else []))
        document = json.loads(out.read_text())
        tools = document["tools"] if to is None else document
        flags = {t["name"]: t.get("strict") for t in tools}
        if to is None:
            assert {n for n, f in flags.items() if f is False} == plain
            assert {f for n, f in flags.items() if n not in plain} == {None}
        else:
            assert {n for n, f in flags.items() if f is False} == plain
            assert {f for n, f in flags.items() if n not in plain} == {True}


def test_a_transform_of_its_own_output_keeps_its_decisions(tmp_path: Path) -> None:
    # the Anthropic tools transform wrote, transformed again in their own shape: the same
    # tools strict, each entry's `strict` as it was, and nothing left to change
    source = CORPUS / "github-mcp-server-toolsnaps-v1.10.1-3-g64a49f34.json"
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    run("transform", "-q", "-p", "anthropic-strict", str(source), "--to", "anthropic", "-o",
        str(first))
    code, report, err = run("transform", "--json", "-p", "anthropic-strict", str(first), "-o",
                            str(second))
    assert code == 0, err
    before, after = json.loads(first.read_text()), json.loads(second.read_text())
    assert [(t["name"], t["strict"]) for t in after] == [(t["name"], t["strict"])
                                                          for t in before]
    assert after == before
    assert not [c for t in json.loads(report)["tools"] for c in t["transforms_applied"]]


def test_check_counts_only_the_tools_sent_strict(tmp_path: Path) -> None:
    # 25 tools, 20 saying `strict: false`: 5 strict tools, within every budget, while
    # the 20 non-strict ones keep what strict mode refuses (no additionalProperties, a
    # minimum) and are fine without `strict`
    def tool(i: int, strict: bool) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object", "properties": {"n": {"type": "integer"},
                                             "k": {"type": "string", "enum": ["a", "b"]}},
            "required": ["k"]}
        if strict:
            schema["additionalProperties"] = False
        else:
            schema["properties"]["n"]["minimum"] = 1
        return {"name": f"t{i}", "description": "Counts.", "input_schema": schema,
                "strict": strict}

    tools = [tool(i, i < 5) for i in range(25)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    code, report, _ = run("check", "--json", "-p", "anthropic-strict", str(path))
    checked = json.loads(report)
    limits = {lim["key"]: lim for lim in checked["requests"][0]["limits"]}
    assert (limits["strict-tools"]["used"], limits["strict-optional"]["used"]) == (5, 5)
    assert [t["issues"] for t in checked["tools"]] == [[]] * 25
    assert code == 0
    # the same tools with no `strict` anywhere are all strict candidates: the first 20 are
    # sent strict (the 15 of them that break strict mode's rules are flagged with them),
    # the last 5 not (LIM001: 20 strict tools at most), as transform plans them
    for t in tools:
        del t["strict"]
    path.write_text(json.dumps(tools))
    code, report, _ = run("check", "--json", "-p", "anthropic-strict", str(path))
    issues = {t["name"]: t["issues"] for t in json.loads(report)["tools"]}
    flagged = {n for n, found in issues.items()
               if any(i["code"] in ("OBJ008", "CON007") for i in found)}
    assert flagged == {f"t{i}" for i in range(5, 20)}
    over = {n: [(i["code"], i["severity"], i["fix"]["safety"]) for i in found]
            for n, found in issues.items() if n not in flagged and found}
    assert over == {f"t{i}": [("LIM001", "error", "hinted")] for i in range(20, 25)}
    assert code == 1


def test_openai_strict_checks_a_tool_sent_without_strict_as_plain_openai(
        tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tools = [{"type": "function", "function": {"name": name, "description": "Counts.",
                                               "parameters": schema, "strict": strict}}
             for name, strict in (("plain", False), ("strict", True))]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    _, report, _ = run("check", "--json", "-p", "openai-strict", str(path))
    codes = {t["name"]: {i["code"] for i in t["issues"]} for t in json.loads(report)["tools"]}
    assert codes["plain"] == set()
    assert {"OBJ008", "OBJ009"} <= codes["strict"]  # open object, optional `n`


def _agree(source: Path, *options: str) -> None:
    _, report, _ = run("check", "--json", "-p", "anthropic-strict", str(source), *options)
    said = {t["name"] for t in json.loads(report)["tools"]
            if any(i["message"].startswith("not sent strict: ") for i in t["issues"])}
    _, report, _ = run("transform", "--json", "-p", "anthropic-strict", str(source), *options)
    decisions = [d for r in json.loads(report).get("requests", []) for d in r["decisions"]
                 if d["kind"] == "non-strict"]
    # a tool its listing sends without `strict` is no decision of the check's: it is so
    assert said == {d["tool"] for d in decisions if d["reason"] != SENT_PLAIN}


@pytest.mark.parametrize("lossless", [False, True], ids=["all", "lossless-only"])
@pytest.mark.parametrize("source", [*QUICK, SHAPES / "anthropic-request.json",
                                    SHAPES / "openai-responses.json"], ids=lambda p: p.stem)
def test_check_sends_the_tools_strict_that_transform_sends_strict(source: Path,
                                                                  lossless: bool) -> None:
    # with --lossless-only the fixes strict mode needs are often refused: such a tool keeps
    # strict errors, and both send it without `strict`
    _agree(source, *(["--lossless-only"] if lossless else []))


@pytest.mark.slow  # every corpus file
@pytest.mark.parametrize("lossless", [False, True], ids=["all", "lossless-only"])
@pytest.mark.parametrize("source", FILES, ids=lambda p: p.stem)
def test_check_sends_the_tools_strict_that_transform_sends_strict_on_the_corpus(
        source: Path, lossless: bool) -> None:
    _agree(source, *(["--lossless-only"] if lossless else []))


def test_check_says_what_transform_does_with_a_tool_over_the_budget() -> None:
    # examples/mixed.json: add_schema_field's 5 optional parameters take the request to 26
    # of 24; the planner sends it without `strict`, so it is fixable, and its finding's fix
    # says so
    _, report, _ = run("check", "--json", "-p", "anthropic-strict", str(MIXED))
    tools = {t["name"]: t for t in json.loads(report)["tools"]}
    field = tools["add_schema_field"]
    assert field["fix_status"] != "unfixable" and not field["remaining_issues"]
    [decision] = [i for i in field["issues"] if i["code"] == "LIM004"]
    assert decision["severity"] == "error" and decision["fix"]["safety"] == "hinted"
    assert "without `strict`" in decision["fix"]["title"]
    _, report, _ = run("transform", "--json", "-p", "anthropic-strict", str(MIXED))
    transformed = json.loads(report)
    kinds = {d["tool"]: d["kind"] for d in transformed["requests"][0]["decisions"]
             if d["kind"] in ("strict", "non-strict")}
    assert kinds["add_schema_field"] == "non-strict"
    said = {name for name, t in tools.items()
            if any(i["message"].startswith("not sent strict: ") for i in t["issues"])}
    assert said == {name for name, kind in kinds.items() if kind == "non-strict"}
    _, text, _ = run("check", "-p", "all", str(MIXED))
    row = next(line for line in text.splitlines() if "add_schema_field" in line)
    assert "✗" not in row


def test_sent_strict_reads_a_listing_as_its_provider_does() -> None:
    anthropic = [{"name": "a", "input_schema": {}, "strict": True},
                 {"name": "b", "input_schema": {}}]
    assert sent_strict(anthropic) == [True, False]  # Anthropic: no `strict` is non-strict
    assert sent_strict([anthropic[1]]) == [None]  # a listing that says nothing
    mcp = [{"name": "a", "inputSchema": {}, "strict": False}, {"name": "b", "inputSchema": {}}]
    assert sent_strict(mcp) == [False, None]  # the transform marks only the non-strict
    chat = {"type": "function", "function": {"name": "a", "parameters": {}, "strict": True}}
    assert declared_strict(chat) is True
    assert declared_strict({"type": "function", "name": "a", "strict": "yes"}) is None


def test_each_budget_falls_back_to_the_non_strict_profile() -> None:
    for profile in PROFILES.values():
        if profile.strict_budget is not None:
            assert profile.non_strict == profile.strict_budget.fallback
        if profile.non_strict:
            assert profile.strict_flag is True
            assert PROFILES[profile.non_strict].strict_flag is False


def test_a_tool_sent_without_strict_still_meets_the_name_rules(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tools = [{"name": "read file", "description": "Reads.", "input_schema": schema,
              "strict": False}]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    _, report, _ = run("check", "--json", "-p", "anthropic-strict", str(path))
    [tool] = json.loads(report)["tools"]
    assert [i["code"] for i in tool["issues"]] == ["NAM001"]  # and nothing strict
