"""Cold start of the installed `schema-compat` command against a bare `python -c pass` of
the same interpreter, timed round-robin in the same run (medians of several runs each).

Bytecode is written and reused as after a normal `pip install` (PYTHONDONTWRITEBYTECODE is
removed from the environment), and each command is run once before timing.
"""

from __future__ import annotations

import sys

from .common import BIN, Section, time_commands
from .generate import one_tool_file


def run(repeats: int = 15) -> list[Section]:
    exe = str(BIN / "schema-compat")
    one = str(one_tool_file())
    py = sys.executable
    cases = [
        ("python -c pass", [py, "-c", "pass"], None),
        ("schema-compat --version", [exe, "--version"], 4.0),
        ("schema-compat --help", [exe, "--help"], None),
        ("schema-compat check ONE_TOOL.json", [exe, "check", one], 6.0),
        ("schema-compat check --json ONE_TOOL.json", [exe, "check", "--json", one], None),
        ("schema-compat transform ONE_TOOL.json", [exe, "transform", "--quiet", one], None),
        ("python -c 'import typer'", [py, "-c", "import typer"], None),
        ("python -c 'import rich.console'", [py, "-c", "import rich.console"], None),
        # -P: the installed build, as the command imports it, not the source tree in the cwd
        ("python -c 'import schema_compat.engine'",
         [py, "-P", "-c", "import schema_compat.engine"], None),
    ]
    times = time_commands({label: argv for label, argv, _ in cases}, repeats)
    floor = times["python -c pass"]
    section = Section(f"Cold start (median of {repeats} runs each)",
                      ["command", "ms", "vs python -c pass", "target"])
    for label, _, target in cases:
        secs = times[label]
        section.rows.append([label, f"{secs * 1e3:.1f}", f"{secs / floor:.2f}x",
                             f"<= {target:.0f}x" if target else ""])
        if target:
            section.verdict(f"{label} <= {target:.0f}x python -c pass", secs <= target * floor,
                            f"{secs / floor:.2f}x ({secs * 1e3:.0f} ms vs {floor * 1e3:.0f} ms)")
    section.notes.append(f"ONE_TOOL.json is {one} (read_files from examples/fs_read_files.json: "
                         "a $ref in items and five nullable unions)")
    section.notes.append("the three `python -c 'import ...'` rows are context: what typer (which "
                         "reads every command line but a bare --version), the rich text report "
                         "(on a terminal) and the rule engine each cost to import")
    return [section]
