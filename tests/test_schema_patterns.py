"""A schema's pattern never takes unbounded time on text we do not control (issue 28, 1).

`"pattern": "^(a+)+$"` against 26 `a`s and a `!` kept Python's backtracking `re` busy for
half a minute (twice that per further character) in `repair`, in the proxy (every other
request waiting behind it) and in the merge of two closed objects (a server's own property
name). Each test here runs what used to stall in a process of its own with a deadline far
below that, so that without the fix it fails instead of hanging. Patterns RE2 cannot run
(lookaround, backreferences) are reported as not checked, never handed to `re`.

Also `repair` on numbers no double or Python int holds (issue 28, 5): no internal error.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema.validators import validator_for
from mcp.client.session import ClientSession
from referencing.exceptions import Unresolvable

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from client_sessions import proxy_session, result_text
from launch import PY, REPO_ROOT, SERVERS, cli

from schema_compat import repair
from schema_compat.schema.patterns import PatternUnchecked, search
from schema_compat.validation import validator

HOSTILE = "^(a+)+$"
# The issue's 26 `a`s and a `!` took 5-34 s under `re`, each further `a` twice that: with 34,
# a test without the fix runs into its deadline on any machine.
ISSUE_WORD = "a" * 26 + "!"
WORD = "a" * 34 + "!"
LOOKAHEAD = "^(?=.*[0-9])[a-z0-9]+$"
# far below what `re` takes over WORD, far above what RE2 needs on a loaded machine
DEADLINE = 20.0
UNCHECKED = "cannot be checked in bounded time, so it was not run"


def _tools_file(tmp_path: Path, schema: dict[str, Any]) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": schema}]}))
    return path


# --- the matcher ---------------------------------------------------------------------------


def test_a_catastrophic_pattern_is_matched_in_linear_time() -> None:
    assert search(HOSTILE, "a" * 100_000 + "!") is False
    assert search(HOSTILE, "a" * 100_000) is True


@pytest.mark.parametrize(("pattern", "text"), [
    (r"^\d{4}-\d{2}-\d{2}$", "2024-01-31"), (r"^\d{4}-\d{2}-\d{2}$", "2024-1-31"),
    (r"^[a-z0-9][a-z0-9_-]*$", "ok_name"), (r"^[a-z0-9][a-z0-9_-]*$", "-bad"),
    (r"^#[a-fA-F0-9]{6}$", "#00ffAA"), ("^=", "=SUM(A1)"), ("b", "abc"),
    (r"^[\u4e00-\u9fa5]+$", "中文"), (r"^[\u4e00-\u9fa5]+$", "abc"),
    (r"\\u0041", "\\u0041"), (r"\\u0041", "A"), (r"^\u00e9$", "é"),
    (r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$", "mcp.example.com"),
])
def test_a_pattern_both_engines_run_gives_res_answer(pattern: str, text: str) -> None:
    """Python's `re` (on text too short to backtrack long) is the oracle; `\\uXXXX`, which
    RE2 spells `\\x{XXXX}`, included."""
    assert search(pattern, text) is (re.search(pattern, text) is not None)


def test_an_ecma_surrogate_pair_escape_is_one_character() -> None:
    """ECMA-262 strings are UTF-16: `\\ud83d\\ude00` is 😀, as JavaScript's /^\\ud83d\\ude00$/
    tests it. Python's `re` reads two lone surrogates instead, and would say no."""
    assert search(r"^\ud83d\ude00$", "😀") is True
    assert search(r"^\u{1F600}$", "😀") is True


@pytest.mark.parametrize("pattern", [LOOKAHEAD, r"^(?!x)", r"(a)\1", r"\Z", 5])
def test_a_pattern_re2_cannot_run_is_reported_not_run(pattern: Any) -> None:
    with pytest.raises(PatternUnchecked, match=UNCHECKED):
        search(pattern, "abc1")


