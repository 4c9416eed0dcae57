"""`schema-compat init`: set up a server's repository so that CI checks its tools.

A server author runs it once in their repository. It takes a snapshot of the server's tools
live (the listing exactly as the server serves it, not transformed, so the snapshot changes
only when the server does), from the command that starts it over stdio (--server), its
streamable HTTP or legacy SSE address (--url, --sse) or a client config naming it (--config),
and writes what checks that snapshot from then on:

- `.schema-compat.toml`, the provider(s) to check against (what `check` reads);
- the snapshot, `mcp-tools.json` (one per server when a client config names several);
- `.pre-commit-config.yaml` with the `schema-compat` hook on the snapshot;
- `.github/workflows/schema-compat.yml`, which checks the snapshot on every push and pull
  request and uploads the findings to GitHub code scanning as SARIF, then runs `breaking`
  from the snapshot as committed to the server as the commit builds it, started or reached
  with the options init was given (a value of --env or --header is read from a repository
  secret, never written in the file), so a change that breaks callers fails the job.

A file that is already there is never touched: it is named as skipped (a server whose
snapshot exists is not even started), so running `init` again changes nothing. When the
flags say what to do, nothing is asked; on a terminal, a missing server command or provider
is asked for. Nothing is written when the server cannot be listed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from typing import NamedTuple, NoReturn

from ..options import TIMEOUT
from ..profiles import DEFAULT_PROFILE
from .exits import EXIT_OK, fail, print_errors
from .inputs import LiveOpts, check_live, load_inputs, split_pair
from .providers import provider_names

SETTINGS = ".schema-compat.toml"
PRE_COMMIT = ".pre-commit-config.yaml"
WORKFLOW = ".github/workflows/schema-compat.yml"


class InitOptions(NamedTuple):
    """Every option of `init` (options.py holds their flags, defaults and help)."""

    provider: str | None
    server: str | None
    env: list[str] | None
    cwd: str | None
    url: str | None
    sse: str | None
    header: list[str] | None
    config: str | None
    name: list[str] | None
    snapshot: str
    install_from: str | None
    directory: str
    timeout: float


class Planned(NamedTuple):
    """One file `init` would write: where (relative to the repository) and what."""

    path: str
    text: str


def run_init(options: InitOptions) -> int:
    """Write the files that are not there yet; the exit status (2 on bad usage or when the
    server cannot be listed, with nothing written). What the flags leave out is asked for on a
    terminal only."""
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    provider, server, config = options.provider, options.server, options.config
    given = [flag for flag, value in (("--server", server), ("--url", options.url),
                                      ("--sse", options.sse), ("--config", config)) if value]
    if len(given) > 1:
        fail(f"give one of --server, --url, --sse or --config, not {' and '.join(given)}",
             "init sets up one server's repository")
    if not given:
        if not interactive:
            fail("init needs the server: --server \"CMD ARGS\" (the command that starts it "
                 "over stdio), --url URL (streamable HTTP), --sse URL (legacy SSE) or "
                 "--config FILE (an MCP client config naming it)",
                 'e.g. schema-compat init --provider gemini --server "python server.py"')
        server = _ask("Command that starts your MCP server over stdio (e.g. python server.py)")
    if provider is None:
        provider = _ask("Provider to check against (see `schema-compat profiles`)",
                        DEFAULT_PROFILE) if interactive else DEFAULT_PROFILE
    _check_provider(provider)
    check_live(None, LiveOpts(server=[server] if server else None, env=options.env,
                              cwd=options.cwd, url=[options.url] if options.url else None,
                              header=options.header, sse=[options.sse] if options.sse else None,
                              config=[config] if config else None, name=options.name))
    root = options.directory
    if not os.path.isdir(root):
        fail(f"--dir {root}: no such directory")
    # where CI installs schema-compat from: needed only for files still to be written; when
    # it cannot be told, the workflow says to fill it in (and the hook runs the one on PATH)
    needs_source = not all(os.path.exists(os.path.join(root, f)) for f in (PRE_COMMIT, WORKFLOW))
    source = options.install_from or (detect_install_source() if needs_source else "") or ""

    snapshots = _snapshot_plan(options, server, config)
    _refuse_outside(root, [SETTINGS, *(path for path, _ in snapshots), PRE_COMMIT, WORKFLOW])
    taken = _take_snapshots(options, server, config,
                            [(path, name) for path, name in snapshots
                             if not os.path.exists(os.path.join(root, path))])
    paths = [path for path, _ in snapshots]
    steps = [breaking_step(options, server, config, path, name) for path, name in snapshots]
    planned = [Planned(SETTINGS, settings_text(provider, paths))]
    planned += [Planned(path, text) for path, text in taken]
    planned += [Planned(PRE_COMMIT, pre_commit_text(paths, source)),
                Planned(WORKFLOW, workflow_text(paths, source, steps))]
    written: list[str] = []
    for item in planned:
        if _write_new(os.path.join(root, item.path), item.text):
            print(f"wrote   {item.path}")
            written.append(item.path)
        else:
            print(f"skipped {item.path} (already there; left as it is)")
    contacted = "contacted" if options.url or options.sse else "started"
    for path in paths:
        if path not in {p for p, _ in taken}:
            print(f"skipped {path} (already there; the server was not {contacted})")
    if not written:
        print("nothing written: every file was already there")
        return EXIT_OK
    if WORKFLOW in written:
        _breaking_hint(steps)
    if PRE_COMMIT not in written:  # the entry to add, last: nothing between it and "next:"
        _hook_hint(os.path.join(root, PRE_COMMIT), pre_commit_text(paths, source))
    if WORKFLOW in written and not source:
        print("schema-compat: warning: cannot tell where CI should install schema-compat "
              "from (this copy was not installed from a git URL): fill in the line marked "
              f"TODO in {WORKFLOW}, or delete the file and run init again with --install-from "
              f"{_PLACEHOLDER}", file=sys.stderr)
    print("next: git add the files written and commit them; `pre-commit install` turns the "
          "hook on, and the workflow runs on the next push")
    return EXIT_OK


def _refuse_outside(root: str, paths: list[str]) -> None:
    """Exit 2, before anything is written or started, when a folder a file would go in
    leads out of the repository through a symlink (a `.github` linked elsewhere): the files
    belong to this repository, and writing them elsewhere would change what it does not own."""
    top = os.path.realpath(root)
    for path in paths:
        full = os.path.join(root, path)
        if os.path.lexists(full):
            continue  # left as it is
        folder = os.path.realpath(os.path.dirname(full))
        if os.path.commonpath([top, folder]) != top:
            fail(f"cannot write {path}: {os.path.dirname(path) or '.'} leads out of the "
                 f"repository (to {folder})", "make it a folder of the repository")


def _breaking_hint(steps: list[BreakingStep]) -> None:
    """What the workflow's `breaking` steps need from the repository's owner: the secrets
    they read, and, for a server started in CI, what it needs installed."""
    secrets = list(dict.fromkeys(name for step in steps for name in step.secrets))
    if secrets:
        print(f"the workflow reads {', '.join(secrets)} from the repository's secrets (the "
              "values of --env and --header are never written in it): add them in the "
              "repository's settings, Secrets and variables > Actions")
    if steps:
        print(f"the workflow's breaking step needs the server in CI: see the comment above "
              f"it in {WORKFLOW}")


def _hook_hint(path: str, text: str) -> None:
    """An existing pre-commit config without the hook: the entry to add to it."""
    try:
        with open(path, encoding="utf-8") as file:
            if "schema-compat" in file.read():
                return
    except (OSError, UnicodeDecodeError):
        return
    entry = text.split("repos:\n", 1)[1]
    print(f"add this entry under `repos:` in {PRE_COMMIT}:\n{entry}", end="")


def _ask(question: str, default: str = "") -> str:
    prompt = f"{question}{f' [{default}]' if default else ''}: "
    try:
        answer = input(prompt).strip()
    except EOFError:
        answer = ""
    answer = answer or default
    if not answer:
        fail("no answer given", "pass it as a flag instead")
    return answer


def _check_provider(provider: str) -> None:
    from ..profiles import PROFILES

    for name in provider_names(provider):
        if name.lower() not in PROFILES:
            fail(f"unknown provider {name!r}", f"choose from: {', '.join(PROFILES)}, or all")


def _snapshot_plan(options: InitOptions, server: str | None, config: str | None
                   ) -> list[tuple[str, str]]:
    """(snapshot path, server name) for each server: one snapshot for --server, --url,
    --sse or a config naming one server, else `mcp-tools.NAME.json` each."""
    one = server or options.url or options.sse  # the server's name is what was given
    if one:
        return [(options.snapshot, one)]
    assert config is not None
    from ..extract.config import ConfigError, load_config

    try:
        specs, errors = load_config(config, options.name)
    except ConfigError as exc:
        fail(exc.error.one_line())
    if errors:
        print_errors(errors)
        fail(f"{config}: {len(errors)} server{'s' if len(errors) > 1 else ''} cannot be set "
             "up", "fix the config, or pick the others with --name")
    if len(specs) == 1:
        return [(options.snapshot, specs[0].name)]
    stem, dot, ext = options.snapshot.rpartition(".")
    return [(f"{stem}.{_safe(s.name)}.{ext}" if dot else f"{options.snapshot}.{_safe(s.name)}",
             s.name) for s in specs]


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "server"


def _take_snapshots(options: InitOptions, server: str | None, config: str | None,
                    wanted: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(path, JSON text) of each wanted snapshot: the server's listing as served."""
    if not wanted:
        return []
    if server:
        live = LiveOpts(server=[server], env=options.env, cwd=options.cwd,
                        timeout=options.timeout)
    elif options.url or options.sse:
        live = LiveOpts(url=[options.url] if options.url else None,
                        sse=[options.sse] if options.sse else None, header=options.header,
                        timeout=options.timeout)
    else:
        live = LiveOpts(config=[config or ""], name=[name for _, name in wanted],
                        timeout=options.timeout)
    loaded, errors = load_inputs(None, live)
    if errors:
        print_errors(errors)
        _nothing_written()
    by_name = {source.label: source for source in loaded}
    out = []
    for path, name in wanted:
        source = by_name.get(name)
        if source is None:
            print(f"schema-compat: error: {name}: no listing came back", file=sys.stderr)
            _nothing_written()
        out.append((path, snapshot_text(source.document)))
    return out


