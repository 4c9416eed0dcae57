"""examples/provider_ready_server.py serves its tools transformed with `lossless_only=True`,
and its docs say what that means: lossless fixes only (the schema allows exactly the same
arguments), not "lossless and hinted"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schema_compat import transform
from schema_compat.profiles import PROFILES

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = [REPO_ROOT / "examples" / "README.md", REPO_ROOT / "examples" / "provider_ready_server.py"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_the_docs_say_lossless_only(path: Path) -> None:
    text = " ".join(path.read_text(encoding="utf-8").split())
    assert "Only lossless fixes are applied" in text
    assert "hinted" not in text


@pytest.mark.parametrize("provider", list(PROFILES))
def test_lossless_only_applies_lossless_changes_only(provider: str) -> None:
    tools = json.loads((REPO_ROOT / "examples" / "mixed.json").read_text())["tools"]
    safeties = {c.safety for r in transform(tools, provider, lossless_only=True)
                for c in r.changes}
    assert safeties <= {"lossless"}, safeties
    if provider == "gemini":  # not vacuous: without the flag gemini's fixes are of every kind
        assert safeties == {"lossless"}
        every = {c.safety for r in transform(tools, provider) for c in r.changes}
        assert {"hinted", "lossy"} <= every, every
