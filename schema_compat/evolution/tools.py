"""Two versions of a server's tools, compared: what breaks their callers, and what drifted.

Tools are matched by name. For each pair, the input schemas are compared old -> new (a
caller sends what the old accepted), the output schemas new -> old (a caller reads what the
new may hold), and the texts and annotations side by side. A difference the comparer finds
becomes a breaking finding only with an example that jsonschema shows: the one schema
accepts it and the other refuses it. Without one it is "possibly breaking", with the reason;
never compatible by default.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple

from ..model import Path, ToolDef
from .checks import BY_CODE, Check, Direction, check_for
from .compare import Canon, Difference, differences, show
from .document import NOTHING, Document

Status = Literal["added", "removed", "breaking", "compatible", "unchanged"]
# hint -> (the value a change away from makes the tool riskier, the MCP spec's default)
_RISKIER = {"readOnlyHint": (True, False), "destructiveHint": (False, True),
            "idempotentHint": (True, False), "openWorldHint": (False, True)}
_TEXTS = (("description", "EVO301"), ("title", "EVO303"), ("default", "EVO302"))


class VersionFinding(NamedTuple):
    check: Check
    direction: Direction
    breaking: bool
    certain: bool  # False: "possibly breaking", `reason` says why
    message: str
    old_path: Path | None  # None: the tool itself, or a side that has no such node
    new_path: Path | None
    example: Any = NOTHING  # breaking input: old accepts, new refuses; output: the reverse
    reason: str = ""
    old: Any = NOTHING  # drift: the old and new text or value
    new: Any = NOTHING


class ToolChange(NamedTuple):
    name: str
    status: Status
    findings: tuple[VersionFinding, ...]
    old: ToolDef | None
    new: ToolDef | None


def compare_tools(old: Sequence[ToolDef], new: Sequence[ToolDef]) -> list[ToolChange]:
    """Every tool of either version, in the old order then the added ones."""
    old_by, new_by = _by_name(old), _by_name(new)
    out: list[ToolChange] = []
    for name, before in old_by.items():
        after = new_by.get(name)
        if after is None:
            out.append(_removed(before, [t for n, t in new_by.items() if n not in old_by]))
        else:
            findings = tuple(_pair(before, after))
            out.append(ToolChange(name, _status(before, after, findings), findings, before,
                                  after))
    for name, after in new_by.items():
        if name not in old_by:
            f = VersionFinding(BY_CODE["EVO002"], "tool", False, True, f"tool `{name}` was added",
                        None, ())
            out.append(ToolChange(name, "added", (f,), None, after))
    return out


def _by_name(tools: Iterable[ToolDef]) -> dict[str, ToolDef]:
    found: dict[str, ToolDef] = {}
    for tool in tools:
        found.setdefault(tool.name, tool)
    return found


def _removed(tool: ToolDef, added: list[ToolDef]) -> ToolChange:
    canon = Canon()
    same = [t.name for t in added if canon.same(t.schema, tool.schema)]
    message = f"tool `{tool.name}` was removed"
    if same:
        message += (f"; `{same[0]}` was added with the same input schema (renamed?)" if
                    len(same) == 1 else f"; {len(same)} added tools have the same input schema")
    f = VersionFinding(BY_CODE["EVO001"], "tool", True, True, message, (), None)
    return ToolChange(tool.name, "removed", (f,), tool, None)


def _status(old: ToolDef, new: ToolDef, findings: tuple[VersionFinding, ...]) -> Status:
    """breaking; compatible (drift, or a schema that accepts more); or unchanged in meaning
    (accepting the same both ways: a `$ref` refactor, key order, an `allOf` split)."""
    if any(f.breaking for f in findings):
        return "breaking"
    if findings:
        return "compatible"
    for a, b in ((new.schema, old.schema), (old.raw.get("outputSchema"),
                                            new.raw.get("outputSchema"))):
        if a is not None and b is not None and differences(Document(a), Document(b)):
            return "compatible"
    if (old.raw.get("outputSchema") is None) != (new.raw.get("outputSchema") is None):
        return "compatible"
    return "unchanged"


def _pair(old: ToolDef, new: ToolDef) -> Iterable[VersionFinding]:
    yield from _schemas(old.schema, new.schema, "input")
    old_out, new_out = old.raw.get("outputSchema"), new.raw.get("outputSchema")
    if old_out is not None and new_out is None:
        yield VersionFinding(BY_CODE["EVO205"], "output", True, True,
                      "the output schema was removed: the output may now hold anything",
                      (), None)
    elif old_out is not None and new_out is not None:
        yield from _schemas(old_out, new_out, "output")
    yield from _annotations(old.raw.get("annotations"), new.raw.get("annotations"))
    yield from _drift(old, new)


def _schemas(old: Any, new: Any, direction: Direction) -> Iterable[VersionFinding]:
    before, after = Document(old), Document(new)
    wide, narrow = (before, after) if direction == "input" else (after, before)
    words = {"a": "the old version", "b": "the new version"} if direction == "input" else \
        {"a": "the new version", "b": "the old version"}
    for diff in differences(wide, narrow):
        yield _finding(diff, wide, narrow, direction, words)


def _finding(diff: Difference, wide: Document, narrow: Document, direction: Direction,
             words: dict[str, str]) -> VersionFinding:
    check = check_for(diff.kind, direction)
    message = diff.detail.replace("{a}", words["a"]).replace("{b}", words["b"])
    old_path, new_path = (diff.a_path, diff.b_path) if direction == "input" else \
        (diff.b_path, diff.a_path)
    for value in _unique(diff.candidates):
        if wide.accepts(value) is True and narrow.accepts(value) is False:
            return VersionFinding(check, direction, True, True, message, old_path, new_path,
                           example=value)
    reason = diff.reason or ("no example was found that " + words["a"] + " accepts and "
                             + words["b"] + " refuses")
    return VersionFinding(check, direction, True, False, message, old_path, new_path, reason=reason)


def _unique(values: Iterable[Any]) -> Iterable[Any]:
    seen: set[str] = set()
    for value in values:
        try:
            key = json.dumps(value, sort_keys=True)
        except (TypeError, ValueError):
            continue
        if key not in seen:
            seen.add(key)
            yield value


def _annotations(old: Any, new: Any) -> Iterable[VersionFinding]:
    old = old if isinstance(old, dict) else {}
    new = new if isinstance(new, dict) else {}
    for hint, (safe, default) in _RISKIER.items():
        was, now = old.get(hint, default), new.get(hint, default)
        if was == safe and now != safe:
            yield VersionFinding(BY_CODE["EVO003"], "tool", False, True,
                          f"annotation {hint}: {json.dumps(was)} -> {json.dumps(now)}",
                          ("annotations", hint), ("annotations", hint), old=was, new=now)


def _drift(old: ToolDef, new: ToolDef) -> Iterable[VersionFinding]:
    """Changed descriptions, titles and defaults: of the tool, and of each node the two
    input schemas hold at the same place (the references followed)."""
    for key, code in _TEXTS[:2]:
        was, now = old.raw.get(key), new.raw.get(key)
        if was != now and (was is not None or now is not None):
            yield _text_finding(code, f"the tool's {key}", (), (), was, now)
    before, after = Document(old.schema), Document(new.schema)
    yield from _node_drift(before, after, old.schema, (), new.schema, (), set())


def _node_drift(before: Document, after: Document, a: Any, ap: Path, b: Any, bp: Path,
                active: set[tuple[int, int]]) -> Iterable[VersionFinding]:
    use_a, use_b = a, b  # a reference's own annotations win over its target's
    a, ap = before.deref(a, ap)
    b, bp = after.deref(b, bp)
    if not (isinstance(a, dict) and isinstance(b, dict)) or (id(a), id(b)) in active \
            or len(ap) > 200:
        return
    active.add((id(a), id(b)))
    for key, code in _TEXTS:  # the root's too: its description is read by the model
        was, now = _text(use_a, a, key), _text(use_b, b, key)
        if was != now and not (was is NOTHING and now is NOTHING):
            what = f"{key} at {_where(bp or ap)}" if ap or bp else f"the input schema's {key}"
            yield _text_finding(code, what, (*ap, key), (*bp, key),
                                None if was is NOTHING else was,
                                None if now is NOTHING else now)
    pa, pb = a.get("properties"), b.get("properties")
    if isinstance(pa, dict) and isinstance(pb, dict):
        for name in (n for n in pa if n in pb):  # the old order: the same report every run
            yield from _node_drift(before, after, pa[name], (*ap, "properties", name),
                                   pb[name], (*bp, "properties", name), active)
    for key in ("items", "additionalProperties"):
        if isinstance(a.get(key), dict) and isinstance(b.get(key), dict):
            yield from _node_drift(before, after, a[key], (*ap, key), b[key], (*bp, key),
                                   active)
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        la, lb = a.get(key), b.get(key)
        if isinstance(la, list) and isinstance(lb, list) and len(la) == len(lb):
            for i, (x, y) in enumerate(zip(la, lb, strict=True)):
                yield from _node_drift(before, after, x, (*ap, key, i), y, (*bp, key, i),
                                       active)


def _text(use: Any, node: dict[str, Any], key: str) -> Any:
    if isinstance(use, dict) and key in use:
        return use[key]
    return node.get(key, NOTHING)


def _text_finding(code: str, what: str, old_path: Path, new_path: Path, was: Any,
                  now: Any) -> VersionFinding:
    if was is None:
        message = f"{what} added"
    elif now is None:
        message = f"{what} removed"
    else:
        message = f"{what} changed"
    if code == "EVO302":
        message += f": {show(was)} -> {show(now)}"
    return VersionFinding(BY_CODE[code], "input" if code == "EVO302" else "tool", False, True,
                   message, old_path, new_path, old=was, new=now)


def _where(path: Path) -> str:
    names = [str(k) for i, k in enumerate(path) if i and path[i - 1] == "properties"]
    return "`" + ".".join(names) + "`" if names else "the schema"


def restatus(change: ToolChange, findings: tuple[VersionFinding, ...]) -> ToolChange:
    """`change` keeping only `findings` (--select, --ignore), its status told again."""
    status = change.status
    if status not in ("added", "removed"):
        status = "breaking" if any(f.breaking for f in findings) else \
            "unchanged" if status == "unchanged" else "compatible"
    return change._replace(findings=findings, status=status)
