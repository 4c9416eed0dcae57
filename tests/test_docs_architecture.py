"""docs/architecture.md stays true: every repository path it names in code marks exists,
and every name of the package it cites (a function, a class and its attribute, a rule's
field) is still defined. Its links are checked with every other doc's (test_docs_links)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "architecture.md"
_SPAN = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(r"^(?:schema_compat|tests|docs|examples|benchmarks|conformance)/[\w./-]*$")
_NAME = re.compile(r"^(?!(?:True|False|None)$)(?:[A-Z]\w*(?:\.[a-z_]\w*)?|[a-z]\w*_\w*)$")


def spans(text: str) -> list[str]:
    return _SPAN.findall(re.sub(r"^```.*?^```", "", text, flags=re.M | re.S))


def paths(text: str) -> list[str]:
    return [s for s in spans(text) if _PATH.match(s.replace("CODE", "X"))]


def names(text: str) -> list[str]:
    return [s for s in spans(text) if _NAME.match(s)]


@cache
def _sources() -> dict[Path, str]:
    return {p: p.read_text("utf-8") for p in (REPO / "schema_compat").rglob("*.py")}


def _defines(text: str, name: str) -> bool:
    n = re.escape(name)
    return re.search(rf"\b(?:def|class)\s+{n}\b|^\s*{n}\s*[:=]|\b{n}=", text, re.M) is not None


def defined(name: str) -> bool:
    """A class's attribute in the module defining the class; otherwise anywhere."""
    owner, _, attr = name.rpartition(".")
    if owner:
        return any(_defines(t, owner) and re.search(rf"\bclass\s+{owner}\b", t)
                   and _defines(t, attr) for t in _sources().values())
    return any(_defines(t, name) for t in _sources().values())


def exists(path: str) -> bool:
    """A file, a directory, a module named as Python does (`schema_compat/engine`: the
    package or the single file), or (`CODE` standing for a rule's code) a pattern some file
    fits."""
    if "CODE" in path:
        return any(REPO.glob(path.replace("CODE", "*")))
    return (REPO / path).exists() or (REPO / f"{path}.py").is_file()


def _module(path: str) -> str:
    """The module a path names, however it is written (`x/`, `x.py`, `x`)."""
    return path.removesuffix("/").removesuffix(".py")


def test_every_path_named_exists() -> None:
    named = paths(DOC.read_text("utf-8"))
    assert "schema_compat/rules/unions.py" in named and "tests/rules/CODE.yaml" in named
    assert [p for p in named if not exists(p)] == []


def test_every_package_name_cited_is_defined() -> None:
    cited = names(DOC.read_text("utf-8"))
    assert {"make_ruleset", "NodeContext.is_root", "detect_one_of_in_strict"} <= set(cited)
    assert [n for n in cited if not defined(n)] == []


def test_every_package_and_rules_module_is_on_the_map() -> None:
    """A newcomer finds every package, every top-level module and every module of `rules/`
    on the map."""
    named = {_module(p) for p in paths(DOC.read_text("utf-8"))}
    root = REPO / "schema_compat"
    packages = {f"schema_compat/{p.parent.name}" for p in root.glob("*/__init__.py")}
    modules = {f"schema_compat/{p.stem}" for p in root.glob("*.py") if p.stem != "__init__"}
    rules = {f"schema_compat/rules/{p.stem}" for p in (root / "rules").glob("*.py")
             if p.stem != "__init__"}
    assert sorted((packages | modules | rules) - named) == []


def test_the_house_is_drawn_as_test_layers_holds_it() -> None:
    """The table of layers, top first, is test_layers' LAYERS upside down: a newcomer reads
    which way imports go from the table the test enforces."""
    from test_layers import LAYERS

    house = DOC.read_text("utf-8").split("## The house", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in house.splitlines() if line.startswith("| `")]
    drawn = [{_module(p).removeprefix("schema_compat/") for p in paths(row)} for row in rows]
    assert drawn == LAYERS[::-1]


def test_the_checks_catch_what_they_are_for() -> None:
    text = ("`schema_compat/nowhere.py` `tests/rules/CODE.yaml` `RuleSet.nowhere` `no_such_fn` "
            "`anyOf` `--lossless-only`\n```\n`schema_compat/in_a_block.py`\n```\n")
    assert paths(text) == ["schema_compat/nowhere.py", "tests/rules/CODE.yaml"]
    assert [exists(p) for p in paths(text)] == [False, True]
    assert exists("schema_compat/engine") and exists("schema_compat/rules/")
    assert _module("schema_compat/rules/") == _module("schema_compat/rules")
    assert names(text) == ["RuleSet.nowhere", "no_such_fn"]
    assert not defined("RuleSet.nowhere") and not defined("no_such_fn")
    assert defined("make_ruleset") and defined("Rule.triggers")
