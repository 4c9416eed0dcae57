"""`transform --to`: exactly the `tools` value of each provider's request body, checked
offline against the provider's official SDK types (openai, anthropic, google-genai), with
the plan's names and strict flags.

The openai and anthropic SDKs are imported by the tests that use them (over a second of CPU
at collection otherwise, in every xdist worker); one worker runs the module (conftest.py,
ONE_WORKER), so one worker imports them.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, Required, get_origin, get_type_hints

import pytest
from google.genai import types as genai
from inprocess import run_main
from pydantic import TypeAdapter

from schema_compat.api import load_tools
from schema_compat.entry import main
from schema_compat.mcp_tool import empty_schema
from schema_compat.requests import PlannedTool, RequestPlan, plan, provider_tools

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
SOURCES = [CORPUS / "github-mcp-server-toolsnaps-v1.10.1-3-g64a49f34.json",
           CORPUS / "servers" / "dbt-mcp.json", CORPUS / "servers" / "server-everything.json",
           CORPUS / "servers" / "fs-mcp-repro-fastmcp-refs.json"]


@functools.cache
def _request(provider: str) -> RequestPlan:
    """Four real listings as one request (182 tools); for a provider that takes 128, the
    GitHub server's tools are left out (the planner refuses 182)."""
    tools = []
    for path in SOURCES:
        found, errors = load_tools(str(path))
        assert not errors
        tools += found
    limited = provider in ("openai", "openai-strict", "vertex", "groq")
    return plan(tools, provider, exclude=[f"{SOURCES[0].stem}/*"] if limited else ())


def _schema(tool: PlannedTool) -> Any:
    schema = tool.result.transformed_schema
    return empty_schema() if schema is None else schema


def _typed_dict(kind: Any, value: dict[str, Any]) -> None:
    """As the API reads a request: every required key, no key the type does not have,
    each value of its declared type (pydantic in strict mode: no "yes" for a bool)."""
    hints = get_type_hints(kind, include_extras=True)
    required = {k for k, h in hints.items() if get_origin(h) is Required}
    assert required <= set(value) <= set(hints), (sorted(value), sorted(hints))
    TypeAdapter(kind).validate_python(value, strict=True)


@pytest.mark.parametrize("provider", ["openai", "openai-strict"])
def test_openai_chat(provider: str) -> None:
    from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionFunctionToolParam
    from openai.types.shared_params import FunctionDefinition

    request = _request(provider)
    tools = provider_tools(request, "openai-chat")
    assert len(tools) == len(request.tools)
    for entry, planned in zip(tools, request.tools, strict=True):
        _typed_dict(ChatCompletionFunctionToolParam, entry)
        _typed_dict(FunctionDefinition, entry["function"])
        ChatCompletionFunctionTool.model_validate(entry)
        assert set(entry) == {"type", "function"}
        assert entry["function"]["name"] == planned.name
        assert entry["function"]["strict"] is (provider == "openai-strict")
        assert entry["function"]["parameters"]["type"] == "object"


# What each OpenAI-compatible provider's tools say of `strict`: xAI's are strict unasked and
# have refused the flag (XAI-01, XAI-02), so none is sent.
COMPATIBLE_STRICT = {"xai": None, "deepseek": False, "deepseek-strict": True, "groq": False}


@pytest.mark.parametrize("provider", sorted(COMPATIBLE_STRICT))
def test_openai_compatible_providers_take_the_chat_shape(provider: str) -> None:
    """xAI, DeepSeek and Groq take OpenAI's Chat Completions `tools`: the openai SDK's types
    (which they mirror) accept each entry, and Groq's own SDK types too."""
    from groq.types.chat import ChatCompletionToolParam as GroqTool
    from groq.types.shared_params import FunctionDefinition as GroqFunction
    from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionFunctionToolParam
    from openai.types.shared_params import FunctionDefinition

    request = _request(provider)
    tools = provider_tools(request, "openai-chat")
    assert len(tools) == len(request.tools) > 60  # 182, or 65 for Groq's 128 (see _request)
    for entry, planned in zip(tools, request.tools, strict=True):
        _typed_dict(ChatCompletionFunctionToolParam, entry)
        _typed_dict(FunctionDefinition, entry["function"])
        ChatCompletionFunctionTool.model_validate(entry)
        if provider == "groq":
            _typed_dict(GroqTool, entry)
            _typed_dict(GroqFunction, entry["function"])
        assert entry["function"]["name"] == planned.name
        assert entry["function"].get("strict") is COMPATIBLE_STRICT[provider]
        assert ("strict" in entry["function"]) is (provider != "xai")
        assert entry["function"]["parameters"]["type"] == "object"


