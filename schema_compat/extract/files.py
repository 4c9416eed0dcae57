"""Every file shape in, the same shape back out.

Tool schemas are passed around in many wrappers: an MCP `tools/list` result (bare or inside
a JSON-RPC response), a list of tools, one tool, one bare JSON Schema, and the OpenAI,
Anthropic and Gemini request formats. Checking needs only a flat list of `ToolDef`s, but
`transform` must hand back a file the user can drop in where the original was, so each
shape is remembered as a list of *slots*: where each tool object sits in the document and
which fields hold its name and schema. `write_back` fills those slots in a copy;
`iter_write_back` writes the same document as text, one tool at a time.

Recognition is strict about the wrapper (a document that matches no shape is one clear
`SourceError`, never a guess) and forgiving inside it: extra metadata keys are ignored, and
a malformed tool entry still becomes a `ToolDef` so the rules can say what is wrong with it
instead of the whole file being rejected. Each tool object becomes a `ToolDef` through the
one conversion `mcp_tool` holds, as a tool handed to the library API does.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any, Literal, NamedTuple, NoReturn

from ..jsonio import (
    STDIN_LABEL,
    JsonInputError,
    iter_indented,
    load_json_file,
    load_json_text,
)
from ..mcp_tool import from_mcp, tool_def
from ..model import ServerInfo, SourceError, ToolDef

__all__ = [
    "SHAPES",
    "LoadedSource",
    "SourceLoadError",
    "detect_shape",
    "iter_write_back",
    "load_source_text",
    "load_sources",
    "write_back",
]

SHAPES: tuple[str, ...] = (
    "jsonrpc",
    "mcp",
    "anthropic",
    "openai",
    "gemini",
    "tool-list",
    "tool",
    "schema",
)

# How one tool object spells its name and schema. "openai-chat" nests them under
# `function`; "schema" is a bare JSON Schema standing in for a whole tool.
Flavor = Literal["mcp", "anthropic", "openai-chat", "openai-flat", "gemini", "schema"]
_Key = str | int

_FAMILY: dict[str, str] = {
    "mcp": "mcp",
    "anthropic": "anthropic",
    "openai-chat": "openai",
    "openai-flat": "openai",
    "gemini": "gemini",
}
_FAMILY_LABEL: dict[str, str] = {
    "mcp": "MCP (inputSchema)",
    "anthropic": "Anthropic (input_schema)",
    "openai": 'OpenAI (type "function")',
    "gemini": "Gemini (functionDeclarations)",
}
_GEMINI_CONTAINERS = ("functionDeclarations", "function_declarations")
# Order matters: when a declaration (wrongly) has both, `parameters` is the one read.
_GEMINI_SCHEMA_KEYS = ("parameters", "parametersJsonSchema", "parameters_json_schema")
_GEMINI_FIELDS = ("parameters", "parametersJsonSchema")
_SCHEMA_KEYS = (
    "properties",
    "$schema",
    "$defs",
    "definitions",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "items",
    "required",
)
# Lower-cased so Gemini's upper-case OpenAPI types ("OBJECT") count too.
_TYPE_NAMES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
# What an MCP (and Anthropic) tool without arguments declares: both require an object.
_EMPTY_OBJECT_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}

_EXPECTED = (
    "expected an MCP tools/list result, a list of tools, one tool, a JSON Schema, "
    "or an OpenAI/Anthropic/Gemini tool list"
)
_GENERIC_HINT = 'give a tools/list result such as {"tools": [{"name": ..., "inputSchema": {...}}]}'
_DECLARATION_HINT = (
    'these look like bare function declarations: wrap them in {"functionDeclarations": [...]} '
    'for Gemini, or write each as {"type": "function", "function": {...}} for OpenAI'
)


class SourceLoadError(ValueError):
    """A source that holds no usable tool listing; `.error` is what the report shows."""

    def __init__(self, error: SourceError) -> None:
        super().__init__(error.one_line())
        self.error = error


class LoadedSource(NamedTuple):
    """One source read: the records here are named tuples, not frozen dataclasses, because
    `dataclasses` (which imports `inspect`) costs milliseconds of every `check`'s start-up."""

    label: str
    shape: str
    document: Any
    tools: tuple[ToolDef, ...]
    server: ServerInfo | None = None  # a live server: the protocol it spoke


