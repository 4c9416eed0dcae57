"""`schema-compat init` on a server author's repository, with the example server started
live (examples/fs_server.py, as tests/test_extract_live.py starts it; where only a server's
listing matters, its listing served without the SDK, `LISTED`), run as the installed command
where that is what is tested (the module's repository, the workflow's steps, pre-commit, a
terminal) and in-process elsewhere (`here`), which spares each run the interpreter's start-up
and the MCP SDK's import; the servers are processes of their own either way.

What it writes is used the way it will be: the settings by `check`, the workflow's shell
steps run here in order, the pre-commit config validated and run by pre-commit itself.
"""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from inprocess import cli_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
COMMAND = str(BIN / "schema-compat")
# The console script runs the tree under test (the compiled copy under `make test-compiled`),
# not whatever the environment's editable install points at.
_TREE = os.pathsep.join([str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
EXAMPLE = REPO_ROOT / "examples" / "fs_server.py"
SERVER = " ".join(shlex.quote(str(p)) for p in (sys.executable, EXAMPLE))
# The example's listing from a server without the SDK (tests/servers/listing_server.py): for
# the tests of what init does with a listing, spared the SDK's import (most of a second of
# CPU) per start; the module's repository is made with the example itself.
LISTING_SERVER = REPO_ROOT / "tests" / "servers" / "listing_server.py"
LISTED = " ".join(shlex.quote(str(p)) for p in (sys.executable, LISTING_SERVER))
CAPTURE = REPO_ROOT / "tests" / "data" / "corpus" / "servers" / "fs-mcp-repro-mcp-sdk.json"
SOURCE = "git+https://example.com/org/schema-compat@0123abc"
FILES = [".schema-compat.toml", "mcp-tools.json", ".pre-commit-config.yaml",
         ".github/workflows/schema-compat.yml"]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(NO_COLOR="1", COLUMNS="200", PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
               PYTHONPATH=_TREE)
    return env


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMMAND, *args], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=120, check=False, stdin=subprocess.DEVNULL)


