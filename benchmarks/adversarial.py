"""Adversarial inputs: a `$ref` DAG that would inline to 2**40 nodes, and 10,000-deep nesting;
and inputs large in one direction (issue 28): a chain of 20,000 references, an `enum` of
1,000,000 values, an object of 200,000 properties.

The DAG must be refused (a REF006 finding, the tool left as it was) within 1 s and 100 MB;
deep nesting must end in a clear answer, never a RecursionError or a traceback; the large
inputs must be checked, transformed and diffed without an internal error, in time that
grows linearly (a chain of 20,000 references once took 149 s, and failed from 5,000). Both run
through the installed CLI in a process of their own; deep nesting also through the library
API, which has no file loader in front of it (it refuses the same depth with a ValueError).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from .common import BIN, REPO_ROOT, Section, bench_env, measure_process
from .generate import (
    CACHE_DIR,
    big_enum,
    deep_file,
    ref_chain,
    ref_dag_bomb,
    wide_object,
    write_json,
)

_API_DEEP = """
import sys, time
from schema_compat.api import transform
schema = {"type": "string"}
for _ in range(int(sys.argv[1])):
    schema = {"type": "object", "properties": {"x": schema}}
start = time.perf_counter()
try:
    transform([{"name": "deep", "inputSchema": schema}])
    print("completed", time.perf_counter() - start)
except RecursionError:
    print("RecursionError", time.perf_counter() - start)
except ValueError:
    print("refused", time.perf_counter() - start)
"""


def _json_out(argv: list[str]) -> tuple[int, str, str]:
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO_ROOT, env=bench_env(),
                          timeout=120, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def run() -> list[Section]:
    exe = str(BIN / "schema-compat")
    section = Section("Adversarial inputs (installed CLI, one process each)",
                      ["input", "command", "seconds", "peak RSS MB", "exit", "outcome"])
    bomb = ref_dag_bomb(40)
    bomb_path = write_json("ref-dag-bomb.json", bomb)
    out = CACHE_DIR / "bomb-out.json"
    size = len(json.dumps(bomb))
    worst_s, worst_mb = 0.0, 0.0
    for cmd in (["check"], ["transform", "--quiet", "-o", str(out)]):
        res = measure_process([exe, *cmd, str(bomb_path)])
        worst_s, worst_mb = max(worst_s, res.seconds), max(worst_mb, res.peak_rss_mb)
        section.rows.append([f"ref DAG, {size / 1000:.1f} kB, 2^40 nodes inlined", cmd[0],
                             f"{res.seconds:.2f}", f"{res.peak_rss_mb:.0f}",
                             str(res.returncode), "refused" if res.returncode in (0, 1)
                             else res.stderr.strip()[-200:]])
    code, stdout, _ = _json_out([exe, "check", "--json", str(bomb_path)])
    codes = {f["code"] for t in json.loads(stdout)["tools"] for f in t["remaining_issues"]} \
        if code in (0, 1) else set()
    section.verdict("ref DAG refused within 1 s and 100 MB",
                    worst_s <= 1.0 and worst_mb <= 100 and "REF006" in codes,
                    f"worst {worst_s:.2f} s, {worst_mb:.0f} MB peak RSS (whole process); "
                    f"REF006 {'reported' if 'REF006' in codes else 'NOT reported'}")
    out.unlink(missing_ok=True)

    deep_path = deep_file(10_000)
    res = measure_process([exe, "check", str(deep_path)])
    clean = res.returncode == 2 and "Traceback" not in res.stderr \
        and len(res.stderr.strip().splitlines()) == 1
    section.rows.append(["10,000-deep properties (file)", "check", f"{res.seconds:.2f}",
                         f"{res.peak_rss_mb:.0f}", str(res.returncode),
                         res.stderr.strip()[:120].replace("|", "/")])
    section.verdict("10,000-deep file handled without a recursion error (CLI)", clean,
                    "refused with a one-line error, exit 2" if clean else res.stderr[-200:])
    api: dict[int, str] = {}
    for depth in (100, 300, 10_000):
        proc = subprocess.run([sys.executable, "-c", _API_DEEP, str(depth)], capture_output=True,
                              text=True, cwd=REPO_ROOT, env=bench_env(), timeout=120,
                              check=False)
        outcome = (proc.stdout.strip() or proc.stderr.strip()[-200:]).split()
        api[depth] = outcome[0] if outcome else "?"
        section.rows.append([f"{depth:,}-deep properties (library API)", "api.transform",
                             f"{float(outcome[1]):.2f}" if len(outcome) > 1 else "—", "—",
                             str(proc.returncode), api[depth]])
    section.verdict("10,000-deep schema handled without a recursion error (library API)",
                    all(o in ("completed", "refused") for o in api.values()),
                    ", ".join(f"{d:,} levels: {o}" for d, o in api.items()))
    _large(section, exe)
    return [section]


# (label, file name, schema maker, size, commands, bound in seconds for each command)
_LARGE: list[tuple[str, str, Callable[[int], dict[str, Any]], int, list[list[str]], float]] = [
    ("chain of {n:,} `$ref`s", "ref-chain-{n}.json", ref_chain, 5_000,
     [["check"], ["transform", "--quiet"], ["diff", "--json", "t"]], 10.0),
    ("chain of {n:,} `$ref`s", "ref-chain-{n}.json", ref_chain, 20_000,
     [["check"], ["transform", "--quiet"], ["diff", "--json", "t"]], 20.0),
    ("enum of {n:,} values", "enum-{n}.json", big_enum, 1_000_000,
     [["check"], ["diff", "t"], ["diff", "--json", "t"]], 20.0),
    ("{n:,} properties", "wide-{n}.json", wide_object, 200_000,
     [["check"], ["check", "-p", "openai-strict"], ["transform", "--quiet"]], 30.0),
]


def _large(section: Section, exe: str) -> None:
    """Each large input through each command: an answer (exit 0 or 1), never an internal
    error, within a bound far above the linear cost (seconds, not minutes)."""
    out = CACHE_DIR / "large-out.json"
    for label, name, make, n, commands, bound in _LARGE:
        path = CACHE_DIR / name.format(n=n)
        if not path.exists():
            write_json(path.name, make(n))
        failed: list[str] = []
        worst = 0.0
        for cmd in commands:
            argv = [exe, *cmd, str(path)]
            if cmd[0] == "transform":
                argv[-1:-1] = ["-o", str(out)]
            res = measure_process(argv)
            worst = max(worst, res.seconds)
            ok = res.returncode in (0, 1) and "internal error" not in res.stderr
            if not ok:
                failed.append(f"{' '.join(cmd)}: exit {res.returncode} "
                              f"{res.stderr.strip()[-120:]}")
            section.rows.append([label.format(n=n), " ".join(cmd), f"{res.seconds:.2f}",
                                 f"{res.peak_rss_mb:.0f}", str(res.returncode),
                                 "answered" if ok else res.stderr.strip()[-120:]])
        section.verdict(f"{label.format(n=n)} answered by every command within {bound:.0f} s",
                        not failed and worst <= bound,
                        "; ".join(failed) or f"slowest {worst:.2f} s")
    out.unlink(missing_ok=True)