class _Slot(NamedTuple):
    """Where one tool object sits in a document, and how it spells its fields."""

    path: tuple[_Key, ...]
    flavor: Flavor
    snake: bool = False  # gemini: write `parameters_json_schema`, as the document does


class _Layout(NamedTuple):
    shape: str
    slots: tuple[_Slot, ...]


def _no_match(message: str, hint: str = _GENERIC_HINT) -> NoReturn:
    # The source label is not known here; `_from_document` fills it in.
    raise SourceLoadError(SourceError(source="", message=message, hint=hint))


# --- describing what we found, for error messages ------------------------------------


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "booleans"
    if value is None:
        return "nulls"
    if isinstance(value, (int, float)):
        return "numbers"
    if isinstance(value, str):
        return "strings"
    if isinstance(value, list):
        return "arrays"
    return "objects"


def _key_list(keys: Sequence[str]) -> str:
    shown = ", ".join(json.dumps(k, ensure_ascii=False) for k in keys[:8])
    return shown + (", ..." if len(keys) > 8 else "")


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return (
            f"a JSON object with keys {_key_list(list(value))}" if value else "an empty JSON object"
        )
    if isinstance(value, list):
        if not value:
            return "an empty JSON array"
        kinds = {_kind(item) for item in value}
        if kinds == {"objects"}:
            keys: dict[str, None] = {}
            for item in value:
                keys.update(dict.fromkeys(item))
            if not keys:
                return "a JSON array of empty objects"
            return f"a JSON array of objects with keys {_key_list(list(keys))}"
        if len(kinds) == 1:
            return f"a JSON array of {kinds.pop()}"
        return "a JSON array of mixed values"
    return {
        "booleans": "a JSON boolean",
        "nulls": "null",
        "numbers": "a JSON number",
        "strings": "a JSON string",
    }[_kind(value)]


def _looks_like_declaration(value: Any) -> bool:
    return (
        isinstance(value, dict) and "name" in value and any(k in value for k in _GEMINI_SCHEMA_KEYS)
    )


def _unmatched(document: Any) -> NoReturn:
    found = _describe(document)
    hint = _GENERIC_HINT
    if isinstance(document, dict):
        tools = document.get("tools")
        if "tools" in document and not isinstance(tools, list):
            found = f'a JSON object whose "tools" is {_describe(tools)}'
            hint = '"tools" must be a list of tool objects'
        elif isinstance(tools, list):
            found = f'a JSON object whose "tools" is {_describe(tools)}'
            hint = 'each entry of "tools" must be a tool object with "name" and "inputSchema"'
        elif _looks_like_declaration(document):
            hint = _DECLARATION_HINT
        elif "name" in document:
            hint = 'one MCP tool needs "name" and "inputSchema"'
    elif isinstance(document, list) and any(_looks_like_declaration(item) for item in document):
        hint = _DECLARATION_HINT
    _no_match(f"not a tool listing: {_EXPECTED}; found {found}", hint)


# --- recognising shapes ----------------------------------------------------------------


def _entry_flavor(entry: Any) -> Flavor | None:
    """The format one list entry is unmistakably in, or None when it carries no marker."""
    if not isinstance(entry, dict):
        return None
    if "inputSchema" in entry:
        return "mcp"
    if "input_schema" in entry:
        return "anthropic"
    if entry.get("type") == "function":
        return "openai-chat" if isinstance(entry.get("function"), dict) else "openai-flat"
    if any(key in entry for key in _GEMINI_CONTAINERS):
        return "gemini"
    return None


def _is_builtin(entry: Any, family: str) -> bool:
    """Provider built-in tools (web search, code execution, ...) have no schema to check."""
    if not isinstance(entry, dict):
        return False
    kind = entry.get("type")
    if family == "openai":
        return isinstance(kind, str) and kind != "function"
    if family == "anthropic":
        return "input_schema" not in entry and isinstance(kind, str) and kind != "custom"
    return False