def here(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`run`, in-process."""
    return cli_in_process(*args, cwd=cwd)


def init(cwd: Path, *extra: str, server: str = SERVER, source: str = SOURCE,
         installed: bool = False) -> subprocess.CompletedProcess[str]:
    """`init --provider gemini --server SERVER`, in-process or, with `installed`, as the
    installed command."""
    return (run if installed else here)("init", "--provider", "gemini", "--server", server,
                                        "--install-from", source, *extra, cwd=cwd)


def _state(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("server-repo")
    proc = init(root, installed=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert [line.split()[1] for line in proc.stdout.splitlines()
            if line.startswith("wrote")] == FILES
    return root


def test_the_snapshot_is_the_listing_as_the_server_serves_it(repo: Path) -> None:
    snapshot = json.loads((repo / "mcp-tools.json").read_text())
    captured = json.loads(CAPTURE.read_text())
    assert [t["name"] for t in snapshot["tools"]] == [t["name"] for t in captured["tools"]]
    for mine, theirs in zip(snapshot["tools"], captured["tools"], strict=True):
        assert mine["inputSchema"] == theirs["inputSchema"]  # untransformed: $defs and all


def test_check_reads_the_settings_and_finds_what_the_capture_has(repo: Path) -> None:
    shown = here("check", "--show-config", cwd=repo)
    assert re.search(r'^provider = "gemini"\s+# .*\.schema-compat\.toml', shown.stdout,
                     re.M), shown.stdout
    local = here("check", "--json", "mcp-tools.json", cwd=repo)
    there = here("check", "--json", str(CAPTURE), cwd=repo)
    assert local.returncode == there.returncode == 1

    def findings(proc: subprocess.CompletedProcess[str]) -> list[Any]:
        return [(t["name"], sorted((i["code"], i["path"]) for i in t["issues"]))
                for t in json.loads(proc.stdout)["tools"]]

    assert findings(local) == findings(there) != []


def test_a_bare_check_after_init_checks_the_snapshot(repo: Path, tmp_path: Path) -> None:
    """No SOURCE: the settings init wrote name the snapshot, from the repository's root or a
    folder below it, and the findings are those of the snapshot named on the command line.
    A client config in the folder is not what is checked."""
    named = here("check", "--json", "mcp-tools.json", cwd=repo)
    bare = here("check", "--json", cwd=repo)
    assert bare.returncode == named.returncode == 1, bare.stderr
    # the same report but for when it was made (the two runs may fall in two seconds)
    assert {**json.loads(bare.stdout), "generated_at": None} == \
        {**json.loads(named.stdout), "generated_at": None}
    assert [t["name"] for t in json.loads(bare.stdout)["tools"]] == [
        t["name"] for t in json.loads((repo / "mcp-tools.json").read_text())["tools"]]
    assert "checking mcp-tools.json" in bare.stderr
    below = repo / "src" / "deep"
    below.mkdir(parents=True, exist_ok=True)
    (below / ".mcp.json").write_text('{"mcpServers": {"x": {"command": "false"}}}')
    deep = here("check", "--json", cwd=below)
    assert deep.returncode == 1, deep.stderr
    assert [{**t, "source": "../../mcp-tools.json"} for t in json.loads(named.stdout)["tools"]
            ] == json.loads(deep.stdout)["tools"]
    # the text report's hint reads the same snapshot again
    text = here("check", cwd=below)
    assert "`schema-compat transform ../../mcp-tools.json`" in text.stdout, text.stdout


def _steps(repo: Path) -> list[dict[str, Any]]:
    workflow = yaml.safe_load((repo / FILES[3]).read_text())
    # YAML 1.1 reads the `on:` key as True
    assert set(workflow[True]) == {"push", "pull_request"}
    assert workflow["permissions"]["security-events"] == "write"
    [job] = workflow["jobs"].values()
    return list(job["steps"])


def test_the_workflow_installs_from_the_source_given(repo: Path) -> None:
    [install] = [s for s in _steps(repo) if s.get("name") == "Install schema-compat"]
    assert shlex.split(install["run"]) == ["pipx", "install", SOURCE]


def _run_step(step: dict[str, Any], cwd: Path, secrets: dict[str, str] | None = None
              ) -> subprocess.CompletedProcess[str]:
    """A step's `run:` as the runner runs it: bash -e, from the repository's root, with
    schema-compat on PATH and the step's `env:`, each `${{ secrets.NAME }}` in it given
    from `secrets` (empty when not there, as GitHub gives a secret nobody set)."""
    env = _env()
    for key, value in (step.get("env") or {}).items():
        secret = re.fullmatch(r"\$\{\{ secrets\.(\w+) \}\}", value)
        assert secret, f"{key}: {value}"  # nothing but secrets in a step's environment
        env[key] = (secrets or {}).get(secret.group(1), "")
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _breaking_steps(repo: Path) -> list[dict[str, Any]]:
    return [s for s in _steps(repo) if str(s.get("name", "")).startswith("Breaking changes")]


def _runs(condition: str, outcome: dict[str, str], failed: bool) -> bool:
    """A step's `if:` as the runner reads the ones the workflow uses: `always()`, and
    `steps.ID.outcome == 'VALUE'`, joined by &&; none is `success()` (no step failed)."""
    if not condition:
        return not failed
    for part in condition.split(" && "):
        test = re.fullmatch(r"steps\.(\w+)\.outcome == '(\w+)'", part)
        assert part == "always()" or test, part
        if test and outcome.get(test.group(1)) != test.group(2):
            return False
    return True


def test_the_workflows_shell_steps_check_the_snapshot_and_upload_sarif(repo: Path,
                                                                        tmp_path: Path) -> None:
    """The run: steps after the install, in order, as the runner runs them (bash, from the
    repository root, schema-compat on PATH); a step that fails fails the job unless it
    continues on error, and the steps after it run only when their `if:` says so."""
    steps = _steps(repo)
    work = tmp_path / "checkout"
    work.mkdir()
    for name in FILES[:2]:
        (work / name).write_bytes((repo / name).read_bytes())
    outcome = {"install": "success"}  # the install is this environment's: schema-compat on PATH
    failed = False
    ran = []
    out: dict[str, str] = {}
    for step in steps:
        if "run" not in step or step.get("name") == "Install schema-compat":
            continue
        if not _runs(step.get("if", ""), outcome, failed):
            continue
        proc = _run_step(step, work)
        ran.append((step["name"], proc.returncode))
        out[step["name"]] = proc.stdout
        if "id" in step:
            outcome[step["id"]] = "success" if proc.returncode == 0 else "failure"
        failed = failed or (proc.returncode != 0 and not step.get("continue-on-error"))
    # the example's tools have findings: SARIF written, then the job fails with the report;
    # the snapshot is what the server lists, so the breaking step, run all the same, passes
    assert ran == [("Check the tools (SARIF)", 1), ("Fail on findings", 1),
                   ("Breaking changes from mcp-tools.json", 0)]
    # the unchanged snapshot against the same server: no annotation either
    assert not [ln for ln in out["Breaking changes from mcp-tools.json"].splitlines()
                if ln.startswith("::")]
    sarif = json.loads((work / "schema-compat.sarif").read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    [upload] = [s for s in steps if str(s.get("uses", "")).startswith(
        "github/codeql-action/upload-sarif@")]
    assert upload["with"]["sarif_file"] == "schema-compat.sarif"
    check_step = next(s for s in steps if s.get("id") == "check")
    assert check_step["continue-on-error"] is True  # the upload still runs on findings


def test_the_workflows_breaking_step_fails_on_a_removed_tool_only(repo: Path,
                                                                   tmp_path: Path) -> None:
    """The breaking step's command line, as written in the workflow, run from a checkout
    whose snapshot is edited: the example server started as init started it is the new
    version. A tool the snapshot lacks is an addition (compatible); a tool only the snapshot
    holds is a removal, which fails the step with an EVO001 annotation."""
    [step] = _breaking_steps(repo)
    argv = shlex.split(step["run"])
    assert argv[:4] == ["schema-compat", "breaking", "--against", "mcp-tools.json"]
    assert argv[4:6] == ["--server", SERVER] and argv[-2:] == ["--format", "github"]
    snapshot = json.loads((repo / "mcp-tools.json").read_text())
    work = tmp_path / "checkout"
    work.mkdir()

    def breaking(tools: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
        (work / "mcp-tools.json").write_text(json.dumps({**snapshot, "tools": tools}))
        return _run_step(step, work)

    # the unchanged snapshot passes without annotations: the shell-steps test above runs
    # this step on it (one server start and one listing fewer here)
    fewer = breaking(snapshot["tools"][1:])
    assert fewer.returncode == 0, fewer.stdout + fewer.stderr
    assert "EVO002" in fewer.stdout and "EVO001" not in fewer.stdout
    ghost = {"name": "ghost_tool", "description": "Only the snapshot lists it.",
             "inputSchema": {"type": "object", "properties": {}}}
    more = breaking([*snapshot["tools"], ghost])
    assert more.returncode == 1, more.stdout + more.stderr
    [removed] = [ln for ln in more.stdout.splitlines() if "EVO001" in ln]
    assert removed.startswith("::error ") and "::ghost_tool" in removed, removed


def test_env_values_reach_the_ci_server_from_secrets_and_are_not_written(
        tmp_path: Path) -> None:
    """--env values may be API keys: the workflow reads each from a repository secret of the
    variable's name and passes it to the server as init did. The server used exits unless
    DEMO_API_KEY is set, and names both values in its listing, so the step passes only when
    the secrets reach it."""
    server = " ".join(shlex.quote(str(p)) for p in (
        sys.executable, REPO_ROOT / "tests" / "servers" / "env_server.py"))
    proc = init(tmp_path, "--env", "DEMO_API_KEY=s3cret-key", "--env", "DEMO_REGION=eu-west",
                server=server)
    assert proc.returncode == 0, proc.stderr
    assert "the workflow reads DEMO_API_KEY, DEMO_REGION from the repository's secrets" in (
        proc.stdout)
    for name in FILES:
        assert "s3cret-key" not in (tmp_path / name).read_text() or name == FILES[1]
    [step] = _breaking_steps(tmp_path)
    assert step["env"] == {"DEMO_API_KEY": "${{ secrets.DEMO_API_KEY }}",
                           "DEMO_REGION": "${{ secrets.DEMO_REGION }}"}
    secrets = {"DEMO_API_KEY": "s3cret-key", "DEMO_REGION": "eu-west"}
    same = _run_step(step, tmp_path, secrets)
    assert same.returncode == 0, same.stdout + same.stderr
    assert not [ln for ln in same.stdout.splitlines() if ln.startswith("::")]
    unset = _run_step(step, tmp_path)  # no secret set: the server does not start
    assert unset.returncode == 2, unset.stdout + unset.stderr
    # the words the shell hands schema-compat: each value whole, as the secret holds it
    echo = {**step, "run": step["run"].replace("schema-compat", "printf '%s\\n'", 1)}
    spaced = {**secrets, "DEMO_REGION": "eu west; $(exit 3)"}
    words = _run_step(echo, tmp_path, spaced).stdout.splitlines()
    assert [words[i + 1] for i, w in enumerate(words) if w == "--env"] == [
        "DEMO_API_KEY=s3cret-key", "DEMO_REGION=eu west; $(exit 3)"]


def test_the_pre_commit_config_is_valid_and_its_hook_covers_the_snapshot(repo: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "validate-config",
                           str(repo / FILES[2])], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config = yaml.safe_load((repo / FILES[2]).read_text())
    [entry] = config["repos"]
    assert (entry["repo"], entry["rev"]) == ("https://example.com/org/schema-compat", "0123abc")
    [hook] = entry["hooks"]
    assert hook["id"] == "schema-compat"  # the id of this repository's .pre-commit-hooks.yaml
    assert re.search(hook["files"], "mcp-tools.json")
    assert not re.search(hook["files"], "package.json")


def test_running_init_again_changes_nothing_and_starts_no_server(repo: Path) -> None:
    before = _state(repo)
    # a server command that would fail: it is not started, since its snapshot is there
    proc = init(repo, server="false")
    assert proc.returncode == 0, proc.stderr
    assert _state(repo) == before
    out = proc.stdout.splitlines()
    assert [line.split()[1] for line in out if line.startswith("skipped")] == [
        ".schema-compat.toml", ".pre-commit-config.yaml", FILES[3], "mcp-tools.json"]
    assert "mcp-tools.json (already there; the server was not started)" in proc.stdout
    assert out[-1] == "nothing written: every file was already there"
    # nor is CI's install source needed then
    again = here("init", "--provider", "gemini", "--server", "false", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert _state(repo) == before


def test_a_file_already_there_is_kept_and_named(tmp_path: Path) -> None:
    (tmp_path / ".schema-compat.toml").write_text('provider = "openai"\n')
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n")
    proc = init(tmp_path, server=LISTED)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / ".schema-compat.toml").read_text() == 'provider = "openai"\n'
    assert (tmp_path / ".pre-commit-config.yaml").read_text() == "repos: []\n"
    assert "skipped .schema-compat.toml (already there; left as it is)" in proc.stdout
    assert "skipped .pre-commit-config.yaml (already there; left as it is)" in proc.stdout
    # the hook to add by hand, as it would have been written
    hint = proc.stdout.split("add this entry under `repos:` in .pre-commit-config.yaml:\n")[1]
    entry = yaml.safe_load(hint.split("\nnext:")[0])
    assert entry[0]["hooks"][0]["id"] == "schema-compat"
    assert (tmp_path / "mcp-tools.json").is_file() and (tmp_path / FILES[3]).is_file()


def test_a_local_hook_when_ci_installs_from_elsewhere_runs_under_pre_commit(
        tmp_path: Path) -> None:
    """Installed from a path or an index rather than `git+URL@REV`, the hook runs the
    schema-compat on PATH; pre-commit runs it on the snapshot and fails the commit."""
    proc = init(tmp_path, server=LISTED, source=str(REPO_ROOT))  # the hook is the subject
    assert proc.returncode == 0, proc.stderr
    [hook] = yaml.safe_load((tmp_path / FILES[2]).read_text())["repos"][0]["hooks"]
    assert (hook["language"], hook["entry"]) == ("system", "schema-compat check")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    env = {**_env(), "PRE_COMMIT_HOME": str(tmp_path / ".pre-commit-home")}
    ran = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                         check=False)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "schema-compat" in ran.stdout and "Failed" in ran.stdout
    assert "REF001" in ran.stdout  # the example's `$ref`, found by the hook


def test_without_a_server_off_a_terminal_it_says_what_to_give(tmp_path: Path) -> None:
    proc = here("init", "--provider", "gemini", "--install-from", SOURCE, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("schema-compat: error: init needs the server: --server")
    assert len(proc.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_server_that_cannot_be_listed_leaves_nothing_written(tmp_path: Path) -> None:
    failing = f"{shlex.quote(sys.executable)} -c 'import sys; sys.exit(3)'"
    proc = init(tmp_path, server=failing)
    assert proc.returncode == 2
    assert "nothing written, since a server could not be listed" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_unknown_provider_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    proc = here("init", "--provider", "gemnii", "--server", SERVER, "--install-from", SOURCE,
                cwd=tmp_path)
    assert proc.returncode == 2
    assert "unknown provider 'gemnii'" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_on_a_terminal_it_asks_for_what_the_flags_left_out(tmp_path: Path) -> None:
    """Run on a pseudo-terminal without --server and --provider: each is asked for, and
    the answers do what the flags would."""
    leader, follower = os.openpty()
    proc = subprocess.Popen([COMMAND, "init", "--install-from", SOURCE], cwd=tmp_path,
                            env=_env(), stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    seen = b""

    def wait_for(text: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while text not in seen:
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(leader, 4096)
                except OSError:
                    break

    wait_for(b"over stdio (e.g. python server.py): ")
    os.write(leader, LISTED.encode() + b"\n")
    wait_for(b"[gemini]: ")
    os.write(leader, b"openai-strict\n")
    wait_for(b"next: ")
    assert proc.wait(timeout=120) == 0
    os.close(leader)
    assert (tmp_path / ".schema-compat.toml").read_text().count('provider = "openai-strict"')
    assert json.loads((tmp_path / "mcp-tools.json").read_text())["tools"]


# --- where CI installs schema-compat from ----------------------------------------------------


def test_the_source_is_the_git_remote_and_commit_of_the_checkout(tmp_path: Path) -> None:
    from schema_compat.commands.init import git_checkout_source, source_from_direct_url

    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert git_checkout_source(str(tmp_path)) is None  # no remote: nothing CI could fetch
    subprocess.run([*git, "remote", "add", "origin", "/some/local/path"], check=True)
    assert git_checkout_source(str(tmp_path)) is None
    subprocess.run([*git, "remote", "set-url", "origin", "git@github.com:org/sc.git"],
                   check=True)
    assert git_checkout_source(str(tmp_path)) == f"git+https://github.com/org/sc.git@{commit}"
    assert source_from_direct_url({"url": tmp_path.as_uri(), "dir_info": {}}) == (
        f"git+https://github.com/org/sc.git@{commit}")
    assert source_from_direct_url({"url": "https://example.com/o/sc.git", "vcs_info": {
        "vcs": "git", "commit_id": "abc123"}}) == "git+https://example.com/o/sc.git@abc123"
    assert source_from_direct_url({"url": "https://example.com/sc-0.1.tar.gz",
                                   "archive_info": {}}) is None
    assert source_from_direct_url({"url": tmp_path.as_uri(), "vcs_info": {
        "vcs": "git", "commit_id": commit}}) is None  # git+file://: no use to CI


def test_a_client_config_naming_two_servers_gives_a_snapshot_each(tmp_path: Path) -> None:
    server = {"command": sys.executable, "args": [str(LISTING_SERVER)]}
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "fs a": server, "fs-b": server, "other": {"command": "false"}}}))
    proc = here("init", "--config", ".mcp.json", "--name", "fs*", "--install-from", SOURCE,
                cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    names = ["mcp-tools.fs-a.json", "mcp-tools.fs-b.json"]
    for name in names:
        tools = json.loads((tmp_path / name).read_text())["tools"]
        assert [t["name"] for t in tools] == ["read_files", "propose_and_review"]
    [hook] = yaml.safe_load((tmp_path / FILES[2]).read_text())["repos"][0]["hooks"]
    assert [n for n in [*names, "mcp-tools.json", "mcp-tools.other.json"]
            if re.search(hook["files"], n)] == names
    [check] = [s for s in _steps(tmp_path) if s.get("id") == "check"]
    assert shlex.split(check["run"])[4:6] == names
    # a breaking step per snapshot, each naming its own server of the config (a glob)
    steps = _breaking_steps(tmp_path)
    assert [shlex.split(s["run"])[3:8] for s in steps] == [
        ["mcp-tools.fs-a.json", "--config", ".mcp.json", "--name", "fs a"],
        ["mcp-tools.fs-b.json", "--config", ".mcp.json", "--name", "fs-b"]]
    # each step reads its own snapshot: fs-a's lists a tool its server lacks (a removal,
    # fails), fs-b's is emptied (its server's tools are additions, passes); one run each
    (tmp_path / names[0]).write_text(json.dumps({"tools": [
        {"name": "ghost", "inputSchema": {"type": "object"}}]}))
    (tmp_path / names[1]).write_text(json.dumps({"tools": []}))
    ran = [_run_step(s, tmp_path) for s in steps]
    assert [r.returncode for r in ran] == [1, 0], [r.stdout + r.stderr for r in ran]
    assert "EVO001" in ran[0].stdout and "EVO001" not in ran[1].stdout
    again = here("init", "--config", ".mcp.json", "--name", "fs*", "--install-from", SOURCE,
                 cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("(already there; the server was not started)") == 2


# --- a running server, over streamable HTTP or legacy SSE ------------------------------------

TOKEN = "s3cret-token"


def _served(mode: str, token: str | None = None) -> Any:
    sys.path.insert(0, str(REPO_ROOT / "tests" / "servers"))
    from launch import example_over

    return example_over(mode, token=token)


def test_url_with_a_header_snapshots_the_listing_a_stdio_start_gives(repo: Path,
                                                                      tmp_path: Path) -> None:
    """The example served over streamable HTTP behind a bearer token: the header reaches it,
    and the snapshot is the listing the stdio example gave, byte for byte."""
    with _served("http", TOKEN) as base:
        proc = here("init", "--provider", "gemini", "--url", f"{base}/mcp", "--header",
                    f"Authorization: Bearer {TOKEN}", "--install-from", SOURCE, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert [line.split()[1] for line in proc.stdout.splitlines()
                if line.startswith("wrote")] == FILES
        assert (tmp_path / "mcp-tools.json").read_bytes() == (repo / "mcp-tools.json"
                                                             ).read_bytes()
        # the breaking step reaches the same server, its token read from a secret
        assert TOKEN not in (tmp_path / FILES[3]).read_text()
        [step] = _breaking_steps(tmp_path)
        assert step["env"] == {"MCP_HEADER_AUTHORIZATION":
                               "${{ secrets.MCP_HEADER_AUTHORIZATION }}"}
        assert shlex.split(step["run"])[4:6] == ["--url", f"{base}/mcp"]
        ran = _run_step(step, tmp_path, {"MCP_HEADER_AUTHORIZATION": f"Bearer {TOKEN}"})
        assert ran.returncode == 0, ran.stdout + ran.stderr
        refused = _run_step(step, tmp_path)  # no secret: the server says 401
        assert refused.returncode == 2 and "HTTP 401" in refused.stderr, refused.stderr
        assert TOKEN not in refused.stdout + refused.stderr
        again = here("init", "--provider", "gemini", "--url", f"{base}/mcp",
                     "--install-from", SOURCE, cwd=tmp_path)
    assert again.returncode == 0, again.stderr  # no header: only a listing would fail
    assert "mcp-tools.json (already there; the server was not contacted)" in again.stdout


def test_url_without_the_token_writes_nothing_and_says_why(tmp_path: Path) -> None:
    with _served("http", TOKEN) as base:
        proc = here("init", "--provider", "gemini", "--url", f"{base}/mcp", "--timeout", "5",
                    "--install-from", SOURCE, cwd=tmp_path)
    assert proc.returncode == 2
    assert "HTTP 401" in proc.stderr
    assert proc.stderr.splitlines()[-1] == ("schema-compat: error: nothing written, since a "
                                            "server could not be listed")
    assert list(tmp_path.iterdir()) == []


def test_sse_snapshots_the_listing_and_check_reads_it(repo: Path, tmp_path: Path) -> None:
    with _served("sse") as base:
        proc = here("init", "--provider", "gemini", "--sse", f"{base}/sse", "--install-from",
                    SOURCE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "mcp-tools.json").read_bytes() == (repo / "mcp-tools.json").read_bytes()
    checked = here("check", "--json", "mcp-tools.json", cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    assert [t["name"] for t in json.loads(checked.stdout)["tools"]] == [
        "read_files", "propose_and_review"]


@pytest.mark.parametrize(("flags", "message"), [
    (["--server", SERVER, "--url", "http://127.0.0.1:9/mcp"],
     "give one of --server, --url, --sse or --config, not --server and --url"),
    (["--url", "http://127.0.0.1:9/mcp", "--sse", "http://127.0.0.1:9/sse"],
     "give one of --server, --url, --sse or --config, not --url and --sse"),
    (["--server", SERVER, "--header", "Authorization: Bearer x"],
     "--header applies to --url and --sse (add --url URL)"),
])
def test_one_server_and_headers_only_for_an_address(tmp_path: Path, flags: list[str],
                                                    message: str) -> None:
    proc = here("init", "--provider", "gemini", *flags, "--install-from", SOURCE,
                cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"schema-compat: error: {message}")
    assert len(proc.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_github_folder_linked_out_of_the_repository_is_not_written_into(
        tmp_path: Path) -> None:
    """`.github` a symlink to a folder elsewhere: one line, exit 2, before any file is
    written or the server started (its command would fail, and it is not what is said)."""
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    repo.mkdir()
    elsewhere.mkdir()
    (repo / ".github").symlink_to(elsewhere)
    proc = init(repo, server="false")
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"schema-compat: error: cannot write {FILES[3]}: .github/workflows "
                           "leads out of the repository"), line
    assert list(elsewhere.iterdir()) == []
    assert [p.name for p in repo.iterdir()] == [".github"]


# --- installed from a clone, a local path or an index: what CI installs is left to fill in ---


def _install_record(tmp_path: Path, direct_url: dict[str, Any] | None) -> Path:
    """A folder holding this copy's install record as pip would have written it (PEP 610's
    direct_url.json, or none from an index): a dist-info of schema-compat, which init reads
    when the folder is ahead of the real one on the path."""
    info = tmp_path / "site" / "schema_compat-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: schema-compat\n"
                                   "Version: 0.1.0\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    return info.parent


def _init_installed_as(tmp_path: Path, direct_url: dict[str, Any] | None
                       ) -> tuple[subprocess.CompletedProcess[str], Path]:
    """init in-process with the install record ahead on `sys.path` (where
    `importlib.metadata` looks, as the installed command's would with it on PYTHONPATH)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    site = _install_record(tmp_path, direct_url)
    with mock.patch.object(sys, "path", [str(site), *sys.path]):
        proc = here("init", "--provider", "gemini", "--server", LISTED, cwd=repo)
    return proc, repo


def test_installed_from_a_git_url_ci_installs_the_same(tmp_path: Path) -> None:
    """The control: the install record is what init reads."""
    proc, repo = _init_installed_as(tmp_path, {
        "url": "https://example.com/o/sc.git", "vcs_info": {"vcs": "git", "commit_id": "abc1"}})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    [install] = [s for s in _steps(repo) if s.get("name") == "Install schema-compat"]
    assert install["run"] == "pipx install git+https://example.com/o/sc.git@abc1"


def _clone_of_a_local_path(tmp_path: Path) -> dict[str, Any]:
    """pipx install . in a clone whose origin is a folder (as `git clone /path` makes)."""
    upstream, clone = tmp_path / "upstream", tmp_path / "clone"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run([*git, "init", "-q", str(upstream)], check=True)
    subprocess.run([*git, "-C", str(upstream), "commit", "-q", "--allow-empty", "-m", "x"],
                   check=True)
    subprocess.run([*git, "clone", "-q", str(upstream), str(clone)], check=True)
    return {"url": clone.as_uri(), "dir_info": {}}


@pytest.mark.parametrize("origin", ["clone", "git+file", "index"])
def test_installed_from_a_local_copy_it_writes_all_and_says_what_to_fill_in(
        tmp_path: Path, origin: str) -> None:
    """A clone of a local path, `pipx install git+file:///PATH`, or an index: every file is
    written, none names a path on this machine, the workflow's install line is a placeholder
    marked TODO, and one line says to fill it in."""
    direct_url = {
        "clone": lambda: _clone_of_a_local_path(tmp_path),
        "git+file": lambda: {"url": (tmp_path / "upstream").as_uri(),
                             "vcs_info": {"vcs": "git", "commit_id": "0123abcd"}},
        "index": lambda: None,
    }[origin]()
    proc, repo = _init_installed_as(tmp_path, direct_url)
    assert proc.returncode == 0, proc.stderr
    assert [line.split()[1] for line in proc.stdout.splitlines()
            if line.startswith("wrote")] == FILES
    [line] = proc.stderr.splitlines()
    assert line.startswith("schema-compat: warning: cannot tell where CI should install "
                           "schema-compat from"), line
    assert f"fill in the line marked TODO in {FILES[3]}" in line
    for name in FILES:
        assert str(tmp_path) not in (repo / name).read_text()
    [install] = [s for s in _steps(repo) if s.get("name") == "Install schema-compat"]
    assert install["run"] == "pipx install 'git+https://HOST/OWNER/schema-compat@TAG'"
    [todo] = [ln for ln in (repo / FILES[3]).read_text().splitlines() if "TODO" in ln]
    assert todo.strip().startswith("run: pipx install 'git+https://HOST/")
    [hook] = yaml.safe_load((repo / FILES[2]).read_text())["repos"][0]["hooks"]
    assert (hook["language"], hook["entry"]) == ("system", "schema-compat check")
    # and what it wrote works: a bare check reads the snapshot with the settings' provider
    checked = here("check", "--json", cwd=repo)
    assert checked.returncode == 1 and json.loads(checked.stdout)["provider"] == "gemini"


def test_a_file_linked_out_of_the_repository_is_not_followed(tmp_path: Path) -> None:
    """A dangling symlink where a file would go counts as there: it is named as skipped, and
    nothing is created where it points."""
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    repo.mkdir()
    elsewhere.mkdir()
    (repo / FILES[2]).symlink_to(elsewhere / "hooks.yaml")
    proc = init(repo, server=LISTED)
    assert proc.returncode == 0, proc.stderr
    assert f"skipped {FILES[2]} (already there; left as it is)" in proc.stdout
    assert list(elsewhere.iterdir()) == []
