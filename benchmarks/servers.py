"""Gemini on a folder of real servers' listings, the speed targets of issue 29, pure Python.

Two ratios, each measured side by side in one run:

- whole process: `schema-compat transform --provider gemini FOLDER` (check, transform, the
  document written and the change log) against the JSON round-trip floor, a process that
  reads, parses and writes every listing of the folder with `json` (compact, json's C code);
- in process, each server's listing as its own request: our check + transform + change log
  (`run_ruleset` over the listing's tools) against pydantic-ai's GoogleJsonSchemaTransformer
  walking each schema of the listing.

Ours is the pure-Python source tree, as `pipx install` gives users (the compiled build is
opt-in): the command runs as `python -m schema_compat` from the checkout, and in process the
source tree is loaded beside the installed build when that one is compiled. The folder is
every real listing committed under tests/data (corpus and versions), copied flat into
.cache/bench/servers/.
"""

from __future__ import annotations

import copy
import gc
import importlib
import json
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .common import REPO_ROOT, Section, bench_env
from .generate import CACHE_DIR
from .throughput import is_compiled, source_package

WHOLE_TARGET = 2.5
# The floor reads, parses and writes every listing with the standard library, in the text
# the product writes (indent 2, json's own indenting encoder); the compact floor writes
# json's C encoding, the least any writer of the text could cost.
_FLOOR_SCRIPT = (
    "import json, pathlib, sys\n"
    "for path in sorted(pathlib.Path(sys.argv[1]).glob('*.json')):\n"
    "    sys.stdout.write(json.dumps(json.loads(path.read_bytes()), indent=INDENT))\n"
)


def listings_folder() -> Path:
    """The real servers' listings of tests/data, one file each, in one folder."""
    folder = CACHE_DIR / "servers"
    data = REPO_ROOT / "tests" / "data"
    sources = sorted([*(data / "corpus").rglob("*.json"), *(data / "versions").glob("*@*.json")])
    if folder.is_dir() and len(list(folder.glob("*.json"))) == len(sources):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for path in sources:
        shutil.copyfile(path, folder / f"{path.parent.name}--{path.name}")
    return folder


def _pure_python_from_checkout() -> None:
    """`python -m schema_compat` run from the checkout imports the source tree: make sure it
    is pure Python (no compiled module built in place beside it)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import schema_compat.engine as e; print(e.__file__)"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True, env=bench_env())
    assert probe.stdout.strip().endswith(".py"), probe.stdout


def _best_of(commands: dict[str, Sequence[str]], repeats: int) -> dict[str, tuple[float, float]]:
    """Best wall and best CPU (user + system) seconds of each command, run round-robin after
    a warm-up round: on a shared machine the best run is the one least disturbed."""
    env = bench_env()
    best = {label: (float("inf"), float("inf")) for label in commands}
    for i in range(repeats + 1):
        for label, argv in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           cwd=REPO_ROOT, env=env, check=False)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            if i:
                best[label] = (min(best[label][0], wall), min(best[label][1], cpu))
    return best


def whole_process(folder: Path, repeats: int) -> Section:
    _pure_python_from_checkout()
    py = sys.executable
    floor = "floor: read, json.loads, json.dumps(indent=2), write every listing"
    ours = "schema-compat transform --provider gemini FOLDER"
    commands = {
        "python -c pass": [py, "-c", "pass"],
        floor: [py, "-c", _FLOOR_SCRIPT.replace("INDENT", "2"), str(folder)],
        "floor, compact: the same with json.dumps(x)":
            [py, "-c", _FLOOR_SCRIPT.replace("INDENT", "None"), str(folder)],
        ours: [py, "-m", "schema_compat", "transform", "--provider", "gemini", str(folder)],
        "schema-compat check --provider gemini FOLDER":
            [py, "-m", "schema_compat", "check", "--provider", "gemini", str(folder)],
    }
    best = _best_of(commands, repeats)
    size = sum(p.stat().st_size for p in folder.glob("*.json"))
    files = len(list(folder.glob("*.json")))
    section = Section(f"Gemini, whole process, pure Python: {files} real servers' listings "
                      f"({size / 1e6:.1f} MB; best of {repeats} runs, round-robin)",
                      ["command", "wall s", "CPU s", "wall vs floor", "CPU vs floor"])
    for label in commands:
        wall, cpu = best[label]
        section.rows.append([label, f"{wall:.3f}", f"{cpu:.3f}",
                             f"{wall / best[floor][0]:.2f}x", f"{cpu / best[floor][1]:.2f}x"])
    ratio = best[ours][1] / best[floor][1]
    section.verdict(f"transform (check + transform + change log) <= {WHOLE_TARGET}x the "
                    "JSON round-trip floor, whole process (CPU time)", ratio <= WHOLE_TARGET,
                    f"{ratio:.2f}x ({best[ours][1]:.2f} s vs {best[floor][1]:.2f} s of CPU; "
                    f"wall {best[ours][0] / best[floor][0]:.2f}x)")
    section.notes.append(f"FOLDER is {folder}: every listing of tests/data/corpus and "
                         "tests/data/versions; ours runs as `python -m schema_compat` from the "
                         "checkout (the pure-Python source), output and change log to /dev/null")
    section.notes.append("the verdict is on CPU time (user + system), which other jobs on a "
                         "shared machine disturb least; on a quiet machine wall and CPU agree")
    return section


def _best_cpu(fn: Callable[[], Any], repeats: int) -> float:
    """The least CPU time (of this process) of `fn()` over `repeats` calls after a warm-up."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def _listings(folder: Path) -> list[list[Any]]:
    """Each listing's input schemas, in the order the CLI reads them."""
    from schema_compat.api import load_tools

    out = []
    for path in sorted(folder.glob("*.json")):
        tools, errors = load_tools(str(path))
        assert not errors, errors
        out.append([t.schema for t in tools if t.schema is not None])
    return out


