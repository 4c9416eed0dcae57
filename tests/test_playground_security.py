"""The playground's defences, each proved with real HTTP requests to `schema-compat serve`.

A web page the user visits can make the browser send requests to 127.0.0.1, and a DNS name
rebound to 127.0.0.1 makes them same-origin; the playground can start the user's configured
servers, so it must answer only its own page. Each test sends the request an attacker's page
(or a rebinding domain) would make and asserts the refusal, and the same request with the
one thing changed that makes it legitimate, which must succeed: so a test cannot pass
because everything is refused.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from playground_launch import (
    FS_READ_FILES,
    PY,
    Served,
    analyze,
    example_config,
    playground,
    request,
)

FS_TEXT = FS_READ_FILES.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("playground")
    example_config(path)
    return path


@pytest.fixture(scope="module")
def served(folder: Path) -> Iterator[Served]:
    with playground(folder) as s:
        yield s


# --- where it listens --------------------------------------------------------------------


def _other_address() -> str | None:
    """An address of this machine that is not loopback (the one its default route uses),
    or None on a machine without one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # UDP: picks a route, sends nothing
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def test_the_url_is_on_127_0_0_1_with_a_long_random_token(served: Served, folder: Path
                                                         ) -> None:
    assert served.url == f"http://127.0.0.1:{served.port}/{served.token}/"
    assert len(served.token) >= 40  # 32 random bytes, URL-safe base64
    with playground(folder) as second:
        assert second.token != served.token  # a new secret each run


def test_it_listens_on_loopback_only(served: Served) -> None:
    # the socket the CLI opened, as the kernel lists it: bound to 127.0.0.1, not 0.0.0.0
    hexport = f"{served.port:04X}"
    listening = [line.split()[1] for line in
                 Path("/proc/net/tcp").read_text().splitlines()[1:]
                 if line.split()[3] == "0A" and line.split()[1].endswith(f":{hexport}")]
    assert listening == ["0100007F:" + hexport]
    assert not any(line.split()[3] == "0A" and line.split()[1].endswith(f":{hexport}")
                   for line in Path("/proc/net/tcp6").read_text().splitlines()[1:])
    other = _other_address()
    if other is not None:  # reaching it on the machine's own address fails
        with pytest.raises(OSError):
            socket.create_connection((other, served.port), timeout=2).close()


# --- the token ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["", "app.js", "api/servers", "api/rule?code=REF001"])
def test_every_get_needs_the_token(served: Served, path: str) -> None:
    assert request(served, "GET", path).status == 200
    assert request(served, "GET", path, token=False).status == 404
    wrong = "A" * len(served.token)
    assert request(served, "GET", f"{wrong}/{path}", token=False).status == 404
    assert request(served, "GET", f"{path}{'&' if '?' in path else '?'}token={served.token}",
                   token=False).status == 404
    # the token must be the whole first segment, not a prefix of it
    assert request(served, "GET", f"{served.token}x/{path}", token=False).status == 404


def test_posts_need_the_token(served: Served) -> None:
    body = {"text": FS_TEXT}
    assert request(served, "POST", "api/analyze", body=body).status == 200
    refused = request(served, "POST", "api/analyze", body=body, token=False)
    assert refused.status == 404
    assert request(served, "POST", "api/live", body={"config": "x", "server": "y"},
                   token=False).status == 404


def test_a_refusal_says_nothing_of_the_token(served: Served) -> None:
    answer = request(served, "GET", "", token=False)
    assert served.token.encode() not in answer.body
    assert answer.json() == {"error": "not found"}


# --- Host: DNS rebinding -----------------------------------------------------------------


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:{port}",
                                  "127.0.0.1", "127.0.0.1:1", "localhost.attacker.example:{port}",
                                  "0.0.0.0:{port}", "[::1]:{port}", None])
