"""Scale: a generated N-tool MCP listing (~5 kB a tool, ~50 MB at 10,000), checked and
transformed by the installed `schema-compat` command, against `json.load` of the same file.

Each command runs in a process of its own, so its wall time and peak resident memory are
its own; time per tool at each size shows whether the cost grows linearly.
"""

from __future__ import annotations

import sys

from .common import BIN, CACHE_HINT, ProcResult, Section, measure_process
from .generate import CACHE_DIR, tools_file

_JSON_LOAD = "import json, sys\nwith open(sys.argv[1], 'rb') as fh:\n    json.load(fh)\n"


def run(sizes: tuple[int, ...] = (1_000, 5_000, 10_000)) -> list[Section]:
    exe = str(BIN / "schema-compat")
    section = Section(f"Scale: {'/'.join(f'{n:,}' for n in sizes)} tools "
                      "(check and transform by the CLI, one process each)",
                      ["tools", "file MB", "json.load s", "check s", "check µs/tool",
                       "transform s", "transform µs/tool", "json.load RSS MB",
                       "check RSS MB", "transform RSS MB", "check RSS / json.load"])
    per_tool: list[tuple[int, float, float]] = []
    failed: set[str] = set()  # a command that exited with an error measured nothing
    last_ratio = (0.0, 0.0)
    out = CACHE_DIR / "transformed.json"
    for n in sizes:
        path = tools_file(n)
        mb = path.stat().st_size / 1e6
        floor = measure_process([sys.executable, "-c", _JSON_LOAD, str(path)])
        check = measure_process([exe, "check", str(path)])
        if n in (sizes[0], sizes[-1]):  # the two ends show the growth; saves a minute
            # Gemini refuses more than 512 tools in one request (GEM-18), and so does
            # `transform` for it; anthropic has no per-request tool count.
            transform = measure_process([exe, "transform", "--quiet", "--provider", "anthropic",
                                         "-o", str(out), str(path)])
        else:
            transform = ProcResult(float("nan"), float("nan"), 0)
        for label, res, ok in (("check", check, (0, 1)), ("transform", transform, (0, 1))):
            if res.returncode not in ok:
                failed.add(label)
                section.notes.append(f"{label} on {n} tools exited {res.returncode}: "
                                     f"{res.stderr.strip()[-300:]}")
        per_tool.append((n, check.seconds / n, transform.seconds / n))
        last_ratio = (check.peak_rss_mb / floor.peak_rss_mb,
                      transform.peak_rss_mb / floor.peak_rss_mb)
        section.rows.append([
            f"{n:,}", f"{mb:.1f}", f"{floor.seconds:.2f}", f"{check.seconds:.2f}",
            f"{check.seconds / n * 1e6:,.0f}", f"{transform.seconds:.2f}",
            f"{transform.seconds / n * 1e6:,.0f}", f"{floor.peak_rss_mb:.0f}",
            f"{check.peak_rss_mb:.0f}", f"{transform.peak_rss_mb:.0f}",
            f"{last_ratio[0]:.2f}x",
        ])
    out.unlink(missing_ok=True)
    first, last = per_tool[0], per_tool[-1]
    growth, t_growth = last[1] / first[1], last[2] / first[2]
    section.verdict(f"check and transform time linear ({first[0]:,} -> {last[0]:,} tools)",
                    max(growth, t_growth) <= 1.25 and not failed,
                    f"time per tool changes {growth:.2f}x for check, {t_growth:.2f}x for "
                    "transform (1.00x = perfectly linear)")
    for i, label in enumerate(("check", "transform")):
        section.verdict(f"{label} peak memory <= 1.5x json.load ({last[0]:,} tools)",
                        last_ratio[i] <= 1.5 and label not in failed,
                        f"{last_ratio[i]:.2f}x" + (" (it exited with an error)"
                                                    if label in failed else ""))
    section.notes.append("check (gemini) prints its default text report (to /dev/null); "
                         "transform (anthropic: gemini refuses over 512 tools in one request) "
                         "writes the transformed listing with -o, at the smallest and the "
                         "largest size only (nan in between).")
    section.notes.append("RSS includes each interpreter's own start-up (~10 MB for json.load, "
                         "~30 MB for the CLI's modules); wall times include start-up too.")
    section.notes.append(CACHE_HINT)
    return [section]
