"""Helpers shared by the live tests: run the CLI, start the example over HTTP or SSE."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
SERVERS = REPO_ROOT / "tests" / "servers"
EXAMPLE = REPO_ROOT / "examples" / "fs_server.py"
PY = sys.executable


def cmd(*parts: str | Path) -> str:
    """A --server value: the test interpreter and a script (paths quoted for shlex)."""
    import shlex

    return " ".join(shlex.quote(str(p)) for p in (PY, *parts))


def cli(*args: str, cwd: Path | str = REPO_ROOT, env: Mapping[str, str] | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    full_env.pop("FORCE_COLOR", None)
    return subprocess.run([PY, "-m", "schema_compat", *args], capture_output=True, text=True,
                          cwd=cwd, env=full_env, check=False, timeout=timeout)


def report(proc: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(proc.stdout)


def findings(data: Any, key: str = "issues") -> dict[str, list[tuple[str, str]]]:
    """tool name -> [(code, path)] from a JSON report."""
    return {t["name"]: sorted((i["code"], i["path"]) for i in t[key]) for t in data["tools"]}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def example_over(mode: str, token: str | None = None) -> Iterator[str]:
    """Run examples/fs_server.py with --http or --sse on a free port; yields its base URL."""
    with serving(EXAMPLE, f"--{mode}", *(["--token", token] if token else [])) as base:
        yield base


@contextmanager
def serving(script: Path, *extra: str) -> Iterator[str]:
    """Run `script --port PORT EXTRA...` on a free port until it listens; yields its base
    URL."""
    port = free_port()
    args = [PY, str(script), "--port", str(port), *extra]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=REPO_ROOT)
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {proc.stderr.read()!r}"
                                   if proc.stderr else "the server exited")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()
