"""Live sources: real servers started as subprocesses, over stdio, streamable HTTP and SSE.

Every failure is asserted by its exact one-line message; every success by its findings, which
must be the ones the same listing gives when read from a file.

The CLI runs in-process (`cli_in_process`) unless the test asserts what only a process of its
own shows: that nothing reaches its stderr file descriptor, its environment, a terminal.
The servers are processes of their own either way.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from inprocess import cli_in_process

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import (
    EXAMPLE,
    REPO_ROOT,
    SERVERS,
    cli,
    cmd,
    example_over,
    findings,
    free_port,
    report,
    serving,
)
from paged_server import TOOLS as PAGED_TOOLS

TOKEN = "s3cret-token"
CORPUS = REPO_ROOT / "tests" / "data" / "corpus" / "servers" / "fs-mcp-repro-mcp-sdk.json"
EXAMPLE_CMD = cmd(EXAMPLE)
# The example's captured listing served without the SDK (tests/servers/listing_server.py;
# test_init and the first test here hold the capture to what the example serves): for the
# tests of what a command does with a live listing, not of the SDK's server (the era tests
# and the first test start the example itself).
LISTED_CMD = cmd(SERVERS / "listing_server.py")


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with example_over("http", token=TOKEN) as base:
        yield f"{base}/mcp"


@pytest.fixture(scope="module")
def sse_url() -> Iterator[str]:
    with example_over("sse") as base:
        yield f"{base}/sse"


@pytest.fixture(scope="module")
def file_findings() -> dict[str, list[tuple[str, str]]]:
    """The example's listing as captured in the corpus, checked from the file."""
    proc = cli_in_process("check", "--json", str(CORPUS))
    assert proc.returncode == 1, proc.stderr
    return findings(report(proc))


def _error_line(proc: object) -> str:
    lines = proc.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1, lines
    return str(lines[0])


# --- the example server -----------------------------------------------------------------


def test_stdio_example_matches_the_captured_file(file_findings: dict[str, object]) -> None:
    proc = cli("check", "--json", "--server", EXAMPLE_CMD)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""  # the server's own log lines never reach the terminal
    data = report(proc)
    assert [t["source"] for t in data["tools"]] == [EXAMPLE_CMD, EXAMPLE_CMD]
    assert findings(data) == file_findings
    assert data["errors"] == []
    read_files = data["tools"][0]
    assert read_files["name"] == "read_files"
    assert read_files["original_schema"] == json.loads(CORPUS.read_text())["tools"][0][
        "inputSchema"]


def test_transform_snapshot_agrees_with_live(tmp_path: Path) -> None:
    """`transform --server -o` writes a listing that checks offline as the live run did."""
    out = tmp_path / "tools.json"
    live = cli_in_process("transform", "--json", "--server", LISTED_CMD, "-o", str(out))
    assert live.returncode == 0, live.stderr
    snapshot = json.loads(out.read_text())
    from_file = cli_in_process("transform", "--quiet", str(CORPUS))
    assert snapshot["tools"] == json.loads(from_file.stdout)["tools"]
    offline = cli_in_process("check", "--json", "--fail-on", "info", str(out))
    assert findings(report(offline)) == findings(report(live), "remaining_issues")
    assert all(t["status"] == "COMPATIBLE" for t in report(offline)["tools"])


def test_diff_from_a_live_server() -> None:
    proc = cli_in_process("diff", "read_files", "--server", LISTED_CMD)
    assert proc.returncode == 0, proc.stderr
    assert "REF001" in proc.stdout and "nullable" in proc.stdout


def test_streamable_http_with_bearer_token(http_url: str,
                                           file_findings: dict[str, object]) -> None:
    proc = cli_in_process("check", "--json", "--url", http_url,
               "--header", f"Authorization: Bearer {TOKEN}")
    assert proc.returncode == 1, proc.stderr
    assert findings(report(proc)) == file_findings


def test_streamable_http_without_token_is_401(http_url: str) -> None:
    proc = cli_in_process("check", "--url", http_url, "--timeout", "5")
    assert proc.returncode == 2
    assert _error_line(proc) == (
        f"schema-compat: error: {http_url}: HTTP 401 Unauthorized from {http_url} "
        "(pass a token: --header 'Authorization: Bearer ...')")


