"""A `type` list written as the one type a provider takes (`nullable` for null) or as one
`anyOf` branch per type: TYP001's fix, and the lossless part of UNI004's, which splits the
lists of an `allOf`'s branches where the merge of the branches is not made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..schema.jsoncopy import json_copy
from ..schema.keywords import ALL_TYPE_KEYWORDS, TYPE_KEYWORDS
from ..schema.merge import accepted_types, merge_exact, merge_types
from .base import Edit, Fixed

if TYPE_CHECKING:
    from ..profiles.base import Profile


def split_type_list(node: dict[str, Any], profile: Profile) -> tuple[Fixed, bool]:
    """The node with its type list made one type (`nullable` for null), or one `anyOf`
    branch per type; and whether it was split so."""
    types = list(dict.fromkeys(t for t in node["type"] if isinstance(t, str)))
    nullable = "null" in types
    rest = [t for t in types if t != "null"]
    out = {k: v for k, v in node.items() if k != "type"}
    enum = node.get("enum")
    refused = nullable and isinstance(enum, list) and None not in enum and bool(rest)
    if refused:
        nullable = False  # the enum refuses null anyway: `nullable` would accept it
    elif not nullable and isinstance(enum, list) and None in enum:
        # the types refuse null, so the enum's null was never accepted; left in the enum,
        # once the type moves into `anyOf` branches VAL003 would read it as `nullable`
        out["enum"] = [v for v in enum if v is not None]
    own = out.get("anyOf")
    if isinstance(own, list) and len(rest) + nullable > 1:
        # the node's own `anyOf` holds beside the types: each of its branches meets one
        if nullable:
            rest.append("null")  # a null branch too, if one of them takes null
        return _with_own_any_of(out, rest, own, refused), True
    if nullable and profile.nullable_keyword:
        out["nullable"] = True
    elif nullable:
        rest.append("null")
    if not rest and nullable:
        # null alone: `type: null`, not a `nullable` node without a type (any value)
        out.pop("nullable", None)
        out["type"] = "null"
        what = "`type: null`"
    elif len(rest) == 1:
        out["type"] = rest[0]
        what = f"`type: {rest[0]}`" + (" with `nullable: true`" if nullable else "")
    elif not rest:
        what = "no type (any value)"
    else:
        out = {**_shared(out), "anyOf": [_type_branch(out, t) for t in rest]}
        what = "one `anyOf` branch per type"
    if refused:
        what += " (null left out: the `enum` refuses it)"
    return (Fixed(out, (Edit(("type",), "lossless", f"replaced the type list by {what}"),)),
            len(rest) > 1)


def _shared(node: dict[str, Any]) -> dict[str, Any]:
    """The node's keywords that hold whatever the type: they stay on the node."""
    return {k: v for k, v in node.items() if k not in ALL_TYPE_KEYWORDS}


def _type_branch(node: dict[str, Any], t: str) -> dict[str, Any]:
    """One type of a split list, with the node's keywords that only apply to it."""
    branch: dict[str, Any] = {"type": t}
    for k in TYPE_KEYWORDS.get(t, frozenset()):
        if k in node:
            branch[k] = json_copy(node[k])
    return branch


def _with_own_any_of(node: dict[str, Any], types: list[str], own: list[Any],
                     refused: bool) -> Fixed:
    """A type list split beside the node's own `anyOf`: both hold, so a value meets one
    type and one of its branches. One branch per pair of them (each of the node's branches
    met by each type it allows, the two merged where that is exact, else the branch kept
    under the type: `{type, ..., anyOf: [branch]}`), the pairs that share no type left out:
    the same values, as one `anyOf`. A null branch left is the null-union rule's."""
    pairs: list[Any] = []
    for t in types:
        kind = _type_branch(node, t)
        for branch in own:
            if branch is False or (isinstance(branch, dict) and _disjoint(t, branch)):
                continue  # no value of this type meets the branch
            if branch is True:
                pairs.append(kind)
                continue
            both = merge_exact(kind, branch) if isinstance(branch, dict) else None
            pairs.append(both.node if both is not None and not both.dropped else
                         {**json_copy(kind), "anyOf": [json_copy(branch)]})
    if not pairs:
        # no value meets both: the node accepts none, and says so as it is written
        pairs = [{**_type_branch(node, t), "anyOf": json_copy(own)} for t in types]
    what = ("one `anyOf` branch per type and branch of the node's own `anyOf` that it "
            "meets, merged")
    if refused:
        what += " (null left out: the `enum` refuses it)"
    return Fixed({**_shared(node), "anyOf": pairs},
                 (Edit(("type",), "lossless", f"replaced the type list by {what}"),))


def _disjoint(t: str, branch: dict[str, Any]) -> bool:
    """Whether no value of type `t` meets the branch by its types (and `nullable`)."""
    allowed = accepted_types(branch)
    return allowed is not None and merge_types([t], allowed) is None
