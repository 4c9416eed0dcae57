"""`profiles` and `rule CODE` in the terminal: wrapped lines keep their indent, no line
carries trailing spaces, and rule codes are listed in order."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len

from schema_compat.console import make_console
from schema_compat.profiles import PROFILES
from schema_compat.report.rules_text import render_profiles, render_rule
from schema_compat.rules.registry import ALL_RULES, RULES


def _profiles(width: int) -> list[str]:
    buf = io.StringIO()
    render_profiles(PROFILES.values(), make_console(file=buf, width=width, color=False))
    return buf.getvalue().splitlines()


def _rule(code: str, width: int) -> list[str]:
    buf = io.StringIO()
    render_rule(RULES[code], make_console(file=buf, width=width, color=False),
                PROFILES.values())
    return buf.getvalue().splitlines()


def _blocks(lines: list[str]) -> list[list[str]]:
    """Each profile's lines, its heading first."""
    blocks: list[list[str]] = []
    for line in lines:
        if line and not line[0].isspace():
            blocks.append([line])
        elif line:
            blocks[-1].append(line)
    return blocks


@pytest.mark.parametrize("width", [40, 80, 120])
def test_profiles_wrap_under_their_field_in_order(width: int) -> None:
    lines = _profiles(width)
    assert all(line == line.rstrip() for line in lines), "trailing spaces"
    blocks = _blocks(lines)
    assert [b[0].split()[0] for b in blocks] == list(PROFILES)
    for block, profile in zip(blocks, PROFILES.values(), strict=True):
        # only the heading starts at column 0: every wrapped line keeps an indent
        assert all(line.startswith("  ") for line in block[1:])
        start = next(k for k, ln in enumerate(block) if ln.lstrip().startswith("rules ("))
        field = [block[start].split(":", 1)[1]]
        for line in block[start + 1:]:  # its wrapped lines, indented deeper than a field
            if not line.startswith("   "):
                break
            field.append(line)
        codes = " ".join(field).split()
        assert codes == sorted(profile.rules)
        assert all(cell_len(ln) <= width for ln in block if " " in ln.strip())


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("code", ["UNI002", "OBJ008", "REF001"])
def test_rule_keeps_indents_and_no_trailing_spaces(code: str, width: int) -> None:
    lines = _rule(code, width)
    assert lines[0] == f"{code} {RULES[code].name}"
    assert all(line == line.rstrip() for line in lines), "trailing spaces"
    effect = next((k for k, ln in enumerate(lines) if ln.startswith("Effect:")), None)
    if effect is not None:  # the cases and the legend under it stay indented
        profiles = next(k for k, ln in enumerate(lines) if ln.startswith("Profiles:"))
        assert all(ln.startswith("  ") for ln in lines[effect + 1:profiles])
    fix = next(k for k, ln in enumerate(lines) if ln.startswith("Severity:"))
    assert lines[fix + 1].startswith(" ") or lines[fix + 1].startswith(("Effect:", "Profiles:"))


def test_every_rule_page_prints_its_docs_literally() -> None:
    """The docs are text, not rich markup: a bracketed word is printed as it is."""
    for rule in ALL_RULES:
        text = "\n".join(_rule(rule.code, 200))
        for paragraph in (rule.docs.what, rule.docs.error, rule.docs.fix):
            assert " ".join(paragraph.split()) in " ".join(text.split())


def test_rules_of_one_provider_are_its_rules_at_its_severity() -> None:
    """`rules --provider vertex`: the rules the profile runs, each at the profile's severity
    (ROOT001 is a warning there, an error by default), no other rule."""
    from inprocess import cli_in_process

    proc = cli_in_process("rules", "--provider", "vertex", columns=200)
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line.split()[2] for line in proc.stdout.splitlines()[1:]
            if line[:1].isalpha()}
    assert set(rows) == set(PROFILES["vertex"].rules)
    assert rows["ROOT001"] == "warning" and RULES["ROOT001"].severity == "error"
