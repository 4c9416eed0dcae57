"""LIM: limits on how big a schema or a request may be, and how many tools it may hold.

A limit is a fact about the provider's capacity, not about a keyword, so no rewrite of a
schema can honour it without changing what the tool means: these rules report and never
fix; splitting or flattening is for the server's author. Counts over a request (tools, strict
tool use's optional parameters and unions) are tool rules that see the tools before the one
judged; sizes of one schema (strict mode's nesting depth, property and enum counts) are
document rules.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..model import Change, Finding, Severity
from ..paths import jsonpath
from ..schema.shape import is_object_schema
from ..schema.walker import iter_nodes
from . import doc_examples
from .base import Hit, NodeContext, Rule, RuleDocs

if TYPE_CHECKING:
    from ..profiles.base import StrictBudget


def detect_too_many_tools(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    limit = ctx.profile.max_tools
    if limit is not None and tool.position >= limit:
        # a client's count (profiles/clients.py) comes with its name and source
        client, _, source = ctx.profile.max_tools_source.partition(": ")
        if ctx.profile.client and client == ctx.profile.client:
            yield Hit(f"tool {tool.position + 1} of {tool.total}: the client {client} takes "
                      f"at most {limit} per request ({source})", (), None)
        else:
            yield Hit(f"tool {tool.position + 1} of {tool.total}: the provider accepts at "
                      f"most {limit} per request", (), None)


def _object_depth(schema: Any) -> int:
    depth = 0
    for path, node in iter_nodes(schema):
        if is_object_schema(node):
            depth = max(depth, 1 + sum(1 for p in path if p == "properties"))
    return depth


def detect_strict_nesting_depth(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    depth = _object_depth(node)
    if depth > 10:
        yield Hit(f"objects nest {depth} levels deep; strict mode allows 10", (), None)


def _sizes(schema: Any) -> tuple[int, int, int]:
    props = chars = enums = 0
    for _, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        for key in ("properties", "$defs", "definitions"):
            if isinstance(node.get(key), dict):
                chars += sum(len(k) for k in node[key])
                if key == "properties":
                    props += len(node[key])
        if isinstance(node.get("enum"), list):
            enums += len(node["enum"])
            chars += sum(len(v) for v in node["enum"] if isinstance(v, str))
        if isinstance(node.get("const"), str):
            chars += len(node["const"])
    return props, chars, enums


def detect_strict_schema_size(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    props, chars, enums = _sizes(node)
    if props > 5000:
        yield Hit(f"{props} object properties; strict mode allows 5,000", (), None)
    if chars > 120_000:
        yield Hit(f"{chars} characters of property names, definition names, enum and const "
                  "values; strict mode allows 120,000", (), None)
    if enums > 1000:
        yield Hit(f"{enums} enum values; strict mode allows 1,000", (), None)


def tally_complexity(schema: Any) -> dict[str, int]:
    """What one schema adds to strict tool use's per-request budgets (LIM004)."""
    optional = unions = 0
    for _, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("properties"), dict):
            raw = node.get("required")
            # a set: a list searched for each property is quadratic
            req = {r for r in raw if isinstance(r, str)} if isinstance(raw, list) else set()
            optional += sum(1 for k in node["properties"] if k not in req)
        if isinstance(node.get("anyOf"), list) or isinstance(node.get("type"), list):
            unions += 1
    return {"optional": optional, "unions": unions}


