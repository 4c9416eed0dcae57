"""GitHub Actions workflow annotations (`check --format github`).

One `::error`/`::warning`/`::notice` command per finding: the runner turns each into an
annotation on the pull request, on the snapshot file's line that names the tool when the
source is a file in the checkout. A summary line closes the output so the log reads on its
own. Stdlib only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Finding, Report, ToolResult
from ..paths import jsonpath
from .sarif import artifact_uri, tool_line
from .styled import plural, printable

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    # The runner's own escaping rules for a command's message; a control character within
    # the text (a tool name's) is shown as an escape first, so it cannot end the command.
    return printable(text).replace("%", "%25")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(command: str, source: str, tool: str, title: str, message: str,
               read: dict[str, tuple[str, ...]]) -> str:
    """One workflow command, on the line of `source` that names `tool` when the source is a
    file of the checkout (`read`: the files read so far)."""
    uri = artifact_uri(source)
    where = [] if uri is None else [f"file={escape_property(uri)}",
                                    f"line={tool_line(source, tool, read)}"]
    props = ",".join([*where, f"title={escape_property(title)}"])
    return f"::{command} {props}::{escape_data(message)}"


def _annotation(provider: str, result: ToolResult, finding: Finding, several: bool,
                read: dict[str, tuple[str, ...]]) -> str:
    where = f" at {jsonpath(finding.path)}" if finding.scope == "schema" else ""
    message = f"{result.tool.name}{where}: {finding.message}"
    if finding.fix_safety:
        message += f" (fix: {finding.fix_safety})"
    if result.tool.source and artifact_uri(result.tool.source) is None:
        message += f" [{result.tool.source}]"
    title = f"{finding.code} {finding.rule}" + (f" ({provider})" if several else "")
    return annotation(_COMMAND[finding.severity], result.tool.source, result.tool.name, title,
                      message, read)


def render_github(reports: Report | Sequence[Report]) -> str:
    many = [reports] if isinstance(reports, Report) else list(reports)
    several = len(many) > 1
    lines: list[str] = []
    read: dict[str, tuple[str, ...]] = {}
    for report in many:
        for result in report.results:
            lines += [_annotation(report.provider, result, f, several, read)
                      for f in result.findings]
    errors = {e.one_line() for r in many for e in r.errors}
    lines += [f"::error title=schema-compat::{escape_data(e)}" for e in sorted(errors)]
    for report in many:
        findings = sum(len(r.findings) for r in report.results)
        bad = sum(1 for r in report.results if r.status == "INCOMPATIBLE")
        lines.append(f"schema-compat {report.provider}: {plural(len(report.results), 'tool')}, "
                     f"{bad} incompatible, {plural(findings, 'finding')}")
    return "\n".join(lines) + "\n"
