"""The playground in a real browser: Debian's Chromium, headless, driven by Playwright.

What a user does, checked against the CLI: paste examples/fs_read_files.json, read the
matrix (each cell as `check --json` rates the tool), open read_files' diff (both columns
are the original and the transformed schema, line for line), select a finding and see its
node highlighted, open its rule's page, download the transformed tools (byte for byte what
`transform` writes) and the reports; then list the example server live from a client config.

Run with `make playground` (SCHEMA_COMPAT_BROWSER=1; see conftest.py). The browser is the
system's (/usr/bin/chromium, or SCHEMA_COMPAT_CHROMIUM); Playwright never downloads one.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .pageread import (
    FS_TEXT,
    ORIGINAL,
    PROFILES,
    Problems,
    cli_json,
    cli_text,
    diff_column,
    expected_cell,
    paste,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "servers"))

from playground_launch import (
    FS_READ_FILES,
    PY,
    REPO_ROOT,
    Served,
    example_config,
    playground,
    transform_cli,
)

SCREENSHOT = Path(os.environ.get("SCHEMA_COMPAT_SCREENSHOT",
                                 REPO_ROOT / ".cache" / "playground" / "playground.png"))
SILENT = REPO_ROOT / "tests" / "servers" / "silent_server.py"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose .mcp.json names the example server and one that never answers."""
    path = tmp_path_factory.mktemp("browser")
    config = example_config(path)
    servers = json.loads(config.read_text())
    servers["mcpServers"]["silent"] = {"command": PY, "args": [str(SILENT)]}
    config.write_text(json.dumps(servers))
    return path


@pytest.fixture(scope="module")
def served(folder: Path) -> Iterator[Served]:
    with playground(folder) as s:
        yield s


@pytest.fixture
def page(browser: Browser, served: Served) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                  accept_downloads=True)
    page = context.new_page()
    problems = Problems(page)
    page.goto(served.url)
    expect(page).to_have_title("schema-compat playground")
    yield page
    context.close()
    assert problems.seen == []


def test_paste_matrix_diff_finding_rule_and_downloads(page: Page, folder: Path) -> None:
    paste(page, FS_TEXT)

    # the matrix: every profile, each cell as `check --json` rates the tool
    heads = page.locator("#matrix thead th .pname").all_text_contents()
    assert heads == PROFILES
    assert page.locator("#matrix tbody th.tool").all_text_contents() == \
        ["read_files", "propose_and_review"]
    for provider in PROFILES:
        report = cli_json(provider, folder)
        for i, tool in enumerate(report["tools"]):
            button = page.locator(f'#matrix button[data-provider="{provider}"][data-tool="{i}"]')
            classes = (button.get_attribute("class") or "").split()
            assert expected_cell(tool) in classes, (provider, tool["name"], classes)
    expect(page.locator("#summary")).to_contain_text(f"2 tools \u00d7 {len(PROFILES)} providers")

    # read_files' diff for Gemini: the original and the transformed schema, line for line
    page.click('#matrix button[data-provider="gemini"][data-tool="0"]')
    expect(page.locator("#detail-title")).to_have_text("read_files for gemini")
    expect(page.locator("#diff tr.row").first).to_be_visible()
    transformed = json.loads(transform_cli(FS_READ_FILES, "gemini", folder)
                             )["tools"][0]["inputSchema"]
    assert diff_column(page, 1) == json.dumps(ORIGINAL, indent=2).splitlines()
    assert diff_column(page, 2) == json.dumps(transformed, indent=2).splitlines()
    # each change is marked on the transformed side with its rule code
    tags = page.locator("#diff .tag").all_text_contents()
    changes = page.locator("#changes li.change").count()
    assert changes > 0 and len(tags) == changes  # read_files' changes are all in its schema
    assert any(t.endswith(" REF001") for t in tags)

    # select the $ref finding: its node (one line) is highlighted and scrolled into view
    ref = page.locator("#findings .finding", has=page.locator("button.rule", has_text="REF001"))
    ref.first.click()
    expect(ref.first).to_have_attribute("aria-pressed", "true")
    lit = page.locator("#diff td.hl")
    expect(lit).to_have_count(1)
    assert lit.locator(".text").text_content() == '        "$ref": "#/$defs/FileReadRequest"'
    expect(lit).to_be_in_viewport()

    # select the $defs finding: the whole $defs block is highlighted, nothing else
    defs = page.locator("#findings .finding", has=page.locator("button.rule", has_text="REF002"))
    defs.first.click()
    block = json.dumps({"$defs": ORIGINAL["$defs"]}, indent=2).splitlines()[1:-1]
    lit_lines = [line.strip() for line in lit.locator(".text").all_text_contents()]
    # (the block's closing brace has a comma when a key follows $defs)
    lit_lines[-1] = lit_lines[-1].rstrip(",")
    assert lit_lines == [line.strip() for line in block]
    expect(ref.first).to_have_attribute("aria-pressed", "false")
    page.locator("#diff td.hl-first").scroll_into_view_if_needed()
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    ref.first.click()
    page.screenshot(path=str(SCREENSHOT))

    # the rule's page, one click from its code
    ref.first.locator("button.rule").click()
    dialog = page.locator("#rule-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#rule-title")).to_contain_text("REF001")
    expect(dialog.locator("h3", has_text="The fix")).to_be_visible()
    page.click("#rule-close")
    expect(dialog).to_be_hidden()

    # the transformed tools, downloaded: what `schema-compat transform` writes
    for provider in ("gemini", "openai-strict"):
        page.select_option("#provider", provider)
        with page.expect_download() as download:
            page.click("#dl-tools")
        assert download.value.suggested_filename == f"tools.{provider}.json"
        got = Path(download.value.path()).read_text(encoding="utf-8")
        assert got == transform_cli(FS_READ_FILES, provider, folder)
    # the `tools` value of a request body: what `transform --to` writes
    page.select_option("#provider", "portable")
    assert page.locator("#target option").all_text_contents() == [
        "OpenAI Chat Completions", "OpenAI Responses", "Anthropic Messages",
        "Gemini generateContent"]
    page.select_option("#target", "gemini")
    with page.expect_download() as download:
        page.click("#dl-request")
    assert download.value.suggested_filename == "request-tools.gemini.json"
    got = Path(download.value.path()).read_text(encoding="utf-8")
    assert got == cli_text("transform", str(FS_READ_FILES), "-p", "portable", "--to",
                            "gemini", "-q", cwd=folder)
    page.select_option("#provider", "openai-strict")
    with page.expect_download() as download:
        page.click("#dl-json")
    report = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert report["provider"] == "openai-strict"
    assert [t["name"] for t in report["tools"]] == ["read_files", "propose_and_review"]
    with page.expect_download() as download:
        page.click("#dl-sarif")
    sarif = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert [r["automationDetails"]["id"] for r in sarif["runs"]] == \
        [f"schema-compat/{p}/" for p in PROFILES]


