"""Running a listing: each tool checked and transformed in turn, with what the tools of
one source share (names met so far, per-request sums), and the results as they come.

One source is one server's listing, sent together; two snapshot files checked in one run
are not one request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..model import (
    JSON_SCHEMA,
    Change,
    Finding,
    ToolDef,
    ToolResult,
)
from ..profiles import Profile
from ..rules.registry import RULES
from ..rules.support import ToolInfo
from ..schema.jsoncopy import json_copy
from .check import check_tool_level, check_walk, detected
from .record import as_left, as_made
from .ruleset import RuleSet, make_ruleset
from .transform import fix_tool_name, transform_passes


def check_schema(schema: Any, plan: RuleSet, dialect: str = JSON_SCHEMA) -> list[Finding]:
    """The findings on one schema, each with the fix the transform made of it (or would
    have made, where it refused one): the record of the same run `run` makes."""
    done = SchemaRun(schema, plan, dialect)
    if not (done.changes or done.refused):
        return done.found
    return as_made(done.found, done.changes, {(f.code, f.path) for f in done.left},
                   done.refused)


class SchemaRun:
    """One schema checked and transformed: what the rules found on it (`found`), the
    result, the changes made, the fixes refused, and the findings left on the result (the
    transform's last pass, which changes nothing, is the check of the result). `dialect`
    is the one `schema` is written in (`ToolDef.dialect`)."""

    def __init__(self, schema: Any, plan: RuleSet, dialect: str = JSON_SCHEMA) -> None:
        run = plan.run_state(dialect)
        self.refused: list[Change] = []
        self.found, quiet = check_walk(schema, plan, run)
        if any(RULES[f.code].fix is not None for f in self.found):
            self.result, self.changes, left = transform_passes(schema, plan, run,
                                                               self.refused, quiet, self.found)
            self.left = detected(self.result, plan) if left is None else left
        else:
            # No rule with a fix fired, so a transform would find the same nodes and
            # change nothing: its passes and the check of the result are skipped.
            self.result, self.changes, self.left = json_copy(schema), [], self.found


_NO_TALLIES: Mapping[str, int] = MappingProxyType({})


def run(tools: Sequence[ToolDef], profile: str | Profile = "gemini", *,
        select: list[str] | None = None, ignore: list[str] | None = None,
        lossless_only: bool = False) -> list[ToolResult]:
    """Check and transform every tool; the heart of the library API and the CLI."""
    return run_ruleset(tools, make_ruleset(profile, select, ignore, lossless_only))


def run_ruleset(tools: Sequence[ToolDef], plan: RuleSet,
             plan_for: Callable[[ToolDef], RuleSet] | None = None, *,
             keep_schemas: bool = True) -> list[ToolResult]:
    """`run` with the rules already chosen (the CLI validates options into a RuleSet first)."""
    return list(iter_ruleset(tools, plan, plan_for, keep_schemas=keep_schemas))


def iter_ruleset(tools: Sequence[ToolDef], plan: RuleSet,
              plan_for: Callable[[ToolDef], RuleSet] | None = None, *,
              keep_schemas: bool = True, known: Mapping[int, ToolResult] | None = None
              ) -> Iterator[ToolResult]:
    """`run_ruleset` one tool at a time, in the order of `tools`: `transform` writes each
    tool as soon as it is done and keeps only what its summary needs, instead of holding
    every transformed schema until the whole listing can be written.

    `plan_for` picks a tool's own plan (per-tool ignores); per-request sums still run over
    every tool of a source, with the base plan's counting rules.
    With `keep_schemas=False` each result's `transformed_schema` is None: a caller that only
    reports findings and changes (the text report of `check`) then holds one transformed
    schema at a time instead of all of them, which on a 10,000-tool file is ~1/4 of the peak.

    `known` holds results already made for some tools (by their index in `tools`, with
    their schemas): those are not run again, only met as earlier tools of their source, and
    only the other tools' results are yielded (`check` runs again the tools it sends
    without `strict`).
    """
    listing = _Listing(tools, plan, plan_for, keep_schemas)
    for i, tool in enumerate(tools):
        if known is not None and i in known:
            listing.met(tool, known[i].transformed_name, known[i].transformed_schema)
        else:
            yield listing.run(tool)


class _Listing:
    """What the tools of one run share as they are checked in turn. Names and counts are
    per source: one source is one server's listing, sent together; two snapshot files
    checked in one run are not one request."""

    def __init__(self, tools: Sequence[ToolDef], plan: RuleSet,
                 plan_for: Callable[[ToolDef], RuleSet] | None, keep_schemas: bool) -> None:
        self.base = plan
        self.plan_for = plan_for
        self.keep_schemas = keep_schemas
        # names earlier tools came with or are sent under: a name either way is taken, as
        # a tool renamed `a_b` clashes with a later `a_b` as much as an earlier `a_b` does
        self.taken_names: dict[str, set[str]] = {}
        self.new_names: dict[str, set[str]] = {}
        self.seen: dict[str, int] = {}  # tools of each source met so far
        self.totals: dict[str, int] = {}
        self.tally_rules = [r for r in plan.tool if r.tally is not None]
        # (source, transformed) -> sums
        self.tallies: dict[tuple[str, bool], Counter[str]] = {}
        for tool in tools:
            self.totals[tool.source] = self.totals.get(tool.source, 0) + 1

    def run(self, tool: ToolDef) -> ToolResult:
        base = self.base
        plan = self.plan_for(tool) if self.plan_for else base
        before = self.taken_names.setdefault(tool.source, set())
        renamed = self.new_names.setdefault(tool.source, set())
        tallies_before: Mapping[str, int] = _NO_TALLIES  # no rule counts anything per
        tallies_after: Mapping[str, int] = _NO_TALLIES  # request (most profiles)
        if self.tally_rules:
            tallies_before = dict(self.tallies.get((tool.source, False), {}))
            tallies_after = dict(self.tallies.get((tool.source, True), {}))
        position, total = self.seen.get(tool.source, 0), self.totals[tool.source]
        info = ToolInfo(tool.name, tool.description, position, before, total,
                        tool.schema, tallies_before)
        no_params = tool.schema is None and tool.schema_optional
        findings = check_tool_level(info, plan)
        new_schema: Any = None
        changes: list[Change] = []
        refused: list[Change] = []
        schema_left: list[Finding] = []
        if not no_params:
            done = SchemaRun(tool.schema, plan, tool.dialect)
            findings += done.found
            new_schema, changes, refused, schema_left = \
                done.result, done.changes, done.refused, done.left
        new_name, name_changes = fix_tool_name(
            ToolInfo(tool.name, tool.description, position, renamed, total, tool.schema,
                     tallies_before), plan, refused)
        after = ToolInfo(new_name, tool.description, position, renamed, total,
                         new_schema, tallies_after)
        remaining = check_tool_level(after, plan) + schema_left
        self.met(tool, new_name, new_schema)
        if changes or name_changes or refused:
            findings = as_made(findings, name_changes + changes,
                               {(f.code, f.path) for f in remaining}, refused)
            remaining = as_left(remaining, refused)
        return ToolResult(
            tool=tool, profile=base.profile.name, findings=tuple(findings),
            changes=tuple(name_changes + changes), transformed_name=new_name,
            transformed_schema=new_schema if self.keep_schemas else None,
            remaining=tuple(remaining),
        )

    def met(self, tool: ToolDef, new_name: str, new_schema: Any) -> None:
        """Count `tool`, sent as `new_name` with `new_schema`, as an earlier tool of its
        source: its names taken, its place and its per-request sums."""
        self.seen[tool.source] = self.seen.get(tool.source, 0) + 1
        names = self.taken_names.setdefault(tool.source, set())
        names.add(tool.name)
        names.add(new_name)
        self.new_names.setdefault(tool.source, set()).add(new_name)
        for rule in self.tally_rules:
            assert rule.tally is not None
            self.tallies.setdefault((tool.source, False), Counter()).update(
                rule.tally(tool.schema))
            self.tallies.setdefault((tool.source, True), Counter()).update(
                rule.tally(new_schema))
