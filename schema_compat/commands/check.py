"""`schema-compat check`: the command's work, from its options to an exit status."""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, NamedTuple

from .exits import EXIT_FINDINGS, EXIT_OK, exit_status, fail, print_errors
from .inputs import LiveOpts, discover_live, files_read, load_inputs, select_tools
from .providers import per_tool_ignores, provider_names, provider_plan, resolve_settings
from .running import busy, make_report

if TYPE_CHECKING:
    from ..engine import RuleSet
    from ..extract.files import LoadedSource
    from ..model import Report, SourceError
    from ..options import Option
    from ..report.text import Rerun
    from .requests import RequestSettings


class CheckOptions(NamedTuple):
    """Every option of `check` (options.py holds their flags, defaults and help)."""

    sources: list[str] | None
    provider: str
    tool: list[str] | None
    json_out: bool
    output_format: str  # one of options.FORMAT's choices
    select: list[str] | None
    ignore: list[str] | None
    fail_on: str  # one of options.FAIL_ON's choices
    lossless_only: bool
    verbose: bool
    show_config: bool
    baseline: str | None
    write_baseline: str | None
    live: LiveOpts  # --server, --url, ... (the same for every command)
    # what one request is (commands/requests.py); a check plans nothing, it shows each
    # request-level limit with its use
    request: str
    strict_first: list[str] | None
    name_prefix: str
    exclude_tool: list[str] | None
    client: str | None  # the MCP client whose limits join the provider's (profiles/clients.py)


def run_check(options: CheckOptions, given: Collection[str]) -> int:
    """The exit status of a `check`; `given` names the options the command line set (a
    settings file fills in the others)."""
    sources, live, json_out, output_format = (options.sources, options.live, options.json_out,
                                              options.output_format)
    baseline, write_baseline = options.baseline, options.write_baseline
    from .requests import request_settings

    settings = resolve_settings(given, **options._asdict())
    if options.show_config:
        from ..settings import describe

        sys.stdout.write(describe(settings))
        return EXIT_OK
    if baseline and write_baseline:
        fail("--baseline and --write-baseline do not go together",
             "write the baseline first, then check against it")
    provider, select, ignore = settings.providers, settings["select"], settings["ignore"]
    lossless_only, fail_level = settings["lossless-only"], settings["fail-on"]
    per_tool = per_tool_ignores(settings["per-tool-ignores"])
    if json_out and output_format not in ("text", "json"):
        fail(f"--json and --format {output_format} ask for two formats",
             "--json is short for --format json; give one of them")
    if output_format == "json":
        json_out = True
    providers = provider_names(provider)
    client, client_from = settings["client"], ""  # --client, else the settings file's
    plans = ([provider_plan(p, select, ignore, lossless_only, client)
              for p in providers] if len(providers) > 1
             else [provider_plan(provider, select, ignore, lossless_only, client)])
    known = _read_baseline(baseline) if baseline else None
    if not sources and not live.given() and settings.sources:  # what the settings name
        sources = settings.sources
        print(f"schema-compat: no SOURCE given; checking {', '.join(sources)} (sources in "
              f"{settings.file})", file=sys.stderr)
    if not sources and not live.given():  # the client configs here, found once
        live = discover_live(live)
    loaded, errors = load_inputs(sources, live)
    client = client.lower() if client else None
    if client is None:  # the client whose config was read, when they all say one
        client, client_from = inferred_client(loaded)
        if client:
            print(f"schema-compat: client {client} (inferred from {client_from}); --client "
                  "names another", file=sys.stderr)
    if client_from:  # the plans made before knew no client
        plans = [provider_plan(p.profile.name, select, ignore, lossless_only, client)
                 for p in plans]
    requests = request_settings(settings, client)
    if write_baseline:
        from .output_file import refuse_input

        refuse_input(write_baseline, "--write-baseline", files_read(loaded, live),
                     "choose another file")
    tools, groups = _requests(loaded, select_tools(loaded, requests.tools), requests, live)
    reports = [_checked(tools, groups, pl, per_tool, json_out, requests, errors, loaded,
                        client or "", client_from) for pl in plans]
    if write_baseline:
        _write_baseline(write_baseline, reports, errors)
    originals = None
    if known is not None:
        originals, reports = reports, _apply_baseline(reports, known, baseline or "")
    # On a terminal the text report lists unreadable sources itself; anywhere else each is
    # one line on stderr (once: the text report then only counts them).
    on_terminal = sys.stdout.isatty()
    listed = _print_check(reports, output_format, json_out, options.verbose, originals,
                          baseline or "", on_terminal,
                          lambda: _rerun(options._replace(sources=sources, live=live,
                                                         client=client),
                                         {*given, "client"} if client else given))
    if not (listed and on_terminal):
        print_errors(errors)
    status = max(exit_status(r, fail_level) for r in reports)
    # a request over a limit, or with a name the provider refuses or two tools share, is
    # refused whole, whatever its tools' own findings
    refused = any(lim.over for r in reports for q in r.requests for lim in q.limits) or any(
        q.decisions for r in reports for q in r.requests)
    return EXIT_FINDINGS if refused and status == EXIT_OK else status


