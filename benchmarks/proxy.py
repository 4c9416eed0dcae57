"""Proxy: what `schema-compat proxy` costs a client, measured against a direct session to the
same server, side by side in the same run.

The server is @modelcontextprotocol/server-everything when `make interop` has installed it
under .cache/interop/node/ (or $SCHEMA_COMPAT_EVERYTHING names its dist/index.js), else the
example server (examples/fs_server.py). The client is written here: raw JSON-RPC lines over
the process's pipes, one reader task matching answers to requests by id, so that what is
timed is the server and the proxy, not a client library.

- start-up: from starting the process to the answer to `tools/list` (after `initialize`);
- a call: sequential calls of a string-only tool, and of a tool whose stringified argument
  the proxy repairs (the direct session sends the repaired arguments), direct and proxied
  alternately; the added latency is the difference of the percentiles;
- a burst: N concurrent calls sent at once, wall time until the last answer;
- listings: repeated `tools/list`; the proxy's log must show each tool transformed and logged
  once (between two `notifications/tools/list_changed`);
- close: from closing the proxy's stdin to its exit.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import BIN, REPO_ROOT, Section, bench_env

_EVERYTHING = REPO_ROOT / ".cache/interop/node/node_modules/@modelcontextprotocol/" \
    "server-everything/dist/index.js"
_BURST = 50
_DEADLINE = 60.0


@dataclass
class Server:
    label: str
    argv: list[str]
    call: tuple[str, dict[str, Any]]  # a tool that needs no repair
    repair: tuple[str, dict[str, Any], dict[str, Any]]  # tool, stringified, repaired


def _server(tmp: Path) -> Server:
    everything = Path(os.environ.get("SCHEMA_COMPAT_EVERYTHING", _EVERYTHING))
    if everything.is_file():
        return Server("server-everything", ["node", str(everything), "stdio"],
                      ("echo", {"message": "hello"}),
                      ("get-sum", {"a": "2", "b": "3"}, {"a": 2, "b": 3}))
    sample = tmp / "sample.txt"
    sample.write_text("one\ntwo\nthree\n")
    files = [{"path": str(sample), "head": 1}]
    example = str(REPO_ROOT / "examples/fs_server.py")
    return Server("examples/fs_server.py", [sys.executable, example],
                  ("read_files", {"files": files}),
                  ("read_files", {"files": json.dumps([{"path": str(sample), "head": "1"}])},
                   {"files": files}))


class Session:
    """One MCP stdio session over a process's pipes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0
        self.reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, argv: Sequence[str]) -> Session:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, cwd=REPO_ROOT, env=bench_env(),
            limit=64 * 1024 * 1024)
        return cls(proc)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            msg = json.loads(line)
            if "method" in msg:
                if "id" in msg:  # a server request (e.g. ping): answer it
                    self._send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
                continue
            future = self.waiting.pop(msg.get("id"), None)
            if future is not None and not future.done():
                future.set_result(msg)

    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")

    def request(self, method: str, params: dict[str, Any] | None = None
                ) -> asyncio.Future[dict[str, Any]]:
        self.next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self._send(msg)
        return future

    async def answer(self, method: str, params: dict[str, Any] | None = None
                     ) -> dict[str, Any]:
        """The answer to one request; a failure (not a hang) past _DEADLINE seconds."""
        try:
            return await asyncio.wait_for(self.request(method, params), _DEADLINE)
        except TimeoutError:
            raise RuntimeError(f"{method}: no answer within {_DEADLINE:g}s") from None

    async def handshake(self) -> dict[str, Any]:
        await self.answer("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                         "clientInfo": {"name": "bench", "version": "0"}})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return await self.answer("tools/list")

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = await self.answer("tools/call", {"name": name, "arguments": arguments})
        result = answer.get("result")
        if not isinstance(result, dict) or result.get("isError"):
            raise RuntimeError(f"tools/call {name} failed: {json.dumps(answer)[:300]}")
        return result

    async def close(self) -> float:
        """Seconds from closing stdin to the process's exit."""
        assert self.proc.stdin is not None
        start = time.perf_counter()
        self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        seconds = time.perf_counter() - start
        self.reader.cancel()
        return seconds


def _cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _startup(argv: Sequence[str]) -> tuple[float, float]:
    start = time.perf_counter()
    session = await Session.start(argv)
    await session.handshake()
    ready = time.perf_counter() - start
    return ready, await session.close()


async def _measure(server: Server, proxy: list[str], calls: int, repeats: int,
                   log: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    direct_start, proxy_start, direct_close, proxy_close = [], [], [], []
    await _startup(server.argv)  # warm-up: page cache, bytecode
    await _startup(proxy)
    for _ in range(repeats):
        ready, closed = await _startup(server.argv)
        direct_start.append(ready)
        direct_close.append(closed)
        ready, closed = await _startup(proxy)
        proxy_start.append(ready)
        proxy_close.append(closed)
    out["start"] = (statistics.median(direct_start), statistics.median(proxy_start))
    out["close"] = (statistics.median(direct_close), statistics.median(proxy_close))

    log.write_text("")
    direct, proxied = await Session.start(server.argv), await Session.start(proxy)
    listing = (await direct.handshake())["result"]["tools"]
    await proxied.handshake()
    name, args = server.call
    rname, stringified, repaired = server.repair
    for _ in range(20):  # warm-up
        await direct.call(name, args)
        await proxied.call(name, args)
    lat: dict[str, list[float]] = {k: [] for k in ("d", "p", "dr", "pr")}
    cpu0 = _cpu_seconds(proxied.proc.pid)
    for _ in range(calls):
        for key, session, tool, arguments in (("d", direct, name, args),
                                              ("p", proxied, name, args),
                                              ("dr", direct, rname, repaired),
                                              ("pr", proxied, rname, stringified)):
            t0 = time.perf_counter()
            await session.call(tool, arguments)
            lat[key].append(time.perf_counter() - t0)
    out["cpu_per_call"] = (_cpu_seconds(proxied.proc.pid) - cpu0) / (2 * calls)
    out["lat"] = lat

    bursts: dict[str, list[float]] = {"d": [], "p": []}
    for _ in range(4 * repeats + 1):
        for key, session in (("d", direct), ("p", proxied)):
            t0 = time.perf_counter()
            await asyncio.gather(*(session.call(name, {**args, "message": f"m{i}"}
                                                if "message" in args else args)
                                   for i in range(_BURST)))
            bursts[key].append(time.perf_counter() - t0)
    out["burst"] = (statistics.median(bursts["d"]), statistics.median(bursts["p"]))

    lists: dict[str, list[float]] = {"d": [], "p": []}
    for _ in range(10):
        for key, session in (("d", direct), ("p", proxied)):
            t0 = time.perf_counter()
            await session.answer("tools/list")
            lists[key].append(time.perf_counter() - t0)
    out["list"] = (statistics.median(lists["d"]), statistics.median(lists["p"]))
    await direct.close()
    await proxied.close()
    lines = log.read_text(encoding="utf-8").splitlines()
    # how often each tool's changes were logged between two list_changed notifications
    per_tool: dict[str, int] = {}
    most = 0
    for line in lines:
        if "tools/list_changed:" in line:
            per_tool.clear()
        elif " change(s) (" in line and "tools/list " in line:
            tool = line.split("tools/list ", 1)[1].split(":", 1)[0]
            per_tool[tool] = per_tool.get(tool, 0) + 1
            most = max(most, per_tool[tool])
    out["logged"] = (most, len(per_tool), len(listing))
    return out


def run(repeats: int = 5, calls: int = 300) -> list[Section]:
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        server = _server(tmp)
        log = tmp / "proxy.log"
        proxy = [str(BIN / "schema-compat"), "proxy", "--provider", "gemini", "--log",
                 str(log), "--", *server.argv]
        r = asyncio.run(_measure(server, proxy, calls, repeats, log))
    ms = 1e3
    lat = r["lat"]
    add50 = (_pct(lat["p"], 0.5) - _pct(lat["d"], 0.5)) * ms
    add99 = (_pct(lat["p"], 0.99) - _pct(lat["d"], 0.99)) * ms
    radd50 = (_pct(lat["pr"], 0.5) - _pct(lat["dr"], 0.5)) * ms
    radd99 = (_pct(lat["pr"], 0.99) - _pct(lat["dr"], 0.99)) * ms
    section = Section(f"Proxy: {server.label} direct and through schema-compat proxy "
                      f"({calls} calls of each kind, medians of {repeats} start-ups and "
                      "bursts)", ["measure", "direct", "proxy", "added", "target"])
    (ds, ps), (dc, pc) = r["start"], r["close"]
    section.rows += [
        ["start-up: process start to tools/list answered (ms)", f"{ds * ms:.0f}",
         f"{ps * ms:.0f}", f"{(ps - ds) * ms:+.0f}", "≤ +200"],
        [f"tools/call {server.call[0]}: p50 / p99 (ms)",
         f"{_pct(lat['d'], 0.5) * ms:.2f} / {_pct(lat['d'], 0.99) * ms:.2f}",
         f"{_pct(lat['p'], 0.5) * ms:.2f} / {_pct(lat['p'], 0.99) * ms:.2f}",
         f"{add50:+.2f} / {add99:+.2f}", "≤ +0.3 / ≤ +1"],
        [f"tools/call {server.repair[0]} repaired by the proxy: p50 / p99 (ms)",
         f"{_pct(lat['dr'], 0.5) * ms:.2f} / {_pct(lat['dr'], 0.99) * ms:.2f}",
         f"{_pct(lat['pr'], 0.5) * ms:.2f} / {_pct(lat['pr'], 0.99) * ms:.2f}",
         f"{radd50:+.2f} / {radd99:+.2f}", ""],
        ["proxy CPU per call (ms)", "", f"{r['cpu_per_call'] * ms:.2f}", "", ""],
        [f"{_BURST} concurrent {server.call[0]} calls: wall (ms)", f"{r['burst'][0] * ms:.1f}",
         f"{r['burst'][1] * ms:.1f}", f"{r['burst'][1] / r['burst'][0]:.2f}x", "≤ 1.2x"],
        ["tools/list, again (ms)", f"{r['list'][0] * ms:.2f}", f"{r['list'][1] * ms:.2f}",
         f"{(r['list'][1] - r['list'][0]) * ms:+.2f}", ""],
        ["close: stdin closed to exit (ms)", f"{dc * ms:.0f}", f"{pc * ms:.0f}", "",
         "proxy ≤ 50"],
    ]
    most, tools_logged, tools = r["logged"]
    section.verdict("start-up adds at most 0.2 s", ps - ds <= 0.2, f"{(ps - ds) * ms:+.0f} ms")
    section.verdict("a call adds at most 0.3 ms at p50 and 1 ms at p99",
                    add50 <= 0.3 and add99 <= 1.0, f"{add50:+.2f} ms / {add99:+.2f} ms")
    section.verdict(f"{_BURST} concurrent calls at most 1.2x the direct wall time",
                    r["burst"][1] <= 1.2 * r["burst"][0],
                    f"{r['burst'][1] / r['burst'][0]:.2f}x")
    section.verdict("a listing is transformed and logged once", most == 1,
                    f"{tools_logged} of {tools} tools changed, each logged at most {most} "
                    f"time(s) over 11 tools/list")
    section.verdict("close within 50 ms", pc <= 0.05, f"{pc * ms:.0f} ms")
    section.notes.append("added = proxy minus direct, each percentile over its own calls; the "
                         "repaired call is sent stringified to the proxy and already repaired "
                         "to the direct session, so both servers do the same work")
    section.notes.append("close is the proxy's own exit; the server's own exit after its stdin "
                         "closes is the direct column")
    return [section]
