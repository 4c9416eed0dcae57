"""Plain data passed between the stages: extract, check, transform, report.

Nothing here imports a third-party module: the library API, the CLI and every report
writer depend on these types, and importing them must stay cheap, since every `check` pays
for it at start-up. So the records are named tuples (ToolDef, whose `raw` defaults to a new
dict, a small frozen class) rather than dataclasses (docs/performance.md, cold start).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

JSON = Any
Severity = Literal["error", "warning", "info"]
Safety = Literal["lossless", "hinted", "lossy"]
PathKey = str | int
Path = tuple[PathKey, ...]

SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
SAFETIES: tuple[Safety, ...] = ("lossless", "hinted", "lossy")
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}
SAFETY_RANK: dict[str, int] = {"lossless": 0, "hinted": 1, "lossy": 2}

# A change's effect, in two parts. On what the server accepts, with S the arguments the
# original schema accepts and S' those the transformed one accepts: equal (S' = S), narrower
# (S' a proper subset of S: whatever the model sends, the server accepts), wider (S' a proper
# superset: the model may send what the server refuses), changed (neither). On what the model
# is told: kept, described (moved into a `description`), or lost.
Accepts = Literal["equal", "narrower", "wider", "changed"]
Told = Literal["kept", "described", "lost"]
# The effect a fix declaring only its safety has: its safety class's usual case.
USUAL_EFFECT: dict[str, tuple[Accepts, Told]] = {
    "lossless": ("equal", "kept"), "hinted": ("wider", "described"),
    "lossy": ("changed", "lost")}


def effect_of(safety: Safety, accepts: Accepts | None, told: Told | None
              ) -> tuple[Accepts, Told]:
    """The effect declared, each part not declared being `safety`'s usual one."""
    usual = USUAL_EFFECT[safety]
    return (accepts or usual[0], told or usual[1])


def safety_of(accepts: str, told: str) -> Safety:
    """The safety class of an effect, which it defines: lossless when the arguments
    accepted are equal and nothing the model was told is lost; hinted when they are wider
    and what no longer holds is described to the model (or still said) — the server's own
    validation catches the rest; lossy when they are narrower or changed, or text is lost."""
    if told == "lost" or accepts in ("narrower", "changed"):
        return "lossy"
    return "hinted" if accepts == "wider" else "lossless"

_C = TypeVar("_C")
if TYPE_CHECKING:
    from typing import dataclass_transform

    @dataclass_transform(frozen_default=True)
    def _frozen(cls: type[_C]) -> type[_C]:
        """Type checkers see a frozen dataclass: assigning a field is an error there too."""
else:
    def _frozen(cls):
        return cls


# The two dialects a tool's schema is read in (`ToolDef.dialect`).
JSON_SCHEMA = "json-schema"
OPENAPI = "openapi-3.0"


def written_dialect(nullable_keyword: bool) -> str:
    """The dialect a profile's output is written in: OpenAPI's where the provider reads
    `nullable` (`Profile.nullable_keyword`), JSON Schema elsewhere."""
    return OPENAPI if nullable_keyword else JSON_SCHEMA


@_frozen
class ToolDef:
    """One tool as found in a source.

    `schema` is the input schema exactly as given, which may be any JSON value when the
    source is malformed; rules decide what is wrong with it. `raw` keeps the tool object
    so writers can give back the same shape with only the schema (and name) replaced.
    Frozen, compared and hashed by value, like the dataclass it was.
    """

    __slots__ = ("description", "dialect", "index", "name", "raw", "schema", "schema_optional",
                 "source")
    _fields = ("name", "schema", "description", "source", "index", "raw", "schema_optional",
               "dialect")

    name: str
    schema: JSON
    description: str | None
    source: str
    index: int
    raw: Mapping[str, Any]
    # Gemini and OpenAI declarations may omit their parameters: there, a missing schema
    # means "no arguments", not a malformed tool.
    schema_optional: bool
    # How the schema's keywords are read: JSON Schema (MCP's `inputSchema`), or the OpenAPI
    # 3.0 subset of a Gemini declaration's `parameters`, where `nullable: true` means "or
    # null" (OPENAPI). The one keyword the two read differently is `nullable`.
    dialect: str

    def __init__(self, name: str, schema: JSON, description: str | None = None,
                 source: str = "", index: int = 0, raw: Mapping[str, Any] | None = None,
                 schema_optional: bool = False, dialect: str = JSON_SCHEMA) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "name", name)
        setattr_(self, "schema", schema)
        setattr_(self, "description", description)
        setattr_(self, "source", source)
        setattr_(self, "index", index)
        setattr_(self, "raw", {} if raw is None else raw)
        setattr_(self, "schema_optional", schema_optional)
        setattr_(self, "dialect", dialect)

    def _values(self) -> tuple[Any, ...]:
        return (self.name, self.schema, self.description, self.source, self.index, self.raw,
                self.schema_optional, self.dialect)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == tuple(getattr(other, name) for name in self._fields)

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "ToolDef(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields) + ")"

    if not TYPE_CHECKING:  # hidden from type checkers, which would then allow any attribute
        def __setattr__(self, name: str, value: Any) -> None:
            raise AttributeError(f"cannot assign to field {name!r}")

        def __delattr__(self, name: str) -> None:
            raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[ToolDef], tuple[Any, ...]]:
        # copy and pickle would restore the slots through the refused __setattr__
        return ToolDef, self._values()


