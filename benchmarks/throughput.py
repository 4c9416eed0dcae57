"""Gemini transform throughput: schema-compat against the JSON round-trip floor and against
the converters people use today, on the same schemas in the same run.

Each converter gets its own fresh copies of the schemas, made outside the timed region (some
of them rewrite their input in place); schema-compat's own copy is inside its time. Ours is
the full pipeline: check, transform to a fixpoint, change log, and the check of the result.

Ours is measured as installed in the venv the benchmark runs in (`make bench`: the compiled
build, setup.py) and, beside it, as the pure-Python source tree of the same commit, loaded
under another package name: both builds side by side in the same run.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .common import REPO_ROOT, Section, median_time
from .generate import pydantic_schemas


@dataclass
class Converter:
    name: str
    prepare: Callable[[list[Any]], list[Any]]
    convert: Callable[[Any], Any]


def _copies(schemas: list[Any]) -> list[Any]:
    return [copy.deepcopy(s) for s in schemas]


SOURCE_PACKAGE = "schema_compat_source"


def is_compiled(package: str = "schema_compat") -> bool:
    """Whether `package`'s engine is a compiled extension (the mypyc build, setup.py)."""
    return not str(importlib.import_module(package + ".engine").__file__).endswith(".py")


def build_label(package: str = "schema_compat") -> str:
    return "compiled" if is_compiled(package) else "pure Python"


def source_package() -> str | None:
    """The source tree's pure-Python package loaded as SOURCE_PACKAGE, when the installed
    one is compiled (None when it is not: then the two would be the same code)."""
    if not is_compiled():
        return None
    if SOURCE_PACKAGE not in sys.modules:
        init = REPO_ROOT / "schema_compat" / "__init__.py"
        spec = importlib.util.spec_from_file_location(
            SOURCE_PACKAGE, init, submodule_search_locations=[str(init.parent)])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[SOURCE_PACKAGE] = module
        spec.loader.exec_module(module)
    assert not is_compiled(SOURCE_PACKAGE), "the source tree holds compiled modules"
    return SOURCE_PACKAGE


def ours_name(package: str = "schema_compat") -> str:
    return f"schema-compat check+transform+log ({build_label(package)})"


def _ours(package: str = "schema_compat") -> Converter:
    engine = importlib.import_module(package + ".engine")
    tool_def = importlib.import_module(package + ".model").ToolDef
    plan = engine.make_ruleset("gemini")
    run_ruleset = engine.run_ruleset

    def prepare(schemas: list[Any]) -> list[Any]:
        return [tool_def(name=f"t{i}", schema=s, index=i) for i, s in enumerate(schemas)]

    return Converter(ours_name(package), prepare, lambda tool: run_ruleset([tool], plan))


def _our_parts() -> list[Converter]:
    """Where our time goes: one check walk, and the transform alone (copy, inlining, node
    passes to a fixpoint, change log). The full pipeline is check + transform + re-check."""
    from schema_compat.engine import make_ruleset, transform_schema
    from schema_compat.engine.check import detected

    plan = make_ruleset("gemini")
    return [Converter("  part: one check walk", lambda s: s, lambda s: detected(s, plan)),
            Converter("  part: transform alone", lambda s: s,
                      lambda s: transform_schema(s, plan))]


def _floor() -> Converter:
    return Converter("floor: json.loads(json.dumps(x))", lambda s: s,
                     lambda s: json.loads(json.dumps(s)))


