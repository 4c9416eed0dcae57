"""Styled text for the terminal reports, and a writer for when there is nothing to style.

The reports are laid out once, as `Styled` text: plain strings with rich style names attached,
built with the same calls as `rich.text.Text` (a base style, `append`, `append_text`). On a
console that shows styles they become rich `Text` and rich renders them. Through a pipe with
no colour forced, rich would write the same characters without any escape; `PlainOutput`
writes them itself, so that `check tools.json | ...` does not import rich.console (most of
the cost of a `check` of a small file, beyond Python's own start-up). Both break lines with
`wrap_offsets` (rich's word wrapping, except that a JSONPath too long for a line is broken
before a `.` or `[` rather than in the middle of a name) and measure with rich's cell widths;
anything the plain writer does not reproduce exactly (tabs, control and other non-printable
characters) is handed to a rich console instead.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["PlainOutput", "Styled", "glued", "plain_output", "plural", "printable",
           "wrap_offsets"]

# Joins words a line must not break between (a finding's `[lossless: equal, kept]` tag): the
# wrapping reads it as part of a word, and the writers print it as a space. Text a file or a
# server gave never holds one (`printable` shows it as `\xa0`), so every one is ours.
NO_BREAK = "\u00a0"

# The variables that make rich style output that is not a terminal: then rich decides.
_FORCING = ("FORCE_COLOR", "TTY_COMPATIBLE")


def printable(text: str) -> str:
    """Control and other non-printable characters (a newline or an escape in a tool name)
    shown as Python escapes (`\\n`, `\\x1b`): text a file or a server gave can then neither
    start a line of its own nor send the terminal an escape sequence. Every report for
    people (terminal, markdown, GitHub annotations) prints server-given text through it; the
    JSON and SARIF reports keep the raw text, JSON-escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 tool`, `2 tools`; `word` may start with a space (`3 more tools`)."""
    return f"{n}{'' if word.startswith(' ') else ' '}{word if n == 1 else (many or word + 's')}"


def glued(text: str) -> str:
    """`text` with its spaces made `NO_BREAK`: printed as it is, on one line (or, where a
    line cannot hold it, folded as one long word)."""
    return text.replace(" ", NO_BREAK)


class Styled:
    """Text with rich style names: `Styled(text, style)` styles all of it, as `Text` does."""

    __slots__ = ("_parts", "style")

    def __init__(self, text: str = "", style: str = "") -> None:
        self.style = style
        self._parts: list[tuple[str, str] | Styled] = [(text, "")] if text else []

    def append(self, text: str, style: str = "") -> Styled:
        if text:
            self._parts.append((text, style))
        return self

    def append_text(self, text: Styled) -> Styled:
        self._parts.append(text)
        return self

    @property
    def plain(self) -> str:
        return "".join(p[0] if isinstance(p, tuple) else p.plain for p in self._parts)

    @property
    def cell_len(self) -> int:
        """Terminal cells, as rich counts them."""
        text = self.plain
        if text.isprintable():
            return _cells(text)
        return self.to_text().cell_len  # without the control codes rich drops

    def to_text(self) -> Text:
        """The rich Text the same calls would have built."""
        from rich.text import Text

        text = Text(style=self.style)
        for part in self._parts:
            if isinstance(part, tuple):
                text.append(part[0], part[1] or None)
            else:
                text.append_text(part.to_text())
        return text


class PlainOutput:
    """Writes reports without styles where a rich console would write no escape either: an
    output that is not a terminal, with no colour forced. Width as rich takes it: `width`,
    else $COLUMNS, else the size of a terminal on stdin, stdout or stderr, else 80."""

    def __init__(self, *, stderr: bool = False, file: IO[str] | None = None,
                 width: int | None = None) -> None:
        self._stderr = stderr
        self._file = file
        self._width = width
        self._console: Console | None = None

    @property
    def file(self) -> IO[str]:
        if self._file is not None:
            return self._file
        return sys.stderr if self._stderr else sys.stdout

    @property
    def width(self) -> int:
        if self._width is None:
            self._width = _console_width()
        return self._width

    def rich_console(self) -> Console:
        """A rich console writing the same, for what this writer does not reproduce."""
        if self._console is None:
            from ..console import make_console

            self._console = make_console(stderr=self._stderr, file=self._file, width=self._width)
        return self._console

    def print(self) -> None:
        """An empty line, like `Console.print()`."""
        if self.width < 1:  # rich's to say what then (nothing, these days)
            self.rich_console().print()
        else:
            self._write("\n")

    def can_write(self, lead: str, body: str) -> bool:
        """True when rich would print these characters as they are, lines split at the
        newlines of the body, and there is room for them."""
        return self.width > 0 and lead.isprintable() and \
            body.replace("\n", "").replace(NO_BREAK, " ").isprintable()

    def hanging(self, lead: str, body: str) -> None:
        """`lead`, then `body` wrapped to the width under itself, as `print_hanging` prints
        them on a rich console: the same breaks, no trailing spaces, lines cut at the width."""
        width = self.width
        indent = _cells(lead)
        avail = max(1, width - indent)
        pieces: list[str] = []
        for line in body.split("\n") if body else []:
            offsets = wrap_offsets(line, avail)
            for start, end in zip([0, *offsets], [*offsets, len(line)], strict=True):
                piece = line[start:end]  # a wide character may still overflow: it is cut
                pieces.append(_cut(piece, avail) if _cells(piece) > avail else piece)
        rows = []
        for k, piece in enumerate(pieces or [""]):
            row = ((lead if k == 0 else " " * indent) + piece.rstrip()).rstrip()
            rows.append(_cut(row, width) if _cells(row) > width else row)
        self._write("\n".join(rows).replace(NO_BREAK, " ") + "\n")

    def _write(self, text: str) -> None:
        file = self.file
        try:
            file.write(text)
        except UnicodeEncodeError as error:  # as rich says it
            error.reason = (f"{error.reason}\n*** You may need to add PYTHONIOENCODING=utf-8 "
                            "to your environment ***")
            raise
        file.flush()


# a word: what no space (but `NO_BREAK` may) parts, with the spaces around it
_WORD = re.compile(r"[^\S\u00a0]*[\S\u00a0]+[^\S\u00a0]*")
# Where a word that is a JSONPath may be broken: before a member (`.name`) or a subscript
# (`[0]`, `['$ref']`), never inside a name.
_PATH_BREAK = re.compile(r"(?<=.)(?=[.[])")


def wrap_offsets(line: str, width: int) -> list[int]:
    """Where to break `line` (no newline in it) so that each piece fits in `width` cells:
    rich's `divide_line` with folding, except that a word longer than a whole line is folded
    before a `.` or `[` that fits, so a long JSONPath breaks between its steps, and that
    `NO_BREAK` joins words."""
    breaks: list[int] = []
    offset = 0  # cells used on the current line
    for match in _WORD.finditer(line):
        start, word = match.start(), match.group()
        length = _cells(word.rstrip())
        if width - offset >= length:
            offset += _cells(word)
        elif length > width:
            pieces = _fold(word, width)
            for k, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if k == len(pieces) - 1:
                    offset = _cells(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = _cells(word)
    return breaks


def _fold(word: str, width: int) -> list[str]:
    """A word cut into pieces of at most `width` cells, each cut before a `.` or `[` when
    one falls within the piece, else at the width (rich's `chop_cells`)."""
    pieces: list[str] = []
    rest = word
    while _cells(rest.rstrip()) > width:
        cut = 0
        for m in _PATH_BREAK.finditer(rest):
            if _cells(rest[:m.start()]) > width:
                break
            cut = m.start()
        if not cut:  # at least one character, as chop_cells gives a too-wide one alone
            cut = max(1, len(_cut(rest, width, chop=True)))
        pieces.append(rest[:cut])
        rest = rest[cut:]
    pieces.append(rest)
    return pieces


def _cells(text: str) -> int:
    """The terminal cells of printable text, as rich counts them: one a character where all
    are ASCII or NO_BREAK (a report's usual text, measured without importing rich)."""
    if _narrow(text):
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def _narrow(text: str) -> bool:
    return text.isascii() or text.replace(NO_BREAK, " ").isascii()


def _cut(text: str, width: int, chop: bool = False) -> str:
    """Printable text cut to `width` cells: rich's `set_cell_size` (a wide character that
    does not fit becomes a space), or with `chop` the first line of its `chop_cells`."""
    if _narrow(text):
        return text[:width]
    from rich.cells import chop_cells, set_cell_size

    return chop_cells(text, width)[0] if chop else set_cell_size(text, width)


def _console_width() -> int:
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    width = 0
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    return width or 80


def plain_output(*, stderr: bool = False) -> PlainOutput | None:
    """A PlainOutput when rich would write no style to stdout (stderr) either: not a
    terminal, no colour forced, not Windows or Jupyter (whose consoles differ). Else None."""
    file = sys.stderr if stderr else sys.stdout
    if sys.platform == "win32" or hasattr(builtins, "get_ipython"):
        return None
    if any(name in os.environ for name in _FORCING):
        return None
    try:
        if file is None or file.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return PlainOutput(stderr=stderr)
