"""pytest hooks for the interop suite (its servers and helpers live in support.py)."""

from __future__ import annotations

import pytest
from support import CACHE, STDIO_SERVERS


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Name the servers and versions under test at the top of the run."""
    return [f"interop servers (installed under {CACHE}):",
            *(f"  {server.label}" for server in STDIO_SERVERS)]
