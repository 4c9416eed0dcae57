"""The one engine: runs a profile's rules over tools to check them, and applies their fixes
to a fixpoint to transform them, as ruff runs every enabled rule in one traversal while
each rule stays its own unit (data in `rules/`, with a detector and usually a fix).

A run of one schema is the transform (`transform`): passes of fixes to a fixpoint over a
copy, its last pass being the check of the result, with the check of the schema as given
riding on the first pass, each node asked by every rule that may fire on it (`plan`) before
its children are rewritten. Where a document rule may fire (a node holds `$ref` or
`$defs`), its fixes (inlining) come before any node pass, so the check is a walk of its own
first (`check`), and the passes reuse what it found on the nodes they meet again
(`reuse`). The findings then say what the
transform did about each of them, from the changes it made and the fixes it refused
(`record`), so `check` and `transform` can never disagree. A listing's tools run in turn
(`listing`), sharing only what the tools of one source share.

Invariants the engine relies on, which the rules keep:
- A node rule reads the node, its subtree and of its place only whether it is the root
  (`NodeContext.is_root`) and the keyword holding it; a rule that reads the rest of the
  document says so (`Rule.reads_root`). So what the rules found on a node holds for the
  same node wherever a fix moves or copies it (tests/test_rule_place.py).
- A fix builds a new node and never changes the one it is given, and puts no object at
  two places of its result (tests/test_engine_fuzz.py).
- What a rule remembers during a run lives in the run's `RunState`, never in a module.
- `lossless_only` is decided in one place, `Plan.fix`.
"""

from __future__ import annotations

from .check import check_recording, check_tool_level
from .listing import check_schema, iter_plan, run, run_plan
from .plan import NodeRules, Plan, change_of, make_plan
from .record import as_left, as_made
from .transform import MAX_FIXES_PER_NODE, MAX_PASSES, fix_tool_name, transform_schema

__all__ = [
    "MAX_FIXES_PER_NODE",
    "MAX_PASSES",
    "NodeRules",
    "Plan",
    "as_left",
    "as_made",
    "change_of",
    "check_recording",
    "check_schema",
    "check_tool_level",
    "fix_tool_name",
    "iter_plan",
    "make_plan",
    "run",
    "run_plan",
    "transform_schema",
]
