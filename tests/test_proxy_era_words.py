"""The proxy's log names a protocol era with the word docs/usage.md and `check --json`
(`servers[].era`) use: `handshake` (initialize) or `stateless` (2026-07-28), never the
relay's own "legacy" / "modern"."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from schema_compat.proxy.relay import Relay, era_name, negotiate


def _negotiation_log(answer: dict[str, Any] | None) -> list[str]:
    lines: list[str] = []
    relay = Relay("gemini", 10.0, lines.append)

    async def ask(msg: dict[str, Any]) -> dict[str, Any] | None:
        return None if answer is None else {"jsonrpc": "2.0", "id": msg["id"], **answer}

    anyio.run(negotiate, relay, ask)
    return lines


@pytest.mark.parametrize(("answer", "said"), [
    ({"result": {"supportedVersions": ["2026-07-28"]}},
     "the upstream speaks the stateless era (2026-07-28)"),
    ({"error": {"code": -32601, "message": "Method not found"}},
     "the upstream speaks the handshake era"),
    (None, "the upstream speaks the handshake era"),
])
def test_the_log_names_the_era_as_the_json_report_does(answer: dict[str, Any] | None,
                                                       said: str) -> None:
    lines = _negotiation_log(answer)
    assert said in lines, lines
    assert not any("legacy" in line or "modern" in line for line in lines), lines


def test_the_gateway_names_each_era_so() -> None:
    """The gateway's line for each upstream (`NAME: N tools (ERA era, VERSION)`) uses the
    same function; before either answer, the era is unknown."""
    assert (era_name("legacy"), era_name("modern"), era_name(None)) == \
        ("handshake", "stateless", "unknown")
