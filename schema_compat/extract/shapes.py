"""Which shape a tool document is in, and where in it each tool sits.

Tool schemas are passed around in many wrappers: an MCP `tools/list` result (bare or inside
a JSON-RPC response), a list of tools, one tool, one bare JSON Schema, and the OpenAI,
Anthropic and Gemini request formats. A document's shape is recognised once, as a `Layout`:
its shape name and one *slot* per tool (where the tool object sits and which fields spell
its name and schema). Reading (`extract/files`) takes the tools out of the slots, and
writing back (`output/write_back`) puts the transformed ones into the same slots, so a file
comes back in the shape it came in.

Recognition is strict about the wrapper (a document that matches no shape is one clear
`SourceError`, never a guess, with a hint at what was probably meant) and forgiving inside
it: extra metadata keys are ignored, and a malformed tool entry still gets a slot so the
rules can say what is wrong with it instead of the whole file being rejected.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple, NoReturn

from ..model import SourceError

__all__ = ["GEMINI_SCHEMA_KEYS", "SHAPES", "Flavor", "Key", "Layout", "Slot", "SourceLoadError",
           "analyse", "declared_strict", "schema_key", "sent_strict",
           "tool_fields", "value_at"]

SHAPES: tuple[str, ...] = ("jsonrpc", "mcp", "anthropic", "openai", "gemini", "tool-list",
                           "tool", "schema")

# How one tool object spells its name and schema. "openai-chat" nests them under
# `function`; "schema" is a bare JSON Schema standing in for a whole tool.
Flavor = Literal["mcp", "anthropic", "openai-chat", "openai-flat", "gemini", "schema"]
Key = str | int

_FAMILY: dict[str, str] = {"mcp": "mcp", "anthropic": "anthropic", "openai-chat": "openai",
                           "openai-flat": "openai", "gemini": "gemini"}
_FAMILY_LABEL: dict[str, str] = {
    "mcp": "MCP (inputSchema)", "anthropic": "Anthropic (input_schema)",
    "openai": 'OpenAI (type "function")', "gemini": "Gemini (functionDeclarations)"}
_GEMINI_CONTAINERS = ("functionDeclarations", "function_declarations")
# Order matters: when a declaration (wrongly) has both, `parameters` is the one read.
GEMINI_SCHEMA_KEYS = ("parameters", "parametersJsonSchema", "parameters_json_schema")
GEMINI_FIELDS = ("parameters", "parametersJsonSchema")
_SCHEMA_KEYS = ("properties", "$schema", "$defs", "definitions", "anyOf", "oneOf", "allOf",
                "$ref", "items", "required")
# Lower-cased so Gemini's upper-case OpenAPI types ("OBJECT") count too.
_TYPE_NAMES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})

_EXPECTED = ("expected an MCP tools/list result, a list of tools, one tool, a JSON Schema, "
             "or an OpenAI/Anthropic/Gemini tool list")
_GENERIC_HINT = 'give a tools/list result such as {"tools": [{"name": ..., "inputSchema": {...}}]}'
_DECLARATION_HINT = (
    'these look like bare function declarations: wrap them in {"functionDeclarations": [...]} '
    'for Gemini, or write each as {"type": "function", "function": {...}} for OpenAI')


class SourceLoadError(ValueError):
    """A source that holds no usable tool listing; `.error` is what the report shows."""

    def __init__(self, error: SourceError) -> None:
        super().__init__(error.one_line())
        self.error = error


class Slot(NamedTuple):
    """Where one tool object sits in a document, and how it spells its fields."""

    path: tuple[Key, ...]
    flavor: Flavor
    snake: bool = False  # gemini: write `parameters_json_schema`, as the document does


class Layout(NamedTuple):
    """A recognised document: its shape (one of SHAPES) and one slot per tool."""

    shape: str
    slots: tuple[Slot, ...]


def _no_match(message: str, hint: str = _GENERIC_HINT) -> NoReturn:
    # The source label is not known here; `from_document` fills it in.
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
        return f"a JSON object with keys {_key_list(list(value))}" if value else \
            "an empty JSON object"
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
    return {"booleans": "a JSON boolean", "nulls": "null", "numbers": "a JSON number",
            "strings": "a JSON string"}[_kind(value)]


def _looks_like_declaration(value: Any) -> bool:
    return isinstance(value, dict) and "name" in value and \
        any(k in value for k in GEMINI_SCHEMA_KEYS)


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


def declared_strict(entry: Any) -> bool | None:
    """The `strict` a tool entry gives itself (where its format keeps it: at the top of an
    MCP, Anthropic or flat OpenAI entry, under `function` in OpenAI Chat), or None when it
    gives none. Gemini declarations and bare schemas have no such field."""
    flavor = _entry_flavor(entry)
    if flavor is None or flavor == "gemini":
        return None
    fields = tool_fields(entry, flavor)
    flag = fields.get("strict") if fields is not None else None
    return flag if isinstance(flag, bool) else None


def sent_strict(entries: Sequence[Any]) -> list[bool | None]:
    """Whether each tool entry of one listing is sent with `strict: true` (True), without
    (False), or is not said (None: the profile decides, as for any MCP listing).

    A listing in which no entry says `strict` says nothing. Once one does, the listing is
    read as its provider reads it: in the Anthropic and OpenAI Chat formats a tool without
    `strict` is sent non-strict; in MCP listings (where `transform` marks only the tools it
    sends without `strict`) and OpenAI Responses tools it is not said."""
    declared = [declared_strict(entry) for entry in entries]
    if all(flag is None for flag in declared):
        return declared
    out: list[bool | None] = []
    for entry, flag in zip(entries, declared, strict=True):
        if flag is None and _entry_flavor(entry) in ("anthropic", "openai-chat"):
            flag = False
        out.append(flag)
    return out


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


def _gemini_slots(container: Any, path: tuple[Key, ...], key: str) -> list[Slot]:
    if not isinstance(container, list):
        _no_match(f'not a tool listing: "{key}" must be a list of function declarations; '
                  f"found {_describe(container)}",
                  f'write "{key}": [{{"name": ..., "parameters": {{...}}}}]')
    slots = []
    for j, decl in enumerate(container):
        snake = key == "function_declarations"
        if isinstance(decl, dict):
            if "parameters_json_schema" in decl:
                snake = True
            elif "parametersJsonSchema" in decl:
                snake = False
        slots.append(Slot((*path, key, j), "gemini", snake))
    return slots


def _list_slots(items: list[Any], path: tuple[Key, ...], *, in_object: bool
                ) -> tuple[str, list[Slot]] | None:
    """Classify a list of tool entries: (family, slots), or None when it is not one."""
    first_seen: dict[str, int] = {}
    for i, entry in enumerate(items):
        flavor = _entry_flavor(entry)
        if flavor is not None:
            first_seen.setdefault(_FAMILY[flavor], i)
    if len(first_seen) > 1:
        where = " and ".join(f"{_FAMILY_LABEL[family]} at [{i}]"
                             for family, i in first_seen.items())
        _no_match(f"not a tool listing: the list mixes tool formats: {where}",
                  "give one file per format")
    if first_seen:
        family = next(iter(first_seen))
    elif not items or (in_object and all(isinstance(e, dict) and "name" in e for e in items)):
        # `{"tools": []}` is a server with no tools; `{"tools": [{"name": "x"}]}` is an MCP
        # listing whose tool lacks inputSchema, which the rules report.
        family = "mcp"
    else:
        return None

    slots: list[Slot] = []
    if family == "gemini":
        for i, entry in enumerate(items):
            if _looks_like_declaration(entry):
                # Skipping it would drop a tool without a word; other entries
                # (googleSearch, codeExecution, ...) are built-ins with no schema.
                _no_match(f"not a tool listing: [{i}] is a function declaration outside "
                          '"functionDeclarations"',
                          'move it into a {"functionDeclarations": [...]} entry')
            if isinstance(entry, dict):
                for key in _GEMINI_CONTAINERS:
                    if key in entry:
                        slots.extend(_gemini_slots(entry[key], (*path, i), key))
        return family, slots

    default: Flavor = "mcp" if family == "mcp" else \
        "anthropic" if family == "anthropic" else "openai-flat"
    if family == "openai" and any(_entry_flavor(e) == "openai-chat" for e in items):
        default = "openai-chat"
    for i, entry in enumerate(items):
        if _is_builtin(entry, family):
            continue
        flavor = _entry_flavor(entry)
        if family == "openai" and isinstance(entry, dict) and flavor is None:
            flavor = "openai-chat" if isinstance(entry.get("function"), dict) else "openai-flat"
        slots.append(Slot((*path, i), flavor or default))
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


def _jsonrpc_layout(document: dict[str, Any]) -> Layout:
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
        _no_match(f"the server answered with a JSON-RPC error: {detail}",
                  "this file holds an error response, not a tools/list result; "
                  "fix the server call and capture it again")
    if "result" not in document and "method" in document:
        method = document["method"]
        _no_match(f"a JSON-RPC request (method {json.dumps(method, ensure_ascii=False)}), "
                  "not a response", "give the server's response to tools/list, not the request")
    result = document.get("result")
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        found = _list_slots(result["tools"], ("result", "tools"), in_object=True)
        if found is not None:
            return Layout("jsonrpc", tuple(found[1]))
    _no_match(f"a JSON-RPC response whose result is not a tool listing; the result is "
              f"{_describe(result)}", "capture the response to a tools/list request")


def analyse(document: Any) -> Layout:
    """Find the shape and every tool slot; raises SourceLoadError (without a source)."""
    if isinstance(document, dict):
        if "jsonrpc" in document and any(k in document for k in ("result", "error", "method")):
            return _jsonrpc_layout(document)
        tools = document.get("tools")
        if isinstance(tools, list):
            found = _list_slots(tools, ("tools",), in_object=True)
            if found is not None:
                return Layout(found[0], tuple(found[1]))
        containers = [key for key in _GEMINI_CONTAINERS if key in document]
        if containers:
            slots: list[Slot] = []
            for key in containers:
                slots.extend(_gemini_slots(document[key], (), key))
            return Layout("gemini", tuple(slots))
        if "inputSchema" in document:
            return Layout("tool", (Slot((), "mcp"),))
        if "input_schema" in document:
            return Layout("anthropic", (Slot((), "anthropic"),))
        if document.get("type") == "function":
            flavor: Flavor = "openai-chat" if isinstance(document.get("function"), dict) \
                else "openai-flat"
            return Layout("openai", (Slot((), flavor),))
        if _looks_like_schema(document):
            return Layout("schema", (Slot((), "schema"),))
    elif isinstance(document, list):
        found = _list_slots(document, (), in_object=False)
        if found is not None:
            family, list_slots = found
            return Layout("tool-list" if family == "mcp" else family, tuple(list_slots))
    _unmatched(document)


# --- where a tool's fields are ------------------------------------------------------


def value_at(document: Any, path: tuple[Key, ...]) -> Any:
    """The value at `path` (a slot's) in `document`."""
    node = document
    for key in path:
        node = node[key]
    return node


def tool_fields(entry: dict[str, Any], flavor: Flavor) -> dict[str, Any] | None:
    """The object that holds name/description/schema (OpenAI chat nests it)."""
    if flavor == "openai-chat":
        inner = entry.get("function")
        return inner if isinstance(inner, dict) else None
    return entry


def schema_key(fields: Mapping[str, Any], flavor: Flavor) -> str | None:
    """The field that holds the schema; a Gemini declaration may have none."""
    if flavor == "mcp":
        return "inputSchema"
    if flavor == "anthropic":
        return "input_schema"
    if flavor in ("openai-chat", "openai-flat"):
        return "parameters"
    return next((key for key in GEMINI_SCHEMA_KEYS if key in fields), None)

