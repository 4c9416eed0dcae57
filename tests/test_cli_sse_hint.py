"""A legacy SSE server given as streamable HTTP (`--url .../sse`) is named as one, with the
flag that reaches it, where "HTTP 405 ... speaks MCP over streamable HTTP" left the user to
guess. Real servers: the example server over SSE (started once for the module: the tests only
list from it), and one whose GET-only stream is at another path."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from inprocess import cli_in_process

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import SERVERS, example_over, serving


@pytest.fixture(scope="module")
def sse_base() -> Iterator[str]:
    with example_over("sse") as base:
        yield base


def _error_line(args: list[str], cwd: Path | None = None) -> str:
    proc = cli_in_process(*args, **({"cwd": cwd} if cwd else {}))
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    [line] = proc.stderr.splitlines()
    return line


def test_url_at_an_sse_servers_stream_suggests_sse(sse_base: str) -> None:
    url = f"{sse_base}/sse"
    line = _error_line(["check", "--url", url, "--timeout", "10"])
    assert line == (f"schema-compat: error: {url}: HTTP 405 from {url} (this looks like a "
                    f"legacy SSE server (the path ends in /sse): use --sse {url})")
    assert "streamable HTTP" not in line
    works = cli_in_process("check", "--sse", url, "--timeout", "10")
    assert works.returncode in (0, 1), works.stderr  # the flag suggested reaches it


def test_a_405_to_post_suggests_sse_whatever_the_path() -> None:
    with serving(SERVERS / "get_only_server.py") as base:
        url = f"{base}/events"
        line = _error_line(["check", "--url", url, "--timeout", "10"])
        assert line.endswith(f"(this looks like a legacy SSE server (it answers POST with 405 "
                             f"Method Not Allowed): use --sse {url})"), line


def test_a_config_server_is_told_to_set_its_type(tmp_path: Path, sse_base: str) -> None:
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fs": {"url": f"{sse_base}/sse"}}}))
    line = _error_line(["check", "--config", str(config), "--timeout", "10"])
    assert 'set "type": "sse" on this server in the config' in line, line
    assert "--sse" not in line


def test_streamable_http_elsewhere_keeps_its_hint(sse_base: str) -> None:
    """A 404 at a path that is not /sse says nothing of SSE."""
    url = f"{sse_base}/nope"
    line = _error_line(["check", "--url", url, "--timeout", "10"])
    assert line.endswith("(check the path: streamable HTTP servers usually serve /mcp)")
