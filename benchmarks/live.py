"""Live: what `check --server` adds beyond the example MCP server's own start-up, and what
`check --config` with five real servers adds beyond the slowest one's.

The floor is a bare stdio client written here: start the server, send `initialize`,
`notifications/initialized` and `tools/list` as JSON lines, read the listing, close stdin and
wait for the server to exit. The measured command does the same through the MCP SDK and then
checks the tools. Both are timed alternately, medians of several runs. The config benchmark
uses the real servers `make interop` installs under .cache/interop (target: at most 1.2x the
slowest server's own start-up).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import BIN, REPO_ROOT, Section, bench_env, time_command, time_commands

_SERVER = [sys.executable, "examples/fs_server.py"]
_MESSAGES = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
]


def bare_listing(server: list[str] = _SERVER) -> tuple[float, int]:
    """Seconds for the server to start, answer tools/list and exit; how many tools it listed."""
    start = time.perf_counter()
    proc = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=REPO_ROOT,
                            env=bench_env())
    assert proc.stdin is not None and proc.stdout is not None
    tools = -1
    proc.stdin.write(json.dumps(_MESSAGES[0]) + "\n")
    proc.stdin.flush()
    for line in proc.stdout:
        try:
            reply = json.loads(line)
        except ValueError:
            continue  # a banner some servers print on stdout
        if not isinstance(reply, dict):
            continue
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
    return [section, config_section(repeats)]


_INTEROP = REPO_ROOT / ".cache" / "interop"
# Five real servers of both SDKs, as `make interop` installs them.
_CONFIG_SERVERS = {
    "memory": "node/node_modules/.bin/mcp-server-memory",
    "everything": "node/node_modules/.bin/mcp-server-everything",
    "sequential-thinking": "node/node_modules/.bin/mcp-server-sequential-thinking",
    "time": "py/bin/mcp-server-time",
    "git": "py/bin/mcp-server-git",
}


def config_section(repeats: int) -> Section:
    title = f"Live: check --config with {len(_CONFIG_SERVERS)} real servers (median of " \
            f"{repeats} runs)"
    section = Section(title, ["command", "ms", "vs slowest server"])
    commands = {name: [str(_INTEROP / path)] for name, path in _CONFIG_SERVERS.items()}
    missing = [name for name, argv in commands.items() if not Path(argv[0]).exists()]
    if missing:
        section.rows.append([f"not measured: {', '.join(missing)} not installed "
                             "(run `make interop` first)", "—", "—"])
        return section
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "mcp.json"
        config.write_text(json.dumps({"mcpServers": {
            name: {"command": argv[0]} for name, argv in commands.items()}}))
        ours_argv = [str(BIN / "schema-compat"), "check", "--json", "--config", str(config)]
        for argv in commands.values():  # warm-up: bytecode and page cache
            bare_listing(argv)
        time_command(ours_argv, 0)
        own: dict[str, list[float]] = {name: [] for name in commands}
        ours_times: list[float] = []
        together: list[float] = []
        for _ in range(repeats):  # alternately, so that load on the machine hits both alike
            for name, argv in commands.items():
                own[name].append(bare_listing(argv)[0])
            together.append(_all_at_once(list(commands.values())))
            ours_times.append(time_command(ours_argv, 1))
    medians = {name: statistics.median(times) for name, times in own.items()}
    slowest = max(medians.values())
    for name, secs in medians.items():
        section.rows.append([f"{name}: its own start-up and tools/list (bare client)",
                             f"{secs * 1e3:.0f}", f"{secs / slowest:.2f}x"])
    ours, floor = statistics.median(ours_times), statistics.median(together)
    section.rows.append(["bare clients for all five at once (the floor on this machine's "
                         "cores)", f"{floor * 1e3:.0f}", f"{floor / slowest:.2f}x"])
    section.rows.append(["schema-compat check --config (all five at once)",
                         f"{ours * 1e3:.0f}", f"{ours / slowest:.2f}x"])
    section.verdict("check --config with 5 real servers: at most 1.2x the slowest server's "
                    "own start-up", ours <= 1.2 * slowest, f"{ours / slowest:.2f}x")
    section.notes.append("each server's own start-up is measured alone; started together they "
                         "share the machine's cores, which the floor row measures without "
                         f"schema-compat: ours is {ours / floor:.2f}x that floor; the SDK is "
                         "loaded while the servers start")
    return section


def _all_at_once(servers: list[list[str]]) -> float:
    """Seconds until every server, started at the same moment, has listed its tools."""
    from concurrent.futures import ThreadPoolExecutor

    start = time.perf_counter()
    with ThreadPoolExecutor(len(servers)) as pool:
        list(pool.map(bare_listing, servers))
    return time.perf_counter() - start
