"""The `schema-compat` command line: typer declares every command, option and help text.

Only typer is imported at start-up: the engine, rich reports, deepdiff and the MCP SDK are
imported inside the commands that need them, so `--help` and `--version` stay fast. The
steps the commands share live in commands/common.py, without typer, since the usual
`check FILE`, `transform FILE` and `diff TOOL FILE` run without typer (see
commands/argv.py).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from . import __version__
from .commands.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    LiveOpts,
    fail,
    load_inputs,
    print_errors,
    provider_plan,
    run_guarded,
    run_tools,
    split_pair,
)

if TYPE_CHECKING:
    from typer.models import CommandInfo



app = typer.Typer(
    name="schema-compat",
    help=(
        "Check MCP tool schemas against an LLM provider, transform them into a form it "
        "accepts, and show what changed.\n\n"
        "A SOURCE is a JSON file, a directory of them, or - for stdin: an MCP tools/list "
        "result (bare or in a JSON-RPC response), a list of tools, one tool, a bare JSON "
        "Schema, or an OpenAI / Anthropic / Gemini tool list.\n\n"
        "Exit codes: 0 nothing at or above --fail-on; 1 findings remain; 2 bad usage or "
        "unreadable input."
    ),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class FailOn(StrEnum):
    """--fail-on's choices (commands/argv.py reads the same ones)."""

    error = "error"
    warning = "warning"
    info = "info"


class Format(StrEnum):
    """--format's choices (commands/argv.py reads the same ones)."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"
    markdown = "markdown"


class RequestMode(StrEnum):
    """--request's choices (commands/argv.py reads the same ones)."""

    auto = "auto"
    all = "all"
    per_source = "per-source"


class NamePrefix(StrEnum):
    """--name-prefix's choices (commands/argv.py reads the same ones)."""

    none = "none"
    server = "server"
    mcp = "mcp"


class Target(StrEnum):
    """--to's choices (commands/argv.py reads the same ones; planner/output.py writes them)."""

    openai_chat = "openai-chat"
    openai_responses = "openai-responses"
    anthropic = "anthropic"
    gemini = "gemini"


_REQUEST = "One request (the tools a client sends at once)"
RequestOpt = Annotated[RequestMode, typer.Option(
    "--request", help="What one request is: auto (all servers of a client config; every "
                      "other source alone), all (everything given), per-source.",
    rich_help_panel=_REQUEST)]
StrictFirstOpt = Annotated[
    list[str] | None,
    typer.Option("--strict-first", help="Strict tools within a per-request budget "
                 "(anthropic-strict) are chosen among these first (glob on a tool's name or "
                 "server/tool; repeatable).", show_default=False, rich_help_panel=_REQUEST),
]
NamePrefixOpt = Annotated[NamePrefix, typer.Option(
    "--name-prefix", help="How the client names tools: none, server (server_tool) or mcp "
                          "(mcp__server__tool, Claude Code); names are made valid and unique "
                          "after it.", rich_help_panel=_REQUEST)]
ExcludeToolOpt = Annotated[
    list[str] | None,
    typer.Option("--exclude-tool", help="Leave out tools whose name or server/tool matches "
                 "(glob; repeatable).", show_default=False, rich_help_panel=_REQUEST),
]

SourcesArg = Annotated[
    list[str] | None,
    typer.Argument(help="JSON files, directories, or - for stdin.", show_default=False),
]


def _complete_provider(incomplete: str) -> list[str]:
    """Shell completion for --provider: the profile names (and `all`)."""
    from .profiles import PROFILES

    return [p for p in (*PROFILES, "all") if p.startswith(incomplete)]


