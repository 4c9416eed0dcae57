"""MCP clients: the limits the client between the user and the provider adds to the
provider's own.

A client sends the tools of its servers to a provider, and some refuse or cut what the
provider would take: Cursor sends at most 40 tools, Claude Code names each tool
`mcp__server__tool` and that name must fit the 64 characters, Copilot CLI refuses `.` and `/`
in a name. A client is a row of data here, each limit with the public report it comes from
(as profiles cite docs/providers.md ids); `with_client` folds a client's limits into a
profile, so the rules (LIM001 too-many-tools, NAM001 invalid-tool-name, NAM004
description-too-long) and the request planner apply them without knowing about clients.

A client with no documented limit adds none: its row says so in `notes` rather than guess.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from .base import Profile, name_parts
from .order import profile_order


class Client(NamedTuple):
    """One MCP client and the limits it adds, each with its source."""

    name: str  # the --client value
    title: str  # for messages
    max_tools: int | None = None  # tools it sends (or accepts) at once
    max_tools_source: str = ""
    name_prefix: str = "none"  # how it names a server's tool: none, server, mcp
    max_name: int | None = None  # characters of the name it sends, after its prefix
    forbidden: str = ""  # characters of a tool name it refuses (never `-`: ranges use it)
    name_source: str = ""
    max_description: int | None = None  # characters of a description it keeps
    description_source: str = ""
    # config files that belong to it, as path endings (`/` separated)
    configs: tuple[str, ...] = ()
    notes: str = ""

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s for s in (self.max_tools_source, self.name_source,
                                               self.description_source) if s))


CLIENTS: dict[str, Client] = {c.name: c for c in (
    Client("cursor", "Cursor", max_tools=40,
           max_tools_source="docs.cursor.com, quoted in bun913/mcp-testrail#6",
           configs=(".cursor/mcp.json",),
           notes="Sends only the first 40 tools to the agent; later raised to 80 "
                 "(Snowflake-Labs/mcp#77), checked here at the documented 40."),
    Client("windsurf", "Windsurf", max_tools=50,
           max_tools_source="docs.windsurf.com/windsurf/mcp, quoted in "
                            "Zhwt/go-mcp-mysql#3",
           configs=("windsurf/mcp_config.json",),
           notes="At most 50 tools over all MCP servers at one time."),
    Client("vscode", "VS Code", max_tools=128,
           max_tools_source="microsoft/vscode-copilot-release#11653",
           configs=(".vscode/mcp.json",),
           notes="Copilot Chat: \"Cannot have more than 128 tools per request\"."),
    Client("claude-code", "Claude Code", name_prefix="mcp", max_name=64,
           name_source="anthropics/claude-code#19882", max_description=2048,
           description_source="anthropics/claude-code#41593", configs=(".mcp.json",),
           notes="Sends each tool as mcp__server__tool, which must fit 64 characters; cuts "
                 "descriptions past 2,048 characters without a word."),
    Client("copilot-cli", "Copilot CLI", forbidden="./",
           name_source="github/copilot-cli#1879",
           notes="Refuses the `.` and `/` that MCP tool names may hold."),
    Client("gemini-cli", "Gemini CLI", configs=(".gemini/settings.json",),
           notes="No limit of its own found documented (the 512 tools of "
                 "google-gemini/gemini-cli#19083 are the Gemini API's: profile gemini)."),
    Client("cline", "Cline", configs=("cline_mcp_settings.json",),
           notes="No limit of its own found documented (cline/cline#11877: it sends names "
                 "past the provider's 64 characters as they are)."),
    Client("continue", "Continue",
           notes="No limit of its own found documented."),
    Client("zed", "Zed",
           notes="No limit of its own found documented (a user reports 128 tools, "
                 "akbxr/gitlab-mcp-zed#8, unconfirmed: not applied)."),
)}
CLIENT_NAMES: tuple[str, ...] = tuple(CLIENTS)


def client_of_config(path: str) -> str | None:
    """The client a config file belongs to, by its name and folder (None: not one of
    CLIENTS', e.g. claude_desktop_config.json, which is Claude Desktop's)."""
    whole = "/" + os.path.abspath(path).replace(os.sep, "/").lstrip("/")
    for client in CLIENTS.values():
        if any(whole.endswith("/" + ending) for ending in client.configs):
            return client.name
    return None


def _name_pattern(pattern: str, forbidden: str, max_name: int | None) -> str:
    """The profile's name pattern less the client's forbidden characters and past its
    length; unchanged when the client adds nothing to it."""
    letter_first, chars, longest = name_parts(pattern)
    kept = "".join(c for c in chars if c not in forbidden)  # `forbidden` holds no `-`
    shortest = longest if max_name is None else min(longest, max_name)
    if kept == chars and shortest == longest:
        return pattern
    longest = shortest
    if letter_first:
        return f"^[A-Za-z_][{kept}]{{0,{longest - 1}}}$"
    return f"^[{kept}]{{1,{longest}}}$"


def with_client(profile: Profile, client: Client | None) -> Profile:
    """The profile with the client's limits added: the lower tool count and description
    length, the name pattern less what the client refuses. The messages then name the
    client and its source."""
    if client is None:
        return profile
    changes: dict[str, object] = {"client": client.name}
    codes: list[str] = []  # the rules that apply the client's limits, where it has them
    if client.max_tools is not None:
        source = f"{client.name}: {client.max_tools_source}"  # LIM001 reads the name
        if profile.strict_budget is not None:  # its max_tools counts strict tools only
            changes.update(client_max_tools=client.max_tools, max_tools_source=source)
        elif profile.max_tools is None or client.max_tools < profile.max_tools:
            changes.update(max_tools=client.max_tools, max_tools_source=source)
            codes.append("LIM001")
    if client.max_description is not None and (
            profile.max_description is None or client.max_description < profile.max_description):
        changes.update(max_description=client.max_description,
                       max_description_note=f"{client.title} cuts descriptions past "
                                            f"{client.max_description} characters without "
                                            f"a word ({client.description_source})")
        codes.append("NAM004")
    pattern = _name_pattern(profile.name_pattern, client.forbidden, client.max_name)
    if pattern != profile.name_pattern:
        added = []
        if client.forbidden:
            added.append("no " + " or ".join(f"`{c}`" for c in client.forbidden))
        if client.max_name is not None:
            added.append(f"at most {client.max_name} characters"
                         + (" with its mcp__server__ prefix" if client.name_prefix == "mcp"
                            else ""))
        changes.update(name_pattern=pattern,
                       name_rule=f"{profile.name_rule}; {client.title}: "
                                 f"{', '.join(added)} ({client.name_source})")
    if set(codes) - set(profile.rules):
        changes["rules"] = profile_order(profile.name, {*profile.rules, *codes})
    return profile._replace(**changes)  # type: ignore[arg-type]


def get_client(name: str | None) -> Client | None:
    return CLIENTS.get(name.lower()) if name else None


def client_profile(name: str, client: str | None) -> Profile | None:
    """The profile `name` with the limits of the client named `client` (None, "": none)
    added; None when there is no such profile."""
    from . import get_profile

    profile = get_profile(name)
    return None if profile is None else with_client(profile, get_client(client))