def test_a_lone_surrogate_in_the_text_is_read_as_a_replacement_character() -> None:
    """RE2 reads UTF-8, which cannot hold one; a model's JSON can (`"\\ud800"`)."""
    assert search("^.$", "\ud800") is True
    assert search("^[a-z]+$", "ab\ud800") is False


def test_without_re2_every_pattern_is_reported_not_run() -> None:
    """The fallback when google-re2 cannot be imported: nothing is handed to `re`."""
    code = ("import sys; sys.modules['re2'] = None\n"
            "from schema_compat.schema.patterns import PatternUnchecked, search\n"
            "try:\n    search('^a$', 'a')\nexcept PatternUnchecked as exc:\n    print(exc)")
    proc = subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True,
                          timeout=DEADLINE, cwd=REPO_ROOT)
    assert proc.stdout == f"pattern '^a$' {UNCHECKED}: the google-re2 package is not " \
                          "installed\n"


# --- jsonschema, with bounded patterns -------------------------------------------------------

SAFE_SCHEMAS = [
    {"type": "object", "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}},
     "patternProperties": {"^x-": {"type": "integer"}, "^n[0-9]$": {"type": "number"}},
     "additionalProperties": False},
    {"type": "object", "patternProperties": {"^x-": {"type": "integer"}},
     "additionalProperties": {"type": "string"}},
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
     "propertyNames": {"pattern": "^[a-z-]+$"}, "patternProperties": {"^x-": {}},
     "additionalProperties": False},
    {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
     "properties": {"id": {"pattern": "^[a-z]+$"}}, "patternProperties": {"^x-": {}},
     "additionalProperties": False},
    {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
     "properties": {"id": {"type": "string"}},
     "allOf": [{"$ref": "#/$defs/Ext"}],
     "if": {"properties": {"id": {"const": "a"}}},
     "then": {"properties": {"extra": {"type": "integer"}}},
     "$defs": {"Ext": {"patternProperties": {"^x-": {"type": "integer"}}}},
     "unevaluatedProperties": False},
    {"type": "object", "anyOf": [{"patternProperties": {"^n": {"type": "integer"}}},
                                 {"properties": {"s": {"type": "string"}}}],
     "unevaluatedProperties": {"type": "boolean"}},
]
INSTANCES = [
    {}, {"id": "abc"}, {"id": "ABC"}, {"x-a": 1}, {"x-a": "1"}, {"n1": 1.5}, {"n12": 1},
    {"other": "s"}, {"other": 1}, {"id": "a", "extra": 2}, {"id": "b", "extra": 2},
    {"n": 1, "s": "t"}, {"n": "1", "s": "t", "z": True}, {"z": "no"}, {"Bad_Name": 1},
]


@pytest.mark.parametrize("schema", SAFE_SCHEMAS)
def test_the_bounded_validator_agrees_with_jsonschema_on_safe_patterns(
        schema: dict[str, Any]) -> None:
    """jsonschema's own validator (Python `re`, harmless on these) is the oracle: the same
    verdict and the same messages at the same paths, instance by instance."""
    ours = validator(schema)
    theirs = validator_for(schema)(schema)

    def errors(v: Any, instance: Any) -> list[tuple[list[Any], str]]:
        return sorted((list(e.absolute_path), e.message) for e in v.iter_errors(instance))

    for instance in INSTANCES:
        assert ours.is_valid(instance) == theirs.is_valid(instance), instance
        assert errors(ours, instance) == errors(theirs, instance), instance


D2020 = "https://json-schema.org/draft/2020-12/schema"
TREE = {"$schema": D2020, "$id": "https://e.x/tree", "$dynamicAnchor": "node",
        "properties": {"data": True, "kids": {"items": {"$dynamicRef": "#node"}}}}
KIDS = {"$id": "https://e.x/kids", "$dynamicAnchor": "meta",
        "properties": {"kids": {"items": {"$dynamicRef": "#meta",
                                          "unevaluatedProperties": False}}}}