def _gemini_slots(container: Any, path: tuple[_Key, ...], key: str) -> list[_Slot]:
    if not isinstance(container, list):
        _no_match(
            f'not a tool listing: "{key}" must be a list of function declarations; '
            f"found {_describe(container)}",
            f'write "{key}": [{{"name": ..., "parameters": {{...}}}}]',
        )
    slots = []
    for j, decl in enumerate(container):
        snake = key == "function_declarations"
        if isinstance(decl, dict):
            if "parameters_json_schema" in decl:
                snake = True
            elif "parametersJsonSchema" in decl:
                snake = False
        slots.append(_Slot((*path, key, j), "gemini", snake))
    return slots


def _list_slots(
    items: list[Any], path: tuple[_Key, ...], *, in_object: bool
) -> tuple[str, list[_Slot]] | None:
    """Classify a list of tool entries: (family, slots), or None when it is not one."""
    first_seen: dict[str, int] = {}
    for i, entry in enumerate(items):
        flavor = _entry_flavor(entry)
        if flavor is not None:
            first_seen.setdefault(_FAMILY[flavor], i)
    if len(first_seen) > 1:
        where = " and ".join(
            f"{_FAMILY_LABEL[family]} at [{i}]" for family, i in first_seen.items()
        )
        _no_match(
            f"not a tool listing: the list mixes tool formats: {where}",
            "give one file per format",
        )
    if first_seen:
        family = next(iter(first_seen))
    elif not items or (in_object and all(isinstance(e, dict) and "name" in e for e in items)):
        # `{"tools": []}` is a server with no tools; `{"tools": [{"name": "x"}]}` is an MCP
        # listing whose tool lacks inputSchema, which the rules report.
        family = "mcp"
    else:
        return None

    slots: list[_Slot] = []
    if family == "gemini":
        for i, entry in enumerate(items):
            if _looks_like_declaration(entry):
                # Skipping it would drop a tool without a word; other entries
                # (googleSearch, codeExecution, ...) are built-ins with no schema.
                _no_match(
                    f"not a tool listing: [{i}] is a function declaration outside "
                    '"functionDeclarations"',
                    'move it into a {"functionDeclarations": [...]} entry',
                )
            if isinstance(entry, dict):
                for key in _GEMINI_CONTAINERS:
                    if key in entry:
                        slots.extend(_gemini_slots(entry[key], (*path, i), key))
        return family, slots

    default: Flavor = (
        "mcp" if family == "mcp" else "anthropic" if family == "anthropic" else "openai-flat"
    )
    if family == "openai" and any(_entry_flavor(e) == "openai-chat" for e in items):
        default = "openai-chat"
    for i, entry in enumerate(items):
        if _is_builtin(entry, family):
            continue
        flavor = _entry_flavor(entry)
        if family == "openai" and isinstance(entry, dict) and flavor is None:
            flavor = "openai-chat" if isinstance(entry.get("function"), dict) else "openai-flat"
        slots.append(_Slot((*path, i), flavor or default))
    return family, slots


def _looks_like_schema(document: dict[str, Any]) -> bool:
    if any(key in document for key in _SCHEMA_KEYS):
        return True
    kind = document.get("type")
    if isinstance(kind, str):
        return kind.lower() in _TYPE_NAMES
    if isinstance(kind, list) and kind:
        return all(isinstance(k, str) and k.lower() in _TYPE_NAMES for k in kind)
    return False


def _jsonrpc_layout(document: dict[str, Any]) -> _Layout:
    if "result" not in document and "error" in document:
        error = document["error"]
        if isinstance(error, dict):
            text = error.get("message")
            detail = text if isinstance(text, str) and text else "(no message)"
            code = error.get("code")
            if code is not None:
                detail += f" (code {code})"
        else:
            detail = json.dumps(error, ensure_ascii=False)[:200]
        _no_match(
            f"the server answered with a JSON-RPC error: {detail}",
            "this file holds an error response, not a tools/list result; "
            "fix the server call and capture it again",
        )
    if "result" not in document and "method" in document:
        method = document["method"]
        _no_match(
            f"a JSON-RPC request (method {json.dumps(method, ensure_ascii=False)}), not a response",
            "give the server's response to tools/list, not the request",
        )
    result = document.get("result")
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        found = _list_slots(result["tools"], ("result", "tools"), in_object=True)
        if found is not None:
            return _Layout("jsonrpc", tuple(found[1]))
    _no_match(
        "a JSON-RPC response whose result is not a tool listing; "
        f"the result is {_describe(result)}",
        "capture the response to a tools/list request",
    )


