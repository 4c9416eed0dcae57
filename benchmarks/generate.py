"""Benchmark inputs, generated deterministically (a fixed seed) into a cache directory.

Nothing here is committed: the 10,000-tool file is about 50 MB. Every generator is a pure
function of its arguments, so two runs on two machines measure the same bytes.

- `pydantic_style_schema`: what a Pydantic model's `model_json_schema()` looks like — several
  `$defs`, `$ref`s in properties and in array `items`, `anyOf: [X, {"type": "null"}]` for
  optional fields, titles, defaults, enums, descriptions, formats and bounds.
- `tools_file`: an MCP `tools/list` result of N such tools, sized to ~5 kB a tool.
- `ref_dag_bomb`: a few kB of `$defs` where each level refers twice to the one below, so
  inlining would produce 2**depth copies.
- `deep_schema`: properties nested N levels deep.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

CACHE_DIR = Path(os.environ.get("SCHEMA_COMPAT_BENCH_DIR",
                                Path(__file__).resolve().parent.parent / ".cache" / "bench"))

_WORDS = (
    "path", "account", "region", "query", "limit", "cursor", "owner", "label", "status",
    "priority", "window", "retries", "timeout", "format", "locale", "channel", "target",
    "source", "pattern", "branch", "commit", "message", "title", "body", "reviewer",
    "assignee", "milestone", "project", "bucket", "prefix",
)


def _field(rng: random.Random, name: str, defs: list[str]) -> dict[str, Any]:
    """One property in the shapes Pydantic emits, chosen at random."""
    title = name.replace("_", " ").title()
    desc = f"The {name.replace('_', ' ')} to use for this request; see the API reference."
    kind = rng.randrange(9)
    if kind == 0:
        return {"title": title, "type": "string", "description": desc}
    if kind == 1:
        return {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 1000}, {"type": "null"}],
                "default": None, "title": title, "description": desc}
    if kind == 2:
        return {"title": title, "type": "string", "enum": rng.sample(_WORDS, 4),
                "default": None, "description": desc}
    if kind == 3 and defs:
        return {"$ref": f"#/$defs/{rng.choice(defs)}", "description": desc}
    if kind == 4 and defs:
        return {"title": title, "type": "array", "items": {"$ref": f"#/$defs/{rng.choice(defs)}"},
                "description": desc}
    if kind == 5 and defs:
        return {"anyOf": [{"$ref": f"#/$defs/{rng.choice(defs)}"}, {"type": "null"}],
                "default": None, "title": title}
    if kind == 6:
        return {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}],
                "default": None, "title": title, "description": desc}
    if kind == 7:
        return {"title": title, "type": "array", "items": {"type": "string"},
                "minItems": 1, "uniqueItems": True, "description": desc}
    return {"title": title, "type": "boolean", "default": False, "description": desc}


def _model(rng: random.Random, name: str, n_fields: int, defs: list[str]) -> dict[str, Any]:
    names = rng.sample(_WORDS, n_fields)
    props = {f: _field(rng, f, defs) for f in names}
    required = [f for f in names if "default" not in props[f]]
    model: dict[str, Any] = {"title": name, "type": "object", "properties": props,
                             "description": f"{name}: one part of the request."}
    if required:
        model["required"] = required
    return model


def pydantic_style_schema(seed: int, n_defs: int = 4, n_fields: int = 6) -> dict[str, Any]:
    """A tool input schema like Pydantic's output, ~3.5 kB with the defaults."""
    rng = random.Random(seed)
    names = [f"Model{seed}_{i}" for i in range(n_defs)]
    defs: dict[str, Any] = {}
    for i, name in enumerate(names):  # a def may refer only to later ones: a DAG, no cycles
        defs[name] = _model(rng, name, max(3, n_fields // 2), names[i + 1:])
    root = _model(rng, f"Args{seed}", n_fields, names)
    root["$defs"] = defs
    return root


def pydantic_schemas(count: int = 300) -> list[dict[str, Any]]:
    return [pydantic_style_schema(seed) for seed in range(count)]


def tool(seed: int, n_defs: int = 4, n_fields: int = 8) -> dict[str, Any]:
    return {"name": f"tool_{seed}", "description": f"Generated benchmark tool number {seed}.",
            "inputSchema": pydantic_style_schema(seed, n_defs, n_fields)}


def tools_file(count: int) -> Path:
    """An MCP tools/list result of `count` tools (~5 kB each), written once and cached."""
    path = CACHE_DIR / f"tools-{count}.json"
    if not path.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            json.dump({"tools": [tool(i) for i in range(count)]}, fh)
        tmp.replace(path)
    return path


def one_tool_file() -> Path:
    """The cold-start input: one real-shaped tool (the example fs server's read_files)."""
    path = CACHE_DIR / "one-tool.json"
    if not path.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        example = Path(__file__).resolve().parent.parent / "examples" / "fs_read_files.json"
        first = json.loads(example.read_text(encoding="utf-8"))["tools"][0]
        path.write_text(json.dumps({"tools": [first]}), encoding="utf-8")
    return path


def ref_dag_bomb(depth: int = 40) -> dict[str, Any]:
    """Each def refers twice to the one below: 2**depth nodes once inlined, < 5 kB as written."""
    defs: dict[str, Any] = {f"D{i}": {"type": "object", "properties": {
        "a": {"$ref": f"#/$defs/D{i - 1}"}, "b": {"$ref": f"#/$defs/D{i - 1}"}}}
        for i in range(1, depth)}
    defs["D0"] = {"type": "string"}
    return {"type": "object", "properties": {"x": {"$ref": f"#/$defs/D{depth - 1}"}},
            "$defs": defs}


def ref_chain(links: int) -> dict[str, Any]:
    """A property naming `d0`, which names `d1`, ..., which names a string: a chain of
    references as long as asked, however shallow the document."""
    defs: dict[str, Any] = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(links)}
    defs[f"d{links}"] = {"type": "string"}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}


def big_enum(values: int) -> dict[str, Any]:
    """One string property with an `enum` of `values` values."""
    return {"type": "object", "properties": {"x": {"type": "string", "enum": [
        f"v{i}" for i in range(values)]}}}


def wide_object(properties: int) -> dict[str, Any]:
    """An object of `properties` optional string properties, each described."""
    return {"type": "object", "properties": {
        f"p{i}": {"type": "string", "description": f"Field {i}."} for i in range(properties)}}


def deep_schema(depth: int) -> dict[str, Any]:
    """`properties` nested `depth` levels deep (built without recursion)."""
    node: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        node = {"type": "object", "properties": {"x": node}}
    return node


def deep_file(depth: int) -> Path:
    """A one-tool listing whose schema is `deep_schema(depth)`, written as text (json.dumps
    itself would recurse too deep)."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    path = CACHE_DIR / f"deep-{depth}.json"
    opening = '{"type": "object", "properties": {"x": '
    body = opening * depth + '{"type": "string"}' + "}}" * depth
    path.write_text('{"tools": [{"name": "deep", "inputSchema": ' + body + "}]}",
                    encoding="utf-8")
    return path


def write_json(name: str, value: Any) -> Path:
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    path = CACHE_DIR / name
    path.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": value}]}),
                    encoding="utf-8")
    return path


if __name__ == "__main__":
    sizes = [len(json.dumps(s)) for s in pydantic_schemas()]
    print(f"300 schemas: mean {sum(sizes) / len(sizes):.0f} B, min {min(sizes)}, max {max(sizes)}")
    for n in (1_000, 5_000, 10_000):
        p = tools_file(n)
        print(f"{p}: {p.stat().st_size / 1e6:.1f} MB")
