"""`make site`: the playground as a static site that runs the engine in the browser.

site/ holds the playground's own page (schema_compat/playground/assets, marked static), the
Pyodide runtime from the pinned npm package (site-build/package.json), and one zip of the
pure-Python code the page imports: schema_compat, and the two packages it needs there
(jsonref with its proxytypes, and rich, which the diff's alignment imports), taken from the
environment that runs this script. Nothing is fetched at build or run time; any static host
(GitHub Pages, `python -m http.server`) serves it.

    python site-build/build_site.py --pyodide .cache/site/node_modules/pyodide --out site
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "schema_compat" / "playground" / "assets"
# The runtime's files the page loads (the others are maps, typings and demo pages).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
STATIC_MARK = '<html lang="en" data-mode="static">'


def _module_files(name: str) -> list[tuple[Path, str]]:
    """(file, name in the zip) for an installed module or package's Python files."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        sys.exit(f"build_site: {name} is not installed here (pip install -e '.[dev]')")
    origin = Path(spec.origin)
    if origin.name != "__init__.py":
        return [(origin, origin.name)]
    base = origin.parent
    return [(p, str(Path(name) / p.relative_to(base))) for p in sorted(base.rglob("*"))
            if p.is_file() and p.suffix in (".py", ".json", ".typed")
            and "__pycache__" not in p.parts]


def _packages(out: Path) -> None:
    files = [(p, str(p.relative_to(ROOT))) for p in sorted((ROOT / "schema_compat").rglob("*"))
             if p.is_file() and p.suffix in (".py", ".json", ".typed")
             and "__pycache__" not in p.parts]
    for name in ("jsonref", "proxytypes", "rich"):
        files += _module_files(name)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, arcname in files:
            archive.write(path, arcname)


def build(pyodide: Path, out: Path) -> None:
    missing = [f for f in PYODIDE_FILES if not (pyodide / f).is_file()]
    if missing:
        sys.exit(f"build_site: {pyodide} lacks {', '.join(missing)} (npm ci in site-build/)")
    if out.exists():
        shutil.rmtree(out)
    (out / "pyodide").mkdir(parents=True)
    (out / "py").mkdir()
    for asset in ("app.js", "style.css", "favicon.svg"):
        shutil.copy(ASSETS / asset, out / asset)
    page = (ASSETS / "index.html").read_text(encoding="utf-8")
    if page.count('<html lang="en">') != 1:
        sys.exit("build_site: index.html has no single <html lang=\"en\"> to mark static")
    (out / "index.html").write_text(page.replace('<html lang="en">', STATIC_MARK),
                                    encoding="utf-8")
    for name in PYODIDE_FILES:
        shutil.copy(pyodide / name, out / "pyodide" / name)
    _packages(out / "py" / "packages.zip")
    # GitHub Pages would otherwise run the folder through Jekyll
    (out / ".nojekyll").write_text("")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"site: wrote {out} ({size / 1e6:.1f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyodide", type=Path, required=True,
                        help="the installed pyodide npm package")
    parser.add_argument("--out", type=Path, default=ROOT / "site")
    args = parser.parse_args()
    build(args.pyodide, args.out)


if __name__ == "__main__":
    main()