def test_what_a_tool_says_is_shown_as_text_never_run(page: Page) -> None:
    """Tool names, keys, descriptions and messages come from servers: none is markup."""
    evil = '<img src=x onerror="window.pwned=1">'
    listing = {"tools": [{"name": evil, "description": evil, "inputSchema": {
        "type": "object", "properties": {evil: {"type": "string", "description": evil,
                                                "$ref": "#/$defs/nope"}}}}]}
    paste(page, json.dumps(listing))
    assert page.locator("#matrix tbody th.tool").all_text_contents() == [evil]
    page.click('#matrix button[data-provider="gemini"][data-tool="0"]')
    expect(page.locator("#detail-title")).to_contain_text(evil)
    expect(page.locator("#diff tr.row").first).to_be_visible()
    assert any(json.dumps(evil) in line for line in diff_column(page, 1))  # as JSON text
    assert page.locator("img").count() == 0
    assert page.evaluate("window.pwned") is None


def test_a_dropped_file_and_a_bad_paste(page: Page) -> None:
    page.set_input_files("#file", str(FS_READ_FILES))
    expect(page.locator("#summary")).to_contain_text("<dropped fs_read_files.json>")
    paste(page, '{"tools": [')
    status = page.locator("#input-status")
    expect(status).to_have_class("status error")
    expect(status).to_contain_text("<pasted>: ")


def _pick_server(page: Page, name: str) -> Locator:
    """Choose a server in the page's list and start recording every status line shown."""
    option = page.locator("#servers option", has_text=f"{name}  (stdio")
    expect(option).to_have_count(1)
    page.evaluate("""() => {
        window.statusSeen = [];
        const node = document.getElementById("live-status");
        new MutationObserver(() => window.statusSeen.push(node.textContent))
            .observe(node, {childList: true, characterData: true, subtree: true});
    }""")
    page.select_option("#servers", label=option.text_content() or "")
    return option


