"""The `schema-compat` command line: the typer app, its commands and their help.

This is the one reader of the command line. Each command's options and arguments come from
the option table (options.py), which the settings file (settings.py) is built from too:
`_command` gives a command the parameters the table lists for it, as the signature typer reads.
The command bodies call the typer-free code in commands/, with the parameters the command line
set (click's parameter source) where a settings file may fill in the others.

Only typer is imported at start-up: the engine, rich reports, deepdiff and the MCP SDK are
imported inside the commands that need them, so `--help` stays fast (entry.py answers a bare
`--version` before typer is imported).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from enum import Enum, StrEnum
from functools import wraps
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
import typer.core

from . import __version__
from . import options as table
from .commands.exits import fail
from .commands.guard import run_guarded
from .commands.inputs import options_of

if TYPE_CHECKING:
    from collections.abc import Sequence

# A non-breaking hyphen (U+2011) stands for each hyphen while help text is wrapped.
_KEEP_HYPHEN = "\u2011"


class _KeepHyphens:
    """click's help formatter, except that no line ends inside a word at its hyphen.

    click wraps with textwrap, which may end a line after a hyphen between letters: a file
    name (`.schema-` / `compat.toml`), a flag or a command would be cut in two where a reader
    copies it. Hyphens are written as non-breaking ones while the text is wrapped and put back
    after, so each line is as long as it was and nothing else changes.

    It wraps the formatter a typer Context makes (typer's own copy of click's from 0.26,
    click's before), whose class typer does not name publicly; all else is that formatter's.
    """

    def __init__(self, formatter: Any) -> None:
        self.formatter = formatter

    def __getattr__(self, name: str) -> Any:
        return getattr(self.formatter, name)

    def write_text(self, text: str) -> None:
        start = len(self.formatter.buffer)
        self.formatter.write_text(text.replace("-", _KEEP_HYPHEN))
        self.put_back(start)

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        start = len(self.formatter.buffer)
        self.formatter.write_dl([(term, text.replace("-", _KEEP_HYPHEN)) for term, text in rows],
                                col_max, col_spacing)
        self.put_back(start)

    def put_back(self, start: int) -> None:
        buffer = self.formatter.buffer
        buffer[start:] = [part.replace(_KEEP_HYPHEN, "-") for part in buffer[start:]]


class _Context(typer.Context):
    def make_formatter(self) -> Any:
        return _KeepHyphens(super().make_formatter())


class _Command(typer.core.TyperCommand):
    """A command whose options' refused values are told in the option table's words."""

    context_class = _Context

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """click's parse, except that a value an option of the table does not take (a choice
        not offered, a number out of range) is the one-line error of options.value_error,
        naming the value as given: click's own parser says which text that was."""
        given = list(args)  # click's parser consumes the list it reads
        try:
            return super().parse_args(ctx, args)
        except Exception as exc:
            if not _is_usage_error(exc):
                raise
            cast(Any, exc).ctx = cast(Any, exc).ctx or ctx  # click's parser leaves it out
            param = getattr(exc, "param", None)
            option = next((o for o in table.options(self.name or "")
                           if o.param == getattr(param, "name", None)), None)
            if option is None or type(exc).__name__.startswith("Missing"):
                raise
            text = self.make_parser(ctx).parse_args(args=given)[0].get(option.param)
            if not isinstance(text, str):
                raise
            fail(*table.value_error(option, text))


class _Group(typer.core.TyperGroup):
    context_class = _Context



app = typer.Typer(
    name="schema-compat",
    help=(
        "Check MCP tool schemas against an LLM provider, transform them into a form it "
        "accepts, and show what changed.\n\n"
        "A SOURCE is a JSON file, a directory of them, or - for stdin: an MCP tools/list "
        "result (bare or in a JSON-RPC response), a list of tools, one tool, a bare JSON "
        "Schema, or an OpenAI / Anthropic / Gemini tool list.\n\n"
        "Exit codes: 0 nothing at or above --fail-on; 1 findings remain; 2 bad usage, "
        "unreadable input or a server not reached."
    ),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    cls=_Group,
)


def _complete_provider(incomplete: str) -> list[str]:
    """Shell completion for --provider: the profile names (and `all`)."""
    from .profiles import PROFILES

    return [p for p in (*PROFILES, "all") if p.startswith(incomplete)]


_TYPES: dict[table.Kind, Any] = {"flag": bool, "value": str, "multi": list[str], "float": float,
                                 "int": int}


