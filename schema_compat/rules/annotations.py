"""ANN: keywords that annotate rather than constrain, and the catch-all for unknown fields.

Annotations (metadata, `examples`, `x-*` extensions, `default` where strict mode refuses
it) tell the model something but restrict no value, so removing them loses nothing the
provider would enforce: what they said moves into the description where it matters.

The catch-all runs last and leaves alone every keyword another rule of the profile claims,
so each keyword is reported once, by the rule that knows what it means.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..schema.hints import value_text, values_text
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .dropping import Drop, drop_hits, drop_keywords, drop_rule

if TYPE_CHECKING:
    from ..profiles.base import Profile

METADATA = ("$schema", "$id", "$anchor", "$comment", "$vocabulary", "$dynamicAnchor")


def _unknown_keys(keys: Iterable[str], profile: Profile,
                  claimed: frozenset[str] = frozenset()) -> list[str]:
    """Keys outside the profile's dialect that no rule of it handles (`claimed`, which
    the engine hands over in the run's state: the rules are data this module cannot read
    without the registry, which imports it)."""
    allowed = profile.allowed_keywords
    return [k for k in keys if k not in allowed and k not in claimed
            and not k.startswith("x-") and k not in METADATA]


def _unknown(node: Any, ctx: NodeContext) -> list[str]:
    if not isinstance(node, dict):
        return []
    return _unknown_keys(node, ctx.profile, ctx.run.claimed)


def _may_be_unknown(keys: frozenset[str] | None, profile: Profile) -> bool:
    # without the claims: a key another rule claims lets the detector be asked, which
    # then leaves it
    return keys is not None and bool(_unknown_keys(keys, profile))


def _has_extension(keys: frozenset[str] | None, profile: Profile) -> bool:
    return keys is not None and any(k.startswith("x-") for k in keys)


_DESCRIBE: dict[str, Callable[[Any], str | None]] = {
    "deprecated": lambda v: "Deprecated." if v is True else None,
    "readOnly": lambda v: None,
    "writeOnly": lambda v: None,
    "contentMediaType": lambda v: f"Content type: {v}.",
    "contentEncoding": lambda v: f"Encoding: {v}.",
}


def _text(k: str, v: Any, node: dict[str, Any]) -> str | None:
    """What the description says of an unknown keyword: its value, or for the ones known
    to 2020-12 (`_DESCRIBE`) their meaning, or nothing where they mean nothing here."""
    describe = _DESCRIBE.get(k)
    return describe(v) if describe else f"{k}: {value_text(v, 60)}."


def detect_extension_keyword(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return (Hit(f"`{k}` is not a field of the provider's schema", (k,), k)
            for k in (node if isinstance(node, dict) else {}) if k.startswith("x-"))


def fix_extension_keyword(node: Any, ctx: NodeContext) -> Fixed | None:
    return Fixed({k: v for k, v in node.items() if not k.startswith("x-")},
                 tuple(Edit((k,), "lossless", f"removed `{k}`") for k in node
                       if k.startswith("x-")))


def detect_unknown_keyword(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return drop_hits(node, _unknown(node, ctx), _text)


def fix_unknown_keyword(node: Any, ctx: NodeContext) -> Fixed | None:
    keys = _unknown(node, ctx)
    return drop_keywords(node, keys, _text) if keys else None


def _examples_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if isinstance(v, list) and v:
        return f"Examples: {values_text(v, 120)}."
    return None


_SCHEMA_METADATA = Drop(METADATA)


def detect_schema_metadata(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _SCHEMA_METADATA.detect(node, ctx)


def fix_schema_metadata(node: Any, ctx: NodeContext) -> Fixed | None:
    return _SCHEMA_METADATA.fix(node, ctx)


_EXAMPLES = Drop(("examples",), _examples_hint)


def detect_examples(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _EXAMPLES.detect(node, ctx)


def fix_examples(node: Any, ctx: NodeContext) -> Fixed | None:
    return _EXAMPLES.fix(node, ctx)


RULES: list[Rule] = [
    drop_rule(
        code="ANN001", name="schema-metadata", drop=_SCHEMA_METADATA,
        detect=detect_schema_metadata, fix=fix_schema_metadata,
        safety="lossless",
        fix_title="Remove it",
        docs=RuleDocs(
            what="Document metadata (`$schema`, `$id`, `$anchor`, `$comment`, …). It says "
                 "nothing the model needs.",
            error='Invalid JSON payload received. Unknown name "$schema" at '
                  "'tools[0].function_declarations[0].parameters': Cannot find field.",
            fix="Remove it (lossless).",
            before={"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                    "properties": {"q": {"type": "string"}}},
            after={"type": "object", "properties": {"q": {"type": "string"}}},
            sources=("[GEM-01](../providers.md#gem-01)", "zed-industries/zed#44875"),
        ),
    ),
    drop_rule(
        code="ANN002", name="examples", drop=_EXAMPLES,
        detect=detect_examples, fix=fix_examples,
        docs=RuleDocs(
            what="`examples` (a list). Gemini has only a singular `example`, at the root.",
            error='Invalid JSON payload received. Unknown name "examples" …',
            fix="Move the examples into the description.",
            before={"type": "object", "properties": {"city": {"type": "string",
                                                              "examples": ["Paris"]}}},
            after={"type": "object", "properties": {"city": {
                "type": "string", "description": 'Examples: "Paris".'}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="ANN003", name="extension-keyword", severity="error",
        gate=_has_extension,
        message="`x-*` extension keys are not fields of the provider's schema",
        safety="lossless", fix_title="Remove them",
        detect=detect_extension_keyword, fix=fix_extension_keyword,
        docs=RuleDocs(
            what="Vendor extension keys such as `x-mcp-header` or `x-order`.",
            error='Invalid JSON payload received. Unknown name "x-mcp-header" at …',
            fix="Remove them (lossless: they are for tools, not for the model).",
            before={"type": "object", "properties": {"q": {"type": "string", "x-order": 1}}},
            after={"type": "object", "properties": {"q": {"type": "string"}}},
            sources=("[GEM-01](../providers.md#gem-01)", "zed-industries/zed#62539"),
        ),
    ),
    Rule(
        code="ANN004", name="unknown-keyword", severity="error",
        gate=_may_be_unknown,
        message="keyword is not a field of the provider's schema", safety="hinted",
        fix_title="Remove it, keeping its meaning in `description`",
        detect=detect_unknown_keyword, fix=fix_unknown_keyword,
        docs=RuleDocs(
            what="Any other keyword the provider's schema does not have (`deprecated`, "
                 "`readOnly`, `contentMediaType`, a misspelling, …). Runs after every other "
                 "rule and leaves the keywords they handle alone.",
            error='Invalid JSON payload received. Unknown name "<keyword>" at \'<path>\': '
                  "Cannot find field.",
            fix="Remove it; meaningful ones are described.",
            before={"type": "object", "properties": {"old": {"type": "string",
                                                             "deprecated": True}}},
            after={"type": "object", "properties": {"old": {"type": "string",
                                                            "description": "Deprecated."}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
]


# --- ANN005: `default` under strict mode --------------------------------------------------

_DEFAULT_IN_STRICT = Drop(("default",), lambda k, v, n: f"Default: {value_text(v)}.",
                          message="`{keyword}` is not permitted in strict mode")


def detect_default_in_strict(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _DEFAULT_IN_STRICT.detect(node, ctx)


def fix_default_in_strict(node: Any, ctx: NodeContext) -> Fixed | None:
    return _DEFAULT_IN_STRICT.fix(node, ctx)


RULES.append(drop_rule(
    code="ANN005", name="default-in-strict", drop=_DEFAULT_IN_STRICT,
    detect=detect_default_in_strict, fix=fix_default_in_strict, severity="warning",
    docs=RuleDocs(
        what="`default` under OpenAI strict mode. The docs do not list it; refusals are "
             "observed in issues, so this is a warning.",
        error="Invalid schema for function 'f': In context=('properties', 'error'), "
              "'default' is not permitted.",
        fix="Remove it; the description states the default.",
        before={"type": "object", "properties": {"n": {"type": "integer", "default": 3}},
                "required": ["n"], "additionalProperties": False},
        after={"type": "object", "properties": {"n": {"type": "integer",
                                                      "description": "Default: 3."}},
               "required": ["n"], "additionalProperties": False},
        sources=("[OAIS-08](../providers.md#oais-08)", "makenotion/notion-mcp-server#102"),
    ),
))
