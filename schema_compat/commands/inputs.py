"""What a command reads: JSON files, directories and stdin, live MCP servers (--server,
--url, --sse) and MCP client configs (--config), and the tools chosen among them (--tool).

The live-source options are the same for every command that reads sources, so they travel
together as `LiveOpts`; `options_of` gathers them into a command's options record.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..options import TIMEOUT
from .exits import fail

if TYPE_CHECKING:
    from ..extract.config import ServerSpec
    from ..extract.files import LoadedSource
    from ..model import SourceError

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
    timeout: float = TIMEOUT.default

    def given(self) -> bool:
        return bool(self.server or self.url or self.sse or self.config)


def options_of(kind: Callable[..., _Options], values: dict[str, Any]) -> _Options:
    """A command's options from parameter values as typer names them, the live-source ones
    gathered into the command's `live` (typer hands them over flat)."""
    live = {k: v for k, v in values.items() if k in LiveOpts._fields}
    rest = {k: v for k, v in values.items() if k not in live}
    return kind(**rest, live=LiveOpts(**live))


def check_live(sources: list[str] | None, live: LiveOpts) -> None:
    """Options that only go with another one exit 2 naming it."""
    if (live.env or live.cwd) and not live.server:
        fail("--env and --cwd apply to --server", 'add --server "CMD ARGS"')
    if live.header and not (live.url or live.sse):
        fail("--header applies to --url and --sse", "add --url URL")
    if live.name and not live.config and (sources or live.given()):
        fail("--name picks servers of --config", "add --config FILE")


_NO_SOURCE = "pass a JSON file, a directory, - to read stdin, --server, --url, --sse or --config"


def discover_live(live: LiveOpts) -> LiveOpts:
    """`check` with no SOURCE: the MCP client configs in the current directory, as if given
    with --config (found once: the report's hints name them too); exits 2 when there is
    none."""
    from ..extract.config import CONFIG_CANDIDATES, discover_configs

    check_live(None, live)
    found = discover_configs(".")
    if not found:
        fail("no SOURCE given and no MCP client config here (looked for "
             f"{', '.join(CONFIG_CANDIDATES)})", _NO_SOURCE)
    print(f"schema-compat: no SOURCE given; checking the servers in {', '.join(found)}",
          file=sys.stderr)
    return LiveOpts(config=found, name=live.name, timeout=live.timeout)


def load_inputs(sources: list[str] | None, live: LiveOpts | None = None
                ) -> tuple[list[LoadedSource], list[SourceError]]:
    """Every tool of the files and live servers given."""
    from ..extract.files import load_sources

    live = live or LiveOpts()
    check_live(sources, live)
    if not sources and not live.given():
        fail("no SOURCE given", _NO_SOURCE)
    loaded, errors = load_sources(list(dict.fromkeys(sources))) if sources else ([], [])
    if live.given():
        more, more_errors = _load_live(live)
        loaded += more
        errors += more_errors
    loaded, nameless = _without_nameless(loaded)
    errors += nameless
    # The loaded documents live until the command ends and hold no reference cycles: left to
    # the collector, every full collection would walk all of them again (~9% of a `check` of
    # 10,000 tools, growing with the input). Refcounting still frees them.
    gc.freeze()
    return loaded, errors


def files_read(loaded: list[LoadedSource], live: LiveOpts) -> list[str]:
    """Every file a command read: its source files, the client configs named by --config or
    found here, and the settings file in force. An output must not be any of them."""
    from ..jsonio import STDIN_LABEL
    from ..settings import find_settings_file

    files = [s.label for s in loaded if s.server is None and s.label != STDIN_LABEL]
    files += [s.config for s in loaded if s.config] + list(live.config or [])
    found = find_settings_file()
    return list(dict.fromkeys(files + ([str(found[0])] if found else [])))


