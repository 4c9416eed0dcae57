"""What the page shows, computed with the library: the matrix, a cell, the downloads.

A listing is checked against every profile once (`Workspace.add`); the page then asks for
one cell at a time (its findings, changes and diff rows), so the matrix of a 300-tool server
is a small answer and a cell's schemas travel only when it is opened. Runs are kept in
memory, a few at a time, under an id the page names in later requests.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, NamedTuple

from ..engine import make_ruleset
from ..model import Change, Finding, Report, SourceError, ToolDef, ToolResult
from ..paths import jsonpath, pointer
from ..profiles import PROFILES
from ..requests.bodies import TARGETS

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..engine import RuleSet
    from ..extract.files import LoadedSource
    from ..requests import RequestPlan
    from ..settings import Settings

__all__ = ["KEEP_RUNS", "NO_SETTINGS", "InputError", "PageSettings", "Run", "Workspace",
           "rule_page"]

KEEP_RUNS = 8  # listings kept for the page; an older run id is answered with 404


class InputError(ValueError):
    """Input the page sent that cannot be used: one line naming what and where."""


class PageSettings(NamedTuple):
    """What a settings file (`.schema-compat.toml`) says that the page applies, as `check`
    and `transform` apply it: the provider(s) it names come first in the matrix (the first
    is the one shown), and every profile is checked with its rules, lossless-only and
    per-tool ignores; a listing is planned with its strict-first and name prefix. The
    default: no file, every profile with all its rules."""

    file: str | None = None
    providers: tuple[str, ...] = ()
    select: list[str] | None = None
    ignore: list[str] | None = None
    lossless_only: bool = False
    per_tool_ignores: dict[str, list[str]] | None = None
    strict_first: tuple[str, ...] = ()
    name_prefix: str = "none"

    @classmethod
    def of(cls, settings: Settings) -> PageSettings:
        from ..commands.providers import provider_names

        def given(key: str) -> bool:
            return settings.values[key].origin != "default"

        return cls(
            str(settings.file) if settings.file is not None else None,
            tuple(n.lower() for n in provider_names(settings.providers))
            if given("provider") else (),
            settings["select"] or None, settings["ignore"] or None,
            bool(settings["lossless-only"]), settings["per-tool-ignores"] or None,
            tuple(settings["strict-first"]), str(settings["name-prefix"]))

    def planned(self) -> bool:
        """Whether a listing is planned even when its profile would not need it."""
        return bool(self.strict_first) or self.name_prefix != "none"


NO_SETTINGS = PageSettings()  # no settings file: every profile with all its rules


class Run:
    """One listing checked against every profile; what `transform` sends for a profile is
    worked out when first asked for, and kept."""

    def __init__(self, run_id: str, source: LoadedSource, errors: list[SourceError],
                 results: dict[str, list[ToolResult]], plans: dict[str, RuleSet],
                 elapsed: float, cpu: float, settings: PageSettings | None = None,
                 sent: dict[str, Mapping[tuple[str, int], tuple[bool, Any]]] | None = None
                 ) -> None:
        self.run_id = run_id
        self.source = source
        self.errors = errors
        self.results = results
        # per profile with a strict flag: each tool sent strict or not, and its schema
        # then (requests/check.py), which the request's limits count
        self.sent_as = sent or {}
        self.plans = plans
        self.elapsed = elapsed  # wall-clock seconds of the checks, every profile
        self.cpu = cpu  # CPU seconds of the same (what other processes' load does not add)
        self.settings = settings or NO_SETTINGS
        self._requests: dict[str, RequestPlan | str] = {}
        self._lock = threading.Lock()

    @property
    def tools(self) -> tuple[ToolDef, ...]:
        return self.source.tools

    def results_of(self, provider: str) -> list[ToolResult]:
        """Every tool as checked for `provider`; InputError for an unknown provider."""
        results = self.results.get(provider)
        if results is None:
            raise InputError(f"no provider {provider!r}: one of {', '.join(self.results)}")
        return results

    def result(self, provider: str, index: int) -> ToolResult:
        results = self.results_of(provider)
        if not 0 <= index < len(results):
            raise InputError(f"no tool number {index}: this listing has {len(results)}")
        return results[index]

    def report(self, provider: str) -> Report:
        """What `check --json` reports: each tool, and the request they make together."""
        from ..requests.check import request_infos

        results = self.results_of(provider)
        servers = (self.source.server,) if self.source.server is not None else ()
        groups = [list(self.tools)] if self.tools else []
        plan = self.plans[provider]
        return Report(provider, tuple(results), tuple(self.errors), servers,
                      request_infos(groups, plan, self.settings.name_prefix,
                                    self.sent_as.get(provider)),
                      lossless_only=plan.lossless_only)

    def request(self, provider: str) -> RequestPlan:
        """The listing as one request to `provider`, planned (strict budgets, names, the
        tool count) as `transform` plans it; InputError when the planner refuses it."""
        from ..requests import PlanError, plan

        self.results_of(provider)
        chosen, page = self.plans[provider], self.settings
        with self._lock:
            found = self._requests.get(provider)
            if found is None:
                try:  # as `transform` plans a request (commands/requests.py plan_requests)
                    found = plan(list(self.tools), provider, strict_first=page.strict_first,
                                 name_prefix=page.name_prefix,  # type: ignore[arg-type]
                                 ignore_rules=[c for c in chosen.profile.rules
                                               if c not in chosen.codes],
                                 lossless_only=chosen.lossless_only,
                                 per_tool_ignores=page.per_tool_ignores)
                except PlanError as exc:
                    found = str(exc)
                self._requests[provider] = found
        if isinstance(found, str):
            raise InputError(found)
        return found

    def sent(self, provider: str) -> list[ToolResult]:
        """Each tool as `transform --provider PROVIDER` writes it: planned when the
        profile has a strict budget or the listing is past its tool count (commands/
        requests.py `needs_planner`), else as checked."""
        from ..requests import max_tools

        results = self.results_of(provider)
        profile = self.plans[provider].profile
        limit = max_tools(profile)
        if profile.strict_budget is None and (limit is None or len(results) <= limit) \
                and not self.settings.planned():
            return results
        return [t.result for t in self.request(provider).tools]


def _cell_summary(result: ToolResult) -> dict[str, Any]:
    from ..report.matrix import cell

    counts = {"error": 0, "warning": 0, "info": 0}
    for f in result.findings:
        counts[f.severity] += 1
    return {"cell": cell(result), "fix_status": result.fix_status, **counts,
            "changes": len(result.changes),
            "renamed": result.transformed_name != result.tool.name}


def _finding(f: Finding) -> dict[str, Any]:
    effect = f.fix_effect
    return {"code": f.code, "rule": f.rule, "severity": f.severity, "scope": f.scope,
            "path": jsonpath(f.path), "pointer": pointer(f.path), "message": f.message,
            "fix": None if f.fix_safety is None else {
                "title": f.fix_title or "", "safety": f.fix_safety,
                "accepts": effect[0] if effect else "equal",
                "told": effect[1] if effect else "kept"}}


def _change(c: Change) -> dict[str, Any]:
    accepts, told = c.effect
    return {"code": c.code, "path": jsonpath(c.path), "pointer": pointer(c.path),
            "safety": c.safety, "accepts": accepts, "told": told,
            "description": c.description, "scope": c.scope}


def diff_rows(result: ToolResult) -> list[dict[str, Any]]:
    """The rows `schema-compat diff` prints: original and transformed lines aligned, each
    with its node's JSON Pointer, its kind (" ", "-", "+", "~") and the changes (indexes
    into `result.changes`) marked on it."""
    from ..report.diff import aligned

    pairs, marks = aligned(result.tool.schema, result.transformed_schema, result.changes)
    rows = []
    for lhs, rhs, kind in pairs:
        rows.append({
            "kind": kind,
            "left": None if lhs is None else lhs.text,
            "lp": None if lhs is None else pointer(lhs.path),
            "right": None if rhs is None else rhs.text,
            "rp": None if rhs is None else pointer(rhs.path),
            "marks": [] if rhs is None else marks.get(id(rhs), []),
        })
    return rows


def _cpu_time() -> float:
    """This thread's CPU time; the process's where there is no per-thread clock (Pyodide,
    which runs one thread)."""
    clock = getattr(time, "thread_time", None)
    return float(clock()) if clock is not None else time.process_time()


class Workspace:
    """The runs the page has made, newest last; safe to use from the server's threads."""

    def __init__(self, keep: int = KEEP_RUNS, settings: PageSettings | None = None
                 ) -> None:
        self._keep = keep
        self._runs: OrderedDict[str, Run] = OrderedDict()
        self._lock = threading.Lock()
        self.settings = settings = settings or NO_SETTINGS
        names = [*settings.providers, *(p for p in PROFILES if p not in settings.providers)]
        self._plans = {name: make_ruleset(name, settings.select, settings.ignore,
                                       settings.lossless_only) for name in names}

    def add_text(self, text: str, label: str) -> Run:
        """Check a pasted or dropped document; InputError says what is wrong with it."""
        from ..extract.files import SourceLoadError, load_source_text

        try:
            source = load_source_text(text, label)
        except SourceLoadError as exc:
            raise InputError(exc.error.one_line()) from None
        return self.add(source, [])

    def add(self, source: LoadedSource, errors: list[SourceError]) -> Run:
        started, cpu = time.perf_counter(), _cpu_time()
        tools = list(source.tools)
        from ..requests.check import check_as_sent

        per_tool = self.settings.per_tool_ignores
        # each tool checked as it is sent, as `check` does (strict or not, requests/check.py)
        checked = {name: check_as_sent(tools, [tools] if tools else [], plan, per_tool,
                                       self.settings.strict_first)
                   for name, plan in self._plans.items()}
        results = {name: c.results for name, c in checked.items()}
        run = Run(secrets.token_hex(8), source, errors, results, self._plans,
                  time.perf_counter() - started, _cpu_time() - cpu, self.settings,
                  {name: c.sent for name, c in checked.items() if c.sent})
        with self._lock:
            self._runs[run.run_id] = run
            while len(self._runs) > self._keep:
                self._runs.popitem(last=False)
        return run

    def get(self, run_id: str) -> Run | None:
        with self._lock:
            return self._runs.get(run_id)


