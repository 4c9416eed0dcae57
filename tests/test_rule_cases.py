"""Every rule's cases, written as data: one file per rule code in tests/rules/ (CODE.yaml).

A newcomer finds a rule's cases from its code alone, and a case reads as what the provider
is sent and what comes back, with no test code between. Each case runs through the public
API (`schema_compat.api.transform`, which also gives the check's findings) and must match
in full: every finding (code, path, severity, fix safety and effect), every change (code,
path, safety, effect), the transformed schema and what remains. A case names its profile,
so the rule's severity and fix there are the profile's.

A case's keys (unknown keys are refused, so a misspelt expectation never goes unchecked):

- `name`: what the case shows; `profile`: the provider profile; `lossless_only`: optional;
  `note`: why the expectation is what it is, where the input does not make it plain;
  `known_wrong`: where today's behaviour is judged wrong, why. The case then expects the
  right behaviour and is an expected failure (strict: fixing the code fails it until the
  marker goes), so a wrong result is never written down as the expected one.
- `dialect`: optional, `openapi-3.0` where the input is written in the OpenAPI subset Gemini
  reads (a gemini profile's own output, read back): its tools say so in their `_meta`, as
  `transform` marks them, and their `args` are judged in that dialect. Absent: JSON Schema,
  as MCP says.
- the input, one of: `schema`, the input schema of one tool named `t` with a description;
  or `tools`, an MCP tool list (`name`, `description`, `inputSchema`), sent together.
  Either may be `{$build: NAME, args: [...]}`: a builder of
  `schema_compat.rules.doc_examples`, for inputs too large to write out (limits).
- what comes back, for `schema` at the case's top level, for `tools` as `results`, one
  entry per tool in order:
  - `findings`: what the check finds, every one: `{code, path, severity, fix}`, `path` a
    JSON Pointer into the original schema ("" for the root and for tool findings), `fix`
    the fix's safety (null when the rule has none), and `effect: [accepts, told]` where it
    is not that safety's usual one (model.USUAL_EFFECT).
  - `changes`: every change the transform made: `{code, path, safety}` and `effect` as for
    findings. Absent: none.
  - `output`: the transformed schema; absent only when there are no changes (the schema is
    then given back as it came).
  - `remaining`: the findings left after the transform, as `findings`. Absent: none.
  - `name`: the transformed tool name, where the transform renames it.
  - `args`: optional `[arguments, original accepts, output accepts]` triples, judged by
    `jsonschema` (the output read in the profile's dialect, tests/oracle/dialect.py): what
    a change's effect claims, shown on values.

Where the profile's output is Gemini's `parameters` and no error remains, google-genai's own
`types.Schema` must also accept the output (it refuses keys it does not know).

Each expectation is checked against what the provider accepts (docs/providers.md) and what
the rule's docs promise, not taken on trust from a run: where they disagree, the case says
so with `known_wrong` rather than record today's output as right.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from google.genai import types as genai_types
from oracle.dialect import OPENAPI_PROFILES, original_validator, output_validator

from schema_compat.api import transform
from schema_compat.model import USUAL_EFFECT, Change, Finding
from schema_compat.profiles import PROFILES
from schema_compat.rules import doc_examples
from schema_compat.rules.registry import RULES

RULES_DIR = Path(__file__).parent / "rules"
CASE_KEYS = {"name", "profile", "lossless_only", "schema", "tools", "results", "findings",
             "changes", "output", "remaining", "args", "note", "known_wrong", "dialect"}
# how a tool says its schema is OpenAPI's (`dialect: openapi-3.0`), written out here
OPENAPI_META = {"schema-compat/dialect": "openapi-3.0"}
RESULT_KEYS = {"findings", "changes", "output", "remaining", "name", "args"}
FINDING_KEYS = {"code", "path", "severity", "fix", "effect"}
CHANGE_KEYS = {"code", "path", "safety", "effect"}
DESCRIPTION = "A tool."
# libyaml's safe loader where PyYAML was built with it: the cases load at every collection
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load(path: Path) -> dict[str, Any]:
    data = yaml.load(path.read_text(), Loader=_LOADER)
    assert isinstance(data, dict) and set(data) == {"rule", "cases"}, \
        f"{path.name}: expected the keys rule and cases"
    assert data["rule"] == path.stem, f"{path.name}: names rule {data['rule']!r}"
    assert isinstance(data["cases"], list) and data["cases"], f"{path.name}: no cases"
    names = [c.get("name") for c in data["cases"]]
    assert len(set(names)) == len(names), f"{path.name}: two cases share a name"
    return data


FILES = sorted(RULES_DIR.glob("*.yaml"))
DATA = {p.stem: _load(p) for p in FILES}


def _all_cases() -> Iterator[Any]:
    for code, data in DATA.items():
        for case in data["cases"]:
            yield pytest.param(code, case, id=f"{code}:{case['name']}")


def _build(value: Any) -> Any:
    """The value, or what the doc_examples builder it names makes."""
    if isinstance(value, dict) and "$build" in value:
        assert set(value) <= {"$build", "args"}, value
        return getattr(doc_examples, value["$build"])(*value.get("args", []))
    return value


def _pointer(path: tuple[str | int, ...]) -> str:
    """RFC 6901, written here rather than taken from the code under test."""
    return "".join("/" + str(k).replace("~", "~0").replace("/", "~1") for k in path)


def _effect(safety: str | None, entry: dict[str, Any]) -> tuple[str, str] | None:
    """The effect an entry expects: the one it names, else its safety's usual one."""
    if safety is None:
        assert "effect" not in entry, f"{entry}: an effect without a fix"
        return None
    accepts, told = entry.get("effect", USUAL_EFFECT[safety])
    return accepts, told


