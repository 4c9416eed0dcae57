"""Plain data passed between the stages: extract, check, transform, report.

Nothing here imports a third-party module: the library API, the CLI and every report
writer depend on these types, and importing them must stay cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

JSON = Any
Severity = Literal["error", "warning", "info"]
Safety = Literal["lossless", "hinted", "lossy"]
PathKey = str | int
Path = tuple[PathKey, ...]

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
SAFETIES: tuple[Safety, ...] = ("lossless", "hinted", "lossy")
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}
SAFETY_RANK: dict[str, int] = {"lossless": 0, "hinted": 1, "lossy": 2}


@dataclass(frozen=True)
class ToolDef:
    """One tool as found in a source.

    `schema` is the input schema exactly as given, which may be any JSON value when the
    source is malformed; rules decide what is wrong with it. `raw` keeps the tool object
    so writers can give back the same shape with only the schema (and name) replaced.
    """

    name: str
    schema: JSON
    description: str | None = None
    source: str = ""
    index: int = 0
    raw: Mapping[str, Any] = field(default_factory=dict)
    # Gemini and OpenAI declarations may omit their parameters: there, a missing schema
    # means "no arguments", not a malformed tool.
    schema_optional: bool = False


@dataclass(frozen=True)
class Finding:
    """A problem a rule found, located by a path from the schema root.

    `path` starts at the input schema root; tool-level findings (name, description,
    count) use an empty path plus `scope="tool"`.
    """

    code: str
    rule: str
    severity: Severity
    path: Path
    message: str
    keyword: str | None = None
    fix_title: str | None = None
    fix_safety: Safety | None = None
    scope: Literal["schema", "tool"] = "schema"


@dataclass(frozen=True)
class Change:
    """One edit the transform made, with the rule that asked for it and its safety."""

    code: str
    path: Path
    safety: Safety
    description: str
    scope: Literal["schema", "tool"] = "schema"


# How far a tool is from being accepted: "compatible" needs nothing; the other values name
# the worst safety class transform needed, or "unfixable" when errors remain after it.
FixStatus = Literal["compatible", "lossless", "hinted", "lossy", "unfixable"]


@dataclass(frozen=True)
class ToolResult:
    """Everything the pipeline learned about one tool for one profile."""

    tool: ToolDef
    profile: str
    findings: tuple[Finding, ...]
    changes: tuple[Change, ...]
    transformed_name: str
    transformed_schema: JSON
    remaining: tuple[Finding, ...]

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def status(self) -> Literal["COMPATIBLE", "INCOMPATIBLE"]:
        """INCOMPATIBLE when the provider would reject the tool as published."""
        return "INCOMPATIBLE" if self.errors else "COMPATIBLE"

    @property
    def fix_status(self) -> FixStatus:
        if any(f.severity == "error" for f in self.remaining):
            return "unfixable"
        if not self.changes:
            return "compatible"
        worst = max(SAFETY_RANK[c.safety] for c in self.changes)
        return SAFETIES[worst]


@dataclass(frozen=True)
class SourceError:
    """A source that could not be read at all: reported, never a traceback."""

    source: str
    message: str
    hint: str = ""

    def one_line(self) -> str:
        text = f"{self.source}: {self.message}" if self.source else self.message
        return f"{text} ({self.hint})" if self.hint else text


@dataclass(frozen=True)
class Report:
    """The result of one run: what every report format renders."""

    provider: str
    results: tuple[ToolResult, ...]
    errors: tuple[SourceError, ...] = ()
