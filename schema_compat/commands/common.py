"""What the commands share, without typer: the steps from a command line's values to a
report and an exit code.

A plain `check`, `transform` or `diff` command line runs without typer at all (see
commands/argv.py): typer and its vendored click cost more to import than the rest of a
one-file check, so nothing here may import them. The typer app in cli.py calls the same
functions.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, TypeVar

if TYPE_CHECKING:
    from ..engine import Plan
    from ..extract.files import LoadedSource
    from ..model import Report, SourceError, ToolResult
    from ..settings import Settings

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
_Options = TypeVar("_Options")


class LiveOpts(NamedTuple):
    """The live-source options a command was given (see extract/live.py)."""

    server: list[str] | None = None
    env: list[str] | None = None
    cwd: str | None = None
    url: list[str] | None = None
    header: list[str] | None = None
    sse: list[str] | None = None
    config: list[str] | None = None
    name: list[str] | None = None
    timeout: float = 30.0

    def given(self) -> bool:
        return bool(self.server or self.url or self.sse or self.config)


def options_of(kind: Callable[..., _Options], values: dict[str, Any]) -> _Options:
    """A command's options from parameter values as typer names them, the live-source ones
    gathered into the command's `live` (commands/argv.py reads them flat, as typer does)."""
    live = {k: v for k, v in values.items() if k in LiveOpts._fields}
    rest = {k: v for k, v in values.items() if k not in live}
    return kind(**rest, live=LiveOpts(**live))