ProviderOpt = Annotated[
    str, typer.Option("--provider", "-p", help="Target profile (see `schema-compat profiles`); "
                      "`check` also takes a comma-separated list or `all`.",
                      autocompletion=_complete_provider)
]
ToolOpt = Annotated[
    list[str] | None,
    typer.Option("--tool", "-t", help="Only tools whose name matches (glob; repeatable).",
                 show_default=False),
]
SelectOpt = Annotated[
    list[str] | None,
    typer.Option("--select", help="Only these rules: codes, prefixes or names, comma-separated "
                                  "(e.g. REF,UNI001).", show_default=False),
]
IgnoreOpt = Annotated[
    list[str] | None,
    typer.Option("--ignore", help="Skip these rules (same forms as --select).",
                 show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the JSON report for agents.")]
LosslessOpt = Annotated[
    bool,
    typer.Option("--lossless-only", help="Apply only lossless fixes (the arguments accepted "
                 "stay exactly the same); the other findings stay standing."),
]
_LIVE = "Live servers"
ServerOpt = Annotated[
    list[str] | None,
    typer.Option("--server", help='Launch a stdio MCP server: "CMD ARGS" (repeatable).',
                 show_default=False, rich_help_panel=_LIVE),
]
EnvOpt = Annotated[
    list[str] | None,
    typer.Option("--env", help="K=V for --server (repeatable).", show_default=False,
                 rich_help_panel=_LIVE),
]
CwdOpt = Annotated[
    str | None,
    typer.Option("--cwd", help="Working directory for --server.", show_default=False,
                 rich_help_panel=_LIVE),
]
UrlOpt = Annotated[
    list[str] | None,
    typer.Option("--url", help="Connect over streamable HTTP (repeatable).", show_default=False,
                 rich_help_panel=_LIVE),
]
HeaderOpt = Annotated[
    list[str] | None,
    typer.Option("--header", help="'K: V' for --url and --sse (repeatable).",
                 show_default=False, rich_help_panel=_LIVE),
]
SseOpt = Annotated[
    list[str] | None,
    typer.Option("--sse", help="Connect over legacy SSE (repeatable).", show_default=False,
                 rich_help_panel=_LIVE),
]
ConfigOpt = Annotated[
    list[str] | None,
    typer.Option("--config", help="An MCP client config (.mcp.json, .vscode/mcp.json, "
                                  ".cursor/mcp.json, .gemini/settings.json, "
                                  "claude_desktop_config.json): the tools of each server in it.",
                 show_default=False, rich_help_panel=_LIVE),
]
NameOpt = Annotated[
    list[str] | None,
    typer.Option("--name", help="Only these servers of --config (glob; repeatable).",
                 show_default=False, rich_help_panel=_LIVE),
]
TimeoutOpt = Annotated[
    float,
    typer.Option("--timeout", help="Seconds to wait for each live server.", min=0.1,
                 rich_help_panel=_LIVE),
]


def _version(value: bool) -> None:
    if value:
        print(f"schema-compat {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                           help="Print the version and exit.")
    ] = False,
) -> None:
    """Check, transform and diff MCP tool schemas for LLM providers."""


@app.command()
def check(
    ctx: typer.Context,
    sources: SourcesArg = None,
    provider: ProviderOpt = "gemini",
    tool: ToolOpt = None,
    json_out: JsonOpt = False,
    output_format: Annotated[Format, typer.Option(
        "--format", "-f", help="Report format: text, json, sarif (GitHub code scanning), "
                               "github (workflow annotations), markdown (a PR comment).")
    ] = Format.text,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    fail_on: Annotated[FailOn, typer.Option("--fail-on",
                                            help="Lowest severity that makes the exit code 1.")
                       ] = FailOn.error,
    lossless_only: LosslessOpt = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v",
                                          help="List compatible tools and fix titles too.")
                       ] = False,
    show_config: Annotated[bool, typer.Option(
        "--show-config", help="Print the settings in force (from flags, "
                              ".schema-compat.toml or pyproject.toml) and where each came "
                              "from, then exit.")] = False,
    baseline: Annotated[str | None, typer.Option(
        "--baseline", help="Report only findings not recorded in this baseline file; exit 0 "
                           "when there are none.", show_default=False)] = None,
    write_baseline: Annotated[str | None, typer.Option(
        "--write-baseline", help="Record every current finding in this file (for "
                                 "--baseline later) and exit 0.", show_default=False)
    ] = None,
    request: RequestOpt = RequestMode.auto,
    strict_first: StrictFirstOpt = None,
    name_prefix: NamePrefixOpt = NamePrefix.none,
    exclude_tool: ExcludeToolOpt = None,
    server: ServerOpt = None,
    env: EnvOpt = None,
    cwd: CwdOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    sse: SseOpt = None,
    config: ConfigOpt = None,
    name: NameOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Flag what the provider would reject or silently degrade, with a JSONPath for each.

    \b
    Examples:
      schema-compat check tools.json
      schema-compat check --provider gemini-json --fail-on warning snapshots/
      schema-compat check --json - < tools.json | jq .summary
      schema-compat check --format sarif tools.json > schema-compat.sarif
      schema-compat check --server "python server.py" --env API_KEY=...
      schema-compat check --config .mcp.json --name github
      schema-compat check --write-baseline .schema-compat-baseline.json tools.json

    With no SOURCE, the MCP client configs in the current directory are checked.
    `--provider all` (or a comma-separated list) prints a matrix: a row per tool, a column
    per provider. Settings may also come from `.schema-compat.toml` or
    `[tool.schema-compat]` in pyproject.toml (the nearest one up from here); flags win.
    """
    from .commands.check import CheckOptions, run_check

    live = LiveOpts(server, env, cwd, url, header, sse, config, name, timeout)
    options = CheckOptions(sources, provider, tool, json_out, output_format.value, select,
                           ignore, fail_on.value, lossless_only, verbose, show_config, baseline,
                           write_baseline, live, request.value, strict_first,
                           name_prefix.value, exclude_tool)
    raise typer.Exit(run_check(options, _given(ctx)))


def _given(ctx: typer.Context) -> set[str]:
    """The parameters the command line set, as opposed to those left at their defaults."""
    return {param for param in ctx.params
            if (source := ctx.get_parameter_source(param)) is not None
            and source.name not in ("DEFAULT", "DEFAULT_MAP")}


@app.command()
def transform(
    ctx: typer.Context,
    sources: SourcesArg = None,
    provider: ProviderOpt = "gemini",
    output: Annotated[str | None, typer.Option("--output", "-o",
                                               help="Write the transformed tools here "
                                                    "(default: stdout).")] = None,
    tool: ToolOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the JSON report (with each "
                                                          "change) instead of the tools.")
                        ] = False,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    lossless_only: LosslessOpt = False,
    force: Annotated[bool, typer.Option("--force", help="Allow -o to overwrite an input "
                                                        "file.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary on stderr.")
                     ] = False,
    request: RequestOpt = RequestMode.auto,
    strict_first: StrictFirstOpt = None,
    name_prefix: NamePrefixOpt = NamePrefix.none,
    exclude_tool: ExcludeToolOpt = None,
    to: Annotated[Target | None, typer.Option(
        "--to", help="Write exactly the `tools` value of this provider's request body, with "
                     "the planned names and strict flags (one request; the provider's "
                     "profile unless --provider names one).", show_default=False,
        rich_help_panel=_REQUEST)] = None,
    server: ServerOpt = None,
    env: EnvOpt = None,
    cwd: CwdOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    sse: SseOpt = None,
    config: ConfigOpt = None,
    name: NameOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Write the tools in a form the provider accepts, in the same shape as the input.

    One source keeps its shape (an MCP listing stays one, a Gemini tool list stays one) and
    every field of each tool; with --tool, only the matching tools are transformed and the
    others are written as they were. Several sources are written as one MCP tools/list
    result. Every change, with its rule and safety, is summarised on stderr; lossy ones are
    listed one by one. If a source cannot be read, nothing is written.

    \b
    Examples:
      schema-compat transform tools.json -o tools.gemini.json
      schema-compat transform --lossless-only --json tools.json
      schema-compat transform --server "python server.py" -o tools.json
    """
    from .commands.transform import TransformOptions, run_transform

    live = LiveOpts(server, env, cwd, url, header, sse, config, name, timeout)
    options = TransformOptions(sources, provider, output, tool, json_out, select, ignore,
                               lossless_only, force, quiet, live, request.value,
                               strict_first, name_prefix.value, exclude_tool,
                               to.value if to else None)
    raise typer.Exit(run_transform(options, _given(ctx)))


