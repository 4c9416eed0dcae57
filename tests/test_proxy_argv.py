"""`schema-compat proxy`'s command line read without typer (schema_compat/proxy/argv.py):
what it reads must be what typer reads, and whatever it is not sure of is left to typer."""

from __future__ import annotations

import pytest

from schema_compat.proxy.argv import ProxyLine, read_proxy_line


@pytest.mark.parametrize(("args", "expected"), [
    (["--", "python", "server.py", "--port", "1"],
     ProxyLine(command=["python", "server.py", "--port", "1"])),
    (["python", "server.py", "--", "x"], ProxyLine(command=["python", "server.py", "--", "x"])),
    (["-p", "OpenAI-Strict", "--timeout", "2.5", "--log=/tmp/l", "--lossless-only",
      "--env", "A=1", "--env", "B= two=2", "--cwd", "/tmp", "--", "srv"],
     ProxyLine(provider="openai-strict", timeout=2.5, log="/tmp/l", lossless_only=True,
               env={"A": "1", "B": " two=2"}, cwd="/tmp", command=["srv"])),
    (["--url", "http://h/mcp", "--header", "Authorization:  Bearer t ", "--header", "X: y"],
     ProxyLine(url="http://h/mcp", headers={"Authorization": "Bearer t", "X": "y"})),
    (["--provider=vertex", "--sse", "http://h/sse"], ProxyLine(provider="vertex",
                                                             sse="http://h/sse")),
    (["--config", ".mcp.json", "-p", "openai", "--name", "git*", "--name=time", "--log", "l",
      "--strict-first", "create_*", "-t", "a", "--tool=b", "--exclude-tool", "c", "--"],
     ProxyLine(config=".mcp.json", provider="openai", names=["git*", "time"], log="l",
               strict_first=["create_*"], tools=["a", "b"], exclude_tools=["c"])),
    (["--config=c.json", "--timeout", "5", "--lossless-only"],
     ProxyLine(config="c.json", timeout=5.0, lossless_only=True)),
])
def test_what_it_reads(args: list[str], expected: ProxyLine) -> None:
    assert read_proxy_line(args) == expected


@pytest.mark.parametrize("args", [
    [], ["--"], ["--help"], ["--", ], ["--provider", "gemini", "-p", "openai", "--", "srv"],
    ["--timeout", "0", "--", "srv"], ["--timeout", "x", "--", "srv"],
    ["--url", "http://h/mcp", "--", "srv"], ["--url", "u", "--sse", "s"],
    ["--header", "A: b", "--", "srv"], ["--env", "A=1", "--url", "u"],
    ["--cwd", "/", "--sse", "s"], ["--env", "novalue", "--", "srv"],
    ["--header", "nocolon", "--url", "u"], ["--log", "a", "--log", "b", "--", "srv"],
    ["-pgemini", "--", "srv"], ["--verbose", "--", "srv"], ["--timeout"],
    # the gateway's options: --config with an upstream of its own, or theirs without it
    ["--config", "c.json", "--", "srv"], ["--config", "c.json", "--url", "u"],
    ["--config", "c.json", "--env", "A=1"], ["--config", "a", "--config", "b"],
    ["--name", "x", "--", "srv"], ["--tool", "x", "--url", "u"],
    ["--config", "c.json", "--name-prefix", "server"], ["--config", "c.json", "-t=x"],
])
def test_what_it_leaves_to_typer(args: list[str]) -> None:
    assert read_proxy_line(args) is None


def test_an_unknown_provider_is_read_and_found_later() -> None:
    """The profiles are imported while the upstream starts: run_proxy_line checks the
    provider then, and leaves the error to typer (tests/test_proxy_upstreams.py)."""
    assert read_proxy_line(["-p", "Nope", "--", "srv"]) == ProxyLine(provider="nope",
                                                                   command=["srv"])
