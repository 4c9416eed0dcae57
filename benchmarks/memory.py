"""Peak memory of the CLI on 100 MB inputs: the bound the README states.

Two inputs of about 100 MB each: `strings` (20 tools whose schemas carry 5 MB descriptions:
the cost of reading and writing) and `tools` (2,000 tools of about 50 KB, each with a `$ref`,
a nullable union and a bound to fix: the cost of the engine). Each command runs in its own
process; its peak resident set size comes from wait4(). Exits 1 when a run exceeds the bound
or fails.

Usage: python benchmarks/memory.py [--quick]   (--quick: the `strings` input only)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The bound the README states: peak RSS of one command on an input of S bytes.
BOUND_FACTOR = 8
BOUND_BASE = 150 * 2**20


def bound(size: int) -> int:
    return BOUND_FACTOR * size + BOUND_BASE


def write_strings(path: Path) -> None:
    with path.open("w") as fh:
        fh.write('{"tools": [')
        for i in range(20):
            schema = {"type": "object", "properties": {
                "q": {"type": "string", "format": "uri", "description": "d" * 5_000_000},
                "n": {"type": ["integer", "null"]}}}
            fh.write(("," if i else "") + json.dumps({"name": f"s{i}", "inputSchema": schema}))
        fh.write("]}")


def write_tools(path: Path) -> None:
    with path.open("w") as fh:
        fh.write('{"tools": [')
        for i in range(2000):
            props: dict[str, object] = {
                f"p{j}": {"type": "string", "description": "d" * 480} for j in range(100)}
            props["n"] = {"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}
            schema = {"type": "object", "properties": props, "$defs": {"X": {
                "type": "object", "properties": {"a": {"type": "integer",
                                                       "exclusiveMinimum": 0}}}}}
            fh.write(("," if i else "") + json.dumps({"name": f"t{i}", "description": "x",
                                                      "inputSchema": schema}))
        fh.write("]}")


def too_many_for_gemini(name: str) -> list[str]:
    """The tools input has 2,000 tools: more than Gemini takes in one request (GEM-18), which
    `transform` refuses for it; anthropic has no per-request tool count."""
    return ["--provider", "anthropic"] if name == "tools" else []


def peak_rss(args: list[str]) -> tuple[int, int, float]:
    """(exit code, peak RSS in bytes, seconds) of one CLI run."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "schema_compat", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss * 1024, time.monotonic() - start


def main() -> int:
    quick = "--quick" in sys.argv
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        inputs = {"strings": write_strings} if quick else {
            "strings": write_strings, "tools": write_tools}
        print(f"{'input':8} {'MB':>5}  {'command':22} {'exit':>4} {'peak MB':>8} "
              f"{'bound MB':>8} {'s':>6}")
        for name, writer in inputs.items():
            path = Path(tmp) / f"{name}.json"
            writer(path)
            size = path.stat().st_size
            for label, args in (("check", ["check", str(path)]),
                                ("check --json", ["check", "--json", str(path)]),
                                ("transform -o", ["transform", str(path), "-o",
                                                  str(Path(tmp) / "out.json"), "--force",
                                                  *too_many_for_gemini(name)])):
                code, rss, seconds = peak_rss(args)
                ok = code in (0, 1) and rss <= bound(size)
                failed |= not ok
                print(f"{name:8} {size / 2**20:5.0f}  {label:22} {code:>4} {rss / 2**20:8.0f} "
                      f"{bound(size) / 2**20:8.0f} {seconds:6.1f}{'' if ok else '  FAIL'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
