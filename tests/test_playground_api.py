"""The playground's answers against the CLI's: the same findings, reports and transformed
tools as `schema-compat check` and `transform` give for the same input; its speed on a
300-tool listing; its assets as package data; and `--help` still not importing it.

All through real HTTP to `schema-compat serve` (tests/servers/playground_launch.py). The
CLI's answers are had in-process (tests/inprocess.py), in the same folder with the same HOME:
what the command writes is the point, not how a process of its own behaves. A listing the
tests only read from is analyzed once (`analyzed`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from inprocess import run_main

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from playground_launch import (
    FS_READ_FILES,
    PY,
    REPO_ROOT,
    Served,
    analyze,
    cli_env,
    playground,
    request,
)

PROFILES = ["gemini", "gemini-json", "vertex", "openai", "openai-strict", "anthropic",
            "anthropic-strict", "portable", "bedrock", "mistral", "ollama", "xai",
            "deepseek", "deepseek-strict", "groq"]
CORPUS = REPO_ROOT / "tests" / "data" / "corpus"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("playground-api")


@pytest.fixture(scope="module")
def served(folder: Path) -> Iterator[Served]:
    with playground(folder) as s:
        yield s


def _analyze_file(served: Served, path: Path) -> dict[str, Any]:
    """Post the file as the page does, labelled with its path (so reports name the same
    source as the CLI's)."""
    answer = request(served, "POST", "api/analyze", headers={"Origin": served.origin},
                     body={"text": path.read_text(encoding="utf-8"), "label": str(path)})
    assert answer.status == 200, answer.body
    data: dict[str, Any] = answer.json()
    return data


Analyzed = Callable[[Path], dict[str, Any]]


@pytest.fixture(scope="module")
def analyzed(served: Served) -> Analyzed:
    """`_analyze_file`, once per file while the playground still keeps its run (it keeps the
    last few): for the tests that only read a run's answers."""
    runs: dict[Path, dict[str, Any]] = {}

    def get(path: Path) -> dict[str, Any]:
        data = runs.get(path)
        if data is None or request(served, "GET", f"api/cell?run={data['run']}&provider="
                                                  "gemini&tool=0").status == 404:
            data = runs[path] = _analyze_file(served, path)
        return data

    return get


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`schema-compat ARGS` in `cwd` with HOME there (as `cli_env` runs it), in-process."""
    from schema_compat.entry import main

    with contextlib.chdir(cwd):
        code, out, err = run_main(main, args, env={"HOME": str(cwd),
                                                   "XDG_CONFIG_HOME": str(cwd / ".config")})
    return subprocess.CompletedProcess(["schema-compat", *args], code, out, err)


def _check_cli(path: Path, provider: str, cwd: Path) -> dict[str, Any]:
    proc = _cli("check", str(path), "-p", provider, "--json", cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def transform_cli(source: Path, provider: str, cwd: Path) -> str:
    """What `schema-compat transform SOURCE --provider PROVIDER -q` prints."""
    proc = _cli("transform", str(source), "--provider", provider, "-q", cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def test_the_matrix_is_every_profile_against_every_tool(served: Served) -> None:
    data = _analyze_file(served, FS_READ_FILES)
    assert [p["name"] for p in data["providers"]] == PROFILES
    assert [t["name"] for t in data["tools"]] == ["read_files", "propose_and_review"]
    assert data["shape"] == "mcp"
    assert set(data["cells"]) == set(PROFILES)
    # read_files' $ref and $defs are rejected by Gemini, inlined by transform (lossless)
    gemini = data["cells"]["gemini"][0]
    assert gemini["cell"] == "fixable" and gemini["fix_status"] == "lossless"
    assert gemini["error"] >= 2


@pytest.mark.parametrize("provider", PROFILES)
def test_cells_and_json_report_are_what_check_json_says(served: Served, folder: Path,
                                                        analyzed: Analyzed,
                                                        provider: str) -> None:
    data = analyzed(FS_READ_FILES)
    expected = _check_cli(FS_READ_FILES, provider, folder)
    answer = request(served, "GET", f"api/report?run={data['run']}&provider={provider}"
                                    "&format=json")
    assert answer.status == 200
    assert answer.headers["content-disposition"] == \
        f'attachment; filename="report.{provider}.json"'
    report = answer.json()
    assert report.pop("generated_at") and expected.pop("generated_at")
    assert report == expected
    for i, tool in enumerate(expected["tools"]):
        cell = request(served, "GET", f"api/cell?run={data['run']}&provider={provider}"
                                      f"&tool={i}").json()
        assert cell["tool"] == tool["name"]
        assert cell["fix_status"] == tool["fix_status"]
        assert [(f["code"], f["path"], f["severity"]) for f in cell["findings"]] == \
            [(f["code"], f["path"], f["severity"]) for f in tool["issues"]]
        assert [(c["code"], c["path"], c["safety"], c["accepts"], c["told"])
                for c in cell["changes"]] == \
            [(c["code"], c["path"], c["safety"], c["effect"]["accepts"],
              c["effect"]["told"]) for c in tool["transforms_applied"]]
        assert cell["transformed_schema"] == tool["transformed_schema"]


@pytest.mark.parametrize("provider", PROFILES)
def test_the_download_is_what_transform_writes(served: Served, folder: Path,
                                               analyzed: Analyzed, provider: str) -> None:
    data = analyzed(FS_READ_FILES)
    answer = request(served, "GET", f"api/transformed?run={data['run']}&provider={provider}")
    assert answer.status == 200
    assert answer.headers["content-disposition"] == \
        f'attachment; filename="tools.{provider}.json"'
    assert answer.body.decode("utf-8") == transform_cli(FS_READ_FILES, provider, folder)


@pytest.fixture(scope="module")
def many(folder: Path) -> dict[int, Path]:
    """The corpus listing cut to 30 tools (past Anthropic's strict budget of 20, so
    `transform` plans it) and whole at 300 (past OpenAI's and Vertex's 128 tools)."""
    listing = _three_hundred_tools()
    out = {}
    for count in (30, 300):
        path = folder / f"tools-{count}.json"
        path.write_text(json.dumps({"tools": listing["tools"][:count]}), encoding="utf-8")
        out[count] = path
    return out


# 30 tools for every profile; 300 for one it takes (Gemini), one it refuses (OpenAI's 128)
# and one it plans (Anthropic's strict budget), which cover the paths at a third of the time
@pytest.mark.parametrize(("count", "provider"), [
    *((30, p) for p in PROFILES), (300, "gemini"), (300, "openai"), (300, "anthropic-strict")])
def test_a_planned_download_is_what_transform_writes(served: Served, folder: Path,
                                                     many: dict[int, Path],
                                                     analyzed: Analyzed, count: int,
                                                     provider: str) -> None:
    """Where `transform` plans the request (a strict budget, a tool count), the download
    is the plan's; where it refuses (too many tools), the playground says the same."""
    data = analyzed(many[count])
    answer = request(served, "GET", f"api/transformed?run={data['run']}&provider={provider}")
    proc = _cli("transform", str(many[count]), "-p", provider, "-q", cwd=folder)
    if proc.returncode == 2:
        said = proc.stderr.splitlines()[0].removeprefix("schema-compat: error: ")
        assert answer.status == 400
        assert answer.json() == {"error": said}
        cell = request(served, "GET", f"api/cell?run={data['run']}&provider={provider}"
                                      "&tool=0").json()
        assert cell["request_error"] == said
        return
    assert proc.returncode in (0, 1), proc.stderr
    assert answer.status == 200, answer.body
    assert answer.body.decode("utf-8") == proc.stdout
    if count == 30:  # each cell's diff shows that tool as written
        written = json.loads(proc.stdout)["tools"]
        for i in (0, 17, 29):
            cell = request(served, "GET", f"api/cell?run={data['run']}&provider={provider}"
                                          f"&tool={i}").json()
            assert cell["transformed_schema"] == written[i]["inputSchema"]
            assert cell["transformed_name"] == written[i]["name"]
            assert cell["request_error"] is None


TARGETS = {"openai-chat": ["openai", "openai-strict", "portable"],
           "openai-responses": ["openai", "openai-strict", "portable"],
           "anthropic": ["anthropic", "anthropic-strict", "portable"],
           "gemini": ["gemini", "gemini-json", "vertex", "portable"],
           "bedrock": ["bedrock"], "mistral": ["mistral"], "ollama": ["ollama"]}


@pytest.mark.parametrize(("target", "provider"),
                         [(t, p) for t, ps in TARGETS.items() for p in ps])
def test_provider_ready_tools_are_what_transform_to_writes(served: Served, folder: Path,
                                                           many: dict[int, Path],
                                                           analyzed: Analyzed, target: str,
                                                           provider: str) -> None:
    data = analyzed(many[30])
    assert next(p for p in data["providers"] if p["name"] == provider)["targets"] == \
        [t for t, ps in TARGETS.items() if provider in ps]
    answer = request(served, "GET", f"api/request?run={data['run']}&provider={provider}"
                                    f"&target={target}")
    assert answer.status == 200, answer.body
    assert answer.headers["content-disposition"] == \
        f'attachment; filename="request-tools.{target}.json"'
    proc = _cli("transform", str(many[30]), "-p", provider, "--to", target, "-q", cwd=folder)
    assert proc.returncode in (0, 1), proc.stderr
    assert answer.body.decode("utf-8") == proc.stdout


def test_a_target_that_takes_other_schemas_is_refused(served: Served) -> None:
    data = _analyze_file(served, FS_READ_FILES)
    answer = request(served, "GET", f"api/request?run={data['run']}&provider=gemini"
                                    "&target=anthropic")
    assert answer.status == 400
    assert answer.json() == {"error": "anthropic takes the schemas of anthropic, "
                                      "anthropic-strict, portable, not gemini"}


def test_other_shapes_come_back_in_their_own_shape(served: Served, folder: Path) -> None:
    gemini = folder / "gemini-tools.json"
    schema = json.loads(FS_READ_FILES.read_text())["tools"][0]["inputSchema"]
    gemini.write_text(json.dumps({"functionDeclarations": [
        {"name": "read_files", "description": "Read files.", "parameters": schema}]}))
    data = _analyze_file(served, gemini)
    assert data["shape"] == "gemini"
    answer = request(served, "GET", f"api/transformed?run={data['run']}&provider=gemini")
    assert answer.body.decode() == transform_cli(gemini, "gemini", folder)
    assert "functionDeclarations" in json.loads(answer.body)


def test_the_diff_marks_the_inlined_ref(served: Served) -> None:
    data = _analyze_file(served, FS_READ_FILES)
    cell = request(served, "GET", f"api/cell?run={data['run']}&provider=gemini&tool=0").json()
    ref = next(f for f in cell["findings"] if f["code"] == "REF001")
    assert ref["pointer"] == "/properties/files/items/$ref"
    assert ref["severity"] == "error" and ref["fix"]["safety"] == "lossless"
    rows = cell["rows"]
    # the $ref line is on the left only (removed or replaced), with its node's pointer
    (ref_row,) = [r for r in rows if r["lp"] == ref["pointer"]]
    assert ref_row["kind"] in ("-", "~")
    assert ref_row["left"].strip() == '"$ref": "#/$defs/FileReadRequest"'
    # the inlining change is marked on the transformed line of the node it changed
    inline = next(k for k, c in enumerate(cell["changes"]) if c["code"] == "REF001")
    marked = [r for r in rows if inline in r["marks"]]
    assert [r["rp"] for r in marked] == ["/properties/files/items"]
    # every original line and every transformed line appears once, in order
    original = json.loads(FS_READ_FILES.read_text())["tools"][0]["inputSchema"]
    left = [r["left"] for r in rows if r["left"] is not None]
    assert left == json.dumps(original, indent=2, ensure_ascii=False).splitlines()
    right = [r["right"] for r in rows if r["right"] is not None]
    assert right == json.dumps(cell["transformed_schema"], indent=2,
                               ensure_ascii=False).splitlines()


def test_sarif_has_a_run_per_provider(served: Served) -> None:
    data = _analyze_file(served, FS_READ_FILES)
    sarif = request(served, "GET", f"api/report?run={data['run']}&provider=all&format=sarif"
                    ).json()
    assert sarif["version"] == "2.1.0"
    assert [r["automationDetails"]["id"] for r in sarif["runs"]] == \
        [f"schema-compat/{p}/" for p in PROFILES]
    gemini_rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert "REF001" in gemini_rules


def test_rule_pages(served: Served) -> None:
    page = request(served, "GET", "api/rule?code=REF001").json()
    assert page["code"] == "REF001"
    assert page["markdown"].startswith("# REF001 ")
    assert "## The fix" in page["markdown"]
    by_name = request(served, "GET", f"api/rule?code={page['name']}").json()
    assert by_name["code"] == "REF001"
    missing = request(served, "GET", "api/rule?code=XYZ999")
    assert missing.status == 400 and missing.json() == {"error": "no rule 'XYZ999'"}


@pytest.mark.parametrize(("text", "error"), [
    ("", "<pasted>: empty input: expected a JSON document"),
    ('{"tools": [', "<pasted>: "),
    ("[1, 2]", "<pasted>: "),
])
def test_bad_input_is_one_line_naming_the_source(served: Served, text: str,
                                                 error: str) -> None:
    answer = request(served, "POST", "api/analyze", body={"text": text})
    assert answer.status == 400
    message = answer.json()["error"]
    assert message.startswith(error) and "\n" not in message


@pytest.mark.parametrize(("query", "status", "error"), [
    ("api/cell?run=0000&provider=gemini&tool=0", 404, "no longer kept"),
    ("api/cell?run={run}&provider=nope&tool=0", 400, "no provider 'nope'"),
    ("api/cell?run={run}&provider=gemini&tool=2", 400, "no tool number 2"),
    ("api/cell?run={run}&provider=gemini&tool=x", 400, "must be a number"),
    ("api/cell?run={run}&provider=gemini", 400, "missing ?tool="),
    ("api/report?run={run}&provider=gemini&format=json&format=xml", 400, "no report format 'xml'"),
    ("api/job?id=nope", 404, "no such listing job"),
    ("api/nothing", 404, "not found"),
])
def test_bad_requests_say_what_is_wrong(served: Served, query: str, status: int,
                                        error: str) -> None:
    run = analyze(served, FS_READ_FILES.read_text())["run"]
    answer = request(served, "GET", query.format(run=run))
    assert answer.status == status
    assert error in answer.json()["error"]


def _three_hundred_tools() -> dict[str, Any]:
    """300 real tool schemas from the corpus (renamed apart where a name repeats)."""
    tools: list[dict[str, Any]] = []
    for path in sorted(CORPUS.glob("*.json")) + sorted((CORPUS / "servers").glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        listed = document.get("tools") if isinstance(document, dict) else None
        if isinstance(listed, list):
            tools += [t for t in listed if isinstance(t, dict) and "inputSchema" in t]
    assert len(tools) >= 300
    return {"tools": [{**t, "name": f"{t['name']}_{i}"} for i, t in enumerate(tools[:300])]}


def test_breaking_is_what_breaking_json_says_for_the_same_pair(served: Served,
                                                                  folder: Path) -> None:
    """github-mcp-server v0.20.0 pasted as the old version beside v1.10.1 checked as the
    new one: the answer is `schema-compat breaking OLD NEW --json`, key for key."""
    old = CORPUS / "github-mcp-server-toolsnaps-v0.20.0.json"
    new = CORPUS / "github-mcp-server-toolsnaps-v1.10.1-3-g64a49f34.json"
    run = _analyze_file(served, new)["run"]
    answer = request(served, "POST", "api/breaking", headers={"Origin": served.origin},
                     body={"old": old.read_text(encoding="utf-8"), "label": str(old),
                           "run": run})
    assert answer.status == 200, answer.body
    proc = _cli("breaking", str(old), str(new), "--json", cwd=folder)
    assert proc.returncode == 1, proc.stderr  # the pair breaks callers
    data = answer.json()
    assert data == json.loads(proc.stdout)
    status = {t["name"]: t["status"] for t in data["tools"]}
    assert status["add_project_item"] == "removed"  # in v0.20.0's listing, not in v1.10.1's
    assert status["dismiss_notification"] == "breaking"
    # the same listing on both sides: every tool unchanged, no finding
    same = request(served, "POST", "api/breaking", headers={"Origin": served.origin},
                   body={"old": new.read_text(encoding="utf-8"), "run": run}).json()
    assert {t["status"] for t in same["tools"]} == {"unchanged"}
    assert same["old"] == "<old>" and same["new"] == str(new)


@pytest.mark.parametrize(("body", "headers", "status", "error"), [
    ({"old": "{", "label": "v1.json"}, {}, 400, "v1.json"),
    ({"old": '{"tools": []}', "run": "0123456789abcdef"}, {}, 404, "no longer kept"),
    ({"old": 3}, {}, 400, 'expected {"old"'),
    ({"old": '{"tools": []}'}, {"Origin": "https://evil.example"}, 403, "Origin"),
])
def test_breaking_refuses_what_it_cannot_use(served: Served, body: dict[str, Any],
                                             headers: dict[str, str], status: int,
                                             error: str) -> None:
    """A bad old listing (named by its label), a run no longer kept, a body not of the
    form, and a post from another origin (the page's guard, as for every route)."""
    run = analyze(served, FS_READ_FILES.read_text(encoding="utf-8"))["run"]
    answer = request(served, "POST", "api/breaking",
                     headers={"Origin": served.origin, **headers}, body={"run": run, **body})
    assert answer.status == status, answer.body
    message = answer.json()["error"]
    assert error in message and "\n" not in message, message


def test_a_300_tool_listing_gives_its_full_matrix_and_a_cell_of_it(served: Served) -> None:
    # How fast this is is a benchmark's business (benchmarks, `make bench`), not a test's:
    # a wall-clock bound here fails whenever the shared machine is busy.
    data = analyze(served, json.dumps(_three_hundred_tools()))
    assert len(data["tools"]) == 300 and len(data["providers"]) == len(PROFILES)
    assert all(len(cells) == 300 for cells in data["cells"].values())
    assert isinstance(data["cpu_ms"], int | float) and data["cpu_ms"] >= 0, data
    assert request(served, "GET", f"api/cell?run={data['run']}&provider=openai-strict"
                                  "&tool=299").status == 200


def test_serve_on_a_taken_port_is_a_one_line_error(folder: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([PY, "-m", "schema_compat", "serve", "--no-open", "--port",
                               str(port)], capture_output=True, text=True, cwd=folder,
                              env=cli_env(folder), timeout=30, check=False)
    assert proc.returncode == 2
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"schema-compat: error: cannot listen on 127.0.0.1:{port}: ")
    assert "Traceback" not in proc.stderr


def test_help_imports_no_playground() -> None:
    probe = ("import runpy, sys, contextlib, io\n"
             "sys.argv = ['schema-compat', '--help']\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    try:\n"
             "        runpy.run_module('schema_compat', run_name='__main__', alter_sys=True)\n"
             "    except SystemExit:\n"
             "        pass\n"
             "print(sorted(m for m in sys.modules if 'playground' in m or m.startswith('http')"
             " or m == 'webbrowser'))\n")
    proc = subprocess.run([PY, "-c", probe], capture_output=True, text=True, cwd=REPO_ROOT,
                          timeout=30, check=True)
    assert proc.stdout.strip() == "[]"
    listing = subprocess.run([PY, "-m", "schema_compat", "--help"], capture_output=True,
                             text=True, cwd=REPO_ROOT, timeout=30, check=True).stdout
    assert "serve" in listing


@pytest.mark.slow  # a wheel build, ~6 s of CPU: `make test-slow` runs it
def test_a_wheel_carries_the_assets(tmp_path: Path) -> None:
    """A non-editable install has the page: the wheel holds every asset the server reads."""
    from schema_compat.playground.server import ASSETS

    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(REPO_ROOT / name, tree / name)
    shutil.copytree(REPO_ROOT / "schema_compat", tree / "schema_compat",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    env = dict(os.environ)
    env.pop("SCHEMA_COMPAT_COMPILE", None)
    # The build backend that `pip wheel --no-build-isolation` calls, called without pip's
    # own start-up (most of the time this test took).
    build = "import setuptools.build_meta as b, sys; b.build_wheel(sys.argv[1])"
    subprocess.run([PY, "-c", build, str(tmp_path / "dist")], check=True, env=env, cwd=tree,
                   capture_output=True, timeout=300)
    (wheel,) = (tmp_path / "dist").glob("schema_compat-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for asset in ASSETS:
            member = f"schema_compat/playground/assets/{asset}"
            assert member in names
            assert archive.read(member) == \
                (REPO_ROOT / "schema_compat" / "playground" / "assets" / asset).read_bytes()


def test_the_static_site_keeps_its_runs_between_calls() -> None:
    """The Pyodide page's engine (playground/static.py): a run analyzed by one call is the
    one a later call reads, and a bad body is a 400, not an exception."""
    from schema_compat.playground.static import Site

    site = Site()
    text = Path(FS_READ_FILES).read_text(encoding="utf-8")
    analyzed = json.loads(site.handle("POST", "api/analyze", json.dumps({"text": text})))
    assert analyzed["status"] == 200
    run = analyzed["data"]["run"]
    query = f"api/report?run={run}&provider=gemini&format=json"
    assert json.loads(site.handle("GET", query))["status"] == 200
    assert json.loads(Site().handle("GET", query))["status"] == 404  # another page's engine
    assert json.loads(site.handle("POST", "api/analyze", "[]"))["status"] == 400
