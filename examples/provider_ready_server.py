"""An MCP server that publishes its tools in a form a given LLM provider accepts.

Server authors can fix their schemas where they are made, with the library API. The
official SDK's high-level server (`MCPServer`, formerly FastMCP) derives each tool's input
schema from Pydantic models, which gives `$ref`/`$defs` and `anyOf: [T, null]`; Gemini
turns an array whose `items` is a `$ref` into an array of STRING. Here the server's tools
are transformed once, when they are first listed, and served in the transformed form.

Only lossless fixes are applied (`lossless_only=True`): the transformed schema allows
exactly the arguments the original one allows, so the SDK's own validation of calls
(against the Pydantic models) keeps working unchanged and no tool is renamed. Each change is
logged on stderr with its rule and safety.

    python examples/provider_ready_server.py                     # stdio, for Gemini
    python examples/provider_ready_server.py --provider vertex   # another profile

It serves the two tools of examples/fs_server.py.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import Tool

from schema_compat import PROFILES, ToolResult, transform


class ProviderReadyServer(MCPServer):
    """An MCPServer whose `tools/list` is transformed for one provider."""

    def __init__(self, name: str, provider: str = "gemini", **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self.provider = provider
        self._published: tuple[tuple[str, ...], list[Tool]] | None = None

    async def list_tools(self) -> list[Tool]:
        tools = await super().list_tools()
        names = tuple(t.name for t in tools)
        if self._published is None or self._published[0] != names:  # tools added or removed
            results = transform(tools, self.provider, lossless_only=True)
            self._published = (names, [_publish(t, r, self.provider)
                                       for t, r in zip(tools, results, strict=True)])
            _log(results, self.provider)
        return self._published[1]


def _publish(tool: Tool, result: ToolResult, provider: str) -> Tool:
    """The tool with its transformed schema. For a provider that reads OpenAPI's `nullable`
    (gemini, vertex), its `_meta` says the schema is written in OpenAPI's dialect, as
    `schema-compat transform` marks it: MCP reads a schema as JSON Schema, where `nullable`
    means nothing, and `schema-compat check` of the server would warn of each (ROOT003)."""
    update: dict[str, Any] = {"input_schema": result.transformed_schema}
    if PROFILES[provider].nullable_keyword:
        update["meta"] = {**(tool.meta or {}), "schema-compat/dialect": "openapi-3.0"}
    return tool.model_copy(update=update)


def _log(results: list[ToolResult], provider: str) -> None:
    for r in results:
        for c in r.changes:
            print(f"[{provider}] {r.tool.name}: {c.code} {c.safety}: {c.description}",
                  file=sys.stderr)
        for f in r.remaining:
            if f.severity == "error":  # refused as lossy: the provider may still reject it
                print(f"[{provider}] {r.tool.name}: still {f.code}: {f.message}",
                      file=sys.stderr)


def build(provider: str) -> ProviderReadyServer:
    # The same tool functions as fs_server.py (its decorator returns them unchanged).
    from fs_server import propose_and_review, read_files

    server = ProviderReadyServer(f"fs-mcp-{provider}", provider=provider)
    server.add_tool(read_files)
    server.add_tool(propose_and_review)
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--provider", default="gemini",
                        help="the profile to serve for (see `schema-compat profiles`)")
    args = parser.parse_args()
    build(args.provider).run()  # stdio


if __name__ == "__main__":
    main()