# (schema, instances): what `unevaluatedProperties` evaluates through a reference depends on
# where it resolves from: the validator's own resolver, as jsonschema's keywords use it
REFERENCING = [
    # the $id scope: `item` is https://e.x/sub/item from inside https://e.x/sub/inner
    ({"$id": "https://e.x/root",
      "properties": {"inner": {"$id": "https://e.x/sub/inner", "$ref": "item",
                               "unevaluatedProperties": False}},
      "$defs": {"a": {"$id": "https://e.x/sub/item", "properties": {"k": {"type": "string"}}},
                "b": {"$id": "https://e.x/item", "properties": {"q": {}}}}},
     [{"inner": {"k": "v"}}, {"inner": {"q": "v"}}, {"inner": {"k": 1, "z": 1}}]),
    # the dynamic scope: `#meta` is the referring resource's anchor, not KIDS' own
    ({"$id": "https://e.x/r", "$dynamicAnchor": "meta", "properties": {"extra": True},
      "$ref": "https://e.x/kids", "$defs": {"kids": KIDS}},
     [{"kids": [{"extra": 1}]}, {"kids": [{"other": 1}]}, {"kids": [{"kids": []}]}]),
    # a target naming its draft, which jsonschema validates with its own class: the
    # specification's strict tree, and a reference to the draft's meta-schema
    ({"$schema": D2020, "$id": "https://e.x/strict", "$dynamicAnchor": "node",
      "$ref": "tree", "unevaluatedProperties": False, "$defs": {"tree": TREE}},
     [{"kids": [{"daat": 1}]}, {"kids": [{"data": 1}]}, {"data": 1, "x": 2}]),
    ({"$ref": "#/$defs/m", "$defs": {"m": {"$ref": D2020}}, "unevaluatedProperties": False},
     [{"type": "string"}, {"zz": 1}]),
    ({"$schema": D2020, "properties": {"n": {"type": "integer"}, "kids": {"items": {"$ref": "#"}}},
      "unevaluatedProperties": False},
     [{"n": 1, "kids": [{"n": 2}]}, {"kids": [{"zz": 1}]}]),
    # draft 2019-09's `$recursiveRef`, to a root that names its draft
    ({"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": True,
      "properties": {"a": {"type": "integer"},
                     "sub": {"$recursiveRef": "#", "unevaluatedProperties": False}},
      "unevaluatedProperties": False},
     [{"sub": {"a": 1}}, {"sub": {"b": 1}}, {"a": "1", "sub": {"sub": {"a": "2"}}}]),
    # an anchor, and `then` through a reference
    ({"$defs": {"a": {"$anchor": "foo", "properties": {"v": {"type": "number"}}}},
      "$ref": "#foo", "unevaluatedProperties": False}, [{"v": 2}, {"v": 2, "y": 1}]),
    ({"if": {"properties": {"k": {"const": 1}}}, "then": {"$ref": "#/$defs/t"},
      "else": {"properties": {"e": True}}, "$defs": {"t": {"properties": {"t": {}}}},
      "unevaluatedProperties": False}, [{"k": 1, "t": 1}, {"k": 2, "e": 1}, {"k": 1, "e": 1}]),
]


@pytest.mark.parametrize(("schema", "instances"), REFERENCING)
def test_unevaluated_properties_follow_references_as_jsonschema_does(
        schema: dict[str, Any], instances: list[Any]) -> None:
    ours = validator(schema)
    theirs = validator_for(schema)(schema)
    for instance in instances:
        assert sorted(e.message for e in ours.iter_errors(instance)) == \
            sorted(e.message for e in theirs.iter_errors(instance)), instance


def test_an_unresolvable_reference_beside_unevaluated_properties_is_raised() -> None:
    schema = {"unevaluatedProperties": False, "$ref": "#/$defs/missing"}
    with pytest.raises(Unresolvable, match="missing"):
        validator(schema).is_valid({"a": 1})


