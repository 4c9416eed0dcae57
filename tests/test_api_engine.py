"""The library API and the engine entry point, on inputs the CLI's file loader never saw."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

from schema_compat import check, transform
from schema_compat.engine import RuleSet, check_schema, iter_ruleset, make_ruleset, run_ruleset
from schema_compat.extract.files import load_sources
from schema_compat.model import ToolDef
from schema_compat.profiles import PROFILES

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "fs_read_files.json"


def _deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"x": node}}
    return node


@pytest.mark.parametrize("api", [check, transform], ids=["check", "transform"])
def test_ten_thousand_levels_deep_is_refused_not_a_recursion_error(api: Any) -> None:
    with pytest.raises(ValueError, match=r"tool 'deep': input schema nested deeper than 256"):
        api([{"name": "deep", "inputSchema": _deep(10_000)}])


def test_deep_but_allowed_schema_is_transformed() -> None:
    # 100 property levels are 201 JSON levels: under the limit, and walked in full.
    schema = _deep(100)
    schema["properties"]["x"]["anyOf"] = [{"type": "string"}, {"type": "null"}]
    result = transform([{"name": "ok", "inputSchema": schema}])[0]
    assert [c.code for c in result.changes] == ["UNI001"]
    assert result.transformed_schema["properties"]["x"]["nullable"] is True


def test_run_ruleset_without_schemas_reports_the_same() -> None:
    """`check`'s text report runs the engine without keeping transformed schemas."""
    loaded, errors = load_sources([str(EXAMPLE)])
    assert not errors
    tools = [t for s in loaded for t in s.tools]
    plan = make_ruleset("gemini")
    kept = run_ruleset(tools, plan)
    lean = run_ruleset(tools, plan, keep_schemas=False)
    assert all(r.transformed_schema is None for r in lean)
    assert all(isinstance(r.transformed_schema, dict) for r in kept)
    assert lean == [r._replace(transformed_schema=None) for r in kept]
    assert json.dumps(kept[0].tool.schema) == json.dumps(lean[0].tool.schema)


def test_iter_ruleset_runs_each_tool_only_when_its_result_is_asked_for() -> None:
    """`transform` writes each tool before the next one is transformed."""
    loaded, _ = load_sources([str(EXAMPLE)])
    tools = [t for s in loaded for t in s.tools]
    plan = make_ruleset("gemini")
    started: list[str] = []

    def plan_for(tool: Any) -> RuleSet:
        started.append(tool.name)
        return plan

    results = iter_ruleset(tools, plan, plan_for)
    assert started == []
    first = next(results)
    assert started == [tools[0].name] and first.tool is tools[0]
    assert [first, *results] == run_ruleset(tools, plan)
    assert started == [t.name for t in tools]


def _documents() -> list[Any]:
    from benchmarks.generate import pydantic_style_schema
    from schema_compat.api import load_tools

    data = Path(__file__).resolve().parent / "data"
    docs: list[Any] = []
    for source in (data / "corpus", data):
        tools, _ = load_tools(str(source))
        docs += [t.schema for t in tools if t.schema is not None]
    return docs + [pydantic_style_schema(seed) for seed in range(30)]


@pytest.mark.slow
@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_engine_leaves_no_reference_cycles(profile: str) -> None:
    """What a check and transform make is freed by reference counting as soon as it is
    dropped: a reference cycle (closures that call each other, a closure that calls itself,
    the shared environment of the compiled build's closures) is left for the cyclic
    collector with all it holds, and collecting it cost a fifth of the time on Pydantic-style
    models."""
    tools = [ToolDef(name=f"t{i}", schema=s, index=i) for i, s in enumerate(_documents())]
    plan = make_ruleset(profile)
    gc.collect()
    gc.disable()
    try:
        for tool in tools:
            run_ruleset([tool], plan)
        for tool in tools:
            run_ruleset([tool], make_ruleset(profile, lossless_only=True))
        assert gc.collect() == 0
    finally:
        gc.enable()


# `oneOf` of a string and an object: Gemini's fix keeps the object branch (accepting fewer
# values, the string form described), a lossy change that --lossless-only refuses.
LABELS = {"type": "object", "properties": {"labels": {"type": "array", "items": {"oneOf": [
    {"type": "string"},
    {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}]}}}}


def _effects(findings: Any, code: str) -> list[tuple[Any, ...]]:
    return [(f.path, f.fix_safety, f.fix_accepts, f.fix_told) for f in findings
            if f.code == code]


def test_a_finding_says_what_its_fix_does_whether_made_or_refused() -> None:
    """The check is the transform's record: a finding's fix is the change the transform
    made, or, with --lossless-only, the change it refused. Both runs, and `check_schema`,
    say the same of the same finding (the check used to predict "changes what is accepted,
    loses what the model is told" where the fix accepts fewer values and describes the
    others)."""
    made = run_ruleset([ToolDef("t", LABELS)], make_ruleset("gemini"))[0]
    refused = run_ruleset([ToolDef("t", LABELS)], make_ruleset("gemini", lossless_only=True))[0]
    where = ("properties", "labels", "items", "oneOf")
    [change] = [c for c in made.changes if c.code == "UNI002"]
    assert (change.path, change.safety, *change.effect) == \
        (where, "lossy", "narrower", "described")
    expected = [(where, "lossy", "narrower", "described")]
    assert _effects(made.findings, "UNI002") == expected
    assert refused.changes == () and refused.fix_status == "unfixable"
    assert _effects(refused.findings, "UNI002") == expected
    assert _effects(refused.remaining, "UNI002") == expected  # still standing, same fix
    for lossless in (False, True):
        plan = make_ruleset("gemini", lossless_only=lossless)
        assert _effects(check_schema(LABELS, plan), "UNI002") == expected


def test_no_rule_module_imports_the_registry() -> None:
    """The registry imports every rule module; a rule module importing it back would make a
    cycle (the catch-all rule reads the claimed keywords from the run's state instead)."""
    import ast

    rules_dir = Path(__file__).resolve().parent.parent / "schema_compat" / "rules"
    importers = []
    for module in sorted(rules_dir.glob("*.py")):
        if module.name == "registry.py":
            continue
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.ImportFrom) and (
                    "registry" in (node.module or "")
                    or any(a.name == "registry" for a in node.names)):
                importers.append(module.name)
    assert importers == []


def test_a_recursive_reference_with_siblings_does_not_grow_pass_after_pass() -> None:
    """openai-strict inlines one level of a `$ref` with siblings (REF009). A reference on a
    cycle would copy itself, siblings and all, at each pass (the output grew to the pass
    limit): it stays, its finding standing, and the result is a fixpoint."""
    schema = {"type": "object", "properties": {"b": {"$ref": "#/$defs/D"}},
              "$defs": {"D": {"type": "object", "properties": {
                  "b": {"$ref": "#/$defs/D", "maxItems": 3}}}}}
    plan = make_ruleset("openai-strict")
    [first] = run_ruleset([ToolDef("t", schema)], plan)
    assert not any(c.code == "REF009" for c in first.changes)
    assert ("REF009", ("$defs", "D", "properties", "b", "anyOf", 0, "$ref")) in \
        {(f.code, f.path) for f in first.remaining}
    inner = first.transformed_schema["$defs"]["D"]["properties"]["b"]["anyOf"][0]
    assert inner == {"$ref": "#/$defs/D", "maxItems": 3}
    [again] = run_ruleset([ToolDef("t", first.transformed_schema)], plan)
    assert again.changes == () and again.transformed_schema == first.transformed_schema
