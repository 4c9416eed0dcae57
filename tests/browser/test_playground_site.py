"""The static site (`make site`): the same page, the engine running in the browser in
Pyodide, served by a plain static file server. The same paste-and-diff flow as the served
page, checked against the CLI; and nothing is requested from anywhere but the site itself.

Run with `make playground`, which builds site/ first (SCHEMA_COMPAT_SITE names another).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from .pageread import (
    FS_TEXT,
    ORIGINAL,
    PROFILES,
    Problems,
    cli_json,
    cli_text,
    diff_column,
    expected_cell,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "servers"))

from playground_launch import FS_READ_FILES, REPO_ROOT, transform_cli

SITE = Path(os.environ.get("SCHEMA_COMPAT_SITE", REPO_ROOT / "site"))


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    """site/ on a plain static file server: what GitHub Pages or any host does."""
    assert (SITE / "index.html").is_file(), f"{SITE} is not built: run `make site`"
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_Quiet, directory=str(SITE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def site(browser: Browser, site_url: str) -> Iterator[tuple[Page, list[str]]]:
    """The loaded site with its engine ready; every request to another origin is refused
    and recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                  accept_downloads=True)
    elsewhere: list[str] = []

    def refuse(route: Route) -> None:
        elsewhere.append(route.request.url)
        route.abort()

    context.route(lambda url: not url.startswith(site_url) and not url.startswith("blob:"),
                  refuse)
    page = context.new_page()
    problems = Problems(page)
    page.goto(site_url)
    expect(page.locator("#input-status")).to_have_text(
        "Ready: everything runs in this page; nothing is sent anywhere.", timeout=180_000)
    yield page, elsewhere
    context.close()
    assert problems.seen == []


def test_the_static_page_runs_the_engine_in_the_browser(site: tuple[Page, list[str]],
                                                        tmp_path: Path) -> None:
    page, elsewhere = site
    expect(page.locator(".live")).to_be_hidden()  # no server: no live listings
    page.fill("#source", FS_TEXT)
    page.click("#check")
    expect(page.locator("#matrix tbody tr")).to_have_count(2, timeout=60_000)
    assert page.locator("#matrix thead th .pname").all_text_contents() == PROFILES
    # nor two versions compared: the page's Python has no jsonschema to check examples with
    expect(page.locator(".versions")).to_be_hidden()
    for provider in ("gemini", "openai-strict", "anthropic"):
        for i, tool in enumerate(cli_json(provider, tmp_path)["tools"]):
            button = page.locator(f'#matrix button[data-provider="{provider}"][data-tool="{i}"]')
            assert expected_cell(tool) in (button.get_attribute("class") or "").split()

    page.click('#matrix button[data-provider="gemini"][data-tool="0"]')
    expect(page.locator("#detail-title")).to_have_text("read_files for gemini")
    transformed = json.loads(transform_cli(FS_READ_FILES, "gemini", tmp_path)
                             )["tools"][0]["inputSchema"]
    assert diff_column(page, 1) == json.dumps(ORIGINAL, indent=2).splitlines()
    assert diff_column(page, 2) == json.dumps(transformed, indent=2).splitlines()
    ref = page.locator("#findings .finding", has=page.locator("button.rule", has_text="REF001"))
    ref.first.click()
    lit = page.locator("#diff td.hl")
    expect(lit).to_have_count(1)
    assert lit.locator(".text").text_content() == '        "$ref": "#/$defs/FileReadRequest"'

    ref.first.locator("button.rule").click()
    expect(page.locator("#rule-title")).to_contain_text("REF001")
    page.click("#rule-close")

    with page.expect_download() as download:
        page.click("#dl-tools")
    assert download.value.suggested_filename == "tools.gemini.json"
    assert Path(download.value.path()).read_text(encoding="utf-8") == \
        transform_cli(FS_READ_FILES, "gemini", tmp_path)
    page.select_option("#provider", "anthropic-strict")
    with page.expect_download() as download:
        page.click("#dl-request")
    assert Path(download.value.path()).read_text(encoding="utf-8") == cli_text(
        "transform", str(FS_READ_FILES), "-p", "anthropic-strict", "--to", "anthropic", "-q",
        cwd=tmp_path)
    assert elsewhere == []


def test_bad_input_reads_the_same_as_from_the_server(site: tuple[Page, list[str]]) -> None:
    page, elsewhere = site
    page.fill("#source", '{"tools": [')
    page.click("#check")
    status = page.locator("#input-status")
    expect(status).to_have_class("status error")
    expect(status).to_contain_text("<pasted>: ")
    assert elsewhere == []
