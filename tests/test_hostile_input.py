"""Hostile input through the CLI: nothing a user or a server can put in a file makes the
tool print a traceback, hang, fetch a reference or read a local file.

Most cases run the CLI in-process (`schema_compat.cli.main`, so hypothesis can try many
inputs) with SCHEMA_COMPAT_DEBUG=1: a bug then raises here instead of being turned into the
one-line "internal error", so "exit 2 or a finding" is checked for real. The cases about
processes (a 100 MB file, no network request, a hang) run the real command in a subprocess
with a timeout. Memory is measured by `make bench` (benchmarks/hostile.py), not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inprocess import cli_in_process, run_main
from jsonpath_ng import parse as jsonpath_parse

from schema_compat.cli import main
from schema_compat.extract.files import load_sources
from schema_compat.paths import parse_pointer
from schema_compat.profiles import PROFILES

SHAPES_DIR = Path(__file__).parent / "data" / "shapes"
HOSTILE = settings(max_examples=60, deadline=None, database=None,
                   suppress_health_check=list(HealthCheck))
ODD_KEYS = ['a"b', "a'b", "a.b", "a\nb", "$", "$ref", "a$b", "é漢字🙂", "", "0", "[0]",
            "a]b['c", "~/~0", "where", "\\", "a b\tc", "\u2028", "*", "..", "@"]


def _good_shape_files() -> list[Path]:
    """The sample files of every accepted file shape (those that load without error)."""
    found = []
    for path in sorted(SHAPES_DIR.glob("*.json")):
        sources, errors = load_sources([str(path)])
        if not errors and any(s.tools for s in sources):
            found.append(path)
    return found


SHAPE_FILES = _good_shape_files()
# main() raises the limit to this on start; doing it once here keeps hypothesis from warning
# that the limit changed during a test.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))


def cli(*args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """Run the CLI in-process; a bug raises (SCHEMA_COMPAT_DEBUG=1) instead of exiting 2."""
    return run_main(main, args, stdin)


def assert_clean_exit(code: int, stdout: str, stderr: str, *, findings_expected: bool = False
                      ) -> None:
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    assert code in (0, 1, 2), (code, stderr)
    if code == 2:
        assert "error" in stderr, stderr
    if findings_expected:
        assert code in (1, 2), (code, stdout)


# --- random bytes and random JSON, every shape ------------------------------------------

@HOSTILE
@given(st.binary(max_size=300))
def test_random_bytes_are_one_error_line_and_exit_2(data: bytes) -> None:
    try:
        json.loads(data.decode("utf-8"))
        is_json = True
    except (UnicodeDecodeError, ValueError):
        is_json = False
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.json"
        path.write_bytes(data)
        # stdin and a file take different read paths; transform must not write on failure.
        for args, stdin in ((("check", "-"), data), (("check", str(path)), b""),
                            (("transform", str(path), "-o", f"{tmp}/out.json"), b"")):
            code, out, err = cli(*args, stdin=stdin)
            assert_clean_exit(code, out, err)
            if not is_json:
                assert code == 2, args
                assert len([line for line in err.splitlines() if "error" in line]) == 1, err
        if not is_json:
            assert not (Path(tmp) / "out.json").exists()


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False,
                                                               allow_infinity=False),
              st.text(max_size=8), st.sampled_from(["object", "string", "#/$defs/A", "#"])),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(
            ["type", "properties", "items", "$ref", "$defs", "anyOf", "name", "inputSchema",
             "tools", "parameters", "functionDeclarations", "function", "input_schema",
             "required", "enum", *ODD_KEYS]), st.text(max_size=5)), children, max_size=5)),
    max_leaves=25)


def _replace_at(document: Any, choices: list[int], value: Any) -> Any:
    """Put `value` somewhere in `document`, following `choices` down the tree."""
    if not choices or not isinstance(document, (dict, list)) or not document:
        return value
    keys = list(document) if isinstance(document, dict) else list(range(len(document)))
    key = keys[choices[0] % len(keys)]
    copy: Any = dict(document) if isinstance(document, dict) else list(document)
    copy[key] = _replace_at(document[key], choices[1:], value)
    return copy


@HOSTILE
@given(st.sampled_from(SHAPE_FILES), st.lists(st.integers(0, 50), max_size=8), JSON_VALUES)
def test_random_json_in_every_file_shape_is_a_finding_or_exit_2(
        shape: Path, choices: list[int], value: Any) -> None:
    document = _replace_at(json.loads(shape.read_text(encoding="utf-8-sig")), choices, value)
    code, out, err = cli("check", "--json", "-", stdin=json.dumps(document).encode())
    assert_clean_exit(code, out, err)
    report = json.loads(out)
    if code == 2:
        assert report["errors"], err
    else:
        assert report["errors"] == []
    code, out, err = cli("transform", "-", stdin=json.dumps(document).encode())
    assert_clean_exit(code, out, err)
    if code != 2:
        json.loads(out)  # the transformed document is JSON


def test_the_shape_samples_cover_every_shape() -> None:
    from schema_compat.extract.shapes import SHAPES, analyse

    seen = {analyse(json.loads(p.read_text(encoding="utf-8-sig"))).shape for p in SHAPE_FILES}
    assert seen == set(SHAPES)


# --- keys with quotes, dots, newlines, `$`, unicode ---------------------------------------

@HOSTILE
@given(st.lists(st.one_of(st.sampled_from(ODD_KEYS), st.text(max_size=6)), min_size=1,
                max_size=4, unique=True))
def test_odd_property_names_keep_their_paths_and_survive_transform(keys: list[str]) -> None:
    props = {k: {"type": ["string", "null"], "enum": ["x", None], "$comment": k}
             for k in keys}
    schema = {"type": "object", "properties": {
        "outer": {"type": "object", "properties": props, "additionalProperties": False}},
        "$defs": {k: {"type": "string"} for k in keys}}
    text = json.dumps({"tools": [{"name": "odd", "inputSchema": schema}]})
    code, out, err = cli("check", "--json", "-", stdin=text.encode())
    assert_clean_exit(code, out, err, findings_expected=True)
    tool = json.loads(out)["tools"][0]
    for issue in tool["issues"]:
        if not issue["pointer"]:
            continue
        tokens = parse_pointer(issue["pointer"])
        assert tokens is not None
        node: Any = schema
        for token in tokens:
            node = node[int(token)] if isinstance(node, list) else node[token]
        found = [m.value for m in jsonpath_parse(issue["path"]).find(schema)]
        assert found == [node], (issue["path"], issue["pointer"])
    code, out, err = cli("transform", "-", stdin=text.encode())
    assert_clean_exit(code, out, err)
    after = json.loads(out)["tools"][0]["inputSchema"]
    assert list(after["properties"]["outer"]["properties"]) == keys


# --- references: DAGs, cycles through allOf/anyOf ------------------------------------------

def _listing(schema: Any) -> bytes:
    return json.dumps({"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
                      ).encode()


CYCLES = {
    "self_allof": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                   "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}},
    "allof_anyof": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                    "$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}, {"type": "object"}]},
                              "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}}},
    "anyof_only": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                   "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]}}},
    "root": {"type": "object", "properties": {"again": {"$ref": "#"},
                                              "union": {"anyOf": [{"$ref": "#"}]}}},
    "oneof_pair": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                   "$defs": {"A": {"oneOf": [{"$ref": "#/$defs/B"}, {"type": "string"}]},
                             "B": {"allOf": [{"$ref": "#/$defs/A"}]}}},
}


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("name", sorted(CYCLES))
def test_cycles_through_all_of_and_any_of_end_in_a_finding(name: str, profile: str) -> None:
    code, out, err = cli("check", "--json", "-p", profile, "-", stdin=_listing(CYCLES[name]))
    assert_clean_exit(code, out, err)
    assert code in (0, 1)
    code, out, err = cli("transform", "--json", "-p", profile, "-",
                         stdin=_listing(CYCLES[name]))
    assert_clean_exit(code, out, err)
    tool = json.loads(out)["tools"][0]
    # Whatever was done to the cycle is reported; nothing was inlined forever.
    assert len(json.dumps(tool["transformed_schema"])) < 100_000
    if tool["transformed_schema"] != tool["original_schema"]:
        assert tool["transforms_applied"]


def test_a_dag_of_refs_through_unions_is_refused_not_expanded() -> None:
    defs: dict[str, Any] = {"D0": {"type": "string"}}
    for i in range(1, 60):
        defs[f"D{i}"] = {"anyOf": [{"$ref": f"#/$defs/D{i - 1}"},
                                   {"allOf": [{"$ref": f"#/$defs/D{i - 1}"}]}]}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/D59"}}, "$defs": defs}
    for profile in ("gemini", "vertex", "openai-strict", "anthropic-strict"):
        code, out, err = cli("check", "--json", "-p", profile, "-", stdin=_listing(schema))
        assert_clean_exit(code, out, err, findings_expected=True)
        codes = {i["code"] for t in json.loads(out)["tools"] for i in t["issues"]}
        if profile in ("gemini", "vertex"):
            assert "REF006" in codes, (profile, codes)


def test_a_long_chain_of_refs_past_the_depth_budget_is_refused() -> None:
    defs = {f"D{i}": {"type": "object", "properties": {"n": {"$ref": f"#/$defs/D{i + 1}"}}}
            for i in range(300)}
    defs["D300"] = {"type": "string"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs}
    code, out, err = cli("transform", "--json", "-", stdin=_listing(schema))
    assert_clean_exit(code, out, err, findings_expected=True)
    assert "REF006" in {i["code"] for i in json.loads(out)["tools"][0]["remaining_issues"]}


def test_nesting_just_inside_the_depth_limit_is_checked_and_transformed() -> None:
    """The reader allows 256 levels; every walker must cope with all of them."""
    node: Any = {"type": ["string", "null"]}
    for _ in range(124):  # two JSON levels per object level, plus the listing around it
        node = {"type": "object", "properties": {"n": node}}
    for command in ("check", "transform", "diff"):
        args = [command, "-"] if command != "diff" else ["diff", "t", "-"]
        code, out, err = cli(*args, stdin=_listing(node))
        assert_clean_exit(code, out, err)
        assert code in (0, 1), (command, err)


@pytest.mark.parametrize("command", ["check", "transform", "diff"])
def test_ten_thousand_levels_is_exit_2_for_every_command(command: str) -> None:
    text = '{"tools": [{"name": "t", "inputSchema": ' + '{"items": ' * 10_000 + "{}" + \
        "}" * 10_000 + "}]}"
    args = [command, "-"] if command != "diff" else ["diff", "t", "-"]
    code, out, err = cli(*args, stdin=text.encode())
    assert_clean_exit(code, out, err)
    assert code == 2
    assert "nested deeper than 256 levels" in err


# --- remote and file references are never followed ---------------------------------------

class _Counter(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Counter.hits.append(self.path)
        body = json.dumps({"type": "string", "description": "FETCHED-FROM-SERVER"}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def loopback_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Counter.hits = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _remote_schema(base: str, secret: Path) -> dict[str, Any]:
    return {"$schema": f"{base}/meta.json", "$id": f"{base}/root.json",
            "type": "object", "properties": {
                "abs": {"$ref": f"{base}/abs.json"},
                "rel": {"$ref": "relative.json#/x"},
                "items": {"type": "array", "items": {"$ref": f"{base}/item.json"}},
                "union": {"anyOf": [{"$ref": f"{base}/u.json"}, {"type": "null"}]},
                "file": {"$ref": secret.as_uri()},
                "file_rel": {"$ref": f"file:{secret.name}"}}}


def test_remote_refs_send_no_request_to_a_listening_server(loopback_server: str,
                                                           tmp_path: Path) -> None:
    # The server answers (proved below), so silence from the CLI is not a failed fetch.
    import urllib.request

    with urllib.request.urlopen(f"{loopback_server}/probe.json", timeout=5) as response:
        assert b"FETCHED-FROM-SERVER" in response.read()
    assert _Counter.hits == ["/probe.json"]
    _Counter.hits = []
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"type": "string", "description": "SECRET-CONTENT"}))
    source = tmp_path / "tools.json"
    source.write_text(_listing(_remote_schema(loopback_server, secret)).decode())
    for profile in sorted(PROFILES):
        for command in ("check", "transform"):
            # in-process, as SCHEMA_COMPAT_DEBUG=1: a request would reach the server all the same
            proc = cli_in_process(command, "--json", "-p", profile, str(source), cwd=tmp_path)
            assert_clean_exit(proc.returncode, proc.stdout, proc.stderr)
            assert "FETCHED-FROM-SERVER" not in proc.stdout
            assert "SECRET-CONTENT" not in proc.stdout
    assert _Counter.hits == []


def test_file_refs_are_never_opened(tmp_path: Path) -> None:
    """An audit hook sees every open(), URL request and socket; none may name the referenced
    files, and there is no request or connection at all."""
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"type": "string", "description": "SECRET-CONTENT"}))
    fifo = tmp_path / "never.fifo"
    os.mkfifo(fifo)  # opening it for reading would block: a read would hang the test
    schema = _remote_schema("http://127.0.0.1:9", secret)
    schema["properties"]["fifo"] = {"$ref": fifo.as_uri()}
    opened: list[str] = []
    network: list[str] = []
    watching = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if not watching[0]:
            return
        if event == "open" and args and isinstance(args[0], (str, Path)):
            opened.append(str(args[0]))
        elif event in ("urllib.Request", "socket.connect", "socket.getaddrinfo"):
            network.append(f"{event} {args!r}")

    sys.addaudithook(hook)
    cwd = os.getcwd()
    os.chdir(tmp_path)  # so that `file:secret.json` would resolve to the secret
    try:
        for profile in sorted(PROFILES):
            code, out, err = cli("transform", "--json", "-p", profile, "-",
                                 stdin=_listing(schema))
            assert_clean_exit(code, out, err)
            assert "SECRET-CONTENT" not in out
    finally:
        os.chdir(cwd)
        watching[0] = False
    assert [p for p in opened if str(tmp_path) in p
            or p.endswith(("secret.json", "never.fifo"))] == []
    assert network == []


# --- a 100 MB input ------------------------------------------------------------------------

def test_a_100_mb_listing_is_checked_in_a_subprocess(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("w") as fh:
        fh.write('{"tools": [')
        for i in range(20):
            schema = {"type": "object", "properties": {
                "q": {"type": "string", "format": "uri", "description": "d" * 5_000_000},
                "n": {"type": ["integer", "null"]}}}
            fh.write(("," if i else "") + json.dumps({"name": f"tool_{i}",
                                                      "inputSchema": schema}))
        fh.write("]}")
    assert big.stat().st_size > 100_000_000
    env = {**os.environ, "NO_COLOR": "1", "SCHEMA_COMPAT_DEBUG": "1"}
    proc = subprocess.run([sys.executable, "-m", "schema_compat", "check", str(big)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert_clean_exit(proc.returncode, proc.stdout, proc.stderr, findings_expected=True)
    assert "20 tools: 0 compatible, 20 incompatible" in proc.stdout


def test_a_newline_in_a_key_keeps_each_text_finding_on_its_line() -> None:
    keys = ["a\nb", "c\u2028d", "e\tf\r"]
    schema = {"type": "object", "properties": {k: {"type": ["string", "null"]} for k in keys}}
    code, out, err = cli("check", "-", stdin=_listing(schema))
    assert_clean_exit(code, out, err, findings_expected=True)
    starts = [line.split("$", 1)[1].split(" ", 1)[0] for line in out.splitlines()
              if line.strip().startswith("error TYP001")]
    assert starts == [".properties['a\\nb'].type", ".properties['c\\u2028d'].type",
                      ".properties['e\\tf\\r'].type"], out
    # The JSON report keeps the raw key: that is what jsonpath-ng reads back.
    code, out, err = cli("check", "--json", "-", stdin=_listing(schema))
    paths = [i["path"] for i in json.loads(out)["tools"][0]["issues"] if i["code"] == "TYP001"]
    assert paths == [f"$.properties['{k}'].type" for k in keys]
