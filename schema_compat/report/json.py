"""The versioned JSON report: the contract agents and scripts read.

Stdlib plus our own modules only. `check --json` must stay fast and must work where rich
is absent, so nothing in here may import rich (a test guards this).
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Sequence
from typing import IO, Any

from ..jsonio import encode_indented, iter_indented
from ..model import SAFETIES, SEVERITIES, Change, Finding, Report, ServerInfo, ToolResult
from ..paths import jsonpath, pointer
from .requests import requests_to_dict

__all__ = ["REPORT_VERSION", "render_json", "report_json_schema", "report_to_dict",
           "reports_to_dict", "write_json"]

# Bump only on an incompatible change of shape; adding optional fields keeps version 1.
REPORT_VERSION = 1

_FIX_STATUSES = ("compatible", *SAFETIES, "unfixable")
_PACKAGE = __name__.rpartition(".")[0]


def _now() -> str:
    # Seconds precision and a literal "Z": what most tools parse without a timezone library.
    # `time`, not `datetime`: the same text, without importing datetime (~1 ms) at start-up.
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def refused(finding: Finding, lossless_only: bool) -> bool:
    """Whether the run refused the finding's fix: with lossless-only, every fix that is
    not lossless (its class and effect still say what it does, made or not)."""
    return lossless_only and finding.fix_safety not in (None, "lossless")


def _finding_to_dict(finding: Finding, lossless_only: bool) -> dict[str, Any]:
    fix: dict[str, Any] | None = None
    if finding.fix_safety is not None:
        accepts, told = finding.fix_effect or ("equal", "kept")
        fix = {"title": finding.fix_title or "", "safety": finding.fix_safety,
               "effect": {"accepts": accepts, "told": told},
               "applied": not refused(finding, lossless_only)}
    return {
        "code": finding.code,
        "rule": finding.rule,
        "severity": finding.severity,
        "scope": finding.scope,
        "path": jsonpath(finding.path),
        "pointer": pointer(finding.path),
        "pattern": finding.keyword,
        "message": finding.message,
        "fix": fix,
    }


def _change_to_dict(change: Change) -> dict[str, Any]:
    return {
        "code": change.code,
        "path": jsonpath(change.path),
        "pointer": pointer(change.path),
        "safety": change.safety,
        "effect": dict(zip(("accepts", "told"), change.effect, strict=True)),
        "description": change.description,
        "scope": change.scope,
    }


def _tool_to_dict(result: ToolResult, include_schemas: bool, copy_schemas: bool = True,
                  lossless_only: bool = False) -> dict[str, Any]:
    tool = result.tool
    out: dict[str, Any] = {
        "name": tool.name,
        "transformed_name": result.transformed_name,
        "source": tool.source,
        "index": tool.index,
        "status": result.status,
        "fix_status": result.fix_status,
        "issues": [_finding_to_dict(f, lossless_only) for f in result.findings],
        "transforms_applied": [_change_to_dict(c) for c in result.changes],
        "remaining_issues": [_finding_to_dict(f, lossless_only) for f in result.remaining],
    }
    if include_schemas:
        # Copies, so a caller editing the dict cannot corrupt the frozen report behind it
        # (write_json, which only serialises, skips them: they doubled its memory).
        keep = copy.deepcopy if copy_schemas else _same
        out["original_schema"] = keep(tool.schema)
        out["transformed_schema"] = keep(result.transformed_schema)
    return out


def _same(value: Any) -> Any:
    return value


def _summary(report: Report) -> dict[str, Any]:
    results = report.results
    findings = [f for r in results for f in r.findings]
    by_severity = {s: 0 for s in SEVERITIES}
    fixable = {s: 0 for s in (*SAFETIES, "unfixable")}
    for f in findings:
        by_severity[f.severity] += 1
        fixable[f.fix_safety if f.fix_safety is not None else "unfixable"] += 1
    fix_status = {s: 0 for s in _FIX_STATUSES}
    for r in results:
        fix_status[r.fix_status] += 1
    compatible = sum(1 for r in results if r.status == "COMPATIBLE")
    return {
        "total_tools": len(results),
        "compatible": compatible,
        "incompatible": len(results) - compatible,
        "findings": len(findings),
        "by_severity": by_severity,
        "fixable": fixable,
        "fix_status": fix_status,
        "refused": sum(1 for f in findings if refused(f, report.lossless_only)),
        "errors": len(report.errors),
    }


def report_to_dict(
    report: Report, *, generated_at: str | None = None, include_schemas: bool = True,
    copy_schemas: bool = True,
) -> dict[str, Any]:
    """Build the version-1 report object documented by `report.schema.json`.

    `generated_at` is injectable so tests and reproducible builds get stable output;
    `include_schemas=False` keeps reports small when only the findings matter.
    """
    return {
        "version": REPORT_VERSION,
        "provider": report.provider,
        **({"client": report.client} if report.client else {}),
        **({"client_inferred_from": report.client_from} if report.client_from else {}),
        "generated_at": generated_at if generated_at is not None else _now(),
        "lossless_only": report.lossless_only,
        "summary": _summary(report),
        "tools": [_tool_to_dict(r, include_schemas, copy_schemas, report.lossless_only)
                  for r in report.results],
        "name_map": _name_map(report),
        "errors": [
            {"source": e.source, "message": e.message, "hint": e.hint} for e in report.errors
        ],
        **({"servers": [_server_to_dict(s) for s in report.servers]} if report.servers else {}),
        **({"requests": requests_to_dict(report.requests)} if report.requests else {}),
    }


def reports_to_dict(
    reports: Sequence[Report], *, generated_at: str | None = None, copy_schemas: bool = True,
) -> dict[str, Any]:
    """One provider's report, or several providers' as one object: the single-provider shape
    of the first (version 1 only ever adds fields, so a reader of that shape still reads
    it), `provider` listing every profile, and each one's own summary, tools with their
    findings and changes, name map and requests under `providers` (keyed by profile, in
    order), with the provider matrix. A provider's tools there are in the top-level order
    and leave out `original_schema`, the same for every provider."""
    data = report_to_dict(reports[0], generated_at=generated_at, copy_schemas=copy_schemas)
    if len(reports) == 1:
        return data
    from .matrix import matrix_to_dict

    data["provider"] = ",".join(r.provider for r in reports)
    data["providers"] = {r.provider: _provider_section(r, copy_schemas) for r in reports}
    data["matrix"] = matrix_to_dict({r.provider: list(r.results) for r in reports})
    return data


def _provider_section(report: Report, copy_schemas: bool) -> dict[str, Any]:
    tools = []
    for result in report.results:
        tool = _tool_to_dict(result, True, copy_schemas, report.lossless_only)
        del tool["original_schema"]
        tools.append(tool)
    return {
        "summary": _summary(report),
        "tools": tools,
        "name_map": _name_map(report),
        **({"requests": requests_to_dict(report.requests)} if report.requests else {}),
    }


def _name_map(report: Report) -> dict[str, str]:
    return {r.transformed_name: r.tool.name for r in report.results
            if r.transformed_name != r.tool.name}


def _server_to_dict(server: ServerInfo) -> dict[str, Any]:
    out: dict[str, Any] = {"source": server.source, "transport": server.transport,
                           "era": server.era, "protocol_version": server.protocol_version}
    if server.name:
        out["server_name"] = server.name
    if server.version:
        out["server_version"] = server.version
    return out


def render_json(
    report: Report, *, generated_at: str | None = None, include_schemas: bool = True
) -> str:
    """The report as text: non-ASCII kept readable, newline-terminated for shells and diffs."""
    data = report_to_dict(report, generated_at=generated_at, include_schemas=include_schemas)
    # what json.dumps(data, indent=2, ensure_ascii=False) + "\n" gives, with less memory
    return encode_indented(data, ensure_ascii=False, allow_nan=True)


def write_json(report: Report | Sequence[Report], out: IO[str], *,
               generated_at: str | None = None) -> None:
    """`render_json` streamed to `out` (of several providers' reports, `reports_to_dict`):
    neither the schemas nor the text are held twice, so a 100 MB input does not need the
    whole report as one string."""
    reports = [report] if isinstance(report, Report) else list(report)
    data = reports_to_dict(reports, generated_at=generated_at, copy_schemas=False)
    # json.dump(data, out, indent=2, ensure_ascii=False) + "\n", in pieces of a value each
    for piece in iter_indented(data, ensure_ascii=False, allow_nan=True):
        out.write(piece)


def report_json_schema() -> dict[str, Any]:
    """The shipped JSON Schema of the report, read as package data so installs carry it.
    (importlib.resources is imported here: `check --json` does not need it.)"""
    from importlib import resources

    text = resources.files(_PACKAGE).joinpath("report.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
