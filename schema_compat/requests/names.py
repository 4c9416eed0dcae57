"""Tool names for one request: unique, valid for the provider, stable across runs.

A client may prefix each tool with its server's name (`--name-prefix server` gives
`server_tool`, Claude Code's `mcp` gives `mcp__server__tool`). Names are then settled in two
passes over the tools in request order:

1. every name that is valid for the provider and not taken by an earlier tool is kept:
   nothing is renamed that does not need it;
2. the others get a new name, never one kept in pass 1: a duplicate becomes
   `server_tool` (when not already prefixed), a name breaking the provider's rule has the
   characters it forbids replaced by `_` and, when too long, is cut with a 6-digit hash of
   the whole name (rule NAM001's `sanitize`); a name still taken gets `_2`, `_3`, ...

Only the tools' names, servers and order go in, so the same listing gives the same names
every run.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from ..profiles import Profile
from ..profiles.base import name_parts
from ..rules.naming import sanitize

NamePrefix = Literal["none", "server", "mcp"]
PREFIXES: tuple[NamePrefix, ...] = ("none", "server", "mcp")


class Named(NamedTuple):
    name: str  # the name sent
    reason: str  # why it differs from the client's name ("" when kept)
    code: str  # NAM001 (invalid) or NAM002 (duplicate); "" when kept


def held_twice(names: Iterable[str]) -> tuple[str, ...]:
    """The names asked for by more than one tool of a request, sorted."""
    return tuple(sorted(n for n, count in Counter(names).items() if count > 1))


def server_name(source: str) -> str:
    """The server a tool comes from, as a prefix names it: a config's server name as it
    is, a file by its name without `.json`."""
    base = os.path.basename(source.rstrip("/\\")) if ("/" in source or "\\" in source
                                                      or source.endswith(".json")) else source
    return base[:-5] if base.endswith(".json") else (base or "tools")


def prefixed(server: str, tool: str, prefix: NamePrefix) -> str:
    """The name a client sends for a server's tool."""
    if prefix == "server":
        return f"{server}_{tool}"
    if prefix == "mcp":
        return f"mcp__{server}__{tool}"
    return tool


def _rule_parts(profile: Profile) -> tuple[re.Pattern[str], int, str, bool]:
    letter_first, chars, max_len = name_parts(profile.name_pattern)
    return profile.name_regex, max_len, chars, letter_first


def settle(wanted: Sequence[tuple[str, str]], profile: Profile) -> list[Named]:
    """Names for tools given as (server, wanted name), in request order."""
    regex, max_len, allowed, letter_first = _rule_parts(profile)
    taken: set[str] = set()
    kept: list[bool] = []
    for _, name in wanted:
        ok = bool(regex.fullmatch(name)) and name not in taken
        kept.append(ok)
        if ok:
            taken.add(name)
    out: list[Named] = []
    seen: set[str] = set()
    for (server, name), keep in zip(wanted, kept, strict=True):
        if keep:
            out.append(Named(name, "", ""))
            seen.add(name)
            continue
        valid = bool(regex.fullmatch(name))
        if valid:  # a duplicate: the server's name tells it apart
            code = "NAM002"
            base = name if name.startswith((f"{server}_", f"mcp__{server}__")) else \
                f"{server}_{name}"
            why = f"{name!r} is already the name of an earlier tool"
        else:
            code = "NAM001"
            base = name
            why = f"{name!r} breaks the provider's rule: {profile.name_rule}"
        new = base if regex.fullmatch(base) else sanitize(base, regex, max_len, allowed,
                                                           letter_first)
        n = 2
        candidate = new
        while candidate in taken or candidate in seen:
            suffix = f"_{n}"
            candidate = new[: max_len - len(suffix)] + suffix
            n += 1
        taken.add(candidate)
        seen.add(candidate)
        out.append(Named(candidate, f"{why}; sent as {candidate!r}", code))
    return out
