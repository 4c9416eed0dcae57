"""Strict JSON loading: every way input can be wrong is one clear SourceError, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schema_compat.jsonio import (
    MAX_DEPTH,
    JsonInputError,
    dump_json,
    encode_indented,
    has_surrogate,
    iter_indented,
    load_json_bytes,
    load_json_file,
    load_json_text,
)
from schema_compat.model import SourceError

SHAPES = Path(__file__).resolve().parent / "data" / "shapes"


def error_of(path: str | Path) -> SourceError:
    with pytest.raises(JsonInputError) as info:
        load_json_file(str(path))
    error = info.value.error
    assert str(info.value) == error.one_line()
    return error


def text_error(text: str, source: str = "in.json") -> SourceError:
    with pytest.raises(JsonInputError) as info:
        load_json_text(text, source)
    return info.value.error


# --- what is accepted -------------------------------------------------------------------


def test_loads_a_file_keeping_key_order() -> None:
    value = load_json_file(str(SHAPES / "tool.json"))
    assert list(value) == [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "_meta",
    ]
    assert value["inputSchema"]["required"] == ["path"]


def test_big_integers_keep_their_exact_value() -> None:
    value = load_json_file(str(SHAPES / "bigint.json"))
    schema = value["inputSchema"]
    assert schema["maximum"] == 18446744073709551617 == 2**64 + 1
    assert isinstance(schema["maximum"], int)
    assert schema["minimum"] == -123456789012345678901234567890
    assert schema["multipleOf"] == 0.1
    assert '"maximum": 18446744073709551617' in dump_json(value)


def test_a_utf8_bom_is_accepted_and_stripped() -> None:
    assert (SHAPES / "bom.json").read_bytes().startswith(b"\xef\xbb\xbf")
    assert load_json_file(str(SHAPES / "bom.json"))["name"] == "café"
    assert load_json_text('\ufeff{"a": 1}', "x") == {"a": 1}


def test_nan_and_infinity_inside_strings_are_just_text() -> None:
    assert load_json_text('{"NaN": "Infinity", "b": "-Infinity"}', "x") == {
        "NaN": "Infinity",
        "b": "-Infinity",
    }


def test_exactly_max_depth_levels_is_accepted() -> None:
    value = load_json_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x")
    depth = 0
    while isinstance(value, list):
        depth += 1
        value = value[0] if value else None
    assert depth == MAX_DEPTH == 256


# --- syntax and value errors --------------------------------------------------------------


def test_not_json_names_the_file_line_and_column() -> None:
    path = str(SHAPES / "not-json.json")
    error = error_of(path)
    assert error.source == path
    assert error.message == "not valid JSON: Expecting ',' delimiter at line 4, column 5"
    assert "not JSON5 or YAML" in error.hint


def test_trailing_comma_is_a_syntax_error_with_position() -> None:
    error = text_error('{"a": 1,\n}', "cfg.json")
    assert error.source == "cfg.json"
    assert error.message == (
        "not valid JSON: Expecting property name enclosed in double quotes at line 2, column 1"
    )


def test_two_documents_get_a_hint_about_json_lines() -> None:
    error = text_error('{"a": 1}\n{"b": 2}\n')
    assert error.message == "not valid JSON: Extra data at line 2, column 1"
    assert "one JSON document per file" in error.hint


def test_nan_is_rejected_with_its_position() -> None:
    path = str(SHAPES / "nan.json")
    error = error_of(path)
    assert error.source == path
    # The "NaN" inside the string on line 2 is skipped: the bare one is on line 3.
    assert error.message == (
        "not valid JSON: NaN is not allowed (JSON has no NaN or Infinity) at line 3, column 48"
    )
    assert "null" in error.hint


def test_infinity_is_rejected_with_its_position() -> None:
    path = str(SHAPES / "infinity.json")
    error = error_of(path)
    assert error.source == path
    assert error.message == (
        "not valid JSON: Infinity is not allowed (JSON has no NaN or Infinity) at line 1, column 60"
    )


def test_negative_infinity_is_rejected() -> None:
    error = text_error("[1,\n -Infinity]")
    assert error.message == (
        "not valid JSON: -Infinity is not allowed (JSON has no NaN or Infinity) at line 2, column 2"
    )


def test_a_float_that_overflows_to_infinity_is_rejected() -> None:
    error = text_error('{"maximum": 1e400}')
    assert error.message == (
        "not valid JSON: the number 1e400 is too large for a double at line 1, column 13"
    )


def test_an_integer_past_pythons_digit_limit_is_an_error_not_a_traceback() -> None:
    error = text_error("[" + "7" * 5000 + "]")
    assert error.message.startswith("not valid JSON: ")
    assert "digits" in error.message


# --- nesting ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opening", "closing"),
    [("[", "]"), ('{"a":', "}")],
    ids=["arrays", "objects"],
)
def test_ten_thousand_levels_deep_is_refused_not_a_recursion_error(
    tmp_path: Path, opening: str, closing: str
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(opening * 10_000 + "1" * (opening != "[") + closing * 10_000)
    error = error_of(path)
    assert error.source == str(path)
    assert error.message == "JSON nested deeper than 256 levels"
    assert error.hint


def test_one_level_past_max_depth_is_refused_by_the_iterative_check() -> None:
    # 257 levels does not make json recurse out; the post-parse check must catch it.
    error = text_error("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "d.json")
    assert error == SourceError("d.json", "JSON nested deeper than 256 levels", error.hint)


def test_deep_nesting_in_a_subprocess_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    code = (
        "import sys\n"
        "from schema_compat.jsonio import JsonInputError, load_json_file\n"
        "try:\n"
        "    load_json_file(sys.argv[1])\n"
        "except JsonInputError as exc:\n"
        "    print(exc)\n"
    )
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        cwd=repo,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.strip().startswith(f"{path}: JSON nested deeper than 256 levels")


# --- encodings and files ------------------------------------------------------------------


def test_invalid_utf8_names_the_byte_and_where_it_is() -> None:
    path = str(SHAPES / "invalid-utf8.json")
    error = error_of(path)
    assert error.source == path
    assert error.message == "not valid UTF-8: byte 0xe9 at line 2, column 15 (byte offset 16)"
    assert error.hint == "save the file as UTF-8 (JSON must be UTF-8)"


def test_invalid_utf8_after_a_bom_reports_the_offset_in_the_file() -> None:
    with pytest.raises(JsonInputError) as error_value:
        load_json_bytes(b'\xef\xbb\xbf["\xff"]', "b.json")
    assert error_value.value.error.message == (
        "not valid UTF-8: byte 0xff at line 1, column 3 (byte offset 5)"
    )


def test_utf16_is_named_as_such() -> None:
    path = str(SHAPES / "utf16.json")
    error = error_of(path)
    assert error.message == "not valid UTF-8: the input is UTF-16 encoded"
    assert "save it as UTF-8" in error.hint


def test_empty_file() -> None:
    path = str(SHAPES / "empty.json")
    assert error_of(path) == SourceError(
        path, "file is empty", "give a file that holds a JSON document"
    )


def test_whitespace_only_file_counts_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "blank.json"
    path.write_text("\n  \n")
    assert error_of(path).message == "file is empty"


def test_empty_text() -> None:
    assert text_error("   ", "t.json").message == "empty input: expected a JSON document"


def test_missing_file(tmp_path: Path) -> None:
    path = str(tmp_path / "nope.json")
    assert error_of(path) == SourceError(path, "no such file or directory", "check the path")


def test_a_file_used_as_a_directory(tmp_path: Path) -> None:
    (tmp_path / "file.json").write_text("{}")
    path = str(tmp_path / "file.json" / "inner.json")
    error = error_of(path)
    assert error.source == path
    assert error.message.startswith("no such file")


def test_a_directory_where_a_file_was_expected(tmp_path: Path) -> None:
    error = error_of(tmp_path)
    assert error == SourceError(
        str(tmp_path), "is a directory, not a JSON file", "give the path of a .json file"
    )


def test_permission_denied_simulated_even_as_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import schema_compat.jsonio as jsonio

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    path = tmp_path / "secret.json"
    path.write_text("{}")
    monkeypatch.setattr(jsonio, "open", refuse, raising=False)
    assert error_of(path) == SourceError(
        str(path), "permission denied", "check the file's read permissions"
    )


# --- stdin --------------------------------------------------------------------------------


def fake_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_dash_reads_stdin_as_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, '\ufeff{"name": "ü", "n": 12345678901234567890123}'.encode())
    assert load_json_file("-") == {"name": "ü", "n": 12345678901234567890123}


def test_stdin_errors_are_labelled_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, b"[1, 2,]")
    with pytest.raises(JsonInputError) as info:
        load_json_file("-")
    assert info.value.error.source == "<stdin>"
    assert info.value.error.message == "not valid JSON: Expecting value at line 1, column 7"


def test_empty_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, b"")
    with pytest.raises(JsonInputError) as info:
        load_json_file("-")
    assert info.value.error.source == "<stdin>"
    assert info.value.error.message == "no input on stdin"


def test_a_terminal_on_stdin_is_refused_instead_of_hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Tty("{}"))
    with pytest.raises(JsonInputError) as info:
        load_json_file("-")
    assert info.value.error.message == "stdin is a terminal, not a JSON document"


# --- output -------------------------------------------------------------------------------


def test_dump_json_is_stable_indented_unicode_and_ends_with_a_newline() -> None:
    value = {"z": 1, "a": {"é": "ü", "list": [1, 2]}, "big": 2**70}
    text = dump_json(value)
    assert text == (
        "{\n"
        '  "z": 1,\n'
        '  "a": {\n'
        '    "é": "ü",\n'
        '    "list": [\n'
        "      1,\n"
        "      2\n"
        "    ]\n"
        "  },\n"
        '  "big": 1180591620717411303424\n'
        "}\n"
    )
    assert load_json_text(text, "x") == value
    assert text == json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def test_dump_then_load_round_trips_a_max_depth_document() -> None:
    value: object = []
    for _ in range(MAX_DEPTH - 1):
        value = [value]
    assert load_json_text(dump_json(value), "x") == value


def test_dump_json_of_a_large_listing_is_json_dumps_exactly() -> None:
    """dump_json joins its tokens in batches (memory); the text must not change by it."""
    value = {"tools": [{"name": f"t{i}", "inputSchema": {"type": "object", "properties": {
        "é": {"type": "string", "enum": ["a", "ü"]}, "n": {"type": "number", "maximum": 1e300},
    }}} for i in range(2_000)]}
    expected = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    assert dump_json(value) == expected
    assert dump_json([]) == "[]\n"


# --- output in pieces (transform writes a listing one tool at a time) ----------------------

_LISTING: dict[str, Any] = {
    "jsonrpc": "2.0",
    "result": {
        "tools": [
            {"name": "a", "inputSchema": {"type": "object", "properties": {}}},
            {"name": "b", "description": "two\nlines", "inputSchema": {"type": "object"}},
            {"name": "c", "inputSchema": {"type": "object", "required": []}},
        ],
        "nextCursor": None,
    },
    "id": 7,
}
_NEW = {"z": {"é": ["ü", 1.5, None, {}, []]}, "a": "x\ny", "nested": {"k": [{"v": True}]}}


def _filled(document: Any, holes: dict[tuple[str | int, ...], Any]) -> Any:
    """`document` with the value at each hole path replaced, built as a whole."""
    out = json.loads(json.dumps(document))
    for path, value in holes.items():
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = value
    return out


@pytest.mark.parametrize("ensure_ascii", [False, True])
def test_a_document_written_in_pieces_is_json_dumps_of_it_whole(ensure_ascii: bool) -> None:
    """Indent, separators, key order and escapes of each filled-in tool are json.dumps's own,
    at the depth the tool sits in the document."""
    holes = {("result", "tools", 0): _NEW, ("result", "tools", 2): {"name": "c2"}}
    asked: list[tuple[str | int, ...]] = []

    def fill(path: tuple[str | int, ...]) -> Any:
        asked.append(path)
        return holes[path]

    text = "".join(iter_indented(_LISTING, ensure_ascii=ensure_ascii, holes=holes, fill=fill))
    whole = _filled(_LISTING, holes)
    assert text == json.dumps(whole, indent=2, ensure_ascii=ensure_ascii) + "\n"
    assert asked == [("result", "tools", 0), ("result", "tools", 2)]  # each once, in order
    plain = "".join(iter_indented(_LISTING, ensure_ascii=ensure_ascii))
    assert plain == json.dumps(_LISTING, indent=2, ensure_ascii=ensure_ascii) + "\n"


def test_each_hole_is_filled_only_when_the_writing_reaches_it() -> None:
    """So a caller holds one filled-in value at a time: the ones before it are written."""
    written: list[str] = []
    names_written_at_fill: list[int] = []

    def fill(path: tuple[str | int, ...]) -> Any:
        names_written_at_fill.append("".join(written).count('"name"'))
        return {"name": f"t{path[1]}"}

    holes = [("tools", i) for i in range(3)]
    for piece in iter_indented({"tools": [None] * 3}, ensure_ascii=False, holes=holes, fill=fill):
        written.append(piece)
    assert names_written_at_fill == [0, 1, 2]
    expected = {"tools": [{"name": f"t{i}"} for i in range(3)]}
    assert "".join(written) == json.dumps(expected, indent=2) + "\n"


def test_a_root_hole_and_an_empty_listing() -> None:
    text = "".join(iter_indented([1], ensure_ascii=False, holes=[()], fill=lambda _: _NEW))
    assert text == json.dumps(_NEW, indent=2, ensure_ascii=False) + "\n"
    assert "".join(iter_indented({"tools": []}, ensure_ascii=False)) == '{\n  "tools": []\n}\n'


_KEYS = st.text(max_size=4)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=30,
)


def _paths(value: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [path]
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, child in items:
        found += _paths(child, (*path, key))
    return found


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.data())
def test_any_document_with_any_holes_is_written_as_json_dumps_would(value: Any,
                                                                    data: Any) -> None:
    paths = _paths(value)
    chosen = data.draw(st.lists(st.sampled_from(paths), max_size=3, unique=True))
    # a hole inside another hole is never asked for: the outer one replaces it whole
    holes = {p: {"new": list(p)} for p in chosen
             if not any(q != p and p[:len(q)] == q for q in chosen)}
    text = "".join(iter_indented(value, ensure_ascii=False, holes=holes, fill=holes.__getitem__))
    assert text == json.dumps(_filled(value, holes) if () not in holes else holes[()],
                              indent=2, ensure_ascii=False) + "\n"


def test_has_surrogate_looks_at_every_key_and_string() -> None:
    assert not has_surrogate({"a": ["é", {"b": "\U0001f600"}], "n": 1})
    assert has_surrogate({"a": [1, {"b": "x\ud800"}]})
    assert has_surrogate({"a": {"\udc00": 1}})
    assert has_surrogate("\udfff")


# --- where orjson's text is not json's: such values go to json's encoder ------------------

_PAD = {"pad": {"text": "x" * 65_536}}
_TRICKY = st.recursive(
    st.sampled_from([1e16, 1e-05, -0.0, 0.1, 1e300, 5e-324, float("nan"), float("inf"),
                     -float("inf"), 2**64, -(2**63) - 1, 2**63, "\ud800", "x\udfffy", "é",
                     "\U0001f600", '": 1.5', "\x00\x1f\x7f\u2028", None, True, 0])
    | st.floats() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)


def _json_dumps_or_error(value: Any, ensure_ascii: bool, allow_nan: bool) -> str | type:
    try:
        return json.dumps(value, indent=2, ensure_ascii=ensure_ascii, allow_nan=allow_nan) + "\n"
    except ValueError as exc:
        return type(exc)


@settings(max_examples=400, deadline=None)
@given(_TRICKY, st.booleans(), st.booleans())
def test_floats_nan_big_integers_and_surrogates_are_written_as_json_dumps_would(
        value: Any, ensure_ascii: bool, allow_nan: bool) -> None:
    """orjson writes 1e-05 as 0.00001 and NaN as null, and refuses lone surrogates and
    integers beyond 64 bits; wherever they sit, the text (or the error) is json's. The
    first 64 kB of a document are json's alone: `_PAD` spends them."""
    for document in ({**_PAD, "v": value}, {**_PAD, "tools": [{"inputSchema": value}]},
                     [_PAD, [value, {"k": [value]}]]):
        expected = _json_dumps_or_error(document, ensure_ascii, allow_nan)
        try:
            got: str | type = encode_indented(document, ensure_ascii=ensure_ascii,
                                              allow_nan=allow_nan)
        except ValueError as exc:
            got = type(exc)
        assert got == expected


