"""The package's layers (docs/architecture.md): a module imports only from its own layer or
those below, and never another module's private (`_name`) names.

Read from the source (every `import` and `from ... import`, those under TYPE_CHECKING and
inside functions included), so a new offender fails here with its file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "schema_compat"

# Lowest first; a top-level module or package of schema_compat/ per name.
LAYERS: list[set[str]] = [
    {"model", "console", "signals"},
    {"paths", "jsonio", "mcp_tool"},
    {"schema", "validation", "structural_diff"},
    {"profiles"},
    {"rules"},
    {"engine", "repair_args", "baseline", "explain", "evolution"},
    {"extract"},
    {"output"},
    {"requests"},
    {"report"},
    {"options", "settings"},
    {"proxy"},
    {"commands"},
    {"playground"},
    {"api", "cli", "docs", "entry", "__main__"},
]
LAYER = {name: level for level, names in enumerate(LAYERS) for name in names}

def _imports() -> list[tuple[str, str, str, int]]:
    """(importing module, imported module, name or "", line) for each import of our own."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] \
                    if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:  # `from . import options`: the module itself
                    sub = f"{target}.{alias.name}"
                    if (PACKAGE.parent / sub.replace(".", "/")).with_suffix(".py").exists() \
                            or (PACKAGE.parent / sub.replace(".", "/")).is_dir():
                        found.append((module, sub, "", node.lineno))
                    else:
                        found.append((module, target, alias.name, node.lineno))
            elif isinstance(node, ast.Import):
                found += [(module, alias.name, "", node.lineno) for alias in node.names]
    return [row for row in found if row[1].split(".")[0] == "schema_compat"]


def _top(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def test_every_top_level_module_has_a_layer() -> None:
    names = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    assert names == set(LAYER)


def test_layers_import_only_downward() -> None:
    offenders = []
    for module, target, name, line in _imports():
        source, dest = _top(module), _top(target)
        if not dest:  # the package root: its version only
            if name != "__version__" and source:
                offenders.append(f"{module}:{line} imports {name} from the package root")
            continue
        if not source or LAYER[dest] <= LAYER[source]:
            continue
        offenders.append(f"{module}:{line} imports {target} (layer {LAYER[dest]} above "
                         f"{LAYER[source]})")
    assert offenders == []


def test_no_private_name_is_imported_from_another_module() -> None:
    offenders = [f"{module}:{line} imports {name} from {target}"
                 for module, target, name, line in _imports()
                 if name.startswith("_") and not name.startswith("__") and target != module]
    assert offenders == []


NAMEDTUPLE = {"_replace", "_asdict", "_fields", "_make"}  # public, underscore or not
DOCUMENTED = {"os._exit"}  # the standard library's, documented with its underscore
# Left, to be removed: jsonref reads a pointer in a document in memory only through its
# private `_store` (its public `resolve_pointer` is proxied to the referent, which it loads)
LEFT = {"schema_compat/schema/pointer.py passes _store="}
# jsonschema exposes no public resolver for a validator's current scope (its `$id`s and the
# dynamic scope); its own keywords read `_resolver` and evolve with `_resolver=` the same way
# (`_utils.find_evaluated_property_keys_by_schema`), and so do these, following references.
JSONSCHEMA = {"schema_compat/validation.py reads validator._resolver",
              "schema_compat/validation.py passes _resolver=",
              "schema_compat/repair_args.py reads repairer.validator._resolver"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_other_package_is_used_through_its_private_names() -> None:
    """No module or name with a leading underscore is imported from another package (the MCP
    SDK, jsonschema, typer...: a private name may change in any release), no `_keyword=` is
    passed, and no module reads an `_attribute` of any object but `self` or `cls`: one of
    another package, or one another module made. Our own modules' private names are the test
    above's."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                pairs = [(alias.name, "") for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                pairs = [(node.module or "", alias.name) for alias in node.names]
            elif isinstance(node, ast.keyword) and node.arg and _private(node.arg):
                if f"{where} passes {node.arg}=" not in LEFT | JSONSCHEMA:
                    offenders.append(f"{where}:{node.lineno} passes {node.arg}=")
                continue
            elif isinstance(node, ast.Attribute) and _private(node.attr) \
                    and node.attr not in NAMEDTUPLE and ast.unparse(node) not in DOCUMENTED \
                    and not (isinstance(node.value, ast.Name)
                             and node.value.id in ("self", "cls")):
                if f"{where} reads {ast.unparse(node)}" not in JSONSCHEMA:
                    offenders.append(f"{where}:{node.lineno} reads {ast.unparse(node)}")
                continue
            else:
                continue
            offenders += [f"{where}:{node.lineno} imports {module} {name}".rstrip()
                          for module, name in pairs
                          if module.split(".")[0] != "schema_compat"
                          and any(_private(part) for part in [*module.split("."), name])]
    assert offenders == []