def _without_nameless(loaded: list[LoadedSource]
                      ) -> tuple[list[LoadedSource], list[SourceError]]:
    """The sources less their tools without a name, and an error for each of those.

    A tool's name is what the model calls it by and what each call is routed by: a tool
    without one (the loader knows it as `<tool N>`, for the library's rules) could only be
    sent under a name made up for it, which no server would answer to. So a command reports it
    as input it cannot use, naming the source and the tool's index, exits 2, and goes on with
    the other tools."""
    from ..mcp_tool import placeholder_name
    from ..model import SourceError

    kept: list[LoadedSource] = []
    errors: list[SourceError] = []
    for source in loaded:
        named = tuple(t for t in source.tools if t.name != placeholder_name(t.index))
        if len(named) == len(source.tools):
            kept.append(source)
            continue
        errors += [SourceError(source.label, f"tool {t.index} has no name",
                               'give it a "name" string: the model calls a tool by its name '
                               "and each call is routed by it")
                   for t in source.tools if t.name == placeholder_name(t.index)]
        kept.append(source._replace(tools=named))
    return kept, errors


def one_tool(chosen: list[Any], name: str) -> Any:
    """The one tool of a source that `name` names; two or more of one source named alike exit
    2 naming where each is (a server must give each tool a name of its own: which one a call
    would reach is anyone's guess)."""
    first = chosen[0]
    same = [t for t in chosen if t.source == first.source]
    if len(same) > 1:
        places = ", ".join(str(t.index) for t in same[:-1]) + f" and {same[-1].index}"
        fail(f"{len(same)} tools are named {name!r} in {first.source} (at index {places})",
             "give each tool a name of its own")
    return first


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
    config_of: dict[str, str] = {}  # a config server's label: its config
    for path in live.config or []:
        try:
            found, bad = load_config(path, live.name)
        except ConfigError as exc:
            errors.append(exc.error)
            continue
        for spec in found:
            spec = _own_name(spec, path, {s.name for s in specs})
            config_of[spec.name] = path
            specs.append(spec)
        # an entry's error names its file too: one run may read several configs
        errors += [e._replace(source=f"{path}: server {e.source}") for e in bad]
    if not specs:
        return [], errors
    try:  # the SDK is loaded while the servers start
        from ..extract.starting import fetch_servers

        loaded, failed = fetch_servers(specs, live.timeout, spinner=sys.stderr.isatty())
    except ImportError as exc:
        from ..extract.config import LIVE_EXTRA_HINT

        fail(f"live servers need the MCP SDK, which is not installed ({exc})", LIVE_EXTRA_HINT)
    loaded = [s._replace(config=config_of[s.label]) if s.label in config_of else s
              for s in loaded]
    return loaded, errors + failed


def _own_name(spec: ServerSpec, path: str, taken: set[str]) -> ServerSpec:
    """The spec under a name no earlier server has: a server named as one of an earlier
    config (two clients each listing it) is `NAME (CLIENT)`, so that its tools are a
    source of their own, in its own client's request, not a second listing of the first
    (whose tools would then clash by name)."""
    if spec.name not in taken:
        return spec
    import dataclasses

    from ..extract.config import client_of

    name = f"{spec.name} ({client_of(path)})"
    unique, n = name, 2
    while unique in taken:
        unique, n = f"{name} {n}", n + 1
    return dataclasses.replace(spec, name=unique)


def split_pair(text: str, sep: str, option: str, form: str) -> tuple[str, str]:
    """`K=V` or `K: V`; anything else exits 2 naming the option and the form it wants, not
    the text given: a header or a variable often holds a token, and the error lands in logs."""
    key, found, value = text.partition(sep)
    if not found or not key.strip():
        fail(f"a {option} value is not {form}", "not shown: it may hold a secret")
    return key.strip(), value.strip() if sep == ":" else value


def select_tools(loaded: list[LoadedSource], patterns: list[str] | None) -> list[Any]:
    """--tool: a glob on a tool's name or `server/tool` (as --exclude-tool); a pattern that
    matches nothing exits 2 and lists the tools that are there."""
    tools = [t for s in loaded for t in s.tools]
    if not patterns:
        return tools
    from ..requests.request import matches

    chosen = [t for t in tools if any(matches(t, p) for p in patterns)]
    if not chosen and tools:
        names = ", ".join(t.name for t in tools[:8]) + (", …" if len(tools) > 8 else "")
        fail(f"no tool matches --tool {' '.join(patterns)}", f"tools here: {names}")
    return chosen
