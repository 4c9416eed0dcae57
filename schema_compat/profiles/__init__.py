"""Provider profiles, by name."""

from __future__ import annotations

from .anthropic import ANTHROPIC
from .base import Profile, StrictBudget
from .bedrock import BEDROCK
from .gemini import GEMINI
from .gemini_json import GEMINI_JSON
from .mistral import MISTRAL
from .ollama import OLLAMA
from .openai import OPENAI
from .openai_compatible import DEEPSEEK, DEEPSEEK_STRICT, GROQ, XAI
from .portable import PORTABLE
from .strict import ANTHROPIC_STRICT, OPENAI_STRICT
from .vertex import VERTEX

# gemini and gemini-json first: rule examples are checked against the first profile listing
# a rule.
PROFILES: dict[str, Profile] = {p.name: p for p in (
    GEMINI, GEMINI_JSON, VERTEX, OPENAI, OPENAI_STRICT, ANTHROPIC, ANTHROPIC_STRICT,
    PORTABLE, BEDROCK, MISTRAL, OLLAMA, XAI, DEEPSEEK, DEEPSEEK_STRICT, GROQ)}
DEFAULT_PROFILE = "gemini"


def get_profile(name: str) -> Profile | None:
    return PROFILES.get(name.lower())


__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "StrictBudget", "get_profile"]
