"""Live listings for the page: the servers of the user's client configs, listed on request.

The page can only name a server that a config file found here holds (the config's path, as
this module listed it, and the server's exact name); it never sends a command line, a URL or
an environment, so a request that got past the guard still cannot start anything the user
did not configure. A listing runs in a thread of its own; the page polls its job for the
progress line (`fetch_servers`' spinner text) and then the matrix.
"""

from __future__ import annotations

import os
import secrets
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from ..extract.config import ConfigError, ServerSpec, discover_configs, load_config
from .analysis import InputError, Workspace, matrix

__all__ = ["Configs", "LiveServers", "user_configs"]


def user_configs(home: str | None = None, environ: dict[str, str] | None = None) -> list[str]:
    """The user-level client configs that exist: Claude Desktop, Claude Code, Cursor,
    VS Code and Gemini CLI, where each keeps its file on this platform."""
    env = dict(os.environ) if environ is None else environ
    home = home if home is not None else os.path.expanduser("~")
    config_home = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    if sys.platform == "darwin":
        app = os.path.join(home, "Library", "Application Support")
    elif sys.platform == "win32":
        app = env.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
    else:
        app = config_home
    candidates = [
        os.path.join(app, "Claude", "claude_desktop_config.json"),
        os.path.join(home, ".claude.json"),
        os.path.join(home, ".cursor", "mcp.json"),
        os.path.join(app, "Code", "User", "mcp.json"),
        os.path.join(home, ".gemini", "settings.json"),
    ]
    return [p for p in candidates if os.path.isfile(p)]


class Configs:
    """The config files the page may pick servers from: those in the project folder
    (`discover_configs`), the user's own, and any given with `serve --config`. Found again
    on every request, so an edited config shows without a restart."""

    def __init__(self, directory: str, extra: Sequence[str] = (), *,
                 home: str | None = None) -> None:
        self.directory = os.path.abspath(directory)
        self.extra = [os.path.abspath(p) for p in extra]
        self.home = home

    def paths(self) -> list[str]:
        found = [os.path.abspath(os.path.join(self.directory, p))
                 for p in discover_configs(self.directory)]
        found += user_configs(self.home)
        found += self.extra
        return list(dict.fromkeys(found))

    def listing(self) -> dict[str, Any]:
        """Every config and its servers as the page shows them: names and kinds, the
        command's program or the URL; no arguments, environment or headers (secrets live
        there)."""
        out = []
        for path in self.paths():
            entry: dict[str, Any] = {"path": path, "servers": [], "errors": []}
            try:
                specs, errors = load_config(path)
            except ConfigError as exc:
                entry["errors"].append(exc.error.one_line())
                out.append(entry)
                continue
            except OSError as exc:
                entry["errors"].append(f"{path}: {exc.strerror or exc}")
                out.append(entry)
                continue
            entry["servers"] = [{"name": s.name, "kind": s.kind,
                                 "what": os.path.basename(s.command) if s.kind == "stdio"
                                 else s.url.split("?", 1)[0]} for s in specs]
            entry["errors"] = [e.one_line() for e in errors]
            out.append(entry)
        return {"directory": self.directory, "configs": out}

    def spec(self, path: str, name: str) -> ServerSpec:
        """The server `name` of config `path`, both exactly as `listing` gave them;
        InputError for anything else."""
        if path not in self.paths():
            raise InputError(f"{path!r} is not one of the client configs found here")
        try:
            specs, errors = load_config(path)
        except ConfigError as exc:
            raise InputError(exc.error.one_line()) from None
        for spec in specs:
            if spec.name == name:
                return spec
        for error in errors:
            if error.source == name:
                raise InputError(error.one_line())
        raise InputError(f"{path}: no server named {name!r}")


class Job:
    """One live listing: its progress line while it runs, then its matrix or its error."""

    def __init__(self, job_id: str, name: str) -> None:
        self.job_id = job_id
        self.name = name
        self.started = time.monotonic()
        self.progress = f"Starting {name}"
        self.done = False
        self.error: str | None = None
        self.result: dict[str, Any] | None = None

    def state(self) -> dict[str, Any]:
        return {"job": self.job_id, "server": self.name, "done": self.done,
                "progress": self.progress, "error": self.error,
                "elapsed": round(time.monotonic() - self.started, 1),
                "matrix": self.result}


class LiveServers:
    """What the page's live routes need (api.Live): the configs' servers, and the listings
    the page started, each in a thread of its own."""

    def __init__(self, configs: Configs, workspace: Workspace, timeout: float = 30.0) -> None:
        self.configs = configs
        self._workspace = workspace
        self._timeout = timeout
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def listing(self) -> dict[str, Any]:
        return self.configs.listing()

    def start(self, config: str, server: str) -> dict[str, Any]:
        spec = self.configs.spec(config, server)
        job = Job(secrets.token_hex(8), spec.name)
        with self._lock:
            self._jobs[job.job_id] = job
        threading.Thread(target=self._run, args=(job, spec), daemon=True,
                         name=f"list {spec.name}").start()
        return job.state()

    def job(self, job_id: str) -> dict[str, Any] | None:
        with self._lock:
            job = self._jobs.get(job_id)
        return None if job is None else job.state()

    def _run(self, job: Job, spec: ServerSpec) -> None:
        def progress(line: str) -> None:
            job.progress = line

        try:
            from ..extract.starting import fetch_servers

            loaded, errors = fetch_servers([spec], self._timeout, progress=progress)
            if not loaded:
                job.error = errors[0].one_line() if errors else f"{spec.name}: no listing"
                return
            job.progress = f"Checking {len(loaded[0].tools)} tools"
            job.result = matrix(self._workspace.add(loaded[0], errors))
        except ImportError as exc:
            job.error = (f"live servers need the MCP SDK, which is not installed ({exc}): "
                         "install the live extra")
        except Exception as exc:  # the page shows it; the server stays up
            job.error = f"{spec.name}: {type(exc).__name__}: {exc}"
        finally:
            job.done = True
