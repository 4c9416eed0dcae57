"""`make bench`: every benchmark in one run, printed as tables with ratios and verdicts.

    python -m benchmarks.run            # full: scale at 1,000 / 5,000 / 10,000 tools
    python -m benchmarks.run --quick    # fewer repeats, scale at 250 / 500 / 1,000 tools
    python -m benchmarks.run --only coldstart,throughput

The results (with the machine's details) are also written as Markdown to
.cache/bench/results.md, ready to paste into docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from . import adversarial, coldstart, live, playground, proxy, scale, servers, throughput
from .common import REPO_ROOT, Section, machine
from .generate import CACHE_DIR


def _installed_first() -> None:
    """Make `import schema_compat` find the package installed in this venv (in .venv-bench
    the compiled build) rather than the source tree that `python -m benchmarks.run` puts
    first on sys.path; the benchmarks package itself is imported already."""
    here = [p for p in sys.path if p in ("", str(REPO_ROOT))]
    sys.path[:] = [p for p in sys.path if p not in here] + here


def _suites(quick: bool) -> dict[str, Callable[[], list[Section]]]:
    return {
        "coldstart": lambda: coldstart.run(7 if quick else 21),
        "servers": lambda: servers.run(3 if quick else 7),
        "throughput": lambda: throughput.run(3 if quick else 7),
        "adversarial": adversarial.run,
        "live": lambda: live.run(3 if quick else 5),
        "proxy": lambda: proxy.run(3 if quick else 5, 100 if quick else 300),
        "playground": lambda: playground.run(3 if quick else 7),
        "scale": lambda: scale.run((250, 500, 1_000) if quick else (1_000, 5_000, 10_000)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller scale")
    parser.add_argument("--only", default="", help="comma-separated: " +
                        ",".join(_suites(False)))
    args = parser.parse_args(argv)
    _installed_first()
    suites = _suites(args.quick)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()] or list(suites)
    unknown = [s for s in chosen if s not in suites]
    if unknown:
        parser.error(f"unknown suite {unknown[0]!r}; choose from {', '.join(suites)}")
    info = machine()
    info["schema-compat build"] = throughput.build_label()
    print("machine: " + "; ".join(f"{k}={v}" for k, v in info.items()), flush=True)
    sections: list[Section] = []
    start = time.perf_counter()
    for name in chosen:
        print(f"\n-- running {name} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        for section in suites[name]():
            sections.append(section)
            print(section.text(), flush=True)
        print(f"-- {name} took {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    total = time.perf_counter() - start
    verdicts = [(t, ok, d) for s in sections for t, ok, d in s.verdicts]
    print(f"== Targets ({len(verdicts)}; {total:.0f} s in all) ==")
    for target, ok, detail in verdicts:
        print(f"  [{'MET' if ok else 'MISSED'}] {target}: {detail}")
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    out = CACHE_DIR / "results.md"
    header = ["## Results" + (" (quick mode)" if args.quick else ""), "",
              "| machine | |", "|---|---|", *[f"| {k} | {v} |" for k, v in info.items()], ""]
    out.write_text("\n".join(header) + "\n" + "\n".join(s.markdown() for s in sections),
                   encoding="utf-8")
    print(f"\nMarkdown written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