def inferred_client(loaded: list[LoadedSource]) -> tuple[str | None, str]:
    """(the client, the config it is inferred from) when every client config read belongs
    to one client of profiles/clients.py; (None, "") otherwise."""
    from ..profiles.clients import client_of_config

    configs = list(dict.fromkeys(s.config for s in loaded if s.config))
    found = {client_of_config(c) for c in configs}
    if len(found) != 1 or None in found:
        return None, ""
    return found.pop(), ", ".join(configs)


def _checked(tools: list[Any], groups: list[list[Any]], plan: RuleSet,
             per_tool: dict[str, list[str]] | None, json_out: bool,
             requests: RequestSettings, errors: list[SourceError],
             loaded: list[LoadedSource], client: str, client_from: str) -> Report:
    """One profile's report: each tool checked as it is sent (strict or not, as the
    planner decides and the listing says: requests/check.py), and each request's limits.
    Only the JSON report shows transformed schemas and each change: not keeping them
    bounds the memory."""
    from ..requests.check import check_as_sent, request_infos

    with busy(len(tools)):
        checked = check_as_sent(tools, groups, plan, per_tool, requests.strict_first,
                                keep_schemas=json_out, keep_changes=json_out)
    return make_report(plan.profile.name, checked.results, errors, loaded,
                       requests=request_infos(groups, plan, requests.name_prefix,
                                              checked.sent),
                       lossless_only=plan.lossless_only, client=client,
                       client_from=client_from)


def _requests(loaded: list[LoadedSource], tools: list[Any], requests: RequestSettings,
              live: LiveOpts) -> tuple[list[Any], list[list[Any]]]:
    """The tools left after --exclude-tool, and the tools of each request."""
    from .requests import exclude_tools, request_groups

    tools = exclude_tools(tools, requests.exclude)
    return tools, request_groups(loaded, tools, requests.mode, live)


def _print_check(reports: list[Report], output_format: str, json_out: bool, verbose: bool,
                 originals: list[Report] | None, baseline: str, on_terminal: bool,
                 rerun: Callable[[], Rerun]) -> bool:
    """Print the report; True when it was the text report. `originals` are the reports
    before the baseline took its findings out; `rerun`, how the text report's hints read
    the same input."""
    if output_format in ("sarif", "github", "markdown"):
        from importlib import import_module

        module = import_module(f"..report.{output_format}", __package__)
        sys.stdout.write(getattr(module, f"render_{output_format}")(reports))
    elif json_out:  # several providers': each one's findings, and the matrix
        from ..report.json import write_json

        write_json(reports, sys.stdout)
    elif len(reports) > 1:
        from ..report.matrix import render_matrix
        from ..report.text import make_console

        render_matrix({r.provider: list(r.results) for r in reports}, make_console(),
                      lossless_only=reports[0].lossless_only)
    else:
        from ..report.text import render_check, text_output

        render_check(reports[0], text_output(), verbose=verbose,
                     original=originals[0] if originals else None, baseline=baseline,
                     errors_inline=on_terminal, rerun=rerun())
        return True
    return False


