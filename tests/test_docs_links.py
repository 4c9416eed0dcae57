"""Every relative link in the docs that ship (README.md, CHANGELOG.md, docs/, examples/, the
READMEs of conformance/ and interop/) resolves inside the repository: the file is there and
tracked, and a `#fragment` names a heading or an anchor of the file it points to. A clone has
nothing beside the repository, so nothing may point out.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([REPO_ROOT / "README.md", REPO_ROOT / "CHANGELOG.md",
               *(REPO_ROOT / "docs").rglob("*.md"), *(REPO_ROOT / "examples").rglob("*.md"),
               REPO_ROOT / "conformance" / "README.md", REPO_ROOT / "interop" / "README.md"])

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_CODE = re.compile(r"`+[^`\n]*`+")
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_HREF = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
_ANCHOR = re.compile(r"""<a\s+(?:id|name)\s*=\s*["']([^"']+)["']""")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text without code blocks and inline code, where a link is only an example."""
    return _CODE.sub("", _FENCE.sub("", text))


def links(text: str) -> list[str]:
    prose = _prose(text)
    return [m.group(1) for pattern in (_INLINE, _REFERENCE, _HREF)
            for m in pattern.finditer(prose)]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, links and code marks dropped, every
    character that is not a letter, digit, space, `-` or `_` removed, spaces as `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8")
    found: set[str] = set(_ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for heading in _HEADING.findall(_FENCE.sub("", text)):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return frozenset(found)


@cache
def tracked() -> frozenset[Path] | None:
    """The files git tracks, or None outside a git checkout (then existence is enough)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return frozenset((REPO_ROOT / p).resolve() for p in out.decode().split("\0") if p)


def problems(doc: Path) -> list[str]:
    out = []
    for target in links(doc.read_text(encoding="utf-8")):
        if re.match(r"^[a-zA-Z][\w+.-]*:", target) or target.startswith("//"):
            continue  # an absolute URL (https:, mailto:): not part of the repository
        path_part, _, fragment = target.partition("#")
        dest = (doc.parent / unquote(path_part)).resolve() if path_part else doc
        where = f"{doc.relative_to(REPO_ROOT)}: {target}"
        if not dest.is_relative_to(REPO_ROOT):
            out.append(f"{where} points outside the repository")
            continue
        if not dest.exists():
            out.append(f"{where}: no such file")
            continue
        files = tracked()
        if files is not None and path_part and dest.is_file() and dest not in files:
            out.append(f"{where}: not tracked by git, so a clone lacks it")
        if fragment and dest.suffix == ".md" and unquote(fragment) not in anchors(dest):
            out.append(f"{where}: no heading or anchor #{fragment} there")
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_relative_link_resolves_inside_the_repository(doc: Path) -> None:
    assert problems(doc) == []


def test_the_checker_sees_each_kind_of_broken_link(tmp_path: Path) -> None:
    """The checker itself: each kind of link it reads, and each way one can be broken."""
    assert links("[a](x.md) ![i](img.png \"t\")\n[r]: ref.md\n<a href=\"h.md\">h</a>") == [
        "x.md", "img.png", "ref.md", "h.md"]
    assert links("`[a](not.md)`\n```\n[b](nor.md)\n```\n") == []
    assert slug("1.1 `parameters` — the `Schema` object (OpenAPI 3.0 subset)") == (
        "11-parameters--the-schema-object-openapi-30-subset")
    doc = REPO_ROOT / "docs" / "providers.md"
    assert "gem-13" in anchors(doc) and "facts" in anchors(doc)
    fake = REPO_ROOT / "docs" / "_link_check_probe.md"
    try:
        fake.write_text("[a](../../outside.md) [b](missing.md) [c](providers.md#no-such-id) "
                        "[d](providers.md#gem-13) [e](https://example.com/x.md) [f](#top)\n"
                        "# Top\n", encoding="utf-8")
        found = problems(fake)
    finally:
        fake.unlink()
    assert [p.split(": ", 1)[1] for p in found] == [
        "../../outside.md points outside the repository",
        "missing.md: no such file",
        "providers.md#no-such-id: no heading or anchor #no-such-id there",
    ]


def test_the_rule_command_names_the_shipped_provider_facts() -> None:
    """`schema-compat rule CODE` shows the rule page's links to docs/providers.md as a path
    and an anchor that exists, not as Markdown."""
    import os
    import sys

    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "300"}
    proc = subprocess.run([sys.executable, "-m", "schema_compat", "rule", "REF001"],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    [sources] = [line for line in proc.stdout.splitlines() if line.startswith("Sources: ")]
    assert "](" not in sources
    cited = re.findall(r"\(docs/providers\.md#([\w-]+)\)", sources)
    assert cited == ["gem-13"]
    assert set(cited) <= anchors(REPO_ROOT / "docs" / "providers.md")
