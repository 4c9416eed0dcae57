"""Every change's declared effect, checked by the semantic oracle (tests/oracle), never by
the code that makes the claim.

For every tool of tests/data/corpus, of ../shared/corpus when present, and of the hand-made
shapes (tests/data/fidelity/shapes.json), transformed for every profile, with and without
lossless-only: the effects the change log declares, combined, must allow what sampled
arguments show (an argument the original accepts and the result refuses needs a declared
narrowing; the reverse a declared widening). With lossless-only every change must be
lossless: the arguments accepted equal, which the samples must not contradict.

`make test-slow` draws FIDELITY_EXAMPLES=25 arguments per side and pair; `make fidelity` 300
(neither is part of `make test`).
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path

import pytest
from oracle.measure import NOTHING, combine, consistent, measure

from schema_compat.engine import run
from schema_compat.extract.files import load_sources
from schema_compat.model import ToolDef, safety_of
from schema_compat.profiles import PROFILES

TESTS = Path(__file__).resolve().parent
CORPORA = [TESTS / "data" / "corpus",
           Path(os.environ.get("SCHEMA_COMPAT_SHARED") or TESTS.parents[1] / "shared")
           / "corpus"]
SHAPES = TESTS / "data" / "fidelity" / "shapes.json"
EXAMPLES = int(os.environ.get("FIDELITY_EXAMPLES", "25"))

pytestmark = pytest.mark.slow


@cache
def corpus_tools() -> tuple[ToolDef, ...]:
    """The tools of both corpora, each distinct schema once (the shared corpus may hold the
    same snapshots as tests/data)."""
    files = [f for c in CORPORA if c.is_dir()
             for f in [*sorted(c.glob("*.json")), *sorted((c / "servers").glob("*.json"))]]
    sources, errors = load_sources([str(f) for f in files])
    assert not errors, errors
    seen: set[str] = set()
    tools = []
    for tool in (t for s in sources for t in s.tools):
        key = hashlib.sha256(json.dumps([tool.name, tool.schema], sort_keys=True)
                             .encode()).hexdigest()
        if key not in seen:
            seen.add(key)
            tools.append(tool)
    return tuple(tools)


@cache
def shape_tools() -> tuple[ToolDef, ...]:
    return tuple(ToolDef(c["name"], c["schema"], f"Hand-made shape {c['name']}.",
                         source=str(SHAPES))
                 for c in json.loads(SHAPES.read_text()))


def disagreements(tools: tuple[ToolDef, ...], profile: str, lossless_only: bool,
                  ) -> tuple[list[str], int]:
    """What the oracle contradicts, and how many pairs it measured."""
    found: list[str] = []
    measured = 0
    seen: set[str] = set()
    for r in run(list(tools), profile, lossless_only=lossless_only):
        changes = [c for c in r.changes if c.scope == "schema"]
        where = f"{profile}{' --lossless-only' if lossless_only else ''} {r.tool.name}"
        for c in r.changes:
            if c.safety != safety_of(c.accepts, c.told):
                found.append(f"{where}: {c.code} at {c.path} says {c.safety} of "
                             f"{c.accepts}/{c.told}")
            if lossless_only and c.safety != "lossless":
                found.append(f"{where}: {c.code} at {c.path} applied under lossless-only "
                             f"({c.accepts}, {c.told})")
        if not changes or r.transformed_schema == r.tool.schema:
            continue
        key = json.dumps([r.tool.schema, r.transformed_schema], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        declared = combine(c.accepts for c in changes)
        m = measure(r.tool.schema, r.transformed_schema, profile, EXAMPLES)
        measured += 1
        if not consistent(declared, m.effect):
            codes = sorted({f"{c.code}:{c.accepts}" for c in changes})
            shown = m.lost if m.lost is not NOTHING else m.gained
            side = "accepted only by the original" if m.lost is not NOTHING else \
                "accepted only by the result"
            found.append(f"{where}: declared {declared} ({', '.join(codes)}), measured "
                         f"{m.effect}: {json.dumps(shown)[:300]} is {side}")
    return found, measured


@pytest.mark.parametrize("lossless_only", [False, True], ids=["all", "lossless-only"])
@pytest.mark.parametrize("profile", list(PROFILES))
def test_corpus_declared_effects_hold(profile: str, lossless_only: bool) -> None:
    tools = corpus_tools()
    assert len(tools) > 500
    found, measured = disagreements(tools, profile, lossless_only)
    assert not found, "\n".join(found[:20])
    if profile in ("gemini", "vertex", "openai-strict", "anthropic-strict", "ollama") \
            and not lossless_only:
        assert measured > 100  # the profiles that change most tools of the corpus


@pytest.mark.parametrize("lossless_only", [False, True], ids=["all", "lossless-only"])
@pytest.mark.parametrize("profile", list(PROFILES))
def test_hand_made_shapes_declared_effects_hold(profile: str, lossless_only: bool) -> None:
    found, measured = disagreements(shape_tools(), profile, lossless_only)
    assert not found, "\n".join(found)
    assert measured > 0 or lossless_only


def test_shapes_cover_what_the_issue_lists() -> None:
    names = {t.name for t in shape_tools()}
    assert {"discriminated_union_const_tag", "discriminated_union_repeated_tag",
            "root_one_of", "nullable_enum_type_list", "nullable_enum_any_of", "integer_enum",
            "recursive_tree", "all_of_ref_plus_sibling_properties", "all_of_closed_base",
            "ref_with_sibling_properties", "prefix_items", "pattern_properties",
            "boolean_schemas", "string_or_number", "exclusive_minimum_integer",
            "exclusive_minimum_number", "null_branch_with_description",
            "overlapping_one_of", "numeric_const"} <= names
