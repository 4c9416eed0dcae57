"""The results a command keeps while its output is written, and no more.

`transform` writes each tool's result when its place in the document comes (`Taken` hands
them out in the document's order), so a large listing is never held whole: afterwards only
what the summary, the exit code and `--json` read is kept (`lean`). The text, SARIF, GitHub
and Markdown reports of `check` and `transform` only count changes that are not lossy, so
those are kept as one shared record per rule and effect (`compact_changes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..model import Change, ToolResult

__all__ = ["Taken", "compact_changes", "gathered", "lean"]


class Taken:
    """Hands out results in the order the document needs them, from results that come in
    the order of the tools (usually the same: a Gemini file with two declaration lists is
    one that differs, and then the results it is ahead by wait here)."""

    def __init__(self, results: Iterator[ToolResult], *, keep_schemas: bool) -> None:
        self._results = results
        self._keep_schemas = keep_schemas
        self._waiting: dict[tuple[str, int], ToolResult] = {}
        self._changes: dict[tuple[str, ...], Change] = {}
        self.kept: list[ToolResult] = []

    def next(self) -> ToolResult:
        """The next result in the order of the tools."""
        result = next(self._results)
        self.kept.append(result if self._keep_schemas else lean(result, self._changes))
        return result

    def take(self, source: str, index: int) -> ToolResult:
        """The result of tool `index` of `source`; results before it in the order of the
        tools wait for their turn."""
        key = (source, index)
        while key not in self._waiting:
            result = self.next()
            self._waiting[(result.tool.source, result.tool.index)] = result
        return self._waiting.pop(key)

    def rest(self) -> list[ToolResult]:
        """Every result, kept as described above, once the ones not yet taken are run."""
        while True:
            try:
                self.next()
            except StopIteration:
                return self.kept


def lean(result: ToolResult, shared: dict[tuple[str, ...], Change]) -> ToolResult:
    """`result` as the transform summary and the exit code read it.

    Kept: the tool, its new name, what remains (the exit code and the list of tools still
    incompatible) and the changes as `compact_changes` leaves them. Dropped: the transformed
    schema (already written) and the findings before the transform (not shown).
    """
    return compact_changes(result, shared)._replace(findings=(), transformed_schema=None)


def compact_changes(result: ToolResult,
                    shared: dict[tuple[str, ...], Change]) -> ToolResult:
    """`result` with each change that is not lossy replaced by one record shared by every
    change of the same rule, effect and scope, without its path and description.

    The text summaries (of check and of transform) and the SARIF, GitHub and Markdown
    reports only count those changes by safety; lossy ones are listed, so they stay whole.
    On a 10,000-tool listing the records with their own paths and descriptions cost more
    memory than the listing's own text.
    """
    changes = tuple(
        c if c.safety == "lossy" else shared.setdefault(
            (c.code, c.safety, c.scope, *c.effect),
            Change(c.code, (), c.safety, "", c.scope, c.accepts, c.told))
        for c in result.changes
    )
    return result._replace(changes=changes)


def gathered(results: Iterable[ToolResult], keep_changes: bool) -> list[ToolResult]:
    """The engine's results as a report keeps them: whole with `keep_changes` (the JSON
    report lists every change), else with `compact_changes`, taken one at a time."""
    if keep_changes:
        return list(results)
    shared: dict[tuple[str, ...], Change] = {}
    return [compact_changes(r, shared) for r in results]
