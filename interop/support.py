"""The interop suite's servers and helpers: real MCP servers, the official clients as references.

The servers come from the pinned installs `make interop` makes under .cache/interop/ (npm
packages in node/, PyPI packages in the venvs py/ and py-mcp1/); nothing is downloaded at test
time. A server that is missing there, or that does not answer within its start-up bound, fails
its test with its name: nothing here skips.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
INTEROP = REPO_ROOT / "interop"
# Where `make interop` installs the servers; another tree can point here to reuse the installs.
CACHE = Path(os.environ.get("SCHEMA_COMPAT_INTEROP_CACHE", REPO_ROOT / ".cache" / "interop"))
NODE_DIR = CACHE / "node"
NODE_BIN = NODE_DIR / "node_modules" / ".bin"
VENVS = {"py": CACHE / "py", "py-mcp1": CACHE / "py-mcp1"}
REQUIREMENTS = {"py": INTEROP / "requirements.txt", "py-mcp1": INTEROP / "requirements-mcp1.txt"}

# Seconds a server gets to start and list its tools: the CLI's --timeout and the reference
# clients' bound. Each client process as a whole gets STARTUP + GRACE.
STARTUP = 30.0
GRACE = 15.0


@dataclass(frozen=True)
class Server:
    """One real server: where it comes from and how it is started offline.

    `args` and `env` values may hold "{tmp}", the test's own scratch directory (a file
    server's root, a database file), so no server writes into the checkout or the cache.
    """

    package: str  # the npm or PyPI package, or a script for the local ones
    registry: str  # "npm", "pypi" or "local"
    bin: str  # the executable the package installs (local: a path in the checkout)
    sdk: str  # "ts" or "py": the official SDK it is built on
    venv: str = ""  # for "pypi": the key of VENVS it is installed in
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)  # dummy tokens, state files

    @property
    def version(self) -> str:
        if self.registry == "npm":
            return npm_version(self.package)
        if self.registry == "pypi":
            return pypi_version(self.venv, self.package)
        return "checkout"

    @property
    def label(self) -> str:
        return f"{self.registry}:{self.package}@{self.version}"

    def executable(self) -> Path:
        if self.registry == "npm":
            return NODE_BIN / self.bin
        if self.registry == "pypi":
            return VENVS[self.venv] / "bin" / self.bin
        return REPO_ROOT / self.bin

    def argv(self, tmp: Path) -> list[str]:
        """The command line; fails the test, naming the server, when it is not installed."""
        exe = self.executable()
        if not exe.exists():
            pytest.fail(f"{self.label} is not installed: {exe} is missing (`make interop` "
                        "installs the servers)", pytrace=False)
        head = [sys.executable, str(exe)] if self.registry == "local" else [str(exe)]
        return head + [a.replace("{tmp}", str(tmp)) for a in self.args]

    def environ(self, tmp: Path) -> dict[str, str]:
        return {k: v.replace("{tmp}", str(tmp)) for k, v in self.env.items()}


def npm_version(package: str) -> str:
    lock = json.loads((INTEROP / "package-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"].get(f"node_modules/{package}")
    return str(entry["version"]) if entry else "not-in-package-lock"


def pypi_version(venv: str, package: str) -> str:
    for line in REQUIREMENTS[venv].read_text(encoding="utf-8").splitlines():
        name, _, version = line.partition("==")
        if _normal(name) == _normal(package):
            return version.strip()
    return "not-in-requirements"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


# TypeScript-SDK servers from npm (interop/package.json). Each starts offline; the tokens are
# dummies, read only when a tool is called.
NPM_SERVERS = [
    Server("@modelcontextprotocol/server-everything", "npm", "mcp-server-everything", "ts"),
    Server("@modelcontextprotocol/server-memory", "npm", "mcp-server-memory", "ts",
           env={"MEMORY_FILE_PATH": "{tmp}/memory.jsonl"}),
    Server("@modelcontextprotocol/server-filesystem", "npm", "mcp-server-filesystem", "ts",
           args=("{tmp}",)),
    Server("@modelcontextprotocol/server-sequential-thinking", "npm",
           "mcp-server-sequential-thinking", "ts"),
    Server("@modelcontextprotocol/server-brave-search", "npm", "mcp-server-brave-search", "ts",
           env={"BRAVE_API_KEY": "dummy-brave-key"}),
    Server("@modelcontextprotocol/server-github", "npm", "mcp-server-github", "ts",
           env={"GITHUB_PERSONAL_ACCESS_TOKEN": "dummy-github-token"}),
    Server("@modelcontextprotocol/server-gitlab", "npm", "mcp-server-gitlab", "ts",
           env={"GITLAB_PERSONAL_ACCESS_TOKEN": "dummy-gitlab-token"}),
    Server("@modelcontextprotocol/server-google-maps", "npm", "mcp-server-google-maps", "ts",
           env={"GOOGLE_MAPS_API_KEY": "dummy-maps-key"}),
    Server("@modelcontextprotocol/server-slack", "npm", "mcp-server-slack", "ts",
           env={"SLACK_BOT_TOKEN": "xoxb-dummy", "SLACK_TEAM_ID": "T00000000"}),
    Server("@notionhq/notion-mcp-server", "npm", "notion-mcp-server", "ts",
           env={"NOTION_TOKEN": "ntn_dummy"}),
    Server("@upstash/context7-mcp", "npm", "context7-mcp", "ts"),
    Server("@sentry/mcp-server", "npm", "sentry-mcp", "ts",
           env={"SENTRY_ACCESS_TOKEN": "dummy-sentry-token"}),
    Server("firecrawl-mcp", "npm", "firecrawl-mcp", "ts",
           env={"FIRECRAWL_API_KEY": "fc-dummy"}),
]

# Python-SDK servers from PyPI (interop/requirements*.txt).
PYPI_SERVERS = [
    Server("mcp-server-time", "pypi", "mcp-server-time", "py", venv="py",
           args=("--local-timezone", "UTC")),
    Server("mcp-server-fetch", "pypi", "mcp-server-fetch", "py", venv="py"),
    Server("mcp-server-git", "pypi", "mcp-server-git", "py", venv="py"),
    Server("mcp-server-sqlite", "pypi", "mcp-server-sqlite", "py", venv="py-mcp1",
           args=("--db-path", "{tmp}/interop.db")),
    Server("mcp-server-calculator", "pypi", "mcp-server-calculator", "py", venv="py-mcp1"),
]

# Built here with the official Python SDK: the modern era (2026-07-28) alone.
MODERN = Server("modern_server.py", "local", "tests/servers/modern_server.py", "py")

STDIO_SERVERS = [*NPM_SERVERS, *PYPI_SERVERS, MODERN]

# npm packages that are clients, not servers under test.
NPM_CLIENTS = {"@modelcontextprotocol/sdk", "@modelcontextprotocol/client",
               "@modelcontextprotocol/inspector"}


# --- processes, bounded ----------------------------------------------------------------


def base_env(extra: Mapping[str, str] = {}) -> dict[str, str]:
    """This environment plus `extra`; the checkout's package first on the CLI's path."""
    env = {**os.environ, **extra, "NO_COLOR": "1", "COLUMNS": "200"}
    env.pop("FORCE_COLOR", None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return env


def _tail(text: str, lines: int = 6) -> str:
    kept = [ln for ln in text.splitlines() if ln.strip()][-lines:]
    return " | ".join(kept)[-800:]


def run_bounded(argv: list[str], *, what: str, env: Mapping[str, str], cwd: Path,
                timeout: float = STARTUP + GRACE) -> subprocess.CompletedProcess[str]:
    """Run `argv` in a process group of its own; fail the test, saying `what`, past `timeout`.

    The whole group is killed afterwards, so a server a client left behind goes too.
    """
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(env), cwd=cwd,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        pytest.fail(f"{what}: no result within {timeout:g}s; stderr: {_tail(err)}",
                    pytrace=False)
    finally:
        _kill_group(proc.pid)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):  # the group is gone already
        os.killpg(pgid, signal.SIGKILL)


def cli(*args: str, what: str, env: Mapping[str, str], cwd: Path
        ) -> subprocess.CompletedProcess[str]:
    """`schema-compat ARGS` from this checkout."""
    return run_bounded([sys.executable, "-m", "schema_compat", *args], what=what,
                       env=base_env(env), cwd=cwd)


def cli_json(*args: str, what: str, env: Mapping[str, str], cwd: Path) -> dict[str, Any]:
    """`schema-compat check --json ARGS`: the report, or a failure naming `what`."""
    proc = cli("check", "--json", *args, what=what, env=env, cwd=cwd)
    try:
        report: dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"{what}: exit {proc.returncode}, no JSON report; stderr: "
                    f"{_tail(proc.stderr)}", pytrace=False)
    if proc.returncode not in (0, 1) or report.get("errors"):
        pytest.fail(f"{what}: exit {proc.returncode}, errors: "
                    f"{json.dumps(report.get('errors'))}; stderr: {_tail(proc.stderr)}",
                    pytrace=False)
    report["exit_code"] = proc.returncode
    return report


def py_reference(target: list[str], *, what: str, env: Mapping[str, str], cwd: Path
                 ) -> dict[str, Any]:
    """The official Python client's listing (interop/py_list.py, the project venv's SDK)."""
    return _reference([sys.executable, str(INTEROP / "py_list.py"), *target],
                      what=f"{what} (official Python client)", env=env, cwd=cwd)


# The official TypeScript clients: the script that drives each and the package it imports.
TS_CLIENTS = {"sdk1": ("ts_list.mjs", "@modelcontextprotocol/sdk"),
              "sdk2": ("ts2_list.mjs", "@modelcontextprotocol/client")}


def ts_reference(target: list[str], *, what: str, env: Mapping[str, str], cwd: Path,
                 client: str = "sdk1") -> dict[str, Any]:
    """An official TypeScript client's listing: SDK 1 (`ts_list.mjs`, the handshake era) or
    SDK 2 (`ts2_list.mjs`, both eras negotiated in its `auto` mode).

    The script is copied next to the installed node_modules, where Node resolves its imports.
    """
    name, package = TS_CLIENTS[client]
    if not (NODE_DIR / "node_modules" / package).is_dir():
        pytest.fail(f"{what}: {package} is not installed in {NODE_DIR} "
                    "(`make interop` installs it)", pytrace=False)
    script, source = NODE_DIR / name, INTEROP / name
    if not script.exists() or script.read_bytes() != source.read_bytes():
        shutil.copyfile(source, script)
    node = shutil.which("node") or "node"
    return _reference([node, str(script), *target],
                      what=f"{what} (official TypeScript client, {package})", env=env, cwd=cwd)


def _reference(argv: list[str], *, what: str, env: Mapping[str, str], cwd: Path
               ) -> dict[str, Any]:
    proc = run_bounded(argv, what=what, env={**os.environ, **env}, cwd=cwd)
    if proc.returncode != 0:
        pytest.fail(f"{what}: exit {proc.returncode}: {_tail(proc.stderr)}", pytrace=False)
    listing: dict[str, Any] = json.loads(proc.stdout)
    return listing


# --- HTTP servers ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def listening(argv: list[str], port: int, *, what: str, env: Mapping[str, str], cwd: Path
              ) -> Iterator[str]:
    """Start an HTTP server and wait (at most STARTUP) until 127.0.0.1:port accepts; yields
    its base URL. Fails naming `what` if it exits or never listens."""
    log = cwd / f"server-{port}.log"
    with log.open("w", encoding="utf-8") as sink:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=sink, stderr=sink,
                                env={**os.environ, **env}, cwd=cwd, start_new_session=True)
    try:
        deadline = time.monotonic() + STARTUP
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{what} exited with {proc.returncode} before listening: "
                            f"{_tail(log.read_text(encoding='utf-8'))}", pytrace=False)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"{what} did not listen on 127.0.0.1:{port} within "
                                f"{STARTUP:g}s: {_tail(log.read_text(encoding='utf-8'))}",
                                pytrace=False)
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        _kill_group(proc.pid)
        proc.wait(timeout=10)


def quote(argv: list[str]) -> str:
    """A --server value for `argv`."""
    return shlex.join(argv)