# --- repair: the library and the command ---------------------------------------------------


@pytest.mark.parametrize("word", [ISSUE_WORD, WORD])
def test_repair_reports_a_catastrophic_pattern_at_once(word: str) -> None:
    """In a process of its own: without the fix this is the backtracking, for minutes."""
    code = ("import json, sys; from schema_compat import repair; "
            "print(json.dumps(repair(json.loads(sys.argv[1]), json.loads(sys.argv[2]))"
            ".to_dict()))")
    schema = {"type": "object", "properties": {"word": {"type": "string",
                                                        "pattern": HOSTILE}}}
    proc = subprocess.run([PY, "-c", code, json.dumps(schema), json.dumps({"word": word})],
                          capture_output=True, text=True, timeout=DEADLINE, check=True,
                          cwd=REPO_ROOT)
    assert json.loads(proc.stdout) == {
        "arguments": {"word": word}, "coercions": [], "valid": False,
        "errors": [f"$.word: {word!r} does not match {HOSTILE!r}"]}


@pytest.mark.parametrize("draft", ["http://json-schema.org/draft-07/schema#",
                                   "https://json-schema.org/draft/2020-12/schema"])
def test_a_pattern_under_a_reference_to_a_root_naming_its_draft_runs_in_bounded_time(
        draft: str) -> None:
    """jsonschema validates what `{"$ref": "#"}` leads to with the class of the draft the
    root names, whose patterns run on `re`: the recursive schema of a tree stalled."""
    code = ("import json, sys; from schema_compat import repair; "
            "print(json.dumps(repair(json.loads(sys.argv[1]), json.loads(sys.argv[2]))"
            ".to_dict()))")
    schema = {"$schema": draft, "type": "object",
              "properties": {"word": {"type": "string", "pattern": HOSTILE},
                             "kids": {"type": "array", "items": {"$ref": "#"}}}}
    proc = subprocess.run([PY, "-c", code, json.dumps(schema),
                           json.dumps({"kids": [{"word": WORD}]})],
                          capture_output=True, text=True, timeout=DEADLINE, check=True,
                          cwd=REPO_ROOT)
    assert json.loads(proc.stdout)["errors"] == [
        f"$.kids[0].word: {WORD!r} does not match {HOSTILE!r}"]


D07 = "http://json-schema.org/draft-07/schema#"
# A subschema naming its draft, below the root: jsonschema validates it with that draft's own
# class, whose patterns run on `re`. (root draft, schema): a property, a `$defs` entry it
# refers to, an `allOf` of a referenced resource with its own `$id`, a node below a vendor
# keyword a pointer names, in the document or in a resource with its own `$id`.
NESTED_DRAFTS = [
    (None, {"type": "object", "properties": {
        "word": {"$schema": D07, "type": "string", "pattern": HOSTILE}}}),
    (D2020, {"type": "object", "properties": {"word": {"$ref": "#/$defs/w"}},
             "$defs": {"w": {"$schema": D07, "type": "string", "pattern": HOSTILE}}}),
    (D07, {"type": "object", "properties": {"word": {"$ref": "#/definitions/w"}},
           "definitions": {"w": {"$schema": D2020, "allOf": [
               {"type": "string", "pattern": HOSTILE}]}}}),
    (D2020, {"type": "object", "properties": {"word": {"$ref": "https://e.x/w"}},
             "$defs": {"w": {"$id": "https://e.x/w", "$schema": D07,
                             "allOf": [{"$schema": D07, "pattern": HOSTILE}]}}}),
    (None, {"type": "object", "properties": {"word": {"$ref": "#/x-defs/w"}},
            "x-defs": {"w": {"$schema": D07, "type": "string", "pattern": HOSTILE}}}),
    (D2020, {"type": "object", "properties": {"word": {"$ref": "https://e.x/r"}},
             "$defs": {"r": {"$id": "https://e.x/r", "$ref": "#/x-defs/w",
                             "x-defs": {"w": {"$schema": D07, "pattern": HOSTILE}}}}}),
]


