"""jsonschema validation of a model's arguments, with every pattern run in bounded time.

jsonschema's `pattern`, `patternProperties`, `additionalProperties` and
`unevaluatedProperties` run the schema's patterns with Python's backtracking `re`, so a
server's `"pattern": "^(a+)+$"` and a model's 26 `a`s and a `!` stall `repair` and the
proxy for half a minute. The validator made here replaces those four keywords with the same
logic over `schema.patterns.search` (RE2, linear time); a pattern RE2 cannot run is reported
as a validation error naming it ("cannot be checked in bounded time"), never run. Every
other keyword is jsonschema's own, for the draft the root declares (`_without_drafts`).

Validation uses an empty `referencing` registry: only references inside the schema resolve,
nothing is ever fetched or read from disk. Imported by `repair_args`, `evolution` and the
proxy only, so the check/transform path never loads jsonschema.

A validator's `_resolver` (the `referencing` resolver of the scope it stands in) is read here
and in `repair_args`, the one private name of jsonschema used: jsonschema exposes no public
resolver for a validator's current scope, and its own keywords read it the same way.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from jsonschema.exceptions import ValidationError
from referencing.jsonschema import lookup_recursive_ref

from .schema.patterns import PatternUnchecked, search
from .schema.refs import local_target
from .schema.walker import children

__all__ = ["validator"]


def validator(schema: dict[str, Any]) -> Any:
    """A jsonschema validator for `schema`, of the draft its `$schema` names, whose
    patterns run in bounded time, resolving references inside the schema only."""
    from jsonschema.validators import extend, validator_for
    from referencing import Registry

    base = validator_for(schema)
    ours = {"pattern": _pattern, "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
            "unevaluatedProperties": _unevaluated_properties}
    cls = extend(base, {k: f for k, f in ours.items() if k in base.VALIDATORS})
    return cls(_without_drafts(schema), registry=Registry())


def _without_drafts(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of `schema` without its `$schema` keywords: the root's (read by `validator`)
    and every subschema's (`_subschemas`; a property named `$schema`, and `const`, `enum`,
    `default` and `examples` data, are left as written).

    jsonschema validates a subschema naming a draft with that draft's own class, whose
    patterns run on Python's backtracking `re`: a server's `^(a+)+$` there, or under a
    `{"$ref": "#"}` back to a root naming its draft, stalls for minutes. Without the keyword
    every subschema is read in the root's draft, with bounded patterns. That is the safe
    choice: a tool's arguments are one instance validated against one schema, and the drafts
    differ in a few keywords only (`items` as a list, `$ref` beside other keywords), where
    reading the root's draft can only change a verdict on a schema that mixes drafts, never
    make a pattern run unbounded. Where no subschema names a draft, only the root's keys
    are copied: such a schema validates exactly as before.
    """
    root = {key: value for key, value in schema.items() if key != "$schema"}
    if not any("$schema" in node for node in _subschemas(root)):
        return root
    root = copy.deepcopy(root)
    for node in _subschemas(root):
        node.pop("$schema", None)
    return root


def _subschemas(root: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object subschema of `root` the walker walks, and every one a local pointer
    `$ref` (`#/...`) names, with theirs: a pointer may name a node the walker does not know
    as a schema (below a vendor keyword such as `x-defs`), which jsonschema validates with.
    A pointer is read in the document and in the nearest resource with an `$id` (its base
    in drafts 2019-09 and later)."""
    found: dict[int, dict[str, Any]] = {}
    todo: list[tuple[Any, dict[str, Any]]] = [(root, root)]
    while todo:
        node, base = todo.pop()
        if not isinstance(node, dict) or id(node) in found:
            continue
        found[id(node)] = node
        if isinstance(node.get("$id"), str):
            base = node
        todo += [(local_target(node, root), base), (local_target(node, base), base)]
        todo += [(child, base) for _, child in children(node)]
    return list(found.values())


def _matches(pattern: Any, name: str) -> bool:
    """Whether a `patternProperties` pattern claims `name`; one that cannot be checked does,
    so that the keyword reports it once (`_pattern_properties`) and nothing else counts the
    name as unclaimed."""
    try:
        return search(pattern, name)
    except PatternUnchecked:
        return True


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "string"):
        return
    try:
        found = search(pattern, instance)
    except PatternUnchecked as exc:
        yield ValidationError(str(exc))
        return
    if not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any,
                        schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            try:
                found = search(pattern, key)
            except PatternUnchecked as exc:
                yield ValidationError(f"property name {key!r}: {exc}", path=(key,))
                continue
            if found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _extras(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The names neither `properties` nor a `patternProperties` pattern claims."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [key for key in instance
            if key not in properties and not any(_matches(p, key) for p in patterns)]


def _additional_properties(validator: Any, extra: Any, instance: Any,
                           schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    extras = _extras(instance, schema)
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif not extra and extras:
        names = ", ".join(repr(key) for key in sorted(extras))
        if "patternProperties" in schema:
            patterns = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            verb = "does" if len(extras) == 1 else "do"
            yield ValidationError(f"{names} {verb} not match any of the regexes: {patterns}")
        else:
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(f"Additional properties are not allowed ({names} {verb} "
                                  "unexpected)")


def _unevaluated_properties(validator: Any, unevaluated: Any, instance: Any,
                            schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    rejected = [key for key in instance if key not in evaluated and
                not _is_valid(validator.descend(instance[key], unevaluated, path=key,
                                                schema_path=key))]
    if not rejected:
        return
    verb = "was" if len(rejected) == 1 else "were"
    if unevaluated is False:
        names = ", ".join(repr(key) for key in sorted(rejected))
        yield ValidationError(f"Unevaluated properties are not allowed ({names} {verb} "
                              "unexpected)")
    else:
        names = ", ".join(repr(key) for key in rejected)
        yield ValidationError("Unevaluated properties are not valid under the given schema "
                              f"({names} {verb} unevaluated and invalid)")


def _evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The names some keyword of `schema` evaluates: jsonschema's own walk for draft
    2020-12's `unevaluatedProperties` (`find_evaluated_property_keys_by_schema`), its
    patterns matched by `_matches`; draft 2019-09 uses it too, with its `$recursiveRef`."""
    if not isinstance(schema, dict):
        return set()
    keys: set[str] = set()
    for ref_keyword in ("$ref", "$dynamicRef", "$recursiveRef"):
        ref = schema.get(ref_keyword)
        if ref is not None and (ref_keyword != "$recursiveRef"
                                or ref_keyword in validator.VALIDATORS):  # 2019-09 only
            resolved = lookup_recursive_ref(validator._resolver) \
                if ref_keyword == "$recursiveRef" else validator._resolver.lookup(ref)
            keys |= _evaluated_keys(
                validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                instance, resolved.contents)
    properties = schema.get("properties")
    if isinstance(properties, dict):
        keys |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        subschema = schema.get(keyword)
        if subschema is not None:
            keys |= {key for key, value in instance.items()
                     if _is_valid(validator.descend(value, subschema))}
    for pattern in schema.get("patternProperties", {}):
        keys |= {key for key in instance if _matches(pattern, key)}
    for name, subschema in schema.get("dependentSchemas", {}).items():
        if name in instance:
            keys |= _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _is_valid(validator.descend(instance, subschema)):
                keys |= _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys |= _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys |= _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys |= _evaluated_keys(validator, instance, schema["else"])
    return keys


def _is_valid(errors: Iterator[Any]) -> bool:
    return next(errors, None) is None