def detect_strict_complexity(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    """Flag the tool whose schema takes the request past a limit, and every one after it."""
    own = tally_complexity(tool.schema)
    before = tool.tallies_before
    for key, limit, what in (("optional", 24, "optional parameters"),
                             ("unions", 16, "parameters with `anyOf` or a type list")):
        total = before.get(key, 0) + own[key]
        if total > limit and own[key]:
            earlier = before.get(key, 0)
            yield Hit(f"{own[key]} {what} here"
                      + (f", {total} with the {earlier} of the tools listed before it"
                         if earlier else "")
                      + f"; strict tool use allows {limit} per request", (), None)


# LIM001 and LIM004 under a strict budget: the request planner (requests/) sends the tools
# past the budgets without `strict`, chosen here.


def gain(schema: Any) -> int:
    """What strict decoding gains on a schema (`choose_strict` reads it)."""
    score = 0
    for path, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        if path and isinstance(node.get("properties"), dict) and node["properties"]:
            score += 2
        if "enum" in node or "const" in node:
            score += 2
        req = node.get("required")
        if isinstance(req, list) and isinstance(node.get("properties"), dict):
            score += sum(1 for r in req if isinstance(r, str) and r in node["properties"])
    return score


class Candidate(NamedTuple):
    position: int  # in the request
    label: str  # "server/tool", for globs and messages
    name: str  # the tool's own name
    gain: int
    optional: int
    unions: int
    blocked: str  # why it cannot be strict at all ("" when it can)
    # what its entry says (extract.shapes.sent_strict): True counts as a strict_first
    # match, False keeps it non-strict, None leaves it to the policy
    declared: bool | None = None


SENT_PLAIN = "its entry sends it without `strict`"


class Choice(NamedTuple):
    strict: bool
    reason: str


def _first_match(candidate: Candidate, globs: Sequence[str]) -> int | None:
    for i, pattern in enumerate(globs):
        if fnmatch.fnmatchcase(candidate.name, pattern) or fnmatch.fnmatchcase(
                candidate.label, pattern):
            return i
    return None


def choose_strict(candidates: Sequence[Candidate], budget: StrictBudget,
                  strict_first: Sequence[str] = ()) -> list[Choice]:
    """LIM001's and LIM004's fix under a strict budget: which tools of one request are
    sent with `strict: true`, one choice per candidate in the candidates' order; the others
    are sent without it, their schemas for the budget's fallback profile.

    The policy (deterministic: it reads only the tools, their order and the user's globs):

    1. A tool can be strict only when its strict schema has no error left and, alone, fits
       every budget.
    2. Candidates are taken in this order: the tools matching a `strict_first` glob (in the
       order of the globs, then of the request); then by what strict decoding gains on them,
       most first (`gain`); then by what they cost of the budgets, least first; then in
       request order.
    3. Each candidate in turn is made strict if it still fits the strict-tool, optional-
       parameter and union budgets; otherwise it is sent non-strict, and the next one is
       tried (a smaller one may still fit).
    4. A tool on which strict decoding gains nothing (no parameter it would enforce) is sent
       non-strict unless a `strict_first` glob names it or its entry says `strict: true`: it
       would only use up a strict slot.
    5. A tool whose entry sends it without `strict` (`extract.shapes.sent_strict`: so
       `transform`'s own output reads back as it was planned) stays non-strict.

    Strict decoding guarantees arguments that match the schema; it gains most where a model
    gets a schema wrong without it: nested objects, enums, required fields. So `gain` counts
    2 for each nested object with properties, 2 for each `enum` or `const`, and 1 for each
    required property, anywhere in the schema as the client lists it.
    """
    def order(c: Candidate) -> tuple[int, int, int, int, int]:
        glob = _first_match(c, strict_first)
        first = glob is not None or c.declared is True
        return (0 if first else 1, glob or 0, -c.gain, c.optional + c.unions, c.position)

    out: list[Choice | None] = [None] * len(candidates)
    count = optional = unions = 0
    for c in sorted(candidates, key=order):
        glob = _first_match(c, strict_first)
        wanted = glob is not None or c.declared is True
        if c.declared is False:
            out[c.position] = Choice(False, SENT_PLAIN)
            continue
        if c.blocked:
            out[c.position] = Choice(False, c.blocked)
            continue
        if c.optional > budget.optional or c.unions > budget.unions:
            what = (f"{c.optional} optional parameters" if c.optional > budget.optional
                    else f"{c.unions} parameters with `anyOf` or a type list")
            limit = budget.optional if c.optional > budget.optional else budget.unions
            out[c.position] = Choice(False, f"it alone has {what}; strict tool use allows "
                                            f"{limit} per request")
            continue
        if c.gain == 0 and not wanted:
            out[c.position] = Choice(False, "strict decoding would enforce nothing here (no "
                                            "nested object, enum or required parameter)")
            continue
        full = []
        if count + 1 > budget.strict_tools:
            full.append(f"{budget.strict_tools} strict tools")
        if optional + c.optional > budget.optional:
            full.append(f"{optional} of {budget.optional} optional parameters, this tool "
                        f"adding {c.optional}")
        if unions + c.unions > budget.unions:
            full.append(f"{unions} of {budget.unions} union parameters, this tool adding "
                        f"{c.unions}")
        if full:
            out[c.position] = Choice(False, "the strict budget is spent (" + "; ".join(full)
                                     + f"; {budget.source})")
            continue
        count += 1
        optional += c.optional
        unions += c.unions
        why = (f"matches --strict-first {strict_first[glob]!r}" if glob is not None
               else "its entry says `strict: true`" if c.declared
               else f"gain {c.gain} from strict decoding")
        out[c.position] = Choice(True, f"{why}; costs {c.optional} optional and {c.unions} "
                                       "union parameters of the budget")
    return [c if c is not None else Choice(False, "") for c in out]


# The per-request rules a strict budget leaves to `choose_strict`.
BUDGET_CODES = ("LIM001", "LIM004")


def sent_plain(code: str, reason: str, fallback: str, left: Sequence[Finding] = ()
               ) -> tuple[Finding, Change]:
    """A tool `choose_strict` sends without `strict`: the finding `check` reports and the
    change `transform` makes (its schema for the budget's `fallback` profile), written once
    so both say the same. `code` is the decision's: LIM001 or LIM004, or the first error
    its strict schema keeps, named from `left` (the findings left on it; `transform` gives
    none). An error where strict is refused, info where it would only gain nothing."""
    errors = [f for f in left if f.severity == "error"]
    severity: Severity = "error"
    if code not in BUDGET_CODES and errors:
        more = f" and {len(errors) - 3} more" if len(errors) > 3 else ""
        reason = (f"{reason}: " + "; ".join(f"{f.code} {jsonpath(f.path)}"
                                           for f in errors[:3]) + more)
    elif code in BUDGET_CODES and "enforce nothing" in reason:
        severity = "info"
    rule = next((r.name for r in RULES if r.code == code),
                next((f.rule for f in errors if f.code == code), code))
    return (Finding(code, rule, severity, (), f"not sent strict: {reason}", None,
                    f"send it without `strict`, its schema for `{fallback}`", "hinted",
                    "tool", "wider", "kept"),
            Change(code, (), "hinted", f"sent without `strict`, its schema for `{fallback}`: "
                   f"{reason}", "tool", "wider", "kept"))


RULES: list[Rule] = [
    Rule(
        code="LIM001", name="too-many-tools", severity="error", scope="tool",
        message="more tools than one request may declare", safety=None, fix_title=None,
        detect=detect_too_many_tools,
        docs=RuleDocs(
            what="Tools past the provider's per-request limit (512 function declarations "
                 "for Gemini; for Anthropic strict tool use, 20 tools with `strict: true`, "
                 "which `check` and `transform` count over the tools sent strict only). "
                 "With `--client`, the client's own count where it is lower (Cursor 40, "
                 "Windsurf 50, VS Code 128: `schema-compat profiles` cites each).",
            error="* tools[0].function_declarations: [FIELD_INVALID] At most 512 function "
                  "declarations can be specified.",
            fix="Send a subset (`--tool` selects some); the docs advise 10-20 active tools. "
                "Under `anthropic-strict`, `transform` sends the tools past the 20 strict "
                "ones without `strict` (hinted), and `check` says so of each, as this "
                "code; as info where strict decoding would enforce nothing on the tool. "
                "Which tools stay strict is chosen by `choose_strict` in `rules/limits.py`.",
            before=doc_examples.many_tools(21), passing=doc_examples.many_tools(20),
            profile="anthropic-strict",
            sources=("[GEM-18](../providers.md#gem-18)", "google-gemini/gemini-cli#19083"),
        ),
    ),
    Rule(
        code="LIM002", name="strict-nesting-depth", severity="error", scope="document",
        message="objects nest deeper than strict mode allows", safety=None, fix_title=None,
        detect=detect_strict_nesting_depth,
        docs=RuleDocs(
            what="Objects nested more than 10 levels deep under OpenAI strict mode.",
            error="Invalid schema: objects nested more than 10 levels (message unverified).",
            fix="Flatten the schema in the server; schema-compat does not restructure it.",
            before=doc_examples.nested_objects(11), passing=doc_examples.nested_objects(10),
            sources=("[OAIS-11](../providers.md#oais-11)",),
        ),
    ),
    Rule(
        code="LIM003", name="strict-schema-size", severity="error", scope="document",
        message="the schema is larger than strict mode allows", safety=None, fix_title=None,
        detect=detect_strict_schema_size,
        docs=RuleDocs(
            what="More than 5,000 object properties, more than 120,000 characters of "
                 "property names, definition names, enum and const values, or more than "
                 "1,000 enum values, under OpenAI strict mode (documented; checked per tool, "
                 "while OpenAI counts them per schema).",
            error="Invalid schema: limits exceeded (message unverified).",
            fix="Split the tool or shorten its enums in the server.",
            before=doc_examples.big_enum(1001), passing=doc_examples.big_enum(1000),
            sources=("[OAIS-11](../providers.md#oais-11)",),
        ),
    ),
    Rule(
        code="LIM004", name="strict-complexity", severity="error", scope="tool",
        message="more optional parameters or unions than strict tool use allows per request",
        safety=None, fix_title=None, detect=detect_strict_complexity, tally=tally_complexity,
        docs=RuleDocs(
            what="More than 24 optional parameters, or more than 16 parameters using `anyOf` "
                 "or a type list, summed over the strict tools of one request (Anthropic "
                 "strict tool use; a tool its listing sends without `strict` does not "
                 "count). `check` and `transform` plan the request: each tool left out of "
                 "the budgets is flagged. The library's `check()` takes the tools of one "
                 "source as one request, every one strict: the tool that crosses a limit is "
                 "flagged, and every later one that adds to it.",
            error="400 invalid_request_error (schema too complex).",
            fix="`transform` sends the tool without `strict` (hinted: wider, kept), its "
                "schema for `anthropic`; which tools stay strict is chosen by `choose_strict` "
                "in `rules/limits.py`. Else mark fewer tools strict, send fewer tools per "
                "request, or require more parameters.",
            before=doc_examples.union_params(17), passing=doc_examples.union_params(16),
            sources=("[ANTS-05](../providers.md#ants-05)", "genkit-ai/genkit#5230"),
        ),
    ),
]