def _with_root_draft(draft: str | None, schema: dict[str, Any]) -> dict[str, Any]:
    return schema if draft is None else {"$schema": draft, **schema}


@pytest.mark.parametrize(("draft", "schema"), NESTED_DRAFTS)
def test_a_pattern_under_a_nested_schema_keyword_runs_in_bounded_time(
        draft: str | None, schema: dict[str, Any]) -> None:
    """The validator, `repair` and `breaking`'s test of an example value, in a process of
    their own: without the fix each backtracks for minutes."""
    code = ("import json, sys; from schema_compat import repair; "
            "from schema_compat.validation import validator; "
            "from schema_compat.evolution.document import Document; "
            "s, a = json.loads(sys.argv[1]), json.loads(sys.argv[2]); "
            "print(json.dumps([e.message for e in validator(s).iter_errors(a)])); "
            "print(json.dumps(repair(s, a).errors)); "
            "print(json.dumps(Document(s).accepts(a)))")
    proc = subprocess.run([PY, "-c", code, json.dumps(_with_root_draft(draft, schema)),
                           json.dumps({"word": WORD})],
                          capture_output=True, text=True, timeout=DEADLINE, check=True,
                          cwd=REPO_ROOT)
    said = f"{WORD!r} does not match {HOSTILE!r}"
    assert [json.loads(line) for line in proc.stdout.splitlines()] == [
        [said], [f"$.word: {said}"], False]


@pytest.mark.parametrize(("draft", "schema"), NESTED_DRAFTS)
def test_a_nested_schema_keyword_is_read_in_the_roots_draft(
        draft: str | None, schema: dict[str, Any]) -> None:
    """On text too short to backtrack long, the verdicts are jsonschema's own."""
    schema = _with_root_draft(draft, schema)
    for word in ("aaa", "aab", 5):
        assert validator(schema).is_valid({"word": word}) == \
            validator_for(schema)(schema).is_valid({"word": word}), word


def test_schema_as_data_or_a_property_name_is_kept() -> None:
    """Only the keyword goes: a property named `$schema` and a `$schema` inside `const`,
    `enum`, `default` or `examples` are the server's data, compared as written."""
    tagged = {"$schema": D07}
    schema = {"type": "object", "required": ["$schema"],
              "properties": {"$schema": {"type": "string"}, "c": {"const": tagged},
                             "e": {"enum": [tagged], "default": tagged,
                                   "examples": [tagged]}},
              "dependentRequired": {"$schema": ["c"]}, "additionalProperties": False}
    before = json.dumps(schema)
    ours = validator(schema)
    assert json.dumps(schema) == before  # the caller's schema is not changed
    assert ours.is_valid({"$schema": "x", "c": tagged, "e": tagged})
    assert sorted(e.message for e in ours.iter_errors({"c": {}, "e": {}})) == [
        "'$schema' is a required property", f"{tagged!r} was expected",
        f"{{}} is not one of [{tagged!r}]"]
    assert [e.message for e in ours.iter_errors({"$schema": 1})] == [
        "1 is not of type 'string'", "'c' is a dependency of '$schema'"]