def _analyse(document: Any) -> _Layout:
    """Find the shape and every tool slot; raises SourceLoadError (without a source)."""
    if isinstance(document, dict):
        if "jsonrpc" in document and any(k in document for k in ("result", "error", "method")):
            return _jsonrpc_layout(document)
        tools = document.get("tools")
        if isinstance(tools, list):
            found = _list_slots(tools, ("tools",), in_object=True)
            if found is not None:
                return _Layout(found[0], tuple(found[1]))
        containers = [key for key in _GEMINI_CONTAINERS if key in document]
        if containers:
            slots: list[_Slot] = []
            for key in containers:
                slots.extend(_gemini_slots(document[key], (), key))
            return _Layout("gemini", tuple(slots))
        if "inputSchema" in document:
            return _Layout("tool", (_Slot((), "mcp"),))
        if "input_schema" in document:
            return _Layout("anthropic", (_Slot((), "anthropic"),))
        if document.get("type") == "function":
            flavor: Flavor = (
                "openai-chat" if isinstance(document.get("function"), dict) else "openai-flat"
            )
            return _Layout("openai", (_Slot((), flavor),))
        if _looks_like_schema(document):
            return _Layout("schema", (_Slot((), "schema"),))
    elif isinstance(document, list):
        found = _list_slots(document, (), in_object=False)
        if found is not None:
            family, list_slots = found
            return _Layout("tool-list" if family == "mcp" else family, tuple(list_slots))
    _unmatched(document)


def detect_shape(document: Any) -> str:
    """The shape name (one of SHAPES); raises SourceLoadError (a ValueError) when none fits."""
    return _analyse(document).shape


# --- reading tools out of slots --------------------------------------------------------


def _get(document: Any, path: tuple[_Key, ...]) -> Any:
    node = document
    for key in path:
        node = node[key]
    return node


def _fields(entry: dict[str, Any], flavor: Flavor) -> dict[str, Any] | None:
    """The object that holds name/description/schema (OpenAI chat nests it)."""
    if flavor == "openai-chat":
        inner = entry.get("function")
        return inner if isinstance(inner, dict) else None
    return entry


def _schema_key(fields: Mapping[str, Any], flavor: Flavor) -> str | None:
    if flavor == "mcp":
        return "inputSchema"
    if flavor == "anthropic":
        return "input_schema"
    if flavor in ("openai-chat", "openai-flat"):
        return "parameters"
    return next((key for key in _GEMINI_SCHEMA_KEYS if key in fields), None)


def _schema_tool_name(label: str) -> str:
    if label == STDIN_LABEL:
        return "schema"
    from pathlib import PurePath  # here: pathlib imports urllib.parse and ipaddress (~3 ms)

    return PurePath(label).stem or "schema"


def _tool_at(document: Any, slot: _Slot, index: int, label: str) -> ToolDef:
    if slot.flavor == "schema":
        return tool_def(_schema_tool_name(label), document, None, index=index, source=label,
                        raw=document)
    entry = _get(document, slot.path)
    if slot.flavor == "mcp":
        return from_mcp(entry, index, label)
    if not isinstance(entry, dict):  # a nameless tool without a schema, for the rules
        return tool_def(None, None, None, index=index, source=label, raw={})
    fields = _fields(entry, slot.flavor) or {}
    key = _schema_key(fields, slot.flavor)
    return tool_def(
        fields.get("name"),
        fields.get(key) if key is not None else None,
        fields.get("description"),
        index=index,
        source=label,
        raw=entry,
        schema_optional=slot.flavor in ("gemini", "openai-chat", "openai-flat"),
    )


