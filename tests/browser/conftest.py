"""The browser tests run with `make playground` only (SCHEMA_COMPAT_BROWSER=1): they need
Chromium and Playwright, which `make test` does not install. Without the variable they are
not collected at all (rather than skipped), so `make test` neither needs nor counts them.

The browser is the system's (/usr/bin/chromium, or SCHEMA_COMPAT_CHROMIUM), which Playwright
is pointed at; Playwright never downloads one.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

collect_ignore_glob = [] if os.environ.get("SCHEMA_COMPAT_BROWSER") == "1" else ["test_*.py"]

CHROMIUM = os.environ.get("SCHEMA_COMPAT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: `make playground` installs it"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # the system's Chromium, not a browser of Playwright's own
        said = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True,
                              check=True, timeout=60).stdout
        assert launched.version in said, (launched.version, said)
        yield launched
        launched.close()