def test_a_foreign_host_header_is_refused_even_with_the_token(served: Served,
                                                              host: str | None) -> None:
    value = None if host is None else host.format(port=served.port)
    answer = request(served, "GET", "", headers={"Host": value})
    assert answer.status == 403, (value, answer.body)
    assert b"<html" not in answer.body
    post = request(served, "POST", "api/analyze", body={"text": FS_TEXT},
                   headers={"Host": value})
    assert post.status == 403


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_the_served_host_is_accepted(served: Served, host: str) -> None:
    answer = request(served, "GET", "", headers={"Host": host.format(port=served.port)})
    assert answer.status == 200
    assert b"<title>schema-compat playground</title>" in answer.body


# --- Origin and Sec-Fetch-Site: CSRF -----------------------------------------------------


@pytest.mark.parametrize("origin", ["https://attacker.example", "null",
                                    "http://127.0.0.1:1", "http://127.0.0.1",
                                    "https://127.0.0.1:{port}", "http://localhost.evil:{port}"])
def test_a_foreign_origin_is_refused(served: Served, origin: str) -> None:
    value = origin.format(port=served.port)
    answer = request(served, "POST", "api/analyze", body={"text": FS_TEXT},
                     headers={"Origin": value})
    assert answer.status == 403, value
    assert "Origin" in answer.json()["error"]
    assert request(served, "GET", "api/servers", headers={"Origin": value}).status == 403


def test_the_served_origin_is_accepted(served: Served) -> None:
    for origin in (served.origin, f"http://localhost:{served.port}"):
        answer = request(served, "POST", "api/analyze", body={"text": FS_TEXT},
                         headers={"Origin": origin, "Sec-Fetch-Site": "same-origin"})
        assert answer.status == 200, answer.body


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_cross_site_fetch_is_refused(served: Served, site: str) -> None:
    answer = request(served, "GET", "api/servers", headers={"Sec-Fetch-Site": site})
    assert answer.status == 403
    assert request(served, "GET", "api/servers", headers={"Sec-Fetch-Site": "none"}
                   ).status == 200


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", None])
def test_a_post_a_form_could_send_is_refused(served: Served, kind: str | None) -> None:
    # what a cross-site <form> or a no-preflight fetch can send: never application/json
    answer = request(served, "POST", "api/analyze", raw_body=json.dumps({"text": FS_TEXT}).encode(),
                     headers={"Content-Type": kind})
    assert answer.status == 415
    assert request(served, "POST", "api/analyze", body={"text": FS_TEXT}).status == 200


@pytest.mark.parametrize("method", ["PUT", "DELETE", "OPTIONS"])
def test_other_methods_are_refused_and_no_cors_preflight_is_answered(served: Served,
                                                                     method: str) -> None:
    answer = request(served, method, "api/analyze", headers={
        "Origin": served.origin, "Access-Control-Request-Method": "POST"})
    assert answer.status == 405
    assert not any(k.startswith("access-control-") for k in answer.headers)


