"""What a rule is: data with a stable code, docs, a detector and (usually) a fix.

Modelled on ruff: one engine runs every rule, a rule never walks the schema itself, and
every fix declares what it changed (`Edit`) so `--lossless-only` can refuse the ones that
change what the provider accepts. What the rules may rely on, and must keep:

- A fix returns a new node (`Fixed`) and never changes the one it is given.
- A rule keeps nothing between calls in its module: what it may remember during a run is
  the run's (`RunState`, `NodeContext.run`).
- A finding's fix is what the transform did (the engine's record), so a detector need not
  predict it; a hit's `safety` is for the few rules that tell it from the node alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ..model import JSON_SCHEMA, Accepts, Path, Safety, Severity, Told, effect_of, safety_of

if TYPE_CHECKING:
    from ..profiles.base import Profile
    from ..schema.ref_analysis import RefAnalysis

Scope = Literal["node", "document", "tool"]


class RunState:
    """What the rules may remember while one document is checked and transformed: made
    by the engine for each document it runs, handed to every rule through its context, and
    dropped with the run. Nothing a rule learns outlives the run in a module.

    `claimed` is the plan's: the keywords some rule of the profile handles (the catch-all
    unknown-keyword rule leaves them). `analysis` is the reference analysis of one document
    (`rules.refs`), valid while that document is unchanged: the engine calls `forget`
    whenever a fix may have changed it.

    `dialect` is how the document's `nullable` is read (`ToolDef.dialect`): the input's
    until the first pass has rewritten it (ROOT003 first of all), the provider's after, so
    that a fix's own `nullable` is never read as the input's."""

    __slots__ = ("analysis", "claimed", "dialect")

    analysis: tuple[Any, RefAnalysis] | None  # (document, its analysis)
    claimed: frozenset[str]
    dialect: str

    def __init__(self, claimed: frozenset[str] = frozenset(),
                 dialect: str = JSON_SCHEMA) -> None:
        self.claimed = claimed
        self.analysis = None
        self.dialect = dialect

    def forget(self) -> None:
        """The document may have changed: what was learnt of it no longer holds."""
        self.analysis = None


class NodeContext:
    """Where a node sits: rules need to know the root and the keyword that led here, and
    reach the run's state through it. The engine makes one per node per walk, so it is a
    plain class with slots, never changed once made (a native class in the compiled
    build); the other records here are named tuples, which cost nothing to import."""

    __slots__ = ("in_force", "parent", "path", "profile", "root", "run")

    path: Path
    profile: Profile
    parent: str | None  # the keyword holding this node: "properties", "items", ...
    root: Any  # the whole document, for rules that follow references
    # Of the codes the run's rules name in `defers_to` and `acts_for`, those in force: a
    # rule asks it only of the codes it names there (tests/test_rule_files.py).
    in_force: frozenset[str]
    run: RunState  # what rules remember during this run

    def __init__(self, path: Path, profile: Profile, parent: str | None = None,
                 root: Any = None, in_force: frozenset[str] = frozenset(),
                 run: RunState | None = None) -> None:
        self.path = path
        self.profile = profile
        self.parent = parent
        self.root = root
        self.in_force = in_force
        self.run = run if run is not None else RunState()

    def __repr__(self) -> str:
        return (f"NodeContext(path={self.path!r}, profile={self.profile.name!r}, "
                f"parent={self.parent!r})")

    @property
    def is_root(self) -> bool:
        return self.path == ()


class Hit(NamedTuple):
    """One problem found at `rel` below the node; `safety` is what its fix would be, and
    `accepts`/`told` its effect where it is not that safety's usual one (`USUAL_EFFECT`).
    `fixable` is False where the rule has a fix but none for this problem (its fix then
    declines the node): the finding says it has no fix rather than the rule's usual one."""

    message: str
    rel: Path = ()
    keyword: str | None = None
    safety: Safety | None = None
    accepts: Accepts | None = None
    told: Told | None = None
    fixable: bool = True


class Edit(NamedTuple):
    """One change a fix made. `safety` alone declares that class's usual effect
    (`USUAL_EFFECT`); `accepts`/`told` declare the effect where it differs, and then decide
    the safety (`model.safety_of`)."""

    rel: Path
    safety: Safety
    description: str
    code: str | None = None  # when a shared fix acts for several rules, the one it acted for
    accepts: Accepts | None = None
    told: Told | None = None

    @property
    def effect(self) -> tuple[Accepts, Told]:
        return effect_of(self.safety, self.accepts, self.told)

    @property
    def class_(self) -> Safety:
        """The safety class the effect defines."""
        if self.accepts is None and self.told is None:
            return self.safety
        return safety_of(*self.effect)