def test_streamable_http_wrong_path_is_404(sse_url: str) -> None:
    url = sse_url.replace("/sse", "/nope")
    proc = cli_in_process("check", "--url", url, "--timeout", "5")
    assert proc.returncode == 2
    assert _error_line(proc) == (
        f"schema-compat: error: {url}: HTTP 404 Not Found at {url} "
        "(check the path: streamable HTTP servers usually serve /mcp)")


def test_sse(sse_url: str, file_findings: dict[str, object]) -> None:
    proc = cli_in_process("check", "--json", "--sse", sse_url)
    assert proc.returncode == 1, proc.stderr
    assert findings(report(proc)) == file_findings


@pytest.mark.parametrize(("status", "said", "hint"), [
    (500, "HTTP 500 from", "the SSE server announced this endpoint for messages; see the "
                           "server's logs"),
    (404, "HTTP 404 Not Found at", "the SSE server announced this endpoint for messages; "
                                   "see the server's logs"),
    (401, "HTTP 401 Unauthorized from", "pass a token: --header 'Authorization: Bearer ...'"),
])
def test_sse_message_endpoint_refusing_is_reported_at_once(status: int, said: str,
                                                           hint: str) -> None:
    """The refusal names the endpoint that refused, and ends the check at once: with a
    --timeout of 120 s, a client waiting it out would take 120 s, twice the bound below."""
    with serving(SERVERS / "refusing_sse_server.py", "--status", str(status)) as base:
        url = f"{base}/sse"
        start = time.monotonic()
        proc = cli_in_process("check", "--sse", url, "--timeout", "120")
        assert time.monotonic() - start < 60
    assert proc.returncode == 2
    assert _error_line(proc) == f"schema-compat: error: {url}: {said} {base}/messages/ ({hint})"


def test_streamable_http_shrugs_off_a_refused_notification() -> None:
    """A server answering `notifications/initialized` with 400 still lists its tools (the
    SDK ignores such a status; only a refused SSE message ends the exchange early), and an
    error at a URL with a query gets the streamable HTTP hint, at the URL given."""
    server = SERVERS / "plain_http_server.py"
    with serving(server, "--notification-status", "400") as base:
        proc = cli_in_process("check", "--json", "--url", f"{base}/mcp", "--timeout", "20")
        assert proc.returncode == 0, proc.stderr
        assert [t["name"] for t in report(proc)["tools"]] == ["echo"]
        url = f"{base}/nope?key=1"
        proc = cli_in_process("check", "--url", url, "--timeout", "20")
    assert proc.returncode == 2
    assert _error_line(proc).endswith(
        f"HTTP 404 Not Found at {url} "
        "(check the path: streamable HTTP servers usually serve /mcp)")


def test_streamable_http_no_answer_is_not_blamed_on_the_refused_stream() -> None:
    """A server that offers no stream (405 to the client's GET, as the protocol allows) and
    never answers tools/list was reported as "HTTP 405 ... check the URL"."""
    with serving(SERVERS / "plain_http_server.py", "--silent-tools") as base:
        url = f"{base}/mcp"
        proc = cli_in_process("check", "--url", url, "--timeout", "2")
    assert proc.returncode == 2
    assert _error_line(proc) == (
        f"schema-compat: error: {url}: no answer to tools/list within 2s "
        "(the server is slow or stuck; raise --timeout)")


def test_connection_refused() -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    proc = cli_in_process("check", "--url", url, "--timeout", "5")
    assert proc.returncode == 2
    host = url.split("/")[2]
    assert _error_line(proc) == (
        f"schema-compat: error: {url}: connection refused at {host} "
        "(is the server running? check the host and port)")


# --- raw JSON-RPC servers ---------------------------------------------------------------


def test_pages_and_malformed_tools(tmp_path: Path) -> None:
    """Three pages are followed; a malformed tool is a finding, the others are still checked;
    the server's stray stdout line and its stderr never reach ours."""
    server = cmd(SERVERS / "paged_server.py")
    proc = cli("check", "--json", "--server", server)
    assert proc.returncode == 1
    assert proc.stderr == ""
    data = report(proc)  # stdout is the report and nothing else
    got = {name: [code for code, _ in codes] for name, codes in findings(data).items()}
    assert got == {
        "echo": [],
        "batch": ["REF001", "REF002"],
        "no_schema": ["TYP009"],
        "array_root": ["TYP007"],
        "text_schema": ["TYP009"],
    }
    no_schema = next(t for t in data["tools"] if t["name"] == "no_schema")
    assert no_schema["issues"][0]["message"] == "the tool has no input schema"
    # the same listing from a file gives the same findings
    snapshot = tmp_path / "paged.json"
    snapshot.write_text(json.dumps({"tools": PAGED_TOOLS}))
    assert findings(report(cli_in_process("check", "--json", str(snapshot)))) == findings(data)


