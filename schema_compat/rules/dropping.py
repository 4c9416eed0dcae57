"""The common fix: remove keywords the provider cannot take, describing what they said.

Many rules differ only in which keywords they remove and how the description words them.
A `Drop` holds that difference and does the work; each rule's family module names its own
`detect_<rule-name>`/`fix_<rule-name>` that hand over to it, so that a rule's code still
leads to functions named after it in its family's file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from ..model import Accepts, Safety, Severity, Told, safety_of
from ..schema.hints import with_hint
from .base import Detector, Edit, Fixed, Fixer, Hit, NodeContext, Rule, RuleDocs
from .effects import EXEMPTING, VALIDATION, drop_effect, drop_safety, vacuous_values

HintFn = Callable[[str, Any, dict[str, Any]], "str | None"]
AppliesFn = Callable[[str, Any, dict[str, Any]], bool]


# What most dropped keywords are: absent from the provider's schema format altogether.
NOT_A_FIELD = "`{keyword}` is not a field of the provider's schema"


class Drop:
    """Flags each of `keywords` on a node (where `applies` says so) and removes it, with
    the hint `hint` words for it added to the description. `message` is the finding's
    text, `{keyword}` standing for the keyword found."""

    __slots__ = ("applies", "hint", "keywords", "message")

    keywords: tuple[str, ...]
    message: str  # `{keyword}` stands for the keyword found
    hint: HintFn | None
    applies: AppliesFn | None

    def __init__(self, keywords: tuple[str, ...], hint: HintFn | None = None, *,
                 message: str = NOT_A_FIELD, applies: AppliesFn | None = None) -> None:
        self.keywords = keywords
        self.message = message
        self.hint = hint
        self.applies = applies

    def present(self, node: Any) -> list[str]:
        if not isinstance(node, dict):
            return []
        applies = self.applies
        return [k for k in self.keywords
                if k in node and (applies is None or applies(k, node[k], node))]

    def detect(self, node: Any, ctx: NodeContext) -> Iterable[Hit]:
        return drop_hits(node, self.present(node), self.hint, self.message)

    def fix(self, node: Any, ctx: NodeContext) -> Fixed | None:
        keys = self.present(node)
        return drop_keywords(node, keys, self.hint) if keys else None


def drop_hits(node: Any, keys: list[str], hint: HintFn | None,
              message: str = NOT_A_FIELD) -> list[Hit]:
    """A finding for each of the node's `keys`, with the effect of removing it."""
    return [Hit(message.format(keyword=k), (k,), k,
                *drop_safety(k, node[k], bool(hint and hint(k, node[k], node)), node))
            for k in keys]


def drop_keywords(node: dict[str, Any], keys: list[str], hint: HintFn | None) -> Fixed:
    """The node without `keys`, what `hint` says of each put into its description."""
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


def drop_rule(
    *,
    code: str,
    name: str,
    drop: Drop,
    detect: Detector,
    fix: Fixer,
    docs: RuleDocs,
    severity: Severity = "error",
    safety: Safety = "hinted",
    fix_title: str | None = None,
) -> Rule:
    """The rule for `drop`; `detect` and `fix` are its family's functions handing over to
    `drop.detect` and `drop.fix`."""
    keywords = drop.keywords
    # The usual case, for the rule's docs: its first keyword removed, and described.
    usual: Accepts = "wider" if keywords[0] in VALIDATION else "equal"
    told: Told = "described" if drop.hint else "kept"
    cases: list[tuple[str, Accepts, Told]] = []
    # The values of its keywords that constrain nothing, judged as the fix judges them (the
    # hint decides whether one is described), grouped by what removing them does.
    nothing: dict[tuple[Accepts, Told], list[str]] = {}
    for k in keywords:
        for v in vacuous_values(k):
            node = {k: v}
            if drop.applies is not None and not drop.applies(k, v, node):
                continue
            text = drop.hint(k, v, node) if drop.hint else None
            nothing.setdefault(drop_effect(k, v, bool(text), node), []).append(
                f"`{k}: {json.dumps(v)}`")
    cases += [(f"a value that constrains nothing ({', '.join(values)})", *effect)
              for effect, values in nothing.items() if effect != (usual, told)]
    if any(k in EXEMPTING for k in keywords):
        cases.append(("beside the keyword that then rules on what it exempted "
                      "(`additionalProperties`, `items`)", "changed", told))
    return Rule(
        code=code, name=name, severity=severity,
        message=drop.message.format(keyword=keywords[0]),
        safety=safety_of(usual, told), accepts=usual, told=told, cases=tuple(cases),
        fix_title=fix_title or "Remove it, keeping its meaning in `description`",
        detect=detect, fix=fix, docs=docs, claims=frozenset(keywords),
        triggers=frozenset(keywords),
    )
