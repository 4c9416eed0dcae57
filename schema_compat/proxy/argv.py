"""`schema-compat proxy ...` read without typer, so that the upstream starts sooner.

An MCP client starts the proxy each time it starts the server behind it, and waits for both:
importing typer and the CLI first would delay the upstream's own start by as much. A command
line this module can read for sure is run from `entry.py` directly; anything else (`--help`,
an unknown or malformed option, a usage error) returns None and goes to the typer command in
cli.py, which says what is wrong. The flags read and their defaults come from the option
table (options.py), as typer's do. Only the standard library (with the option table and the
server spec's module) is imported before the upstream starts; an unknown provider is found
while it starts, and then it is stopped and typer says so. With `--config`, the gateway's
own modules are imported first and the provider checked before any server starts; a
`--name-prefix` or `--client` is left to typer (the command checks it against its list).
"""

from __future__ import annotations

from ..options import PROXY_GATEWAY, options

__all__ = ["ProxyLine", "read_proxy_line"]

# The options read here: all of proxy's (options.py) but --name-prefix and --client.
_READ = {o.param: o for o in options("proxy") if o.param not in ("name_prefix", "client")}
_PARAM = {flag: o.param for o in _READ.values() for flag in o.flags}
_GATEWAY = {o.param for o in PROXY_GATEWAY}
_VALUED = {flag for o in _READ.values() if o.kind != "flag" for flag in o.flags}
_REPEATED = {flag for o in _READ.values() if o.repeatable for flag in o.flags}
_PROVIDER: str = _READ["provider"].default
_TIMEOUT: float = _READ["timeout"].default
_MIN_TIMEOUT: float = _READ["timeout"].minimum or 0.0
_LOSSLESS_ONLY = _READ["lossless_only"].flags
_NAME_PREFIX: str = next(o.default for o in PROXY_GATEWAY if o.param == "name_prefix")


class ProxyLine:
    """The options of one proxy command line (a plain class: `dataclasses` costs ~30 ms to
    import, before the upstream could start)."""

    def __init__(self, *, provider: str = _PROVIDER, timeout: float = _TIMEOUT,
                 log: str | None = None, lossless_only: bool = False, url: str | None = None,
                 sse: str | None = None, command: list[str] | None = None,
                 headers: dict[str, str] | None = None, env: dict[str, str] | None = None,
                 cwd: str | None = None, config: str | None = None,
                 names: list[str] | None = None, strict_first: list[str] | None = None,
                 tools: list[str] | None = None,
                 exclude_tools: list[str] | None = None) -> None:
        self.provider, self.timeout, self.log = provider, timeout, log
        self.lossless_only, self.url, self.sse, self.cwd = lossless_only, url, sse, cwd
        self.command: list[str] = command or []
        self.headers: dict[str, str] = headers or {}
        self.env: dict[str, str] = env or {}
        self.config = config  # with the gateway's options below
        self.names: list[str] = names or []
        self.strict_first: list[str] = strict_first or []
        self.tools: list[str] = tools or []
        self.exclude_tools: list[str] = exclude_tools or []

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProxyLine) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"ProxyLine({vars(self)!r})"


def read_proxy_line(args: list[str]) -> ProxyLine | None:
    """The options after `proxy`, or None when typer should read them."""
    values: dict[str, list[str]] = {}
    line = ProxyLine()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            line.command = args[i + 1:]
            break
        if not arg.startswith("-"):  # the command starts (no interspersed options)
            line.command = args[i:]
            break
        if arg in _LOSSLESS_ONLY:
            line.lossless_only = True
            i += 1
            continue
        name, eq, value = arg.partition("=")
        if name not in _VALUED or (eq and not name.startswith("--")):
            return None
        if not eq:
            if i + 1 >= len(args):
                return None
            value = args[i + 1]
            i += 1
        param = _PARAM[name]
        if param in values and name not in _REPEATED:
            return None  # typer keeps the last; let it
        values.setdefault(param, []).append(value)
        i += 1
    return _fill(line, values)


def _fill(line: ProxyLine, values: dict[str, list[str]]) -> ProxyLine | None:
    """`values` (each option's, by parameter) checked as the typer command checks them."""
    line.provider = values.get("provider", [_PROVIDER])[-1].lower()
    if "timeout" in values:
        try:
            line.timeout = float(values["timeout"][-1])
        except ValueError:
            return None
        if not line.timeout >= _MIN_TIMEOUT:
            return None
    line.log = values.get("log", [None])[-1]
    line.url = values.get("url", [None])[-1]
    line.sse = values.get("sse", [None])[-1]
    line.cwd = values.get("cwd", [None])[-1]
    line.config = values.get("config", [None])[-1]
    if line.config is not None:
        if line.command or any(p in values for p in ("url", "sse", "header", "env", "cwd")):
            return None
        line.names = values.get("name", [])
        line.strict_first = values.get("strict_first", [])
        line.tools = values.get("tool", [])
        line.exclude_tools = values.get("exclude_tool", [])
        return line
    if any(p in values for p in _GATEWAY):
        return None
    if [bool(line.command), bool(line.url), bool(line.sse)].count(True) != 1:
        return None
    if values.get("header") and not (line.url or line.sse):
        return None
    if (values.get("env") or line.cwd is not None) and not line.command:
        return None
    for text in values.get("header", []):
        key, found, value = text.partition(":")
        if not found or not key.strip():
            return None
        line.headers[key.strip()] = value.strip()
    for text in values.get("env", []):
        key, found, value = text.partition("=")
        if not found or not key.strip():
            return None
        line.env[key.strip()] = value
    return line


def run_proxy_line(line: ProxyLine) -> None:
    """Start the upstream, then serve as `cli.proxy` would for the same command line, and
    exit. Returns only when the provider is unknown (after stopping the upstream): typer
    then says so."""
    if line.config is not None:
        _serve_config(line)
        return
    from ..extract.config import ServerSpec
    from .run import exit_now, start

    if line.command:
        spec = ServerSpec(line.command[0], "stdio", line.command[0], tuple(line.command[1:]),
                          line.env, line.cwd)
    else:
        address = line.url or line.sse or ""
        spec = ServerSpec(address, "http" if line.url else "sse", url=address,
                          headers=line.headers)
    proxy = start(spec, line.log)
    if isinstance(proxy, int):
        exit_now(proxy)
        return
    from ..profiles import PROFILES  # while the upstream starts

    if line.provider not in PROFILES:
        proxy.abandon()
        return
    exit_now(proxy.serve(line.provider, line.timeout, lossless_only=line.lossless_only))


def _serve_config(line: ProxyLine) -> None:
    """`proxy --config`: as `commands/proxy.py` serves it; returns only when the provider is
    unknown (typer then says so)."""
    from ..profiles import PROFILES

    if line.provider not in PROFILES:
        return
    from .gateway import GatewayOptions
    from .gateway_serve import serve_config
    from .run import exit_now

    options = GatewayOptions(line.provider, timeout=line.timeout,
                             lossless_only=line.lossless_only, name_prefix=_NAME_PREFIX,
                             strict_first=line.strict_first, include=line.tools,
                             exclude=line.exclude_tools)
    exit_now(serve_config(line.config or "", line.names, options, line.log))
