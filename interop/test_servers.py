"""schema-compat against real MCP servers: each lists what the official SDK clients list.

For every server: `schema-compat check --json` over the live transport must list exactly the
tools the official Python client lists (and, for TypeScript-SDK servers, the official
TypeScript client too), in the same order with the same inputSchemas; its findings must equal
those of the same listing checked from a file; and its report must name the protocol era and
version the server spoke, as the Python client negotiated them in its `auto` mode. A server
reached in the 2026-07-28 era is listed by the TypeScript SDK 2 client too, which must
negotiate the same.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from support import (
    INTEROP,
    MODERN,
    NPM_CLIENTS,
    NPM_SERVERS,
    PYPI_SERVERS,
    REQUIREMENTS,
    STARTUP,
    STDIO_SERVERS,
    Server,
    cli_json,
    free_port,
    listening,
    py_reference,
    quote,
    run_bounded,
    ts_reference,
)

pytestmark = pytest.mark.timeout(4 * (STARTUP + 15) + 60)
TIMEOUT = ["--timeout", f"{STARTUP:g}"]


def names(tools: list[dict[str, Any]]) -> list[str]:
    return [str(t.get("name")) for t in tools]


def assert_same_tools(what: str, expected: list[dict[str, Any]], got: list[dict[str, Any]],
                      got_schema_key: str = "inputSchema") -> None:
    """Same names in the same order, and the same inputSchema for each."""
    assert names(got) == names(expected), f"{what}: the tools (in order) differ"
    for want, have in zip(expected, got, strict=True):
        assert have.get(got_schema_key) == want.get("inputSchema"), (
            f"{what}: {want.get('name')}'s inputSchema differs")


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    """A report's findings, without what names the source it came from."""
    tools = [{k: v for k, v in tool.items() if k != "source"} for tool in report["tools"]]
    return {"summary": report["summary"], "tools": tools, "name_map": report.get("name_map"),
            "exit_code": report["exit_code"]}


