"""The common fix: remove keywords the provider cannot take, describing what they said.

Many rules differ only in which keywords they remove and how the description words them,
so they are built from this one factory rather than written out again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..model import Safety, Severity
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
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
            yield Hit(message.format(keyword=k), (k,), k, safety if text or not hint else
                      "lossless")

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
                edits.append(Edit((k,), safety, f"removed `{k}`; described it instead"))
            else:
                edits.append(Edit((k,), "lossless" if hint else safety, f"removed `{k}`"))
        return Fixed(out, tuple(edits))

    return Rule(
        code=code, name=name, severity=severity, message=message.format(keyword=keywords[0]),
        safety=safety, fix_title=fix_title or "Remove it, keeping its meaning in `description`",
        detect=detect, fix=fix, docs=docs, claims=frozenset(keywords),
        triggers=frozenset(keywords), reads_below=reads_below,
    )