def test_never_answers_times_out() -> None:
    proc = cli_in_process("check", "--timeout", "2", "--server",
                          cmd(SERVERS / "silent_server.py"))
    assert proc.returncode == 2
    assert _error_line(proc).endswith(
        "silent_server.py: no answer to initialize within 2s (is this an MCP stdio server? "
        "it must read JSON-RPC on stdin and write only JSON-RPC to stdout; a first npx run "
        "may need a higher --timeout)")


def test_timeout_is_kept_in_process() -> None:
    """The whole failure path, process kill included, ends within --timeout plus about a
    second: the server ignores end of input and SIGTERM, so with the SDK's own shutdown grace
    periods (2 s after stdin closes, 2 s more after SIGTERM) it would take the timeout plus 4 s
    and more, and without the kill it would never end."""
    from schema_compat.extract.config import ServerSpec
    from schema_compat.extract.live import fetch_servers

    spec = ServerSpec("silent", "stdio", sys.executable, (str(SERVERS / "silent_server.py"),))
    start = time.monotonic()
    loaded, errors = fetch_servers([spec], timeout=1.5)
    elapsed = time.monotonic() - start
    assert loaded == []
    assert [e.message for e in errors] == ["no answer to initialize within 1.5s"]
    # 3 s of room above the timeout for a loaded machine, still 1 s short of the SDK's graces
    assert 1.5 <= elapsed < 1.5 + 3


def test_server_exits_with_error() -> None:
    server = cmd(SERVERS / "crash_server.py")
    proc = cli_in_process("check", "--server", server)
    assert proc.returncode == 2
    assert _error_line(proc) == (
        f"schema-compat: error: {server}: the server exited during start-up with exit code 3: "
        "loading config... | Error: API_TOKEN is not set "
        "(run the command by hand to see why it stops)")


def test_missing_command() -> None:
    proc = cli_in_process("check", "--server", "no-such-mcp-server --flag")
    assert proc.returncode == 2
    assert _error_line(proc) == (
        "schema-compat: error: no-such-mcp-server --flag: command not found: "
        "no-such-mcp-server (install it, or give its full path)")


def test_missing_working_directory(tmp_path: Path) -> None:
    missing = tmp_path / "gone"
    proc = cli_in_process("check", "--server", EXAMPLE_CMD, "--cwd", str(missing))
    assert proc.returncode == 2
    assert _error_line(proc) == (
        f"schema-compat: error: {EXAMPLE_CMD}: working directory {missing} does not exist "
        "(fix --cwd (or the server's cwd in the config))")