def _nothing_written() -> NoReturn:
    fail("nothing written, since a server could not be listed")


def snapshot_text(document: object) -> str:
    """The listing as JSON text, in the order the server gave it (what `check` reads)."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _write_new(path: str, text: str) -> bool:
    """Create `path` with `text`; False, and nothing touched, when it already exists."""
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    try:
        with open(path, "x", encoding="utf-8", newline="\n") as file:
            file.write(text)
    except FileExistsError:
        return False
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    return True


# --- the files -------------------------------------------------------------------------------


def settings_text(provider: str, snapshots: list[str]) -> str:
    """The settings: the provider(s), and the snapshots as the sources a bare
    `schema-compat check` reads (from this folder, where the file is)."""
    names = provider_names(provider)
    value = (json.dumps(names[0]) if len(names) == 1 and provider.strip().lower() != "all"
             else '"all"' if provider.strip().lower() == "all" else json.dumps(names))
    sources = json.dumps([p.replace(os.sep, "/") for p in snapshots])
    return ("# schema-compat's settings for this repository: `schema-compat check` reads them\n"
            "# (flags win). `schema-compat check --show-config` shows what is in force.\n"
            f"sources = {sources}  # what a bare `schema-compat check` reads\n"
            f"provider = {value}\n"
            "# fail-on = \"warning\"        # also fail on warnings\n"
            "# ignore = [\"NAM003\"]        # rules to leave out\n")


def _files_pattern(paths: list[str]) -> str:
    return "^(" + "|".join(re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", p.replace(os.sep, "/"))
                           for p in paths) + ")$"


def _yaml_quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def git_hook_source(source: str) -> tuple[str, str] | None:
    """`git+URL@REV` as (URL, REV), the form a pre-commit remote hook takes; else None."""
    match = re.fullmatch(r"git\+(\S+?)@([^@/\s]+)", source.split("#", 1)[0])
    if match is None or "://" not in match.group(1):
        return None
    return match.group(1), match.group(2)


def pre_commit_text(paths: list[str], source: str) -> str:
    files = _yaml_quote(_files_pattern(paths))
    head = ("# schema-compat checks the committed snapshot of the server's tools on every\n"
            "# commit that changes it (run `pre-commit install` once to turn it on).\n"
            "repos:\n")
    remote = git_hook_source(source)
    if remote is not None:
        url, rev = remote
        return (head + f"  - repo: {url}\n"
                f"    rev: {_yaml_quote(rev)}\n"
                "    hooks:\n"
                "      - id: schema-compat\n"
                f"        files: {files}\n")
    return (head + "  - repo: local\n"
            "    hooks:\n"
            "      - id: schema-compat\n"
            "        name: schema-compat\n"
            "        entry: schema-compat check\n"
            "        language: system\n"
            "        types: [json]\n"
            f"        files: {files}\n"
            "        require_serial: true\n")


# What the workflow installs when where from is not known: a git URL no host answers to, so
# that a workflow not filled in fails at its install step, and installs nobody's package.
_PLACEHOLDER = "'git+https://HOST/OWNER/schema-compat@TAG'"


class BreakingStep(NamedTuple):
    """The `breaking` run of one snapshot in the workflow: its command line (shell words),
    the secrets its environment reads, and how it gets the server's listing: `server` (it
    starts the --server command), `url` (it reaches a running server) or `config` (as the
    client config says)."""

    snapshot: str
    command: str
    secrets: list[str]
    via: str


def breaking_step(options: InitOptions, server: str | None, config: str | None,
                  snapshot: str, name: str) -> BreakingStep:
    """`schema-compat breaking --against SNAPSHOT` with the live-server options init was
    given, for CI to run from the repository's root: a path init was given (--cwd, --config)
    relative to the repository when it is inside it, and each value of --env and --header
    (and a URL holding credentials or a query) as a variable set from a repository secret,
    so that no token lands in a committed file."""
    secrets: list[str] = []

    def from_secret(key: str, prefix: str = "") -> str:
        var = prefix + (re.sub(r"[^A-Za-z0-9_]+", "_", key).strip("_").upper() or "VALUE")
        var = f"_{var}" if var[0].isdigit() else var
        secrets.append(var)
        return f'"${var}"'

    words = ["schema-compat", "breaking", "--against", shlex.quote(_posix(snapshot))]
    if server:
        words += ["--server", shlex.quote(server)]
        for pair in options.env or []:
            key, _ = split_pair(pair, "=", "--env", "K=V")
            words += ["--env", shlex.quote(f"{key}=") + from_secret(key)]
        if options.cwd:
            words += ["--cwd", shlex.quote(_in_repository(options.cwd, options.directory))]
    elif options.url or options.sse:
        flag, url = ("--url", options.url) if options.url else ("--sse", options.sse or "")
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        words += [flag, from_secret("URL", "MCP_") if parts.query or parts.username
                  else shlex.quote(url)]
        for pair in options.header or []:
            key, _ = split_pair(pair, ":", "--header", "'K: V'")
            words += ["--header", shlex.quote(f"{key}: ") + from_secret(key, "MCP_HEADER_")]
    else:
        import glob

        words += ["--config", shlex.quote(_in_repository(config or "", options.directory)),
                  "--name", shlex.quote(glob.escape(name))]
    if options.timeout != TIMEOUT.default:
        words += ["--timeout", f"{options.timeout:g}"]
    words += ["--format", "github"]
    via = "server" if server else "url" if options.url or options.sse else "config"
    return BreakingStep(snapshot, " ".join(words), list(dict.fromkeys(secrets)), via)


def _posix(path: str) -> str:
    return path.replace(os.sep, "/")


def _in_repository(path: str, root: str) -> str:
    """`path` (as given, from where init runs) relative to the repository's root, where CI
    runs; as given when it is outside the repository."""
    full, top = os.path.abspath(path), os.path.abspath(root)
    if os.path.commonpath([full, top]) != top:
        return path
    return _posix(os.path.relpath(full, top))


# What each kind of `breaking` step needs that init cannot write for it.
_NEEDS = {
    "server": "The server is started here as init started it, from the repository's root:\n"
              "install what it needs in a step before this one (e.g. pip install .).",
    "url": "The server is reached at the URL init was given: it must be up, serving this\n"
           "commit's tools, when this step runs (start it in a step before this one).",
    "config": "The server is started or reached as the client config (committed in the\n"
              "repository) says: install or start what it needs in a step before this one.",
}


def _breaking_yaml(step: BreakingStep) -> str:
    """One `breaking` step: it runs even when `check` failed the job before it (its findings
    are another question), as long as schema-compat was installed."""
    needs = "".join(f"      # {line}\n" for line in _NEEDS[step.via].splitlines())
    env = "".join(f"          {var}: ${{{{ secrets.{var} }}}}\n" for var in step.secrets)
    # a literal block, which keeps the shell's quotes as they are; a command with a line
    # break in it (a quoted one) as a JSON string, which YAML reads as it is
    run = (f"|\n          {step.command}" if "\n" not in step.command
           else json.dumps(step.command))
    return (needs + f"      - name: {_yaml_quote('Breaking changes from ' + step.snapshot)}\n"
            "        if: always() && steps.install.outcome == 'success'\n"
            + (f"        env:\n{env}" if env else "")
            + f"        run: {run}\n")


def workflow_text(paths: list[str], source: str, steps: list[BreakingStep]) -> str:
    """The workflow; with no `source`, its install line is a placeholder marked TODO."""
    install = shlex.quote(source) if source else (
        f"{_PLACEHOLDER}  # TODO: where CI installs schema-compat from")
    snapshots = " ".join(shlex.quote(_posix(p)) for p in paths)
    breaking = "".join(_breaking_yaml(step) for step in steps)
    return f"""# Checks the committed snapshot of the server's tools ({', '.join(paths)})
