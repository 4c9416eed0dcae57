"""The one engine: runs a profile's rules over tools to check them, and applies their fixes
to a fixpoint to transform them, as ruff runs every enabled rule in one traversal while
each rule stays its own unit (data in `rules/`, with a detector and usually a fix).

A run of one schema is the same for every document, with or without `$ref`: the check,
one top-down walk asking each node every rule that may fire on its keys (`ruleset`, `check`);
then, where a rule with a fix fired, the transform (`transform`): passes over a copy until
one changes nothing, each the document rules (reference inlining) and then one bottom-up
rewrite of the walker, each node fixed rule by rule. The last pass, which changes nothing
(or met every node of what it leaves as it leaves it), is the check of the result. The
findings then say what the transform did about each of them, from the changes it made and
the fixes it refused (`record`), so `check` and `transform` can never disagree. A listing's
tools run in turn (`listing`), sharing only what the tools of one source share.

Invariants the engine relies on, which the rules keep:
- A fix builds a new node and never changes the one it is given, and puts no object at
  two places of its result (tests/test_engine_fuzz.py).
- What a rule remembers during a run lives in the run's `RunState`, never in a module.
- A rule's `triggers` and `gate` never skip a node its detector would flag
  (tests/test_rule_gates.py).
- `lossless_only` is decided in one place, `RuleSet.fix`.
"""

from __future__ import annotations

from .check import check_tool_level, detected
from .listing import check_schema, iter_ruleset, run, run_ruleset
from .record import as_left, as_made
from .ruleset import NodeRules, RuleSet, change_of, make_ruleset
from .transform import MAX_FIXES_PER_NODE, MAX_PASSES, fix_tool_name, transform_schema

__all__ = [
    "MAX_FIXES_PER_NODE",
    "MAX_PASSES",
    "NodeRules",
    "RuleSet",
    "as_left",
    "as_made",
    "change_of",
    "check_schema",
    "check_tool_level",
    "detected",
    "fix_tool_name",
    "iter_ruleset",
    "make_ruleset",
    "run",
    "run_ruleset",
    "transform_schema",
]
