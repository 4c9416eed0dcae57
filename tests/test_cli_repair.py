"""`schema-compat repair`: arguments in (text, @FILE, stdin), repaired arguments out, the
coercions on stderr or in the --json object; bad input is one line and exit 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import RunCli

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import SERVERS, cmd

LISTING = "examples/fs_read_files.json"
CALL = {"files": '[{"path": "a.txt", "head": "2"}]', "large_file_passthrough": "true"}
REPAIRED = {"files": [{"path": "a.txt", "head": 2}], "large_file_passthrough": True}


def test_text_output_arguments_on_stdout_coercions_on_stderr(cli_here: RunCli) -> None:
    proc = cli_here("repair", "--tool", "read_files", LISTING, "--args", json.dumps(CALL))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == REPAIRED
    assert proc.stderr.splitlines() == [
        'repaired $.files: "[{\\"path\\": \\"a.txt\\", \\"head\\": \\"2\\"… → '  # cut at 40
        '[{"path": "a.txt", "head": "2"}] (json-array)',
        'repaired $.files[0].head: "2" → 2 (integer)',
        'repaired $.large_file_passthrough: "true" → true (boolean)',
    ]


def test_json_output(cli_here: RunCli) -> None:
    proc = cli_here("repair", "-t", "read_files", LISTING, "--args", json.dumps(CALL), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert json.loads(proc.stdout) == {
        "arguments": REPAIRED,
        "coercions": [
            {"path": "$.files", "pointer": "/files", "kind": "json-array",
             "from": CALL["files"], "to": [{"path": "a.txt", "head": "2"}]},
            {"path": "$.files[0].head", "pointer": "/files/0/head", "kind": "integer",
             "from": "2", "to": 2},
            {"path": "$.large_file_passthrough", "pointer": "/large_file_passthrough",
             "kind": "boolean", "from": "true", "to": True},
        ],
        "valid": True,
        "errors": [],
    }


def test_args_from_a_file_and_from_stdin(cli_here: RunCli, tmp_path: Path) -> None:
    call = tmp_path / "call.json"
    call.write_text(json.dumps(CALL))
    from_file = cli_here("repair", "-t", "read_files", LISTING, "--args", f"@{call}")
    assert json.loads(from_file.stdout) == REPAIRED
    from_stdin = cli_here("repair", "-t", "read_files", LISTING, "--args", "-",
                         input=json.dumps(CALL))
    assert json.loads(from_stdin.stdout) == REPAIRED


def test_still_invalid_exits_1_and_says_where(cli_here: RunCli) -> None:
    proc = cli_here("repair", "-t", "read_files", LISTING, "--json",
                   "--args", '{"files": "[{\\"head\\": \\"x\\"}]"}')
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert data["valid"] is False
    assert data["arguments"] == {"files": [{"head": "x"}]}
    assert data["errors"] == ["$.files[0]: 'path' is a required property",
                              "$.files[0].head: 'x' is not valid under any of the given "
                              "schemas"]


def test_renamed_tool_found_through_the_provider(cli_here: RunCli, tmp_path: Path) -> None:
    listing = tmp_path / "tools.json"
    listing.write_text(json.dumps({"tools": [{"name": "get weather", "inputSchema": {
        "type": "object", "properties": {"days": {"type": "integer"}}}}]}))
    # without --provider, the name the default provider's transform sends is read too
    plain = cli_here("repair", "-t", "get_weather", str(listing), "--args", '{"days": "3"}')
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout) == {"days": 3}
    assert "is 'get weather' of" in plain.stderr
    proc = cli_here("repair", "-t", "get_weather", "-p", "gemini", str(listing),
                   "--args", '{"days": "3"}')
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"days": 3}


def test_bad_input_is_one_line_and_exit_2(cli_here: RunCli, tmp_path: Path) -> None:
    cases = [
        (("--args", "{}"), "schema-compat: error: --tool NAME is required (name the tool "
                           "whose arguments these are)"),
        (("-t", "read_files"), "schema-compat: error: --args is required (give JSON text, "
                               "@FILE, or - for stdin)"),
        (("-t", "read_files", "--args", '{"files": '),
         "schema-compat: error: --args not valid JSON: Expecting value at line 1, column 11 "
         "(check the file is JSON, not JSON5 or YAML: no comments, trailing commas or single "
         "quotes)"),
        (("-t", "nope", "--args", "{}"), "schema-compat: error: no tool named 'nope' (tools "
                                         "here: read_files, propose_and_review)"),
        (("-t", "read_files", "--args", f"@{tmp_path / 'missing.json'}"),
         f"schema-compat: error: {tmp_path / 'missing.json'}: no such file or directory "
         "(check the path)"),
    ]
    for extra, line in cases:
        proc = cli_here("repair", LISTING, *extra)
        assert proc.returncode == 2, extra
        assert proc.stderr.splitlines() == [line], extra
        assert proc.stdout == ""


def test_from_a_live_server(cli_here: RunCli) -> None:
    # the example's listing, served without the SDK
    proc = cli_here("repair", "-t", "propose_and_review", "--server",
                    cmd(SERVERS / "listing_server.py"), "--json",
                    "--args", json.dumps({"path": "f", "edits": '[{"match_text": "a", '
                                                           '"new_string": "b"}]',
                                     "expected_replacements": "2"}))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["arguments"] == {
        "path": "f", "edits": [{"match_text": "a", "new_string": "b"}],
        "expected_replacements": 2}


def test_repair_on_a_file_does_not_import_the_mcp_sdk() -> None:
    from test_imports import _imported

    code, heavy, stderr = _imported("repair", "-t", "read_files", LISTING,
                                    "--args", json.dumps(CALL))
    assert code == 0, stderr
    assert "jsonschema" in heavy  # proves the repair really ran in the probe
    assert "mcp" not in heavy


def test_help_of_repair_and_proxy_imports_nothing_heavy() -> None:
    from test_imports import _imported

    for command in ("repair", "proxy"):
        code, heavy, stderr = _imported(command, "--help")
        assert code == 0, stderr
        assert heavy <= {"typer"}, command  # typer parses the command line; nothing more
