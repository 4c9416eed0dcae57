"""The library API server authors use: `from schema_compat import check, transform`, typed
results a type checker can see (py.typed), and the example server that transforms an
official-SDK server's tools before serving them, driven by a real MCP client."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from google.genai import types as genai
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import Tool

import schema_compat
from schema_compat import Report, ToolDef, check, repair_args, requests, transform

REPO_ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = REPO_ROOT / "examples"
FS_TOOLS: list[dict[str, Any]] = json.loads(
    (EXAMPLES / "fs_read_files.json").read_text("utf-8"))["tools"]


def _gemini_accepts(name: str, schema: Any) -> None:
    genai.FunctionDeclaration(name=name, parameters=genai.Schema.model_validate(schema))


def test_check_and_transform_on_tool_dicts() -> None:
    report = check(FS_TOOLS)
    assert isinstance(report, Report) and report.provider == "gemini"
    assert [r.status for r in report.results] == ["INCOMPATIBLE", "INCOMPATIBLE"]
    assert "REF001" in {f.code for f in report.results[0].findings}
    results = transform(FS_TOOLS, "gemini", lossless_only=True)
    assert [r.fix_status for r in results] == ["lossless", "lossless"]
    for r in results:
        assert "$defs" not in json.dumps(r.transformed_schema)
        assert all(c.safety == "lossless" for c in r.changes)
        _gemini_accepts(r.transformed_name, r.transformed_schema)
        assert check([{"name": r.transformed_name, "inputSchema": r.transformed_schema,
                       "description": "x"}]).results[0].status == "COMPATIBLE"


def test_sdk_tool_objects_and_tooldefs_give_the_same_results() -> None:
    sdk = [Tool.model_validate(t) for t in FS_TOOLS]
    defs = [ToolDef(t["name"], t["inputSchema"], t.get("description")) for t in FS_TOOLS]
    by_dict, by_sdk, by_def = (transform(x, "vertex") for x in (FS_TOOLS, sdk, defs))
    assert [r.transformed_schema for r in by_sdk] == [r.transformed_schema for r in by_dict]
    assert [r.changes for r in by_def] == [r.changes for r in by_dict]
    assert by_sdk[0].tool.raw["inputSchema"] == FS_TOOLS[0]["inputSchema"]


@pytest.mark.parametrize("bad", [{"tools": []}, "tools.json", [3]])
def test_wrong_input_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="tool"):
        transform(bad)


def test_public_names_and_py_typed() -> None:
    for name in ("check", "transform", "load_tools", "Report", "ToolResult", "Finding",
                 "Change", "ToolDef", "PROFILES"):
        assert name in schema_compat.__all__
    for name in schema_compat.__all__:  # each one loaded on first use (module __getattr__)
        assert getattr(schema_compat, name) is not None, name
    assert schema_compat.plan is requests.plan and schema_compat.repair is repair_args.repair
    with pytest.raises(AttributeError):
        _ = schema_compat.no_such_name  # type: ignore[attr-defined]
    assert (Path(schema_compat.__file__).parent / "py.typed").is_file()


def test_a_type_checker_sees_the_result_types(tmp_path: Path) -> None:
    """Through py.typed, mypy knows what check/transform return: a wrong use is an error."""
    from mypy import api as mypy_api

    good = tmp_path / "good.py"
    good.write_text(
        "from schema_compat import ToolResult, Report, check, transform\n"
        "results: list[ToolResult] = transform([{'name': 'a', 'inputSchema': {}}])\n"
        "names: list[str] = [r.transformed_name for r in results]\n"
        "report: Report = check([])\n"
        "codes: list[str] = [f.code for r in report.results for f in r.findings]\n")
    bad = tmp_path / "bad.py"
    bad.write_text("from schema_compat import transform\n"
                   "x: int = transform([])[0].transformed_name\n")
    args = ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / ".mypy"),
            "--python-executable", sys.executable, "--no-error-summary"]
    # One run for both files (mypy's start-up, typeshed and the package read once): good.py
    # has nothing to report, bad.py exactly the wrong use.
    out, err, status = mypy_api.run([*args, str(good), str(bad)])
    assert status == 1, out + err
    assert out.splitlines() == [
        f'{bad}:2: error: Incompatible types in assignment (expression has type "str", '
        'variable has type "int")  [assignment]'], out + err


async def _list_and_call(script: Path, *extra: str, call: tuple[str, dict[str, Any]]
                         ) -> tuple[list[Tool], str]:
    params = StdioServerParameters(command=sys.executable, args=[str(script), *extra],
                                   cwd=str(REPO_ROOT))
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            listed = await s.list_tools()
            result = await s.call_tool(*call)
    text = "".join(getattr(c, "text", "") for c in getattr(result, "content", []))
    return list(listed.tools), text


@pytest.fixture(scope="module")
def plain_listing(tmp_path_factory: pytest.TempPathFactory) -> list[Tool]:
    """The plain example server's listing (listed once for every provider below)."""
    target = tmp_path_factory.mktemp("plain") / "notes.txt"
    target.write_text("one\n", "utf-8")
    call = ("read_files", {"files": [{"path": str(target)}]})
    tools, text = anyio.run(lambda: _list_and_call(EXAMPLES / "fs_server.py", call=call))
    assert text == f"== {target} ==\none"
    return tools


@pytest.mark.parametrize("provider", ["gemini", "vertex"])
def test_example_server_serves_transformed_tools(tmp_path: Path, provider: str,
                                                 plain_listing: list[Tool]) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("one\ntwo\nthree\n", "utf-8")
    # Arguments in the transformed form: `head` is a nullable integer, sent as null here.
    call = ("read_files", {"files": [{"path": str(target), "start_line": 2, "head": None}]})
    tools, text = anyio.run(lambda: _list_and_call(
        EXAMPLES / "provider_ready_server.py", "--provider", provider, call=call))
    assert [t.name for t in tools] == ["read_files", "propose_and_review"]
    # The server validated and ran the call against its original Pydantic models.
    assert text == f"== {target} ==\ntwo\nthree"
    published = [t.model_dump(by_alias=True, exclude_none=True) for t in tools]
    assert all("$ref" not in json.dumps(t["inputSchema"]) for t in published)
    # it says its `nullable` is OpenAPI's, so a check finds nothing (examples/README.md)
    assert all(t["_meta"] == {"schema-compat/dialect": "openapi-3.0"} for t in published)
    report = check(published, provider)
    assert [(f.code, f.severity) for r in report.results for f in r.findings] == []
    if provider == "gemini":
        for t in published:
            _gemini_accepts(t["name"], t["inputSchema"])
    # What it serves is exactly what the library makes of the plain server's listing.
    plain = plain_listing
    expected = transform(plain, provider, lossless_only=True)
    assert [t["inputSchema"] for t in published] == [r.transformed_schema for r in expected]
    assert plain[0].input_schema != published[0]["inputSchema"]
