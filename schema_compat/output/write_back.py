"""Writing transformed tools back into the document they were read from, in its shape.

`transform` hands back a file the user can drop in where the original was: the same
wrapper, the same key order, every other field as it was, only each tool's name and schema
replaced. The document's slots (`extract/shapes`: where each tool sits and how it spells its
fields) say where. `iter_write_back` writes the document as text with them filled in, one
tool at a time, so that a large listing is never held twice.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..extract.shapes import (
    GEMINI_SCHEMA_KEYS,
    Flavor,
    Key,
    Layout,
    Slot,
    analyse,
    schema_key,
    tool_fields,
    value_at,
)
from ..jsonio import iter_indented
from ..mcp_tool import empty_schema, with_dialect
from ..model import JSON_SCHEMA, ToolDef

if TYPE_CHECKING:
    from ..extract.files import LoadedSource

__all__ = ["GEMINI_FIELDS", "Written", "iter_write_back"]

# What `iter_write_back` writes in one tool's place: its name, its schema and whether it is
# sent strict (None: as the document says).
Written = tuple[str, Any, bool | None]

# The fields a Gemini declaration's schema may be moved to (the third spelling,
# `parameters_json_schema`, is `parametersJsonSchema` in a snake_case document).
GEMINI_FIELDS = ("parameters", "parametersJsonSchema")


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


def _gemini_target(current: str | None, slot: Slot, gemini_field: str | None) -> str:
    if gemini_field is None:
        return current or "parameters"
    if gemini_field == "parametersJsonSchema" and slot.snake:
        return "parameters_json_schema"
    return gemini_field


def _slot_value(
    entry: Any,
    slot: Slot,
    tool: ToolDef,
    new_name: str,
    new_schema: Any,
    gemini_field: str | None,
    strict: bool | None,
    dialect: str,
) -> Any:
    """What the slot holds once its tool is written: `entry` (the value there now) itself
    when nothing changes, else a new object. `entry` is never modified, so the writer works
    from the loaded document.

    A name equal to the loaded one, or a schema that *is* the loaded schema object, is left
    as the document had it: so identity replacements give back the document unchanged, even
    for malformed tools (a placeholder name is never written, a missing schema stays missing).
    """
    name_changed = new_name != tool.name
    schema_changed = new_schema is not tool.schema
    if strict is not None and isinstance(entry, dict) and slot.flavor not in ("schema",
                                                                              "gemini"):
        entry = _with_strict(entry, slot.flavor, strict)
    if slot.flavor == "schema":
        if not schema_changed:
            return entry
        return new_schema if new_schema is not None else empty_schema()

    if isinstance(entry, dict):
        entry = dict(entry)
    elif not name_changed and not schema_changed:
        return entry
    else:
        entry = _new_entry(slot.flavor)
        name_changed = True  # the new object needs a name, even a placeholder one
    fields = tool_fields(entry, slot.flavor)
    if fields is None:  # openai-chat whose `function` is missing or not an object
        fields = {}
    elif fields is not entry:
        fields = dict(fields)
    if fields is not entry:
        entry["function"] = fields
    if name_changed:
        fields["name"] = new_name

    if slot.flavor == "gemini":
        _write_gemini_schema(fields, slot, schema_changed, new_schema, gemini_field)
        return entry
    if not schema_changed:
        return entry
    key = schema_key(fields, slot.flavor)
    assert key is not None  # only gemini declarations can lack a schema field name
    if new_schema is None:
        if slot.flavor in ("openai-chat", "openai-flat"):
            fields.pop(key, None)  # OpenAI takes a function without parameters
        else:
            fields[key] = empty_schema()  # MCP and Anthropic require one
    else:
        fields[key] = new_schema
    if slot.flavor == "mcp":  # the one shape whose schema may be in either dialect
        with_dialect(entry, dialect)
    return entry


def _with_strict(entry: dict[str, Any], flavor: Flavor, strict: bool) -> dict[str, Any]:
    """`entry` saying whether the tool is sent strict: its `strict` field in the Anthropic
    and OpenAI formats; in an MCP listing, which has no such field, `strict: false` marks a
    tool sent without it (`extract.shapes.sent_strict` reads it back), and an entry
    without one is left so. A new object when that changes anything."""
    fields = tool_fields(entry, flavor)
    if fields is None or fields.get("strict") is strict or (
            flavor == "mcp" and strict and "strict" not in fields):
        return entry
    entry = dict(entry)
    if fields is not entry and flavor == "openai-chat":
        entry["function"] = fields = dict(fields)
    else:
        fields = entry
    fields["strict"] = strict
    return entry


def _write_gemini_schema(
    fields: dict[str, Any],
    slot: Slot,
    schema_changed: bool,
    new_schema: Any,
    gemini_field: str | None,
) -> None:
    """Gemini takes `parameters` or `parametersJsonSchema`, never both: keep exactly one."""
    current = next((key for key in GEMINI_SCHEMA_KEYS if key in fields), None)
    target = _gemini_target(current, slot, gemini_field)
    others = [key for key in GEMINI_SCHEMA_KEYS if key != target and key in fields]
    if schema_changed:
        value = new_schema
    elif gemini_field is None or current is None or (current == target and not others):
        return  # unchanged schema, and no field to move it to
    else:
        value = fields[current]
    if value is None:
        for key in GEMINI_SCHEMA_KEYS:
            fields.pop(key, None)
        return
    _put(fields, target, value, replacing=GEMINI_SCHEMA_KEYS)
    for key in GEMINI_SCHEMA_KEYS:
        if key != target:
            fields.pop(key, None)


def _check_field(gemini_field: str | None) -> None:
    if gemini_field is not None and gemini_field not in GEMINI_FIELDS:
        raise ValueError(
            f"gemini_field must be one of {', '.join(GEMINI_FIELDS)}, not {gemini_field!r}"
        )


def _slot_of(source: LoadedSource, layout: Layout, index: int) -> Slot:
    if not 0 <= index < len(layout.slots) or index >= len(source.tools):
        raise IndexError(f"{source.label} has no tool number {index} (it has {len(layout.slots)})")
    return layout.slots[index]


def iter_write_back(
    source: LoadedSource,
    indexes: Collection[int],
    take: Callable[[int], Written],
    *,
    gemini_field: str | None = None,
    ensure_ascii: bool = False,
    dialect: str = JSON_SCHEMA,
) -> Iterator[str]:
    """`source.document` as indented JSON text, in pieces, with each tool i of `indexes`
    written as `take(i)` says (its name, its schema in `dialect`, whether it is sent strict:
    `_with_strict`); `take(i)` is called only when tool i's place in the document is written.

    `transform` computes each tool inside `take`, so one transformed tool is held at a time
    and neither a copy of the document nor its text is ever built. Tools not in `indexes`
    are written as loaded. `ensure_ascii` is the caller's: a stream must choose before its
    first piece (see `output.document.document_pieces`).
    """
    _check_field(gemini_field)
    layout = analyse(source.document)
    at = {_slot_of(source, layout, i).path: i for i in indexes}

    def fill(path: tuple[Key, ...]) -> Any:
        index = at[path]
        new_name, new_schema, strict = take(index)
        return _slot_value(
            value_at(source.document, path), layout.slots[index], source.tools[index], new_name,
            new_schema, gemini_field, strict, dialect,
        )

    return iter_indented(source.document, ensure_ascii=ensure_ascii, holes=at, fill=fill)
