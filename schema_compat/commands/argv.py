"""The command lines of `check`, `transform` and `diff` read without typer, when they are
plain enough to read for sure.

Importing typer (with the click it vendors) costs more than the rest of checking a small file,
and `check FILE` is what pre-commit hooks and editor integrations start again and again. So
entry.py hands these three commands here first. Only forms that click reads one way are read
here: an option written in full (`--provider gemini`, `--provider=gemini`, `-p gemini`), a
flag alone (`--json`, `-v`), positional arguments, every value one the option accepts.
Anything else — `--help`, an unknown or misspelt option, a missing or invalid value, grouped
short options, `--`, a value that starts with a dash, `diff` without its TOOL — gives None,
and typer reads the command line as it always did, with its own messages. tests/test_argv.py
holds these tables to the typer commands' options and compares what the two paths print for
many command lines.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

Kind = Literal["flag", "value", "multi", "choice", "seconds"]


class OptionSpec(NamedTuple):
    """How one option reads: the parameter it sets and what its value is."""

    param: str
    kind: Kind
    choices: tuple[str, ...] = ()


class CommandLine(NamedTuple):
    """A command line read: the command, its parameters as typer would hand them over, and
    the names of those the command line set (a settings file fills in the others)."""

    command: str
    values: dict[str, Any]
    given: frozenset[str]


def _flags(table: dict[tuple[str, ...], OptionSpec]) -> dict[str, OptionSpec]:
    return {flag: spec for names, spec in table.items() for flag in names}


_SHARED: dict[tuple[str, ...], OptionSpec] = {
    ("--provider", "-p"): OptionSpec("provider", "value"),
    ("--select",): OptionSpec("select", "multi"),
    ("--ignore",): OptionSpec("ignore", "multi"),
    ("--lossless-only",): OptionSpec("lossless_only", "flag"),
    ("--server",): OptionSpec("server", "multi"),
    ("--env",): OptionSpec("env", "multi"),
    ("--cwd",): OptionSpec("cwd", "value"),
    ("--url",): OptionSpec("url", "multi"),
    ("--header",): OptionSpec("header", "multi"),
    ("--sse",): OptionSpec("sse", "multi"),
    ("--config",): OptionSpec("config", "multi"),
    ("--name",): OptionSpec("name", "multi"),
    ("--timeout",): OptionSpec("timeout", "seconds"),
}
_JSON: dict[tuple[str, ...], OptionSpec] = {("--json",): OptionSpec("json_out", "flag")}
_TOOL: dict[tuple[str, ...], OptionSpec] = {("--tool", "-t"): OptionSpec("tool", "multi")}
_REQUEST: dict[tuple[str, ...], OptionSpec] = {  # what one request is (commands/requests.py)
    ("--request",): OptionSpec("request", "choice", ("auto", "all", "per-source")),
    ("--strict-first",): OptionSpec("strict_first", "multi"),
    ("--name-prefix",): OptionSpec("name_prefix", "choice", ("none", "server", "mcp")),
    ("--exclude-tool",): OptionSpec("exclude_tool", "multi"),
}

# Per command: its options, and the parameters its positional arguments fill in order (the
# last one takes all the rest).
COMMANDS: dict[str, tuple[dict[str, OptionSpec], tuple[str, ...]]] = {
    "check": (_flags({
        **_SHARED, **_TOOL, **_JSON, **_REQUEST,
        ("--format", "-f"): OptionSpec("output_format", "choice",
                                       ("text", "json", "sarif", "github", "markdown")),
        ("--fail-on",): OptionSpec("fail_on", "choice", ("error", "warning", "info")),
        ("--verbose", "-v"): OptionSpec("verbose", "flag"),
        ("--show-config",): OptionSpec("show_config", "flag"),
        ("--baseline",): OptionSpec("baseline", "value"),
        ("--write-baseline",): OptionSpec("write_baseline", "value"),
    }), ("sources",)),
    "transform": (_flags({
        **_SHARED, **_TOOL, **_JSON, **_REQUEST,
        ("--output", "-o"): OptionSpec("output", "value"),
        ("--force",): OptionSpec("force", "flag"),
        ("--quiet", "-q"): OptionSpec("quiet", "flag"),
        ("--to",): OptionSpec("to", "choice", ("openai-chat", "openai-responses",
                                               "anthropic", "gemini")),
    }), ("sources",)),
    "diff": (_flags({**_SHARED, **_JSON}), ("tool_name", "sources")),
}
MIN_SECONDS = 0.1


def read_command_line(args: list[str]) -> CommandLine | None:
    """`args` (after the program name) read, or None when typer should read them (see the
    module docstring)."""
    if not args or args[0] not in COMMANDS:
        return None
    options, positional = COMMANDS[args[0]]
    values: dict[str, Any] = {}
    plain: list[str] = []
    rest = args[1:]
    at = 0
    while at < len(rest):
        arg = rest[at]
        at += 1
        if arg == "-" or not arg.startswith("-"):
            plain.append(arg)
            continue
        flag, eq, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        spec = options.get(flag)
        if spec is None:
            return None
        if spec.kind == "flag":
            if eq:
                return None
            values[spec.param] = True
            continue
        if eq:
            text = inline
        elif at < len(rest) and (rest[at] == "-" or not rest[at].startswith("-")):
            text = rest[at]
            at += 1
        else:
            return None
        value = _value(spec, text)
        if value is None:
            return None
        if spec.kind == "multi":
            values.setdefault(spec.param, []).append(value)
        else:
            values[spec.param] = value
    *single, many = positional
    if len(plain) < len(single):
        return None  # a required argument is missing: typer says which
    values.update(zip(single, plain, strict=False))
    if plain[len(single):]:
        values[many] = plain[len(single):]
    return CommandLine(args[0], values, frozenset(values))


def _value(spec: OptionSpec, text: str) -> Any:
    """The value typer would hand over for `text`, or None when it is not plainly valid."""
    if spec.kind == "choice":
        return text if text in spec.choices else None
    if spec.kind == "seconds":
        # digits with at most one point; click's FloatRange(min=0.1) takes more spellings
        # ("1e3", " 2", "inf"), which go to typer
        plain = text.isascii() and text.replace(".", "", 1).isdigit()
        return float(text) if plain and float(text) >= MIN_SECONDS else None
    return text