def test_xai_tools_are_what_the_xai_sdk_builds(tmp_path: Path) -> None:
    """xAI's own SDK (`xai_sdk.chat.tool(name, description, parameters)`, in a venv of its
    own: see the Makefile) builds each of our xai entries into its `Tool` message, which
    carries exactly the name, the description and the parameters we wrote."""
    import os
    import subprocess

    python = os.environ.get("XAI_SDK_PYTHON",
                            str(Path(__file__).resolve().parent.parent / ".cache" / "xai-sdk"
                                / "bin" / "python"))
    assert Path(python).exists(), f"{python}: run `make install` (it makes the xai-sdk venv)"
    functions = [e["function"] for e in provider_tools(_request("xai"), "openai-chat")]
    given = tmp_path / "tools.json"
    given.write_text(json.dumps(functions))
    script = (
        "import json, sys\n"
        "from xai_sdk.chat import tool\n"
        "out = []\n"
        "for f in json.load(open(sys.argv[1])):\n"
        "    t = tool(name=f['name'], description=f.get('description', ''),\n"
        "             parameters=f['parameters'])\n"
        "    out.append({'name': t.function.name, 'description': t.function.description,\n"
        "                'parameters': json.loads(t.function.parameters)})\n"
        "print(json.dumps(out))\n")
    proc = subprocess.run([python, "-c", script, str(given)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    built = json.loads(proc.stdout)
    assert len(built) == len(functions) > 60
    for made, entry in zip(built, functions, strict=True):
        assert made == {"name": entry["name"], "description": entry.get("description", ""),
                        "parameters": entry["parameters"]}
        assert set(entry) <= {"name", "description", "parameters"}  # all the SDK takes


def test_openai_responses() -> None:
    from openai.types.responses import FunctionTool, FunctionToolParam

    request = _request("openai-strict")
    tools = provider_tools(request, "openai-responses")
    for entry, planned in zip(tools, request.tools, strict=True):
        _typed_dict(FunctionToolParam, entry)
        FunctionTool.model_validate(entry)
        assert entry["type"] == "function" and entry["name"] == planned.name
        assert entry["strict"] is True and "function" not in entry


def test_anthropic_strict_flags_are_the_plans() -> None:
    from anthropic.types import ToolParam

    request = _request("anthropic-strict")
    tools = provider_tools(request, "anthropic")
    for entry, planned in zip(tools, request.tools, strict=True):
        _typed_dict(ToolParam, entry)
        assert entry["input_schema"]["type"] == "object"
        assert entry["name"] == planned.name and entry["strict"] is planned.strict
    assert sum(1 for e in tools if e["strict"]) == 20
    assert len(tools) == 117 + 50 + 13 + 2


@pytest.mark.parametrize(("provider", "field"), [("gemini", "parameters"),
                                                 ("gemini-json", "parametersJsonSchema"),
                                                 ("vertex", "parameters")])
def test_gemini_function_declarations(provider: str, field: str) -> None:
    request = _request(provider)
    [tool] = provider_tools(request, "gemini")
    assert list(tool) == ["functionDeclarations"]
    parsed = genai.Tool.model_validate(tool)
    assert parsed.function_declarations is not None
    assert [d.name for d in parsed.function_declarations] == [t.name for t in request.tools]
    other = "parametersJsonSchema" if field == "parameters" else "parameters"
    for declaration in tool["functionDeclarations"]:
        assert other not in declaration
        if field == "parameters" and field in declaration:
            genai.Schema.model_validate(declaration[field])
    # a tool without parameters sends none (GEM-12)
    bare = [d for d in tool["functionDeclarations"] if field not in d]
    assert bare and all(not isinstance(t.result.transformed_schema, dict)
                        or not t.result.transformed_schema.get("properties")
                        for t in request.tools if t.name in {d["name"] for d in bare})


def test_a_target_refuses_another_providers_schemas() -> None:
    with pytest.raises(ValueError, match="--to anthropic takes the schemas of"):
        provider_tools(_request("gemini"), "anthropic")


def test_transform_to_on_the_command_line(tmp_path: Path) -> None:
    from anthropic.types import ToolParam

    a, b = str(SOURCES[0]), str(SOURCES[1])
    code, out, err = run_main(main, ["transform", "--to", "anthropic", "-p", "anthropic-strict",
                                     "--request", "all", a, b])
    assert code == 0, err
    tools = json.loads(out)
    assert len(tools) == 167 and sum(1 for t in tools if t["strict"]) == 20
    for entry in tools:
        _typed_dict(ToolParam, entry)
    # without --provider, the target's own profile
    code, out, err = run_main(main, ["transform", "--to", "openai-chat", a])
    assert code == 0, err
    assert all(t["function"]["strict"] is False for t in json.loads(out))
    code, out, err = run_main(main, ["transform", "--to", "gemini", "-p", "openai", a])
    assert code == 2 and "--to gemini takes the schemas of" in err
    code, out, err = run_main(main, ["transform", "--to", "anthropic", a, b])
    assert code == 2 and "add --request all" in err
    code, _, err = run_main(main, ["transform", "--to", "gemini", a, "-o",
                                   str(tmp_path / "t.json")])
    assert code == 0, err
    genai.Tool.model_validate(json.loads((tmp_path / "t.json").read_text())[0])


# --- bedrock, mistral, ollama: each checked by its own SDK, offline ------------------------


def _converse_errors(tools: list[dict[str, Any]]) -> str:
    """What botocore's ParamValidator finds in a Converse request carrying `tools`, read
    against the bedrock-runtime service model shipped in botocore (no client, no network):
    what the SDK refuses before it would send the request."""
    import botocore.session
    from botocore.validate import ParamValidator

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    request = {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}]}],
               "toolConfig": {"tools": tools}}
    report = ParamValidator().validate(request, model.operation_model("Converse").input_shape)
    return report.generate_report() if report.has_errors() else ""


