"""The effect of a transform on the arguments accepted, as far as sampling shows.

S is the set of arguments the original schema accepts, S' the set the transformed schema
accepts (read as JSON Schema, `dialect.as_json_schema`). Instances are generated from each
side (`generate`), kept when `jsonschema` accepts them there, and validated against the
other side: an argument of S outside S' shows the transform narrowed something, one of S'
outside S that it widened something. Tool arguments are always a JSON object (MCP), so only
objects are sampled at the root. Sampling can show a difference, never prove there is none:
"equal" means no sample told the two apart.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any, Literal, NamedTuple

from jsonschema.protocols import Validator

from .dialect import as_json_schema, original_validator, output_validator
from .generate import NOTHING, Generator, Pool, mutate

Effect = Literal["equal", "narrower", "wider", "changed"]
EFFECTS: tuple[Effect, ...] = ("equal", "narrower", "wider", "changed")


class Measured(NamedTuple):
    lost: Any  # an argument of S that S' refuses, or NOTHING
    gained: Any  # an argument of S' that S refuses, or NOTHING
    samples: int  # members of S and of S' tried against the other side

    @property
    def effect(self) -> Effect:
        return effect_of(self.lost is not NOTHING, self.gained is not NOTHING)


def effect_of(narrows: bool, widens: bool) -> Effect:
    if narrows and widens:
        return "changed"
    if narrows:
        return "narrower"
    return "wider" if widens else "equal"


def combine(effects: Iterable[str]) -> Effect:
    """The effect of several changes made one after another."""
    narrows = widens = False
    for e in effects:
        narrows = narrows or e in ("narrower", "changed")
        widens = widens or e in ("wider", "changed")
    return effect_of(narrows, widens)


def consistent(declared: str, measured: Effect) -> bool:
    """Whether what sampling showed can be true of a change declared `declared`: a shown
    narrowing needs a declared narrowing (or change), a shown widening a declared widening."""
    if measured in ("narrower", "changed") and declared not in ("narrower", "changed"):
        return False
    return not (measured in ("wider", "changed") and declared not in ("wider", "changed"))


class _Side:
    def __init__(self, schema: Any, validator: Validator) -> None:
        self.schema = schema
        self.validator = validator

    def accepts(self, instance: Any) -> bool:
        return bool(self.validator.is_valid(instance))


def measure(original: Any, transformed: Any, profile: str, examples: int = 30,
            seed: int | str = 0) -> Measured:
    """Sample both sides of one pair, `examples` generated instances each (and as many
    mutations of those that were valid)."""
    a = _Side(original, original_validator(original))
    b = _Side(as_json_schema(transformed, profile), output_validator(transformed, profile))
    pool = Pool().gather(a.schema).gather(b.schema)
    rng = random.Random(f"{seed}:{_key(original)}")
    lost = _search(a, b, pool, rng, examples)
    gained = _search(b, a, pool, rng, examples)
    return Measured(lost[0], gained[0], lost[1] + gained[1])


def _search(own: _Side, other: _Side, pool: Pool, rng: random.Random, examples: int,
            ) -> tuple[Any, int]:
    """A member of `own`'s set that `other` refuses (or NOTHING), and how many were tried."""
    gen = Generator(own.schema, pool, rng)
    members: list[Any] = []
    tried = 0
    for _ in range(examples):
        got = gen.instance()
        if not isinstance(got, dict) or not own.accepts(got):
            continue
        tried += 1
        if not other.accepts(got):
            return got, tried
        members.append(got)
    for _ in range(examples):
        if not members:
            break
        got = mutate(rng.choice(members), pool, rng)
        if not isinstance(got, dict) or not own.accepts(got):
            continue
        tried += 1
        if not other.accepts(got):
            return got, tried
        members.append(got)
    return NOTHING, tried


def _key(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, default=str)[:2000]