def _expected_findings(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    out = []
    for e in entries:
        assert set(e) <= FINDING_KEYS and {"code", "path", "severity", "fix"} <= set(e), e
        out.append((e["code"], e["path"], e["severity"], e["fix"], _effect(e["fix"], e)))
    return sorted(out, key=repr)


def _actual_findings(findings: tuple[Finding, ...]) -> list[tuple[Any, ...]]:
    return sorted(((f.code, _pointer(f.path), f.severity, f.fix_safety, f.fix_effect)
                   for f in findings), key=repr)


def _expected_changes(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    out = []
    for e in entries:
        assert set(e) <= CHANGE_KEYS and {"code", "path", "safety"} <= set(e), e
        out.append((e["code"], e["path"], e["safety"], _effect(e["safety"], e)))
    return sorted(out, key=repr)


def _actual_changes(changes: tuple[Change, ...]) -> list[tuple[Any, ...]]:
    return sorted(((c.code, _pointer(c.path), c.safety, c.effect) for c in changes), key=repr)


def _inputs_and_expectations(case: dict[str, Any]
                             ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    assert set(case) <= CASE_KEYS, f"unknown keys {set(case) - CASE_KEYS}"
    if "tools" in case:
        assert "schema" not in case and set(case) & (RESULT_KEYS - {"name"}) == set(), \
            "a `tools` case gives what comes back per tool, in `results`"
        tools = _build(case["tools"])
        tools = tools["tools"] if isinstance(tools, dict) else tools
        results = case["results"]
        assert len(results) == len(tools), "one result per tool"
        return tools, results
    assert "results" not in case
    tool = {"name": "t", "description": DESCRIPTION, "inputSchema": _build(case["schema"])}
    return [tool], [{k: case[k] for k in RESULT_KEYS - {"name"} if k in case}]


def _in_dialect(tools: list[dict[str, Any]], dialect: str | None) -> list[dict[str, Any]]:
    assert dialect in (None, "openapi-3.0"), dialect
    return tools if dialect is None else [{**t, "_meta": OPENAPI_META} for t in tools]


@pytest.mark.parametrize(("code", "case"), list(_all_cases()))
def test_rule_case(code: str, case: dict[str, Any]) -> None:
    if "known_wrong" not in case:
        _check_case(case)
        return
    try:
        _check_case(case)
    except AssertionError:
        pytest.xfail(case["known_wrong"])
    pytest.fail(f"marked known_wrong, but passes: remove the marker ({case['known_wrong']})")


def _check_case(case: dict[str, Any]) -> None:
    assert case["profile"] in PROFILES, case["profile"]
    tools, expected = _inputs_and_expectations(case)
    tools = _in_dialect(tools, case.get("dialect"))
    results = transform(tools, case["profile"], lossless_only=case.get("lossless_only", False))
    for tool, result, want in zip(tools, results, expected, strict=True):
        assert set(want) <= RESULT_KEYS, f"unknown keys {set(want) - RESULT_KEYS}"
        where = tool["name"]
        assert _actual_findings(result.findings) == _expected_findings(
            want.get("findings", [])), f"{where}: findings"
        assert _actual_changes(result.changes) == _expected_changes(
            want.get("changes", [])), f"{where}: changes"
        if result.changes or "output" in want:
            assert "output" in want, f"{where}: a case with changes gives its output"
            assert result.transformed_schema == want["output"], f"{where}: output"
        else:
            assert result.transformed_schema == tool["inputSchema"], f"{where}: output"
        assert _actual_findings(result.remaining) == _expected_findings(
            want.get("remaining", [])), f"{where}: remaining"
        assert result.transformed_name == want.get("name", tool["name"]), f"{where}: name"
        if case["profile"] in OPENAPI_PROFILES and not any(
                f.severity == "error" for f in result.remaining):
            # the Gemini SDK's own Schema refuses any key it does not know
            genai_types.Schema.model_validate(result.transformed_schema)
        if "args" not in want:
            continue
        # an OpenAPI input is read as the oracle reads gemini's output
        before = original_validator(tool["inputSchema"]) if "dialect" not in case \
            else output_validator(tool["inputSchema"], "gemini")
        after = output_validator(result.transformed_schema, case["profile"])
        for args, original, output in want["args"]:
            assert (before.is_valid(args), after.is_valid(args)) == (original, output), \
                f"{where}: {args!r} accepted by the original, the output"


def _fires(code: str, case: dict[str, Any]) -> bool:
    _, expected = _inputs_and_expectations(case)
    return any(f["code"] == code for r in expected for f in r.get("findings", []))


def test_every_registered_rule_has_a_file_and_every_file_names_one() -> None:
    assert sorted(DATA) == sorted(RULES), (
        f"rules without a file: {sorted(set(RULES) - set(DATA))}; "
        f"files naming no rule: {sorted(set(DATA) - set(RULES))}")


@pytest.mark.parametrize("code", sorted(DATA))
def test_each_rule_has_a_case_that_fires_and_one_that_must_not(code: str) -> None:
    """The case that must not fire runs a profile holding the rule: in one without it, not
    firing would show nothing."""
    cases = DATA[code]["cases"]
    assert any(_fires(code, c) for c in cases), f"{code}: no case where the rule fires"
    assert any(not _fires(code, c) and code in PROFILES[c["profile"]].rules for c in cases), \
        f"{code}: no case, in a profile holding the rule, where it must not fire"
