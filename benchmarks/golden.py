"""The golden comparison: what the CLI says and writes for every input, every profile, with and
without --lossless-only, written to one folder so that two trees can be compared byte for byte.

A redesign that keeps behaviour leaves `diff -r` of two such folders empty:

    .venv/bin/python -m benchmarks.golden /tmp/golden-before   # on the old tree
    .venv/bin/python -m benchmarks.golden /tmp/golden-after    # on the new one
    diff -r /tmp/golden-before /tmp/golden-after

Run it from any checkout beside ../shared (a worktree's ../shared may be a link to it): the
inputs are named relative to the checkout, so two checkouts write the same bytes.

Inputs: every JSON file under tests/data (each alone), ../shared/corpus (each file alone) and
80 generated Pydantic-style models (one listing). For each, three command lines run in this
process through `python -m schema_compat` (the same entry as the installed script):
`check` (the text report), `transform --json` (the report with every change) and `transform`
(the tools written, and the change summary on stderr). The report's time stamp is masked.

While working, `--only TEXT` (repeatable) keeps the inputs whose name holds one of the TEXTs
and `-p PROFILE` (repeatable) the profiles named: a quick look before the whole run (about 3
minutes of one core).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import runpy
import sys
from pathlib import Path
from unittest import mock

from benchmarks.generate import pydantic_schemas

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SCHEMA_COMPAT_SHARED", ROOT.parent / "shared"))
_STAMP = re.compile(r'"generated_at": "[^"]*"')


def _inputs(models: Path) -> list[Path]:
    found = sorted(p for p in (ROOT / "tests" / "data").rglob("*.json"))
    corpus = SHARED / "corpus"
    if corpus.is_dir():
        found += sorted(corpus.rglob("*.json"))
    return [*found, models]


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "argv", ["schema-compat", *args]), \
            mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(b""))), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_module("schema_compat", run_name="__main__", alter_sys=False)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue(), err.getvalue()


def _profiles() -> list[str]:
    code, out, _ = _run(["profiles", "--json"])
    if code == 0:
        with contextlib.suppress(ValueError):
            return sorted(p["name"] for p in json.loads(out)["profiles"])
    from schema_compat.profiles import PROFILES  # older trees print no JSON list

    return sorted(PROFILES)


def _name(source: Path) -> str:
    """The input's name in the folder and in the command lines shown: the same in every
    checkout (a worktree's absolute path is not)."""
    for base, label in ((SHARED, "shared"), (ROOT, "")):
        if source.is_relative_to(base):
            return str(Path(label) / source.relative_to(base))
    return source.name


def main(target: Path, only: list[str], chosen: list[str]) -> int:
    os.environ.update({"NO_COLOR": "1", "COLUMNS": "100"})
    os.chdir(ROOT)
    os.environ.pop("FORCE_COLOR", None)
    os.environ.pop("SCHEMA_COMPAT_DEBUG", None)
    target.mkdir(parents=True, exist_ok=True)
    inputs_dir = ROOT / ".cache" / "golden-inputs"  # one name: a report may wrap it
    inputs_dir.mkdir(parents=True, exist_ok=True)
    models = inputs_dir / "generated-models.json"
    tools = [{"name": f"model_{i}", "description": f"Generated model {i}.", "inputSchema": s}
             for i, s in enumerate(pydantic_schemas(80))]
    models.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    profiles = [p for p in _profiles() if not chosen or p in chosen]
    inputs = [p for p in _inputs(models) if not only or any(o in _name(p) for o in only)]
    for n, source in enumerate(inputs):
        name = _name(source)
        # relative to the checkout: a report wraps the path it names, so an absolute
        # path (a worktree's is longer) would move every line break after it
        given = os.path.relpath(source, ROOT)
        lines: list[str] = []
        for profile in profiles:
            for lossless in ([], ["--lossless-only"]):
                for command in (["check"], ["transform", "--json"], ["transform"]):
                    args = [*command, "-p", profile, *lossless, given]
                    code, out, err = _run(args)
                    text = f"$ {' '.join(args)}\n[exit {code}]\n{out}\n[stderr]\n{err}\n"
                    lines.append(_STAMP.sub('"generated_at": "-"', text)
                                 .replace(given, name))
        out_file = target / (name.replace("/", "__") + ".txt")
        out_file.write_text("".join(lines), encoding="utf-8")
        print(f"[{n + 1}/{len(inputs)}] {name}", file=sys.__stderr__, flush=True)
    return 0


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks.golden")
    parser.add_argument("target", type=Path, help="the folder to write (one file per input)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT")
    parser.add_argument("-p", dest="profiles", action="append", default=[], metavar="PROFILE")
    ns = parser.parse_args()
    sys.exit(main(ns.target, ns.only, ns.profiles))
