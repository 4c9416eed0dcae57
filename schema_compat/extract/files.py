"""Reading tool files: every shape `extract/shapes` recognises, as `ToolDef`s.

Checking needs only a flat list of `ToolDef`s, whatever wrapper the tools came in; the
loaded document is kept beside them (`LoadedSource`) so that `transform` can write the
tools back into the shape they came in (`output/write_back`). Each tool object becomes a
`ToolDef` through the one conversion `mcp_tool` holds, so a tool read from a file is the
same as the tool handed to the library API or relayed by the proxy.

A bad source (unreadable, not JSON, no shape) is an error entry naming the file, never an
exception out of `load_sources`: the other sources are still checked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..jsonio import STDIN_LABEL, JsonInputError, load_json_file, load_json_text
from ..mcp_tool import from_mcp, tool_def
from ..model import JSON_SCHEMA, OPENAPI, ServerInfo, SourceError, ToolDef
from .shapes import (
    SHAPES,
    Slot,
    SourceLoadError,
    analyse,
    schema_key,
    tool_fields,
    value_at,
)

__all__ = ["SHAPES", "LoadedSource", "SourceLoadError", "from_document",
           "load_source_text", "load_sources"]


class LoadedSource(NamedTuple):
    """One source read: its label, shape, parsed document and tools. A named tuple, as the
    other records of the file path: a dataclass would import `inspect` on every start-up."""

    label: str
    shape: str
    document: Any
    tools: tuple[ToolDef, ...]
    server: ServerInfo | None = None  # a live server: the protocol it spoke
    config: str = ""  # a client config's server: the config (its client sends one request)


def _schema_tool_name(label: str) -> str:
    if label == STDIN_LABEL:
        return "schema"
    from pathlib import PurePath  # here: pathlib imports urllib.parse and ipaddress (~3 ms)

    return PurePath(label).stem or "schema"


def _tool_at(document: Any, slot: Slot, index: int, label: str) -> ToolDef:
    if slot.flavor == "schema":
        return tool_def(_schema_tool_name(label), document, None, index=index, source=label,
                        raw=document)
    entry = value_at(document, slot.path)
    if slot.flavor == "mcp":
        return from_mcp(entry, index, label)
    if not isinstance(entry, dict):  # a nameless tool without a schema, for the rules
        return tool_def(None, None, None, index=index, source=label, raw={})
    fields = tool_fields(entry, slot.flavor) or {}
    key = schema_key(fields, slot.flavor)
    # a Gemini declaration's `parameters` is the OpenAPI subset; `parametersJsonSchema`
    # (and every other shape's schema) JSON Schema
    dialect = OPENAPI if slot.flavor == "gemini" and key == "parameters" else JSON_SCHEMA
    return tool_def(fields.get("name"), fields.get(key) if key is not None else None,
                    fields.get("description"), index=index, source=label, raw=entry,
                    schema_optional=slot.flavor in ("gemini", "openai-chat", "openai-flat"),
                    dialect=dialect)


def from_document(document: Any, label: str) -> LoadedSource:
    """The tools of a parsed document; raises SourceLoadError naming `label`."""
    try:
        layout = analyse(document)
    except SourceLoadError as exc:
        raise SourceLoadError(exc.error._replace(source=label)) from None
    tools = tuple(_tool_at(document, slot, i, label) for i, slot in enumerate(layout.slots))
    return LoadedSource(label=label, shape=layout.shape, document=document, tools=tools)


def load_source_text(text: str, label: str) -> LoadedSource:
    """Parse and recognise one document; raises SourceLoadError naming `label`."""
    try:
        document = load_json_text(text, label)
    except JsonInputError as exc:
        raise SourceLoadError(exc.error) from None
    return from_document(document, label)


def _json_files(directory: str, errors: list[SourceError]) -> list[str]:
    """Every *.json below `directory`, in a stable order; unreadable subfolders reported."""

    def on_error(exc: OSError) -> None:
        where = exc.filename if isinstance(exc.filename, str) else directory
        errors.append(SourceError(where, f"cannot list the directory: {exc.strerror or exc}",
                                  "check its permissions"))

    found: list[str] = []
    for root, dirs, files in os.walk(directory, onerror=on_error, followlinks=False):
        dirs.sort()
        found.extend(os.path.join(root, name) for name in files if name.lower().endswith(".json"))
    from pathlib import PurePath  # here, not at start-up: most runs read no directory

    return sorted(found, key=lambda p: PurePath(os.path.relpath(p, directory)).parts)


def load_sources(paths: Sequence[str]) -> tuple[list[LoadedSource], list[SourceError]]:
    """Load files, directories and `-`; a bad source is an error entry, never an exception."""
    sources: list[LoadedSource] = []
    errors: list[SourceError] = []

    def load_one(path: str) -> None:
        label = STDIN_LABEL if path == "-" else path
        try:
            sources.append(from_document(load_json_file(path), label))
        except (JsonInputError, SourceLoadError) as exc:
            errors.append(exc.error)

    for path in paths:
        if path != "-" and os.path.isdir(path):
            files = _json_files(path, errors)
            if not files:
                errors.append(SourceError(path, "the directory holds no .json files",
                                          "give a .json file or a folder of them"))
            for file in files:
                load_one(file)
        else:
            load_one(path)
    return sources, errors

