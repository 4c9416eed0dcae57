"""Capture real servers' tools at two released versions each, for `breaking`'s tests.

Each pinned version is installed into .cache/versions/ (npm packages into a prefix folder of
their own, PyPI packages into a venv of their own), started offline with dummy tokens, and
listed with the official Python client (`py_list.py`, the `mcp` SDK). The raw `tools/list`
result is written to tests/data/versions/<server>@<version>.json, and what was installed
(the server's own version, the SDK beneath it, the protocol negotiated) to
tests/data/versions/manifest.json with the pairs the tests compare. The captured files are
the test data: the tests never re-capture (tests/data/versions/README.md).

    .venv/bin/python interop/capture_versions.py            # every pin, installs reused
    .venv/bin/python interop/capture_versions.py server-memory mcp-server-time   # some

Exits 1, naming the server and version, when one cannot be installed or listed.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
CACHE = REPO_ROOT / ".cache" / "versions"
OUT = REPO_ROOT / "tests" / "data" / "versions"
PY_LIST = REPO_ROOT / "interop" / "py_list.py"
TIMEOUT = 90.0  # seconds for one server to start and list its tools


@dataclass(frozen=True)
class Pin:
    """One server, the released versions compared (old to new, in order), and how it starts.

    `args`/`env` values may hold "{tmp}", a scratch folder made for the run; `extra` holds
    packages installed beside the server where a release needs them: an old PyPI server's
    SDK bound, or the zod 3 an old npm server imports without declaring it (npm would give
    it zod 4, which zod-to-json-schema 3 turns into empty schemas).
    """

    registry: str  # "npm" or "pypi"
    package: str
    versions: tuple[str, ...]
    bin: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    extra: dict[str, tuple[str, ...]] = field(default_factory=dict)  # version -> pins

    @property
    def name(self) -> str:
        return self.package.rsplit("/", 1)[-1]


MCP1 = ("mcp<2",)
ZOD3 = ("zod@3.25.76",)
PINS = [
    Pin("npm", "@modelcontextprotocol/server-everything",
        ("0.6.2", "2025.4.8", "2026.1.26", "2026.8.31"),
        "mcp-server-everything"),
    Pin("npm", "@modelcontextprotocol/server-filesystem", ("0.6.2", "2025.7.1", "2026.1.14",
                                                         "2026.8.31"),
        "mcp-server-filesystem", args=("{tmp}",), extra={"0.6.2": ZOD3, "2025.7.1": ZOD3}),
    Pin("npm", "@modelcontextprotocol/server-memory", ("0.6.2", "2026.1.26", "2026.8.31"),
        "mcp-server-memory", env={"MEMORY_FILE_PATH": "{tmp}/memory.jsonl"}),
    Pin("npm", "@modelcontextprotocol/server-sequential-thinking",
        ("0.6.2", "2025.12.18", "2026.8.31"),
        "mcp-server-sequential-thinking"),
    Pin("npm", "@modelcontextprotocol/server-github", ("0.6.2", "2025.4.8"),
        "mcp-server-github", env={"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_dummy"},
        extra={"0.6.2": ZOD3}),
    Pin("npm", "@modelcontextprotocol/server-slack", ("2025.1.17", "2025.4.25"),
        "mcp-server-slack", env={"SLACK_BOT_TOKEN": "xoxb-dummy", "SLACK_TEAM_ID": "T00000000"}),
    Pin("npm", "@modelcontextprotocol/server-puppeteer", ("0.6.2", "2025.5.12"),
        "mcp-server-puppeteer"),
    Pin("npm", "@notionhq/notion-mcp-server", ("1.8.0", "2.5.2"), "notion-mcp-server",
        env={"NOTION_TOKEN": "ntn_dummy"}),
    Pin("npm", "@upstash/context7-mcp", ("1.0.33", "4.1.1"), "context7-mcp"),
    Pin("npm", "firecrawl-mcp", ("1.12.0", "3.11.0", "3.26.0"), "firecrawl-mcp",
        env={"FIRECRAWL_API_KEY": "fc-dummy"}),
    Pin("pypi", "mcp-server-time", ("0.6.2", "2026.1.26", "2026.10.19"), "mcp-server-time",
        args=("--local-timezone", "UTC"), extra={"0.6.2": MCP1, "2026.1.26": MCP1}),
    Pin("pypi", "mcp-server-fetch", ("0.6.2", "2026.6.4", "2026.10.24"), "mcp-server-fetch",
        extra={"0.6.2": MCP1, "2026.6.4": MCP1}),
    Pin("pypi", "mcp-server-git", ("0.6.2", "2026.1.14", "2026.10.19"), "mcp-server-git",
        extra={"0.6.2": MCP1, "2026.1.14": MCP1}),
    Pin("pypi", "mcp-server-sqlite", ("0.6.2", "2025.4.25"), "mcp-server-sqlite",
        args=("--db-path", "{tmp}/capture.db"), extra={"0.6.2": MCP1, "2025.4.25": MCP1}),
]


class Failed(Exception):
    """A server that could not be installed or listed: the message names it."""


def _run(argv: list[str], what: str, env: dict[str, str] | None = None,
         cwd: Path | None = None, timeout: float = 600) -> str:
    """Run `argv` in a process group of its own, killed whole when done or past `timeout`."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise Failed(f"{what}: no result within {timeout:g}s") from None
    finally:
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    if proc.returncode != 0:
        tail = " | ".join(line for line in err.splitlines() if line.strip())[-600:]
        raise Failed(f"{what}: exit {proc.returncode}: {tail}")
    return out