def _parameter(param: table.Parameter) -> inspect.Parameter:
    """One parameter of a command's signature, as typer reads it: the type, and the typer
    declaration as its default (typer copies a declaration given so once per command, one
    given inside `Annotated` twice)."""
    kind = inspect.Parameter.KEYWORD_ONLY
    if isinstance(param, table.Argument):  # `many`: all the rest, which may be left out
        return inspect.Parameter(param.param, kind, annotation=list[str] | None
                                 if param.many else str, default=typer.Argument(
                                     None if param.many else ..., help=param.help,
                                     show_default=not param.many, metavar=param.metavar or None))
    # a choice: the enum typer reads the choices from, in order (the body gets the value)
    value = cast(Any, StrEnum)(param.param, {c: c for c in param.choices}) \
        if param.kind == "choice" else _TYPES[param.kind]
    if param.default is None:
        value = value | None
    declared = typer.Option(
        param.default, *param.flags, help=param.help, show_default=param.show_default,
        rich_help_panel=param.panel or None, min=param.minimum, max=param.maximum,
        metavar=param.metavar or None,
        autocompletion=_complete_provider if param.completes_profiles else None)
    return inspect.Parameter(param.param, kind, default=declared, annotation=value)


# Each parameter of the table declared once, for every command that takes it.
_DECLARED = {param: _parameter(param)
             for param in {p: None for ps in table.COMMANDS.values() for p in ps}}