def _from_document(document: Any, label: str) -> LoadedSource:
    try:
        layout = _analyse(document)
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
    return _from_document(document, label)


def _json_files(directory: str, errors: list[SourceError]) -> list[str]:
    """Every *.json below `directory`, in a stable order; unreadable subfolders reported."""

    def on_error(exc: OSError) -> None:
        where = exc.filename if isinstance(exc.filename, str) else directory
        errors.append(
            SourceError(
                where, f"cannot list the directory: {exc.strerror or exc}", "check its permissions"
            )
        )

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
            sources.append(_from_document(load_json_file(path), label))
        except (JsonInputError, SourceLoadError) as exc:
            errors.append(exc.error)

    for path in paths:
        if path != "-" and os.path.isdir(path):
            files = _json_files(path, errors)
            if not files:
                errors.append(
                    SourceError(
                        path,
                        "the directory holds no .json files",
                        "give a .json file or a folder of them",
                    )
                )
            for file in files:
                load_one(file)
        else:
            load_one(path)
    return sources, errors


# --- writing tools back ------------------------------------------------------------------


def _set(document: Any, path: tuple[_Key, ...], value: Any) -> Any:
    """Put `value` at `path`; returns the (possibly new) root."""
    if not path:
        return value
    _get(document, path[:-1])[path[-1]] = value
    return document


def _put(fields: dict[str, Any], key: str, value: Any, *, replacing: Sequence[str] = ()) -> None:
    """Set `key`, taking the place of the first of `replacing` found, so key order survives."""
    if key not in fields:
        for old in replacing:
            if old in fields:
                items = [
                    (key if k == old else k, value if k == old else v) for k, v in fields.items()
                ]
                fields.clear()
                fields.update(items)
                return
    fields[key] = value


def _new_entry(flavor: Flavor) -> dict[str, Any]:
    if flavor == "openai-chat":
        return {"type": "function", "function": {}}
    if flavor == "openai-flat":
        return {"type": "function"}
    return {}


def _gemini_target(current: str | None, slot: _Slot, gemini_field: str | None) -> str:
    if gemini_field is None:
        return current or "parameters"
    if gemini_field == "parametersJsonSchema" and slot.snake:
        return "parameters_json_schema"
    return gemini_field


def _same(value: Any) -> Any:
    return value


def _slot_value(
    entry: Any,
    slot: _Slot,
    tool: ToolDef,
    new_name: str,
    new_schema: Any,
    gemini_field: str | None,
    *,
    copy_schema: bool,
) -> Any:
    """What the slot holds once its tool is written: `entry` (the value there now) itself
    when nothing changes, else a new object. `entry` is never modified, so the streaming
    writer can work from the loaded document; `copy_schema` copies `new_schema` so that a
    returned document shares nothing with the caller's schema."""
    name_changed = new_name != tool.name
    schema_changed = new_schema is not tool.schema
    dup = copy.deepcopy if copy_schema else _same
    if slot.flavor == "schema":
        if not schema_changed:
            return entry
        return dup(new_schema) if new_schema is not None else copy.deepcopy(_EMPTY_OBJECT_SCHEMA)

    if isinstance(entry, dict):
        entry = dict(entry)
    elif not name_changed and not schema_changed:
        return entry
    else:
        entry = _new_entry(slot.flavor)
        name_changed = True  # the new object needs a name, even a placeholder one
    fields = _fields(entry, slot.flavor)
    if fields is None:  # openai-chat whose `function` is missing or not an object
        fields = {}
    elif fields is not entry:
        fields = dict(fields)
    if fields is not entry:
        entry["function"] = fields
    if name_changed:
        fields["name"] = new_name

    if slot.flavor == "gemini":
        _write_gemini_schema(fields, slot, schema_changed, new_schema, gemini_field, dup)
        return entry
    if not schema_changed:
        return entry
    key = _schema_key(fields, slot.flavor)
    assert key is not None  # only gemini declarations can lack a schema field name
    if new_schema is None:
        if slot.flavor in ("openai-chat", "openai-flat"):
            fields.pop(key, None)  # OpenAI takes a function without parameters
        else:
            fields[key] = copy.deepcopy(_EMPTY_OBJECT_SCHEMA)  # MCP and Anthropic require one
    else:
        fields[key] = dup(new_schema)
    return entry


