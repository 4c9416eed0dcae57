"""The composite GitHub Action (action.yml), its shell steps run here as the runner runs them.

A small runner plays GitHub's part: each step's `${{ ... }}` expressions substituted (only
`inputs.*`, `github.action_path` and `steps.*.outputs.*`, the ones the action may use; any
other is an error here), its `env` set, its `run` script run by `bash --noprofile --norc -eo
pipefail`, as the runner does for `shell: bash`, with GITHUB_OUTPUT, GITHUB_PATH and
RUNNER_TEMP files. A step that fails ends the job. The `uses:` step (the SARIF upload) is
not run; its `if` and `with` are evaluated and checked against what the steps wrote.

The install step runs for real, once: pipx (itself installed into a venv, as on a runner
without it) installs schema-compat from this checkout into a temporary home.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))
MIXED = REPO_ROOT / "examples" / "mixed.json"
FS = REPO_ROOT / "examples" / "fs_read_files.json"
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Job:
    """What the runner keeps between the steps of one job."""

    def __init__(self, workspace: Path, home: Path, path: list[str]) -> None:
        self.workspace, self.home, self.path = workspace, home, path
        self.outputs: dict[str, dict[str, str]] = {}
        self.log: list[tuple[str, int, str]] = []  # step name, exit status, output


def _value(expr: str, inputs: dict[str, str], job: Job) -> Any:
    if expr.startswith("inputs."):
        return inputs[expr.removeprefix("inputs.")]
    if expr == "github.action_path":
        return str(REPO_ROOT)
    match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
    if match:
        return job.outputs.get(match.group(1), {}).get(match.group(2), "")
    raise AssertionError(f"expression the test runner does not know: {expr}")


def substitute(text: str, inputs: dict[str, str], job: Job) -> str:
    return _EXPR.sub(lambda m: str(_value(m.group(1), inputs, job)), text)


def condition(text: str, inputs: dict[str, str], job: Job) -> bool:
    """An `if:` made of always(), `==` / `!=` comparisons and `&&` (all the action uses)."""
    result = True
    for part in text.split("&&"):
        part = part.strip()
        if part == "always()":
            continue
        match = re.fullmatch(r"([\w.-]+)\s*(==|!=)\s*'([^']*)'", part)
        assert match, f"condition the test runner does not know: {part}"
        left = str(_value(match.group(1), inputs, job))
        result &= (left == match.group(3)) == (match.group(2) == "==")
    return result


def run_action(job: Job, given: dict[str, str], *, skip: tuple[str, ...] = ()
               ) -> tuple[int, list[dict[str, Any]]]:
    """Run the action's steps; the job's exit status (0, or the failing step's) and the
    `uses:` steps that would have run, with their `with` evaluated."""
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    unknown = set(given) - set(inputs)
    assert not unknown, unknown
    inputs.update(given)
    used = []
    for step in ACTION["runs"]["steps"]:
        if step["name"] in skip:
            continue
        if "if" in step and not condition(step["if"], inputs, job):
            continue
        if "uses" in step:
            used.append({"uses": step["uses"], "with": {
                k: substitute(str(v), inputs, job) for k, v in step.get("with", {}).items()}})
            continue
        assert step["shell"] == "bash"
        temp = job.home / "runner-temp"
        temp.mkdir(exist_ok=True)
        output, path_file = temp / "output", temp / "path"
        output.write_text("")
        path_file.write_text("")
        env = {"HOME": str(job.home), "PATH": os.pathsep.join(job.path), "RUNNER_TEMP": str(temp),
               "GITHUB_OUTPUT": str(output), "GITHUB_PATH": str(path_file),
               "GITHUB_ACTION_PATH": str(REPO_ROOT), "NO_COLOR": "1", "COLUMNS": "200",
               "PIPX_HOME": str(job.home / "pipx"), "PIPX_BIN_DIR": str(job.home / "bin")}
        env.update({k: substitute(str(v), inputs, job) for k, v in step.get("env", {}).items()})
        script = temp / "step.sh"
        script.write_text(substitute(step["run"], inputs, job))
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=job.workspace, env=env, capture_output=True, text=True,
                              timeout=600, check=False)
        job.log.append((step["name"], proc.returncode, proc.stdout + proc.stderr))
        if "id" in step:
            job.outputs[step["id"]] = dict(
                line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        job.path[:0] = [p for p in path_file.read_text().splitlines() if p]
        if proc.returncode != 0:
            return proc.returncode, used
    return 0, used


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The install step, run for real into a temporary home; its home (bin/ on PATH)."""
    home = tmp_path_factory.mktemp("runner-home")
    system = [str(Path(sys.executable).parent), *os.environ.get("PATH", "").split(os.pathsep)]
    # a runner without pipx on PATH: the step brings its own
    path = [p for p in system if not (Path(p) / "pipx").exists()
            and not (Path(p) / "schema-compat").exists()]
    python3 = shutil.which("python3", path=os.pathsep.join(path))
    assert python3, "python3 must be on PATH"
    job = Job(home, home, path)
    status, _ = run_action(job, {"sources": "nothing.json"}, skip=(
        "Check", "Fail on findings"))
    assert status == 0, job.log
    assert (home / "bin" / "schema-compat").exists()
    assert any(p == str(home / "bin") for p in job.path)  # added through GITHUB_PATH
    return home


def _job(installed: Path, tmp_path: Path) -> Job:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    shutil.copy(MIXED, workspace / "tools.json")
    shutil.copy(FS, workspace / "fs.json")
    path = [str(installed / "bin"), "/usr/bin", "/bin"]
    return Job(workspace, installed, path)


def _check(installed: Path, tmp_path: Path, **inputs: str
           ) -> tuple[int, Job, list[dict[str, Any]]]:
    job = _job(installed, tmp_path)
    status, used = run_action(job, inputs, skip=("Install schema-compat",))
    return status, job, used


def test_the_action_declares_the_inputs_users_expect() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {"sources", "provider", "format", "fail-on", "baseline", "upload-sarif"} <= set(
        ACTION["inputs"])
    for step in ACTION["runs"]["steps"]:
        # inputs reach scripts as environment variables only
        assert "${{" not in step.get("run", ""), step["name"]


@pytest.mark.slow
def test_findings_are_annotations_and_fail_the_step(installed: Path, tmp_path: Path) -> None:
    status, job, used = _check(installed, tmp_path, sources="tools.json")
    assert status == 1
    assert job.outputs["check"]["exit-code"] == "1"
    check_log = dict((name, out) for name, _, out in job.log)["Check"]
    assert "::error file=tools.json,line=4,title=REF001 " in check_log
    assert used == []  # no SARIF asked for: nothing uploaded


@pytest.mark.slow
def test_provider_fail_on_and_several_sources_reach_the_command(installed: Path,
                                                                 tmp_path: Path) -> None:
    job = _job(installed, tmp_path)
    # a tool with warnings only (properties named like keywords), as a second source
    tools = json.loads(MIXED.read_text())["tools"]
    warned = {"tools": [t for t in tools if t["name"] == "add_schema_field"]}
    (job.workspace / "warn.json").write_text(json.dumps(warned))
    run = {"sources": "warn.json", "provider": "gemini", "format": "json"}
    assert run_action(job, run, skip=("Install schema-compat",))[0] == 0
    report = _json_part(_last(job, "Check"))
    assert {i["severity"] for t in report["tools"] for i in t["issues"]} == {"warning"}
    status, _ = run_action(job, {**run, "fail-on": "warning"}, skip=("Install schema-compat",))
    assert status == 1
    status, _ = run_action(job, {**run, "sources": "warn.json\n  fs.json ",
                                 "provider": "openai,vertex"}, skip=("Install schema-compat",))
    report = _json_part(_last(job, "Check"))
    assert report["provider"] == "openai,vertex"
    assert {t["source"] for t in report["tools"]} == {"warn.json", "fs.json"}


def _last(job: Job, step: str) -> str:
    return [out for name, _, out in job.log if name == step][-1]


def _json_part(log: str) -> Any:
    return json.loads(log[log.index("{"):log.rindex("}") + 1])


@pytest.mark.slow
def test_sarif_is_written_and_handed_to_the_upload(installed: Path, tmp_path: Path) -> None:
    status, job, used = _check(installed, tmp_path, sources="tools.json",
                               **{"upload-sarif": "true", "sarif-file": "out/scan.sarif"})
    assert status == 1
    [upload] = used
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "out/scan.sarif"
    sarif = json.loads((job.workspace / "out" / "scan.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"REF001"}
    # the log still gets the annotations asked for
    assert "::error file=tools.json" in dict((n, o) for n, _, o in job.log)["Check"]


@pytest.mark.slow
def test_a_baseline_lets_known_findings_pass(installed: Path, tmp_path: Path) -> None:
    job = _job(installed, tmp_path)
    proc = subprocess.run([str(installed / "bin" / "schema-compat"), "check",
                           "--write-baseline", "bl.json", "fs.json"], cwd=job.workspace,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    status, _ = run_action(job, {"sources": "fs.json"}, skip=("Install schema-compat",))
    assert status == 1  # the example's findings, without the baseline
    status, _ = run_action(job, {"sources": "fs.json", "baseline": "bl.json"},
                           skip=("Install schema-compat",))
    assert status == 0, job.log
    assert job.outputs["check"]["exit-code"] == "0"


@pytest.mark.slow
def test_inputs_are_data_never_shell(installed: Path, tmp_path: Path) -> None:
    status, job, _ = _check(installed, tmp_path, sources="tools.json",
                            provider="gemini; touch pwned", format="github $(touch pwned2)")
    assert status == 2  # an unknown provider and format: usage errors, nothing run
    assert not (job.workspace / "pwned").exists()
    assert not (job.workspace / "pwned2").exists()


@pytest.mark.slow
def test_empty_sources_is_an_error_annotation(installed: Path, tmp_path: Path) -> None:
    status, job, _ = _check(installed, tmp_path, sources="  \n ")
    assert status == 2
    assert "::error title=schema-compat::the sources input is empty" in job.log[0][2]


@pytest.mark.slow
def test_against_a_snapshot_runs_breaking(installed: Path, tmp_path: Path) -> None:
    """`against:` compares the snapshot (the old version) with the listing given: a tool the
    new listing no longer has fails the step, with an annotation naming the check."""
    job = _job(installed, tmp_path)
    tools = json.loads(MIXED.read_text())["tools"]
    (job.workspace / "old.json").write_text(json.dumps({"tools": tools}))
    (job.workspace / "new.json").write_text(json.dumps({"tools": tools[1:]}))
    status, _ = run_action(job, {"sources": "new.json", "against": "old.json"},
                           skip=("Install schema-compat",))
    assert status == 1
    log = _last(job, "Check")
    assert f"title=EVO001 tool-removed::{tools[0]['name']}: tool" in log
    status, _ = run_action(job, {"sources": "old.json", "against": "old.json",
                                 "upload-sarif": "true"}, skip=("Install schema-compat",))
    assert status == 0, job.log
    sarif = json.loads((job.workspace / "schema-compat.sarif").read_text())
    assert sarif["runs"][0]["results"] == []