def competitors() -> tuple[list[Converter], list[str]]:
    """The converters that import here; the reason for each one that does not."""
    found: list[Converter] = []
    missing: list[str] = []
    try:
        from pydantic_ai.profiles.google import (
            GoogleJsonSchemaTransformer,
            GoogleOpenAPISchemaTransformer,
        )

        found.append(Converter("pydantic-ai GoogleJsonSchemaTransformer", _copies,
                               lambda s: GoogleJsonSchemaTransformer(s).walk()))
        found.append(Converter("pydantic-ai GoogleOpenAPISchemaTransformer", _copies,
                               lambda s: GoogleOpenAPISchemaTransformer(s).walk()))
    except ImportError as exc:
        missing.append(f"pydantic-ai: {exc}")
    try:
        from google.genai._transformers import process_schema

        found.append(Converter("google-genai process_schema", _copies,
                               lambda s: process_schema(s, None)))
    except ImportError as exc:
        missing.append(f"google-genai: {exc}")
    try:
        # it logs a warning for every `$defs` it meets; the timing is not of the logging
        logging.getLogger("langchain_google_genai").setLevel(logging.ERROR)
        from langchain_google_genai._function_utils import (
            convert_to_genai_function_declarations,
        )

        found.append(Converter(
            "langchain-google-genai convert_to_genai_function_declarations", _copies,
            lambda s: convert_to_genai_function_declarations(
                [{"name": "tool", "description": "d", "parameters": s}])))
    except ImportError as exc:
        missing.append(f"langchain-google-genai: {exc}")
    return found, missing


def corpus_schemas() -> list[Any]:
    from schema_compat.api import load_tools

    tools, errors = load_tools(str(REPO_ROOT / "tests" / "data" / "corpus"))
    assert not errors, errors
    return [t.schema for t in tools if t.schema is not None]


def _measure(conv: Converter, schemas: list[Any], repeats: int) -> tuple[float, int]:
    """Median seconds for one pass over all schemas, and how many raised."""
    failures = 0

    def one_pass(inputs: list[Any]) -> None:
        nonlocal failures
        failures = 0
        for item in inputs:
            try:
                conv.convert(item)
            except Exception:
                failures += 1

    batches = [conv.prepare(schemas) for _ in range(repeats + 1)]

    def timed() -> None:
        one_pass(batches.pop())

    return median_time(timed, repeats), failures


def run(repeats: int = 5) -> list[Section]:
    found, missing = competitors()
    sections = []
    for label, schemas in (("corpus (tests/data/corpus)", corpus_schemas()),
                           ("300 generated Pydantic-style schemas", pydantic_schemas())):
        size = sum(len(json.dumps(s)) for s in schemas) / len(schemas)
        section = Section(f"Gemini throughput: {label}, {len(schemas)} schemas, "
                          f"mean {size / 1000:.1f} kB",
                          ["converter", "tools/s", "µs/tool", "vs floor", "ours is", "raised"])
        results: dict[str, tuple[float, int]] = {}
        source = source_package()
        builds = [_ours()] + ([_ours(source)] if source else [])
        for conv in [_floor(), *builds, *_our_parts(), *found]:
            results[conv.name] = _measure(conv, schemas, repeats)
        floor = results["floor: json.loads(json.dumps(x))"][0]
        ours = results[ours_name()][0]
        n = len(schemas)
        for name, (secs, failures) in results.items():
            vs_ours = "—" if name.startswith(("schema-compat", "floor", "  part")) else (
                f"{secs / ours:.2f}x faster" if secs >= ours else f"{ours / secs:.2f}x slower")
            section.rows.append([name, f"{n / secs:,.0f}", f"{secs / n * 1e6:,.1f}",
                                 f"{secs / floor:.2f}x", vs_ours, str(failures)])
        if source:
            section.notes.append(
                f"the parts and the verdicts are of the {build_label()} build as installed; "
                f"the pure-Python source tree of the same commit takes "
                f"{results[ours_name(source)][0] / ours:.2f}x as long")
        section.verdict(f"ours ({build_label()}) <= 3x the JSON round-trip floor",
                        ours <= 3 * floor, f"{ours / floor:.1f}x")
        for conv in found:
            secs = results[conv.name][0]
            section.verdict(f"faster than {conv.name}", ours < secs,
                            f"ours {ours / n * 1e6:.0f} µs/tool vs {secs / n * 1e6:.0f}")
        section.notes += [f"not measured, {m}" for m in missing]
        sections.append(section)
    return sections