def test_bedrock_tools_are_what_converse_takes() -> None:
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    # ParamValidator checks lengths from below only: the name's max and pattern are read
    # from the same model and checked here
    name_shape = model.shape_for("ToolSpecification").members["name"]
    assert name_shape.metadata == {"min": 1, "max": 64, "pattern": "[a-zA-Z0-9_-]+"}
    request = _request("bedrock")
    tools = provider_tools(request, "bedrock")
    assert len(tools) == len(request.tools) == 182
    assert _converse_errors(tools) == ""
    for entry, planned in zip(tools, request.tools, strict=True):
        assert list(entry) == ["toolSpec"]  # `Tool` is a union: one member
        spec = entry["toolSpec"]
        assert set(spec) <= {"name", "description", "inputSchema"}  # no `strict`
        assert spec["name"] == planned.name
        assert re.fullmatch(name_shape.metadata["pattern"], spec["name"])
        assert len(spec["name"]) <= name_shape.metadata["max"]
        assert spec.get("description", "x") != ""  # NonEmptyString
        # ToolInputSchema: "The top level schema type must be object"
        assert list(spec["inputSchema"]) == ["json"]
        assert spec["inputSchema"]["json"]["type"] == "object"
        assert spec["inputSchema"]["json"] == _schema(planned)
    # the validator refuses what Converse refuses: it is not a check that passes anything
    bad = {"toolSpec": {"name": "x", "description": "", "inputSchema": {"json": {}},
                        "strict": "yes"}}
    found = _converse_errors([bad, {"toolSpec": {"name": "y"}}])
    assert "Invalid length for parameter toolConfig.tools[0].toolSpec.description" in found
    assert "Invalid type for parameter toolConfig.tools[0].toolSpec.strict" in found
    assert 'Missing required parameter in toolConfig.tools[1].toolSpec: "inputSchema"' in found


