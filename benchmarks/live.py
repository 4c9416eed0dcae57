"""Live: what `check --server` adds beyond the example MCP server's own start-up.

The floor is a bare stdio client written here: start `python examples/fs_server.py`, send
`initialize`, `notifications/initialized` and `tools/list` as JSON lines, read the listing,
close stdin and wait for the server to exit. The measured command does the same through the
MCP SDK and then checks the tools. Both are timed alternately, medians of several runs.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from .common import BIN, REPO_ROOT, Section, bench_env, time_command, time_commands

_SERVER = [sys.executable, "examples/fs_server.py"]
_MESSAGES = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
]


def bare_listing() -> tuple[float, int]:
    """Seconds for the server to start, answer tools/list and exit; how many tools it listed."""
    start = time.perf_counter()
    proc = subprocess.Popen(_SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=REPO_ROOT,
                            env=bench_env())
    assert proc.stdin is not None and proc.stdout is not None
    tools = -1
    proc.stdin.write(json.dumps(_MESSAGES[0]) + "\n")
    proc.stdin.flush()
    for line in proc.stdout:
        reply = json.loads(line)
        if reply.get("id") == 1:
            proc.stdin.write(json.dumps(_MESSAGES[1]) + "\n" + json.dumps(_MESSAGES[2]) + "\n")
            proc.stdin.flush()
        elif reply.get("id") == 2:
            tools = len(reply["result"]["tools"])
            break
    proc.stdin.close()
    proc.wait(timeout=30)
    return time.perf_counter() - start, tools


def run(repeats: int = 5) -> list[Section]:
    server = " ".join(_SERVER)
    ours_argv = [str(BIN / "schema-compat"), "check", "--server", server]
    bare_listing()  # warm-up: bytecode and page cache
    time_command(ours_argv, 0)
    bare, ours_times, tools = [], [], 0
    for _ in range(repeats):  # alternately, so that load on the machine hits both alike
        secs, tools = bare_listing()
        bare.append(secs)
        ours_times.append(time_command(ours_argv, 1))
    floor, ours = statistics.median(bare), statistics.median(ours_times)
    base = time_commands({"pass": [sys.executable, "-c", "pass"],
                          "live": [sys.executable, "-P", "-c",  # -P: the installed build
                                   "import schema_compat.extract.live"]},
                         repeats)
    section = Section(f"Live: check --server (median of {repeats} runs)",
                      ["command", "ms", "overhead ms", "vs bare"])
    section.rows.append([f"bare stdio client: start server, tools/list ({tools} tools), exit",
                         f"{floor * 1e3:.0f}", "—", "1.00x"])
    section.rows.append([f'schema-compat check --server "{server}"', f"{ours * 1e3:.0f}",
                         f"{(ours - floor) * 1e3:.0f}", f"{ours / floor:.2f}x"])
    section.rows.append(["context: importing the live module (MCP SDK, anyio, httpx) beyond "
                         "python -c pass", f"{(base['live'] - base['pass']) * 1e3:.0f}", "", ""])
    section.notes.append("the overhead is the CLI's start-up, the MCP SDK's import and session, "
                         "and the check itself; there is no target for it in the issue")
    return [section]
