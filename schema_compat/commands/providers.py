"""What a command runs: the engine's plan for the provider(s) and rules the command line
names, with the settings file (`.schema-compat.toml`) filling in what the command line left
out, and each tool's plan under per-tool ignores.

A bad provider or rule name exits 2 naming the flag, or the settings file, it came from.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from .exits import fail

if TYPE_CHECKING:
    from ..engine import RuleSet
    from ..settings import Settings


def split_list(values: list[str] | None) -> list[str] | None:
    """A repeatable option that also takes commas (`--select REF,UNI001 --select OBJ`)."""
    if not values:
        return None
    out = [v.strip() for item in values for v in item.split(",") if v.strip()]
    return out or None


def provider_plan(provider: str, select: list[str] | None, ignore: list[str] | None,
                  lossless_only: bool, client: str | None = None) -> RuleSet:
    """The plan for one provider named on the command line, with the limits of the MCP
    `client` named (profiles/clients.py) added to its own; a bad name or rule exits 2."""
    from ..engine import make_ruleset
    from ..profiles import PROFILES
    from ..profiles.clients import CLIENTS, client_profile, get_client
    from ..rules.registry import unknown_patterns

    if provider.lower() not in PROFILES:
        if provider.strip().lower() == "all" or "," in provider:
            fail(f"--provider {provider!r}: this command takes one provider",
                 "`schema-compat check --provider all` compares them; transform or diff "
                 "for one at a time")
        fail(f"unknown provider {provider!r}", f"choose one of: {', '.join(PROFILES)}")
    if client is not None and get_client(client) is None:
        fail(f"unknown client {client!r}", f"choose one of: {', '.join(CLIENTS)}")
    sel, ign = split_list(select), split_list(ignore)
    bad = unknown_patterns([*(sel or []), *(ign or [])])
    if bad:
        fail(f"unknown rule {bad[0]!r} in --select/--ignore",
             "`schema-compat rules` lists the codes")
    return make_ruleset(client_profile(provider, client) or provider, sel, ign, lossless_only)


def provider_names(text: str) -> list[str]:
    """`all`, or a comma-separated list of profiles; one name stays one provider."""
    from ..profiles import PROFILES

    if text.strip().lower() == "all":
        return list(PROFILES)
    return [p.strip() for p in text.split(",") if p.strip()] or [text]


def resolve_settings(given: Collection[str], **values: Any) -> Settings:
    """The settings in force: flags given on the command line, then the nearest settings
    file, then the defaults. `values` are the command's parameters (a list option's commas
    are split); `given` names those the command line set: the others hold their defaults,
    which a settings file overrides."""
    from ..options import SETTINGS
    from ..settings import FileSettings, SettingsError, find_settings_file, load_file, resolve

    from_flags = {o.setting: split_list(values[o.param]) or [] if o.repeatable
                  else values[o.param] for o in SETTINGS if o.flags and o.param in given}
    found = find_settings_file()
    try:
        file = load_file(*found) if found else FileSettings()
    except SettingsError as exc:
        fail(str(exc), "see `schema-compat check --help`")
    settings = resolve(file, from_flags)
    _check_file_values(settings)
    return settings


def _check_file_values(settings: Settings) -> None:
    """Provider and rule names from the file are checked here, so the error names the file
    rather than a flag the user never typed."""
    from ..profiles import PROFILES
    from ..rules.registry import unknown_patterns

    where = str(settings.file)
    if settings.values["provider"].origin not in ("--provider", "default"):
        for name in provider_names(settings.providers):
            if name.lower() not in PROFILES:
                fail(f"{where}: unknown provider {name!r}",
                     f"choose from: {', '.join(PROFILES)}, or all")
    if settings.values["client"].origin not in ("--client", "default"):
        from ..profiles.clients import CLIENTS

        if settings["client"] not in CLIENTS:
            fail(f"{where}: unknown client {settings['client']!r}",
                 f"choose from: {', '.join(CLIENTS)}")
    for key in ("select", "ignore"):
        if settings.values[key].origin not in (f"--{key}", "default"):
            bad = unknown_patterns(settings[key])
            if bad:
                fail(f"{where}: unknown rule {bad[0]!r} in {key}",
                     "`schema-compat rules` lists the codes")


def one_provider_plan(settings: Settings) -> tuple[RuleSet, dict[str, list[str]] | None]:
    """transform and diff: the plan for the provider, rules, per-tool ignores and
    lossless-only in force (`settings`: flags, then the settings file). Returns the plan and
    the per-tool ignores."""
    chosen = settings.values["provider"]
    if chosen.origin != "--provider" and len(provider_names(settings.providers)) > 1:
        fail(f"{settings.file}: provider names several providers; this command takes one",
             "pass --provider NAME")
    plan = provider_plan(settings.providers, settings["select"], settings["ignore"],
                         settings["lossless-only"], settings["client"])
    return plan, per_tool_ignores(settings["per-tool-ignores"])


def per_tool_ignores(table: dict[str, list[str]]) -> dict[str, list[str]] | None:
    from ..rules.registry import unknown_patterns

    for pattern, codes in table.items():
        bad = unknown_patterns(codes)
        if bad:
            fail(f"unknown rule {bad[0]!r} in per-tool-ignores for {pattern!r}",
                 "`schema-compat rules` lists the codes")
    return table or None