def install(pin: Pin, version: str) -> tuple[Path, dict[str, str]]:
    """The server's executable, installed once, and the versions that matter beneath it."""
    where = CACHE / pin.registry / f"{pin.name}@{version}"
    stamp = where / ".installed"
    what = f"{pin.package}@{version}"
    if not stamp.exists():
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        if pin.registry == "npm":
            _run(["npm", "install", "--prefix", str(where), "--ignore-scripts", "--no-audit",
                  "--no-fund", "--save-exact", f"{pin.package}@{version}",
                  *pin.extra.get(version, ())], f"install {what}")
        else:
            _run([sys.executable, "-m", "venv", str(where)], f"venv for {what}")
            _run([str(where / "bin" / "python"), "-m", "pip", "install", "--quiet",
                  f"{pin.package}=={version}", *pin.extra.get(version, ())], f"install {what}")
        stamp.touch()
    if pin.registry == "npm":
        exe = where / "node_modules" / ".bin" / pin.bin
        deps = {p: v for p in (pin.package, "@modelcontextprotocol/sdk",
                               "@modelcontextprotocol/server", "zod")
                if (v := _npm_version(where, p))}
    else:
        exe = where / "bin" / pin.bin
        freeze = _run([str(where / "bin" / "python"), "-m", "pip", "freeze"], f"freeze {what}")
        pins = dict(line.split("==", 1) for line in freeze.splitlines() if "==" in line)
        deps = {p: pins[p] for p in (pin.package, "mcp", "pydantic") if p in pins}
    if deps.get(pin.package) != version:
        raise Failed(f"{what}: installed {deps.get(pin.package)} instead")
    if not exe.exists():
        raise Failed(f"{what}: {exe} is missing after the install")
    return exe, deps


def _npm_version(prefix: Path, package: str) -> str:
    found = prefix / "node_modules" / package / "package.json"
    if not found.exists():
        return ""
    return str(json.loads(found.read_text(encoding="utf-8"))["version"])


def capture(pin: Pin, version: str) -> dict[str, Any]:
    exe, deps = install(pin, version)
    with tempfile.TemporaryDirectory(prefix="capture-") as tmp:
        args = [a.replace("{tmp}", tmp) for a in pin.args]
        env = {**os.environ, **{k: v.replace("{tmp}", tmp) for k, v in pin.env.items()}}
        out = _run([sys.executable, str(PY_LIST), "--stdio", str(exe), *args],
                   f"list {pin.package}@{version}", env=env, cwd=Path(tmp), timeout=TIMEOUT)
    listing = json.loads(out)
    result = {"tools": listing["tools"]}  # the tools/list result, every page joined
    path = OUT / f"{pin.name}@{version}.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return {"file": path.name, "registry": pin.registry, "package": pin.package,
            "version": version, "installed": deps, "server": listing.get("server"),
            "protocolVersion": listing.get("protocolVersion"),
            "command": [pin.bin, *pin.args], "env": sorted(pin.env),
            "tools": len(listing["tools"])}


def main(argv: list[str]) -> int:
    chosen = [p for p in PINS if not argv or p.name in argv or p.package in argv]
    OUT.mkdir(parents=True, exist_ok=True)
    manifest_path = OUT / "manifest.json"
    manifest: dict[str, Any] = json.loads(manifest_path.read_text(encoding="utf-8")) \
        if manifest_path.exists() else {"captures": {}, "pairs": []}
    failed = 0
    for pin in chosen:
        for version in pin.versions:
            try:
                entry = capture(pin, version)
            except Failed as exc:
                print(f"capture_versions: {exc}", file=sys.stderr)
                failed += 1
                continue
            manifest["captures"][entry["file"]] = entry
            print(f"{entry['file']}: {entry['tools']} tools", flush=True)
    # the pairs: each pin's consecutive versions, where both were captured (the pins not
    # captured in this run keep the pairs they had)
    names = {f"{pin.name}@" for pin in chosen}
    pairs = {tuple(p) for p in manifest["pairs"] if p[0].split("@")[0] + "@" not in names}
    for pin in chosen:
        files = [f"{pin.name}@{v}.json" for v in pin.versions]
        pairs |= {(a, b) for a, b in itertools.pairwise(files)
                  if a in manifest["captures"] and b in manifest["captures"]}
    manifest["pairs"] = sorted([list(p) for p in pairs])
    manifest["captures"] = dict(sorted(manifest["captures"].items()))
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