def test_repair_reports_patterns_re2_cannot_run_where_they_apply() -> None:
    """`pattern`, `patternProperties` (its key claims the name, so `additionalProperties:
    false` does not also refuse it) and `propertyNames`: each names its pattern; what the
    schema checks otherwise is still repaired."""
    schema = {"type": "object",
              "properties": {"code": {"type": "string", "pattern": LOOKAHEAD},
                             "n": {"type": "integer"}},
              "patternProperties": {"^(?!x-)x": {"type": "integer"}},
              "propertyNames": {"pattern": r"^(\w)\w*$|^(\w)\1$"},
              "additionalProperties": False}
    result = repair(schema, {"code": "abc1", "n": "2", "xy": 3})
    assert result.arguments == {"code": "abc1", "n": 2, "xy": 3}
    assert [c.describe() for c in result.coercions] == ['$.n: "2" → 2 (integer)']
    lookahead = f"pattern {LOOKAHEAD!r} {UNCHECKED}: RE2 cannot run it (invalid perl operator"
    assert sorted(result.errors) == sorted([
        f"$.code: {lookahead}: (?=)",
        *(f"$: pattern '^(\\\\w)\\\\w*$|^(\\\\w)\\\\1$' {UNCHECKED}: RE2 cannot run it "
          "(invalid escape sequence: \\1)" for _ in range(3)),
        *(f"$.{key}: property name {key!r}: pattern '^(?!x-)x' {UNCHECKED}: RE2 cannot run "
          "it (invalid perl operator: (?!)" for key in ("code", "n", "xy")),
    ])


@pytest.mark.parametrize("word", [ISSUE_WORD, WORD])
def test_repair_command_reports_a_catastrophic_pattern_at_once(tmp_path: Path,
                                                                word: str) -> None:
    source = _tools_file(tmp_path, {"type": "object", "properties": {
        "word": {"type": "string", "pattern": HOSTILE},
        "code": {"type": "string", "pattern": LOOKAHEAD}}})
    proc = cli("repair", str(source), "--tool", "t", "--args",
               json.dumps({"word": word, "code": "abc1"}), timeout=DEADLINE)
    assert proc.returncode == 1, proc.stderr  # the schema still rejects them (README)
    assert json.loads(proc.stdout) == {"word": word, "code": "abc1"}
    assert proc.stderr.splitlines() == [
        f"invalid $.code: pattern {LOOKAHEAD!r} {UNCHECKED}: RE2 cannot run it (invalid perl "
        "operator: (?=)",
        f"invalid $.word: {word!r} does not match {HOSTILE!r}"]


@pytest.mark.parametrize(("kind", "text"), [
    ("number", "1e400"), ("number", "1" * 5000), ("integer", "1" * 5000),
    ("integer", "-1e400"), ("array", "[1e400]"), ("object", '{"n": ' + "9" * 5000 + "}"),
])
def test_repair_leaves_a_number_no_double_holds_as_the_string_it_was(
        tmp_path: Path, kind: str, text: str) -> None:
    """Read as strict JSON, "1e400" is no number and a 5,000-digit integer is longer than
    Python reads: nothing to coerce to, so the string stays and the schema's refusal is
    the one line said, in a line of readable length. No internal error (exit 70)."""
    source = _tools_file(tmp_path, {"type": "object", "properties": {"num": {"type": kind}}})
    proc = cli("repair", str(source), "--tool", "t", "--args", json.dumps({"num": text}))
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout) == {"num": text}
    [line] = proc.stderr.splitlines()
    assert line.startswith("invalid $.num: '" + text[:10])
    assert line.endswith(f" is not of type {kind!r}")
    assert len(line) < 120


def test_repair_still_coerces_numbers_a_double_holds(tmp_path: Path) -> None:
    source = _tools_file(tmp_path, {"type": "object", "properties": {
        "num": {"type": "number"}, "big": {"type": "integer"}, "e": {"type": "integer"}}})
    big = "9" * 400  # no double holds it exactly; an integer does
    proc = cli("repair", str(source), "--tool", "t", "--json", "--args",
               json.dumps({"num": "1e300", "big": big, "e": "1e2"}))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["arguments"] == {"num": 1e300, "big": int(big), "e": 100}


def test_a_5000_digit_number_in_args_is_one_line_exit_2(tmp_path: Path) -> None:
    source = _tools_file(tmp_path, {"type": "object", "properties": {"num": {}}})
    proc = cli("repair", str(source), "--tool", "t", "--args", '{"num": ' + "1" * 5000 + "}")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"schema-compat: error: --args not valid JSON: an integer of more than "
        f"{sys.get_int_max_str_digits()} digits (quote it as a string)"]


