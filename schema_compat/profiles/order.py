"""The order fixes apply in: one canonical order of every rule, and where a profile departs.

On each node the engine asks the node rules in a profile's order, applies the first fix that
fires, then asks them all again, until none fires (the engine). So where two rules fire on one
node, the earlier one's fix is made first and the later one looks at its result; and a node's
findings are listed in the same order. The document rules (references) run before any node
rule and the tool rules after, each in this order too.

A profile lists the rules it enables; `profile_order` sorts them by `CANONICAL_ORDER` and
then applies the profile's written `OVERRIDES`, each with its reason. `Profile.rules` stays
the ordered tuple the engine reads. tests/test_profiles_order.py holds every profile to this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple


class Phase(NamedTuple):
    """A step of the canonical order: its rules, in order, and why they come here."""

    name: str
    why: str
    rules: tuple[str, ...]


PHASES: tuple[Phase, ...] = (
    Phase("references",
          "Document rules, before any node rule: a node rule sees a document whose references "
          "are settled. An older draft is read into 2020-12 first (ROOT003), so every rule "
          "after it reads one dialect; references by name are made pointers (REF010) before "
          "metadata goes (ANN001). Refused or unresolvable references are cut next, "
          "recursion next, so that inlining (REF001) meets only references it can inline and "
          "the definitions (REF002) go last, when nothing refers to them; then the "
          "document-size lints.",
          ("ROOT003", "REF010", "REF006", "REF004", "REF005", "REF008", "REF003", "REF001",
           "REF002", "LIM002", "LIM003")),
    Phase("repair",
          "Malformed input made into a schema before any rule reads it: the root, values "
          "that are not schemas where a schema goes, keyword values of the wrong kind, "
          "boolean schemas written out.",
          ("TYP009", "TYP008", "VAL005", "TYP005")),
    Phase("references on a node",
          "A `$ref` with siblings is resolved into one node before its siblings are judged.",
          ("REF007", "REF009")),
    Phase("non-schema keywords",
          "Metadata and extension keywords go before any fix copies a node (into union "
          "branches, into a merged node), so they are removed once, not once per copy.",
          ("ANN001", "ANN003")),
    Phase("values and type names",
          "`const` becomes an `enum`, type names are made valid and a type list becomes a "
          "union, so the union rules that follow meet every union there will be.",
          ("VAL001", "TYP003", "TYP001")),
    Phase("combinators",
          "Unions are merged, split or removed before the keywords inside them are judged: "
          "a merge brings keywords together (and may clash), so keyword rules look at the "
          "merged node. The root's own union first, empty unions next, then `allOf` (which "
          "merges into its node) before the `anyOf`/`oneOf` rules.",
          ("ROOT001", "UNI009", "UNI008", "UNI004", "UNI001", "VAL003", "UNI002", "UNI003")),
    Phase("types",
          "A node's type is settled (tuple items, a missing type inferred from its keywords, "
          "the root made an object) while the keywords it is inferred from are still there.",
          ("CON005", "TYP002", "ROOT002", "TYP007")),
    Phase("keywords",
          "Keywords the provider lacks are described away: values, then constraints, then "
          "formats, then object keywords; `not` and conditionals, which only narrow, after "
          "them.",
          ("VAL002", "CON001", "CON002", "CON007", "CON003", "CON004", "CON006",
           "OBJ001", "OBJ002", "OBJ003", "OBJ004", "OBJ005", "UNI005", "UNI006", "VAL004")),
    Phase("object shape",
          "Objects are closed and made fully required (strict modes), and `required` names "
          "checked, once every keyword that could add or drop a property has been handled.",
          ("OBJ008", "OBJ010", "OBJ011", "OBJ006", "OBJ009")),
    Phase("types of what is left",
          "Array and item shape, judged on the node as the keyword rules left it.",
          ("TYP004", "TYP006")),
    Phase("annotations",
          "Annotations change nothing an instance must be, so they go last; the catch-all "
          "unknown-keyword rule after every rule that claims a keyword.",
          ("ANN005", "ANN002", "ANN004")),
    Phase("anyOf siblings",
          "Vertex's `anyOf` alone on its node: the siblings move into each branch only "
          "after every other rule has removed or rewritten them, so each is moved once.",
          ("UNI007",)),
    Phase("lints",
          "Rules without a fix: they only report, so where they stand changes no output "
          "but the order of a node's findings.",
          ("OBJ007", "CNV001")),
    Phase("tools",
          "Tool rules, after the schema: the name (made valid, then unique), the "
          "description, then the request's limits.",
          ("NAM001", "NAM002", "NAM003", "NAM004", "LIM001", "LIM004")),
)

CANONICAL_ORDER: tuple[str, ...] = tuple(code for phase in PHASES for code in phase.rules)
_RANK: dict[str, int] = {code: i for i, code in enumerate(CANONICAL_ORDER)}


class Override(NamedTuple):
    """Where a profile departs from the canonical order: `rules` (in this order) placed just
    before `before`, or just after `after`, and why."""

    rules: tuple[str, ...]
    reason: str
    before: str = ""
    after: str = ""


def fix_order(enabled: Iterable[str], overrides: Sequence[Override] = ()) -> tuple[str, ...]:
    """`enabled` in canonical order, then each override applied in turn."""
    codes = set(enabled)
    unknown = sorted(codes - _RANK.keys())
    if unknown:
        raise ValueError(f"rules without a place in the canonical order: {unknown}")
    order = sorted(codes, key=_RANK.__getitem__)
    for override in overrides:
        moved = tuple(code for code in override.rules if code in codes)
        for code in moved:
            order.remove(code)
        at = (order.index(override.before) if override.before
              else order.index(override.after) + 1)
        order[at:at] = moved
    return tuple(order)


# Kept from each profile's order before there was a canonical one. A reason names what the
# canonical order would change: where two rules fire on one node, which fix is made first and
# which finding is listed first (measured on the schemas under tests/data, the shared corpus
# and 6,000 generated schemas, malformed ones among them, in every profile with and without
# lossless-only: with these overrides every output is byte for byte what it was).
_TYPE_NAMES_FIRST = Override(
    ("TYP003",),
    "Type names are repaired with the rest of the malformed input, before metadata and "
    "extension keywords go (ANN001, ANN003) and, in gemini-json, before `const` becomes an "
    "`enum` (VAL001): on a node with an invalid type and one of those, the type's finding "
    "is listed and fixed first.",
    after="TYP005")
_STRICT: tuple[Override, ...] = (
    _TYPE_NAMES_FIRST,
    Override(
        ("UNI005", "UNI006"),
        "Strict modes remove `not` and conditionals with the other combinators, before any "
        "keyword rule: on a node with `not` or `if` and a keyword the mode lacks, the "
        "combinator's description comes first.",
        after="UNI004"),
    Override(
        ("CON005",),
        "Tuple items after the other constraints: on an array node with `prefixItems` and "
        "`uniqueItems` or `contains`, those are described first.",
        after="CON004"),
    Override(
        ("ANN005", "ANN002", "CON006", "TYP002", "TYP004", "ROOT002", "TYP007"),
        "Strict modes settle a node's type after the keywords they lack are described away: "
        "a missing type (TYP002) is inferred from the keywords left, the root made an object "
        "(ROOT002, TYP007) and arrays given items (TYP004) then, with `default`, `examples` "
        "and formats (ANN005, ANN002, CON006) described before; every object is then closed "
        "(OBJ008 and after).",
        after="OBJ005"),
)

OVERRIDES: dict[str, tuple[Override, ...]] = {
    "gemini-json": (_TYPE_NAMES_FIRST._replace(after="VAL005"),),
    "vertex": (Override(
        ("UNI009",),
        "An empty union is settled after the other keywords of its node, just before the "
        "`anyOf` siblings move into the branches: on a node with `anyOf: []` and a dropped or "
        "unknown keyword, those are fixed and listed first.",
        before="UNI007"),),
    "portable": (Override(
        ("NAM004",),
        "The description limit after the tool count: a tool past the 128th with a "
        "description over 1,024 characters lists LIM001 first.",
        after="LIM001"),),
    "openai-strict": _STRICT,
    "deepseek-strict": _STRICT,  # openai-strict's rules, with CON001/CON002/CON007 added
    "anthropic-strict": (*_STRICT, Override(
        ("LIM004",),
        "The request's complexity budget (its optional parameters and unions) is listed "
        "before the tool's own name and description findings.",
        before="NAM001")),
}


def profile_order(profile: str, enabled: Iterable[str]) -> tuple[str, ...]:
    """The order a profile's rules are asked in: canonical, with its written overrides."""
    return fix_order(enabled, OVERRIDES.get(profile, ()))
