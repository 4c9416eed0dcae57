"""`schema-compat diff TOOL`: original and transformed schema side by side, changes marked.

The columns are laid out by hand rather than with a rich Table: each row must stay
aligned with its counterpart, a long line must fold inside its own column with a
hanging indent, and the whole must never exceed the console width. Alignment comes from
difflib on pretty-printed lines; deepdiff is deliberately not used (slow to import, and
it does not tell us which printed line a change landed on).
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from rich.cells import cell_len, get_character_cell_size
from rich.console import Console
from rich.text import Text

from ..model import SAFETIES, Change, Path, ToolResult
from ..structural_diff import common_ends
from .styled import NO_BREAK, Styled, plural, printable
from .text import SAFETY_STYLE, counts, located_text, print_line, print_rows

__all__ = ["aligned", "render_diff"]

Kind = Literal[" ", "-", "+", "~"]

KIND_STYLE: dict[str, str] = {" ": "", "-": "red", "+": "green", "~": "yellow"}
# Past this many lines difflib's quadratic worst case starts to show; autojunk trades a
# little alignment quality for speed there.
_AUTOJUNK_AT = 4000
# A list of more values than this (an `enum` of every country, or of a million ids) shows
# each run of its values (the same on both sides, or not) by its first and last few: a
# line per value made the diff of a million-value enum take minutes to print.
_FOLD_LIST_AT = 100
_FOLD_KEEP = 5


@dataclass(frozen=True)
class Line:
    text: str
    path: Path
    indent: int
    stands_for: int = 1  # lines of the whole document it shows (values of a long list left out)


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


class _Elided(NamedTuple):
    """Values of a long list left out of the diff (`_fold_lists`): `left_out` of them from
    index `start`, which `note` describes."""

    start: int
    left_out: int
    note: str


_MISSING = object()  # the side of a pair of values where the key is not there
_PLAIN = frozenset({str, int, float, bool, type(None)})  # what a JSON list of values holds


def _fold_lists(before: Any, after: Any, ellipsis: str) -> tuple[Any, Any]:
    """`before` and `after` with each list of more than `_FOLD_LIST_AT` plain values folded:
    the lists are aligned value by value first (C-speed comparisons, not a line per value
    through difflib and the renderer), and every run of more than twice `_FOLD_KEEP` values,
    unchanged or not, is shown by its ends around an `_Elided` line saying how many are left
    out. `diff --json` lists every value; this is the side-by-side view."""
    if isinstance(before, dict) or isinstance(after, dict):
        b = before if isinstance(before, dict) else {}
        a = after if isinstance(after, dict) else {}
        pairs = {k: _fold_lists(b.get(k, _MISSING), a.get(k, _MISSING), ellipsis)
                 for k in dict.fromkeys([*b, *a])}
        new_b = {k: pairs[k][0] for k in b}
        new_a = {k: pairs[k][1] for k in a}
        return (new_b if isinstance(before, dict) else before,
                new_a if isinstance(after, dict) else after)
    if not (isinstance(before, list) or isinstance(after, list)):
        return before, after
    b_list = before if isinstance(before, list) else []
    a_list = after if isinstance(after, list) else []
    if max(len(b_list), len(a_list)) <= _FOLD_LIST_AT or not (
            {*map(type, b_list), *map(type, a_list)} <= _PLAIN):
        both = [_fold_lists(x, y, ellipsis) for x, y in zip(b_list, a_list, strict=False)]
        items_b = [p[0] for p in both] + [_fold_lists(x, _MISSING, ellipsis)[0]
                                          for x in b_list[len(both):]]
        items_a = [p[1] for p in both] + [_fold_lists(_MISSING, y, ellipsis)[1]
                                          for y in a_list[len(both):]]
        return (items_b if isinstance(before, list) else before,
                items_a if isinstance(after, list) else after)
    out_b: list[Any] = []
    out_a: list[Any] = []
    for op, i1, i2, j1, j2 in _list_opcodes(b_list, a_list):
        same = "unchanged" if op == "equal" else ""
        _run(b_list, i1, i2, out_b,
             f"{ellipsis} %s more values {same or ('changed' if op == 'replace' else 'removed')}")
        _run(a_list, j1, j2, out_a,
             f"{ellipsis} %s more values {same or ('changed' if op == 'replace' else 'added')}")
    return (out_b if isinstance(before, list) else before,
            out_a if isinstance(after, list) else after)


# Past this many values between the common ends of two lists, they are not aligned value by
# value (difflib takes seconds on a million): the whole middle is shown as changed.
_ALIGN_VALUES_AT = 10_000
Opcode = tuple[str, int, int, int, int]


def _list_opcodes(before: list[Any], after: list[Any]) -> list[Opcode]:
    """difflib's opcodes for two lists of plain values, where JSON tells `1`, `1.0` and
    `true` apart: the common ends found value by value first (all of it, mostly: a
    transform seldom touches a long enum), difflib only on what lies between."""
    n, m = len(before), len(after)
    head, tail = common_ends(before, after)
    ops: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    mid_b, mid_a = before[head:n - tail], after[head:m - tail]
    if max(len(mid_b), len(mid_a)) > _ALIGN_VALUES_AT:
        op = "replace" if mid_b and mid_a else "delete" if mid_b else "insert"
        ops.append((op, head, n - tail, head, m - tail))
    elif mid_b or mid_a:
        matcher = difflib.SequenceMatcher(
            None, [(type(v).__name__, v) for v in mid_b],
            [(type(v).__name__, v) for v in mid_a], autojunk=False)
        ops.extend((op, i1 + head, i2 + head, j1 + head, j2 + head)
                   for op, i1, i2, j1, j2 in matcher.get_opcodes())
    if tail:
        ops.append(("equal", n - tail, n, m - tail, m))
    return ops


def _run(values: list[Any], start: int, end: int, out: list[Any], note: str) -> None:
    """Values[start:end] onto `out`, the middle of a long run left out, said by `note`
    with its count for `%s`."""
    keep = _FOLD_KEEP
    if end - start <= 2 * keep + 1:
        out.extend(values[start:end])
        return
    out.extend(values[start:start + keep])
    count = end - start - 2 * keep
    out.append(_Elided(start + keep, count, note % f"{count:,}"))
    out.extend(values[end - keep:end])


def _pretty(value: Any, path: Path, indent: int, prefix: str, suffix: str) -> Iterator[Line]:
    pad = " " * indent
    if isinstance(value, dict) and value:
        yield Line(f"{pad}{prefix}{{", path, indent)
        last = len(value) - 1
        for i, (key, child) in enumerate(value.items()):
            yield from _pretty(
                child, (*path, key), indent + 2, f"{_scalar(str(key))}: ", "," if i < last else ""
            )
        yield Line(f"{pad}}}{suffix}", path, indent)
    elif isinstance(value, (list, tuple)) and value:
        yield Line(f"{pad}{prefix}[", path, indent)
        last = len(value) - 1
        index = 0  # of the value in the list shown, past any left out (`_fold_lists`)
        for i, child in enumerate(value):
            if isinstance(child, _Elided):
                yield Line(f"{pad}  {child.note}", (*path, child.start), indent + 2,
                            child.left_out)
                index = child.start + child.left_out
                continue
            yield from _pretty(child, (*path, index), indent + 2, "", "," if i < last else "")
            index += 1
        yield Line(f"{pad}]{suffix}", path, indent)
    else:
        text = (
            "{}"
            if isinstance(value, dict)
            else "[]"
            if isinstance(value, (list, tuple))
            else _scalar(value)
        )
        yield Line(f"{pad}{prefix}{text}{suffix}", path, indent)


Row = tuple[Line | None, Line | None, Kind]


def _align(left: list[Line], right: list[Line]) -> list[Row]:
    # A trailing comma appears or vanishes when a neighbour is removed; that alone is
    # not a change, so it is ignored for matching.
    lkeys = [line.text.rstrip(",") for line in left]
    rkeys = [line.text.rstrip(",") for line in right]
    junk = len(left) + len(right) > _AUTOJUNK_AT
    matcher = difflib.SequenceMatcher(None, lkeys, rkeys, autojunk=junk)
    rows: list[Row] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            rows.extend(
                (left[i], right[j], " ") for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            )
        elif op == "delete":
            rows.extend((left[i], None, "-") for i in range(i1, i2))
        elif op == "insert":
            rows.extend((None, right[j], "+") for j in range(j1, j2))
        else:
            rows.extend(_pair_replace(left[i1:i2], right[j1:j2]))
    return rows


def _signature(line: Line) -> tuple[int, str, bool]:
    """Which member a line prints, ignoring its value: same key at the same depth."""
    closing = line.text.strip().rstrip(",") in ("}", "]")
    return (line.indent, repr(line.path[-1]) if line.path else "", closing)


def _pair_replace(left: list[Line], right: list[Line]) -> list[Row]:
    """Pair the lines of a replaced block: first members with the same key at the same
    depth (a value that changed), then what is left by depth alone (`"$ref"` next to the
    `"type"` that replaced it)."""
    matcher = difflib.SequenceMatcher(
        None, [_signature(x) for x in left], [_signature(x) for x in right], autojunk=False
    )
    rows: list[Row] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            rows.extend(
                (left[i], right[j], "~") for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            )
        else:
            rows.extend(_pair_by_depth(left[i1:i2], right[j1:j2]))
    return rows


def _pair_by_depth(left: list[Line], right: list[Line]) -> list[Row]:
    """Pair only lines at the same depth: pairing a removed `"$ref": ...` with an
    unrelated deeper line would suggest an edit that never happened."""
    rows: list[Row] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i].indent == right[j].indent:
            rows.append((left[i], right[j], "~"))
            i += 1
            j += 1
        elif left[i].indent > right[j].indent:
            rows.append((left[i], None, "-"))
            i += 1
        else:
            rows.append((None, right[j], "+"))
            j += 1
    rows.extend((line, None, "-") for line in left[i:])
    rows.extend((None, line, "+") for line in right[j:])
    return rows


# A block (an object or array, opened on one line and closed on another) all of whose lines
# are unchanged, or all removed, is shown folded: its first line, then how many lines it
# hides (`full` shows every line). Fewer lines than this are shown: a fold saves nothing.
_FOLD_AT = 3


class _Fold(NamedTuple):
    """Lines of the original not shown: `hidden` of them, below a block's first line at
    `indent`, unchanged (shown on both sides) or removed (the left side only), with the
    codes of the changes that removed the block."""

    hidden: int
    indent: int
    removed: bool
    codes: tuple[str, ...] = ()


def _fold_blocks(rows: list[Row], tagged: set[int], changes: tuple[Change, ...],
                 ) -> list[Row | _Fold]:
    """`rows` with each outermost unchanged block (but the root, so a schema without
    changes still shows its members) folded inside its brackets, and each outermost
    removed block folded below its first line. A line carrying a change tag (`tagged`:
    ids of right-hand lines) is never folded away."""
    out: list[Row | _Fold] = []
    i = 0
    while i < len(rows):
        end = _block_end(rows, i, tagged)
        lhs = rows[i][0]
        if end is not None and lhs is not None:
            if rows[i][2] == "-" and end - i >= _FOLD_AT:
                codes = tuple(dict.fromkeys(c.code for c in changes if c.path == lhs.path))
                out.extend((rows[i], _Fold(_lines(rows, i + 1, end + 1), lhs.indent, True,
                                           codes)))
                i = end + 1
                continue
            if rows[i][2] == " " and lhs.path and end - i - 1 >= _FOLD_AT:
                out.extend((rows[i], _Fold(_lines(rows, i + 1, end), lhs.indent, False),
                            rows[end]))
                i = end + 1
                continue
        out.append(rows[i])
        i += 1
    return out


def _lines(rows: list[Row], start: int, end: int) -> int:
    """The lines of the original that rows[start:end] show (a long list's values left
    out counted too)."""
    return sum(row[0].stands_for if row[0] is not None else 1 for row in rows[start:end])


def _block_end(rows: list[Row], start: int, tagged: set[int]) -> int | None:
    """The row closing the block `rows[start]` opens, when every row from one to the
    other is unchanged and untagged, or every one removed; else None."""
    lhs, _, kind = rows[start]
    if lhs is None or kind not in (" ", "-") or not lhs.text.endswith(("{", "[")):
        return None
    for k in range(start, len(rows)):
        left, right, row_kind = rows[k]
        if left is None or row_kind != kind or (
                right is not None and (kind == "-" or id(right) in tagged)):
            return None
        if k > start and left.path == lhs.path and left.indent == lhs.indent:
            return k
    return None


def _fold_cells(fold: _Fold, col: int, ellipsis: str) -> tuple[list[Text], list[Text]]:
    """A fold's line: the count, at the depth of the block's members."""
    pad = f"{' ' * (fold.indent + 2)}{ellipsis} "
    lines = "line" if fold.hidden == 1 else "lines"
    if not fold.removed:
        text = Text(f"{pad}{fold.hidden} unchanged {lines}", "dim")
        return _fold(text, Text("  "), col, fold.indent + 4), \
            _fold(text.copy(), Text("  "), col, fold.indent + 4)
    why = f" ({', '.join(fold.codes)})" if fold.codes else ""
    text = Text(f"{pad}{fold.hidden} more {lines} removed{why}", KIND_STYLE["-"])
    return _fold(text, Text("- ", KIND_STYLE["-"]), col, fold.indent + 4), [Text("")]


def aligned(before: Any, after: Any, changes: Sequence[Change]
            ) -> tuple[list[Row], dict[int, list[int]]]:
    """Two schemas' lines side by side, and the changes marked on the right-hand lines (id of
    the line -> indexes into `changes`): each on its own node's line, or on its nearest
    ancestor's still present in `after` (a removed key has no line of its own)."""
    left = list(_pretty(before, (), 0, "", ""))
    right = list(_pretty(after, (), 0, "", ""))
    first_line: dict[Path, int] = {}
    for index, line in enumerate(right):
        first_line.setdefault(line.path, index)
    marks: dict[int, list[int]] = {}
    for k, change in enumerate(changes):
        if change.scope != "tool":
            at = next((first_line[change.path[:cut]] for cut in range(len(change.path), -1, -1)
                       if change.path[:cut] in first_line), 0)
            marks.setdefault(id(right[at]), []).append(k)
    return _align(left, right), marks