@app.command()
def diff(
    ctx: typer.Context,
    tool_name: Annotated[str, typer.Argument(metavar="TOOL", help="The tool to show.")],
    sources: SourcesArg = None,
    provider: ProviderOpt = "gemini",
    json_out: JsonOpt = False,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    lossless_only: LosslessOpt = False,
    server: ServerOpt = None,
    env: EnvOpt = None,
    cwd: CwdOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    sse: SseOpt = None,
    config: ConfigOpt = None,
    name: NameOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Show one tool side by side: original | transformed, each change marked with its
    rule code and safety.

    \b
    Examples:
      schema-compat diff read_files tools.json
      NO_COLOR=1 schema-compat diff read_files tools.json | less
      schema-compat diff read_files --server "python examples/fs_server.py"
    """
    from .commands.diff import DiffOptions, run_diff

    live = LiveOpts(server, env, cwd, url, header, sse, config, name, timeout)
    options = DiffOptions(tool_name, sources, provider, json_out, select, ignore,
                          lossless_only, live)
    raise typer.Exit(run_diff(options, _given(ctx)))


@app.command()
def repair(
    sources: SourcesArg = None,
    tool: Annotated[str, typer.Option("--tool", "-t", help="The tool whose arguments these "
                                      "are (its original name, or the name --provider gives "
                                      "it).", show_default=False)] = "",
    args: Annotated[str, typer.Option("--args", "-a", help="The arguments: JSON text, @FILE, "
                                      "or - for stdin.", show_default=False)] = "",
    provider: Annotated[str | None, typer.Option(
        "--provider", "-p", help="Also accept the tool's name as this profile renames it.",
        show_default=False)] = None,
    json_out: Annotated[bool, typer.Option("--json", help='Print {"arguments", "coercions", '
                                           '"valid", "errors"}.')] = False,
    server: ServerOpt = None,
    env: EnvOpt = None,
    cwd: CwdOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    sse: SseOpt = None,
    config: ConfigOpt = None,
    name: NameOpt = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Repair a tool call's arguments against the tool's original schema.

    Models write arrays and objects as JSON text, booleans as "true", numbers as "3", and
    send values of the transformed schema (a stringified enum member, null for an optional
    property). Each is turned back into what the server accepts, where the value is invalid
    and nothing else reads it; each coercion is listed with its JSONPath.

    The repaired arguments go to stdout as JSON; the coercions and anything the schema still
    rejects go to stderr (--json puts everything in one object on stdout).
    Exit 0 when the repaired arguments are valid, 1 when the schema still rejects them.

    \b
    Examples:
      schema-compat repair --tool get_forecast tools.json --args '{"days": "3"}'
      schema-compat repair -t read_files --server "python server.py" --args @call.json --json
    """
    from .jsonio import JsonInputError, dump_json, load_json_bytes, load_json_file
    from .repair_args import repair as repair_arguments

    if not tool:
        fail("--tool NAME is required", "name the tool whose arguments these are")
    if not args:
        fail("--args is required", "give JSON text, @FILE, or - for stdin")
    if args == "-" and "-" in (sources or []):
        fail("stdin cannot hold both the SOURCE and --args", "put one of them in a file")
    try:
        if args == "-" or args.startswith("@"):
            arguments = load_json_file("-" if args == "-" else args[1:])
        else:
            arguments = load_json_bytes(args.encode("utf-8", "surrogatepass"), "--args")
    except JsonInputError as exc:
        fail(exc.error.one_line().replace("--args: ", "--args ", 1))
    live = LiveOpts(server, env, cwd, url, header, sse, config, name, timeout)
    loaded, errors = load_inputs(sources, live)
    if errors:
        print_errors(errors)
        raise typer.Exit(EXIT_USAGE)
    tools = [t for s in loaded for t in s.tools]
    chosen = [t for t in tools if t.name == tool]
    if not chosen and provider:
        plan = provider_plan(provider, None, None, False)
        chosen = [r.tool for r in run_tools(tools, plan) if r.transformed_name == tool]
    if not chosen:
        names = ", ".join(t.name for t in tools[:10]) + (", …" if len(tools) > 10 else "")
        fail(f"no tool named {tool!r}", f"tools here: {names}" if names else
             "no tools were read")
    result = repair_arguments(chosen[0].schema, arguments)
    if json_out:
        sys.stdout.write(dump_json(result.to_dict()))
    else:
        sys.stdout.write(dump_json(result.arguments))
        for c in result.coercions:
            print(f"repaired {c.describe()}", file=sys.stderr)
        for err in result.errors:
            print(f"invalid {err}", file=sys.stderr)
    raise typer.Exit(EXIT_OK if result.valid else EXIT_FINDINGS)


@app.command(context_settings={"allow_interspersed_args": False})
def proxy(
    command: Annotated[list[str] | None, typer.Argument(
        metavar="-- CMD [ARGS]...", help="The upstream stdio server's command, after --.",
        show_default=False)] = None,
    provider: Annotated[str, typer.Option("--provider", "-p", help="The profile whose "
                                          "dialect the client speaks.")] = "gemini",
    url: Annotated[str | None, typer.Option("--url", help="A streamable HTTP upstream "
                                            "instead of a command.", show_default=False)
                   ] = None,
    sse: Annotated[str | None, typer.Option("--sse", help="A legacy SSE upstream (its "
                                            "event stream's URL, usually .../sse) instead "
                                            "of a command.", show_default=False)] = None,
    header: Annotated[list[str] | None, typer.Option(
        "--header", help="'K: V' sent to the --url or --sse upstream (repeatable).",
        show_default=False)] = None,
    env: Annotated[list[str] | None, typer.Option(
        "--env", help="K=V for the upstream command (repeatable).", show_default=False)
                   ] = None,
    cwd: Annotated[str | None, typer.Option(
        "--cwd", help="Working directory for the upstream command.", show_default=False)
                   ] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=0.1, help="Seconds the upstream has to answer a request (a "
        "progress notification restarts the clock); then the client gets an error.")
                       ] = 60.0,
    log: Annotated[str | None, typer.Option("--log", help="Append the log here instead of "
                                            "stderr.", show_default=False)] = None,
    lossless_only: LosslessOpt = False,
) -> None:
    """Serve an MCP server's tools over stdio with schemas the provider accepts, repairing
    each call's arguments against the server's own schema.

    tools/list answers carry the transformed schemas (and names); each tools/call is renamed
    back and its arguments repaired (JSON text parsed, "true" and "3" read as values, the
    transform's changes undone) before it is forwarded. Everything else passes through
    unchanged. Each rewrite and repair is logged to stderr (or --log FILE), never stdout.
    When the upstream exits or does not answer within --timeout, the client gets an error.

    \b
    Examples:
      schema-compat proxy --provider gemini -- python server.py
      schema-compat proxy -p openai-strict --log /tmp/proxy.log -- npx -y some-mcp-server
      schema-compat proxy --url http://127.0.0.1:8000/mcp --header 'Authorization: Bearer T'
      schema-compat proxy --sse http://127.0.0.1:8000/sse
    """
    from .extract.config import ServerSpec
    from .profiles import PROFILES

    if provider.lower() not in PROFILES:
        fail(f"unknown provider {provider!r}", f"choose one of: {', '.join(PROFILES)}")
    if [bool(command), bool(url), bool(sse)].count(True) != 1:
        fail("give the upstream as -- CMD ARGS, --url URL or --sse URL (one of them)",
             "e.g. schema-compat proxy -- python server.py")
    if header and not (url or sse):
        fail("--header applies to --url and --sse", "add --url URL or --sse URL")
    if (env or cwd) and not command:
        fail("--env and --cwd apply to a command upstream", "add -- CMD ARGS")
    if url or sse:
        headers = dict(split_pair(h, ":", "--header", "'K: V'") for h in header or [])
        address = url or sse
        assert address is not None
        spec = ServerSpec(address, "http" if url else "sse", url=address, headers=headers)
    else:
        assert command
        variables = dict(split_pair(e, "=", "--env", "K=V") for e in env or [])
        spec = ServerSpec(command[0], "stdio", command[0], tuple(command[1:]), variables, cwd)
    from .proxy.run import exit_now, start

    started = start(spec, log)
    exit_now(started if isinstance(started, int) else
             started.serve(provider.lower(), timeout, lossless_only=lossless_only))