def test_a_live_server_from_a_client_config(page: Page, folder: Path) -> None:
    option = _pick_server(page, "fs")
    assert json.loads(option.get_attribute("value") or "") == \
        {"config": str(folder / ".mcp.json"), "server": "fs"}
    expect(page.locator("#configs")).to_contain_text(str(folder / ".mcp.json"))
    page.click("#list")
    expect(page.locator("#live-status")).to_contain_text("Listed 2 tools from fs",
                                                         timeout=60_000)
    seen: list[str] = page.evaluate("window.statusSeen")
    assert any(s.startswith(("Starting fs", "Listing tools from fs")) for s in seen), seen
    assert page.locator("#matrix tbody th.tool").all_text_contents() == \
        ["read_files", "propose_and_review"]
    expect(page.locator("#summary")).to_contain_text("fs (")
    page.click('#matrix button[data-provider="gemini"][data-tool="0"]')
    expect(page.locator("#detail-title")).to_have_text("read_files for gemini")
    # the server lists the schema the captured file holds (its keys in its own order)
    assert json.loads("\n".join(diff_column(page, 1))) == ORIGINAL


def test_a_slow_listing_shows_its_progress_then_why_it_failed(browser: Browser,
                                                               folder: Path) -> None:
    with playground(folder, "--timeout", "4") as served:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(served.url)
            _pick_server(page, "silent")
            page.click("#list")
            status = page.locator("#live-status")
            expect(status).to_have_class("status error", timeout=30_000)
            expect(status).to_contain_text("silent: no answer to initialize within 4s")
            seen: list[str] = page.evaluate("window.statusSeen")
            expect(page.locator("#list")).to_be_enabled()
        finally:
            context.close()
    # while it waited: what the server was doing (fetch_servers' line once the MCP SDK is
    # loaded) and the seconds elapsed, updated as it went
    waiting = [s for s in seen
               if re.fullmatch(r"(Starting silent|Listing tools from silent: (starting|"
                               r"negotiating)) \(\d+\.\d s\)", s)]
    assert len(set(waiting)) >= 5, seen
    assert any(s.startswith("Listing tools from silent: negotiating") for s in waiting), seen


def test_copy_puts_the_transformed_tools_on_the_clipboard(page: Page, folder: Path) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    paste(page, FS_TEXT)
    page.select_option("#provider", "anthropic-strict")
    page.click("#copy-tools")
    expect(page.locator("#copy-status")).to_have_text("Copied the tools for anthropic-strict")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == transform_cli(FS_READ_FILES, "anthropic-strict", folder)


def test_300_tools_render_quickly(page: Page) -> None:
    sys.path.insert(0, str(REPO_ROOT / "tests"))
    from test_playground_api import _three_hundred_tools

    page.fill("#source", json.dumps(_three_hundred_tools()))
    page.click("#check")  # warm up the server's imports
    expect(page.locator("#matrix tbody tr")).to_have_count(300)
    started = time.perf_counter()
    page.click("#check")
    expect(page.locator("#input-status")).to_contain_text("Checked in")
    took = time.perf_counter() - started
    expect(page.locator("#matrix tbody button.c")).to_have_count(300 * len(PROFILES))
    assert took < 3, took  # every profile x 300 tools checked, sent, and drawn
    page.click('#matrix button[data-provider="openai-strict"][data-tool="299"]')
    expect(page.locator("#detail-title")).to_contain_text("for openai-strict")


def test_an_older_version_beside_the_listing_shows_what_breaks(page: Page,
                                                                 folder: Path) -> None:
    """The example pasted as the new version and an older one beside it (read_files not
    there yet, a tool since removed): each tool's status and findings are what
    `breaking OLD NEW --json` reports for the same pair."""
    paste(page, FS_TEXT)
    listing = json.loads(FS_TEXT)
    old = {**listing, "tools": [*listing["tools"][1:],
                                {"name": "ghost_tool", "inputSchema": {"type": "object"}}]}
    old_path = folder / "old-version.json"
    old_path.write_text(json.dumps(old))
    report = json.loads(cli_text("breaking", str(old_path), str(FS_READ_FILES), "--json",
                                 cwd=folder))
    page.fill("#old-source", old_path.read_text())
    page.click("#compare")
    tools = page.locator("#breaking li.tool")
    expect(tools).to_have_count(len(report["tools"]))
    shown = [(t.get_attribute("data-tool"), t.locator(".state").text_content(),
              t.locator(".evo .head code:first-child").all_text_contents())
             for t in tools.all()]
    assert shown == [(t["name"], t["status"], [f["code"] for f in t["findings"]])
                     for t in report["tools"]]
    assert ("ghost_tool", "removed", ["EVO001"]) in shown
    expect(page.locator("#compare-status")).to_have_text("1 of 2 tools break callers")
