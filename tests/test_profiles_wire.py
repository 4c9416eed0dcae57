"""What a profile says on the wire, read from the profile wherever a request or a document
is written (no code tests a profile's name): `wire_field`, the Gemini declaration field its
schemas go in, and `strict_flag`, the `strict` field its tools are sent with."""

from __future__ import annotations

import json
from typing import Any

import pytest

from schema_compat import transform
from schema_compat.extract import load_source_text
from schema_compat.output.document import results_pieces
from schema_compat.profiles import PROFILES
from schema_compat.requests import plan, provider_tools

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"q": {"type": "string"}},
                          "required": ["q"]}
FIELDS = ("parameters", "parametersJsonSchema", "parameters_json_schema")


def test_only_gemini_json_sends_parametersjsonschema() -> None:
    assert {name: p.wire_field for name, p in PROFILES.items()} == {
        "gemini": "parameters", "gemini-json": "parametersJsonSchema", "vertex": "parameters",
        "openai": "parameters", "openai-strict": "parameters", "anthropic": "parameters",
        "anthropic-strict": "parameters", "portable": "parameters", "bedrock": "parameters",
        "mistral": "parameters", "ollama": "parameters",
        "xai": "parameters", "deepseek": "parameters", "deepseek-strict": "parameters",
        "groq": "parameters"}


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("given", ["parameters", "parametersJsonSchema"])
def test_a_declaration_is_written_back_in_the_profiles_field(profile: str, given: str) -> None:
    text = json.dumps({"functionDeclarations": [
        {"name": "search", "description": "Searches.", given: SCHEMA}]})
    source = load_source_text(text, "decl.json")
    results = transform(list(source.tools), profile)
    [written] = json.loads("".join(results_pieces([source], results, PROFILES[profile])))[
        "functionDeclarations"]
    assert [k for k in written if k in FIELDS] == [PROFILES[profile].wire_field]
    assert list(written) == ["name", "description", PROFILES[profile].wire_field]


@pytest.mark.parametrize("profile", ["gemini", "gemini-json", "vertex", "portable"])
def test_transform_to_gemini_sends_the_profiles_field(profile: str) -> None:
    tools = [{"name": "search", "description": "Searches.", "inputSchema": SCHEMA}]
    [body] = provider_tools(plan(tools, profile), "gemini")
    [declaration] = body["functionDeclarations"]
    assert [k for k in declaration if k in FIELDS] == [PROFILES[profile].wire_field]


def test_strict_flags() -> None:
    assert {name: p.strict_flag for name, p in PROFILES.items()} == {
        "gemini": None, "gemini-json": None, "vertex": None, "portable": None,
        "openai": False, "anthropic": False, "openai-strict": True, "anthropic-strict": True,
        # Bedrock's and Mistral's `strict` is optional and left out; Ollama has none
        "bedrock": None, "mistral": None, "ollama": None,
        "xai": True, "deepseek": False, "deepseek-strict": True, "groq": False}



def test_only_xai_tools_go_without_the_strict_field() -> None:
    """xAI's tools are strict unasked and it has refused `strict: true` (XAI-01, XAI-02)."""
    assert [n for n, p in PROFILES.items() if not p.strict_field] == ["xai"]
    tools = [{"name": "search", "description": "Searches.", "inputSchema": SCHEMA}]
    [entry] = provider_tools(plan(tools, "xai"), "openai-chat")
    assert "strict" not in entry["function"]


@pytest.mark.parametrize(("profile", "target", "strict"), [
    ("openai", "openai-chat", False), ("openai-strict", "openai-chat", True),
    ("anthropic", "anthropic", False), ("portable", "openai-responses", False)])
def test_a_planned_request_sends_the_profiles_strict_flag(profile: str, target: str,
                                                          strict: bool) -> None:
    tools = [{"name": n, "description": "Searches.", "inputSchema": SCHEMA} for n in "ab"]
    request = plan(tools, profile)
    assert [t.strict for t in request.tools] == [PROFILES[profile].strict_flag] * 2
    sent = provider_tools(request, target)
    assert [(e.get("function") or e)["strict"] for e in sent] == [strict, strict]


def test_gemini_declarations_have_no_strict_field() -> None:
    tools = [{"name": "search", "description": "Searches.", "inputSchema": SCHEMA}]
    request = plan(tools, "gemini")
    assert [t.strict for t in request.tools] == [None]
    [body] = provider_tools(request, "gemini")
    assert "strict" not in body["functionDeclarations"][0]
