"""The proxy's message logic without processes: renames, repairs, deadlines, progress,
cancellation and a dead upstream, driven message by message with a fake clock."""

from __future__ import annotations

from typing import Any

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
