"""The request planner: strict budgets, names and tool counts over one whole request.

Cases are data (tests/data/cases/planner.json); the real listings of the corpora are
planned as one request for anthropic-strict and checked against the provider's budgets
counted here, independently of the planner's own counting."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from schema_compat.api import load_tools
from schema_compat.engine import make_ruleset, run_ruleset
from schema_compat.model import ToolDef
from schema_compat.requests import PlanError, RequestPlan, plan

HERE = Path(__file__).resolve().parent
CASES: list[dict[str, Any]] = json.loads((HERE / "data" / "cases" / "planner.json").read_text())
CORPORA = [HERE / "data" / "corpus", Path("/work/shared/corpus")]


def _schema(spec: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    required: list[str] = []
    for i in range(spec.get("required", 0)):
        props[f"r{i}"] = {"type": "string"}
        required.append(f"r{i}")
    for i in range(spec.get("optional", 0)):
        props[f"o{i}"] = {"type": "string"}
    for i in range(spec.get("unions", 0)):
        props[f"u{i}"] = {"type": ["string", "null"]}
        required.append(f"u{i}")
    if spec.get("enum"):
        props["mode"] = {"type": "string", "enum": ["fast", "slow"]}
        required.append("mode")
    if spec.get("nested"):
        props["opts"] = {"type": "object", "properties": {"x": {"type": "string"}},
                         "required": ["x"]}
        required.append("opts")
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    return out


def _servers(case: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for server, specs in case["servers"].items():
        tools = out.setdefault(server, [])
        for spec in specs:
            if "make" in spec:
                tools += [{"name": f"{spec['make']}{i}", "description": "A tool.",
                           "inputSchema": _schema(spec)} for i in range(spec["count"])]
            else:
                tools.append({"name": spec["name"], "description": "A tool.",
                              "inputSchema": _schema(spec)})
    return out


def _plan(case: dict[str, Any]) -> RequestPlan:
    return plan(_servers(case), case["provider"], strict_first=case.get("strict_first", ()),
                name_prefix=case.get("name_prefix", "none"), include=case.get("include", ()),
                exclude=case.get("exclude", ()))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_planner_case(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(PlanError) as caught:
            _plan(case)
        for text in case["error"]:
            assert text in str(caught.value)
        return
    request = _plan(case)
    by_label = {f"{t.server}/{t.result.tool.name}": t for t in request.tools}
    by_own = {t.result.tool.name: t for t in request.tools}
    for lab, sent in case.get("names", {}).items():
        assert by_label[lab].name == sent
        assert by_label[lab].result.transformed_name == sent
    if "name_map" in case:
        assert request.name_map == case["name_map"]
    for lab, code in case.get("renamed", {}).items():
        assert [c.code for c in by_label[lab].result.changes if c.scope == "tool"] == [code]
    unrenamed = set(by_label) - set(case.get("renamed", {}))
    for lab in unrenamed:
        assert not [c for c in by_label[lab].result.changes if c.code.startswith("NAM")]
    if "strict_count" in case:
        assert sum(1 for t in request.tools if t.strict) == case["strict_count"]
    for name in case.get("strict", ()):
        assert by_own[name].strict is True, name
        assert by_own[name].result.profile == "anthropic-strict"
    for name in case.get("non_strict", ()):
        assert by_own[name].strict is False, name
        assert by_own[name].result.profile == "anthropic"
        decision = [d for d in request.decisions if d.tool == name]
        assert [d.kind for d in decision] == ["non-strict"]
        assert any("sent without `strict`" in c.description for c in by_own[name].result.changes)
    for name, text in case.get("reason", {}).items():
        assert any(text in d.reason for d in request.decisions if d.tool == name), name
    limits = {limit.key: (limit.used, limit.limit) for limit in request.limits}
    for key, (used, limit) in case.get("limits", {}).items():
        assert limits[key] == (used, limit)
    assert not request.over
    if "count" in case:
        assert len(request.tools) == case["count"]
        assert len(request.excluded) == case["excluded"]
        assert sum(1 for d in request.decisions if d.kind == "excluded") == case["excluded"]


def test_routes_map_both_ways() -> None:
    request = plan({"a": [{"name": "search", "inputSchema": {"type": "object"}}],
                    "b": [{"name": "search", "inputSchema": {"type": "object"}}]}, "openai")
    assert request.route("search") == ("a", "search")
    assert request.route("b_search") == ("b", "search")
    assert request.route("nope") is None
    assert request.name_map == {"b_search": "search"}


def test_merged_listing_for_a_proxy() -> None:
    """One MCP listing of several servers: sent names, transformed schemas, the tools' other
    fields kept; each sent name routes back to its server and the tool's own name."""
    from schema_compat.requests import mcp_listing

    ref = {"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}},
           "$defs": {"P": {"type": "string"}}}
    servers = {"a": [{"name": "search", "inputSchema": ref, "annotations": {"readOnlyHint": True}}],
               "b": [{"name": "search", "inputSchema": {"type": "object"}, "title": "Search B"}]}
    request = plan(servers, "gemini")
    listing = mcp_listing(request)
    assert [t["name"] for t in listing] == ["search", "b_search"]
    assert listing[0]["annotations"] == {"readOnlyHint": True}
    assert listing[0]["inputSchema"] == {"type": "object", "properties": {"p": {"type": "string"}}}
    assert listing[1]["title"] == "Search B"
    assert [request.route(t["name"]) for t in listing] == [("a", "search"), ("b", "search")]


