"""Provider profiles, by name."""

from __future__ import annotations

from .base import Profile
from .gemini import GEMINI
from .gemini_json import GEMINI_JSON

PROFILES: dict[str, Profile] = {p.name: p for p in (GEMINI, GEMINI_JSON)}
DEFAULT_PROFILE = "gemini"


def get_profile(name: str) -> Profile | None:
    return PROFILES.get(name.lower())


__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "get_profile"]
