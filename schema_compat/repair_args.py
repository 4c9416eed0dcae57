"""Argument repair: turn what a model sent into arguments the ORIGINAL schema accepts.

A transformed schema changes what the model sends (a mixed `enum` became strings, an
optional property became a required nullable one), and some models send arrays and objects
as JSON text (`'["a"]'`), booleans as `"true"` and numbers as `"3"` whatever the schema says.
The server validates against its own schema, so the repair runs against that one.

The walk is top-down and conservative: a value the schema already accepts is never touched,
and a string is never converted where that string is accepted. Only where a value is
invalid does it look for the one reading that fits: JSON text parsed where an array or
object is wanted, `"true"`/`"false"`, numeric strings, `"null"`, the JSON text of a non-string
`enum`/`const` member, and a `null` sent for an optional property that does not take null
(dropped). It recurses through `$ref`, `allOf`, `properties`, `patternProperties`,
`additionalProperties`, `items`/`prefixItems` and every `anyOf`/`oneOf` branch, including
branches whose `type` is a list; a branch's coercions count only if that branch is chosen.

Validation is jsonschema's (`validation.validator`), with an empty `referencing` registry:
only references inside the schema resolve, nothing is ever fetched or read from disk. Every
pattern, the schema's and `patternProperties`', runs in bounded time (RE2,
`schema.patterns`); one RE2 cannot run is reported in `errors`, never run. jsonschema is
imported only when a repair runs, so the check/transform path never loads it.

The module is not called `repair.py` on purpose: `schema_compat.repair` is the function
(exported lazily), and a submodule of that name would replace it on the package once
imported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from .jsonio import JsonInputError, load_json_text
from .model import Path
from .paths import jsonpath, pointer
from .schema.patterns import PatternUnchecked, search
from .schema.shape import value_type

__all__ = ["Coercion", "RepairResult", "repair"]

CoercionKind = Literal["json-array", "json-object", "boolean", "integer", "number", "null",
                       "enum", "drop-null"]

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")
# The order in which a string is read as another type when several are allowed: the
# narrowest reading first, so "1" is an integer before it is a number.
_ORDER = ("null", "boolean", "integer", "number", "array", "object")
_FAIL = object()


@dataclass(frozen=True)
class Coercion:
    """One value the repair changed, where, and from what to what."""

    path: Path
    kind: CoercionKind
    before: Any
    after: Any = None

    @property
    def jsonpath(self) -> str:
        return jsonpath(self.path)

    def describe(self) -> str:
        if self.kind == "drop-null":
            return f"{self.jsonpath}: dropped null (an optional property that takes no null)"
        return (f"{self.jsonpath}: {_short(self.before)} → {_short(self.after)} "
                f"({self.kind})")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.jsonpath, "pointer": pointer(self.path),
                               "kind": self.kind, "from": self.before}
        if self.kind != "drop-null":
            out["to"] = self.after
        return out


@dataclass(frozen=True)
class RepairResult:
    """The repaired arguments, each coercion made, and what the schema still rejects.

    Unpacks as `arguments, coercions = repair(...)`.
    """

    arguments: Any
    coercions: tuple[Coercion, ...]
    errors: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    def __iter__(self) -> Iterator[Any]:
        yield self.arguments
        yield self.coercions

    def to_dict(self) -> dict[str, Any]:
        return {"arguments": self.arguments,
                "coercions": [c.to_dict() for c in self.coercions],
                "valid": self.valid, "errors": list(self.errors)}


def repair(schema: Any, arguments: Any) -> RepairResult:
    """Repair `arguments` against `schema` (the tool's original input schema).

    Never modifies its inputs. `errors` lists what the schema still rejects after the
    repair, each as "JSONPath: message"; a schema that cannot be used (a malformed keyword,
    a reference that does not resolve inside it) is reported there too.
    """
    if schema is None or schema is True or schema == {}:
        return RepairResult(arguments, ())
    if not isinstance(schema, dict):
        if schema is False:
            return RepairResult(arguments, (), ("$: the schema accepts no value",))
        return RepairResult(arguments, (), (f"$: the input schema is not a JSON Schema "
                                            f"object ({type(schema).__name__})",))
    repairer = _Repairer(schema)
    log: list[Coercion] = []
    fixed = repairer.fix(arguments, repairer.validator.schema, repairer.validator._resolver,
                         (), log)
    return RepairResult(fixed, tuple(log), tuple(repairer.errors(fixed)))


class _Repairer:
    def __init__(self, schema: dict[str, Any]) -> None:
        from referencing.jsonschema import specification_with

        from .validation import validator

        self.validator = validator(schema)  # its schema: `schema` without `$schema`s
        cls = type(self.validator)
        self.draft = specification_with(cls.ID_OF(cls.META_SCHEMA))  # how it reads `$id`
        self.active: set[tuple[int, int]] = set()  # (schema, value) pairs being repaired

    # --- validity ------------------------------------------------------------------

    def valid(self, value: Any, schema: Any, resolver: Any) -> bool:
        """Whether `schema` accepts `value`, its references followed with `resolver` (the
        one the walk reached `schema` with)."""
        if schema is True or schema == {}:
            return True
        try:
            return next(self.validator.descend(value, schema, resolver=resolver), None) is None
        except Exception:  # an unresolvable $ref, an unknown type, a bad pattern
            return False

    def errors(self, value: Any) -> list[str]:
        try:
            found = sorted(self.validator.iter_errors(value),
                           key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
        except (Exception, RecursionError) as exc:
            return [f"$: the schema cannot be used: {_reason(exc)}"]
        return [f"{jsonpath(tuple(e.absolute_path))}: {_shortened(e)}" for e in found]

    # --- the walk --------------------------------------------------------------------

    def fix(self, value: Any, schema: Any, resolver: Any, path: Path,
            log: list[Coercion]) -> Any:
        if not isinstance(schema, dict):
            return value
        resolver = resolver.in_subresource(self.draft.create_resource(schema))  # its `$id`
        if self.valid(value, schema, resolver):
            return value
        key = (id(schema), id(value))
        if key in self.active:  # `{"$ref": "#"}` and kin: the same question again
            return value
        self.active.add(key)
        try:
            return self._fix(value, schema, resolver, path, log)
        finally:
            self.active.discard(key)

    def _fix(self, value: Any, schema: dict[str, Any], resolver: Any, path: Path,
             log: list[Coercion]) -> Any:
        ref = schema.get("$ref")
        if isinstance(ref, str):
            try:
                resolved = resolver.lookup(ref)
            except Exception:  # unresolvable: `errors` reports it
                resolved = None
            if resolved is not None:
                value = self.fix(value, resolved.contents, resolved.resolver, path, log)
        members = schema.get("allOf")
        if isinstance(members, list):
            for member in members:
                value = self.fix(value, member, resolver, path, log)
        value = _coerce(value, schema, path, log)
        value = self.descend(value, schema, resolver, path, log)
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches and \
                    not self.valid(value, schema, resolver):
                value = self.pick(value, schema, branches, resolver, path, log)
        return value

    def pick(self, value: Any, schema: dict[str, Any], branches: list[Any], resolver: Any,
             path: Path, log: list[Coercion]) -> Any:
        """The first branch whose repair makes the whole node valid; failing that, the
        first whose repair satisfies the branch itself; failing that, the first that at
        least gave the value a type the branch takes. Other branches' coercions vanish."""
        fallback: tuple[int, Any, list[Coercion]] | None = None
        for branch in branches:
            trial: list[Coercion] = []
            candidate = self.fix(value, branch, resolver, path, trial)
            if not trial:
                continue
            if self.valid(candidate, schema, resolver):
                log.extend(trial)
                return candidate
            rank = 0 if self.valid(candidate, branch, resolver) else \
                1 if _type_fits(candidate, branch) else 2
            if rank < 2 and (fallback is None or rank < fallback[0]):
                fallback = (rank, candidate, trial)
        if fallback is None:
            return value
        log.extend(fallback[2])
        return fallback[1]

    def descend(self, value: Any, schema: dict[str, Any], resolver: Any, path: Path,
                log: list[Coercion]) -> Any:
        if isinstance(value, dict):
            return self.descend_object(value, schema, resolver, path, log)
        if isinstance(value, list):
            return self.descend_array(value, schema, resolver, path, log)
        return value

    def descend_object(self, value: dict[str, Any], schema: dict[str, Any], resolver: Any,
                       path: Path, log: list[Coercion]) -> Any:
        props: dict[str, Any] = _field(schema, "properties", dict)
        patterns: dict[str, Any] = _field(schema, "patternProperties", dict)
        required: list[Any] = _field(schema, "required", list)
        extra = schema.get("additionalProperties")
        out: dict[str, Any] = {}
        changed = False
        for key, item in value.items():
            subs = [props[key]] if key in props else []
            for pattern, sub in patterns.items():
                try:
                    if search(pattern, key):
                        subs.append(sub)
                except PatternUnchecked:  # the validator reports it in `errors`
                    continue
            if not subs and isinstance(extra, dict):
                subs = [extra]
            if item is None and key in props and key not in required and \
                    not self.valid(None, props[key], resolver):
                log.append(Coercion((*path, key), "drop-null", None))
                changed = True
                continue
            new = item
            for sub in subs:
                new = self.fix(new, sub, resolver, (*path, key), log)
            changed = changed or new is not item
            out[key] = new
        return out if changed else value

    def descend_array(self, value: list[Any], schema: dict[str, Any], resolver: Any,
                      path: Path, log: list[Coercion]) -> Any:
        prefix = schema.get("prefixItems")
        items = schema.get("items")
        if isinstance(items, list):  # the tuple form before 2020-12
            prefix, items = items, schema.get("additionalItems")
        prefix = prefix if isinstance(prefix, list) else []
        out = []
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else items
            out.append(self.fix(item, sub, resolver, (*path, i), log))
        return out if any(a is not b for a, b in zip(out, value, strict=True)) else value


def _field(schema: dict[str, Any], key: str, kind: type) -> Any:
    value = schema.get(key)
    return value if isinstance(value, kind) else kind()


# --- scalar coercions ----------------------------------------------------------------


def _coerce(value: Any, schema: dict[str, Any], path: Path, log: list[Coercion]) -> Any:
    """Read a string as the non-string value the node wants: an enum/const member's JSON
    text first (what a stringified enum sends), then by the node's own `type`."""
    if not isinstance(value, str):
        return value
    members = schema["enum"] if isinstance(schema.get("enum"), list) else \
        [schema["const"]] if "const" in schema else None
    if members is not None and not any(isinstance(m, str) and m == value for m in members):
        for member in members:
            if not isinstance(member, str) and _text_is(value, member):
                log.append(Coercion(path, "enum", value, member))
                return member
    types = _types(schema)
    if not types or "string" in types:
        return value
    for kind in _ORDER:
        if kind not in types:
            continue
        got = _read_as(value, kind)
        if got is not _FAIL:
            name: CoercionKind = "json-array" if kind == "array" else \
                "json-object" if kind == "object" else kind  # type: ignore[assignment]
            log.append(Coercion(path, name, value, got))
            return got
    return value


def _types(schema: dict[str, Any]) -> set[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _read_as(text: str, kind: str) -> Any:
    s = text.strip()
    if kind == "null":
        return None if s == "null" else _FAIL
    if kind == "boolean":
        low = s.lower()
        return True if low == "true" else False if low == "false" else _FAIL
    if kind in ("integer", "number"):
        # read as strict JSON: "1e400" (no double holds it) and an integer longer than
        # Python reads (4,300 digits) are no number, and stay the strings they were
        number: Any = _loads(s) if _NUMBER.match(s) else _FAIL
        if number is _FAIL or kind == "number" or isinstance(number, int):
            return number
        return int(number) if number.is_integer() and abs(number) < 2**53 else _FAIL
    parsed = _loads(s)
    if kind == "array" and isinstance(parsed, list):
        return parsed
    if kind == "object" and isinstance(parsed, dict):
        return parsed
    return _FAIL


def _loads(text: str) -> Any:
    """`text` read as strict JSON (jsonio's: no NaN, no number a double cannot hold, no
    nesting deeper than a schema's), or _FAIL: what it gives can always be written back."""
    try:
        return load_json_text(text, "argument")
    except JsonInputError:
        return _FAIL


def _text_is(text: str, member: Any) -> bool:
    """Whether `text` is `member` written as JSON (`"1"` is 1, `"True"` is true)."""
    s = text.strip()
    if isinstance(member, bool):
        return s.lower() == str(member).lower()
    parsed = _loads(s)
    return parsed is not _FAIL and _json_equal(parsed, member)


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _type_fits(value: Any, schema: Any) -> bool:
    """Whether the value's JSON type is one the schema's own `type` names."""
    types = _types(schema) if isinstance(schema, dict) else set()
    kind = value_type(value)
    return kind in types or (kind == "integer" and "number" in types)


def _short(value: Any, limit: int = 40) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shortened(error: Any) -> str:
    """jsonschema's message with the value it quotes cut to 60 characters: a 5,000-digit
    string is still one readable line."""
    quoted = repr(error.instance)
    if len(quoted) <= 60:
        return str(error.message)
    return str(error.message).replace(quoted, quoted[:59] + "…", 1)


def _reason(exc: Exception) -> str:
    """Why the schema could not be applied, in one line."""
    if isinstance(exc, RecursionError):
        return "its references loop without end (e.g. {\"$ref\": \"#\"})"
    cause: BaseException | None = exc
    while cause is not None:
        ref = getattr(cause, "ref", None)
        if isinstance(ref, str):
            return (f"cannot resolve $ref {ref!r} (only references inside the schema are "
                    "followed; nothing is fetched)")
        cause = cause.__cause__
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