def test_bedrock_tools_serialize_as_the_sdk_sends_them() -> None:
    """botocore's own rest-json serializer writes the request body from them unchanged."""
    import botocore.session
    from botocore.serialize import create_serializer

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    tools = provider_tools(_request("bedrock"), "bedrock")
    body = create_serializer("rest-json", include_validation=True).serialize_to_request(
        {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}]}],
         "toolConfig": {"tools": tools}}, model.operation_model("Converse"))["body"]
    assert json.loads(body)["toolConfig"]["tools"] == tools


def test_mistral_tools_are_the_sdks_tool_model() -> None:
    from mistralai.client.models import Function, Tool

    request = _request("mistral")
    tools = provider_tools(request, "mistral")
    assert len(tools) == len(request.tools) == 182
    for entry, planned in zip(tools, request.tools, strict=True):
        parsed = Tool.model_validate(entry)
        # what the SDK sends is what was written: no field unknown to it (MIS-03: the API
        # refuses extra `function` fields), none it would add or drop
        assert parsed.model_dump(by_alias=True) == entry
        assert set(entry["function"]) <= set(Function.model_fields)
        assert "strict" not in entry["function"]
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", entry["function"]["name"])  # MIS-01
        assert entry["function"]["name"] == planned.name
        assert entry["function"]["parameters"]["type"] == "object"


def test_ollama_tools_are_the_packages_tool_model() -> None:
    from ollama import Tool

    property_fields = set(Tool.Function.Parameters.Property.model_fields)
    request = _request("ollama")
    tools = provider_tools(request, "ollama")
    assert len(tools) == len(request.tools) == 182
    for entry, planned in zip(tools, request.tools, strict=True):
        assert list(entry) == ["type", "function"] and entry["type"] == "function"
        sent = Tool.model_validate(entry).model_dump(by_alias=True, exclude_none=True)
        function = entry["function"]
        assert function["name"] == planned.name and "strict" not in function
        assert sent["function"]["name"] == function["name"]
        assert sent["function"].get("description") == function.get("description")
        parameters = function["parameters"]
        assert sent["function"]["parameters"]["type"] == parameters["type"] == "object"
        assert sent["function"]["parameters"].get("required", []) == \
            parameters.get("required", [])
        # each parameter as the package reads it: its fields of the model are kept as
        # written; the package drops the rest before sending, which may only be what
        # Ollama's server reads and the package does not (OLL-03: a nested object's
        # `properties` and `required`, `anyOf`)
        for name, schema in parameters.get("properties", {}).items():
            read = sent["function"]["parameters"]["properties"][name]
            assert read == {k: v for k, v in schema.items() if k in property_fields}, name
            assert set(schema) - property_fields <= {"properties", "required", "anyOf"}, name
            assert not isinstance(schema.get("type"), list), name  # OLL-03


def test_transform_to_bedrock_mistral_ollama_on_the_command_line() -> None:
    a = str(SOURCES[1])
    for target in ("bedrock", "mistral", "ollama"):
        # without --provider, the target's own profile
        code, out, err = run_main(main, ["transform", "--to", target, a])
        assert code == 0, err
        assert json.loads(out) == provider_tools(plan(load_tools(a)[0], target), target)
        code, out, err = run_main(main, ["transform", "--to", target, "-p", "openai", a])
        assert code == 2 and f"--to {target} takes the schemas of {target}" in err
    code, out, err = run_main(main, ["transform", "--to", "bedrock", a])
    assert _converse_errors(json.loads(out)) == ""
