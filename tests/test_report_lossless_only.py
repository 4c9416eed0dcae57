"""`check --lossless-only`: the reports say what that run does, fix by fix.

A finding's fix class says what the fix does whether or not it is made (the JSON contract,
docs/architecture.md); under --lossless-only every fix that is not lossless is refused, and
the text report, the matrix key and the JSON report (`fix.applied`, `summary.refused`,
`lossless_only`) say so instead of offering fixes the run will not make. Each case runs the
real engine on examples/mixed.json, where `update_ticket` needs one lossless fix (TYP001),
two hinted ones (VAL002, OBJ001) and one lossy (UNI003).
"""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
from inprocess import cli_in_process

from schema_compat.report.json import report_json_schema

MIXED = "examples/mixed.json"


def _text(*args: str) -> str:
    proc = cli_in_process("check", *args, MIXED)
    assert proc.returncode == 1, proc.stderr
    return " ".join(proc.stdout.split())  # one line: the report wraps at the width


def _json(*args: str) -> dict[str, Any]:
    proc = cli_in_process("check", "--json", *args, MIXED)
    assert proc.returncode == 1, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    jsonschema.Draft202012Validator(report_json_schema()).validate(data)
    return data


def test_text_report_marks_refused_fixes_and_counts_applied_and_refused() -> None:
    out = _text("--lossless-only", "-t", "update_ticket")
    assert "not fixable with --lossless-only (2 errors left after transform)" in out
    tags = dict(re.findall(r"(TYP001|VAL002|OBJ001|UNI003) .*?"
                           r"\[((?:not applied|lossless|hinted|lossy)[^\]]*)\]", out))
    assert tags == {"TYP001": "lossless: equal, kept",
                    "VAL002": "not applied: hinted, --lossless-only",
                    "OBJ001": "not applied: hinted, --lossless-only",
                    "UNI003": "not applied: lossy, --lossless-only"}
    assert ("4 findings (3 errors, 1 warning): 1 fix applied (1 lossless), 3 refused by "
            "--lossless-only (2 hinted, 1 lossy)") in out
    assert "fixable (" not in out  # no fix offered that the run refuses
    # the one applied fix is the one change made
    assert "to fix 1 finding with 1 change," in out
    assert "1 tool stays incompatible after transform with --lossless-only: update_ticket" in out


def test_text_report_without_the_option_is_unchanged() -> None:
    out = _text("-t", "update_ticket")
    assert "not applied" not in out and "--lossless-only" not in out
    assert "[hinted: wider, described]" in out and "[lossy: narrower, described]" in out
    assert "4 findings (3 errors, 1 warning): 4 fixable (1 lossless, 2 hinted, 1 lossy)" in out


def test_json_fix_classes_keep_their_meaning_and_applied_says_what_was_made() -> None:
    plain = _json("-t", "update_ticket")
    only = _json("--lossless-only", "-t", "update_ticket")
    assert plain["lossless_only"] is False and only["lossless_only"] is True

    def classes(data: dict[str, Any]) -> list[tuple[str, Any, Any]]:
        return [(i["code"], i["fix"]["safety"], i["fix"]["effect"])
                for i in data["tools"][0]["issues"]]

    assert classes(only) == classes(plain)  # the contract: the option does not reclass
    assert only["summary"]["fixable"] == plain["summary"]["fixable"]
    assert all(i["fix"]["applied"] for i in plain["tools"][0]["issues"])
    assert plain["summary"]["refused"] == 0

    tool = only["tools"][0]
    applied = {i["code"] for i in tool["issues"] if i["fix"]["applied"]}
    refused = {i["code"] for i in tool["issues"] if not i["fix"]["applied"]}
    # what the transform did, read from its own record, not from the flag
    assert applied == {c["code"] for c in tool["transforms_applied"]} == {"TYP001"}
    assert refused == {i["code"] for i in tool["remaining_issues"]} == {
        "VAL002", "OBJ001", "UNI003"}
    assert all(not i["fix"]["applied"] for i in tool["remaining_issues"])
    assert only["summary"]["refused"] == 3


def test_json_of_several_providers_marks_each_providers_refusals() -> None:
    data = _json("--lossless-only", "-p", "gemini,openai")
    assert data["lossless_only"] is True
    for name, section in data["providers"].items():
        issues = [i for t in section["tools"] for i in t["issues"] if i["fix"]]
        refused = [i for i in issues if not i["fix"]["applied"]]
        assert [i for i in issues if i["fix"]["safety"] != "lossless"] == refused, name
        assert section["summary"]["refused"] == len(refused), name
    assert data["providers"]["gemini"]["summary"]["refused"] > 0


def test_matrix_key_says_what_a_cross_means_under_the_option() -> None:
    only = _text("--lossless-only", "-p", "gemini,openai")
    assert "✗ not with --lossless-only" in only
    assert "cannot be made to work" not in only and "lossy: fixable" not in only
    plain = _text("-p", "gemini,openai")
    assert "✗ cannot be made to work" in plain and "--lossless-only" not in plain


def test_transform_summary_says_the_errors_stand_under_the_option() -> None:
    proc = cli_in_process("transform", "--lossless-only", "-t", "update_ticket", MIXED)
    assert proc.returncode == 1, proc.stderr
    assert "1 change (1 lossless)" in proc.stderr
    assert "1 tool still incompatible after transform with --lossless-only:" in proc.stderr
    plain = cli_in_process("transform", "-t", "update_ticket", MIXED)
    assert "--lossless-only" not in plain.stderr
