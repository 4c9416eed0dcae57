"""`schema-compat transform`: the command's work, from its options to an exit status."""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..requests.request import tool_plans
from .exits import EXIT_USAGE, exit_status, fail, print_errors
from .inputs import LiveOpts, files_read, load_inputs, select_tools
from .output_file import refuse_input, write_file
from .providers import one_provider_plan, resolve_settings
from .running import busy, make_report

if TYPE_CHECKING:
    from ..engine import RuleSet
    from ..extract.files import LoadedSource
    from ..model import Report, RequestInfo, SourceError, ToolResult
    from .requests import RequestSettings


class TransformOptions(NamedTuple):
    """Every option of `transform` (options.py holds their flags, defaults and help)."""

    sources: list[str] | None
    provider: str
    output: str | None
    tool: list[str] | None
    json_out: bool
    select: list[str] | None
    ignore: list[str] | None
    lossless_only: bool
    force: bool
    quiet: bool
    live: LiveOpts  # --server, --url, ... (the same for every command)
    # what one request is and how it is planned (commands/requests.py)
    request: str
    strict_first: list[str] | None
    name_prefix: str
    exclude_tool: list[str] | None
    client: str | None  # the MCP client whose limits join the provider's
    to: str | None  # provider-ready output: one request's `tools` (requests/bodies.py)


def run_transform(options: TransformOptions, given: Collection[str]) -> int:
    """The exit status of a `transform`; `given` names the options the command line set."""
    sources, output, json_out, live = (options.sources, options.output, options.json_out,
                                       options.live)
    from .requests import request_settings

    if options.to and "provider" not in given:  # the target's own profile
        from ..requests.bodies import TARGET_PROFILE

        options = options._replace(provider=TARGET_PROFILE.get(options.to, options.provider))
        given = {*given, "provider"}
    settings = resolve_settings(given, **options._asdict())
    plan, per_tool = one_provider_plan(settings)
    requests = request_settings(settings, options.client)
    loaded, errors = load_inputs(sources, live)
    if errors:  # write nothing rather than a partial result over an existing file
        print_errors(errors)
        return EXIT_USAGE
    if output and not options.force:
        refuse_input(output, "-o", files_read(loaded, live),
                     "choose another file, or add --force")
    tools = select_tools(loaded, requests.tools)
    planned = _planned(loaded, tools, plan, per_tool, requests, live,
                       options.to)  # the request planner's way
    if planned is not None:
        results, infos, text = planned
        report = make_report(plan.profile.name, results, errors, requests=infos,
                             lossless_only=plan.lossless_only, client=plan.profile.client)
        clashes = _name_clashes(loaded, results) if not options.to and (
            output or not json_out) else ""
        return _finish(report, text, output, json_out, options.quiet, errors, clashes)
    # On a terminal, the document itself shows progress; a spinner would garble it.
    with busy(len(tools), bool(output or json_out or not sys.stdout.isatty())):
        results = _transform_streamed(loaded, tools, plan, per_tool, output, json_out)
    clashes = _name_clashes(loaded, results) if output or not json_out else ""
    report = make_report(plan.profile.name, results, errors,
                         lossless_only=plan.lossless_only)
    return _finish(report, None, output, json_out, options.quiet, errors, clashes)


def _name_clashes(loaded: list[LoadedSource], results: list[ToolResult]) -> str:
    """Several sources are written as one MCP tools/list result: where tools of them are
    written under one name, the warning for stderr, naming each name and the sources that
    hold it ("" when there is none).
    A client lists one tool per name, so all but one would be out of reach, and which one a
    call reaches is the client's guess. (One source is written back in its own shape, names
    as they were: a clash there is its own.) `--request all` plans the sources as one request,
    with each name made unique."""
    if len(loaded) < 2:
        return ""
    holders: dict[str, list[str]] = {}
    for result in results:
        holders.setdefault(result.transformed_name, []).append(result.tool.source)
    clashes = {name: list(dict.fromkeys(sources)) for name, sources in holders.items()
               if len(sources) > 1}
    if not clashes:
        return ""
    named = "; ".join(f"{name!r} ({', '.join(sources)})" for name, sources in clashes.items())
    many = "names are" if len(clashes) > 1 else "name is"
    return (f"schema-compat: warning: {len(clashes)} {many} written for more than one tool: "
            f"{named} (a client reaches one tool per name; add --request all to make each "
            "name unique, or leave tools out with --exclude-tool)")