def fail(message: str, hint: str = "") -> NoReturn:
    """One line on stderr and exit 2: the contract for bad usage and unreadable input."""
    text = f"schema-compat: error: {message}"
    if hint:
        text += f" ({hint})"
    print(text, file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def split_list(values: list[str] | None) -> list[str] | None:
    """A repeatable option that also takes commas (`--select REF,UNI001 --select OBJ`)."""
    if not values:
        return None
    out = [v.strip() for item in values for v in item.split(",") if v.strip()]
    return out or None


def provider_plan(provider: str, select: list[str] | None, ignore: list[str] | None,
                  lossless_only: bool) -> Plan:
    """The plan for one provider named on the command line; a bad name or rule exits 2."""
    from ..engine import make_plan
    from ..profiles import PROFILES
    from ..rules.registry import unknown_patterns

    if provider.lower() not in PROFILES:
        if provider.strip().lower() == "all" or "," in provider:
            fail(f"--provider {provider!r}: this command takes one provider",
                 "`schema-compat check --provider all` compares them; transform or diff "
                 "for one at a time")
        fail(f"unknown provider {provider!r}", f"choose one of: {', '.join(PROFILES)}")
    sel, ign = split_list(select), split_list(ignore)
    bad = unknown_patterns([*(sel or []), *(ign or [])])
    if bad:
        fail(f"unknown rule {bad[0]!r} in --select/--ignore",
             "`schema-compat rules` lists the codes")
    return make_plan(provider, sel, ign, lossless_only)


def load_inputs(sources: list[str] | None, live: LiveOpts | None = None, *,
                discover: bool = False) -> tuple[list[LoadedSource], list[SourceError]]:
    """Every tool of the files and live servers given; with `discover` and neither, the MCP
    client configs in the current directory."""
    from ..extract.files import load_sources

    live = live or LiveOpts()
    if (live.env or live.cwd) and not live.server:
        fail("--env and --cwd apply to --server", 'add --server "CMD ARGS"')
    if live.header and not (live.url or live.sse):
        fail("--header applies to --url and --sse", "add --url URL")
    if live.name and not live.config and (sources or live.given()):
        fail("--name picks servers of --config", "add --config FILE")
    if not sources and not live.given():
        configs = _discover() if discover else []
        if not configs:
            from ..extract.config import CONFIG_CANDIDATES

            fail("no SOURCE given" + (" and no MCP client config here (looked for "
                                      f"{', '.join(CONFIG_CANDIDATES)})" if discover else ""),
                 "pass a JSON file, a directory, - to read stdin, --server, --url, --sse "
                 "or --config")
        live = LiveOpts(config=configs, name=live.name, timeout=live.timeout)
    loaded, errors = load_sources(list(dict.fromkeys(sources))) if sources else ([], [])
    if live.given():
        more, more_errors = _load_live(live)
        loaded += more
        errors += more_errors
    # The loaded documents live until the command ends and hold no reference cycles: left to
    # the collector, every full collection would walk all of them again (~9% of a `check` of
    # 10,000 tools, growing with the input). Refcounting still frees them.
    gc.freeze()
    return loaded, errors


def _discover() -> list[str]:
    """With no SOURCE, the MCP client configs in the current directory; says what it found."""
    from ..extract.config import discover_configs

    found = discover_configs(".")
    if found:
        print(f"schema-compat: no SOURCE given; checking the servers in {', '.join(found)}",
              file=sys.stderr)
    return found


def _load_live(live: LiveOpts) -> tuple[list[LoadedSource], list[SourceError]]:
    """--server/--url/--sse/--config: every server is connected at once, within --timeout."""
    from ..extract.config import ConfigError, ServerSpec, load_config, parse_command

    env = dict(split_pair(e, "=", "--env", "K=V") for e in live.env or [])
    headers = dict(split_pair(h, ":", "--header", "'K: V'") for h in live.header or [])
    specs: list[ServerSpec] = []
    errors: list[SourceError] = []
    for text in live.server or []:
        try:
            command, args = parse_command(text)
        except ValueError as exc:
            fail(str(exc), 'quote the whole command: --server "CMD ARGS"')
        specs.append(ServerSpec(text, "stdio", command, args, env, live.cwd))
    specs += [ServerSpec(u, "http", url=u, headers=headers) for u in live.url or []]
    specs += [ServerSpec(u, "sse", url=u, headers=headers) for u in live.sse or []]
    for path in live.config or []:
        try:
            found, bad = load_config(path, live.name)
        except ConfigError as exc:
            errors.append(exc.error)
            continue
        specs += found
        errors += bad
    if not specs:
        return [], errors
    try:  # the SDK is loaded while the servers start
        from ..extract.starting import fetch_servers

        loaded, failed = fetch_servers(specs, live.timeout, spinner=sys.stderr.isatty())
    except ImportError as exc:
        fail(f"live servers need the MCP SDK, which is not installed ({exc})", LIVE_EXTRA_HINT)
    return loaded, errors + failed


# The project is installed from its checkout (or a git URL), not from a package index.
LIVE_EXTRA_HINT = ("install the live extra, in the schema-compat checkout: pipx install "
                   "--force '.[live]', or pip install '.[live]' into the environment it runs "
                   "from")


def split_pair(text: str, sep: str, option: str, form: str) -> tuple[str, str]:
    """`K=V` or `K: V`; anything else exits 2 naming the option and the form it wants."""
    key, found, value = text.partition(sep)
    if not found or not key.strip():
        fail(f"{option} {text!r} is not {form}")
    return key.strip(), value.strip() if sep == ":" else value


def select_tools(loaded: list[LoadedSource], patterns: list[str] | None) -> list[Any]:
    """--tool: a glob on a tool's name or `server/tool` (as --exclude-tool); a pattern that
    matches nothing exits 2 and lists the tools that are there."""
    tools = [t for s in loaded for t in s.tools]
    if not patterns:
        return tools
    from ..planner.request import matches

    chosen = [t for t in tools if any(matches(t, p) for p in patterns)]
    if not chosen and tools:
        names = ", ".join(t.name for t in tools[:8]) + (", …" if len(tools) > 8 else "")
        fail(f"no tool matches --tool {' '.join(patterns)}", f"tools here: {names}")
    return chosen


def run_tools(tools: list[Any], plan: Plan, per_tool: dict[str, list[str]] | None = None, *,
              keep_schemas: bool = True, keep_changes: bool = True) -> list[ToolResult]:
    """The engine's results; without `keep_changes`, changes that are not lossy are kept
    only as counts (see `compact_changes`), for reports that show no more."""
    from ..engine import iter_plan, run_plan

    plan_for = per_tool_plans(plan, per_tool) if per_tool else None
    with busy(len(tools)):
        if keep_changes:
            return run_plan(tools, plan, plan_for, keep_schemas=keep_schemas)
        from ..output.results import compact_changes

        shared: dict[Any, Any] = {}
        return [compact_changes(r, shared)
                for r in iter_plan(tools, plan, plan_for, keep_schemas=keep_schemas)]


@contextlib.contextmanager
def busy(count: int, spin: bool = True) -> Iterator[None]:
    """A spinner on a terminal's stderr while many tools are checked."""
    if spin and count >= 200 and sys.stderr.isatty():
        from ..report.text import make_console

        with make_console(stderr=True).status(f"Checking {count} tools…"):
            yield
    else:
        yield


def make_report(provider: str, results: list[ToolResult], errors: list[SourceError],
                loaded: list[LoadedSource] | None = None) -> Report:
    """`loaded` adds what each live server said of its protocol to the report."""
    from ..model import Report

    servers = tuple(s.server for s in loaded or () if s.server is not None)
    return Report(provider, tuple(results), tuple(errors), servers)


def print_errors(errors: list[SourceError]) -> None:
    for err in errors:
        print(f"schema-compat: error: {err.one_line()}", file=sys.stderr)


def exit_status(report: Report, fail_on: str, findings_of: str = "findings") -> int:
    """2 when a source could not be read, else 1 when a finding at or above `fail_on` is
    left in `findings_of` ("remaining" after a transform), else 0."""
    from ..model import SEVERITY_RANK

    threshold = SEVERITY_RANK[fail_on]
    worst = [f for r in report.results for f in getattr(r, findings_of)
             if SEVERITY_RANK[f.severity] >= threshold]
    if report.errors:
        return EXIT_USAGE
    return EXIT_FINDINGS if worst else EXIT_OK


def provider_names(text: str) -> list[str]:
    """`all`, or a comma-separated list of profiles; one name stays one provider."""
    from ..profiles import PROFILES

    if text.strip().lower() == "all":
        return list(PROFILES)
    return [p.strip() for p in text.split(",") if p.strip()] or [text]


def resolve_settings(given: Collection[str], **flags: Any) -> Settings:
    """The settings in force: flags given on the command line, then the nearest settings
    file, then the defaults. `flags` are named as the command's parameters, each the
    setting options.py gives it (a list option's commas split); `given` names those the
    command line set: the others hold their defaults, which a settings file overrides."""
    from ..options import SETTINGS
    from ..settings import FileSettings, SettingsError, find_settings_file, load_file, resolve

    by_param = {o.param: o for o in SETTINGS}
    from_flags = {}
    for param, value in flags.items():
        if param in given:
            option = by_param[param]
            from_flags[option.setting] = (split_list(value) or [] if option.repeatable
                                          else value)
    found = find_settings_file()
    try:
        file = load_file(*found) if found else FileSettings()
    except SettingsError as exc:
        fail(str(exc), "see `schema-compat check --help`")
    settings = resolve(file, from_flags)
    _check_file_values(settings)
    return settings


def _check_file_values(settings: Settings) -> None:
    """Provider and rule names from the file are checked here, so the error names the file
    rather than a flag the user never typed."""
    from ..profiles import PROFILES
    from ..rules.registry import unknown_patterns

    where = str(settings.file)
    if settings.values["provider"].origin not in ("--provider", "default"):
        for name in provider_names(settings.providers):
            if name.lower() not in PROFILES:
                fail(f"{where}: unknown provider {name!r}",
                     f"choose from: {', '.join(PROFILES)}, or all")
    for key in ("select", "ignore"):
        if settings.values[key].origin not in (f"--{key}", "default"):
            bad = unknown_patterns(settings[key])
            if bad:
                fail(f"{where}: unknown rule {bad[0]!r} in {key}",
                     "`schema-compat rules` lists the codes")


def one_provider_plan(given: Collection[str], provider: str, select: list[str] | None,
                       ignore: list[str] | None, lossless_only: bool
                       ) -> tuple[Plan, dict[str, list[str]] | None]:
    """transform and diff: the settings file's provider, rules, per-tool ignores and
    lossless-only apply too. Returns the plan and the per-tool ignores."""
    settings = resolve_settings(given, provider=provider, select=select, ignore=ignore,
                         lossless_only=lossless_only)
    chosen = settings.values["provider"]
    if chosen.origin != "--provider" and len(provider_names(settings.providers)) > 1:
        fail(f"{settings.file}: provider names several providers; this command takes one",
             "pass --provider NAME")
    plan = provider_plan(settings.providers, settings["select"], settings["ignore"],
                 settings["lossless-only"])
    return plan, per_tool_ignores(settings["per-tool-ignores"])


def per_tool_ignores(table: dict[str, list[str]]) -> dict[str, list[str]] | None:
    from ..rules.registry import unknown_patterns

    for pattern, codes in table.items():
        bad = unknown_patterns(codes)
        if bad:
            fail(f"unknown rule {bad[0]!r} in per-tool-ignores for {pattern!r}",
                 "`schema-compat rules` lists the codes")
    return table or None


def per_tool_plans(plan: Plan, per_tool: dict[str, list[str]]) -> Any:
    """A function giving each tool its plan: the base rules less its per-tool ignores."""
    from ..planner.request import tool_plans

    return tool_plans(plan, per_tool)


def write_file(path: str, text: str | Iterable[str]) -> None:
    """Write to a temporary file beside `path`, then rename it: `path` is either left as it
    was or replaced whole, even when the text comes in pieces over a long run."""
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        fail(f"cannot write {path}: directory {directory} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".schema-compat-", suffix=".json")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    try:
        os.chmod(tmp, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for piece in (text,) if isinstance(text, str) else text:
                fh.write(piece)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            fail(f"cannot write {path}: {exc.strerror or exc}")
        raise


def _mode_for(path: str) -> int:
    """The permissions `path` should end with: its own when it exists, else what a plain
    `open(path, "w")` would give. mkstemp makes its file 0600, which the rename would keep."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _escape_unencodable_output() -> None:
    """A schema may hold a lone surrogate (`"\\ud800"` is valid JSON) that no UTF-8 stream
    can encode. Written as a backslash escape, it reads as itself in a text report and is the
    same JSON string in a JSON one, where a strict stream would stop the run half way."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a file (tests capture stdout)
        pass


def run_guarded(command: Callable[[], object]) -> None:
    """Run a whole command line: no traceback ever reaches the user; SCHEMA_COMPAT_DEBUG=1
    shows one. A command ends by raising SystemExit with its exit status."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    _escape_unencodable_output()
    try:
        command()
    except KeyboardInterrupt:  # as typer ends it: the shell has shown ^C
        sys.exit(130)
    except BrokenPipeError:
        # `check --json | head`: the reader left. Exit 1 as typer does (a pipeline with
        # pipefail must not read it as success), and send what is still buffered nowhere,
        # so the interpreter's final flush does not complain on stderr.
        _quiet_stdout()
        sys.exit(EXIT_FINDINGS)
    except Exception as exc:  # a bug: say so in one line rather than dump a traceback
        if os.environ.get("SCHEMA_COMPAT_DEBUG"):
            raise
        print(f"schema-compat: internal error: {type(exc).__name__}: {exc} (rerun with "
              "SCHEMA_COMPAT_DEBUG=1 for the traceback and report it)", file=sys.stderr)
        sys.exit(EXIT_USAGE)
