"""No header value and no --env value is ever printed: not in check's closing hint (a command
line a CI log keeps), its JSON report, transform's or diff's output, nor an error message.

The example server runs over streamable HTTP behind a bearer token, and its listing over stdio
(tests/servers/listing_server.py) with a variable set; the secret is a real string searched
for in everything each command prints.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from inprocess import cli_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent
SECRET = "tok-9f3b1c7e5a-SECRET"
# the example's listing, served without the SDK (what is printed does not depend on it)
SERVER = " ".join(shlex.quote(str(p)) for p in (sys.executable,
                                                REPO_ROOT / "tests" / "servers" /
                                                "listing_server.py"))


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    sys.path.insert(0, str(REPO_ROOT / "tests" / "servers"))
    from launch import example_over

    with example_over("http", token=SECRET) as url:
        yield url


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    proc = cli_in_process(*args, columns=2000)  # the hint on one line
    assert SECRET not in proc.stdout + proc.stderr, (proc.stdout, proc.stderr)
    return proc


def _hint_command(stdout: str, command: str) -> list[str]:
    [found] = re.findall(rf"`schema-compat ({command} [^`]*)`", stdout)
    return shlex.split(found)


def test_the_hint_hides_the_header_and_works_once_it_is_filled_in(base: str) -> None:
    url = f"{base}/mcp"
    header = f"Authorization: Bearer {SECRET}"
    checked = _run("check", "--url", url, "--header", header)
    assert checked.returncode == 1, checked.stderr
    args = _hint_command(checked.stdout, "transform")
    assert args == ["transform", "--url", url, "--header", "Authorization: ***"]
    assert "(with *** replaced by the value of each --header given)" in checked.stdout
    # filled in as the hint says, it is the transform of what was checked
    filled = [a.replace("***", f"Bearer {SECRET}") for a in args]
    hinted = _run(*filled)
    assert hinted.returncode == 0, hinted.stderr
    assert hinted.stdout == _run("transform", "--url", url, "--header", header).stdout
    assert '"read_files"' in hinted.stdout
    diff_args = _hint_command(checked.stdout, "diff")
    assert diff_args[-2:] == ["--header", "Authorization: ***"]
    assert _run(*[a.replace("***", f"Bearer {SECRET}") for a in diff_args]).returncode == 0


def test_json_report_and_errors_do_not_echo_the_header(base: str) -> None:
    url = f"{base}/mcp"
    assert _run("check", "--json", "--url", url, "--header",
                f"Authorization: Bearer {SECRET}").returncode == 1
    refused = _run("check", "--url", url, "--header", f"Authorization: Bearer {SECRET}x")
    assert refused.returncode == 2 and "HTTP 401" in refused.stderr
    for command in ("check", "transform"):
        malformed = _run(command, "--url", url, "--header", f"Bearer {SECRET}")
        assert malformed.returncode == 2
        assert malformed.stderr == ("schema-compat: error: a --header value is not 'K: V' "
                                    "(not shown: it may hold a secret)\n")


def test_the_hint_hides_an_env_value() -> None:
    checked = _run("check", "--server", SERVER, "--env", f"API_KEY={SECRET}")
    assert checked.returncode == 1, checked.stderr
    args = _hint_command(checked.stdout, "transform")
    assert args[-2:] == ["--env", "API_KEY=***"]
    assert "(with *** replaced by the value of each --env given)" in checked.stdout
    assert _run("diff", "read_files", "--server", SERVER, "--env",
                f"API_KEY={SECRET}").returncode == 0
    malformed = _run("check", "--server", SERVER, "--env", SECRET)
    assert malformed.returncode == 2
    assert "a --env value is not K=V" in malformed.stderr
