"""The page's API, apart from HTTP: a route, its query and body in, an Answer out.

The local server (server.py) calls it after its security checks; the static site (`make
site`) calls it from the page itself, in Pyodide (static.py). Only the server has live
servers: a `Live` is passed in where there is one.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from .analysis import (
    InputError,
    Run,
    Workspace,
    breaking_report,
    cell_detail,
    matrix,
    report_text,
    request_text,
    rule_page,
    transformed_text,
)

__all__ = ["Answer", "Gone", "Live", "get", "post"]


class Answer(NamedTuple):
    """`data` is sent as JSON; a download has `text` and `filename` instead."""

    status: int
    data: Any = None
    text: str | None = None
    filename: str | None = None


class Gone(LookupError):
    """A run or job the page names that is not (or no longer) here: 404."""


class Live(Protocol):
    """Live listings (live.py): the configs' servers and the jobs listing them."""

    def listing(self) -> dict[str, Any]: ...

    def start(self, config: str, server: str) -> dict[str, Any]: ...

    def job(self, job_id: str) -> dict[str, Any] | None: ...


NO_LIVE = Answer(404, {"error": "live servers are listed by `schema-compat serve`, "
                                "not by this static page"})


def _arg(query: dict[str, str], key: str) -> str:
    value = query.get(key)
    if value is None:
        raise InputError(f"missing ?{key}=")
    return value


def _int(query: dict[str, str], key: str) -> int:
    value = _arg(query, key)
    try:
        return int(value)
    except ValueError:
        raise InputError(f"?{key}= must be a number") from None


def _run(workspace: Workspace, query: dict[str, str]) -> Run:
    run = workspace.get(_arg(query, "run"))
    if run is None:
        raise Gone("this listing is no longer kept here: paste it or list it again")
    return run


def get(workspace: Workspace, live: Live | None, route: str, query: dict[str, str]
        ) -> Answer:
    """A GET of `route` (the path after the token); InputError and Gone are the caller's
    400 and 404."""
    if route == "api/cell":
        run = _run(workspace, query)
        return Answer(200, cell_detail(run, _arg(query, "provider"), _int(query, "tool")))
    if route == "api/transformed":
        run = _run(workspace, query)
        provider = _arg(query, "provider")
        return Answer(200, text=transformed_text(run, provider),
                      filename=f"tools.{provider}.json")
    if route == "api/request":
        run = _run(workspace, query)
        provider, target = _arg(query, "provider"), _arg(query, "target")
        return Answer(200, text=request_text(run, provider, target),
                      filename=f"request-tools.{target}.json")
    if route == "api/report":
        run = _run(workspace, query)
        provider, form = _arg(query, "provider"), _arg(query, "format")
        return Answer(200, text=report_text(run, provider, form),
                      filename=f"report.{provider}.{'sarif' if form == 'sarif' else 'json'}")
    if route == "api/rule":
        return Answer(200, rule_page(_arg(query, "code")))
    if route == "api/servers":
        return NO_LIVE if live is None else Answer(200, live.listing())
    if route == "api/job":
        if live is None:
            return NO_LIVE
        state = live.job(_arg(query, "id"))
        if state is None:
            raise Gone("no such listing job")
        return Answer(200, state)
    return Answer(404, {"error": "not found"})


def post(workspace: Workspace, live: Live | None, route: str, body: dict[str, Any]
         ) -> Answer:
    """A POST of `route` with its JSON object body."""
    if route == "api/analyze":
        text = body.get("text")
        if not isinstance(text, str):
            raise InputError('expected {"text": "<a JSON document>"}')
        label = body.get("label")
        label = label if isinstance(label, str) and label else "<pasted>"
        return Answer(200, matrix(workspace.add_text(text, label)))
    if route == "api/breaking":
        old, run_id = body.get("old"), body.get("run")
        if not isinstance(old, str) or not isinstance(run_id, str):
            raise InputError('expected {"old": "<the old version\'s listing>", "run": RUN}, '
                             "RUN the new version's as api/analyze or api/job named it")
        label = body.get("label")
        label = label if isinstance(label, str) and label else "<old>"
        return Answer(200, breaking_report(_run(workspace, {"run": run_id}), old, label))
    if route == "api/live":
        if live is None:
            return NO_LIVE
        config, server = body.get("config"), body.get("server")
        if not isinstance(config, str) or not isinstance(server, str):
            raise InputError('expected {"config": PATH, "server": NAME} as listed by '
                             "api/servers")
        return Answer(202, live.start(config, server))
    return Answer(404, {"error": "not found"})