class Finding(NamedTuple):
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
    # the fix's effect (None without a fix; `fix_effect` reads the safety's usual one when
    # only the safety was given); `fix_safety` is `safety_of` it
    fix_accepts: Accepts | None = None
    fix_told: Told | None = None

    @property
    def fix_effect(self) -> tuple[Accepts, Told] | None:
        if self.fix_safety is None:
            return None
        return effect_of(self.fix_safety, self.fix_accepts, self.fix_told)


class Change(NamedTuple):
    """One edit the transform made, with the rule that asked for it, its effect and the
    safety class that effect defines (`safety_of`)."""

    code: str
    path: Path
    safety: Safety
    description: str
    scope: Literal["schema", "tool"] = "schema"
    # the engine always gives the effect; a change made without one (by hand) has its
    # safety's usual effect (`effect`)
    accepts: Accepts | None = None
    told: Told | None = None

    @property
    def effect(self) -> tuple[Accepts, Told]:
        return effect_of(self.safety, self.accepts, self.told)


# How far a tool is from being accepted: "compatible" needs nothing; the other values name
# the worst safety class transform needed, or "unfixable" when errors remain after it.
FixStatus = Literal["compatible", "lossless", "hinted", "lossy", "unfixable"]


class ToolResult(NamedTuple):
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


class SourceError(NamedTuple):
    """A source that could not be read at all: reported, never a traceback."""

    source: str
    message: str
    hint: str = ""

    def one_line(self) -> str:
        text = f"{self.source}: {self.message}" if self.source else self.message
        return f"{text} ({self.hint})" if self.hint else text


class ServerInfo(NamedTuple):
    """How a live server answered: which protocol era and version it spoke, and who it said
    it was. Servers of the 2026 era are stateless (`server/discover`); earlier ones use the
    `initialize` handshake."""

    source: str
    transport: str  # stdio, http or sse
    era: str  # "handshake" (initialize) or "stateless" (server/discover)
    protocol_version: str
    name: str = ""
    version: str = ""


class RequestLimit(NamedTuple):
    """One request-level limit with its use: `tools 137/128`, `strict tools 20/20`."""

    key: str  # "tools", "strict-tools", "strict-optional", "strict-unions"
    label: str  # "tools", "strict tools", "strict optional parameters", ...
    used: int
    limit: int
    source: str  # the docs/providers.md rule id
    # the tools that push it over ("server/tool"): each one whose own share takes the sum
    # past the limit, and every later one adding to it
    over_by: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return self.used > self.limit

    def text(self) -> str:
        return f"{self.label} {self.used}/{self.limit}"


class Decision(NamedTuple):
    """What the request planner decided for one tool, and why."""

    source: str
    tool: str  # the tool's name as its server lists it
    kind: Literal["strict", "non-strict", "renamed", "excluded"]
    reason: str


class RequestInfo(NamedTuple):
    """One request (the tools a client sends at once): its sources, each request-level
    limit with its use, the names more than one tool holds, and the planner's decisions
    (none for a check, which plans nothing)."""

    sources: tuple[str, ...]
    limits: tuple[RequestLimit, ...]
    clashes: tuple[str, ...] = ()
    decisions: tuple[Decision, ...] = ()
    name_prefix: str = "none"


class Report(NamedTuple):
    """The result of one run: what every report format renders."""

    provider: str
    results: tuple[ToolResult, ...]
    errors: tuple[SourceError, ...] = ()
    servers: tuple[ServerInfo, ...] = ()
    requests: tuple[RequestInfo, ...] = ()  # the requests the tools were checked as
    # the run made lossless fixes only (`--lossless-only`): a finding whose fix is not
    # lossless keeps that fix's class and effect, but the fix was refused, not made
    lossless_only: bool = False
    # the MCP client whose limits joined the provider's ("": none), and the client config
    # it was inferred from ("": named by --client)
    client: str = ""
    client_from: str = ""