def _wrap(text: str, first: int, rest: int) -> list[tuple[int, int]]:
    """Character spans fitting `first` cells, then `rest` cells each. Breaks after a
    space when one is reasonably close, else folds mid-word (paths, long strings)."""
    spans: list[tuple[int, int]] = []
    start, width, n = 0, max(1, first), len(text)
    # Never break inside the JSON indentation: that would leave a bare marker behind.
    body_from = n - len(text.lstrip(" "))
    while start < n:
        used, end, space = 0, start, -1
        while end < n:
            size = get_character_cell_size(text[end])
            if used + size > width:
                break
            if text[end] == " " and end > max(start, body_from):
                space = end
            used += size
            end += 1
        if end == start:  # a character wider than the column: emit it rather than loop
            end = start + 1
        elif end < n and space > start + width // 3:
            end = space + 1
        spans.append((start, end))
        start, width = end, max(1, rest)
        while start < n - 1 and text[start] == " ":  # a fold never starts with a blank
            start += 1
    return spans or [(0, 0)]


def _fold(content: Text, marker: Text, width: int, hang: int) -> list[Text]:
    """`marker` then `content`, folded to `width` cells; continuation lines are indented
    by `hang` under the text so a fold reads as part of the same line."""
    avail = max(1, width - marker.cell_len)
    if cell_len(content.plain) <= avail:  # the common case, and the hot path
        cell = marker.copy()
        cell.append_text(content)
        return [cell]
    hang = min(hang, avail // 2)
    spans = _wrap(content.plain, avail, avail - hang)
    offsets = [s for s, _ in spans[1:]]
    pieces = content.divide(offsets) if offsets else [content]
    out: list[Text] = []
    for k, piece in enumerate(pieces):
        cell = marker.copy() if k == 0 else Text(" " * (marker.cell_len + hang))
        # Blanks skipped at a fold stay at the end of the previous piece; drop them so
        # the piece is never wider than its span.
        piece = piece.copy()
        piece.rstrip()
        cell.append_text(piece)
        out.append(cell)
    return out


def _cell(line: Line | None, marker: str, style: str, tag: Text | None, width: int) -> list[Text]:
    """One side of one row: the `-`/`+`/`~` marker, the JSON line, and any change tag."""
    if line is None:
        return [Text("")]
    content = Text(line.text, style)
    if tag is not None:
        content.append("  ")
        content.append_text(tag)
    return _fold(content, Text(f"{marker} ", style), width, line.indent + 2)


def _tag(changes: list[Change], ascii_only: bool) -> Text:
    """`← REF001 lossless`, each change's code and safety glued (`NO_BREAK`), so a fold
    never parts them."""
    tag = Text("<-" if ascii_only else "←", "bold")
    for k, change in enumerate(changes):
        tag.append("," if k else "")
        tag.append(" " if k else NO_BREAK)
        tag.append(change.code, "bold")
        tag.append(NO_BREAK)
        tag.append(change.safety, SAFETY_STYLE[change.safety])
    return tag


def _summary(changes: tuple[Change, ...]) -> str:
    if not changes:
        return "no changes"
    safeties = counts(Counter(c.safety for c in changes), SAFETIES)
    return f"{plural(len(changes), 'change')} ({safeties})"


def _cells(change: Change) -> list[Styled]:
    """A change's code and safety, as the rows listing changes begin."""
    return [Styled(change.code, "bold"), Styled(change.safety, SAFETY_STYLE[change.safety])]


def render_diff(result: ToolResult, console: Console, *, full: bool = False) -> None:
    """Print the side-by-side diff of one tool to `console`, within its width: unchanged
    and removed blocks folded to a count of their lines, or with `full` every line."""
    tool = result.tool
    width = console.size.width
    ascii_only = not console.encoding.lower().startswith("utf")
    bar = " | " if ascii_only else " │ "
    ellipsis = "..." if ascii_only else "…"
    col = max(4, (width - cell_len(bar)) // 2)

    head = Styled("diff ", "bold")
    head.append(printable(tool.name), "bold")
    if tool.source:
        head.append(f"  {printable(tool.source)}", "dim")
    head.append(f"  for {result.profile}: {_summary(result.changes)}")
    print_line(console, head)

    print_rows(console, [([Styled("tool", "bold"), *_cells(c)], Styled(printable(c.description)))
                         for c in result.changes if c.scope == "tool"], indent=0)

    before, after = tool.schema, result.transformed_schema
    if not full:
        before, after = _fold_lists(before, after, ellipsis)
    rows, marks = aligned(before, after, result.changes)

    titles = ["original", f"transformed for {result.profile}"]
    if result.transformed_name != tool.name:
        titles[0] += f" ({printable(tool.name)})"
        titles[1] += f" ({printable(result.transformed_name)})"
    left, right = (_fold(Text(title, "bold"), Text("  "), col, 0) for title in titles)
    lines: list[Text] = []
    _emit(lines, left, right, col, bar)

    shown: list[Row | _Fold] = list(rows)
    if not full:
        shown = _fold_blocks(rows, set(marks), result.changes)
    folded = [row for row in shown if isinstance(row, _Fold)]
    for row in shown:
        if isinstance(row, _Fold):
            _emit(lines, *_fold_cells(row, col, ellipsis), col, bar)
            continue
        lhs, rhs, kind = row
        style = KIND_STYLE[kind]
        tag = None
        if rhs is not None:
            anchored = marks.get(id(rhs))
            if anchored:
                tag = _tag([result.changes[k] for k in anchored], ascii_only)
        left_cells = _cell(lhs, kind if lhs is not None else " ", style, None, col)
        right_cells = _cell(rhs, kind if rhs is not None else " ", style, tag, col)
        _emit(lines, left_cells, right_cells, col, bar)
    _print_lines(console, lines)
    if folded:
        same = sum(f.hidden for f in folded if not f.removed)
        gone = sum(f.hidden for f in folded if f.removed)
        what = " and ".join(part for part in (same and f"{same} unchanged",
                                              gone and f"{gone} removed") if part)
        print_line(console, Styled(f"{ellipsis} folded: {what} lines of the original; "
                                   "`--full` shows every line", "dim"))

    if result.changes:
        console.print()
        print_line(console, Styled("changes:", "bold"))
        print_rows(console, [(_cells(c), located_text(c.scope, c.path, c.description))
                             for c in result.changes])
    remaining = [f for f in result.remaining if f.severity == "error"]
    if remaining:
        console.print()
        print_line(console, Styled("still rejected after transform:", "bold red"))
        print_rows(
            console,
            [([Styled(f.code, "bold")], located_text(f.scope, f.path, f.message))
             for f in remaining],
        )


def _emit(out: list[Text], left: list[Text], right: list[Text], col: int, bar: str) -> None:
    for k in range(max(len(left), len(right))):
        line = Text()
        if k < len(left):
            line.append_text(left[k])
        line.pad_right(max(0, col - line.cell_len))
        line.append(bar, "dim")
        if k < len(right):
            line.append_text(right[k])
        line.rstrip()
        out.append(line)


def _print_lines(console: Console, lines: list[Text]) -> None:
    # One print for the whole block: console.print costs ~0.5 ms a call, which made
    # a 15,000-line diff take seconds. Every line already fits, so nothing may wrap.
    if lines:
        block = Text("\n").join(lines)
        block.plain = block.plain.replace(NO_BREAK, " ")  # same length: the styles stay
        console.print(block, no_wrap=True, overflow="ignore", crop=False, highlight=False)

