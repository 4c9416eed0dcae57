"""Shared fixtures: repository paths and a helper that runs the CLI in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
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


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return REPO_ROOT / "tests" / "data" / "corpus"


@pytest.fixture
def run_cli() -> RunCli:
    """Run `python -m schema_compat ARGS...` in the repo root; `input` goes to stdin."""

    def run(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
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

    return run
