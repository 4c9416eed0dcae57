"""A real MCP server that reproduces fs-mcp's `read_files` tool.

Written with the official MCP Python SDK's high-level server (`MCPServer`, formerly
FastMCP) and Pydantic models, so its `tools/list` carries exactly the shape such servers
publish: the list item is a `$ref` into `$defs` and every optional field is
`anyOf: [T, null]`. The Gemini API degrades an array whose `items` is a `$ref` to STRING.

    python examples/fs_server.py                              # stdio
    python examples/fs_server.py --http --port 8765           # streamable HTTP on /mcp
    python examples/fs_server.py --sse --port 8765            # legacy SSE on /sse
    python examples/fs_server.py --http --token SECRET        # 401 without the bearer token

Then: `schema-compat check --server "python examples/fs_server.py"`, or
`schema-compat check --url http://127.0.0.1:8765/mcp --header 'Authorization: Bearer SECRET'`.
The token may also come from the FS_SERVER_TOKEN environment variable.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

server = MCPServer("fs-mcp-repro")


class FileReadRequest(BaseModel):
    """A request to read a file with various reading modes. Modes are mutually exclusive."""

    path: str = Field(description="The path to the file to read. Prefer relative paths.")
    start_line: int | None = Field(default=None, description="1-based line to start reading from.")
    end_line: int | None = Field(
        default=None, description="1-based line to stop reading at (inclusive)."
    )
    head: int | None = Field(
        default=None, description="Number of lines to read from the beginning."
    )
    tail: int | None = Field(default=None, description="Number of lines to read from the end.")
    read_to_next_pattern: str | None = Field(
        default=None,
        description="Regex; read from start_line until a line matching it (exclusive).",
    )


class EditPair(BaseModel):
    """One edit of a batch: exact text to find and its replacement."""

    match_text: str = Field(description="Exact text to find; must appear exactly once.")
    new_string: str = Field(description="Replacement text.")


@server.tool()
def read_files(
    files: Annotated[list[FileReadRequest], Field(description="A list of file read requests.")],
    large_file_passthrough: Annotated[
        bool, Field(description="Set True to read large JSON/YAML files anyway.")
    ] = False,
) -> str:
    """Read the contents of multiple files simultaneously."""
    parts = []
    for request in files:
        try:
            lines = Path(request.path).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            parts.append(f"{request.path}: {exc.strerror or exc}")
            continue
        if request.head is not None:
            lines = lines[: request.head]
        elif request.tail is not None:
            lines = lines[-request.tail :]
        else:
            start = (request.start_line or 1) - 1
            lines = lines[start : request.end_line]
        parts.append(f"== {request.path} ==\n" + "\n".join(lines))
    return "\n".join(parts)


@server.tool()
def propose_and_review(
    path: str,
    new_string: str = "",
    match_text: str = "",
    edits: list[EditPair] | None = None,
    expected_replacements: int = 1,
) -> str:
    """Propose an edit to a file (batch form via `edits`)."""
    count = len(edits) if edits else 1
    return f"proposed {count} edit(s) to {path} (not applied: this is a demo server)"


class _BearerToken:
    """ASGI middleware: every request needs `Authorization: Bearer <token>`, else 401."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        authorization = dict(scope.get("headers") or []).get(b"authorization")
        if scope["type"] == "http" and authorization != self.expected:
            body = b'{"error": "unauthorized"}'
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"www-authenticate", b"Bearer"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--http", action="store_true", help="serve streamable HTTP on /mcp")
    mode.add_argument("--sse", action="store_true", help="serve legacy SSE on /sse")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--token", default=os.environ.get("FS_SERVER_TOKEN"),
                        help="require this bearer token (HTTP and SSE only)")
    args = parser.parse_args()
    if not (args.http or args.sse):
        server.run()  # stdio
        return

    import uvicorn

    app: Any = (server.streamable_http_app(host=args.host) if args.http
                else server.sse_app(host=args.host))
    if args.token:
        app = _BearerToken(app, args.token)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