@app.command()
def rules(
    provider: Annotated[str | None, typer.Option("--provider", "-p",
                                                 help="Only the rules of this profile, "
                                                      "with its severities.")] = None,
) -> None:
    """List every rule: code, name, severity, fix safety.

    \b
    Examples:
      schema-compat rules
      schema-compat rules --provider openai-strict
    """
    from .profiles import get_profile
    from .report.rules_text import render_rules_table
    from .report.text import make_console
    from .rules.registry import ALL_RULES, RULES

    if provider:
        profile = get_profile(provider)
        if profile is None:
            from .profiles import PROFILES

            fail(f"unknown provider {provider!r}", f"choose one of: {', '.join(PROFILES)}")
        render_rules_table([RULES[c] for c in profile.rules], make_console(), profile)
    else:
        render_rules_table(sorted(ALL_RULES, key=lambda r: r.code), make_console())


@app.command()
def rule(code: Annotated[str, typer.Argument(help="A rule code or name, e.g. REF001.")]
         ) -> None:
    """Explain one rule: what it flags, the provider's real error, the fix, an example.

    \b
    Examples:
      schema-compat rule REF001
      schema-compat rule nullable-union
    """
    from .profiles import PROFILES
    from .report.rules_text import render_rule
    from .report.text import make_console
    from .rules.registry import by_name_or_code

    found = by_name_or_code(code)
    if found is None:
        fail(f"no rule {code!r}", "`schema-compat rules` lists them")
    render_rule(found, make_console(), PROFILES.values())


