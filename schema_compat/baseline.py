"""Baselines: adopt schema-compat on a large server without fixing everything first.

`check --write-baseline FILE` records today's findings; `check --baseline FILE` reports only
findings not in it. A finding is known by provider, tool name, rule code and JSON Pointer:
not by message (wording may improve) nor by source (a snapshot may move). Matching counts
occurrences, so a second identical finding is new. Stdlib only.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from .model import Finding, Report, ToolResult
from .paths import pointer

BASELINE_VERSION = 1
Key = tuple[str, str, str, str]


class BaselineError(Exception):
    """A baseline file that cannot be used; the message names the file."""


def _key(provider: str, result: ToolResult, finding: Finding) -> Key:
    return (provider, result.tool.name, finding.code, pointer(finding.path))


def dump_baseline(reports: Iterable[Report]) -> str:
    """The baseline file's text: every finding's key, sorted."""
    keys = sorted(_key(rep.provider, r, f) for rep in reports for r in rep.results
                  for f in r.findings)
    document = {"version": BASELINE_VERSION, "generator": "schema-compat",
                "findings": [{"provider": p, "tool": t, "code": c, "pointer": ptr}
                             for p, t, c, ptr in keys]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def load_baseline(path: str) -> Counter[Key]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise BaselineError(f"baseline {path} does not exist (create it with "
                            "--write-baseline)") from None
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BaselineError(f"baseline {path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != BASELINE_VERSION \
            or not isinstance(data.get("findings"), list):
        raise BaselineError(f"baseline {path} is not a schema-compat baseline (version "
                            f"{BASELINE_VERSION})")
    keys: Counter[Key] = Counter()
    for i, entry in enumerate(data["findings"]):
        fields = ("provider", "tool", "code", "pointer")
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str)
                                                  for k in fields):
            raise BaselineError(f"baseline {path}: findings[{i}] needs string fields "
                                f"{', '.join(fields)}")
        if not _is_pointer(entry["pointer"]):
            raise BaselineError(
                f"baseline {path}: findings[{i}] (tool {entry['tool']!r}, {entry['code']}): "
                f"pointer {entry['pointer']!r} is not a JSON Pointer (\"\" for the tool, or "
                "/-separated steps such as /properties/path, as --write-baseline writes it)")
        keys[(entry["provider"], entry["tool"], entry["code"], entry["pointer"])] += 1
    return keys


def _is_pointer(text: str) -> bool:
    """Whether `text` is an RFC 6901 JSON Pointer: empty, or steps each after a `/`, with
    `~` only in the escapes `~0` and `~1`. Anything else could never match a finding, so the
    entry would silently baseline nothing."""
    return text == "" or (text.startswith("/") and "~" not in text.replace("~0", "").replace(
        "~1", ""))


def apply_baseline(report: Report, known: Counter[Key]) -> tuple[Report, int]:
    """The report with baselined findings removed, and how many were removed.

    `known` is consumed as findings match, so run it over every report of one check.
    """
    removed = 0
    results = []
    for r in report.results:
        kept = []
        for f in r.findings:
            key = _key(report.provider, r, f)
            if known[key] > 0:
                known[key] -= 1
                removed += 1
            else:
                kept.append(f)
        results.append(r._replace(findings=tuple(kept)))
    return report._replace(results=tuple(results)), removed
