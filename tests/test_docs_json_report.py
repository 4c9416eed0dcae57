"""docs/json-report.md names every field the report's JSON Schema gives the report, a tool
and an issue: an agent's author reads the page, not the schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PAGE = (REPO_ROOT / "docs" / "json-report.md").read_text("utf-8")
SCHEMA = json.loads((REPO_ROOT / "schema_compat" / "report" / "report.schema.json")
                    .read_text("utf-8"))


def _named(text: str) -> set[str]:
    """The words in code marks, `tools[]` read as `tools`, `fix: {a, b}` as fix, a and b."""
    return {word for span in re.findall(r"`([^`]+)`", text)
            for word in re.findall(r"[a-z_]+", span)}


def test_every_field_of_the_report_a_tool_and_an_issue_is_on_the_page() -> None:
    fields = {*SCHEMA["properties"], *SCHEMA["$defs"]["tool"]["properties"],
              *SCHEMA["$defs"]["issue"]["properties"]}
    assert {"generated_at", "transformed_name", "scope", "structural_diff"} <= fields
    assert sorted(fields - _named(PAGE)) == []