def test_env_and_cwd_reach_the_server(tmp_path: Path) -> None:
    """--env sets variables and --cwd the directory: the crash server is fine with neither,
    so use a one-line shim that fails unless both are right."""
    shim = tmp_path / "shim.py"
    shim.write_text(
        "import os, runpy, sys\n"
        f"sys.path.insert(0, {str(SERVERS)!r})\n"
        "assert os.environ['MODE'] == 'ok', 'MODE'\n"
        f"assert os.getcwd() == {str(tmp_path)!r}, os.getcwd()\n"
        f"sys.argv = [{str(SERVERS / 'paged_server.py')!r}]\n"
        f"runpy.run_path({str(SERVERS / 'paged_server.py')!r}, run_name='__main__')\n")
    proc = cli_in_process("check", "--json", "--server", cmd(shim), "--env", "MODE=ok",
                          "--cwd", str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    assert len(report(proc)["tools"]) == len(PAGED_TOOLS)


def test_live_options_need_their_partner() -> None:
    proc = cli_in_process("check", "--env", "A=1", "examples/fs_read_files.json")
    assert proc.returncode == 2
    assert _error_line(proc) == ("schema-compat: error: --env and --cwd apply to --server "
                                 "(add --server \"CMD ARGS\")")


def test_file_path_does_not_import_mcp() -> None:
    probe = ("import sys, schema_compat.cli, schema_compat.extract.config; "
             "print('mcp' in sys.modules)")
    import subprocess

    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# --- protocol eras, the user's environment, what a server said ---------------------------

MODERN = SERVERS / "modern_server.py"


def test_modern_only_server_over_stdio_is_listed_and_its_era_reported() -> None:
    """A server of the stateless 2026 era refuses `initialize`: the listing must come
    through `server/discover` and `_meta`-stamped requests, as the SDK's client does it."""
    proc = cli_in_process("check", "--json", "--server", cmd(MODERN))
    assert proc.returncode == 1, proc.stderr
    data = report(proc)
    assert [t["name"] for t in data["tools"]] == ["search_notes", "schedule", "echo"]
    assert data["errors"] == []
    assert data["servers"] == [{"source": cmd(MODERN), "transport": "stdio",
                                "era": "stateless", "protocol_version": "2026-07-28",
                                "server_name": "modern-only", "server_version": "1.0.0"}]


def test_modern_only_server_over_http() -> None:
    with serving(MODERN) as base:
        proc = cli_in_process("check", "--json", "--url", f"{base}/mcp")
    assert proc.returncode == 1, proc.stderr
    data = report(proc)
    assert [t["name"] for t in data["tools"]] == ["search_notes", "schedule", "echo"]
    assert [(s["era"], s["protocol_version"]) for s in data["servers"]] == [
        ("stateless", "2026-07-28")]


def test_handshake_era_is_reported() -> None:
    """A server that knows no `server/discover` (as every TypeScript server today) answers
    it "method not found", and the handshake follows."""
    paged = cmd(SERVERS / "paged_server.py")
    proc = cli_in_process("check", "--json", "--server", paged)
    assert proc.returncode == 1, proc.stderr
    assert report(proc)["servers"] == [{"source": paged, "transport": "stdio",
                                        "era": "handshake", "protocol_version": "2025-11-25",
                                        "server_name": "paged", "server_version": "1"}]


def test_a_server_of_both_eras_is_spoken_to_in_the_newest() -> None:
    """The example is built on the official Python SDK 2.3, which serves both eras; the
    SDK's client would pick the stateless one, and so do we."""
    proc = cli_in_process("check", "--json", "--server", EXAMPLE_CMD)
    assert proc.returncode == 1, proc.stderr
    (server,) = report(proc)["servers"]
    assert (server["era"], server["protocol_version"]) == ("stateless", "2026-07-28")


ENV_SERVER = cmd(SERVERS / "env_server.py")


def _without_demo_vars() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("DEMO_")}


