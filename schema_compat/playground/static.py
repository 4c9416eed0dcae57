"""The static site's way in (`make site`): the page calls `handle` through Pyodide.

The same API as the local server's (api.py), without HTTP, a token or live servers: the
page, the engine and the input are all in the user's browser, and nothing is sent anywhere.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

from . import api
from .analysis import InputError, Workspace

__all__ = ["Site"]


class Site:
    """The page's engine: app.js makes one when Pyodide has loaded, and sends every call of
    the page to its `handle`. Its workspace holds the runs (and the plans of every profile,
    made here once)."""

    def __init__(self) -> None:
        self.workspace = Workspace()

    def handle(self, method: str, target: str, body: str | None = None) -> str:
        """One API call, as JSON text: `{"status", "data"}`, or for a download
        `{"status", "text", "filename"}`. `target` is a route and query
        (`api/cell?run=...`)."""
        parts = urlsplit(target)
        route = parts.path.lstrip("/")
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        try:
            if method == "POST":
                data = json.loads(body or "{}")
                if not isinstance(data, dict):
                    raise InputError("the request body must be a JSON object")
                answer = api.post(self.workspace, None, route, data)
            else:
                answer = api.get(self.workspace, None, route, query)
        except InputError as exc:
            answer = api.Answer(400, {"error": str(exc)})
        except api.Gone as exc:
            answer = api.Answer(404, {"error": str(exc)})
        return json.dumps(answer._asdict(), ensure_ascii=False, allow_nan=True)
