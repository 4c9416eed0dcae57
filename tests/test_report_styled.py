"""The plain writer prints, character for character, what a rich console without styles does.

Through a pipe the `check` report and the `transform` summary are written by
`report.styled.PlainOutput` instead of rich (start-up: rich.console is not imported); every
case here prints the same thing both ways and compares.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from schema_compat.api import check, load_tools, transform
from schema_compat.console import make_console
from schema_compat.model import Report
from schema_compat.report.styled import PlainOutput, Styled, plain_output
from schema_compat.report.text import (
    print_hanging,
    print_rows,
    render_check,
    render_transform_summary,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO_ROOT / "examples").glob("*.json"))

# Spaces and newlines, wide (CJK, emoji) and zero-width (combining) characters, JSONPath
# punctuation, and what rich drops or expands (tab, carriage return, bell, NBSP).
_CHARS = st.sampled_from([*"ab c  .[]'$-_\n", "界", "😀", "\u0301", "\t", "\r", "\x07", "\xa0"])
_TEXT = st.text(_CHARS, max_size=60)


def _both(width: int, draw: object) -> tuple[str, str]:
    """What `draw(output)` prints on a rich console without styles, and on a PlainOutput."""
    rich_buf, plain_buf = io.StringIO(), io.StringIO()
    draw(make_console(file=rich_buf, width=width, color=False))  # type: ignore[operator]
    draw(PlainOutput(file=plain_buf, width=width))  # type: ignore[operator]
    return rich_buf.getvalue(), plain_buf.getvalue()


@settings(max_examples=400, deadline=None)
@given(lead=_TEXT.filter(lambda t: "\n" not in t), body=_TEXT, style=st.sampled_from(["", "bold"]),
       width=st.integers(min_value=0, max_value=30))
def test_hanging_paragraph_is_printed_as_rich_prints_it(lead: str, body: str, style: str,
                                                         width: int) -> None:
    expected, got = _both(width, lambda out: print_hanging(
        out, Styled(lead, style), Styled().append(body, style)))
    assert got == expected


@settings(max_examples=100, deadline=None)
@given(cells=st.lists(st.lists(_TEXT.filter(lambda t: "\n" not in t), min_size=1, max_size=3),
                      min_size=1, max_size=4),
       body=_TEXT, width=st.integers(min_value=1, max_value=50))
def test_aligned_rows_are_printed_as_rich_prints_them(cells: list[list[str]], body: str,
                                                       width: int) -> None:
    rows = [([Styled(c, "bold") for c in row], Styled(body)) for row in cells]
    expected, got = _both(width, lambda out: print_rows(out, rows))
    assert got == expected


def _reports() -> list[Report]:
    tools, errors = load_tools(*map(str, EXAMPLES))
    assert tools and not errors
    return [check(tools, provider) for provider in ("gemini", "openai-strict", "anthropic")]


@pytest.mark.parametrize("width", [20, 60, 80, 120])
@pytest.mark.parametrize("verbose", [False, True])
def test_check_report_is_printed_as_rich_prints_it(width: int, verbose: bool) -> None:
    for report in _reports():
        expected, got = _both(width, lambda out, r=report: render_check(r, out, verbose=verbose))
        assert "INCOMPATIBLE" in got
        assert got == expected


@pytest.mark.parametrize("width", [30, 80])
def test_transform_summary_is_printed_as_rich_prints_it(width: int) -> None:
    tools, _ = load_tools(*map(str, EXAMPLES))
    for provider in ("gemini", "openai-strict"):
        report = Report(provider, tuple(transform(tools, provider)))
        expected, got = _both(width, lambda out, r=report: render_transform_summary(r, out))
        assert got.startswith(f"transform ({provider})")
        assert got == expected


def test_width_is_the_one_rich_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    for columns in ("37", "0", "", "wide", None):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        assert PlainOutput(file=io.StringIO()).width == Console(file=io.StringIO()).size.width


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stderr", [False, True])
def test_plain_only_where_rich_would_style_nothing(monkeypatch: pytest.MonkeyPatch,
                                                    stderr: bool) -> None:
    stream = "stderr" if stderr else "stdout"
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, stream, io.StringIO())
    assert isinstance(plain_output(stderr=stderr), PlainOutput)
    monkeypatch.setenv("NO_COLOR", "1")
    assert isinstance(plain_output(stderr=stderr), PlainOutput)
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.setenv(name, "1")
        assert plain_output(stderr=stderr) is None  # rich styles a pipe when told to
        monkeypatch.delenv(name)
    monkeypatch.setattr(sys, stream, _Terminal())
    assert plain_output(stderr=stderr) is None


def test_plain_output_writes_to_the_stream_of_the_moment(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Like a rich console made without a file: sys.stdout when printing, not when made."""
    out = PlainOutput(width=40)
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    out.print()
    print_hanging(out, Styled("lead "), Styled("body"))
    assert buf.getvalue() == "\nlead body\n"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_terminal_still_gets_a_rich_console(monkeypatch: pytest.MonkeyPatch) -> None:
    from schema_compat.report.text import text_output

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    leader, follower = os.openpty()
    with os.fdopen(follower, "w") as tty:
        monkeypatch.setattr(sys, "stdout", tty)
        assert isinstance(text_output(), Console)
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        assert isinstance(text_output(), PlainOutput)
    os.close(leader)