def _command(short_help: str, **settings: Any
             ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Add the body as the command of its name, with the parameters options.py lists for it:
    the body takes them as keyword arguments (after `ctx`, when it declares one), choices as
    their plain values."""

    def give(body: Callable[..., None]) -> Callable[..., None]:
        @wraps(body)
        def run(**values: Any) -> None:
            body(**{k: v.value if isinstance(v, Enum) else v for k, v in values.items()})

        context = [inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY,
                                     annotation=typer.Context)
                   ] if "ctx" in inspect.signature(body).parameters else []
        parameters = map(_DECLARED.__getitem__, table.COMMANDS[body.__name__])
        run.__signature__ = inspect.Signature([*context, *parameters])  # type: ignore[attr-defined]
        return app.command(cls=_Command, short_help=short_help, **settings)(run)

    return give


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


@_command("Flag what the provider would reject or silently degrade.")
def check(ctx: typer.Context, **values: Any) -> None:
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
    Exit 0 when nothing is at or above --fail-on, 1 when findings remain (or a request
    is refused whole), 2 for bad usage, an unreadable source or a server not reached.
    """
    from .commands.check import CheckOptions, run_check

    raise typer.Exit(run_check(options_of(CheckOptions, values), _given(ctx)))


def _given(ctx: typer.Context) -> set[str]:
    """The parameters the command line set, as opposed to those left at their defaults."""
    return {param for param in ctx.params
            if (source := ctx.get_parameter_source(param)) is not None
            and source.name not in ("DEFAULT", "DEFAULT_MAP")}


@_command("Write the tools in a form the provider accepts.")
def transform(ctx: typer.Context, **values: Any) -> None:
    """Write the tools in a form the provider accepts, in the same shape as the input.

    One source keeps its shape (an MCP listing stays one, a Gemini tool list stays one) and
    every field of each tool; with --tool, only the matching tools are transformed and the
    others are written as they were. Several sources are written as one MCP tools/list
    result (a name tools of several hold is warned of on stderr). Every change, with its
    rule and safety, is summarised on stderr; lossy ones are listed one by one. If a source
    cannot be read, nothing is written. Exit 0 when the output has no error finding left,
    1 when it has, 2 for bad usage, an unreadable source or a server not reached.

    \b
    Examples:
      schema-compat transform tools.json -o tools.gemini.json
      schema-compat transform --lossless-only --json tools.json
      schema-compat transform --server "python server.py" -o tools.json
    """
    from .commands.transform import TransformOptions, run_transform

    raise typer.Exit(run_transform(options_of(TransformOptions, values), _given(ctx)))


@_command("Show one tool side by side: original | transformed.")
def diff(ctx: typer.Context, **values: Any) -> None:
    """Show one tool side by side: original | transformed, each change marked with its
    rule code and safety. Exit 0, or 2 for bad usage, an unreadable source or a server
    not reached.

    \b
    Examples:
      schema-compat diff read_files tools.json
      NO_COLOR=1 schema-compat diff read_files tools.json | less
      schema-compat diff read_files --server "python examples/fs_server.py"
    """
    from .commands.diff import DiffOptions, run_diff

    raise typer.Exit(run_diff(options_of(DiffOptions, values), _given(ctx)))


@_command("Tell which changes to a server's tools break their callers.")
def breaking(**values: Any) -> None:
    """Tell which changes between two versions of a server's tools break their callers.

    Tools are matched by name. What callers send (inputSchema) breaks when arguments the
    old version accepts are refused by the new one; what they read (outputSchema) when the
    new output may hold values the old did not allow; a removed tool breaks. Each break
    comes with an example checked with jsonschema; where the keywords keep the answer out
    of reach it is "possibly breaking", with the reason. Changed descriptions, titles,
    defaults and riskier annotations are warnings. Exit 1 on a breaking change (--fail-on
    warning: on drift too), 0 else, 2 for bad input.

    \b
    Examples:
      schema-compat breaking old/mcp-tools.json mcp-tools.json
      schema-compat breaking mcp-tools.json --server "python server.py"
      schema-compat breaking --against mcp-tools.json --server "python s.py"
      schema-compat breaking v1.json v2.json --format markdown > comment.md
    """
    from .commands.breaking import BreakingOptions, run_breaking

    raise typer.Exit(run_breaking(options_of(BreakingOptions, values)))


@_command("Map a provider's error message back to the tool and rule.")
def explain(**values: Any) -> None:
    """Map a provider's error message back to the tool, the JSONPath in its schema, the rule
    that covers it and the fix.

    Gemini names a tool and each property by its index (function_declarations[3]...
    properties[2].value): indices and names are read against the schemas sent, the SOURCE
    as given or, with --sent transformed, as transform and the proxy send them. OpenAI's
    "Invalid schema for function 'x'", Anthropic's tools.N.custom..., Bedrock's
    toolConfig.tools.N... and Vertex's messages are read too; --provider says which
    profile's rules to check with, else the error's shape does. Exit 0 when the error was
    mapped to a tool (a limit of the whole request: to its rule), 1 when the text is not
    understood or names something the sources do not hold, 2 for bad usage.

    \b
    Examples:
      schema-compat explain "$(cat error.txt)" tools.json
      schema-compat explain "tools.3.custom.name: ..." --server "python s.py"
      schema-compat explain --json -p openai-strict "$(cat error.txt)" tools.json
    """
    from .commands.explain import ExplainOptions, run_explain

    raise typer.Exit(run_explain(options_of(ExplainOptions, values)))


@_command("Repair a tool call's arguments against the tool's own schema.")
def repair(**values: Any) -> None:
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
      schema-compat repair -t read_files --json --args @call.json tools.json
      schema-compat repair -t read_files --server "python server.py" --args -
    """
    from .commands.repair import RepairOptions, run_repair

    raise typer.Exit(run_repair(options_of(RepairOptions, values)))


@_command("Serve an MCP server's tools with schemas the provider accepts.",
          context_settings={"allow_interspersed_args": False})
def proxy(**values: Any) -> None:
    """Serve an MCP server's tools over stdio with schemas the provider accepts, repairing
    each call's arguments against the server's own schema; with --config, every server of
    a client config as one (a gateway).

    tools/list answers carry the transformed schemas (and names); each tools/call is renamed
    back and its arguments repaired (JSON text parsed, "true" and "3" read as values, the
    transform's changes undone) before it is forwarded. Everything else passes through
    unchanged. Each rewrite and repair is logged to stderr (or --log FILE), never stdout.
    When the upstream exits or does not answer within --timeout, the client gets an error.

    With --config FILE it starts every stdio server of that client config (Claude, Cursor,
    VS Code, Gemini CLI formats; --name selects some) and lists all their tools as one
    request planned for the provider: names made unique and valid (mapped back on each
    call), schemas transformed, each call sent to its own server and repaired. A server's
    tools/list_changed is passed on, the listing made anew. It answers the client's
    handshake itself (both protocol eras) and serves tools only: resources, prompts and
    completion requests get a JSON-RPC "method not found" error. A server that fails to
    start is logged with its name and why, and the others are served; HTTP and SSE servers
    are reached through the MCP SDK's client transports (the live extra).

    \b
    Examples:
      schema-compat proxy --provider gemini -- python server.py
      schema-compat proxy -p openai-strict --log proxy.log -- npx -y some-server
      schema-compat proxy --url http://127.0.0.1:8000/mcp \\
        --header 'Authorization: Bearer T'
      schema-compat proxy --sse http://127.0.0.1:8000/sse
      schema-compat proxy --config ~/.cursor/mcp.json -p openai --name github
    """
    from .commands.proxy import ProxyOptions, run_proxy

    run_proxy(ProxyOptions(**values))


@_command("List every rule: code, name, severity, fix safety.")
def rules(**values: Any) -> None:
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

    provider: str | None = values["provider"]
    if provider:
        profile = get_profile(provider)
        if profile is None:
            from .profiles import PROFILES

            fail(f"unknown provider {provider!r}", f"choose one of: {', '.join(PROFILES)}")
        render_rules_table([RULES[c] for c in profile.rules], make_console(), profile)
    else:
        render_rules_table(sorted(ALL_RULES, key=lambda r: r.code), make_console())


@_command("Explain one rule: what it flags, the provider's error, the fix.")
def rule(**values: Any) -> None:
    """Explain one rule: what it flags, the provider's real error, the fix, an example.

    \b
    Examples:
      schema-compat rule REF001
      schema-compat rule nullable-union
      schema-compat rule EVO101        # a check of `breaking`
    """
    from .profiles import PROFILES
    from .report.rules_text import render_rule
    from .report.text import make_console
    from .rules.registry import by_name_or_code

    code: str = values["code"]
    found = by_name_or_code(code)
    if found is None:
        from .evolution.checks import CHECKS

        check = next((c for c in CHECKS if code in (c.code, c.code.lower(), c.name)), None)
        if check is not None:
            from .report.breaking_docs import page

            print(page(check.code), end="")
            return
        fail(f"no rule {code!r}", "`schema-compat rules` lists them; `breaking`'s checks "
             "are EVO001-EVO303")
    render_rule(found, make_console(), PROFILES.values())


@_command("List the provider profiles: target, name rule, limits, rules.")
def profiles() -> None:
    """List the provider profiles: target, name rule, limits, rules, sources; then the MCP
    clients `--client` names, with their own limits and sources."""
    from .profiles import PROFILES
    from .profiles.clients import CLIENTS
    from .report.rules_text import render_clients, render_profiles
    from .report.text import make_console

    console = make_console()
    render_profiles(PROFILES.values(), console)
    render_clients(CLIENTS.values(), console)


@_command("Open the playground: every provider's view of your tools.")
def serve(**values: Any) -> None:
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

    raise typer.Exit(serve_playground(values["port"], open_browser=not values["no_open"],
                                      directory=os.getcwd(), config=values["config"] or [],
                                      timeout=values["timeout"]))


@_command("Set up your server's repository: settings, snapshot, hook, CI.")
def init(**values: Any) -> None:
    """Set up your server's repository: settings, a snapshot of its tools, a pre-commit hook
    and a GitHub workflow with code scanning.

    Writes .schema-compat.toml (the provider), mcp-tools.json (the tools as the server lists
    them, taken live, not transformed), .pre-commit-config.yaml (the schema-compat hook on the
    snapshot) and .github/workflows/schema-compat.yml (check on every push and pull request,
    SARIF uploaded to code scanning). A file already there is never changed: it is named as
    skipped, so running init again changes nothing. With --server (or --url, --sse, --config)
    nothing is asked.

    \b
    Examples:
      schema-compat init --provider gemini --server "python server.py"
      schema-compat init -p gemini,openai-strict --server "npx -y my-mcp-server"
      schema-compat init --url http://127.0.0.1:8000/mcp \\
        --header 'Authorization: Bearer T'
      schema-compat init --config .mcp.json --name my-server
    """
    from .commands.init import InitOptions, run_init

    raise typer.Exit(run_init(InitOptions(**values)))


def main() -> None:
    """Entry point for every command line (entry.py answers a bare `--version` first)."""
    run_guarded(lambda: _run(sys.argv[1:]))


def _run(args: list[str]) -> None:
    """Run the app on `args`; a usage error that click finds (an unknown option, a value an
    option does not take, a missing argument) is the one line on stderr and exit 2 that every
    other usage error is, where click would print the usage, a "Try" line and its own."""
    try:
        status = app(args=args, standalone_mode=False)
    except typer.Abort:  # input ended at a prompt (init): as click ends it
        print("Aborted!", file=sys.stderr)
        raise SystemExit(1) from None
    except Exception as exc:
        if not _is_usage_error(exc):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare command: its help, exit 2
            cast(Any, exc).show()
            raise SystemExit(2) from None
        fail(*_usage_error(exc))
    raise SystemExit(status if isinstance(status, int) else 0)


def _is_usage_error(exc: Exception) -> bool:
    """Whether `exc` is click's UsageError (typer's own copy of click from 0.26, click's
    before: told by what it holds, not by which module defines it)."""
    return getattr(exc, "exit_code", None) == 2 and hasattr(exc, "format_message") \
        and hasattr(exc, "ctx")


def _usage_error(exc: Exception) -> tuple[str, str]:
    """A usage error of click's as (message, hint), on one line (an option's refused value
    is told by _Command.parse_args)."""
    command = getattr(getattr(exc, "ctx", None), "info_name", None)
    command = command if command in table.COMMANDS else None
    help_line = f"schema-compat {command} --help" if command else "schema-compat --help"
    possibilities = getattr(exc, "possibilities", None)
    if possibilities:
        hint = "did you mean " + " or ".join(sorted(possibilities)) + "?"
        return f"no such option: {getattr(exc, 'option_name', '')}", hint
    message, _, more = " ".join(cast(Any, exc).format_message().split()).partition(". ")
    message = message.rstrip(".")
    hint = more[:1].lower() + more[1:] if more else f"`{help_line}` shows how to use it"
    return message[:1].lower() + message[1:], hint
