"""The command lines of `check`, `transform` and `diff` read without typer, when they are
plain enough to read for sure.

Importing typer (with the click it vendors) costs more than the rest of checking a small file,
and `check FILE` is what pre-commit hooks and editor integrations start again and again. So
entry.py hands these three commands here first. Only forms that click reads one way are read
here: an option written in full (`--provider gemini`, `--provider=gemini`, `-p gemini`), a
flag alone (`--json`, `-v`), positional arguments, every value one the option accepts.
Anything else — `--help`, an unknown or misspelt option, a missing or invalid value, grouped
short options, `--`, a value that starts with a dash, `diff` without its TOOL — gives None,
and typer reads the command line as it always did; a usage error it finds is the one line
every other usage error is (cli.py, with options.value_error's words for a value an option
does not take). The flags of each
command and how each value reads come from the option table (options.py), as typer's do;
tests/test_argv.py compares what the two paths print for many command lines.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..options import Option, arguments, defaults, options

# The commands read here; every other command line goes to typer.
PLAIN_COMMANDS = ("check", "transform", "diff")


class CommandLine(NamedTuple):
    """A command line read: the command, its parameters as typer would hand them over (those
    not given at their defaults), and the names of those the command line set (a settings
    file fills in the others)."""

    command: str
    values: dict[str, Any]
    given: frozenset[str]


def flag_table(command: str) -> dict[str, Option]:
    """Every flag of `command` (long and short), with the option it sets."""
    return {flag: option for option in options(command) for flag in option.flags}


def read_command_line(args: list[str]) -> CommandLine | None:
    """`args` (after the program name) read, or None when typer should read them (see the
    module docstring)."""
    if not args or args[0] not in PLAIN_COMMANDS:
        return None
    table = flag_table(args[0])
    positional = tuple(a.param for a in arguments(args[0]))
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
        spec = table.get(flag)
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
    return CommandLine(args[0], {**defaults(args[0]), **values}, frozenset(values))


def _value(spec: Option, text: str) -> Any:
    """The value typer would hand over for `text`, or None when it is not plainly valid."""
    if spec.kind == "choice":
        return text if text in spec.choices else None
    if spec.kind == "float":
        # digits with at most one point; click's FloatRange takes more spellings ("1e3",
        # " 2", "inf"), which go to typer
        plain = text.isascii() and text.replace(".", "", 1).isdigit()
        if not plain or (spec.minimum is not None and float(text) < spec.minimum) or (
                spec.maximum is not None and float(text) > spec.maximum):
            return None
        return float(text)
    if spec.kind != "value" and spec.kind != "multi":
        return None  # no plain command takes another kind: typer reads it
    return text