def matrix(run: Run) -> dict[str, Any]:
    """The whole provider x tool matrix with counts per cell; no schemas."""
    providers = list(run.results)
    return {
        "run": run.run_id,
        "label": run.source.label,
        "shape": run.source.shape,
        "server": None if run.source.server is None else {
            "name": run.source.server.name, "version": run.source.server.version,
            "era": run.source.server.era,
            "protocol_version": run.source.server.protocol_version},
        "providers": [{"name": p, "label": PROFILES[p].label, "title": PROFILES[p].title,
                       "targets": [t for t, takes in TARGETS.items() if p in takes]}
                      for p in providers],
        "tools": [{"name": t.name, "index": t.index} for t in run.tools],
        "cells": {p: [_cell_summary(r) for r in run.results[p]] for p in providers},
        "errors": [e.one_line() for e in run.errors],
        "settings": run.settings.file,
        "elapsed_ms": round(run.elapsed * 1000, 1),
        "cpu_ms": round(run.cpu * 1000, 1),
    }


def cell_detail(run: Run, provider: str, index: int) -> dict[str, Any]:
    """One tool for one provider: the findings `check` reports, and the changes, diff rows
    and transformed schema of what `transform` writes (which the request planner may have
    settled: a strict flag, a name). When the planner refuses the request (too many tools),
    `request_error` says why and the tool is shown as checked alone."""
    checked = run.result(provider, index)
    request_error = None
    try:
        sent = run.sent(provider)[index]
    except InputError as exc:
        sent, request_error = checked, str(exc)
    return {
        "provider": provider,
        "tool": checked.tool.name,
        "index": index,
        "transformed_name": sent.transformed_name,
        "status": checked.status,
        **_cell_summary(checked),
        "findings": [_finding(f) for f in checked.findings],
        "changes": [_change(c) for c in sent.changes],
        "remaining": [_finding(f) for f in sent.remaining],
        "rows": diff_rows(sent),
        "transformed_schema": sent.transformed_schema,
        "request_error": request_error,
    }


