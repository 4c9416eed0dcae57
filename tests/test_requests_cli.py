"""`check` and `transform` over whole requests: `--request`, each request-level limit with
its use in the text and JSON reports, the planner's options on the command line and in the
settings file."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from inprocess import cli_in_process, run_main

from schema_compat.entry import main
from schema_compat.report.json import report_json_schema

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
GH_OLD = CORPUS / "github-mcp-server-toolsnaps-v0.20.0.json"  # 63 tools
GH_NEW = CORPUS / "github-mcp-server-toolsnaps-v1.10.1-3-g64a49f34.json"  # 117 tools
DBT = CORPUS / "servers" / "dbt-mcp.json"  # 50 tools


def run(*args: str) -> tuple[int, str, str]:
    return run_main(main, list(args))


def _limits(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    [request] = report["requests"]
    return {lim["key"]: lim for lim in request["limits"]}


def test_check_two_sources_as_one_request_shows_the_tool_count_over() -> None:
    code, out, _ = run("check", "--json", "-p", "openai", "--request", "all", str(GH_OLD),
                       str(GH_NEW))
    report = json.loads(out)
    jsonschema.validate(report, report_json_schema())
    tools = _limits(report)["tools"]
    assert (tools["used"], tools["limit"], tools["over"]) == (180, 128, True)
    assert len(tools["over_by"]) == 52  # the 129th tool on
    assert report["requests"][0]["sources"] == [str(GH_OLD), str(GH_NEW)]
    assert "get_me" in report["requests"][0]["clashes"]
    assert code == 1
    code, out, _ = run("check", "-p", "openai", "--request", "all", str(GH_OLD), str(GH_NEW))
    assert "request (2 sources): tools 180/128" in out
    assert "tools over the limit (OAI-04) from:" in out


def test_per_source_keeps_each_file_its_own_request() -> None:
    _, out, _ = run("check", "--json", "-p", "openai", "--request", "per-source",
                    str(GH_OLD), str(GH_NEW))
    report = json.loads(out)
    assert "requests" not in report  # each under 128, no budget: nothing to show
    _, out, _ = run("check", "--json", "-p", "openai", str(GH_OLD), str(GH_NEW))
    assert "requests" not in json.loads(out)  # files are separate requests by default


def test_check_anthropic_strict_plans_the_budgets_as_transform_does() -> None:
    # 50 tools cannot all be strict: the check sends the ones transform sends strict, and
    # says of each other one why not, with transform's fix (send it without `strict`)
    code, out, _ = run("check", "--json", "-p", "anthropic-strict", str(DBT))
    checked = json.loads(out)
    _, out, _ = run("transform", "--json", "-p", "anthropic-strict", str(DBT))
    transformed = json.loads(out)
    limits = _limits(checked)
    assert limits == _limits(transformed)
    assert 0 < limits["strict-tools"]["used"] <= 20
    assert not any(lim["over"] for lim in limits.values())
    plain = {d["tool"] for d in transformed["requests"][0]["decisions"]
             if d["kind"] == "non-strict"}
    decided = {t["name"]: [i for i in t["issues"] if i["scope"] == "tool"
                           and i["message"].startswith("not sent strict: ")]
               for t in checked["tools"]}
    assert {name for name, found in decided.items() if found} == plain
    budget = [i for found in decided.values() for i in found if i["severity"] == "error"]
    assert budget and {i["code"] for i in budget} <= {"LIM001", "LIM004"}
    assert all(i["fix"]["safety"] == "hinted" for found in decided.values() for i in found)
    assert all(t["fix_status"] != "unfixable" for t in checked["tools"]
               if t["name"] in plain)
    assert code == 1  # as published, sending every tool strict is refused
    _, text, _ = run("check", "-p", "anthropic-strict", str(DBT))
    assert f"strict tools {limits['strict-tools']['used']}/20" in text
    assert "over the limit" not in text


def test_transform_anthropic_strict_is_one_sendable_request(tmp_path: Path) -> None:
    code, out, err = run("transform", "--json", "-p", "anthropic-strict", str(GH_NEW),
                         str(DBT), "--request", "all")
    assert code == 0, err
    report = json.loads(out)
    jsonschema.validate(report, report_json_schema())
    limits = _limits(report)
    assert limits["strict-tools"]["used"] == 20
    assert not any(lim["over"] for lim in limits.values())
    decisions = report["requests"][0]["decisions"]
    assert sum(d["kind"] == "strict" for d in decisions) == 20
    assert sum(d["kind"] == "non-strict" for d in decisions) == 117 + 50 - 20
    assert all(d["reason"] for d in decisions)
    assert not [i for t in report["tools"] for i in t["remaining_issues"]
                if i["severity"] == "error"]
    code, _, err = run("transform", "-p", "anthropic-strict", str(GH_NEW), "-o",
                       str(tmp_path / "out.json"))
    assert code == 0
    assert "strict tools 20/20" in err
    assert "20 sent strict, 97 without `strict`" in " ".join(err.split())
    _, out, _ = run("transform", "--json", "-p", "anthropic-strict", str(GH_NEW))
    strict = [d["tool"] for d in json.loads(out)["requests"][0]["decisions"]
              if d["kind"] == "strict"]
    listed = " ".join(err.split()).split("strict: ", 1)[1].split(" lossy changes", 1)[0]
    assert [n.strip() for n in listed.split(",")] == strict


def test_transform_over_the_tool_count_stops_and_globs_choose(tmp_path: Path) -> None:
    code, out, err = run("transform", "-p", "openai", "--request", "all", str(GH_OLD),
                         str(GH_NEW))
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert "180 tools in one request; openai accepts at most 128" in line
    assert "drop 52" in line
    assert "github-mcp-server-toolsnaps-v1.10.1-3-g64a49f34: 117" in line
    assert "github-mcp-server-toolsnaps-v0.20.0: 63" in line
    code, out, err = run("transform", "-p", "openai", "--request", "all", str(GH_OLD),
                         str(GH_NEW), "--exclude-tool", "github-mcp-server-toolsnaps-v0.20.0/*")
    assert code == 0, err
    names = [t["name"] for t in json.loads(out)["tools"]]
    assert len(names) == 117 and len(set(names)) == 117
    code, out, err = run("transform", "-p", "openai", "--request", "all", str(GH_OLD),
                         str(GH_NEW), "--tool", "github-mcp-server-toolsnaps-v0.20.0/*")
    assert code == 0, err
    assert len(json.loads(out)["tools"]) == 63
    code, _, err = run("transform", "-p", "openai", str(GH_OLD), "--exclude-tool", "nope*")
    assert code == 2 and "no tool matches --exclude-tool 'nope*'" in err


def test_name_prefix_and_clashes_across_sources(tmp_path: Path) -> None:
    a = tmp_path / "alpha.json"
    b = tmp_path / "beta.json"
    tool = {"name": "search", "description": "Search.", "inputSchema": {"type": "object"}}
    a.write_text(json.dumps({"tools": [tool]}))
    b.write_text(json.dumps({"tools": [tool, {**tool, "name": "files/read"}]}))
    code, out, _ = run("transform", "-p", "openai", "--request", "all", str(a), str(b))
    assert [t["name"] for t in json.loads(out)["tools"]] == ["search", "beta_search",
                                                             "files_read"]
    code, out, _ = run("transform", "-p", "anthropic", "--request", "all", "--name-prefix",
                       "mcp", "--json", str(a), str(b))
    assert code == 0
    report = json.loads(out)
    assert report["name_map"] == {"mcp__alpha__search": "search", "mcp__beta__search": "search",
                                  "mcp__beta__files_read": "files/read"}


def test_strict_first_from_the_flag_and_from_the_settings_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(DBT, tmp_path / "dbt-mcp.json")
    monkeypatch.chdir(tmp_path)

    def strict_tools(*extra: str) -> set[str]:
        code, out, err = run("transform", "--json", "-p", "anthropic-strict", "dbt-mcp.json",
                             *extra)
        assert code == 0, err
        return {d["tool"] for d in json.loads(out)["requests"][0]["decisions"]
                if d["kind"] == "strict"}

    plain = strict_tools()
    assert "get_model_health" not in plain and "build" not in plain
    chosen = strict_tools("--strict-first", "get_model_health", "--strict-first", "dbt-mcp/build")
    assert {"get_model_health", "build"} <= chosen and len(chosen) <= 20
    (tmp_path / ".schema-compat.toml").write_text(
        'strict-first = ["get_model_health", "dbt-mcp/build"]\n')
    assert strict_tools() == chosen
    (tmp_path / ".schema-compat.toml").write_text(
        'exclude-tools = ["dbt-mcp/get_*"]\ntools = ["*e*"]\n')
    code, out, err = run("transform", "--json", "-p", "anthropic-strict", "dbt-mcp.json")
    assert code == 0, err
    names = [t["name"] for t in json.loads(out)["tools"]]
    every = [t["name"] for t in json.loads(DBT.read_text())["tools"]]
    assert names == [n for n in every if "e" in n and not n.startswith("get_")]
    (tmp_path / ".schema-compat.toml").write_text('name-prefix = "camel"\n')
    code, _, err = run("transform", "-p", "anthropic-strict", "dbt-mcp.json")
    assert code == 2 and "name-prefix must be one of" in err


@pytest.mark.slow  # starts every server of a config live (~9 s)
def test_servers_of_a_client_config_are_one_request(tmp_path: Path) -> None:
    """Two servers of one config, started live, listing the same tools: by default one
    request, so their names clash and transform makes them unique (the second server's
    qualified by its name); --request per-source keeps each server its own request."""
    example = Path(__file__).resolve().parent.parent / "examples" / "fs_server.py"
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        name: {"command": sys.executable, "args": [str(example)]} for name in ("one", "two")}}))

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return cli_in_process(*args, "--config", str(config))

    proc = cli("check", "--json", "-p", "openai")
    report = json.loads(proc.stdout)
    [request] = report["requests"]
    assert request["sources"] == ["one", "two"]
    names = {t["name"] for t in report["tools"]}
    assert set(request["clashes"]) == names
    proc = cli("transform", "--json", "-p", "openai")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    sent = {(t["source"], t["name"]): t["transformed_name"] for t in report["tools"]}
    assert all(sent[("one", n)] == n for n in names)
    assert all(sent[("two", n)] == f"two_{n}" for n in names)
    assert report["name_map"] == {f"two_{n}": n for n in names}
    proc = cli("check", "--json", "-p", "openai", "--request", "per-source")
    assert "requests" not in json.loads(proc.stdout)
    # a file given beside the config is a request of its own (auto); with all, one request
    proc = cli("check", "--json", "-p", "openai", str(DBT))
    assert [r["sources"] for r in json.loads(proc.stdout)["requests"]] == [["one", "two"]]
    proc = cli("check", "--json", "-p", "openai", "--request", "all", str(DBT))
    assert [r["sources"] for r in json.loads(proc.stdout)["requests"]] == [
        [str(DBT), "one", "two"]]


def test_check_names_what_transform_would_rename(tmp_path: Path) -> None:
    tool = {"name": "search", "description": "Search.", "inputSchema": {"type": "object"}}
    (tmp_path / "alpha.json").write_text(json.dumps({"tools": [tool]}))
    (tmp_path / "my.beta.json").write_text(json.dumps({"tools": [tool]}))
    files = [str(tmp_path / "alpha.json"), str(tmp_path / "my.beta.json")]
    assert run("check", "-p", "openai", *files)[0] == 0  # two requests: nothing clashes
    code, out, _ = run("check", "--json", "-p", "openai", "--request", "all", *files)
    assert code == 1  # one request: the provider refuses two tools of one name
    [request] = json.loads(out)["requests"]
    assert request["clashes"] == ["search"]
    assert [(d["tool"], d["kind"]) for d in request["decisions"]] == [("search", "renamed")]
    assert request["decisions"][0]["source"] == files[1]
    assert "sent as 'my_beta_search'" in request["decisions"][0]["reason"]
    # with the client's prefix, no clash; but a dot in a server's name breaks OpenAI's rule
    code, out, _ = run("check", "--json", "-p", "openai", "--request", "all", "--name-prefix",
                       "server", *files)
    assert code == 1
    [request] = json.loads(out)["requests"]
    assert [d["source"] for d in request["decisions"]] == [files[1]]
    assert "'my.beta_search' breaks the provider's rule" in request["decisions"][0]["reason"]
    _, text, _ = run("check", "-p", "openai", "--request", "all", "--name-prefix", "server",
                     *files)
    assert "1 name the provider refuses or shares: search" in text
    # what a tool's own findings say (NAM001, NAM002 in one source) is not said again
    solo = tmp_path / "solo.json"
    solo.write_text(json.dumps({"tools": [{**tool, "name": "bad name"}, tool, tool]}))
    code, out, _ = run("check", "--json", "-p", "openai", str(solo))
    report = json.loads(out)
    assert code == 1 and "requests" not in report
    assert {i["code"] for t in report["tools"] for i in t["issues"]} >= {"NAM001", "NAM002"}


def test_check_anthropic_strict_names_each_tool_among_every_earlier_one(tmp_path: Path) -> None:
    # the tools sent without `strict` are checked again for `anthropic`, each among every
    # earlier tool of its source: the last `b_2` clashes with the third tool's new name
    rich = {"type": "object", "properties": {"k": {"enum": ["a", "b"]}}, "required": ["k"]}
    bare = {"type": "object", "properties": {"q": {"type": "string"}}}
    tools = [{"name": n, "description": "Do it.", "inputSchema": s}
             for n, s in (("a", rich), ("b", bare), ("b", bare), ("a", rich), ("b_2", bare))]
    listing = tmp_path / "dup.json"
    listing.write_text(json.dumps({"tools": tools}))
    _, out, _ = run("check", "--json", "-p", "anthropic-strict", str(listing))
    issues = [sorted((i["code"], i["severity"]) for i in t["issues"] if i["scope"] == "tool")
              for t in json.loads(out)["tools"]]
    enforce_nothing = ("LIM001", "info")  # strict decoding would gain nothing on `bare`
    assert issues == [[], [enforce_nothing], [enforce_nothing, ("NAM002", "error")],
                      [("NAM002", "error")], [enforce_nothing, ("NAM002", "error")]]
