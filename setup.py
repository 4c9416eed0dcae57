"""Optional compiled build: with SCHEMA_COMPAT_COMPILE=1, the engine, the rules, the profiles
and the schema walkers are compiled to C extensions with mypyc (from mypy), which runs check
and transform about 1.6x as fast (docs/performance.md). Everything else lives in
pyproject.toml; without the variable this file changes nothing and the install is pure Python.

The compiled build needs mypy and a C compiler in the build environment, so it is made
without build isolation:

    pip install mypy setuptools
    SCHEMA_COMPAT_COMPILE=1 pip install --no-build-isolation .

It is never an editable install: a compiled module beside its source would shadow every later
edit of that source (`make test-compiled` builds in a copy of the tree instead).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

# The modules a check and a transform spend their time in. Not the CLI, the reporters or the
# extractors: they run once per command, and compiling them would only slow the build.
COMPILED = ["schema_compat/engine", "schema_compat/schema", "schema_compat/rules",
            "schema_compat/profiles"]


def _ext_modules() -> list[object]:
    if os.environ.get("SCHEMA_COMPAT_COMPILE", "") in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("SCHEMA_COMPAT_COMPILE=1 needs mypyc in the build environment: "
                 "pip install mypy setuptools, then pip install --no-build-isolation .")
    root = Path(__file__).resolve().parent
    paths = [str(p.relative_to(root)) for entry in COMPILED
             for p in ([root / entry] if entry.endswith(".py")
                       else sorted((root / entry).glob("*.py")))]
    return list(mypycify(paths, opt_level="3"))


setup(ext_modules=_ext_modules())