# against the providers in .schema-compat.toml; findings go to the Security tab (code
# scanning) and fail the job. Then `schema-compat breaking` compares the snapshot with the
# server as this commit builds it: a change that breaks the callers of the tools the
# snapshot lists fails the job, with each finding as an annotation. When the server's tools
# change on purpose, refresh the snapshot in the same commit: delete it and run
# `schema-compat init` again with the same flags (it writes only what is missing).
name: schema-compat

on:
  push:
  pull_request:

permissions:
  contents: read
  security-events: write  # upload the SARIF report to code scanning

jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: Install schema-compat
        id: install
        run: pipx install {install}
      - name: Check the tools (SARIF)
        id: check
        continue-on-error: true
        run: schema-compat check --format sarif {snapshots} > schema-compat.sarif
      - name: Upload to code scanning
        if: always() && hashFiles('schema-compat.sarif') != ''
        uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: schema-compat.sarif
          category: schema-compat
      - name: Fail on findings
        if: steps.check.outcome == 'failure'
        run: schema-compat check {snapshots}
{breaking}"""


# --- where CI gets schema-compat from --------------------------------------------------------


def detect_install_source() -> str | None:
    """`git+URL@COMMIT` for the copy running now: the git URL and commit pipx or pip
    recorded when it was installed from one, or the remote and commit of the checkout it
    was installed from. None when neither is known."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        text = distribution("schema-compat").read_text("direct_url.json")
    except PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return source_from_direct_url(data) if isinstance(data, dict) else None


