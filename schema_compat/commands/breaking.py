"""`schema-compat breaking`: which changes between two versions of a server's tools break
the callers written against the old one.

OLD and NEW are sources as `check` reads them: the old version a file, a folder or `-` (a
snapshot), the new one the same or a live server. `--against SNAPSHOT` names the old one
when the new is the only SOURCE or a live server, the form a server's CI runs.
"""

from __future__ import annotations

import fnmatch
import sys
from typing import TYPE_CHECKING, NamedTuple

from .exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, fail, print_errors
from .inputs import LiveOpts, load_inputs

if TYPE_CHECKING:
    from ..evolution.tools import ToolChange
    from ..model import ToolDef


class BreakingOptions(NamedTuple):
    """Every option of `breaking` (options.py holds their flags, defaults and help)."""

    sources: list[str] | None
    against: str | None
    tool: list[str] | None
    json_out: bool
    output_format: str
    fail_on: str
    select: list[str] | None
    ignore: list[str] | None
    live: LiveOpts


def run_breaking(options: BreakingOptions) -> int:
    from ..evolution.tools import compare_tools

    old_source, new_sources = _split(options)
    old, old_label = _load([old_source], LiveOpts(), "OLD")
    new, new_label = _load(new_sources, options.live, "NEW")
    if options.tool:
        old = [t for t in old if _chosen(t.name, options.tool)]
        new = [t for t in new if _chosen(t.name, options.tool)]
    changes = _filtered(compare_tools(old, new), options.select, options.ignore)
    fmt = "json" if options.json_out else options.output_format
    from ..report import evolution as report

    if fmt == "json":
        import json

        data = report.to_dict(changes, old_label, new_label)
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    elif fmt == "sarif":
        sys.stdout.write(report.render_sarif(changes, new_label))
    elif fmt == "github":
        sys.stdout.write(report.render_github(changes, new_label))
    elif fmt == "markdown":
        sys.stdout.write(report.render_markdown(changes, old_label, new_label))
    else:
        from ..report.text import text_output

        report.render_text(changes, old_label, new_label, text_output())
    failing = [f for c in changes for f in c.findings
               if f.breaking or (options.fail_on == "warning" and f.check.level == "warning")]
    return EXIT_FINDINGS if failing else EXIT_OK


def _split(options: BreakingOptions) -> tuple[str, list[str]]:
    """The old source and the new ones, from OLD NEW or --against."""
    sources = list(options.sources or [])
    live = options.live.given()
    if options.against is not None:
        if len(sources) + live != 1:
            fail("with --against, give one NEW: a SOURCE or a live server",
                 "e.g. schema-compat breaking --against mcp-tools.json --server "
                 '"python server.py"')
        return options.against, sources
    if len(sources) == 2 and not live:
        return sources[0], sources[1:]
    if len(sources) == 1 and live:
        return sources[0], []
    fail("give the old and the new version: OLD NEW, OLD and a live server, or --against OLD",
         "e.g. schema-compat breaking mcp-tools.json --server \"python server.py\"")


def _load(sources: list[str], live: LiveOpts, which: str) -> tuple[list[ToolDef], str]:
    loaded, errors = load_inputs(sources or None, live)
    if errors:
        print_errors(errors)
        raise SystemExit(EXIT_USAGE)  # a half-read version would report false removals
    label = ", ".join(s.label for s in loaded) or ", ".join(sources) or which
    return [t for s in loaded for t in s.tools], label


def _chosen(name: str, globs: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, g) for g in globs)


def _filtered(changes: list[ToolChange], select: list[str] | None,
              ignore: list[str] | None) -> list[ToolChange]:
    from ..evolution.checks import BY_CODE

    def codes(given: list[str] | None) -> list[str]:
        out = [c.strip().upper() for g in given or [] for c in g.split(",") if c.strip()]
        for code in out:
            if not any(k.startswith(code) for k in BY_CODE):
                fail(f"unknown check {code!r}", "`schema-compat breaking --help`; the checks "
                     "are EVO001-EVO303 (docs/breaking/README.md)")
        return out

    chosen, skipped = codes(select), codes(ignore)
    if not chosen and not skipped:
        return changes

    def keep(code: str) -> bool:
        return (not chosen or any(code.startswith(c) for c in chosen)) and \
            not any(code.startswith(c) for c in skipped)

    from ..evolution.tools import restatus

    return [restatus(c, tuple(f for f in c.findings if keep(f.check.code))) for c in changes]