def _finish(report: Report, text: Iterable[str] | None, output: str | None,
            json_out: bool, quiet: bool, errors: list[SourceError], warning: str = "") -> int:
    """Write what is left to write (the report, the document when it was not written while
    transforming), then the summary on stderr and after it `warning` (--quiet or not); the
    exit status."""
    if json_out:
        from ..report.json import write_json

        write_json(report, sys.stdout)
    if text is not None and output:
        write_file(output, text)
    elif text is not None and not json_out:
        sys.stdout.writelines(text)
    if not quiet and not json_out:
        from ..report.text import render_transform_summary, text_output

        render_transform_summary(report, text_output(stderr=True))
    if warning:
        print(warning, file=sys.stderr)
    print_errors(errors)
    return exit_status(report, "error", "remaining")


def _planned(loaded: list[LoadedSource], tools: list[Any], plan: RuleSet,
             per_tool: dict[str, list[str]] | None, requests: RequestSettings,
             live: LiveOpts, to: str | None,
             ) -> tuple[list[ToolResult], tuple[RequestInfo, ...], Iterable[str]] | None:
    """The results, requests and the text to write (with `to`, the provider-ready tools)
    when they need the request planner (a strict budget, several sources in one request, a
    count past the limit, a planner option, `--to`), else None. Results are in the order of
    `tools`."""
    from .requests import exclude_tools, needs_planner, plan_requests, request_groups

    tools = exclude_tools(tools, requests.exclude)
    groups = request_groups(loaded, tools, requests.mode, live)
    if not needs_planner(groups, plan, requests, to):
        return None
    if to:
        from ..requests.bodies import TARGETS

        if plan.profile.name not in TARGETS[to]:
            fail(f"--to {to} takes the schemas of {', '.join(TARGETS[to])}, not "
                 f"{plan.profile.name}", f"pass --provider {TARGETS[to][0]}")
        if len(groups) > 1:
            fail(f"--to {to} writes the tools of one request; these sources are "
                 f"{len(groups)} requests", "add --request all")
    results, plans = plan_requests(groups, plan, requests, per_tool)
    order = {(t.source, t.index): i for i, t in enumerate(tools)}
    results.sort(key=lambda r: order[(r.tool.source, r.tool.index)])
    text: Iterable[str]
    if to:
        from ..jsonio import dump_json
        from ..requests.bodies import provider_tools

        text = (dump_json(provider_tools(plans[0], to) if plans else []),)
    else:
        from ..output.document import results_pieces

        text = results_pieces(loaded, results, plan.profile)
    return results, tuple(p.info() for p in plans), text


def _transform_streamed(loaded: list[LoadedSource], tools: list[Any], plan: RuleSet,
                        per_tool: dict[str, list[str]] | None, output: str | None,
                        json_out: bool) -> list[ToolResult]:
    """Transform the tools while the document is written (to `output`, else to stdout
    unless --json), one tool at a time; returns what the summary and --json read."""
    from ..engine import iter_ruleset
    from ..output.document import document_pieces
    from ..output.results import Taken

    plan_for = tool_plans(plan, per_tool)
    taken = Taken(iter_ruleset(tools, plan, plan_for), keep_schemas=json_out)
    if output or not json_out:
        pieces = document_pieces(loaded, tools, taken, plan.profile)
        if output:
            write_file(output, pieces)
        else:
            for piece in pieces:
                sys.stdout.write(piece)
    return taken.rest()