# --- the proxy -------------------------------------------------------------------------------


def test_the_proxy_forwards_a_call_past_a_catastrophic_pattern_at_once(tmp_path: Path) -> None:
    """The call and a ping after it are answered at once (the upstream is a raw server that
    echoes the arguments it got); the log names both patterns. Without the fix the call
    waits out the backtracking, and `fail_after` ends the test."""
    log = tmp_path / "proxy.log"
    arguments = {"word": WORD, "code": "abc1"}

    async def body(session: ClientSession) -> Any:
        await session.list_tools()
        start = time.monotonic()
        with anyio.fail_after(DEADLINE):
            result = await session.call_tool("match", arguments)
            await session.send_ping()
        return result, time.monotonic() - start

    result, elapsed = proxy_session(["--timeout", "5", "--log", str(log), "--", PY,
                                     str(SERVERS / "pattern_server.py")], body)
    assert json.loads(result_text(result)) == arguments  # forwarded as it came
    assert elapsed < DEADLINE
    lines = log.read_text(encoding="utf-8").splitlines()
    prefix = "schema-compat proxy: tools/call match: still invalid, forwarded as is: "
    assert f"{prefix}$.word: {WORD!r} does not match {HOSTILE!r}" in lines
    assert f"{prefix}$.code: pattern {LOOKAHEAD!r} {UNCHECKED}: RE2 cannot run it (invalid " \
           "perl operator: (?=)" in lines


def test_the_proxy_forwards_a_call_past_a_pattern_under_a_nested_schema_keyword(
        tmp_path: Path) -> None:
    """The proxy's validation of the arguments, then its repair: without the fix the call
    waits out the backtracking, and `fail_after` ends the test."""
    log = tmp_path / "proxy.log"
    schema = _with_root_draft(*NESTED_DRAFTS[1])

    async def body(session: ClientSession) -> Any:
        await session.list_tools()
        with anyio.fail_after(DEADLINE):
            return await session.call_tool("match", {"word": WORD})

    result = proxy_session(["--timeout", "5", "--log", str(log), "--", PY,
                            str(SERVERS / "pattern_server.py"), json.dumps(schema)], body)
    assert json.loads(result_text(result)) == {"word": WORD}
    prefix = "schema-compat proxy: tools/call match: still invalid, forwarded as is: "
    assert f"{prefix}$.word: {WORD!r} does not match {HOSTILE!r}" in \
        log.read_text(encoding="utf-8").splitlines()


# --- a server's own property names, in a merge -------------------------------------------------


def test_a_merge_of_closed_objects_matches_property_names_at_once(tmp_path: Path) -> None:
    """The check of the `allOf` below merges it (UNI004), asking whether `^(a+)+$` claims
    the second part's property name, which the first part's `additionalProperties: false`
    otherwise forbids. WORD is no more claimed than `ab!` is: the same findings, at once."""
    def findings(name: str) -> list[Any]:
        patterns = {HOSTILE: {"type": "string"}}
        source = _tools_file(tmp_path, {"type": "object", "properties": {"x": {"allOf": [
            {"type": "object", "patternProperties": patterns, "additionalProperties": False},
            {"type": "object", "patternProperties": patterns,
             "properties": {name: {"type": "string"}}}]}}})
        proc = cli("check", str(source), "-p", "gemini", "--format", "json",
                   timeout=DEADLINE)
        assert proc.returncode == 1, proc.stderr  # incompatible, fixable
        return [(i["code"], i["path"], i["fix"]) for i in
                json.loads(proc.stdout)["tools"][0]["issues"]]

    found = findings(WORD)
    assert ("UNI004", "$.properties.x.allOf", {
        "title": "Merge the branches into one schema", "safety": "lossless",
        "effect": {"accepts": "equal", "told": "kept"}, "applied": True}) in found
    assert found == findings("ab!")
