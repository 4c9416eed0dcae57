"""Shared fixtures: repository paths and a helper that runs the CLI in a subprocess."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

REPO_ROOT = Path(__file__).resolve().parent.parent

# Every property test draws the same examples on every clone and every run: a failure is a
# bug to find, never one a fresh CI machine meets at random (as `required: [[]]` once was).
# Wider random searches: HYPOTHESIS_PROFILE=explore.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]

# A suite started in the background by a shell without job control (`make test &` in a
# script) ignores SIGINT, and every process it starts would inherit that: the tests that
# stop a run with ^C would wait for nothing. Python's own handler is reset on exec.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return REPO_ROOT / "tests" / "data" / "corpus"


def run_cli_process(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
    """Run `python -m schema_compat ARGS...` in the repo root; `input` goes to stdin."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "schema_compat", *args],
        input=input,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        check=False,
    )


@pytest.fixture
def run_cli() -> RunCli:
    """`run_cli_process`, as a fixture."""
    return run_cli_process


@pytest.fixture
def cli_here() -> RunCli:
    """`run_cli`'s command in-process (tests/inprocess.py), without the interpreter's
    start-up: for tests of what the command says and writes rather than of how a process of
    its own behaves (its output stream's encoding, its environment, signals)."""
    from inprocess import cli_in_process

    def run(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
        return cli_in_process(*args, input=input, columns=120)

    return run


# --- one worker for a module whose fixtures are costly ---------------------------------------
#
# xdist's `load` hands out tests one by one, so a module's tests land on every worker and each
# worker starts the module's servers or computes its results (module-scoped fixtures) and
# imports what its tests import. The modules below each go to one worker whole, those with
# the most tests first, before the rest; every other test is still handed out on its own.
# (xdist's `xdist_group` marker would say the same, but with pytest 9 its `--dist loadgroup`
# no longer groups anything.)

ONE_WORKER = frozenset({
    "test_extract_live.py",  # the example over streamable HTTP and SSE
    "test_init.py",  # init run as the installed command, with the example server
    "test_extract_config.py",  # the example over streamable HTTP
    "test_cli_sse_hint.py",  # the example over SSE
    "test_api.py",  # the plain example server's listing
    "test_playground_api.py",  # a playground
    "test_playground_security.py",  # a playground
    "test_playground_settings.py",  # a playground
    "test_strict_servers.py",  # a plain HTTP server
    "test_requests_bodies.py",  # the openai and anthropic SDKs, a 182-tool plan per provider
    "test_profiles.py",  # the corpus transformed for each provider
    "test_transform_invariants.py",  # the corpus transformed for gemini
    # the action's install step, run for real: pip builds the tree in place (its build/ and
    # egg-info), so two workers installing it at once break each other's build
    "test_action.py",
})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """For `-n N` (xdist's `load`, the default): `load` with the ONE_WORKER modules kept
    whole, through xdist's scope scheduler (which hands out the largest scopes first)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModulesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module.rsplit("/", 1)[-1] in ONE_WORKER else nodeid

    return ModulesTogether(config, log)  # type: ignore[arg-type]


# --- no process outlives the run ------------------------------------------------------------
#
# A test that leaves a process running leaves it on the developer's machine after the run (a
# server that ignores SIGTERM and end of input runs until someone kills it). The pytest
# process (each xdist worker) is made the subreaper of everything it starts (Linux), so a
# process whose parent died comes back to it rather than to init, where it can be seen: after
# each test the children are listed and the first test after which each appeared is noted; at
# the end of the session any still running fail the run, named with that test, and are
# killed. Children that exited (zombies, their parent gone) are reaped on the way.

_PR_SET_CHILD_SUBREAPER = 36
_first_seen: dict[int, str] = {}
_running_test = ["the first test"]


def _become_subreaper() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


_become_subreaper()


def _children() -> dict[int, tuple[str, str]]:
    """pid -> (state, command line) of this process's children (from /proc; {} elsewhere)."""
    me = os.getpid()
    pids: set[int] = set()
    tasks = Path(f"/proc/{me}/task")
    try:
        for task in tasks.iterdir():
            with contextlib.suppress(OSError):
                pids.update(int(p) for p in (task / "children").read_text().split())
    except OSError:
        return {}
    found: dict[int, tuple[str, str]] = {}
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        state = stat.rsplit(")", 1)[1].split()[0]
        found[pid] = (state, raw.replace(b"\0", b" ").decode(errors="replace").strip())
    return found


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


def _still_running(grace: float) -> dict[int, tuple[str, str]]:
    """The children still running once `grace` seconds have let the stopping ones stop."""
    deadline = time.monotonic() + grace
    while True:
        running = {}
        for pid, (state, command) in _children().items():
            if state == "Z":
                _reap(pid)
            else:
                running[pid] = (state, command)
        if not running or time.monotonic() >= deadline:
            return running
        time.sleep(0.05)


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    _running_test[0] = nodeid


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    for pid, (state, _) in _children().items():
        if state == "Z" and pid not in _first_seen:
            continue  # exited and not yet reaped by its parent (or by `_still_running`)
        _first_seen.setdefault(pid, nodeid)


@pytest.fixture(scope="session", autouse=True)
def _no_process_left_behind() -> Iterator[None]:
    """Fails the run (as an error in the last test's teardown, which xdist passes on) when
    a test left a process running."""
    yield
    left = _still_running(grace=3.0)
    if not left:
        return
    lines = []
    for pid, (_, command) in sorted(left.items()):
        lines.append(f"  pid {pid}: {command[:200]} (running since "
                     f"{_first_seen.get(pid, _running_test[0])})")
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    _still_running(grace=2.0)  # reaps the killed
    pytest.fail("tests left processes running (now killed):\n" + "\n".join(lines),
                pytrace=False)
