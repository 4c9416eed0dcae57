"""MCP client configs: parsing every client's format, and checking every server in one.

The checks run the CLI in-process (tests/inprocess.py); the servers are processes of their
own. That a server's stderr never reaches ours is held in a process by
tests/test_extract_live.py."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from inprocess import cli_in_process

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import PY, SERVERS, example_over, report

from schema_compat.extract.config import (
    ConfigError,
    ServerSpec,
    discover_configs,
    load_config,
)

LISTING = SERVERS / "listing_server.py"  # the example's listing, without the SDK
TOKEN = "cfg-token"


def _write(path: Path, data: object | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


# --- parsing, no server started ----------------------------------------------------------


def test_claude_mcp_servers_with_env_expansion(tmp_path: Path) -> None:
    cfg = _write(tmp_path / ".mcp.json", {"mcpServers": {
        "fs": {"command": "npx", "args": ["-y", "pkg", "${env:ROOT}"],
               "env": {"KEY": "${SECRET}", "MODE": "${MODE:-fast}"}},
        "remote": {"type": "http", "url": "https://x.example/mcp",
                   "headers": {"Authorization": "Bearer ${SECRET}"}},
        "legacy": {"type": "sse", "url": "https://x.example/sse"},
    }})
    specs, errors = load_config(str(cfg), environ={"ROOT": "/data", "SECRET": "k"})
    assert errors == []
    assert specs == [
        ServerSpec("fs", "stdio", "npx", ("-y", "pkg", "/data"), {"KEY": "k", "MODE": "fast"}),
        ServerSpec("remote", "http", url="https://x.example/mcp",
                   headers={"Authorization": "Bearer k"}),
        ServerSpec("legacy", "sse", url="https://x.example/sse"),
    ]


def test_vscode_servers_inputs_and_comments(tmp_path: Path) -> None:
    cfg = _write(tmp_path / ".vscode" / "mcp.json", """{
      // VS Code allows comments and trailing commas
      "inputs": [{"type": "promptString", "id": "api-key", "password": true}],
      "servers": {
        "local": {"type": "stdio", "command": "python", "args": ["server.py"],
                  "cwd": "${workspaceFolder}/srv"},
        "needs-prompt": {"type": "stdio", "command": "x", "env": {"KEY": "${input:api-key}"}},
        "web": {"type": "http", "url": "http://localhost:3000/mcp"},
      },
    }""")
    specs, errors = load_config(str(cfg), environ={})
    assert specs == [
        ServerSpec("local", "stdio", "python", ("server.py",), cwd=f"{tmp_path}/srv"),
        ServerSpec("web", "http", url="http://localhost:3000/mcp"),
    ]
    assert [(e.source, e.message, e.hint) for e in errors] == [(
        "needs-prompt",
        "env.KEY needs ${input:api-key}, which only an interactive prompt can supply",
        "put the value in the config (or an environment variable) and reference it as "
        "${env:VAR}",
    )]


def test_block_comments_and_escaped_quotes_in_a_jsonc_config(tmp_path: Path) -> None:
    """A `/* */` comment goes; a `//` inside a string, after an escaped quote, stays."""
    cfg = _write(tmp_path / ".vscode" / "mcp.json", """{
      /* a block comment, "quoted" */
      "servers": {"a": {"command": "srv", "args": ["say \\"hi\\" // not a comment"],},},
    }""")
    assert load_config(str(cfg), environ={}) == (
        [ServerSpec("a", "stdio", "srv", ('say "hi" // not a comment',))], [])


def test_cursor_and_gemini_urls(tmp_path: Path) -> None:
    cursor = _write(tmp_path / ".cursor" / "mcp.json",
                    {"mcpServers": {"c": {"url": "http://h/mcp"}}})
    assert load_config(str(cursor), environ={})[0] == [ServerSpec("c", "http", url="http://h/mcp")]
    gemini = _write(tmp_path / ".gemini" / "settings.json", {"theme": "x", "mcpServers": {
        "a": {"httpUrl": "http://h/mcp", "headers": {"X-Key": "1"}},
        "b": {"url": "http://h/sse"},
        "c": {"command": "srv", "cwd": "sub"},
    }})
    assert load_config(str(gemini), environ={})[0] == [
        ServerSpec("a", "http", url="http://h/mcp", headers={"X-Key": "1"}),
        ServerSpec("b", "sse", url="http://h/sse"),
        ServerSpec("c", "stdio", "srv", cwd=str(tmp_path / "sub")),
    ]


def test_unset_variable_and_bad_entries(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "claude_desktop_config.json", {"mcpServers": {
        "a": {"command": "srv", "env": {"T": "${NOPE}"}},
        "b": {"args": ["x"]},
        "c": {"command": "ok"},
    }})
    specs, errors = load_config(str(cfg), environ={})
    assert specs == [ServerSpec("c", "stdio", "ok")]
    assert [e.one_line() for e in errors] == [
        "a: env.T uses ${NOPE} but NOPE is not set (export NOPE=... before running "
        "schema-compat)",
        'b: the server has neither "command" nor "url" (give "command" (stdio) or "url")',
    ]


@pytest.mark.parametrize(("entry", "said"), [
    ({"command": 5}, '"command" must be a string, not a number'),
    ({"command": ""}, '"command" is empty'),
    ({"url": 7}, '"url" must be a string, not a number'),
    ({"serverUrl": ["http://x/mcp"]}, '"serverUrl" must be a string, not a list'),
    ({"httpUrl": 3}, '"httpUrl" must be a string, not a number'),
    ({"command": "srv", "env": {"A": 1}}, '"env.A" must be a string, not a number '
                                          '(write it as "1")'),
    ({"command": "srv", "env": {"A": True}}, '"env.A" must be a string, not true'),
    ({"url": "http://x/mcp", "headers": {"X-N": 2}}, '"headers.X-N" must be a string'),
    ({"command": "srv", "env": {"A": None}}, '"env.A" must be a string, not null'),
    ({"command": "srv", "args": "x"}, '"args" must be a list of strings'),
    ({"command": "srv", "env": ["A=1"]}, '"env" must be an object of strings'),
    ({"command": "srv", "cwd": 3}, '"cwd" must be a string'),
    ({"url": "http://x/mcp", "type": "ws"}, 'unknown transport type "ws"'),
    ("srv", "the server entry is not an object"),
])
def test_a_field_of_the_wrong_type_is_named(tmp_path: Path, entry: object, said: str) -> None:
    """A field that is there but not a string is named as such, never as missing; a value
    of `env` or `headers` that is not a string is an error naming its key, not turned into
    text."""
    cfg = _write(tmp_path / ".mcp.json", {"mcpServers": {"s": entry, "ok": {"command": "x"}}})
    specs, errors = load_config(str(cfg), environ={})
    assert [s.name for s in specs] == ["ok"]
    [error] = errors
    line = error.one_line()
    assert line.startswith(f"s: {said}"), line
    assert "neither" not in line


def test_a_url_beside_a_command_is_not_read(tmp_path: Path) -> None:
    """A stdio entry is read by its command, whatever else it holds."""
    cfg = _write(tmp_path / ".mcp.json", {"mcpServers": {"s": {"command": "x", "url": 7}}})
    specs, errors = load_config(str(cfg), environ={})
    assert specs == [ServerSpec("s", "stdio", "x")] and not errors


def test_names_pick_servers_and_unknown_names_fail(tmp_path: Path) -> None:
    cfg = _write(tmp_path / ".mcp.json", {"mcpServers": {"gh": {"command": "a"},
                                                          "fs": {"command": "b"}}})
    assert [s.name for s in load_config(str(cfg), ["f*"], environ={})[0]] == ["fs"]
    with pytest.raises(ConfigError) as info:
        load_config(str(cfg), ["zz"], environ={})
    assert info.value.error.one_line() == (
        f"{cfg}: no server named zz (servers here: gh, fs)")


def test_not_a_config(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "x.json", {"tools": []})
    with pytest.raises(ConfigError) as info:
        load_config(str(cfg))
    assert info.value.error.message == (
        'not an MCP client config: no "mcpServers" or "servers" object')


def test_discovery_order(tmp_path: Path) -> None:
    _write(tmp_path / ".gemini" / "settings.json", {"mcpServers": {}})
    _write(tmp_path / ".mcp.json", {"mcpServers": {}})
    assert discover_configs(str(tmp_path)) == [str(tmp_path / ".mcp.json"),
                                                str(tmp_path / ".gemini" / "settings.json")]


# --- checking every server of a config ---------------------------------------------------


@pytest.fixture(scope="module")
def http_base() -> Iterator[str]:
    with example_over("http", token=TOKEN) as base:
        yield base


def _config(tmp_path: Path, http_base: str) -> Path:
    return _write(tmp_path / ".mcp.json", {"mcpServers": {
        "example": {"command": PY, "args": [str(LISTING)]},
        "paged": {"command": PY, "args": [str(SERVERS / "paged_server.py")]},
        "broken": {"command": PY, "args": [str(SERVERS / "crash_server.py")]},
        "web": {"type": "http", "url": f"{http_base}/mcp",
                "headers": {"Authorization": "Bearer ${env:FS_TOKEN}"}},
    }})


def test_config_checks_every_server_one_broken(tmp_path: Path, http_base: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = _config(tmp_path, http_base)
    monkeypatch.setenv("FS_TOKEN", TOKEN)
    proc = cli_in_process("check", "--json", "--config", str(cfg))
    assert proc.returncode == 2  # one server failed
    data = report(proc)
    sources = [t["source"] for t in data["tools"]]
    assert sources == ["example"] * 2 + ["paged"] * 5 + ["web"] * 2
    assert data["errors"] == [{
        "source": "broken",
        "message": "the server exited during start-up with exit code 3: loading config... | "
                   "Error: API_TOKEN is not set",
        "hint": "run the command by hand to see why it stops",
    }]
    # a config named `.mcp.json` is Claude Code's: said once, then the server's one line
    note, error = proc.stderr.strip().splitlines()
    assert note.startswith("schema-compat: client claude-code (inferred from ")
    assert error == (
        "schema-compat: error: broken: the server exited during start-up with exit code 3: "
        "loading config... | Error: API_TOKEN is not set (run the command by hand to see "
        "why it stops)")


def test_a_bad_server_entry_is_named_with_its_config_file(tmp_path: Path) -> None:
    """An entry that cannot be set up is one line naming the file and the server, as
    `FILE: server NAME: what is wrong`; the other servers are still checked, and the run
    exits 2 as for any source that could not be read."""
    cfg = _write(tmp_path / "bad.json", {"mcpServers": {
        "bad": {"args": ["x"]},
        "example": {"command": PY, "args": [str(LISTING)]},
    }})
    proc = cli_in_process("check", "--json", "--config", str(cfg))
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        f'schema-compat: error: {cfg}: server bad: the server has neither "command" nor "url" '
        '(give "command" (stdio) or "url")']
    data = report(proc)
    assert {t["source"] for t in data["tools"]} == {"example"}
    assert [e["source"] for e in data["errors"]] == [f"{cfg}: server bad"]


def test_config_name_picks_and_exit_code(tmp_path: Path, http_base: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = _config(tmp_path, http_base)
    monkeypatch.setenv("FS_TOKEN", TOKEN)
    proc = cli_in_process("check", "--json", "--config", str(cfg), "--name", "web",
                          "--name", "example")
    assert proc.returncode == 1, proc.stderr
    assert {t["source"] for t in report(proc)["tools"]} == {"example", "web"}


def test_no_source_discovers_configs_here(tmp_path: Path, http_base: str) -> None:
    _config(tmp_path, http_base)
    proc = cli_in_process("check", "--json", "--name", "paged", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ("schema-compat: no SOURCE given; checking the servers in "
                           ".mcp.json\n"
                           "schema-compat: client claude-code (inferred from .mcp.json); "
                           "--client names another\n")
    assert {t["source"] for t in report(proc)["tools"]} == {"paged"}


def test_no_source_and_no_config(tmp_path: Path) -> None:
    proc = cli_in_process("check", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "schema-compat: error: no SOURCE given and no MCP client config here (looked for "
        ".mcp.json, .vscode/mcp.json, .cursor/mcp.json, .gemini/settings.json) (pass a JSON "
        "file, a directory, - to read stdin, --server, --url, --sse or --config)",
    ]