# The check's options that choose the same tools and fixes for the commands its hints name
# (--json is not one: it changes what `transform` prints).
_CARRIED = frozenset({"provider", "tool", "select", "ignore", "lossless_only", "request",
                      "strict_first", "name_prefix", "exclude_tool", "client", "server", "env",
                      "cwd", "url", "header", "sse", "config", "name", "timeout"})


def _rerun(options: CheckOptions, given: Collection[str]) -> Rerun:
    """The arguments with which `transform` and `diff` read the same input as this check,
    written from its parsed options: its sources, and each option of _CARRIED that the
    command line set (`given`) and the other command takes; the client configs it found by
    itself are its --config."""
    from ..options import options as options_of_command
    from ..report.text import Rerun

    values = {**options._asdict(), **options.live._asdict()}
    sources = list(options.sources or [])
    carried = _CARRIED & {*given, "config"}  # a config found here is read as if given

    def args(command: str) -> list[str]:
        return sources + [word for option in options_of_command(command)
                          if option.param in carried
                          for word in _written(option, values[option.param])]

    needs = ["with the same input on stdin"] if "-" in sources else []
    hidden = [f"--{param}" for param in _SECRET_AFTER if values[param]]
    if hidden:
        needs.append(f"with {_HIDDEN} replaced by the value of each {' and '.join(hidden)} "
                     "given")
    return Rerun(args("transform"), args("diff"), "; ".join(needs))


def _written(option: Option, value: Any) -> list[str]:
    """An option and its parsed value as a command line gives them (-p for the provider,
    else the long flag; a secret's value hidden)."""
    flag = "-p" if option.param == "provider" else option.flags[0]
    if option.param in _SECRET_AFTER:
        value = [_hidden(v, _SECRET_AFTER[option.param]) for v in value or []]
    if option.kind == "flag":
        return [flag] if value else []
    if option.kind == "multi":
        return [word for v in value or [] for word in (flag, str(v))]
    return [] if value is None else [flag, str(value)]


# What the hints never print: a header's value (a bearer token) and an --env variable's (an
# API key), which would land in a CI log. Each option's separator, after which the value is
# shown as _HIDDEN for the user to fill in; the name before it is kept.
_SECRET_AFTER = {"header": ":", "env": "="}
_HIDDEN = "***"


def _hidden(text: str, separator: str) -> str:
    name, found, _ = text.partition(separator)
    if not found:
        return _HIDDEN
    return f"{name.strip()}{separator}{' ' if separator == ':' else ''}{_HIDDEN}"


def _read_baseline(path: str) -> Any:
    from ..baseline import BaselineError, load_baseline

    try:
        return load_baseline(path)
    except BaselineError as exc:
        fail(str(exc))


def _apply_baseline(reports: list[Report], known: Any, path: str) -> list[Report]:
    from ..baseline import apply_baseline

    out, removed = [], 0
    for r in reports:
        filtered, n = apply_baseline(r, known)
        out.append(filtered)
        removed += n
    print(f"schema-compat: {removed} finding{'s' if removed != 1 else ''} in baseline {path} "
          "not shown; only new findings are reported", file=sys.stderr)
    return out


def _write_baseline(path: str, reports: list[Report], errors: list[SourceError]) -> None:
    from ..baseline import dump_baseline
    from .output_file import write_file

    if errors:  # a baseline missing an unreadable source's findings would hide them later
        print_errors(errors)
        fail(f"--write-baseline {path}: not written, since a source could not be read")
    write_file(path, dump_baseline(reports))
    count = sum(len(r.findings) for rep in reports for r in rep.results)
    print(f"schema-compat: recorded {count} finding{'s' if count != 1 else ''} in {path}",
          file=sys.stderr)
    raise SystemExit(EXIT_OK)