def test_keys_that_are_not_strings_are_written_as_json_writes_them() -> None:
    value = {**_PAD, "tools": [{"a": {1: "one", None: [1.5], False: {}}}]}
    assert encode_indented(value, ensure_ascii=False) == json.dumps(value, indent=2) + "\n"


def test_a_small_document_is_written_without_importing_orjson() -> None:
    """Importing orjson costs ~11 ms (it imports dataclasses and datetime): a one-tool
    `transform` must not pay it, a large document pays it once."""
    probe = ("import sys, json\n"
             "from schema_compat.jsonio import encode_indented\n"
             "small = {'tools': [{'name': 't', 'inputSchema': {'type': 'object'}}]}\n"
             "encode_indented(small, ensure_ascii=False)\n"
             "print('orjson' in sys.modules)\n"
             "large = {'tools': [{'name': 't' * 1000, 'n': i} for i in range(100)]}\n"
             "assert encode_indented(large, ensure_ascii=False) == "
             "json.dumps(large, indent=2) + '\\n'\n"
             "print('orjson' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "True"]


def test_a_large_document_is_written_by_json_where_orjson_cannot_be_imported() -> None:
    """The static playground's browser Python has no orjson: the same text, from json."""
    probe = ("import sys, json\n"
             "sys.modules['orjson'] = None  # `import orjson` raises ImportError\n"
             "from schema_compat.jsonio import encode_indented\n"
             "large = {'tools': [{'name': 't' * 1000, 'n': i, 'x': 1e-05} for i in range(100)]}\n"
             "assert encode_indented(large, ensure_ascii=False) == "
             "json.dumps(large, indent=2) + '\\n'\n"
             "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=False)
    assert out.stdout.split() == ["ok"], out.stderr
