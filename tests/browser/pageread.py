"""What the browser tests share: the CLI's answers to compare with, and how the page is read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import ConsoleMessage, Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "servers"))

from playground_launch import FS_READ_FILES, PY, cli_env

from schema_compat.profiles import PROFILES as _PROFILES

PROFILES = list(_PROFILES)  # every profile has a column, in the registry's order
FS_TEXT = FS_READ_FILES.read_text(encoding="utf-8")
ORIGINAL = json.loads(FS_TEXT)["tools"][0]["inputSchema"]


class Problems:
    """Console errors and page errors (a CSP violation is one): none may occur."""

    def __init__(self, page: Page) -> None:
        self.seen: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.seen.append(f"page error: {exc}"))

    def _console(self, message: ConsoleMessage) -> None:
        # a 400 answers bad input, which the page shows (test_a_dropped_file_and_a_bad_paste);
        # the browser logs it as a failed load all the same
        if message.type == "error" and "status of 400 (Bad Request)" not in message.text:
            self.seen.append(message.text)


def cli_text(*args: str, cwd: Path) -> str:
    """What `schema-compat ARGS...` prints (exit 0 or 1)."""
    proc = subprocess.run([PY, "-m", "schema_compat", *args], capture_output=True, text=True,
                          cwd=cwd, env=cli_env(cwd), check=False, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def cli_json(provider: str, cwd: Path) -> dict[str, Any]:
    """`check examples/fs_read_files.json -p PROVIDER --json`."""
    data: dict[str, Any] = json.loads(cli_text("check", str(FS_READ_FILES), "-p", provider,
                                               "--json", cwd=cwd))
    return data


def expected_cell(tool: dict[str, Any]) -> str:
    """The matrix's words for a tool of a `check --json` report (report/matrix.py)."""
    if tool["fix_status"] == "unfixable":
        return "incompatible"
    if tool["status"] == "COMPATIBLE":
        return "compatible"
    return "fixable-lossy" if tool["fix_status"] == "lossy" else "fixable"


def paste(page: Page, text: str) -> None:
    page.fill("#source", text)
    page.click("#check")
    expect(page.locator("#results")).to_be_visible()


def diff_column(page: Page, column: int) -> list[str]:
    """The lines of one side of the diff, as shown (blank filler rows left out)."""
    texts: list[str] = page.eval_on_selector_all(
        f"#diff tr.row td:nth-child({column}):not(.empty) .text",
        "nodes => nodes.map(n => n.textContent)")
    return texts