def per_request(folder: Path, repeats: int) -> Section:
    """Each listing as one request: ours (pure Python) against pydantic-ai and the floor."""
    package = source_package() or "schema_compat"
    assert not is_compiled(package)
    engine = importlib.import_module(package + ".engine")
    tool_def = importlib.import_module(package + ".model").ToolDef
    plan = engine.make_ruleset("gemini")
    listings = _listings(folder)
    runs: dict[str, tuple[Callable[[list[Any]], Any], Callable[[Any], Any]]] = {
        "floor: json.loads(json.dumps(listing))": (lambda s: s,
                                                   lambda s: json.loads(json.dumps(s))),
        "schema-compat check+transform+log (pure Python)": (
            lambda s: [tool_def(name=f"t{i}", schema=x, index=i) for i, x in enumerate(s)],
            lambda tools: engine.run_ruleset(tools, plan)),
    }
    missing = ""
    try:
        from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer

        runs["pydantic-ai GoogleJsonSchemaTransformer"] = (
            copy.deepcopy, lambda s: [GoogleJsonSchemaTransformer(x).walk() for x in s])
    except ImportError as exc:
        missing = f"pydantic-ai not measured: {exc}"
    results = {}
    for label, (prepare, convert) in runs.items():
        batches = [[prepare(listing) for listing in listings] for _ in range(repeats + 2)]

        def one_pass(convert: Callable[[Any], Any] = convert,
                     batches: list[list[Any]] = batches) -> None:
            for request in batches.pop():
                convert(request)

        results[label] = _best_cpu(one_pass, repeats)
    tools = sum(len(x) for x in listings)
    section = Section(f"Gemini, in process, each of {len(listings)} listings as its own request "
                      f"({tools} tools; best CPU time of {repeats} passes)",
                      ["converter", "ms per pass", "vs floor", "ours is"])
    floor = results["floor: json.loads(json.dumps(listing))"]
    ours = results["schema-compat check+transform+log (pure Python)"]
    for label, secs in results.items():
        other = "—" if label.startswith(("floor", "schema-compat")) else (
            f"{ours / secs:.2f}x slower" if ours > secs else f"{secs / ours:.2f}x faster")
        section.rows.append([label, f"{secs * 1e3:.1f}", f"{secs / floor:.2f}x", other])
    pydantic = results.get("pydantic-ai GoogleJsonSchemaTransformer")
    if pydantic is not None:
        section.verdict("no slower than pydantic-ai's GoogleJsonSchemaTransformer, each "
                        "listing as its own request (pure Python)", ours <= pydantic,
                        f"ours {ours / pydantic:.2f}x its time ({ours * 1e3:.0f} ms vs "
                        f"{pydantic * 1e3:.0f} ms)")
    if missing:
        section.notes.append(missing)
    section.notes.append("pydantic-ai gets fresh copies made outside the timed region; ours "
                         "copies inside its time, as run_ruleset does for every request")
    return section


def run(repeats: int = 5) -> list[Section]:
    folder = listings_folder()
    return [whole_process(folder, repeats), per_request(folder, repeats)]
