"""Playground: how long `schema-compat serve` takes to answer for a 300-tool listing.

The playground is started as users start it (`python -m schema_compat serve --no-open
--port 0`, in a temporary folder with a HOME of its own, so the installed build is the one
measured and no user config is read); the listing is posted to `api/analyze` over real HTTP,
as the page does. The listing is 300 real tool schemas from tests/data/corpus (renamed apart
where a name repeats), checked against every profile.

- wall: from sending the POST to having read the whole matrix (parse, every profile's checks,
  the JSON on the wire); target under 1 s;
- CPU: the `cpu_ms` the server reports for the profiles' checks (its own thread's CPU
  time, so other load on the machine does not count); target under 1 s;
- a cell: `GET api/cell` for the last tool under openai-strict (findings, changes, diff rows
  and the transformed schema of one tool); target under 0.5 s.

Each figure is the median of several runs after one warm-up run (which also loads the
server's imports).
"""

from __future__ import annotations

import http.client
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .common import REPO_ROOT, Section, bench_env, median_time

_CORPUS = REPO_ROOT / "tests" / "data" / "corpus"
_TOOLS = 300
_CELL_PROVIDER = "openai-strict"


def three_hundred_tools() -> dict[str, Any]:
    """300 real tool schemas from the corpus (renamed apart where a name repeats): the
    listing tests/test_playground_api.py checks the playground's answer for."""
    tools: list[dict[str, Any]] = []
    for path in sorted(_CORPUS.glob("*.json")) + sorted((_CORPUS / "servers").glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        listed = document.get("tools") if isinstance(document, dict) else None
        if isinstance(listed, list):
            tools += [t for t in listed if isinstance(t, dict) and "inputSchema" in t]
    if len(tools) < _TOOLS:
        raise RuntimeError(f"{_CORPUS}: {len(tools)} tools, the benchmark needs {_TOOLS}")
    return {"tools": [{**t, "name": f"{t['name']}_{i}"} for i, t in enumerate(tools[:_TOOLS])]}


class _Server:
    """A running `schema-compat serve`; requests go to its token's path."""

    def __init__(self, folder: Path) -> None:
        home = folder / "home"
        home.mkdir()
        env = {**bench_env(), "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "schema_compat", "serve", "--no-open", "--port", "0"],
            cwd=folder, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        prefix = "schema-compat playground: "
        if not line.startswith(prefix):
            err = self.proc.stderr.read() if self.proc.stderr else ""
            self.close()
            raise RuntimeError(f"schema-compat serve did not start: {line}{err}")
        parts = urlsplit(line[len(prefix):].strip())
        assert parts.port is not None
        self.port = parts.port
        self.token = parts.path.strip("/")

    def request(self, method: str, path: str, body: bytes | None = None) -> bytes:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            headers = {"Host": f"127.0.0.1:{self.port}",
                       "Content-Length": str(len(body or b""))}
            if body is not None:
                headers["Content-Type"] = "application/json"
                headers["Origin"] = f"http://127.0.0.1:{self.port}"
            conn.request(method, f"/{self.token}/{path}", body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            if response.status != 200:
                raise RuntimeError(f"{method} {path}: HTTP {response.status}: {data[:200]!r}")
            return data
        finally:
            conn.close()

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


def run(repeats: int = 5) -> list[Section]:
    from schema_compat.profiles import PROFILES

    profiles = len(PROFILES)
    body = json.dumps({"text": json.dumps(three_hundred_tools())}).encode()
    with tempfile.TemporaryDirectory(prefix="bench-playground-") as tmp:
        server = _Server(Path(tmp))
        try:
            answers: list[dict[str, Any]] = []

            def analyze() -> None:
                answers.append(json.loads(server.request("POST", "api/analyze", body)))

            wall = median_time(analyze, repeats)  # the warm-up run loads the imports
            measured = answers[1:]
            for data in answers:
                cells = data["cells"]
                if (len(data["tools"]) != _TOOLS or len(cells) != profiles
                        or any(len(c) != _TOOLS for c in cells.values())):
                    raise RuntimeError(f"api/analyze did not answer the full {_TOOLS} x "
                                       f"{profiles} matrix")
            cpu = statistics.median(float(d["cpu_ms"]) for d in measured) / 1e3
            checks = statistics.median(float(d["elapsed_ms"]) for d in measured) / 1e3
            run_id = answers[-1]["run"]
            cell_path = f"api/cell?run={run_id}&provider={_CELL_PROVIDER}&tool={_TOOLS - 1}"
            cell = median_time(lambda: server.request("GET", cell_path), repeats)
        finally:
            server.close()
    section = Section(f"Playground: {_TOOLS} tools x {profiles} profiles over HTTP "
                      f"(median of {repeats} runs)", ["measure", "ms", "target ms"])
    section.rows += [
        ["api/analyze: POST to whole matrix read (wall)", f"{wall * 1e3:.0f}", "< 1000"],
        [f"  of which the {profiles} profiles' checks (server's wall)", f"{checks * 1e3:.0f}", "—"],
        [f"  of which the {profiles} profiles' checks (server's CPU)", f"{cpu * 1e3:.0f}",
         "< 1000"],
        [f"api/cell: {_CELL_PROVIDER}, tool {_TOOLS - 1} (wall)", f"{cell * 1e3:.0f}",
         "< 500"],
    ]
    section.verdict(f"playground matrix of {_TOOLS} tools x {profiles} profiles under 1 s",
                    wall < 1.0, f"{wall * 1e3:.0f} ms wall")
    section.verdict(f"the {profiles} profiles' checks of {_TOOLS} tools under 1 s of CPU",
                    cpu < 1.0, f"{cpu * 1e3:.0f} ms CPU")
    section.verdict("a cell of the 300-tool matrix under 0.5 s", cell < 0.5,
                    f"{cell * 1e3:.0f} ms wall")
    section.notes.append("the server is `python -m schema_compat serve` run from a temporary "
                         "folder, so the installed build is measured; CPU time is the "
                         "server thread's own, which other load on the machine does not add "
                         "to")
    return [section]


if __name__ == "__main__":
    for s in run(3):
        print(s.text())
