"""MCP client configurations: which servers a user runs, and how to start or reach each.

Understood: Claude Desktop and Claude Code (`mcpServers`, `.mcp.json`), Cursor
(`.cursor/mcp.json`), VS Code (`.vscode/mcp.json`: `servers`, `inputs`, JSON with comments)
and Gemini CLI (`.gemini/settings.json`: `command`, `url` for SSE, `httpUrl` for streamable
HTTP). `${env:VAR}`, `${VAR}` and `${VAR:-default}` are expanded from the environment; a
value only an interactive prompt could supply (`${input:...}`, `promptString`) is an error on
that server, never a prompt. Pure standard library: nothing here starts a server.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..model import SourceError

__all__ = ["CONFIG_CANDIDATES", "ConfigError", "ServerError", "ServerSpec", "discover_configs",
           "load_config", "parse_command", "resolve_command", "server_environment", "signal_group"]

Kind = Literal["stdio", "http", "sse"]

# Looked for, in this order, when `check` is given no SOURCE.
CONFIG_CANDIDATES: tuple[str, ...] = (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json",
                                      ".gemini/settings.json")

_VAR = re.compile(r"\$\{([^}]*)\}")
_HTTP_TYPES = {"http", "streamable-http", "streamablehttp", "streamable_http"}


# The project is installed from its checkout (or a git URL), not from a package index.
LIVE_EXTRA_HINT = ("install the live extra, in the schema-compat checkout: pipx install "
                   "--force '.[live]', or pip install '.[live]' into the environment it runs "
                   "from")


@dataclass(frozen=True)
class ServerSpec:
    """One live server: a stdio command, or a URL (streamable HTTP or SSE)."""

    name: str
    kind: Kind
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)


def server_environment(spec: ServerSpec, environ: Mapping[str, str] | None = None
                       ) -> dict[str, str]:
    """The environment a stdio server starts in: the user's own, with the spec's `env`
    (`--env`, or the config's `env` block) on top.

    A server run by hand, or by the MCP clients users run, sees the whole environment: API
    keys, `SSL_CERT_FILE`, proxies. The SDK's default keeps only HOME, PATH and a few more,
    which makes servers fail for reasons the user cannot see.
    """
    base = os.environ if environ is None else environ
    return {**base, **spec.env}


def signal_group(pid: int, signum: int) -> bool:
    """Signal the process group `pid` leads (a stdio server is started in a session of its
    own, on POSIX); whether any of it was still there."""
    try:
        os.killpg(pid, signum)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: a member we may not signal; it is there
        pass
    return True


class ServerError(Exception):
    """A server that cannot be set up from its config entry, started, or listed: what is
    wrong, and how to fix it."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


def resolve_command(spec: ServerSpec, environ: Mapping[str, str]) -> str:
    """The command to start, checked first (looked up on the PATH of `environ`, the
    environment it will run in), so that a typo reads as one, not as a server that died."""
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        raise ServerError(f"working directory {spec.cwd} does not exist",
                          "fix --cwd (or the server's cwd in the config)")
    command = spec.command
    if os.sep in command:
        where = command if os.path.isabs(command) or spec.cwd is None else \
            os.path.join(spec.cwd, command)
        if not os.path.exists(where):
            raise ServerError(f"command not found: {command}",
                              "check the path, or install the server")
        if not os.access(where, os.X_OK) or os.path.isdir(where):
            raise ServerError(f"command is not executable: {command}",
                              "check its permissions (chmod +x)")
        return command
    found = shutil.which(command, path=environ.get("PATH", os.defpath))
    if found is None:
        raise ServerError(f"command not found: {command}", "install it, or give its full path")
    return found


class ConfigError(ValueError):
    """The whole config file is unusable (unreadable, not JSON, no servers)."""

    def __init__(self, error: SourceError) -> None:
        super().__init__(error.one_line())
        self.error = error


def parse_command(text: str) -> tuple[str, tuple[str, ...]]:
    """`--server "CMD ARGS"` split as a POSIX shell would (quotes kept together)."""
    try:
        parts = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"cannot split --server {text!r}: {exc}") from None
    if not parts:
        raise ValueError("--server needs a command")
    return parts[0], tuple(parts[1:])