def first_difference(live: Any, from_file: Any, where: str = "$") -> str | None:
    """Where two reports first differ, with both values (cut short), or None."""
    if isinstance(live, dict) and isinstance(from_file, dict):
        for key in [*live, *(k for k in from_file if k not in live)]:
            found = first_difference(live.get(key), from_file.get(key), f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(live, list) and isinstance(from_file, list) and len(live) == len(from_file):
        for i, (a, b) in enumerate(zip(live, from_file, strict=True)):
            found = first_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        return None
    if live == from_file:
        return None
    return (f"at {where}: live {json.dumps(live)[:400]} != file "
            f"{json.dumps(from_file)[:400]}")


def check_against_references(label: str, live_args: list[str], reference: dict[str, Any],
                             env: dict[str, str], tmp: Path) -> None:
    """The live check's listing, findings and era against the reference listing."""
    live = cli_json(*TIMEOUT, *live_args, what=f"{label}: schema-compat check {live_args[0]}",
                    env=env, cwd=tmp)
    assert_same_tools(f"{label}: schema-compat's live listing vs the official Python client",
                      reference["tools"], live["tools"], got_schema_key="original_schema")

    listing = tmp / "reference-listing.json"
    listing.write_text(json.dumps({"tools": reference["tools"]}), encoding="utf-8")
    from_file = cli_json(str(listing), what=f"{label}: schema-compat check FILE", env=env,
                         cwd=tmp)
    difference = first_difference(comparable(live), comparable(from_file))
    assert difference is None, (
        f"{label}: the live check's findings differ from the same listing checked from a "
        f"file: {difference}")

    servers = live.get("servers")
    assert isinstance(servers, list) and len(servers) == 1, (
        f"{label}: the report does not describe the server it talked to: {servers!r}")
    spoke = servers[0]
    assert (spoke.get("era"), spoke.get("protocol_version")) == (
        reference["era"], reference["protocolVersion"]), (
        f"{label}: the report's era and protocol version differ from what the official "
        "Python client negotiated")


# The TypeScript SDK 2 client's names for the eras.
TS_ERAS = {"modern": "stateless", "legacy": "handshake"}


def check_modern_with_ts2(label: str, target: list[str], reference: dict[str, Any],
                          env: dict[str, str], tmp: Path) -> None:
    """A server the Python client reached in the 2026-07-28 era: the TypeScript SDK 2 client
    negotiates the same era and version and lists the same tools."""
    ts2 = ts_reference(target, what=label, env=env, cwd=tmp, client="sdk2")
    assert (TS_ERAS.get(ts2["era"]), ts2["protocolVersion"]) == (
        reference["era"], reference["protocolVersion"]), (
        f"{label}: the TypeScript SDK 2 client negotiated {ts2['era']} {ts2['protocolVersion']}"
        f", the Python client {reference['era']} {reference['protocolVersion']}")
    assert_same_tools(f"{label}: the TypeScript SDK 2 client vs the Python client",
                      reference["tools"], ts2["tools"])


@pytest.mark.parametrize("server", STDIO_SERVERS, ids=lambda s: s.label)
def test_stdio_server(server: Server, tmp_path: Path) -> None:
    argv = server.argv(tmp_path)
    env = server.environ(tmp_path)
    reference = py_reference(["--stdio", *argv], what=server.label, env=env, cwd=tmp_path)
    assert reference["tools"], f"{server.label}: the official Python client lists no tools"
    if server.sdk == "ts":
        ts = ts_reference(["--stdio", *argv], what=server.label, env=env, cwd=tmp_path)
        assert_same_tools(f"{server.label}: the official TypeScript client vs the Python client",
                          reference["tools"], ts["tools"])
    if reference["era"] == "stateless":
        check_modern_with_ts2(server.label, ["--stdio", *argv], reference, env, tmp_path)
    check_against_references(server.label, ["--server", quote(argv)], reference, env,
                             tmp_path)


EVERYTHING = NPM_SERVERS[0]
# server-everything's HTTP modes: its argument, its endpoint, the CLI's and clients' flag.
HTTP_MODES = {"streamable-http": ("streamableHttp", "/mcp", "--http", "--url"),
              "sse": ("sse", "/sse", "--sse", "--sse")}


@pytest.mark.parametrize("mode", sorted(HTTP_MODES))
def test_everything_over_http(mode: str, tmp_path: Path) -> None:
    """server-everything on 127.0.0.1 over streamable HTTP and over legacy SSE.

    It listens on the port its PORT variable names (on every interface: it has no host
    option); every client here connects to 127.0.0.1.
    """
    arg, path, client_flag, cli_flag = HTTP_MODES[mode]
    label = f"{EVERYTHING.label} over {mode}"
    exe = EVERYTHING.argv(tmp_path)
    port = free_port()
    with listening([*exe, arg], port, what=label, env={"PORT": str(port)},
                   cwd=tmp_path) as base:
        url = base + path
        reference = py_reference([client_flag, url], what=label, env={}, cwd=tmp_path)
        ts = ts_reference([client_flag, url], what=label, env={}, cwd=tmp_path)
        assert_same_tools(f"{label}: the official TypeScript client vs the Python client",
                          reference["tools"], ts["tools"])
        check_against_references(label, [cli_flag, url], reference, {}, tmp_path)


def test_modern_server_over_http(tmp_path: Path) -> None:
    """The modern-only server over streamable HTTP: stateless, no initialize at all."""
    label = f"{MODERN.label} over streamable-http"
    port = free_port()
    with listening([sys.executable, str(MODERN.executable()), "--port", str(port)], port,
                   what=label, env={}, cwd=tmp_path) as base:
        url = base + "/mcp"
        reference = py_reference(["--http", url], what=label, env={}, cwd=tmp_path)
        assert reference["era"] == "stateless", f"{label}: {reference['era']}"
        check_modern_with_ts2(label, ["--http", url], reference, {}, tmp_path)
        check_against_references(label, ["--url", url], reference, {}, tmp_path)


def test_modern_server_refuses_the_handshake_era(tmp_path: Path) -> None:
    """The modern-only server really is one: the SDK's client in legacy mode gets -32022."""
    script = ("import anyio, os, sys\n"
              "from mcp.client import Client\n"
              "from mcp.client.stdio import StdioServerParameters\n"
              "async def main():\n"
              "    async with Client(StdioServerParameters(command=sys.executable,"
              " args=[sys.argv[1]], env=dict(os.environ)), mode='legacy'):\n"
              "        pass\n"
              "anyio.run(main)\n")
    proc = run_bounded([sys.executable, "-c", script, str(MODERN.executable())],
                       what="modern_server.py with a legacy client", env={}, cwd=tmp_path)
    assert proc.returncode != 0
    assert "speaks only the 2026-07-28 protocol" in proc.stderr


def test_the_suite_covers_every_pinned_server() -> None:
    """Every pinned server package has a test, and the suite keeps its promised breadth."""
    package = json.loads((INTEROP / "package.json").read_text(encoding="utf-8"))
    pinned_npm = set(package["dependencies"]) - NPM_CLIENTS
    assert pinned_npm == {s.package for s in NPM_SERVERS}
    for spec in package["dependencies"].values():
        assert re.fullmatch(r"\d+\.\d+\.\d+", spec), f"not an exact version: {spec}"
    pinned_pypi = set()
    for venv, path in REQUIREMENTS.items():
        for line in path.read_text(encoding="utf-8").splitlines():
            name = line.partition("==")[0].strip()
            if name.startswith("mcp-server-"):
                pinned_pypi.add((venv, name))
    assert pinned_pypi == {(s.venv, s.package) for s in PYPI_SERVERS}
    assert len(NPM_SERVERS) >= 8 and len(PYPI_SERVERS) >= 4
