"""`breaking` against real servers at two released versions, held to an oracle that does not
ask the package.

The data (tests/data/versions/, captured by interop/capture_versions.py with the official
Python client) is each server's `tools/list` at pinned npm and PyPI releases. For each pair
and each tool both versions list, arguments are sampled from the OLD input schema, by
hypothesis-jsonschema and by the project's own sampler (tests/oracle/generate.py), kept
only when jsonschema says the old schema accepts them, and validated with jsonschema against
the NEW schema: one refused proves a break, and `compare_tools` must report that tool
`breaking` with a breaking input finding. Output schemas the other way round (sampled from
the new, validated against the old). A tool whose schema is the same JSON in both versions
cannot break and is not sampled.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import HypothesisException, NoSuchExample
from hypothesis_jsonschema import from_schema
from jsonschema.validators import validator_for
from oracle.generate import NOTHING as NO_SAMPLE
from oracle.generate import Generator, Pool, mutate
from referencing import Registry

from schema_compat import load_tools
from schema_compat.evolution.document import NOTHING
from schema_compat.evolution.tools import ToolChange, compare_tools
from schema_compat.model import ToolDef

VERSIONS = Path(__file__).resolve().parent / "data" / "versions"
MANIFEST = json.loads((VERSIONS / "manifest.json").read_text(encoding="utf-8"))
PAIRS: list[tuple[str, str]] = [(a, b) for a, b in MANIFEST["pairs"]]
FILES = sorted(MANIFEST["captures"])


class Proof(NamedTuple):
    """A value the side callers relied on accepts and the other refuses, and who found it."""

    tool: str
    direction: str
    value: Any
    by: str


def _listing(name: str) -> list[ToolDef]:
    tools, errors = load_tools(str(VERSIONS / name))
    assert errors == [], errors
    return tools


def _validator(schema: Any) -> Any:
    cls = validator_for(schema) if isinstance(schema, dict) else validator_for({})
    return cls(schema, registry=Registry())  # nothing outside the document is fetched


def _accepts(validator: Any, value: Any) -> bool:
    return bool(validator.is_valid(value))


def _by_hypothesis(wide: Any, narrow: Any, count: int) -> Any:
    """A value `wide` accepts and `narrow` refuses, searched for by hypothesis-jsonschema
    drawing from `wide` (NOTHING: none in `count` draws, or `wide` is out of its reach)."""
    yes, no = _validator(wide), _validator(narrow)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its notes on formats it does not know
            return find(from_schema(wide),
                        lambda v: _accepts(yes, v) and not _accepts(no, v),
                        settings=settings(max_examples=count, database=None, derandomize=True,
                                          deadline=None, phases=[Phase.generate, Phase.shrink],
                                          suppress_health_check=list(HealthCheck)))
    except NoSuchExample:
        return NOTHING
    except (HypothesisException, ValueError, TypeError, RecursionError):
        return NOTHING  # a schema hypothesis-jsonschema cannot draw from


def _by_own_sampler(wide: Any, narrow: Any, count: int) -> Any:
    """The same search with tests/oracle/generate.py: random instances of `wide` and their
    one-step mutations, the pool gathered from both schemas."""
    yes, no = _validator(wide), _validator(narrow)
    rng = random.Random(1)
    pool = Pool().gather(wide).gather(narrow)
    gen = Generator(wide, pool, rng)
    for _ in range(count):
        made = gen.instance()
        if made is NO_SAMPLE:
            continue
        for value in (made, mutate(made, pool, rng)):
            if _accepts(yes, value) and not _accepts(no, value):
                return value
    return NOTHING


class Budget(NamedTuple):
    """How hard the oracle looks: draws per schema for each sampler, and the largest schema
    (characters of JSON) hypothesis-jsonschema is given (it takes seconds on a large one)."""

    own: int
    hypothesis: int
    hypothesis_up_to: int


QUICK = Budget(own=50, hypothesis=5, hypothesis_up_to=400)
THOROUGH = Budget(own=1000, hypothesis=100, hypothesis_up_to=10**9)


def _proofs(old: list[ToolDef], new: list[ToolDef], budget: Budget) -> Iterator[Proof]:
    """Every tool both versions list whose schema differs as JSON: a proof of a break per
    direction and sampler, where one was found."""
    after = {t.name: t for t in new}
    for tool in old:
        other = after.get(tool.name)
        if other is None:
            continue
        sides = [("input", tool.schema, other.schema)]
        out_old, out_new = tool.raw.get("outputSchema"), other.raw.get("outputSchema")
        if out_old is not None and out_new is not None:
            sides.append(("output", out_new, out_old))  # callers read what the new may hold
        for direction, wide, narrow in sides:
            if _same_json(wide, narrow):
                continue
            value = _by_own_sampler(wide, narrow, budget.own)
            if value is not NOTHING:
                yield Proof(tool.name, direction, value, "tests/oracle/generate.py")
            if len(json.dumps(wide)) <= budget.hypothesis_up_to:
                value = _by_hypothesis(wide, narrow, budget.hypothesis)
                if value is not NOTHING:
                    yield Proof(tool.name, direction, value, "hypothesis-jsonschema")


def _same_json(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _missed(changes: list[ToolChange], proofs: list[Proof]) -> list[str]:
    """The proven breaks that `breaking` did not report as breaking in that direction."""
    by = {c.name: c for c in changes}
    missed = []
    for proof in proofs:
        change = by[proof.tool]
        if change.status == "breaking" and any(
                f.breaking and f.direction == proof.direction for f in change.findings):
            continue
        missed.append(f"{proof.tool} ({proof.direction}, found by {proof.by}): "
                      f"{json.dumps(proof.value)[:300]} -> reported {change.status}: "
                      f"{[f.message for f in change.findings]}")
    return missed


def _check_pair(pair: tuple[str, str], budget: Budget) -> None:
    old, new = _listing(pair[0]), _listing(pair[1])
    proofs = list(_proofs(old, new, budget))
    assert _missed(compare_tools(old, new), proofs) == []
    # the oracle is not blind on real data: where a break is known, it proves it
    proven = {(p.tool, p.direction) for p in proofs}
    assert KNOWN_BREAKS.get(pair, set()) <= proven, sorted(proven)


# breaks the quick oracle proves, each read in the two files: a key the old open object took
# with any value given a type (git's context_lines and start_timestamp, puppeteer's
# launchOptions and encoded, firecrawl's new scrape options), keys refused by an object
# closed (firecrawl's `additionalProperties: false`), an output content item whose `resource`
# variant no longer holds `data` and `mimeType` (filesystem's read_media_file)
KNOWN_BREAKS: dict[tuple[str, str], set[tuple[str, str]]] = {
    ("mcp-server-git@0.6.2.json", "mcp-server-git@2026.1.14.json"): {
        ("git_diff_staged", "input"), ("git_diff_unstaged", "input"), ("git_log", "input")},
    ("server-puppeteer@0.6.2.json", "server-puppeteer@2025.5.12.json"): {
        ("puppeteer_navigate", "input"), ("puppeteer_screenshot", "input")},
    ("server-filesystem@2026.1.14.json", "server-filesystem@2026.8.31.json"): {
        ("read_media_file", "output")},
    ("firecrawl-mcp@1.12.0.json", "firecrawl-mcp@3.11.0.json"): {
        (name, "input") for name in ("firecrawl_check_crawl_status", "firecrawl_crawl",
                                     "firecrawl_extract", "firecrawl_map", "firecrawl_scrape",
                                     "firecrawl_search")},
}


@pytest.mark.parametrize("search", [_by_hypothesis, _by_own_sampler])
def test_each_sampler_finds_a_break_and_passes_a_widening(search: Any) -> None:
    """The oracle is not blind: each sampler proves a required property added and a value
    dropped from an enum, and finds nothing refused when the new schema is wider."""
    old = {"type": "object", "properties": {"q": {"type": "string"},
                                            "mode": {"enum": ["a", "b", "c"]}}}
    required = {**old, "required": ["q"]}
    narrowed = {**old, "properties": {**old["properties"], "mode": {"enum": ["a", "b"]}}}
    for new in (required, narrowed):
        value = search(old, new, 30)
        assert value is not NOTHING, new
        assert _accepts(_validator(old), value) and not _accepts(_validator(new), value)
    assert search(required, old, 30) is NOTHING


def test_the_data_holds_real_pairs() -> None:
    """At least eight pairs, each of two captured versions of one package."""
    assert len(PAIRS) >= 8
    for a, b in PAIRS:
        ca, cb = MANIFEST["captures"][a], MANIFEST["captures"][b]
        assert ca["package"] == cb["package"] and ca["version"] != cb["version"]
        assert (VERSIONS / a).exists() and (VERSIONS / b).exists()


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_every_break_the_oracle_proves_is_reported(pair: tuple[str, str]) -> None:
    _check_pair(pair, QUICK)


@pytest.mark.slow
@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_every_break_the_oracle_proves_is_reported_many_samples(pair: tuple[str, str]) -> None:
    _check_pair(pair, THOROUGH)


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_every_reported_example_shows_its_break(pair: tuple[str, str]) -> None:
    """Each example `breaking` prints: the side callers relied on accepts it (old input,
    new output), the other refuses it."""
    old, new = _listing(pair[0]), _listing(pair[1])
    for change in compare_tools(old, new):
        assert change.old is not None or change.new is not None
        for f in change.findings:
            if f.example is NOTHING:
                continue
            assert f.breaking and f.certain, (change.name, f)
            assert change.old is not None and change.new is not None
            if f.direction == "input":
                wide, narrow = change.old.schema, change.new.schema
            else:
                wide = change.new.raw["outputSchema"]
                narrow = change.old.raw["outputSchema"]
            assert _accepts(_validator(wide), f.example), (change.name, f.message, f.example)
            assert not _accepts(_validator(narrow), f.example), (change.name, f.message,
                                                                 f.example)


@pytest.mark.parametrize("name", FILES)
def test_each_version_compared_with_itself_reports_nothing(name: str) -> None:
    tools = _listing(name)
    changes = compare_tools(tools, tools)
    assert [(c.name, c.status, c.findings) for c in changes if c.status != "unchanged"] == []