def test_every_answer_forbids_framing_referrers_and_foreign_scripts(served: Served) -> None:
    for path in ("", "app.js", "api/servers"):
        headers = request(served, "GET", path).headers
        assert headers["referrer-policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert not any(k.startswith("access-control-") for k in headers)


# --- what the browser may ask for --------------------------------------------------------


def test_servers_are_named_by_config_and_name_never_by_command(served: Served,
                                                               folder: Path) -> None:
    listing = request(served, "GET", "api/servers").json()
    config = str(folder / ".mcp.json")
    assert [c["path"] for c in listing["configs"]] == [config]
    (server,) = listing["configs"][0]["servers"]
    assert server == {"name": "fs", "kind": "stdio", "what": Path(PY).name}
    # the arguments (where secrets live) are not sent to the page
    assert "fs_server.py" not in json.dumps(listing)


def _marker_config(folder: Path, marker: Path) -> Path:
    """A config whose only server, if ever started, creates `marker`."""
    path = folder / "elsewhere.json"
    path.write_text(json.dumps({"mcpServers": {"touch": {
        "command": PY, "args": ["-c", f"open({str(marker)!r}, 'w').close()"]}}}))
    return path


@pytest.mark.parametrize("body", [
    {"command": "{py}", "args": ["-c", "open('{marker}', 'w').close()"]},
    {"config": "{config}", "server": "touch"},  # a config file the playground did not find
    {"config": ".mcp.json", "server": "fs", "command": "{py}"},  # relative: not as listed
    {"config": "{listed}", "server": "*"},  # a glob, which load_config would expand
    {"config": "{listed}", "server": "f?"},
    {"config": "{listed}", "server": "fs --evil"},
    {"server": "fs"},
    {"config": ["{listed}"], "server": "fs"},
])
def test_live_requests_name_only_listed_servers(served: Served, folder: Path, tmp_path: Path,
                                                body: dict[str, object]) -> None:
    marker = tmp_path / "started"
    config = _marker_config(tmp_path, marker)
    values = {"py": PY, "marker": str(marker), "config": str(config),
              "listed": str(folder / ".mcp.json")}
    sent = json.loads(json.dumps(body).replace("{py}", values["py"])
                      .replace("{marker}", values["marker"])
                      .replace("{config}", values["config"])
                      .replace("{listed}", values["listed"]))
    answer = request(served, "POST", "api/live", body=sent, headers={"Origin": served.origin})
    assert answer.status == 400, answer.body
    assert "error" in answer.json()
    assert not marker.exists()


def test_a_listed_server_is_listed_live(served: Served, folder: Path) -> None:
    import time

    answer = request(served, "POST", "api/live", headers={"Origin": served.origin},
                     body={"config": str(folder / ".mcp.json"), "server": "fs"})
    assert answer.status == 202, answer.body
    job = answer.json()
    seen = {job["progress"]}
    deadline = time.monotonic() + 60
    while not job["done"]:
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        job = request(served, "GET", f"api/job?id={job['job']}").json()
        seen.add(job["progress"])
    assert job["error"] is None, job
    matrix = job["matrix"]
    assert [t["name"] for t in matrix["tools"]] == ["read_files", "propose_and_review"]
    assert matrix["label"] == "fs"
    assert matrix["server"]["era"] in ("handshake", "stateless")
    # the progress the page shows while waiting: fetch_servers' own line for this server
    assert any(line.startswith("Listing tools from fs: ") for line in seen), seen


# --- no remote $ref ----------------------------------------------------------------------


class _Recorder(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).hits.append(self.path)
        body = json.dumps({"type": "string"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_no_remote_ref_is_fetched(served: Served) -> None:
    remote = HTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=remote.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{remote.server_address[1]}"
        # the recorder answers: a fetch would be seen (and would succeed)
        import urllib.request

        with urllib.request.urlopen(f"{base}/probe") as reply:
            assert reply.status == 200
        _Recorder.hits.clear()
        schema = {"type": "object", "properties": {
            "a": {"$ref": f"{base}/a.json"},
            "b": {"$ref": f"{base}/b.json#/definitions/x"},
            "c": {"$id": f"{base}/c/", "$ref": "d.json"}}}
        data = analyze(served, json.dumps({"tools": [{"name": "remote", "inputSchema": schema}]}))
        for provider in [p["name"] for p in data["providers"]]:
            cell = request(served, "GET", f"api/cell?run={data['run']}&provider={provider}"
                                          "&tool=0").json()
            assert cell["tool"] == "remote"
            for form in ("json", "sarif"):
                assert request(served, "GET", f"api/report?run={data['run']}&provider="
                                              f"{provider}&format={form}").status == 200
            assert request(served, "GET", f"api/transformed?run={data['run']}"
                                          f"&provider={provider}").status == 200
        codes = {f["code"] for f in request(
            served, "GET", f"api/cell?run={data['run']}&provider=gemini&tool=0"
        ).json()["findings"]}
        assert any(code.startswith("REF") for code in codes), codes
        assert _Recorder.hits == []
    finally:
        remote.shutdown()
        remote.server_close()
