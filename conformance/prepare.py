"""Build the conformance suite's input: every corpus tool and hand-written case, original and
as `schema-compat transform` writes it for the `gemini` profile.

The transformed schemas are read from the files the CLI writes with `-o` (what a user would
hand to a client), not from the engine, so the whole path a user takes is under test. The
originals are read with the package's own extractor, in the same order as the CLI writes them.

Usage: python conformance/prepare.py OUT_DIR  (writes OUT_DIR/inputs.json)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from schema_compat.engine import run
from schema_compat.extract.files import load_sources
from schema_compat.model import ToolDef

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus"


def _sources(out: Path) -> list[tuple[str, Path]]:
    """(label, path) for each input file: the corpus, the examples and the cases."""
    found = [(f"corpus/{p.name}", p) for p in sorted(CORPUS.glob("*.json"))]
    found += [(f"corpus/servers/{p.name}", p) for p in sorted((CORPUS / "servers").glob("*.json"))]
    found += [(f"examples/{p.name}", ROOT / "examples" / p.name)
              for p in sorted((ROOT / "examples").glob("*.json"))]
    # The hand-written cases are schemas with samples; give them a tool listing of their own.
    cases = json.loads((ROOT / "tests" / "data" / "cases" / "fidelity.json").read_text())
    listing = out / "cases.json"
    listing.write_text(json.dumps({"tools": [
        {"name": c["name"], "description": f"Hand-written case {c['name']}.",
         "inputSchema": c["schema"]} for c in cases]}))
    found.append(("tests/data/cases/fidelity.json", listing))
    return found


def _tools(path: Path) -> list[dict[str, Any]]:
    sources, errors = load_sources([str(path)])
    if errors:
        raise SystemExit(f"prepare: cannot read {path}: {errors[0]}")
    return [{"name": t.name, "description": t.description, "schema": t.schema,
             "dialect": t.dialect} for s in sources for t in s.tools]


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    (out / "transformed").mkdir(exist_ok=True)
    entries: list[dict[str, Any]] = []
    for label, path in _sources(out):
        target = out / "transformed" / label.replace("/", "__")
        proc = subprocess.run(
            [sys.executable, "-m", "schema_compat", "transform", str(path), "-o", str(target),
             "--force", "--provider", "gemini"],
            capture_output=True, text=True, check=False)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"prepare: transform failed on {label}: {proc.stderr.strip()}")
        originals, transformed = _tools(path), _tools(target)
        if len(originals) != len(transformed):
            raise SystemExit(f"prepare: {label}: {len(originals)} tools in, "
                             f"{len(transformed)} out")
        # The findings our output still carries (warnings such as CNV001, which predicts
        # what LangChain's converter will misread).
        # (read as written: gemini's OpenAPI dialect, which the output's `_meta` says)
        standing = run([ToolDef(t["name"], t["schema"], source=label, dialect=t["dialect"])
                        for t in transformed], "gemini")
        for before, after, left in zip(originals, transformed, standing, strict=True):
            entries.append({"source": label, "name": before["name"],
                            "transformed_name": after["name"],
                            "description": before["description"],
                            "original": before["schema"], "transformed": after["schema"],
                            "findings": sorted({f.code for f in left.findings})})
    (out / "inputs.json").write_text(json.dumps(entries))
    print(f"prepare: {len(entries)} tools from {len({e['source'] for e in entries})} files")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python conformance/prepare.py OUT_DIR")
    raise SystemExit(main(Path(sys.argv[1])))
