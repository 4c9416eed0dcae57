"""One line of the proxy's stdio, read as one JSON-RPC message or refused with the reason.

Every line the proxy reads, from its client or from a stdio upstream, goes through
`read_message` before anything looks inside it, so that no malformed message reaches the
relay's logic (where an `id` that is an object cannot be a key, a depth bomb blows the
stack of every walker, a lone surrogate cannot be written back as UTF-8), and no malformed
line costs the lines read with it their answers. A refusal carries the JSON-RPC error that
answers it: -32700 when the line is not JSON, -32600 when it is JSON but not one MCP message
(a batch: MCP removed batching in 2025-06-18; an id that is not a string or an integer;
params that are not an object).

A message still costs one parse: the checks that walk the whole message (depth, lone
surrogates) run only when a byte count or a substring search says they might find
something. A large listing has more brackets than the bound, so its depth is walked: for
10,000 tools (23 MB) about 0.45 s on top of the 1.1 s parse, and of the seconds its
transformation takes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..jsonio import MAX_DEPTH, has_surrogate, too_deep

__all__ = ["INTERNAL_ERROR", "INVALID_REQUEST", "MESSAGE_DEPTH", "PARSE_ERROR", "Refused",
           "as_dict", "error_message", "read_message", "usable_id"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
# A schema as deep as the file loader accepts, inside a tools/list answer
# (message.result.tools[i].inputSchema) or a tools/call's arguments, with room to spare.
MESSAGE_DEPTH = MAX_DEPTH + 8

Message = dict[str, Any]

# A JSON string (its escapes included) or a bracket: enough to follow the nesting of a text
# too deep for json to parse, without parsing it. A string left open runs to the end of the
# text, so that no quote makes the search start again (quadratic on `"\"\"\"...`).
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)
_COLON = re.compile(r"\s*:\s*")


@dataclass(frozen=True)
class Refused:
    """A line that is not one JSON-RPC message the proxy can relay.

    `rid` is the message's own id when it has a usable one (a string or an integer; None
    otherwise), so that the request it belongs to can be answered at once; `answer`
    says the message looked like an answer (no `method`), whose id is one the OTHER side
    asked with."""

    code: int
    reason: str
    rid: Any = None
    answer: bool = False

    def error(self) -> Message:
        """The JSON-RPC error for the sender: for its request, under its id; for anything
        else (an answer, a line that is not JSON, an id that is unusable) under a null id,
        as JSON-RPC says."""
        unknown = self.answer or self.code == PARSE_ERROR
        return {"jsonrpc": "2.0", "id": None if unknown else self.rid,
                "error": {"code": self.code, "message": f"schema-compat proxy: {self.reason}"}}


    def asker_error(self) -> Message | None:
        """For a refused answer whose id is known: an error under that id for the side
        that asked, which would otherwise wait for an answer that never comes."""
        if not self.answer or self.rid is None:
            return None
        return {"jsonrpc": "2.0", "id": self.rid, "error": {
            "code": INTERNAL_ERROR,
            "message": f"schema-compat proxy: the answer cannot be relayed: {self.reason}"}}


def as_dict(value: Any) -> dict[str, Any]:
    """`value` when it is an object, else an empty one: a message's fields are read this way,
    whatever the sender put there."""
    return value if isinstance(value, dict) else {}


def error_message(rid: Any, code: int, message: str) -> Message:
    """The JSON-RPC error answer to request `rid`."""
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}


def read_message(line: bytes) -> Message | Refused | None:
    """The message on `line`, the reason it is refused, or None for a blank line."""
    if not line.strip():
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Refused(PARSE_ERROR, f"not UTF-8 (byte 0x{line[exc.start]:02x} at offset "
                                    f"{exc.start})")
    try:
        msg = json.loads(text, parse_constant=_no_constant)
    except (RecursionError, ValueError) as exc:
        # for whoever waits for it, when it is an answer; and how deep it goes, so that a
        # text both too deep and malformed is refused for its depth whatever the stack
        # left json to find first
        keys, rid, deepest = _outline(text)
        if isinstance(exc, RecursionError) or deepest > MESSAGE_DEPTH:
            code, reason = INVALID_REQUEST, f"nested deeper than {MESSAGE_DEPTH} levels"
        elif isinstance(exc, json.JSONDecodeError):
            code, reason = PARSE_ERROR, f"not JSON ({exc.msg} at column {exc.colno})"
        else:  # NaN, or an integer longer than Python reads
            code, reason = PARSE_ERROR, f"not readable JSON ({exc})"
        return Refused(code, reason, rid, answer=bool(keys) and "method" not in keys)
    if isinstance(msg, list):
        return Refused(INVALID_REQUEST, "JSON-RPC batches are not supported (MCP removed "
                                        "them in 2025-06-18): send one message per line")
    if not isinstance(msg, dict):
        return Refused(INVALID_REQUEST, f"a JSON {_kind(msg)}, not a JSON-RPC "
                                        "message (an object)")
    rid = msg.get("id")
    if not usable_id(rid):
        rid = None
    answer = "method" not in msg

    def refuse(reason: str) -> Refused:
        return Refused(INVALID_REQUEST, reason, rid, answer)

    if line.count(b"[") + line.count(b"{") > MESSAGE_DEPTH and too_deep(msg, MESSAGE_DEPTH):
        return refuse(f"nested deeper than {MESSAGE_DEPTH} levels")
    if ("\\ud" in text or "\\uD" in text) and has_surrogate(msg):
        if isinstance(rid, str) and has_surrogate(rid):
            rid = None
        return refuse("a string holds a lone surrogate (\\ud800-\\udfff alone is not "
                      "Unicode text, and cannot be passed on as UTF-8)")
    shape = _shape(msg)
    return refuse(shape) if shape else msg


def _no_constant(name: str) -> Any:
    """NaN and Infinity, which Python reads and no other JSON reader does."""
    raise ValueError(f"{name} is not JSON")


def usable_id(rid: Any) -> bool:
    """An id a request may have in MCP: a string or an integer (JSON-RPC also allows null
    and fractions, which MCP forbids and the SDKs refuse or drop)."""
    return isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))


def _shape(msg: Message) -> str:
    """Why `msg` is not an MCP request, notification or answer ('' when it is): JSON-RPC
    2.0 as MCP narrows it (an id is a string or an integer, params an object), which the
    TypeScript SDK most servers run on enforces. An answer's id may be null: an error
    about a message whose id could not be read."""
    if msg.get("jsonrpc") != "2.0":
        return 'not JSON-RPC 2.0 ("jsonrpc" is not "2.0")'
    if "id" in msg and not usable_id(msg["id"]) and ("method" in msg or msg["id"] is not None):
        return f"the id is a JSON {_kind(msg['id'])}, not a string or an integer"
    if "method" in msg:
        if not isinstance(msg["method"], str):
            return f"the method is a JSON {_kind(msg['method'])}, not a string"
        if "params" in msg and not isinstance(msg["params"], dict):
            return f"the params are a JSON {_kind(msg['params'])}, not an object"
        return ""
    if "id" not in msg:
        return "neither a request, a notification nor an answer (no method, no id)"
    if ("result" in msg) == ("error" in msg):
        return "an answer needs exactly one of result and error"
    return ""


def _kind(value: Any) -> str:
    return {bool: "boolean", dict: "object", list: "array", str: "string",
            type(None): "null"}.get(type(value), "number")


def _outline(text: str) -> tuple[set[str], Any, int]:
    """The top-level keys of a JSON object json could not parse, its id when that is a
    string or an integer (else None): who waits for it can be told at once; and the
    deepest nesting met. Followed by its strings and brackets alone, so the depth costs
    nothing."""
    keys: set[str] = set()
    rid: Any = None
    depth = deepest = 0
    if not text.lstrip().startswith("{"):
        return keys, rid, deepest
    for token in _TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif first in "]}":
            depth -= 1
        elif depth == 1 and (colon := _COLON.match(text, token.end())):
            try:
                key = json.loads(token.group())
            except ValueError:
                continue
            keys.add(key)
            if key == "id" and text[colon.end():colon.end() + 1] not in ("{", "["):
                try:
                    value, _ = json.JSONDecoder().raw_decode(text, colon.end())
                except ValueError:
                    continue
                rid = value if usable_id(value) else None
    return keys, rid, deepest