def test_server_inherits_the_users_environment() -> None:
    """A key exported in the user's shell reaches the server, as when the command is run by
    hand; the SDK's default environment kept only HOME, PATH and a few more."""
    import os
    import subprocess

    env = {**_without_demo_vars(), "NO_COLOR": "1", "DEMO_API_KEY": "from-shell",
           "DEMO_REGION": "eu"}
    proc = subprocess.run([sys.executable, "-m", "schema_compat", "check", "--json",
                           "--server", ENV_SERVER], capture_output=True, text=True,
                          env=env, cwd=REPO_ROOT, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert report(proc)["tools"][0]["original_schema"]["description"] == "key=from-shell region=eu"
    assert "DEMO_API_KEY" not in os.environ  # the test's own environment is untouched


def test_env_option_is_layered_on_the_users_environment() -> None:
    import subprocess

    env = {**_without_demo_vars(), "NO_COLOR": "1", "DEMO_API_KEY": "from-shell",
           "DEMO_REGION": "eu"}
    proc = subprocess.run([sys.executable, "-m", "schema_compat", "check", "--json",
                           "--server", ENV_SERVER, "--env", "DEMO_REGION=us"],
                          capture_output=True, text=True, env=env, cwd=REPO_ROOT, timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert report(proc)["tools"][0]["original_schema"]["description"] == "key=from-shell region=us"


def test_config_env_block_is_layered_on_the_users_environment(tmp_path: Path) -> None:
    import subprocess

    config = tmp_path / ".mcp.json"
    command, *args = [sys.executable, str(SERVERS / "env_server.py")]
    config.write_text(json.dumps({"mcpServers": {"env": {
        "command": command, "args": args, "env": {"DEMO_API_KEY": "from-config"}}}}))
    env = {**_without_demo_vars(), "NO_COLOR": "1", "DEMO_REGION": "eu"}
    proc = subprocess.run([sys.executable, "-m", "schema_compat", "check", "--json",
                           "--config", str(config)], capture_output=True, text=True, env=env,
                          cwd=REPO_ROOT, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert report(proc)["tools"][0]["original_schema"]["description"] == "key=from-config region=eu"


def test_missing_key_shows_the_servers_own_words() -> None:
    import subprocess

    env = {**_without_demo_vars(), "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "schema_compat", "check",
                           "--server", ENV_SERVER], capture_output=True, text=True, env=env,
                          cwd=REPO_ROOT, timeout=60, check=False)
    assert proc.returncode == 2
    assert _error_line(proc) == (
        f"schema-compat: error: {ENV_SERVER}: the server exited during start-up with exit "
        "code 1: DEMO_API_KEY environment variable is required (run the command by hand to "
        "see why it stops)")


def test_json_rpc_error_in_an_http_400_is_what_is_reported() -> None:
    """The server's own words, not "HTTP 400 ... check the URL"."""
    with serving(SERVERS / "plain_http_server.py", "--refuse-tools") as base:
        url = f"{base}/mcp"
        proc = cli_in_process("check", "--url", url, "--timeout", "10")
    assert proc.returncode == 2
    assert _error_line(proc) == (
        f"schema-compat: error: {url}: HTTP 400 from {url}: the server answered tools/list "
        "with an error: Invalid cursor: page token expired (code -32602) (the server refused "
        "the request; see its logs)")


def test_garbage_on_stdout_is_named_not_blamed_on_our_kill() -> None:
    """A command that writes bytes that are not JSON-RPC until it is killed at the timeout
    was reported as "exited during start-up with exit code -15"."""
    garbage = cmd(SERVERS / "garbage_server.py")
    proc = cli_in_process("check", "--server", garbage, "--timeout", "2")
    assert proc.returncode == 2
    line = _error_line(proc)
    assert line.startswith(f"schema-compat: error: {garbage}: no answer to initialize within "
                           "2s; the server wrote ")
    assert "lines to stdout that are not JSON-RPC (first: " in line
    assert line.endswith("(an MCP stdio server must write only JSON-RPC to stdout; its logs "
                         "belong on stderr)")
    assert "exit code" not in line


def test_without_the_live_extra_the_error_says_how_to_install_it() -> None:
    """Without the MCP SDK (the `live` extra) a live source gave "internal error:
    ModuleNotFoundError"."""
    import subprocess

    blocked = ("import sys; sys.modules['mcp'] = None; "
               "from schema_compat.entry import main; sys.argv = ['schema-compat', 'check', "
               f"'--server', {EXAMPLE_CMD!r}]; main()")
    proc = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=60, check=False)
    assert proc.returncode == 2
    line = _error_line(proc)
    assert line.startswith("schema-compat: error: live servers need the MCP SDK, which is not "
                           "installed (")
    assert line.endswith("(install the live extra, in the schema-compat checkout: pipx "
                         "install --force '.[live]', or pip install '.[live]' into the "
                         "environment it runs from)")


def _on_a_terminal(*args: str, columns: int = 80) -> str:
    """Run the CLI on a pseudo-terminal `columns` wide; returns all it wrote there."""
    import os
    import subprocess

    leader, follower = os.openpty()
    env = {**os.environ, "COLUMNS": str(columns), "LINES": "24", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "schema_compat", *args], stdin=follower,
                            stdout=follower, stderr=follower, cwd=REPO_ROOT, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_progress_names_the_servers_still_awaited_and_fits_the_terminal() -> None:
    """The spinner said "Connecting to a, b, ……" and never moved past connecting."""
    import re

    silent = cmd(SERVERS / "silent_server.py")
    screen = _on_a_terminal("check", "--timeout", "3", "--server", silent,
                            "--server", cmd(SERVERS / "paged_server.py"))
    frames = {re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", f).strip()
              for f in screen.replace("\r", "\n").split("\n")}
    waiting = [f for f in frames if "Listing tools (" in f]
    assert any(re.search(r"Listing tools \(1/2 done\): waiting for …\S*/silent_server\.py "
                         r"\(negotiating\)$", f) for f in waiting), waiting
    assert all(len(f) <= 80 for f in waiting), max(waiting, key=len)


def test_text_report_names_the_protocol_each_server_spoke() -> None:
    paged, modern = cmd(SERVERS / "paged_server.py"), cmd(MODERN)
    proc = cli_in_process("check", "--server", paged, "--server", modern)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert f"listed live: {paged} (stdio), MCP 2025-11-25 (initialize handshake), paged 1" \
        in lines
    assert (f"listed live: {modern} (stdio), MCP 2026-07-28 (server/discover, stateless), "
            "modern-only 1.0.0") in lines
