"""A `type` naming no JSON type (issue 28 #18): an error in every profile, the nearest type
suggested, and no fix that guesses: the transform leaves the node as it came.

Independently of the rule: the JSON Schema 2020-12 metaschema refuses such a `type`, which is
what OpenAI (OAI-09) and Anthropic (ANT-05) validate a tool's schema against.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from jsonschema import Draft202012Validator

from schema_compat.profiles import PROFILES

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]

SCHEMA = {"type": "object", "properties": {"a": {"type": "strng"},
                                           "b": {"type": "integr", "minimum": 1}}}
TOOLS = {"tools": [{"name": "t", "description": "A tool.", "inputSchema": SCHEMA}]}


def test_the_metaschema_refuses_a_misspelt_type() -> None:
    with pytest.raises(jsonschema.SchemaError):
        Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_check_flags_a_misspelt_type_as_an_error_with_the_nearest_type(
        cli_here: RunCli, tmp_path: Path, profile: str) -> None:
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(TOOLS), encoding="utf-8")
    proc = cli_here("check", str(source), "-p", profile, "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    tool = json.loads(proc.stdout)["tools"][0]
    assert tool["status"] == "INCOMPATIBLE"
    # (anthropic-strict also says, at the tool, that errors keep it from being sent strict)
    typos = {i["path"]: i for i in tool["issues"]
             if i["code"] == "TYP003" and i["path"].endswith(".type")}
    assert set(typos) == {"$.properties.a.type", "$.properties.b.type"}
    assert all(i["severity"] == "error" and i.get("fix") is None for i in typos.values())
    assert "did you mean `string`?" in typos["$.properties.a.type"]["message"]
    assert "did you mean `integer`?" in typos["$.properties.b.type"]["message"]


@pytest.mark.parametrize("profile", ["gemini", "openai", "anthropic"])
def test_transform_leaves_a_misspelt_type_as_it_was(
        cli_here: RunCli, tmp_path: Path, profile: str) -> None:
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(TOOLS), encoding="utf-8")
    proc = cli_here("transform", str(source), "-p", profile)
    assert proc.returncode == 1, proc.stderr
    out = json.loads(proc.stdout)["tools"][0]["inputSchema"]
    assert out["properties"] == SCHEMA["properties"]  # not "Any JSON value", not `number`
    assert "did you mean `string`?" in proc.stderr
