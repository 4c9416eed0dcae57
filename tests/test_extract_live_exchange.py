"""The era negotiation of `extract/live_exchange.py`: the SDK client's `auto` mode, taken
step by step with the session's public `discover` and `initialize`. Each case scripts what
the two steps do against a stand-in session and says which steps ran and what came out.
(The listing, and the negotiation with real servers of each era, are tested through
`check --server` in test_extract_live.py.)"""

from __future__ import annotations

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION

from schema_compat.extract.live_exchange import negotiate_auto


def unsupported(*versions: str) -> MCPError:
    return MCPError(UNSUPPORTED_PROTOCOL_VERSION, "unsupported protocol version",
                    {"supported": list(versions), "requested": "x"})


class Session:
    """Answers `discover` and `initialize` from a script (None: a success) and notes the
    steps taken."""

    def __init__(self, discover: list[Exception | None], initialize: list[Exception | None]
                 ) -> None:
        self.script = {"discover": discover, "initialize": initialize}
        self.steps: list[str] = []

    async def _step(self, name: str) -> None:
        self.steps.append(name)
        outcome = self.script[name].pop(0)
        if outcome is not None:
            raise outcome

    async def discover(self) -> None:
        await self._step("discover")

    async def initialize(self) -> None:
        await self._step("initialize")


def negotiated(discover: list[Exception | None], initialize: tuple[Exception | None, ...] = ()
               ) -> tuple[list[str], Exception | None]:
    session = Session(discover, list(initialize))
    raised: Exception | None = None

    async def run() -> None:
        nonlocal raised
        try:
            await negotiate_auto(session)  # type: ignore[arg-type]
        except Exception as exc:
            raised = exc

    anyio.run(run)
    return session.steps, raised


@pytest.mark.parametrize(("discover", "steps"), [
    ([None], ["discover"]),  # the 2026 era
    ([MCPError(METHOD_NOT_FOUND, "no such method")], ["discover", "initialize"]),
    # naming handshake-era versions is a handshake-era server's way to refuse the probe
    ([unsupported("2025-06-18", "2025-11-25")], ["discover", "initialize"]),
    # an answer naming no 2026 version (the SDK's adopt refuses it), or unreadable
    ([RuntimeError("No mutually supported modern protocol version")],
     ["discover", "initialize"]),
    ([ValueError("not a DiscoverResult")], ["discover", "initialize"]),
])
def test_a_refused_or_unusable_probe_falls_back_to_the_handshake(
        discover: list[Exception | None], steps: list[str]) -> None:
    assert negotiated(discover, (None,)) == (steps, None)


@pytest.mark.parametrize("versions", [("2099-01-01",), ()])
def test_a_server_of_2026_versions_alone_none_ours_is_refused_without_a_handshake(
        versions: tuple[str, ...]) -> None:
    refusal = unsupported(*versions)
    assert negotiated([refusal]) == (["discover"], refusal)


def test_a_handshake_refused_for_a_2026_version_probes_again() -> None:
    """An earlier probe we gave up on reached the server and set it in the 2026 era."""
    assert negotiated([MCPError(METHOD_NOT_FOUND, "timed out"), None],
                      (unsupported("2026-07-28"),)) == (
        ["discover", "initialize", "discover"], None)


def test_a_refused_handshake_is_the_failure() -> None:
    refusal = MCPError(-32603, "internal error")
    assert negotiated([MCPError(METHOD_NOT_FOUND, "no such method")], (refusal,)) == (
        ["discover", "initialize"], refusal)
    handshake_only = unsupported("2025-11-25")
    assert negotiated([MCPError(METHOD_NOT_FOUND, "no such method")],
                      (handshake_only,)) == (
        ["discover", "initialize"], handshake_only)