def _strip_jsonc(text: str) -> str:
    """Drop // and /* */ comments and trailing commas, as VS Code's parser allows."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == '"':
                in_string = False
            i += 1
        elif ch == '"':
            in_string = True
            out.append(ch)
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(ch)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def _read(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(SourceError(path, "no such file", "check the --config path")) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(SourceError(path, f"cannot read the config: {reason}")) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        try:
            return json.loads(_strip_jsonc(text))
        except json.JSONDecodeError as exc:
            raise ConfigError(SourceError(
                path, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                "fix the config file")) from None


def _expander(environ: Mapping[str, str], base: str, prompted: set[str]) -> Any:
    def expand(value: str, where: str) -> str:
        def one(match: re.Match[str]) -> str:
            body = match.group(1)
            if body.startswith("input:"):
                name = body[len("input:"):]
                raise ServerError(
                    f"{where} needs ${{input:{name}}}, which only an interactive prompt "
                    "can supply",
                    "put the value in the config (or an environment variable) and "
                    "reference it as ${env:VAR}")
            if body in ("workspaceFolder", "workspaceRoot"):
                return base
            if body == "userHome":
                return os.path.expanduser("~")
            if body.startswith("env:"):
                body = body[len("env:"):]
            name, sep, default = body.partition(":-")
            if name in environ:
                return environ[name]
            if sep:
                return default
            if name in prompted:
                raise ServerError(f"{where} needs {name}, which only an interactive prompt "
                                  "can supply", f"set {name} in the environment")
            raise ServerError(f"{where} uses ${{{match.group(1)}}} but {name} is not set",
                              f"export {name}=... before running schema-compat")

        return _VAR.sub(one, value)

    return expand


def _strings(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ServerError(f'"{what}" must be a list of strings')
    return list(value)


def _mapping(value: Any, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ServerError(f'"{what}" must be an object of strings')
    out = {}
    for key, item in value.items():
        if not isinstance(item, str):
            # Claude, Cursor and VS Code reject a number or true here too: each value is the
            # text a variable or header is set to, written as a JSON string
            example = json.dumps(json.dumps(item)) if isinstance(item, (int, float, bool)) \
                else '"..."'
            raise ServerError(f'"{what}.{key}" must be a string, not {_json_type(item)}',
                              f"write it as {example}")
        out[key] = item
    return out


def _json_type(value: Any) -> str:
    """The JSON type of a value, for a message: a number, true, an object..."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return "a number"
    return "an object" if isinstance(value, dict) else "a list" if isinstance(value, list) \
        else type(value).__name__


def _text_field(entry: dict[str, Any], key: str, what: str) -> str | None:
    """`entry[key]` when it is a non-empty string, None when the entry has no such key; a
    key there with another value is an error naming it (not "the server has neither")."""
    if key not in entry:
        return None
    value = entry[key]
    if not isinstance(value, str):
        raise ServerError(f'"{key}" must be a string, not {_json_type(value)}', what)
    if not value:
        raise ServerError(f'"{key}" is empty', what)
    return value