def test_per_tool_ignores_reach_the_planned_tools() -> None:
    """A rule a tool's glob ignores is not fixed in the schema it is sent with; other tools
    keep the rule."""
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}},
              "required": ["n"]}
    tools = {"s": [{"name": "keep", "inputSchema": schema},
                   {"name": "bare", "inputSchema": {"type": "object"}}]}
    request = plan(tools, "anthropic-strict", per_tool_ignores={"keep": ["CON007"]})
    keep = request.tools[0]
    assert keep.name == "keep" and keep.strict
    assert keep.result.transformed_schema["properties"]["n"]["minimum"] == 1
    assert "CON007" not in {c.code for c in keep.result.changes}
    default = plan(tools, "anthropic-strict").tools[0]
    assert default.name == "keep"
    assert "minimum" not in default.result.transformed_schema["properties"]["n"]


def test_same_names_every_run_and_order_of_servers_matters_only_for_clashes() -> None:
    servers = {"one": [{"name": "x/y", "inputSchema": {"type": "object"}},
                       {"name": "dup", "inputSchema": {"type": "object"}}],
               "two": [{"name": "dup", "inputSchema": {"type": "object"}}]}
    first = [t.name for t in plan(servers, "openai").tools]
    assert first == [t.name for t in plan(servers, "openai").tools]
    swapped = plan({"two": servers["two"], "one": servers["one"]}, "openai")
    assert {t.server: t.name for t in swapped.tools if t.result.tool.name == "dup"} == {
        "two": "dup", "one": "one_dup"}


# --- the real listings ---------------------------------------------------------------

ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")  # ANT-01


def _listings() -> list[Path]:
    found: dict[str, Path] = {}
    for root in CORPORA:
        for path in sorted(root.glob("*.json")) + sorted(root.glob("servers/*.json")):
            found.setdefault(path.name, path)
    return list(found.values())