def effect_of_hit(safety: Safety | None, accepts: Accepts | None, told: Told | None,
                  ) -> tuple[Safety, Accepts, Told] | None:
    """A finding's fix: its safety class and effect, from what the hit or rule declared."""
    if safety is None:
        return None
    a, t = effect_of(safety, accepts, told)
    return (safety if accepts is None and told is None else safety_of(a, t)), a, t


class Fixed(NamedTuple):
    """A fix's result: the replacement node and what it changed.

    The result may keep the given node's values (it is replaced, never changed), but must
    not put one object at two places, nor share one with another part of the document (a
    definition under `$defs`): the passes rewrite the document in place, so a shared object
    would change at both places with the change recorded at one. Copy what is used twice
    (tests/test_engine_fuzz.py checks every profile's passes for it)."""

    node: Any
    edits: tuple[Edit, ...]

    @property
    def safety(self) -> Safety:
        order = ("lossless", "hinted", "lossy")
        worst = max((order.index(e.class_) for e in self.edits), default=0)
        return order[worst]  # type: ignore[return-value]


# A detector returns any iterable of hits. The ones asked about most nodes return a tuple or
# a list rather than being generators: on a node where they find nothing (nearly every
# node), making a generator object costs more than the test itself.
Detector = Callable[[Any, NodeContext], Iterable[Hit]]
# Given a node's keys (None when the node is not an object) and the profile: whether the
# rule may fire on such a node at all. False must mean its detector finds nothing there.
KeyGate = Callable[["frozenset[str] | None", "Profile"], bool]
Fixer = Callable[[Any, NodeContext], "Fixed | None"]


class RuleDocs(NamedTuple):
    what: str
    error: str  # the provider's real error text, or what silently happens
    fix: str
    before: Any = None  # a failing example: an input schema; for tool rules an MCP tool list
    after: Any = None  # what transform makes of it (the expected output)
    # A schema (or, for tool rules, an MCP tool list) the rule accepts, for rules whose
    # failing case has no fixed form to show (no fix, or a fix outside the schema).
    passing: Any = None
    # The profile the examples are for, when not the first profile that has the rule (a
    # limit only some providers set).
    profile: str | None = None
    sources: tuple[str, ...] = ()


class Rule(NamedTuple):
    code: str
    name: str
    severity: Severity
    message: str
    safety: Safety | None  # the usual safety of the fix; a hit may say otherwise
    fix_title: str | None
    docs: RuleDocs
    detect: Detector
    fix: Fixer | None = None
    scope: Scope = "node"
    # Keywords this rule takes care of, so the catch-all unknown-keyword rule leaves them.
    claims: frozenset[str] = frozenset()
    # Tool rules on limits a provider counts per request (summed over the tools sent
    # together): what one tool's schema adds to those sums. The engine keeps the running
    # totals per source and hands them over as ToolInfo.tallies_before.
    tally: Callable[[Any], Mapping[str, int]] | None = None
    # Node rules that can only fire on an object node holding one of these keys say so, and
    # the engine offers them nothing else (most nodes hold none of the keywords a rule drops).
    # Document rules say so for the document: they fire only where some schema node (as the
    # walker meets them) holds one of these keys, and are not asked about other documents.
    # None: the rule looks at every node (every document).
    triggers: frozenset[str] | None = None
    # For rules whose trigger is not "one of these keys" (a key outside the profile's, a
    # node without `type`, a boolean schema): the engine asks once per set of keys.
    gate: KeyGate | None = None
    # The fix's effect where it is not its safety's usual one (`USUAL_EFFECT`), and the cases
    # where it differs from that: (when, accepts, told), for the rule's docs.
    accepts: Accepts | None = None
    told: Told | None = None
    cases: tuple[tuple[str, Accepts, Told], ...] = ()
    # Rule coordination, as data. `defers_to`: rules this one leaves part of its work to
    # where they are in force (an `allOf` branch's type list to UNI004's merge, a keyword's
    # value to the rule that owns the keyword); `acts_for`: rules whose part a fix this one
    # shares or calls also does where they are in force (the one inlining of REF001-REF005).
    # The plan hands the rule those in force (`NodeContext.in_force`); where the rule's
    # docs say which part is whose.
    defers_to: tuple[str, ...] = ()
    acts_for: tuple[str, ...] = ()
    # Where only lossless changes may be made (`--lossless-only`) and `fix` makes others:
    # the lossless part of that fix, which the engine applies instead (None: none).
    lossless_fix: Fixer | None = None

    @property
    def effect(self) -> tuple[Accepts, Told] | None:
        if self.safety is None:
            return None
        return effect_of(self.safety, self.accepts, self.told)

    @property
    def family(self) -> str:
        return self.code.rstrip("0123456789")
