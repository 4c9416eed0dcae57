"""`schema-compat proxy`: the command's work, from its options to serving until the client
or the upstream leaves."""

from __future__ import annotations

from typing import NamedTuple

from ..options import NAME_PREFIX
from .exits import fail
from .inputs import split_pair


class ProxyOptions(NamedTuple):
    """Every option of `proxy` (options.py holds their flags, defaults and help)."""

    command: list[str] | None
    provider: str
    url: str | None
    sse: str | None
    header: list[str] | None
    env: list[str] | None
    cwd: str | None
    timeout: float
    log: str | None
    lossless_only: bool
    config: str | None
    name: list[str] | None
    name_prefix: str
    strict_first: list[str] | None
    tool: list[str] | None
    exclude_tool: list[str] | None
    client: str | None


def run_proxy(options: ProxyOptions) -> None:
    """Serve the upstream (or, with --config, every server of a client config) and exit."""
    (command, provider, url, sse, header, env, cwd, timeout, log, lossless_only, config, name,
     name_prefix, strict_first, tool, exclude_tool, client) = options
    from ..extract.config import ServerSpec
    from ..profiles import PROFILES

    if provider.lower() not in PROFILES:
        fail(f"unknown provider {provider!r}", f"choose one of: {', '.join(PROFILES)}")
    if config is not None:
        if command or url or sse or header or env or cwd:
            fail("--config serves the servers of a client config: give no -- CMD, --url, "
                 "--sse, --header, --env or --cwd with it",
                 "e.g. schema-compat proxy --config .mcp.json --provider openai")
        from ..requests import PREFIXES

        if name_prefix not in PREFIXES:
            fail(f"unknown --name-prefix {name_prefix!r}", f"one of: {', '.join(PREFIXES)}")
        from ..profiles.clients import CLIENTS, get_client

        chosen = get_client(client)
        if client is not None and chosen is None:
            fail(f"unknown --client {client!r}", f"one of: {', '.join(CLIENTS)}")
        if chosen is not None and name_prefix == NAME_PREFIX.default:
            name_prefix = chosen.name_prefix  # how the client names tools
        from ..proxy.gateway import GatewayOptions
        from ..proxy.gateway_serve import serve_config
        from ..proxy.run import exit_now

        gateway = GatewayOptions(provider.lower(), timeout=timeout,
                                 lossless_only=lossless_only, name_prefix=name_prefix,
                                 strict_first=strict_first or (), include=tool or (),
                                 exclude=exclude_tool or (),
                                 client=chosen.name if chosen else None)
        exit_now(serve_config(config, name or [], gateway, log))
        return
    gateway_only = {"--name": name, "--strict-first": strict_first, "--tool": tool,
                    "--exclude-tool": exclude_tool,
                    "--name-prefix": name_prefix != NAME_PREFIX.default,
                    "--client": client is not None}
    if any(gateway_only.values()):
        fail(f"{', '.join(k for k, v in gateway_only.items() if v)} apply to --config only",
             "add --config FILE")
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
    from ..proxy.run import exit_now, start

    started = start(spec, log)
    exit_now(started if isinstance(started, int) else
             started.serve(provider.lower(), timeout, lossless_only=lossless_only))