def _write_gemini_schema(
    fields: dict[str, Any],
    slot: _Slot,
    schema_changed: bool,
    new_schema: Any,
    gemini_field: str | None,
    dup: Callable[[Any], Any],
) -> None:
    """Gemini takes `parameters` or `parametersJsonSchema`, never both: keep exactly one."""
    current = next((key for key in _GEMINI_SCHEMA_KEYS if key in fields), None)
    target = _gemini_target(current, slot, gemini_field)
    others = [key for key in _GEMINI_SCHEMA_KEYS if key != target and key in fields]
    if schema_changed:
        value = dup(new_schema)
    elif gemini_field is None or current is None or (current == target and not others):
        return  # unchanged schema, and no field to move it to
    else:
        value = fields[current]
    if value is None:
        for key in _GEMINI_SCHEMA_KEYS:
            fields.pop(key, None)
        return
    _put(fields, target, value, replacing=_GEMINI_SCHEMA_KEYS)
    for key in _GEMINI_SCHEMA_KEYS:
        if key != target:
            fields.pop(key, None)


def _check_field(gemini_field: str | None) -> None:
    if gemini_field is not None and gemini_field not in _GEMINI_FIELDS:
        raise ValueError(
            f"gemini_field must be one of {', '.join(_GEMINI_FIELDS)}, not {gemini_field!r}"
        )


def write_back(
    source: LoadedSource,
    replacements: Mapping[int, tuple[str, Any]],
    *,
    gemini_field: str | None = None,
) -> Any:
    """A copy of `source.document` with tools renamed / re-schema'd in place.

    A name equal to the loaded one, or a schema that *is* the loaded schema object, is left
    as the document had it: so identity replacements give back the document unchanged, even
    for malformed tools (a placeholder name is never written, a missing schema stays missing).
    """
    _check_field(gemini_field)
    layout = _analyse(source.document)
    document = copy.deepcopy(source.document)
    for index in sorted(replacements):
        slot = _slot_of(source, layout, index)
        new_name, new_schema = replacements[index]
        value = _slot_value(
            _get(document, slot.path), slot, source.tools[index], new_name, new_schema,
            gemini_field, copy_schema=True,
        )
        document = _set(document, slot.path, value)
    return document


def _slot_of(source: LoadedSource, layout: _Layout, index: int) -> _Slot:
    if not 0 <= index < len(layout.slots) or index >= len(source.tools):
        raise IndexError(f"{source.label} has no tool number {index} (it has {len(layout.slots)})")
    return layout.slots[index]


def iter_write_back(
    source: LoadedSource,
    indexes: Collection[int],
    take: Callable[[int], tuple[str, Any]],
    *,
    gemini_field: str | None = None,
    ensure_ascii: bool = False,
) -> Iterator[str]:
    """The text `dump_json(write_back(source, {i: take(i) for i in indexes}, ...))` would
    give, in pieces, calling `take(i)` only when tool i's place in the document is written.

    `transform` computes each tool inside `take`, so one transformed tool is held at a time
    and neither a copy of the document nor its text is ever built. Tools not in `indexes`
    are written as loaded. `ensure_ascii` is the caller's: `dump_json` picks it from the
    whole text, which a stream does not have in advance (see `has_surrogate`).
    """
    _check_field(gemini_field)
    layout = _analyse(source.document)
    at = {_slot_of(source, layout, i).path: i for i in indexes}

    def fill(path: tuple[_Key, ...]) -> Any:
        index = at[path]
        new_name, new_schema = take(index)
        return _slot_value(
            _get(source.document, path), layout.slots[index], source.tools[index], new_name,
            new_schema, gemini_field, copy_schema=False,
        )

    return iter_indented(source.document, ensure_ascii=ensure_ascii, holes=at, fill=fill)
