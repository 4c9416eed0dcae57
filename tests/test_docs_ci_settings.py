"""The settings examples (docs/ci.md) work in the file each is said to go in: the block shown for
`.schema-compat.toml` is read from `.schema-compat.toml`, the one for `pyproject.toml` from
`pyproject.toml` (the `[tool.schema-compat]` form pasted into `.schema-compat.toml` is an
unknown setting 'tool')."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inprocess import cli_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent
CI_DOC = (REPO_ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def _block_after(lead: str) -> str:
    """The first ```toml block after the paragraph that starts with `lead` in Settings."""
    settings = CI_DOC.split("## Settings", 1)[1]
    match = re.search(re.escape(lead) + r".*?```toml\n(.*?)```", settings, re.S)
    assert match, lead
    return match.group(1)


@pytest.mark.parametrize(("lead", "file"), [
    ("In `.schema-compat.toml`", ".schema-compat.toml"),
    ("In `pyproject.toml`", "pyproject.toml"),
])
def test_each_settings_block_is_read_from_its_file(tmp_path: Path, lead: str, file: str) -> None:
    (tmp_path / file).write_text(_block_after(lead), encoding="utf-8")
    proc = cli_in_process("check", "--show-config", str(REPO_ROOT / "examples" / "mixed.json"),
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    shown = {line.split(" = ")[0]: line for line in proc.stdout.splitlines() if " = " in line}
    assert shown["provider"].startswith('provider = ["gemini", "openai-strict"]')
    assert shown["fail-on"].startswith('fail-on = "warning"')
    assert shown["per-tool-ignores"].startswith(
        'per-tool-ignores = { "legacy_*" = ["UNI002"] }')
    assert all(line.endswith(f"# {file}") for key, line in shown.items()
               if key in ("provider", "fail-on", "per-tool-ignores")), shown