def source_from_direct_url(data: dict[str, object]) -> str | None:
    """The install source a PEP 610 `direct_url.json` records, as `git+URL@COMMIT`."""
    url = data.get("url")
    vcs = data.get("vcs_info")
    if not isinstance(url, str):
        return None
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        if not _fetchable(url):  # git+file://: a path on this machine, not CI's
            return None
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        return f"git+{url}@{commit}" if isinstance(commit, str) and commit else f"git+{url}"
    if url.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return git_checkout_source(unquote(urlparse(url).path))
    return None


def git_checkout_source(path: str) -> str | None:
    """`git+REMOTE@HEAD` for a git checkout whose `origin` is a URL CI can fetch."""

    def git(*args: str) -> str:
        try:
            done = subprocess.run(["git", "-C", path, *args], capture_output=True, text=True,
                                  timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return ""
        return done.stdout.strip() if done.returncode == 0 else ""

    remote, commit = git("remote", "get-url", "origin"), git("rev-parse", "HEAD")
    scp = re.fullmatch(r"[\w.-]+@([\w.-]+):(.+)", remote)
    if scp:  # git@github.com:owner/repo.git: CI fetches over https
        remote = f"https://{scp.group(1)}/{scp.group(2)}"
    if not (remote and commit) or not _fetchable(remote):
        return None
    return f"git+{remote}@{commit}"


def _fetchable(url: str) -> bool:
    """A git URL another machine (CI) can fetch: not a local path or file:// URL."""
    return re.match(r"(https?|ssh|git)://", url) is not None