def transformed_text(run: Run, provider: str) -> str:
    """The document `schema-compat transform --provider PROVIDER` writes for this input:
    the same shape, each tool's name and schema replaced."""
    from ..output.document import results_pieces

    return "".join(results_pieces([run.source], run.sent(provider),
                                  run.plans[provider].profile))


def request_text(run: Run, provider: str, target: str) -> str:
    """The `tools` value of `target`'s request body (`transform --to TARGET`)."""
    from ..jsonio import dump_json
    from ..requests.bodies import provider_tools

    takes = TARGETS.get(target)
    if takes is None:
        raise InputError(f"no target {target!r}: one of {', '.join(TARGETS)}")
    run.results_of(provider)
    if provider not in takes:
        raise InputError(f"{target} takes the schemas of {', '.join(takes)}, not {provider}")
    return dump_json(provider_tools(run.request(provider), target))


def report_text(run: Run, provider: str, form: str) -> str:
    """The JSON report (`check --json`) for one provider, or SARIF for one or `all`."""
    if form == "json":
        from ..report.json import render_json

        return render_json(run.report(provider))
    if form == "sarif":
        from ..report.sarif import render_sarif

        names = list(run.results) if provider == "all" else [provider]
        return render_sarif([run.report(p) for p in names])
    raise InputError(f"no report format {form!r}: json or sarif")


def breaking_report(run: Run, old_text: str, old_label: str) -> dict[str, Any]:
    """What `schema-compat breaking OLD NEW --json` reports, OLD the document the page was
    given and NEW this run's listing: the command's comparison and its JSON, not another.
    A listing read in part, or a tool without a name, is refused, as the command refuses
    it: matching tools by name, a tool missing from one side would read as removed."""
    from ..evolution.tools import compare_tools
    from ..extract.files import SourceLoadError, load_source_text
    from ..mcp_tool import placeholder_name
    from ..report.evolution import to_dict

    try:
        old = load_source_text(old_text, old_label)
    except SourceLoadError as exc:
        raise InputError(exc.error.one_line()) from None
    if run.errors:
        raise InputError(f"{run.source.label} was read with errors ({run.errors[0].one_line()})"
                         ": a version read in part would show false removals")
    for source in (old, run.source):
        for tool in source.tools:
            if tool.name == placeholder_name(tool.index):
                raise InputError(f"{source.label}: tool {tool.index} has no name: tools are "
                                 "matched by name")
    return to_dict(compare_tools(list(old.tools), list(run.tools)), old.label,
                   run.source.label)


def rule_page(code: str) -> dict[str, Any]:
    """A rule's documentation, as `schema-compat rule CODE` gives it (Markdown)."""
    from ..report.rule_docs import rule_markdown
    from ..rules.registry import by_name_or_code

    rule = by_name_or_code(code)
    if rule is None:
        raise InputError(f"no rule {code!r}")
    return {"code": rule.code, "name": rule.name, "severity": rule.severity,
            "markdown": rule_markdown(rule, PROFILES.values())}

