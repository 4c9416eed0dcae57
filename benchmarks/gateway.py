"""`schema-compat proxy --config` with three real servers: its start-up against the slowest
server's own and against all three started at once, and its cost per call.

    .venv/bin/python -m benchmarks.gateway [ROUNDS]      (after `make interop` made its cache)

The servers are interop's (server-github and server-gitlab from npm, mcp-server-time from
PyPI). Every client is the official Python client (ClientSession over stdio_client).

- start-up: from starting the client's server process to the answer of `tools/list` after
  `initialize`, for each server alone, for the three at once (three clients in parallel: the
  floor on this machine, where their start-ups share the cores), and for the gateway serving
  the three; each round in that order, medians over the rounds;
- per call: `get_current_time` on mcp-server-time directly, through the gateway and through
  the one-server proxy, the three sessions open side by side and called in turns of 20, so
  that the machine's load falls on each alike; medians.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interop"))

from support import NPM_SERVERS, PYPI_SERVERS, base_env

_SERVERS = {s.package: s for s in [*NPM_SERVERS, *PYPI_SERVERS]}
_CONFIG = {"github": "@modelcontextprotocol/server-github",
           "gitlab": "@modelcontextprotocol/server-gitlab", "time": "mcp-server-time"}
_CALL = ("get_current_time", {"timezone": "UTC"})


async def _ready(command: str, args: list[str], env: dict[str, str]) -> float:
    """Seconds from the start to the answer of tools/list."""
    start = time.perf_counter()
    params = StdioServerParameters(command=command, args=args, env=env)
    with open(os.devnull, "w") as devnull:
        async with stdio_client(params, errlog=devnull) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            return time.perf_counter() - start


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    tmp = Path(tempfile.mkdtemp(prefix="gateway-bench-"))
    servers = {name: _SERVERS[package] for name, package in _CONFIG.items()}
    argv = {name: s.argv(tmp) for name, s in servers.items()}
    env = {**base_env(), **{k: v for s in servers.values() for k, v in s.environ(tmp).items()}}
    config = tmp / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        name: {"command": a[0], "args": a[1:], "env": servers[name].environ(tmp)}
        for name, a in argv.items()}}), encoding="utf-8")
    gateway = [sys.executable, "-m", "schema_compat", "proxy", "--config", str(config),
               "--provider", "gemini", "--log", str(tmp / "gateway.log")]

    async def together() -> float:
        start = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for a in argv.values():
                tg.start_soon(_ready, a[0], a[1:], env)
        return time.perf_counter() - start

    starts: dict[str, list[float]] = {}
    for _ in range(rounds):
        for name, a in argv.items():
            starts.setdefault(f"{name} alone", []).append(anyio.run(_ready, a[0], a[1:], env))
        starts.setdefault("all three at once", []).append(anyio.run(together))
        starts.setdefault("proxy --config (gateway)", []).append(
            anyio.run(_ready, gateway[0], gateway[1:], env))
    slowest = max(statistics.median(v) for k, v in starts.items() if k.endswith("alone"))
    print(f"start-up, medians of {rounds} rounds (load average {os.getloadavg()[0]:.1f}):")
    for what, values in starts.items():
        median = statistics.median(values)
        print(f"  {what}: {median * 1000:.0f} ms ({median / slowest:.2f}x slowest alone)")

    time_server = argv["time"]
    targets = {"direct": time_server,
               "proxy --config (gateway)": gateway,
               "proxy -- (one server)": [sys.executable, "-m", "schema_compat", "proxy",
                                          "--provider", "gemini", "--log",
                                          str(tmp / "proxy.log"), "--", *time_server]}

    async def calls() -> dict[str, list[float]]:
        latencies: dict[str, list[float]] = {k: [] for k in targets}
        async with AsyncExitStack() as stack:
            devnull = stack.enter_context(open(os.devnull, "w"))  # noqa: SIM115
            sessions: dict[str, Any] = {}
            for what, command in targets.items():
                params = StdioServerParameters(command=command[0], args=command[1:], env=env)
                read, write = await stack.enter_async_context(
                    stdio_client(params, errlog=devnull))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                await session.list_tools()
                for _ in range(20):  # warm: validators built, code paths loaded
                    await session.call_tool(*_CALL)
                sessions[what] = session
            for _ in range(rounds * 5):
                for what, session in sessions.items():
                    for _ in range(20):
                        start = time.perf_counter()
                        await session.call_tool(*_CALL)
                        latencies[what].append(time.perf_counter() - start)
        return latencies

    latencies = anyio.run(calls)
    direct = statistics.median(latencies["direct"])
    print(f"per call, medians of {len(latencies['direct'])} calls each "
          f"(load average {os.getloadavg()[0]:.1f}):")
    for what, values in latencies.items():
        median = statistics.median(values)
        print(f"  {what}: {median * 1000:.2f} ms (+{(median - direct) * 1000:.2f} ms)")


if __name__ == "__main__":
    main()