@app.command()
def profiles() -> None:
    """List the provider profiles: target, name rule, limits, rules, sources."""
    from .profiles import PROFILES
    from .report.rules_text import render_profiles
    from .report.text import make_console

    render_profiles(PROFILES.values(), make_console())


@app.command()
def serve(
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="Port on 127.0.0.1 (0: a free one).")] = 0,
    no_open: Annotated[bool, typer.Option("--no-open",
                                          help="Print the URL only; open no browser.")] = False,
    config: Annotated[list[str] | None, typer.Option(
        "--config", help="Also offer the servers of this MCP client config (repeatable); "
                         "those found here and in your home folder are offered anyway.",
        show_default=False)] = None,
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Open the playground: a local web page showing every provider's view of your tools.

    Paste or drop any SOURCE, or pick a server from your client configs to list it live;
    see the provider x tool matrix, each cell's findings and diff, and download the
    transformed tools and reports. Serves on 127.0.0.1 only, at a URL with a secret.

    \b
    Examples:
      schema-compat serve
      schema-compat serve --no-open --port 8765
    """
    import os

    from .playground.server import serve as serve_playground

    raise typer.Exit(serve_playground(port, open_browser=not no_open, directory=os.getcwd(),
                                      config=config or [], timeout=timeout))


@app.command()
def init(
    provider: Annotated[str | None, typer.Option(
        "--provider", "-p", help="The provider(s) to check against, as for check: a profile, "
        "a comma-separated list or all (asked on a terminal; else gemini).",
        autocompletion=_complete_provider, show_default=False)] = None,
    server: Annotated[str | None, typer.Option(
        "--server", help='The command that starts your server over stdio: "CMD ARGS".',
        show_default=False)] = None,
    env: EnvOpt = None,
    cwd: CwdOpt = None,
    config: Annotated[str | None, typer.Option(
        "--config", help="Instead of --server: an MCP client config naming your server(s).",
        show_default=False)] = None,
    name: NameOpt = None,
    snapshot: Annotated[str, typer.Option(
        "--snapshot", help="Where the snapshot of the tools goes (several servers: "
        "mcp-tools.NAME.json each).")] = "mcp-tools.json",
    install_from: Annotated[str | None, typer.Option(
        "--install-from", help="What CI installs schema-compat from, for pipx: e.g. "
        "'git+https://HOST/OWNER/schema-compat@TAG' (default: the git repository and commit "
        "this copy was installed from).", show_default=False)] = None,
    directory: Annotated[str, typer.Option("--dir", help="The repository to set up.")] = ".",
    timeout: TimeoutOpt = 30.0,
) -> None:
    """Set up your server's repository: settings, a snapshot of its tools, a pre-commit hook
    and a GitHub workflow with code scanning.

    Writes .schema-compat.toml (the provider), mcp-tools.json (the tools as the server lists
    them, taken live, not transformed), .pre-commit-config.yaml (the schema-compat hook on the
    snapshot) and .github/workflows/schema-compat.yml (check on every push and pull request,
    SARIF uploaded to code scanning). A file already there is never changed: it is named as
    skipped, so running init again changes nothing. With --server (or --config) nothing is
    asked.

    \b
    Examples:
      schema-compat init --provider gemini --server "python server.py"
      schema-compat init -p gemini,openai-strict --server "npx -y my-mcp-server"
      schema-compat init --config .mcp.json --name my-server
    """
    from .commands.init import InitOptions, run_init

    raise typer.Exit(run_init(InitOptions(provider, server, env, cwd, config, name, snapshot,
                                          install_from, directory, timeout)))


def app_for(args: list[str]) -> typer.Typer:
    """The app, holding only the command that `args` start with when they name one.

    typer turns every registered command into a click command (signature, type hints, help
    text) on each start, and a run uses one. Anything else (`--help`, `--version`, a typo,
    nothing) gets the whole app, so the list of commands and "No such command" stay as they
    are; the command itself is built by typer exactly as in the whole app.
    """
    if args:
        chosen = [c for c in app.registered_commands if _command_name(c) == args[0]]
        if len(chosen) == 1:
            import copy

            lean = copy.copy(app)
            lean.registered_commands = chosen
            return lean
    return app


def _command_name(info: CommandInfo) -> str | None:
    """The name typer gives a registered command: its own, or the function's, dashed."""
    if info.name:
        return info.name
    return info.callback.__name__.lower().replace("_", "-") if info.callback else None


def main() -> None:
    """Entry point for every command line typer parses (see entry.py for the others)."""
    run_guarded(lambda: app_for(sys.argv[1:])())
