"""Helpers shared by the playground tests: run `schema-compat serve`, send raw HTTP to it.

The playground is started as users start it (the console script's module, in a subprocess,
in a folder of the test's choosing and with a HOME of its own, so that no config of the
machine's user is read); requests go through http.client so each header is exactly what the
test says, Host included.
"""

from __future__ import annotations

import http.client
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = REPO_ROOT / "examples" / "fs_server.py"
FS_READ_FILES = REPO_ROOT / "examples" / "fs_read_files.json"
PY = sys.executable


class Served(NamedTuple):
    url: str  # http://127.0.0.1:PORT/TOKEN/
    port: int
    token: str
    proc: subprocess.Popen[str]

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def example_config(folder: Path, name: str = "fs") -> Path:
    """A `.mcp.json` in `folder` naming the example server (started with this Python)."""
    path = folder / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": {name: {
        "command": PY, "args": [str(EXAMPLE)]}}}), encoding="utf-8")
    return path


def cli_env(home: Path) -> dict[str, str]:
    """The environment of a CLI run outside the checkout: this tree's package comes first
    (as with cwd=REPO_ROOT: `make test-compiled` tests its compiled copy), HOME is `home`."""
    path = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "NO_COLOR": "1", "PYTHONPATH": path}
    env.pop("FORCE_COLOR", None)
    return env


@contextmanager
def playground(folder: Path, *extra: str) -> Iterator[Served]:
    """`schema-compat serve --no-open --port 0 EXTRA...` run in `folder` (HOME is
    folder/home); yields once it has printed its URL."""
    home = folder / "home"
    home.mkdir(exist_ok=True)
    proc = subprocess.Popen([PY, "-m", "schema_compat", "serve", "--no-open", "--port", "0",
                             *extra], cwd=folder, env=cli_env(home), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"serve exited: {proc.stderr.read() if proc.stderr else ''}")
        prefix = "schema-compat playground: "
        assert line.startswith(prefix), line
        url = line[len(prefix):].strip()
        parts = urlsplit(url)
        assert parts.hostname == "127.0.0.1" and parts.port is not None, url
        yield Served(url, parts.port, parts.path.strip("/"), proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


class Answer(NamedTuple):
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def request(served: Served, method: str, path: str, *, body: Any = None,
            headers: Mapping[str, str | None] | None = None, token: bool = True,
            raw_body: bytes | None = None) -> Answer:
    """One request to the playground. `path` is relative to `/TOKEN/` (or to `/` with
    `token=False`); a JSON `body` is sent as application/json unless `headers` say
    otherwise; a header set to None is not sent at all (Host included)."""
    target = f"/{served.token}/{path}" if token else f"/{path.lstrip('/')}"
    sent: dict[str, str | None] = {"Host": served.host}
    data = raw_body
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    sent.update(headers or {})
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    try:
        conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        for key, value in sent.items():
            if value is not None:
                conn.putheader(key, value)
        conn.putheader("Content-Length", str(len(data or b"")))
        conn.endheaders(data)
        response = conn.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      response.read())
    finally:
        conn.close()


def analyze(served: Served, text: str) -> dict[str, Any]:
    answer = request(served, "POST", "api/analyze", body={"text": text},
                     headers={"Origin": served.origin})
    assert answer.status == 200, answer.body
    data: dict[str, Any] = answer.json()
    return data


def transform_cli(source: Path, provider: str, cwd: Path) -> str:
    """What `schema-compat transform SOURCE --provider PROVIDER -q` prints."""
    proc = subprocess.run([PY, "-m", "schema_compat", "transform", str(source), "--provider",
                           provider, "-q"], capture_output=True, text=True, cwd=cwd,
                          env=cli_env(cwd), check=False, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def quoted(*parts: str | Path) -> str:
    return " ".join(shlex.quote(str(p)) for p in parts)
