"""No server outlives the command that started it.

A stdio server that ignores SIGTERM and the end of its input (tests/servers/silent_server.py,
which writes its pid to the file it is given) is started by a live check, by the playground's
live listing and by the proxy; the command is then stopped the way a shell, a CI runner or an
MCP client stops it, in the middle of its work. The server must be gone soon after: a process
left running would stay on the user's machine until someone kills it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import PY, REPO_ROOT, SERVERS, cmd
from playground_launch import playground, request

SILENT = SERVERS / "silent_server.py"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


def _pid(pidfile: Path, within: float = 30) -> int:
    deadline = time.monotonic() + within
    while not pidfile.exists():
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    return int(pidfile.read_text())


def _running(pid: int) -> bool:
    """Alive and not a zombie (a stopped server whose parent is gone may wait to be reaped
    by the test process, which conftest.py makes the subreaper)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _assert_gone(pid: int, within: float = 3.0) -> None:
    deadline = time.monotonic() + within
    while _running(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            pytest.fail(f"the server (pid {pid}) outlived the command that started it")
        time.sleep(0.02)


def test_a_live_check_stopped_by_sigterm_stops_its_servers(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    proc = subprocess.Popen([PY, "-m", "schema_compat", "check", "--timeout", "60",
                             "--server", cmd(SILENT, pidfile)], cwd=REPO_ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = _pid(pidfile)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 128 + signal.SIGTERM
    _assert_gone(pid)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_the_playground_stopped_mid_listing_stops_the_server(tmp_path: Path,
                                                             signum: int) -> None:
    pidfile = tmp_path / "pid"
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"silent": {
        "command": PY, "args": [str(SILENT), str(pidfile)]}}}))
    with playground(tmp_path) as served:
        answer = request(served, "POST", "api/live",
                         body={"config": str(config), "server": "silent"},
                         headers={"Origin": served.origin})
        assert answer.status == 202, answer.body
        pid = _pid(pidfile)
        served.proc.send_signal(signum)
        assert served.proc.wait(timeout=10) == 0
    _assert_gone(pid)


def test_the_proxy_stopped_by_sigterm_as_soon_as_its_upstream_runs_stops_it(
        tmp_path: Path) -> None:
    """SIGTERM right after the upstream started: while the proxy still loads the engine
    (when the machine is busy) or once it serves; either way the upstream goes with it."""
    pidfile = tmp_path / "pid"
    proc = subprocess.Popen([PY, "-m", "schema_compat", "proxy", "--", PY, str(SILENT),
                             str(pidfile)], cwd=REPO_ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = _pid(pidfile)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) in (0, 128 + signal.SIGTERM)
    assert proc.stdin is not None
    proc.stdin.close()
    _assert_gone(pid)


HOSTILE = SERVERS / "hostile_server.py"


def test_a_live_check_stops_the_child_its_server_left_behind(tmp_path: Path) -> None:
    """The server answers, exits at the end of its input, and leaves a child of its own
    that ignores SIGTERM: the check stops the server's whole process group."""
    pidfile = tmp_path / "pid"
    proc = subprocess.run([PY, "-m", "schema_compat", "check", "--timeout", "30", "--server",
                           cmd(HOSTILE, "fork", pidfile)], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "1 tool: 1 compatible" in proc.stdout
    _assert_gone(_pid(pidfile, within=0))


@pytest.mark.parametrize("how", ["end of input", "SIGTERM"])
def test_the_proxy_stops_the_child_its_upstream_left_behind(tmp_path: Path, how: str) -> None:
    pidfile = tmp_path / "pid"
    proc = subprocess.Popen([PY, "-m", "schema_compat", "proxy", "--", PY, str(HOSTILE),
                             "fork", str(pidfile)], cwd=REPO_ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = _pid(pidfile)
    assert proc.stdin is not None
    if how == "SIGTERM":
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) in (0, 128 + signal.SIGTERM)
        proc.stdin.close()
    else:
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    _assert_gone(child)


def test_the_gateway_stops_the_child_its_upstream_left_behind(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"forking": {
        "command": PY, "args": [str(HOSTILE), "fork", str(pidfile)]}}}))
    proc = subprocess.Popen([PY, "-m", "schema_compat", "proxy", "--config", str(config)],
                            cwd=REPO_ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = _pid(pidfile)
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=10) == 0
    _assert_gone(child)
