"""The common fix: remove keywords the provider cannot take, describing what they said.

Many rules differ only in which keywords they remove and how the description words them,
so they are built from this one factory rather than written out again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..model import Accepts, Safety, Severity, Told, safety_of
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .effects import EXEMPTING, VALIDATION, drop_safety
from .hints import with_hint

HintFn = Callable[[str, Any, dict[str, Any]], "str | None"]


def drop_rule(
    *,
    code: str,
    name: str,
    keywords: tuple[str, ...],
    message: str,
    hint: HintFn | None,
    docs: RuleDocs,
    severity: Severity = "error",
    safety: Safety = "hinted",
    fix_title: str | None = None,
    applies: Callable[[str, Any, dict[str, Any]], bool] | None = None,
    reads_below: bool = True,
) -> Rule:
    """A rule flagging each of `keywords` on a node and removing it with a hint."""

    def present(node: Any) -> list[str]:
        if not isinstance(node, dict):
            return []
        return [k for k in keywords if k in node and (applies is None or applies(k, node[k], node))]

    def detect(node: Any, ctx: NodeContext) -> Iterable[Hit]:
        for k in present(node):
            text = hint(k, node[k], node) if hint else None
            yield Hit(message.format(keyword=k), (k,), k,
                      *drop_safety(k, node[k], bool(text), node))

    def fix(node: Any, ctx: NodeContext) -> Fixed | None:
        keys = present(node)
        if not keys:
            return None
        out = {k: v for k, v in node.items() if k not in keys}
        edits = []
        for k in keys:
            text = hint(k, node[k], node) if hint else None
            if text:
                out = with_hint(out, text)
            class_, accepts, told = drop_safety(k, node[k], bool(text), node)
            edits.append(Edit((k,), class_, f"removed `{k}`; described it instead" if text
                              else f"removed `{k}`", accepts=accepts, told=told))
        return Fixed(out, tuple(edits))

    # The usual case, for the rule's docs: its first keyword removed, and described.
    usual: Accepts = "wider" if keywords[0] in VALIDATION else "equal"
    told: Told = "described" if hint else "kept"
    cases: list[tuple[str, Accepts, Told]] = []
    if usual == "wider":
        cases.append(("a value that constrains nothing (`true`, `{}`, a zero minimum)",
                      "equal", told))
    if any(k in EXEMPTING for k in keywords):
        cases.append(("beside the keyword that then rules on what it exempted "
                      "(`additionalProperties`, `items`)", "changed", told))
    return Rule(
        code=code, name=name, severity=severity, message=message.format(keyword=keywords[0]),
        safety=safety_of(usual, told), accepts=usual, told=told, cases=tuple(cases),
        fix_title=fix_title or "Remove it, keeping its meaning in `description`",
        detect=detect, fix=fix, docs=docs, claims=frozenset(keywords),
        triggers=frozenset(keywords), reads_below=reads_below,
    )