def _server(name: str, entry: Any, *, gemini: bool, base: str, environ: Mapping[str, str],
            prompted: set[str]) -> ServerSpec:
    if not isinstance(entry, dict):
        raise ServerError("the server entry is not an object")
    expand = _expander(environ, base, prompted)
    kind_field = str(entry.get("type") or entry.get("transport") or "").lower()
    env = {k: expand(v, f"env.{k}") for k, v in _mapping(entry.get("env"), "env").items()}
    headers = {k: expand(v, f"headers.{k}")
               for k, v in _mapping(entry.get("headers"), "headers").items()}
    http_url = _text_field(entry, "httpUrl", "give the server's streamable HTTP URL")
    if http_url is not None:
        return ServerSpec(name, "http", url=expand(http_url, "httpUrl"), headers=headers)
    url_key = next((k for k in ("url", "serverUrl") if entry.get(k) is not None), "url")
    url = None if "command" in entry else _text_field(
        entry, url_key, "give the server's URL, e.g. http://127.0.0.1:8000/mcp")
    if url is not None:
        if kind_field == "sse" or (gemini and kind_field not in _HTTP_TYPES):
            kind: Kind = "sse"
        elif kind_field in _HTTP_TYPES or not kind_field:
            kind = "http"
        else:
            raise ServerError(f'unknown transport type "{kind_field}"',
                              'use "stdio", "http" or "sse"')
        return ServerSpec(name, kind, url=expand(url, "url"), headers=headers)
    command = _text_field(entry, "command",
                          'give the program that starts the server; its arguments go in "args"')
    if command is None:
        raise ServerError('the server has neither "command" nor "url"',
                          'give "command" (stdio) or "url"')
    args = tuple(expand(a, "args") for a in _strings(entry.get("args"), "args"))
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise ServerError('"cwd" must be a string')
    if isinstance(cwd, str):
        cwd = expand(cwd, "cwd")
        cwd = cwd if os.path.isabs(cwd) else os.path.join(base, cwd)
    return ServerSpec(name, "stdio", command=expand(command, "command"), args=args, env=env,
                      cwd=cwd)


def _project_dir(path: str) -> str:
    """The folder `${workspaceFolder}` and relative `cwd`s mean: the project, not .vscode/."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.basename(folder) in (".vscode", ".cursor", ".gemini"):
        return os.path.dirname(folder)
    return folder


def load_config(path: str, names: Sequence[str] | None = None,
                environ: Mapping[str, str] | None = None
                ) -> tuple[list[ServerSpec], list[SourceError]]:
    """The servers of one client config; a server that cannot be set up is an error entry.

    Raises ConfigError when the file itself is unusable or `names` matches no server.
    """
    import fnmatch

    environ = os.environ if environ is None else environ
    document = _read(path)
    if not isinstance(document, dict):
        raise ConfigError(SourceError(path, "not an MCP client config: expected a JSON object",
                                      'give a file with "mcpServers" or "servers"'))
    servers = document.get("mcpServers")
    if servers is None:
        servers = document.get("servers")
    if servers is None and isinstance(document.get("mcp"), dict):  # VS Code settings.json
        servers = document["mcp"].get("servers")
        document = document["mcp"]
    if not isinstance(servers, dict):
        raise ConfigError(SourceError(
            path, 'not an MCP client config: no "mcpServers" or "servers" object',
            "Claude, Cursor and Gemini use mcpServers; VS Code uses servers"))
    prompted = {str(i.get("id")) for i in document.get("inputs") or [] if isinstance(i, dict)}
    gemini = os.path.basename(path) == "settings.json" or any(
        isinstance(e, dict) and "httpUrl" in e for e in servers.values())
    chosen = list(servers)
    if names:
        chosen = [n for n in servers if any(fnmatch.fnmatchcase(n, p) for p in names)]
        if not chosen:
            raise ConfigError(SourceError(
                path, f"no server named {' '.join(names)}",
                f"servers here: {', '.join(servers) or 'none'}"))
    base = _project_dir(path)
    specs: list[ServerSpec] = []
    errors: list[SourceError] = []
    for name in chosen:
        entry = servers[name]
        if isinstance(entry, dict) and entry.get("disabled") is True and not names:
            continue
        try:
            specs.append(_server(name, entry, gemini=gemini, base=base, environ=environ,
                                 prompted=prompted))
        except ServerError as exc:
            errors.append(SourceError(name, exc.message, exc.hint))
    return specs, errors


def client_of(path: str) -> str:
    """The client a config is for, in a word: `vscode`, `cursor`, `gemini` for the configs
    in their folders, else the file's name (`.mcp.json`)."""
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    if folder in (".vscode", ".cursor", ".gemini"):
        return folder[1:]
    return os.path.basename(path)


def discover_configs(directory: str = ".") -> list[str]:
    """The client configs present in `directory`, in CONFIG_CANDIDATES order."""
    return [os.path.join(directory, c) if directory != "." else c
            for c in CONFIG_CANDIDATES if os.path.isfile(os.path.join(directory, c))]
