"""The browser tests run with `make playground` only (SCHEMA_COMPAT_BROWSER=1): they need
Chromium and Playwright, which `make test` does not install. Without the variable they are
not collected at all (rather than skipped), so `make test` neither needs nor counts them."""

from __future__ import annotations

import os

collect_ignore_glob = [] if os.environ.get("SCHEMA_COMPAT_BROWSER") == "1" else ["test_*.py"]
