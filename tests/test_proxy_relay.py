"""The proxy's message logic without processes: renames, repairs, deadlines, progress,
cancellation and a dead upstream, driven message by message with a fake clock."""

from __future__ import annotations

from typing import Any

import pytest

from schema_compat.proxy.relay import CONNECTION_CLOSED, REQUEST_TIMEOUT, Relay

LISTING = {"tools": [
    {"name": "get weather", "description": "Forecast.", "outputSchema": {"type": "object"},
     "inputSchema": {"type": "object", "properties": {
         "days": {"type": "integer"},
         "units": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}},
    "not a tool",
]}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make(timeout: float = 10.0) -> tuple[Relay, Clock, list[str]]:
    clock, lines = Clock(), []
    return Relay("gemini", timeout, lines.append, clock=clock), clock, lines


def request(rid: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def listed(relay: Relay) -> dict[str, Any]:
    relay.from_client(request(1, "tools/list"))
    out = relay.from_upstream({"jsonrpc": "2.0", "id": 1, "result": LISTING})
    assert out.to_upstream == []
    [answer] = out.to_client
    return answer


def test_listing_is_transformed_and_other_fields_kept() -> None:
    relay, _, lines = make()
    answer = listed(relay)
    tool, junk = answer["result"]["tools"]
    assert tool["name"] == "get_weather"
    assert tool["description"] == "Forecast."
    assert tool["outputSchema"] == {"type": "object"}
    assert tool["inputSchema"]["properties"]["units"] == {"type": "string", "nullable": True}
    # the client (or `check --server` through the proxy) reads that `nullable` as gemini's
    assert tool["_meta"] == {"schema-compat/dialect": "openapi-3.0"}
    assert junk == "not a tool"
    assert lines == ["tools/list get weather: 2 change(s) (1 lossless, 1 lossy; NAM001, "
                     "UNI001), shown as 'get_weather'"]


def test_a_call_is_renamed_back_and_repaired() -> None:
    relay, _, lines = make()
    listed(relay)
    lines.clear()
    out = relay.from_client(request(2, "tools/call", {"name": "get_weather",
                                                      "arguments": {"days": "3"},
                                                      "_meta": {"progressToken": "p"}}))
    assert out.to_client == []
    assert out.to_upstream == [request(2, "tools/call", {
        "name": "get weather", "arguments": {"days": 3}, "_meta": {"progressToken": "p"}})]
    assert lines == ["tools/call get_weather: renamed to 'get weather' for the upstream",
                     'tools/call get weather: repaired $.days: "3" → 3 (integer)']


def test_valid_and_unknown_calls_pass_unchanged() -> None:
    relay, _, lines = make()
    listed(relay)
    lines.clear()
    for msg in (request(3, "tools/call", {"name": "get_weather", "arguments": {"days": 3}}),
                request(4, "tools/call", {"name": "nope", "arguments": {"x": "1"}})):
        out = relay.from_client(msg)
        assert out.to_upstream[0]["params"]["arguments"] == msg["params"]["arguments"]
    assert lines == ["tools/call get_weather: renamed to 'get weather' for the upstream"]


def test_everything_else_passes_both_ways_untouched() -> None:
    relay, _, _ = make()
    msgs = [request(5, "resources/read", {"uri": "file:///x"}),
            {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
            {"jsonrpc": "2.0", "id": "s1", "result": {"roots": []}}]
    for msg in msgs:
        assert relay.from_client(msg).to_upstream == [msg]
    back = [{"jsonrpc": "2.0", "id": 5, "result": {"contents": []}},
            request("s2", "sampling/createMessage", {"messages": []}),
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "x"}}]
    for msg in back:
        assert relay.from_upstream(msg).to_client == [msg]


def test_unanswered_requests_time_out_with_an_error_and_a_cancel() -> None:
    relay, clock, _ = make(timeout=10)
    relay.from_client(request(7, "tools/call", {"name": "slow", "arguments": {}}))
    clock.now += 9.9
    assert relay.expire().to_client == []
    clock.now += 0.2
    out = relay.expire()
    assert out.to_client == [{"jsonrpc": "2.0", "id": 7, "error": {
        "code": REQUEST_TIMEOUT, "message": "schema-compat proxy: the upstream server did not "
                                            "answer tools/call within 10s"}}]
    assert out.to_upstream == [{"jsonrpc": "2.0", "method": "notifications/cancelled",
                                "params": {"requestId": 7,
                                           "reason": "timed out in schema-compat proxy"}}]
    assert relay.pending == {}


def test_progress_restarts_the_clock_and_a_cancel_stops_it() -> None:
    relay, clock, _ = make(timeout=10)
    relay.from_client(request(8, "tools/call", {"name": "t", "_meta": {"progressToken": 42}}))
    relay.from_client(request(9, "tools/call", {"name": "t"}))
    clock.now += 8
    relay.from_upstream({"jsonrpc": "2.0", "method": "notifications/progress",
                         "params": {"progressToken": 42, "progress": 1}})
    relay.from_client({"jsonrpc": "2.0", "method": "notifications/cancelled",
                       "params": {"requestId": 9}})
    clock.now += 8
    assert relay.expire().to_client == []
    assert list(relay.pending) == [8]


def test_a_dead_upstream_fails_open_and_later_requests() -> None:
    relay, _, _ = make()
    relay.from_client(request(10, "tools/list"))
    out = relay.upstream_closed("the upstream server exited with exit code 1")
    error = {"code": CONNECTION_CLOSED,
             "message": "schema-compat proxy: the upstream server exited with exit code 1"}
    assert out.to_client == [{"jsonrpc": "2.0", "id": 10, "error": error}]
    later = relay.from_client(request(11, "ping"))
    assert later.to_upstream == []
    assert later.to_client == [{"jsonrpc": "2.0", "id": 11, "error": error}]


def test_the_proxys_own_listing_never_reaches_the_client() -> None:
    relay, _, _ = make()
    call = request(12, "tools/call", {"name": "get_weather", "arguments": {"days": "1"}})
    assert relay.needs_listing(call)
    own = relay.own_listing_request(None)
    assert own == {"jsonrpc": "2.0", "id": "schema-compat-proxy-1", "method": "tools/list"}
    out = relay.from_upstream({"jsonrpc": "2.0", "id": own["id"], "result": LISTING})
    assert out.to_client == [] and out.to_upstream == []
    relay.rewrite_listing(relay.own_answers.pop(own["id"])["result"])
    assert not relay.needs_listing(call)
    forwarded = relay.from_client(call).to_upstream[0]
    assert forwarded["params"] == {"name": "get weather", "arguments": {"days": 1}}


def test_lossless_only_keeps_lossy_changes_out_of_the_listing() -> None:
    lines: list[str] = []
    relay = Relay("gemini", 10, lines.append, lossless_only=True)
    relay.from_client(request(1, "tools/list"))
    [answer] = relay.from_upstream({"jsonrpc": "2.0", "id": 1, "result": LISTING}).to_client
    tool = answer["result"]["tools"][0]
    assert tool["name"] == "get weather"  # renaming is lossy: refused
    assert tool["inputSchema"]["properties"]["units"] == {"type": "string", "nullable": True}
    assert lines == ["tools/list get weather: 1 change(s) (1 lossless; UNI001)",
                     "tools/list get weather: 1 error(s) remain for gemini: NAM001"]


def test_a_failure_inside_the_proxy_passes_the_message_through(monkeypatch: Any) -> None:
    relay, _, lines = make()

    def broken(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(relay, "rewrite_listing", broken)
    relay.from_client(request(1, "tools/list"))
    answer = {"jsonrpc": "2.0", "id": 1, "result": LISTING}
    assert relay.from_upstream(answer).to_client == [answer]
    monkeypatch.setattr(relay, "_rewrite_call", broken)
    call = request(2, "tools/call", {"name": "x", "arguments": {"a": "1"}})
    assert relay.from_client(call).to_upstream == [call]
    assert lines == ["tools/list: not transformed (RuntimeError: boom); passed through as is",
                     "tools/call: not repaired (RuntimeError: boom); forwarded as is"]


def test_a_listing_is_transformed_once_until_list_changed() -> None:
    relay, _, lines = make()
    answers = [listed(relay) for _ in range(3)]
    assert answers[0] == answers[1] == answers[2]
    assert relay.transforms == 1
    assert len(lines) == 1  # logged once
    relay.from_upstream({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    assert listed(relay) == answers[0]
    assert relay.transforms == 2
    assert lines[1:] == ["tools/list_changed: the next listing is transformed anew", lines[0]]


def test_a_different_listing_is_transformed_even_without_list_changed() -> None:
    """A server that changes its tools without saying so still gets the new listing
    transformed: the cache answers only for the very same page."""
    relay, _, _ = make()
    listed(relay)
    changed = {"tools": [{"name": "other", "inputSchema": {
        "type": "object", "properties": {"x": {"type": ["integer", "null"]}}}}]}
    relay.from_client(request(2, "tools/list"))
    [answer] = relay.from_upstream({"jsonrpc": "2.0", "id": 2, "result": changed}).to_client
    assert answer["result"]["tools"][0]["inputSchema"]["properties"]["x"] == {
        "type": "integer", "nullable": True}
    assert relay.transforms == 2


def test_pages_are_cached_by_their_cursor() -> None:
    relay, _, _ = make()
    page2 = {"tools": [{"name": "b", "inputSchema": {"type": "object"}}]}
    for rid, cursor, page in ((1, None, LISTING), (2, "c2", page2), (3, None, LISTING),
                              (4, "c2", page2)):
        relay.from_client(request(rid, "tools/list", {"cursor": cursor} if cursor else None))
        relay.from_upstream({"jsonrpc": "2.0", "id": rid, "result": page})
    assert relay.transforms == 2


def test_a_message_left_alone_is_the_same_object() -> None:
    """So that the transport forwards the bytes it read instead of writing them anew."""
    relay, _, _ = make()
    listed(relay)
    valid = request(3, "tools/call", {"name": "get weather", "arguments": {"days": 3}})
    assert relay.from_client(valid).to_upstream[0] is valid
    answer = {"jsonrpc": "2.0", "id": 3, "result": {"content": []}}
    assert relay.from_upstream(answer).to_client[0] is answer
    renamed = request(4, "tools/call", {"name": "get_weather", "arguments": {"days": 3}})
    assert relay.from_client(renamed).to_upstream[0] is not renamed


ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {"roots": {}}}


def test_the_proxys_own_requests_speak_the_clients_era() -> None:
    legacy, _, _ = make()
    legacy.from_client(request(1, "initialize", {"protocolVersion": "2025-11-25"}))
    legacy.from_upstream({"jsonrpc": "2.0", "id": 1, "result": {
        "protocolVersion": "2025-06-18", "capabilities": {}}})
    assert (legacy.era, legacy.protocol_version) == ("legacy", "2025-06-18")
    assert "params" not in legacy.own_listing_request(None)

    modern, _, _ = make()
    modern.from_client(request(1, "server/discover", {"_meta": ENVELOPE}))
    modern.from_upstream({"jsonrpc": "2.0", "id": 1, "result": {
        "supportedVersions": ["2026-07-28"], "capabilities": {}}})
    assert (modern.era, modern.protocol_version) == ("modern", "2026-07-28")
    own = modern.own_listing_request("c2")
    assert own["params"] == {"cursor": "c2", "_meta": ENVELOPE}


def test_a_discover_the_upstream_refuses_leaves_the_era_to_initialize() -> None:
    relay, _, _ = make()
    relay.from_client(request(1, "server/discover", {"_meta": ENVELOPE}))
    relay.from_upstream({"jsonrpc": "2.0", "id": 1, "error": {
        "code": -32601, "message": "Method not found"}})
    assert relay.era is None
    relay.from_client(request(2, "initialize", {"protocolVersion": "2025-11-25"}))
    relay.from_upstream({"jsonrpc": "2.0", "id": 2, "result": {
        "protocolVersion": "2025-11-25"}})
    assert relay.era == "legacy"


def _negotiated(answers: list[dict[str, Any] | None]) -> tuple[Relay, list[dict[str, Any]]]:
    """Run `negotiate` against scripted answers; returns the relay and what it asked."""
    import anyio

    from schema_compat.proxy.relay import negotiate

    relay, _, _ = make()
    asked: list[dict[str, Any]] = []

    async def ask(msg: dict[str, Any]) -> dict[str, Any] | None:
        asked.append(msg)
        answer = answers.pop(0)
        return None if answer is None else {"jsonrpc": "2.0", "id": msg["id"], **answer}

    anyio.run(negotiate, relay, ask)
    return relay, asked


def _proposed(msg: dict[str, Any]) -> str:
    assert msg["method"] == "server/discover"
    return str(msg["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"])


def test_negotiation_finds_a_modern_upstream() -> None:
    relay, asked = _negotiated([{"result": {"supportedVersions": ["2026-07-28"]}}])
    assert [_proposed(m) for m in asked] == ["2026-07-28"]
    assert (relay.era, relay.protocol_version) == ("modern", "2026-07-28")
    own = relay.own_listing_request(None)
    assert own["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"


def test_negotiation_retries_once_at_a_version_the_upstream_names() -> None:
    relay, asked = _negotiated([
        {"error": {"code": -32022, "message": "unsupported",
                   "data": {"supported": ["2026-07-28", "2027-01-01"]}}},
        {"result": {"supportedVersions": ["2026-07-28"]}}])
    assert len(asked) == 2 and relay.era == "modern"


@pytest.mark.parametrize("answer", [
    {"error": {"code": -32601, "message": "Method not found"}},
    {"result": {"supportedVersions": ["2025-11-25"]}},  # discover, but no modern version
    {"error": {"code": -32022, "message": "x", "data": {"supported": ["2025-06-18"]}}},
    None,  # no answer within the timeout
])
def test_negotiation_falls_back_to_the_handshake_era(answer: dict[str, Any] | None) -> None:
    relay, asked = _negotiated([answer])
    assert len(asked) == 1
    assert relay.era == "legacy"
    assert "params" not in relay.own_listing_request(None)


def test_a_request_held_for_the_proxys_listing_counts_its_time_from_when_it_came() -> None:
    """--timeout bounds the proxy's own listing and the call that waited for it together:
    a call whose time ran out waiting gets an error naming the listing, a call with time
    left is forwarded with what is left, not a fresh --timeout."""
    relay, clock, lines = make(timeout=10)
    call = request(7, "tools/call", {"name": "slow", "arguments": {}})
    out = relay.from_client(call, held_since=clock.now - 10)
    assert out.to_upstream == []
    assert out.to_client == [{"jsonrpc": "2.0", "id": 7, "error": {
        "code": REQUEST_TIMEOUT, "message": "schema-compat proxy: the upstream server did not "
                                            "list its tools within 10s (the proxy lists the "
                                            "tools before the first tools/call, to repair "
                                            "its arguments)"}}]
    assert lines == ["tools/call: waited 10s for the upstream's tools/list; answered with "
                     "an error"]
    assert relay.pending == {}
    out = relay.from_client(request(8, "tools/call", {"name": "slow", "arguments": {}}),
                            held_since=clock.now - 7)
    assert out.to_upstream and not out.to_client
    clock.now += 2.9
    assert relay.expire().to_client == []
    clock.now += 0.2
    [expired] = relay.expire().to_client
    assert expired["id"] == 8