def _budget_use(schema: Any) -> tuple[int, int]:
    """Optional parameters and parameters with `anyOf` or a type list, counted over every
    subschema (ANTS-05 counts them per request over the strict tools)."""
    optional = unions = 0
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        props = node.get("properties")
        if isinstance(props, dict):
            listed = node.get("required")
            required: list[Any] = listed if isinstance(listed, list) else []
            optional += sum(1 for k in props if k not in required)
            stack += props.values()
        if isinstance(node.get("anyOf"), list) or isinstance(node.get("type"), list):
            unions += 1
        for key in ("items", "additionalProperties", "not", "if", "then", "else"):
            stack.append(node.get(key))
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(node.get(key), list):
                stack += node[key]
        for key in ("$defs", "definitions"):
            if isinstance(node.get(key), dict):
                stack += node[key].values()
    return optional, unions


def _assert_sendable(request: RequestPlan, tools: list[ToolDef]) -> None:
    sent = request.tools
    assert len(sent) == len(tools)  # nothing dropped
    names = [t.name for t in sent]
    assert len(set(names)) == len(names)
    assert all(ANTHROPIC_NAME.fullmatch(n) for n in names)
    strict = [t for t in sent if t.strict]
    assert len(strict) <= 20
    optional = sum(_budget_use(t.result.transformed_schema)[0] for t in strict)
    unions = sum(_budget_use(t.result.transformed_schema)[1] for t in strict)
    assert optional <= 24 and unions <= 16
    assert not request.over
    # each schema has no error left for the profile it is sent under, checked afresh
    for profile in ("anthropic-strict", "anthropic"):
        group = [t for t in sent if (t.strict is True) == (profile == "anthropic-strict")]
        again = run_ruleset([ToolDef(t.name, t.result.transformed_schema, t.result.tool.description)
                          for t in group],
                         make_ruleset(profile, ignore=["LIM001", "LIM004", "NAM002"]))
        errors = [(r.tool.name, f.code) for r in again for f in r.findings
                  if f.severity == "error"]
        assert errors == []
    for t in sent:
        if not t.strict:
            assert any(d.tool == t.result.tool.name and d.kind == "non-strict"
                       for d in request.decisions)


@pytest.mark.parametrize("path", _listings(), ids=lambda p: p.name)
def test_real_listing_as_one_anthropic_strict_request(path: Path) -> None:
    tools, errors = load_tools(str(path))
    assert not errors
    request = plan(tools, "anthropic-strict")
    _assert_sendable(request, tools)
    with_parameters = [t for t in request.tools
                       if isinstance(t.result.tool.schema, dict)
                       and t.result.tool.schema.get("properties")]
    assert any(t.strict for t in request.tools) or not with_parameters


def test_every_real_listing_together_as_one_request() -> None:
    """Over 600 tools of 20 servers, two GitHub versions among them: many names clash."""
    tools: list[ToolDef] = []
    for path in _listings():
        found, errors = load_tools(str(path))
        assert not errors
        tools += found
    request = plan(tools, "anthropic-strict", name_prefix="none")
    _assert_sendable(request, tools)
    renamed = [t for t in request.tools if t.name != t.result.tool.name]
    assert renamed and all(t.name in request.name_map for t in renamed)
    for t in renamed:
        assert request.route(t.name) == (t.result.tool.source, t.result.tool.name)
    limits = {limit.key: limit for limit in request.limits}
    assert limits["strict-tools"].used == 20
    with pytest.raises(PlanError, match="openai accepts at most 128"):
        plan(tools, "openai")


@pytest.mark.parametrize(("more", "said"), [
    ({"provider": "nope"}, "unknown provider 'nope'"),
    ({"client": "nope"}, "unknown client 'nope' (one of "),
    ({"name_prefix": "nope"}, "unknown name prefix 'nope' (one of "),
])
def test_plan_names_an_unknown_provider_client_or_prefix(more: dict[str, str], said: str) -> None:
    """The library's `plan` refuses what it does not know with PlanError, before any work."""
    args: dict[str, str] = {"provider": "gemini", **more}
    with pytest.raises(PlanError) as caught:
        plan([{"name": "t", "inputSchema": {"type": "object"}}], **args)  # type: ignore[arg-type]
    assert str(caught.value).startswith(said)
