"""Who may talk to the playground: only the page it served, in the user's own browser.

A local server that lists (starts) the user's MCP servers is a target for every web page the
user visits: a page can make the browser send requests to 127.0.0.1, and a DNS name that
rebinds to 127.0.0.1 makes them same-origin for the browser. So each request must:

- carry the per-run secret as the first segment of its path (`/TOKEN/...`): a page that
  does not know it cannot name any URL here, and the browser keeps it out of `Referer`
  (`Referrer-Policy: no-referrer`);
- name the served address in `Host` (`127.0.0.1:PORT` or `localhost:PORT`), which a
  rebound DNS name cannot;
- come from the served origin when the browser says where it comes from (`Origin`,
  `Sec-Fetch-Site`), so another site's form or script is refused;
- send JSON when it posts: a form cannot, and a script on another origin would need a CORS
  preflight that is never answered.

The checks are plain functions of the request line and headers, tested with real HTTP
requests (tests/test_playground_security.py).
"""

from __future__ import annotations

import hmac
import secrets
from typing import NamedTuple, Protocol

__all__ = ["SECURITY_HEADERS", "Guard", "Rejection", "new_token"]

# Sent with every answer: the page loads only its own files, is never framed, and never
# tells another site its URL (which holds the token).
SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

_SAME_SITE = ("same-origin", "none")  # Sec-Fetch-Site: the page itself, or the address bar


def new_token() -> str:
    """32 random bytes, URL-safe: the secret the served URL carries."""
    return secrets.token_urlsafe(32)


class Headers(Protocol):
    """What the checks read of a request's headers (http.server's message object)."""

    def get(self, name: str, default: None = None) -> str | None: ...


class Rejection(NamedTuple):
    status: int
    reason: str


class Guard:
    """The checks for a server on 127.0.0.1:`port` whose URLs start with `/token/`."""

    def __init__(self, token: str, port: int) -> None:
        self.token = token
        self.port = port
        self.hosts = frozenset((f"127.0.0.1:{port}", f"localhost:{port}"))
        self.origins = frozenset(f"http://{h}" for h in self.hosts)

    @property
    def prefix(self) -> str:
        return f"/{self.token}/"

    def route(self, target: str) -> str | None:
        """The path after `/token/` (without the query), or None when the token is absent
        or wrong. Compared in constant time."""
        path = target.split("?", 1)[0].split("#", 1)[0]
        head, sep, rest = path[1:].partition("/")
        if not path.startswith("/") or not sep:
            return None
        if not hmac.compare_digest(head.encode("utf-8", "replace"),
                                   self.token.encode("ascii")):
            return None
        return rest

    def check(self, method: str, target: str, headers: Headers
              ) -> Rejection | None:
        """Why this request is refused, or None. `headers` is read case-insensitively
        (http.client's message object is)."""
        host = (headers.get("Host") or "").strip().lower()
        if host not in self.hosts:
            return Rejection(403, f"Host {host or '(none)'!r} is not this server's")
        if self.route(target) is None:
            return Rejection(404, "not found")
        origin = headers.get("Origin")
        if origin is not None and origin.strip().lower() not in self.origins:
            return Rejection(403, f"Origin {origin!r} is not this server's")
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site.strip().lower() not in _SAME_SITE:
            return Rejection(403, f"cross-site request ({site})")
        if method not in ("GET", "HEAD", "POST"):
            return Rejection(405, f"method {method} not allowed")
        if method == "POST":
            kind = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return Rejection(415, "POST bodies must be application/json")
        return None
