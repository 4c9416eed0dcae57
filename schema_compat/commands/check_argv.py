"""`check`'s command line read without typer, when it is plain enough to read for sure.

Importing typer (with the click it vendors) costs more than the rest of checking a small file,
and `check FILE` is what pre-commit hooks and editor integrations start again and again. So
entry.py hands `schema-compat check ...` here first. Only forms that click reads one way are
read here: an option written in full (`--provider gemini`, `--provider=gemini`, `-p gemini`),
a flag alone (`--json`, `-v`), SOURCEs, every value one the option accepts. Anything else —
`--help`, an unknown or misspelt option, a missing or invalid value, grouped short options,
`--`, a value that starts with a dash — gives None, and typer reads the command line as it
always did, with its own messages. tests/test_check_argv.py holds this table to the typer
command's options and compares what the two paths print for many command lines.
"""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

from .check import CheckOptions

Kind = Literal["flag", "value", "multi", "choice", "seconds"]


class OptionSpec(NamedTuple):
    """How one option of `check` reads: the parameter it sets and what its value is."""

    param: str
    kind: Kind
    choices: tuple[str, ...] = ()


def _table() -> dict[str, OptionSpec]:
    flags: dict[tuple[str, ...], OptionSpec] = {
        ("--provider", "-p"): OptionSpec("provider", "value"),
        ("--tool", "-t"): OptionSpec("tool", "multi"),
        ("--json",): OptionSpec("json_out", "flag"),
        ("--format", "-f"): OptionSpec("output_format", "choice",
                                       ("text", "json", "sarif", "github", "markdown")),
        ("--select",): OptionSpec("select", "multi"),
        ("--ignore",): OptionSpec("ignore", "multi"),
        ("--fail-on",): OptionSpec("fail_on", "choice", ("error", "warning", "info")),
        ("--lossless-only",): OptionSpec("lossless_only", "flag"),
        ("--verbose", "-v"): OptionSpec("verbose", "flag"),
        ("--show-config",): OptionSpec("show_config", "flag"),
        ("--baseline",): OptionSpec("baseline", "value"),
        ("--write-baseline",): OptionSpec("write_baseline", "value"),
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
    return {flag: spec for names, spec in flags.items() for flag in names}


CHECK_OPTIONS = _table()
# click's FloatRange(min=0.1) takes more spellings ("1e3", " 2", "inf"); those go to typer
_SECONDS = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
_MIN_SECONDS = 0.1


def parse_check(args: list[str]) -> tuple[CheckOptions, frozenset[str]] | None:
    """The options of `check ARGS` and the names of those the command line set, or None
    when typer should read `args` (see the module docstring)."""
    values: dict[str, Any] = {}
    sources: list[str] = []
    at = 0
    while at < len(args):
        arg = args[at]
        at += 1
        if arg == "-" or not arg.startswith("-"):
            sources.append(arg)
            continue
        flag, eq, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        spec = CHECK_OPTIONS.get(flag)
        if spec is None:
            return None
        if spec.kind == "flag":
            if eq:
                return None
            values[spec.param] = True
            continue
        if eq:
            text = inline
        elif at < len(args) and (args[at] == "-" or not args[at].startswith("-")):
            text = args[at]
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
    if sources:
        values["sources"] = sources
    return CheckOptions(**values), frozenset(values)


def _value(spec: OptionSpec, text: str) -> Any:
    """The value typer would hand over for `text`, or None when it is not plainly valid."""
    if spec.kind == "choice":
        return text if text in spec.choices else None
    if spec.kind == "seconds":
        if not _SECONDS.fullmatch(text) or float(text) < _MIN_SECONDS:
            return None
        return float(text)
    return text
