"""Terminal reports for people: `check` output and the stderr summary after `transform`.

Everything is printed as styled text (`Styled`, which becomes `rich.text.Text`), never as
markup strings: tool names, messages and JSONPaths (`['$ref']`) are user data and would
otherwise be parsed as markup or auto-highlighted. Every colour has a word beside it
(severity, status, safety), so the report reads the same with NO_COLOR or through a pipe;
there, `text_output` gives a `PlainOutput`, which prints the same characters without
importing rich.console.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple, Union

from ..console import make_console
from ..model import (
    SAFETIES,
    SEVERITIES,
    Change,
    Finding,
    Path,
    Report,
    ServerInfo,
    ToolResult,
)
from ..paths import jsonpath
from ..profiles import DEFAULT_PROFILE
from .json import refused
from .requests import request_lines
from .styled import NO_BREAK, PlainOutput, Styled, glued, plain_output, plural, printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["Rerun", "make_console", "render_check", "render_transform_summary", "text_output"]

# Where a report is printed: a rich console, or plain text where rich would style nothing.
Output = Union["Console", PlainOutput]

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
SAFETY_STYLE = {"lossless": "green", "hinted": "yellow", "lossy": "bold magenta"}
STATUS_STYLE = {"COMPATIBLE": "green", "INCOMPATIBLE": "bold red"}
UNFIXABLE_STYLE = "bold red"
_MAX_NAMES = 8
_REFUSED_STYLE = "dim"
# what the report says of the run under --lossless-only, where fixes were refused
_UNDER = " with --lossless-only"


def text_output(*, stderr: bool = False) -> Output:
    """The CLI's output for a report on stdout (stderr): plain where nothing would be
    styled (see report/styled.py), else a console from `make_console`."""
    return plain_output(stderr=stderr) or make_console(stderr=stderr)


def print_hanging(console: Output, lead: Styled, body: Styled) -> None:
    """Print `lead` then `body`, wrapping the body under itself instead of under the lead.

    Long JSONPaths have no spaces, so they fold; nothing is ever cut off, and no line
    carries trailing padding (a rich Table would pad every cell to the full width).
    """
    if isinstance(console, PlainOutput):
        plain_lead, plain_body = lead.plain, body.plain
        if console.can_write(plain_lead, plain_body):
            console.hanging(plain_lead, plain_body)
            return
        console = console.rich_console()
    _print_hanging(console, lead.to_text(), body.to_text())


def _print_hanging(console: Console, lead: Text, body: Text) -> None:
    from rich.text import Text

    from .styled import wrap_offsets

    indent = lead.cell_len
    avail = max(1, console.size.width - indent)
    lines: list[Text] = []
    for paragraph in body.split("\n", allow_blank=True) if body.plain else [Text()]:
        if "\t" in paragraph.plain:
            paragraph.expand_tabs(8)
        for line in paragraph.divide(wrap_offsets(paragraph.plain, avail)):
            line.rstrip_end(avail)
            line.truncate(avail, overflow="fold")
            lines.append(line)
    out: list[Text] = []
    for k, line in enumerate(lines):
        row = lead.copy() if k == 0 else Text(" " * indent)
        piece = line.copy()
        piece.rstrip()
        row.append_text(piece)
        row.rstrip()
        out.append(row)
    joined = Text("\n").join(out)
    joined.plain = joined.plain.replace(NO_BREAK, " ")  # same length: the styles stay
    console.print(joined, no_wrap=True, crop=False, highlight=False)


# A body narrower than this reads a word or two a line: the body then goes under its cells.
_MIN_BODY = 30


def print_rows(console: Output, rows: list[tuple[list[Styled], Styled]], *,
               indent: int = 2) -> None:
    """Rows of short fixed cells (severity, code, tool) followed by a wrapping body, the
    fixed cells aligned across rows like a table."""
    _print_aligned(console, rows, _cell_widths(rows), indent)


def print_groups(console: Output, groups: list[tuple[Styled, list[tuple[list[Styled], Styled]]]],
                 *, indent: int = 2) -> None:
    """Rows under headings (a tool's changes under its name): each heading on a line of its
    own, however long, and the rows below it aligned across every group, so a long name
    takes no width from the bodies."""
    widths = _cell_widths([row for _, rows in groups for row in rows])
    for heading, rows in groups:
        print_hanging(console, Styled(" " * indent), heading)
        _print_aligned(console, rows, widths, indent + 2)


def _cell_widths(rows: list[tuple[list[Styled], Styled]]) -> list[int]:
    widths = [0] * max((len(cells) for cells, _ in rows), default=0)
    for cells, _ in rows:
        for k, cell in enumerate(cells):
            widths[k] = max(widths[k], cell.cell_len)
    return widths


def _print_aligned(console: Output, rows: list[tuple[list[Styled], Styled]], widths: list[int],
                   indent: int) -> None:
    """Each row's cells padded to `widths`, its body wrapped beside them; where that would
    leave the body fewer than _MIN_BODY cells, the body wraps under the cells instead, so
    that no word and no JSONPath is cut for want of room."""
    below = console.width - (indent + sum(w + 1 for w in widths)) < _MIN_BODY
    for cells, body in rows:
        lead = Styled(" " * indent)
        for k, cell in enumerate(cells):
            lead.append_text(cell)
            if below:
                lead.append(" " if k < len(cells) - 1 else "")
            else:
                lead.append(" " * (widths[k] - cell.cell_len + 1))
        if below:
            print_line(console, lead)
            print_hanging(console, Styled(" " * (indent + 2)), body)
        else:
            print_hanging(console, lead, body)


def print_line(console: Output, text: Styled) -> None:
    """A paragraph: wrapped at words, without trailing spaces."""
    print_hanging(console, Styled(), text)


class Rerun(NamedTuple):
    """How the check's own input is read again by the commands its hints name, so that each
    hint is a command that works as printed: the arguments after `schema-compat transform`
    and after `schema-compat diff TOOL` (the sources, live-server and provider options the
    check was given), and `needs`, what the user must add where the arguments alone cannot
    read the input again (stdin: "with the same input on stdin")."""

    transform: list[str]
    diff: list[str]
    needs: str = ""


def _fallback_rerun(provider: str) -> Rerun:
    """Without the check's command line (a library caller): the sources are a placeholder
    the hint says to fill in."""
    flag = [] if provider == DEFAULT_PROFILE else ["-p", provider]
    return Rerun(["SOURCE...", *flag], ["SOURCE...", *flag],
                 "with SOURCE... the sources checked")


def _command(*words: str) -> str:
    import shlex  # here, not at start-up: only the hints quote

    return " ".join(w if w == "SOURCE..." else shlex.quote(w) for w in words)


def _fix_label(result: ToolResult, lossless_only: bool = False) -> Styled:
    """What `transform` can do for this tool, in words (with the run's options)."""
    status = result.fix_status
    if status == "unfixable":
        left = sum(1 for f in result.remaining if f.severity == "error")
        under = _UNDER if lossless_only else ""
        return Styled(f"not fixable{under} ({plural(left, 'error')} left after transform)",
                      UNFIXABLE_STYLE)
    if status == "compatible":
        return Styled("nothing to fix" if not result.errors else "accepted", "green")
    return Styled(f"fixable ({status})", SAFETY_STYLE[status])


def _lossy_label(change: Change) -> str:
    """What made a change lossy: the arguments accepted (narrower, changed), and the text
    lost where it was."""
    accepts, told = change.effect
    if change.scope == "tool":
        return "lossy (renamed)" if told == "lost" else f"lossy ({accepts})"
    return f"lossy ({accepts}" + (", text lost)" if told == "lost" else ")")


def _safety_tag(finding: Finding, lossless_only: bool = False) -> Styled:
    """`[lossless: equal, kept]`, glued: a line never breaks inside it."""
    if finding.fix_safety is None:
        return Styled(glued("[no fix]"), "dim")
    if refused(finding, lossless_only):
        # the class says why the run refused it; the fix itself is not made
        return Styled(glued(f"[not applied: {finding.fix_safety}, --lossless-only]"),
                      _REFUSED_STYLE)
    # the class, then the effect that defines it: what the server accepts, what the model
    # is told
    accepts, told = finding.fix_effect or ("", "")
    effect = f": {accepts}, {told}"
    return Styled(glued(f"[{finding.fix_safety}{effect}]"), SAFETY_STYLE[finding.fix_safety])


def located_text(scope: str, path: Path, message: str, *, extra: Styled | None = None) -> Styled:
    """`$.json.path  message`: the one way every report line names a location."""
    body = Styled()
    body.append("(tool)" if scope == "tool" else printable(jsonpath(path)), "bold")
    body.append("  ")
    body.append(printable(message))
    if extra is not None:
        body.append("  ")
        body.append_text(extra)
    return body


def _finding_rows(findings: Iterable[Finding], *, verbose: bool, lossless_only: bool = False
                  ) -> list[tuple[list[Styled], Styled]]:
    rows: list[tuple[list[Styled], Styled]] = []
    for f in findings:
        body = located_text(f.scope, f.path, f.message, extra=_safety_tag(f, lossless_only))
        if verbose and f.fix_title:
            body.append("\nfix: ", "dim")
            body.append(f.fix_title)
        cells = [Styled(f.severity, SEVERITY_STYLE[f.severity]), Styled(f.code, "bold")]
        rows.append((cells, body))
    return rows


def _tool_header(result: ToolResult, lossless_only: bool = False) -> Styled:
    """`name  STATUS  fix label  source`: the status beside the name, glued to its fix label,
    and the source (however long) after them, so a long path never parts them."""
    tool = result.tool
    header = Styled()
    header.append(printable(tool.name), "bold")
    header.append("  ")
    header.append(result.status, STATUS_STYLE[result.status])
    header.append(glued("  "))
    label = _fix_label(result, lossless_only)
    header.append(glued(label.plain), label.style)
    if tool.source:
        header.append("  ")
        header.append(printable(tool.source), "dim")
    if result.transformed_name != tool.name:
        header.append("  ")
        header.append(f"(renamed to {printable(result.transformed_name)})", "dim")
    return header


def _names_line(prefix: str, names: list[str], style: str) -> Styled:
    text = Styled(prefix, style)
    if names:
        text.append(": ")
        text.append(", ".join(printable(n) for n in names))
    return text


def counts(counter: Counter[str], order: Iterable[str], *, plurals: bool = False) -> str:
    """`2 errors, 1 warning` (with `plurals`) or `18 lossless, 6 lossy`, in `order`."""
    parts = []
    for key in order:
        n = counter.get(key, 0)
        if n:
            parts.append(plural(n, key) if plurals and key != "info" else f"{n} {key}")
    return ", ".join(parts)


def render_check(report: Report, console: Output, *, verbose: bool = False,
                 original: Report | None = None, baseline: str = "",
                 errors_inline: bool = True, rerun: Rerun | None = None) -> None:
    """The `check` report: findings per tool, then unreadable sources, then the totals.

    With a baseline, `report` holds the new findings only and `original` every finding:
    a tool's status and fixability are the original's (a baselined error still makes a tool
    incompatible), while only new findings are listed. Without `errors_inline` the unreadable
    sources are counted but not listed (the caller prints each on stderr). `rerun` is how
    the hints' commands read the same input (the CLI passes it; without it they name a
    placeholder to fill in).
    """
    results = report.results
    before = original.results if original is not None else results
    with_findings = [(r, b) for r, b in zip(results, before, strict=True) if r.findings]
    clean = [b for r, b in zip(results, before, strict=True) if not b.findings]
    baselined = [b for r, b in zip(results, before, strict=True)
                 if b.findings and not r.findings]

    lossless_only = report.lossless_only
    for result, full in with_findings:
        print_line(console, _tool_header(full, lossless_only))
        print_rows(console, _finding_rows(result.findings, verbose=verbose,
                                          lossless_only=lossless_only))
        console.print()

    # the tools not listed above: "3 more tools" after a listing, else "3 tools"
    more = " more " if with_findings else ""
    if clean:
        prefix = f"{plural(len(clean), more + 'tool')} compatible, no findings"
        names = [r.tool.name for r in clean] if verbose else []
        print_line(console, _names_line(prefix, names, "green"))
    if baselined:
        prefix = f"{plural(len(baselined), more + 'tool')} with findings in the baseline only"
        bad = sum(1 for r in baselined if r.status == "INCOMPATIBLE")
        if bad:
            prefix += f" ({bad} of them incompatible)" if len(baselined) > 1 else " (incompatible)"
        names = [r.tool.name for r in baselined] if verbose else []
        print_line(console, _names_line(prefix, names, "yellow"))

    if report.errors:
        if clean or baselined:
            console.print()
        count = plural(len(report.errors), "source")
        if errors_inline:
            print_line(console, Styled(f"{count} could not be read:", "bold red"))
            print_rows(
                console,
                [([Styled("error", SEVERITY_STYLE["error"])], Styled(printable(e.one_line())))
                 for e in report.errors],
            )
        else:
            print_line(console, Styled(f"{count} could not be read (each is on stderr)",
                                       "bold red"))

    if clean or baselined or report.errors:
        console.print()
    for server in report.servers:
        print_line(console, Styled(_server_line(server), "dim"))
    for line in _summary_lines(report, verbose=verbose, original=original, baseline=baseline,
                               rerun=rerun or _fallback_rerun(report.provider)):
        print_line(console, line)
    for lead, line in request_lines(report.requests):  # each request-level limit with its use
        print_hanging(console, Styled(lead), line)


def _server_line(server: ServerInfo) -> str:
    """`listed live: memory (stdio), MCP 2025-11-25 (initialize handshake), memory-server
    0.6.3`: which protocol each live server spoke."""
    how = "server/discover, stateless" if server.era == "stateless" else "initialize handshake"
    who = " ".join(p for p in (server.name, server.version) if p)
    return printable(f"listed live: {server.source} ({server.transport}), MCP "
                     f"{server.protocol_version} ({how})" + (f", {who}" if who else ""))


def _findings_part(findings: list[Finding], lossless_only: bool = False) -> str:
    """`49 findings (45 errors, 4 warnings): 46 fixable (18 lossless, 22 hinted, 6 lossy),
    3 without a fix`; with lossless-only, the fixes applied and those refused:
    `4 findings (3 errors, 1 warning): 1 fix applied (1 lossless), 3 refused by
    --lossless-only (2 hinted, 1 lossy)`."""
    severities: Counter[str] = Counter(f.severity for f in findings)
    fixes: Counter[str] = Counter(f.fix_safety for f in findings if f.fix_safety)
    text = (f"{plural(len(findings), 'finding')} "
            f"({counts(severities, SEVERITIES, plurals=True)})")
    fixable = sum(fixes.values())
    parts = []
    if lossless_only and fixable:
        no: Counter[str] = Counter(f.fix_safety for f in findings
                                   if f.fix_safety and refused(f, True))
        yes = fixes - no
        if yes:
            applied = plural(sum(yes.values()), "fix", "fixes")
            parts.append(f"{applied} applied ({counts(yes, SAFETIES)})")
        if no:
            parts.append(f"{sum(no.values())} refused by --lossless-only "
                         f"({counts(no, SAFETIES)})")
    elif fixable:
        parts.append(f"{fixable} fixable ({counts(fixes, SAFETIES)})")
    if fixable < len(findings):
        parts.append(f"{len(findings) - fixable} without a fix")
    return f"{text}: {', '.join(parts)}"


def _summary_lines(report: Report, *, verbose: bool, rerun: Rerun,
                   original: Report | None = None, baseline: str = "") -> list[Styled]:
    results = original.results if original is not None else report.results
    if not results:
        return [
            Styled("no tools found" + (" (see the errors above)" if report.errors else ""), "bold")
        ]

    incompatible = sum(1 for r in results if r.status == "INCOMPATIBLE")
    findings = [f for r in report.results for f in r.findings]

    line = Styled()
    line.append(f"{plural(len(results), 'tool')}: ", "bold")
    line.append(f"{len(results) - incompatible} compatible", "green")
    line.append(", ")
    line.append(f"{incompatible} incompatible", "bold red" if incompatible else "")
    line.append(f" with {report.provider}")
    if report.client:
        line.append(f" through {report.client}" + (f" (inferred from {report.client_from})"
                                                   if report.client_from else ""))
    if original is not None:
        known = sum(len(r.findings) for r in original.results) - len(findings)
        line.append("; ")
        line.append(_findings_part(findings, report.lossless_only)
                    .replace(" finding", " new finding", 1)
                    if findings else "no new findings")
        line.append(f"; {known} in baseline {baseline}" if baseline else f"; {known} baselined")
    elif findings:
        line.append(f"; {_findings_part(findings, report.lossless_only)}")
    if report.errors:
        line.append("; ")
        line.append(f"{plural(len(report.errors), 'source')} unreadable", "bold red")
    lines = [line]

    changes = [c for r in results for c in r.changes]
    if changes:
        # The findings the changes fix, counted as the line above counts them (by finding,
        # each with the safety of all its changes together): one change may fix several
        # findings (a definition's and its use's), one finding take several changes, so
        # the two counts differ, and the hint names both rather than a second safety tally.
        fixed = sum(1 for r in results for f in r.findings
                    if f.fix_safety and not refused(f, report.lossless_only))
        hint = Styled("run ")
        hint.append(f"`{_command('schema-compat', 'transform', *rerun.transform)}`", "bold")
        if rerun.needs:
            hint.append(f" ({rerun.needs})")
        if fixed:
            hint.append(f" to fix {plural(fixed, 'finding')} with "
                        f"{plural(len(changes), 'change')}")
        else:
            hint.append(f" to apply {plural(len(changes), 'change')}")
        # `diff` refuses a name two sources share: the example is a name one tool has (and
        # one a shell can be given as printed)
        names = Counter(r.tool.name for r in results)
        changed = [r for r in results
                   if r.changes and names[r.tool.name] == 1 and r.tool.name.isprintable()]
        if changed:
            # Show off a tool the transform rescues outright, where the diff is most telling.
            example = min(
                changed,
                key=lambda r: (r.status != "INCOMPATIBLE", r.fix_status == "unfixable"),
            )
            hint.append(", or ")
            hint.append(f"`{_command('schema-compat', 'diff', example.tool.name, *rerun.diff)}`",
                        "bold")
            hint.append(" to see one")
        lines.append(hint)
    unfixable = [r.tool.name for r in results if r.fix_status == "unfixable"]
    if unfixable:
        verb = "stays" if len(unfixable) == 1 else "stay"
        # Each is already flagged "not fixable" above; on a big server, a few names
        # say enough here.
        shown = unfixable if verbose or len(unfixable) <= _MAX_NAMES else unfixable[:_MAX_NAMES]
        if len(shown) < len(unfixable):
            shown = [*shown, f"and {len(unfixable) - len(shown)} more"]
        lines.append(
            _names_line(
                f"{plural(len(unfixable), 'tool')} {verb} incompatible after transform"
                + (_UNDER if report.lossless_only else ""),
                shown,
                UNFIXABLE_STYLE,
            )
        )
    return lines


def render_transform_summary(report: Report, console: Output) -> None:
    """The stderr note after `transform`: the JSON goes to stdout, so this is the only
    place a person sees what was given up. No lossy change passes without a line here."""
    results = report.results
    changed = [r for r in results if r.changes]
    changes = [c for r in results for c in r.changes]
    by_safety: Counter[str] = Counter(c.safety for c in changes)

    through = f" through {report.client}" if report.client else ""
    head = Styled(f"transform ({report.provider}{through}): ", "bold")
    head.append(f"{len(changed)} of {plural(len(results), 'tool')} changed")
    if changes:
        head.append(f", {plural(len(changes), 'change')} (")
        for k, safety in enumerate(s for s in SAFETIES if by_safety.get(s)):
            head.append(", " if k else "")
            head.append(f"{by_safety[safety]} {safety}", SAFETY_STYLE[safety])
        head.append(")")
    print_line(console, head)
    for lead, line in request_lines(report.requests):  # each request-level limit with its use
        print_hanging(console, Styled(lead), line)

    lossy = [(r, [c for c in r.changes if c.safety == "lossy"]) for r in results]
    lossy = [(r, changes) for r, changes in lossy if changes]
    if lossy:
        print_line(
            console, Styled("lossy changes (the arguments accepted narrower or changed, or "
                            "what the model is told lost):", SAFETY_STYLE["lossy"])
        )
        print_groups(console, [
            (Styled(printable(r.tool.name), "bold"),
             [([Styled(_lossy_label(c), SAFETY_STYLE["lossy"]), Styled(c.code, "bold")],
               located_text(c.scope, c.path, c.description)) for c in changes])
            for r, changes in lossy
        ])

    renamed = [r for r in results if r.transformed_name != r.tool.name]
    if renamed:
        names = [f"{printable(r.tool.name)} -> {printable(r.transformed_name)}"
                 for r in renamed]
        line = _names_line(f"renamed {plural(len(renamed), 'tool')}", names, "bold")
        if line.cell_len <= console.width:
            print_line(console, line)
        else:  # one rename a line, where they would run on for lines
            print_line(console, Styled(f"renamed {plural(len(renamed), 'tool')}:", "bold"))
            for name in names:
                print_hanging(console, Styled("  "), Styled(name))

    unfixable = [r for r in results if r.fix_status == "unfixable"]
    if unfixable:
        print_line(
            console,
            Styled(
                f"{plural(len(unfixable), 'tool')} still incompatible after transform"
                + (_UNDER if report.lossless_only else "") + ":",
                UNFIXABLE_STYLE,
            ),
        )
        print_groups(console, [
            (Styled(printable(r.tool.name), "bold"),
             [([Styled(f.code, "bold")], located_text(f.scope, f.path, f.message))
              for f in r.remaining if f.severity == "error"])
            for r in unfixable
        ])

    # Unreadable sources are not repeated here: the CLI prints each as its one-line error.
