"""SARIF 2.1.0 for GitHub code scanning (`check --format sarif`).

One run per provider. Each finding is a result whose rule carries the rule's docs as help
text, whose logical location is the tool plus the finding's JSONPath (what a reader needs
to find the node), and whose physical location is the snapshot file, on the line where the
tool's name appears, when the source is a file: code scanning shows an alert only where a
physical location exists. Stdlib only.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from typing import Any

from .. import __version__
from ..model import Finding, Report, ToolResult
from ..paths import jsonpath, pointer
from ..profiles import PROFILES
from ..rules.base import Rule
from ..rules.registry import RULES
from .rule_docs import rule_help_text, rule_markdown

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/schema-compat/"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.message},
        "fullDescription": {"text": rule.docs.what},
        "help": {"text": rule_help_text(rule),
                 "markdown": rule_markdown(rule, PROFILES.values())},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"tags": ["mcp", "json-schema", rule.family.lower()],
                       "fix-safety": rule.safety or "none"},
    }


def _file_lines(path: str) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8-sig") as fh:
            return tuple(fh.read().splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def artifact_uri(source: str) -> str | None:
    """A repository-relative URI for a file source; None for servers and stdin."""
    if not source or source == "-" or not os.path.isfile(source):
        return None
    path = os.path.relpath(os.path.abspath(source))
    if path.startswith(".."):
        path = os.path.abspath(source)
    return path.replace(os.sep, "/")


def tool_line(source: str, name: str, read: dict[str, tuple[str, ...]]) -> int:
    """The first line naming the tool (`"name": "read_files"`), else 1. `read`: the files one
    report has read so far, each read once."""
    if source not in read:
        read[source] = _file_lines(source)
    needle = json.dumps(name)
    for i, line in enumerate(read[source], start=1):
        if needle in line and '"name"' in line:
            return i
    return 1


def location(logical: dict[str, Any], source: str, tool: str,
             read: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """A result's location: `logical`, and the line of `source` that names `tool` when the
    source is a file of the checkout (`read`: the files read so far)."""
    out: dict[str, Any] = {"logicalLocations": [logical]}
    uri = artifact_uri(source)
    if uri is not None:
        out["physicalLocation"] = {"artifactLocation": {"uri": uri},
                                   "region": {"startLine": tool_line(source, tool, read)}}
    return out


def _fingerprint(provider: str, result: ToolResult, finding: Finding) -> str:
    key = "\0".join([provider, result.tool.name, finding.code, pointer(finding.path)])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _result(provider: str, result: ToolResult, finding: Finding, index: int,
            read: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    tool, path = result.tool.name, jsonpath(finding.path)
    if finding.scope == "schema":  # the tool plus the JSONPath: what a reader looks for
        where, logical = path, {"name": path, "fullyQualifiedName": tool + path[1:],
                                "kind": "member"}
    else:
        where, logical = "the tool", {"name": tool, "fullyQualifiedName": tool,
                                      "kind": "function"}
    text = f"{tool}: {finding.message} (at {where}, {provider})"
    if finding.fix_safety:
        text += f"; fix: {finding.fix_title or 'transform'} [{finding.fix_safety}]"
    return {
        "ruleId": finding.code,
        "ruleIndex": index,
        "level": _LEVEL[finding.severity],
        "message": {"text": text},
        "locations": [location(logical, result.tool.source, result.tool.name, read)],
        "partialFingerprints": {"schemaCompat/v1": _fingerprint(provider, result, finding)},
        "properties": {"tool": result.tool.name, "provider": provider,
                       "jsonPath": jsonpath(finding.path), "pointer": pointer(finding.path),
                       "fixSafety": finding.fix_safety or "none"},
    }


def _run(report: Report) -> dict[str, Any]:
    used = sorted({f.code for r in report.results for f in r.findings})
    index = {code: i for i, code in enumerate(used)}
    read: dict[str, tuple[str, ...]] = {}
    results = [_result(report.provider, r, f, index[f.code], read)
               for r in report.results for f in r.findings]
    notifications = [{"level": "error", "message": {"text": e.one_line()}}
                     for e in report.errors]
    return sarif_run(report.provider, [_rule_descriptor(RULES[c]) for c in used], results,
                     invocations=[{"executionSuccessful": not report.errors,
                                   "toolExecutionNotifications": notifications}])


def sarif_run(kind: str, rules: list[dict[str, Any]], results: list[dict[str, Any]],
              **more: Any) -> dict[str, Any]:
    """One run of schema-compat (`kind`: the provider checked, or `breaking`) with its
    rules and results; `more`, the run's other fields."""
    return {"tool": {"driver": {"name": "schema-compat", "version": __version__,
                                "semanticVersion": __version__,
                                "informationUri": INFORMATION_URI, "rules": rules}},
            "automationDetails": {"id": f"schema-compat/{kind}/"}, **more, "results": results}


def sarif_text(runs: list[dict[str, Any]]) -> str:
    """A SARIF log of these runs, as text."""
    log = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": runs}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def render_sarif(reports: Report | Sequence[Report]) -> str:
    """A SARIF log with one run per provider's report."""
    many: Iterable[Report] = [reports] if isinstance(reports, Report) else reports
    return sarif_text([_run(r) for r in many])
