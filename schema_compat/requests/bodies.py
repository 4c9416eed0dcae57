"""Provider-ready output (`transform --to`): exactly the `tools` value of a provider's
request body, with the plan's names and strict flags, so a client builder can send it as
it is; and a planned request as one MCP listing, for a proxy serving several servers.

Shapes (docs/providers.md OAI-14, §4.1, §1; each checked in the tests against the
provider's official SDK types):

- `openai-chat`: `[{"type": "function", "function": {name, description, parameters,
  strict}}]` (Chat Completions)
- `openai-responses`: `[{"type": "function", name, description, parameters, strict}]`
- `anthropic`: `[{name, description, input_schema, strict}]` (Messages API)
- `gemini`: `[{"functionDeclarations": [{name, description, parameters}]}]`, the schema
  in the profile's `wire_field` (`parametersJsonSchema` for `gemini-json`); a tool without
  parameters has none (GEM-12: an object with no properties is refused)
- `bedrock`: `[{"toolSpec": {name, description, inputSchema: {"json": ...}}}]`, the value
  of Converse's `toolConfig.tools` (botocore's bedrock-runtime model: `Tool` is a union,
  `description` a non-empty string; `strict` is not sent, see profiles/bedrock.py)
- `mistral`, `ollama`: `[{"type": "function", "function": {name, description,
  parameters}}]`, without `strict` (Mistral's `Function` has it optional, Ollama's none)

OpenAI tools always say `strict` (false too): Responses treats a missing one as "make it
strict if you can" (OAI-13), which would change what was planned. xAI's are strict without
being asked and have refused `strict: true` (XAI-01, XAI-02): they say nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..mcp_tool import empty_schema, mcp_entry
from ..model import written_dialect
from ..profiles import PROFILES

if TYPE_CHECKING:
    from .model import PlannedTool, RequestPlan

TARGETS: dict[str, tuple[str, ...]] = {  # target -> the profiles whose schemas it takes
    # xAI, DeepSeek and Groq take OpenAI's Chat Completions `tools` (XAI-01, DSK-01, GRQ-01)
    "openai-chat": ("openai", "openai-strict", "portable", "xai", "deepseek",
                    "deepseek-strict", "groq"),
    "openai-responses": ("openai", "openai-strict", "portable"),
    "anthropic": ("anthropic", "anthropic-strict", "portable"),
    "gemini": ("gemini", "gemini-json", "vertex", "portable"),
    "bedrock": ("bedrock",),
    "mistral": ("mistral",),
    "ollama": ("ollama",),
}
# the profile a target means when no provider is named: the first it takes
TARGET_PROFILE: dict[str, str] = {target: takes[0] for target, takes in TARGETS.items()}


def _schema(tool: PlannedTool) -> Any:
    schema = tool.result.transformed_schema
    return empty_schema() if schema is None else schema


def _no_parameters(schema: Any) -> bool:
    return schema is None or (isinstance(schema, dict) and not schema.get("properties")
                              and set(schema) <= {"type", "properties",
                                                  "additionalProperties", "required"}
                              and not schema.get("required"))


def _described(tool: PlannedTool, entry: dict[str, Any]) -> dict[str, Any]:
    text = tool.result.tool.description
    if isinstance(text, str) and text:
        entry["description"] = text
    return entry


def provider_tools(request: RequestPlan, target: str) -> list[dict[str, Any]]:
    """The `tools` value of `target`'s request body for a planned request."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (one of {', '.join(TARGETS)})")
    if request.provider not in TARGETS[target]:
        raise ValueError(f"--to {target} takes the schemas of "
                         f"{', '.join(TARGETS[target])}, not {request.provider}")
    out: list[dict[str, Any]] = []
    if target == "gemini":
        field = PROFILES[request.provider].wire_field
        declarations = []
        for t in request.tools:
            entry = _described(t, {"name": t.name})
            if not _no_parameters(t.result.transformed_schema):
                entry[field] = t.result.transformed_schema
            declarations.append(entry)
        return [{"functionDeclarations": declarations}]
    for t in request.tools:
        if target == "anthropic":
            entry = _described(t, {"name": t.name})
            entry["input_schema"] = _schema(t)
            if t.strict is not None:
                entry["strict"] = t.strict
            out.append(entry)
            continue
        if target == "bedrock":
            spec = _described(t, {"name": t.name})
            spec["inputSchema"] = {"json": _schema(t)}
            out.append({"toolSpec": spec})
            continue
        function = _described(t, {"name": t.name})
        function["parameters"] = _schema(t)
        if target in ("mistral", "ollama"):
            out.append({"type": "function", "function": function})
            continue
        if PROFILES[request.provider].strict_field:  # xAI: none (always strict, XAI-02)
            function["strict"] = bool(t.strict)
        out.append({"type": "function", "function": function} if target == "openai-chat"
                   else {"type": "function", **function})
    return out


def mcp_listing(request: RequestPlan) -> list[dict[str, Any]]:
    """The request as one MCP `tools/list` result's `tools`: each tool under its sent name
    with its transformed `inputSchema`, keeping its other fields (`title`, `annotations`,
    `outputSchema`, ...): what a proxy serving several servers as one lists."""
    dialect = written_dialect(PROFILES[request.provider].nullable_keyword)
    return [mcp_entry(t.result.tool, t.name, t.result.transformed_schema, dialect)
            for t in request.tools]
