"""Timing, memory and reporting helpers shared by the benchmark modules.

The machine is shared and noisy, so every figure is the median of several runs and the
headline numbers are ratios between things measured side by side in the same run.
"""

from __future__ import annotations

import gc
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CACHE_HINT = ("generated inputs are cached in .cache/bench/ (or $SCHEMA_COMPAT_BENCH_DIR); "
              "delete it to regenerate")


def median_time(fn: Callable[[], Any], repeats: int, warmup: int = 1) -> float:
    """Median wall time of `fn()` in seconds; the garbage collector runs between calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass
class ProcResult:
    seconds: float
    peak_rss_mb: float
    returncode: int
    stderr: str = ""


_RSS_WRAPPER = (
    "import resource, subprocess, sys\n"
    "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "sys.stderr.write(p.stderr.decode(errors='replace')[-2000:])\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(p.returncode)\n"
)


def measure_process(argv: Sequence[str], timeout: float = 600) -> ProcResult:
    """Wall time and peak RSS of one command, run under a small wrapper of its own."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _RSS_WRAPPER, *argv], capture_output=True,
                          text=True, cwd=REPO_ROOT, env=bench_env(), timeout=timeout,
                          check=False)
    seconds = time.perf_counter() - start
    lines = proc.stdout.strip().splitlines()
    kb = float(lines[-1]) if lines else 0.0
    return ProcResult(seconds, kb / 1024, proc.returncode, proc.stderr)


def bench_env() -> dict[str, str]:
    """The user's environment, minus what would distort start-up: bytecode is written and
    read as for a normal install, and no colour or terminal width is forced."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("FORCE_COLOR", None)
    env["NO_COLOR"] = "1"
    return env


def time_command(argv: Sequence[str], repeats: int) -> float:
    """Median wall time of a command in seconds, after one warm-up run."""
    return time_commands({"cmd": argv}, repeats)["cmd"]


def time_commands(commands: dict[str, Sequence[str]], repeats: int) -> dict[str, float]:
    """Median wall time of each command, run round-robin (one of each, `repeats` times, after
    a warm-up round) so that a burst of load on the shared machine hits them all alike."""
    env = bench_env()
    times: dict[str, list[float]] = {label: [] for label in commands}
    for i in range(repeats + 1):  # round 0 is the warm-up
        for label, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           cwd=REPO_ROOT, env=env, check=False)
            if i:
                times[label].append(time.perf_counter() - start)
    return {label: statistics.median(ts) if ts else 0.0 for label, ts in times.items()}


def machine() -> dict[str, str]:
    """What the doc records next to the results."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    versions = {}
    for name in ("typer", "rich", "pydantic", "pydantic-ai-slim", "google-genai",
                 "langchain-google-genai"):
        versions[name] = _version(name)
    return {
        "cpu": cpu, "cpus": str(os.cpu_count()), "memory": mem,
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        **{f"pkg:{k}": v for k, v in versions.items()},
        "maxrss_self_mb": f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}",
    }


def _version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


@dataclass
class Section:
    """One table of results: rows of cells, with notes printed under it."""

    title: str
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verdicts: list[tuple[str, bool, str]] = field(default_factory=list)

    def verdict(self, target: str, met: bool, detail: str) -> None:
        self.verdicts.append((target, met, detail))

    def markdown(self) -> str:
        lines = [f"### {self.title}", "", "| " + " | ".join(self.header) + " |",
                 "|" + "|".join("---" for _ in self.header) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        if self.verdicts:
            lines.append("")
            lines += [f"- {'MET' if ok else 'MISSED'}: {t} — {d}" for t, ok, d in self.verdicts]
        if self.notes:
            lines.append("")
            lines += [f"- {n}" for n in self.notes]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        widths = [max(len(str(c)) for c in col) for col in zip(self.header, *self.rows,
                                                                 strict=False)]
        out = [f"== {self.title} =="]
        for row in [self.header, *self.rows]:
            out.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)))
        out += [f"  [{'MET' if ok else 'MISSED'}] {t}: {d}" for t, ok, d in self.verdicts]
        out += [f"  note: {n}" for n in self.notes]
        return "\n".join(out) + "\n"
