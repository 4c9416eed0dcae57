"""jsonschema validation of a model's arguments, with every pattern run in bounded time.

jsonschema's `pattern`, `patternProperties`, `additionalProperties` and
`unevaluatedProperties` run the schema's patterns with Python's backtracking `re`, so a
server's `"pattern": "^(a+)+$"` and a model's 26 `a`s and a `!` stall `repair` and the
proxy for half a minute. The validator made here replaces those four keywords with the same
logic over `schema.patterns.search` (RE2, linear time); a pattern RE2 cannot run is reported
as a validation error naming it ("cannot be checked in bounded time"), never run. Every
other keyword is jsonschema's own, for the draft the schema declares.

Validation uses an empty `referencing` registry: only references inside the schema resolve,
nothing is ever fetched or read from disk. Imported by `repair_args`, `evolution` and the
proxy only, so the check/transform path never loads jsonschema. Only jsonschema's and
`referencing`'s public names are used (tests/test_layers.py): jsonschema keeps the resolver
it follows references with private, so `repair_args` follows them with `Document`'s, made
the same way, and `unevaluatedProperties` has jsonschema follow them (`_referenced`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from jsonschema.exceptions import ValidationError

from .schema.patterns import PatternUnchecked, search

__all__ = ["Document", "validator"]


def validator(schema: dict[str, Any]) -> Any:
    """A jsonschema validator for `schema`, of the draft its `$schema` names, whose
    patterns run in bounded time, resolving references inside the schema only. Each keyword
    hands a `_Probe` instance to the probe (`_referenced`) instead of validating it."""
    from jsonschema.validators import extend, validator_for
    from referencing import Registry

    base = validator_for(schema)
    # The draft is read here and the validator's root does not name it: jsonschema validates
    # a subschema naming a draft (`$schema`) with that draft's own class, whose patterns run
    # on `re`, and `{"$ref": "#"}` leads back to the root.
    root = {key: value for key, value in schema.items() if key != "$schema"}
    ours = {"pattern": _pattern, "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
            "unevaluatedProperties": partial(_unevaluated_properties, Document(root, base))}
    keywords = {**base.VALIDATORS, **{k: f for k, f in ours.items() if k in base.VALIDATORS}}
    cls = extend(base, {k: partial(_probed, f) for k, f in keywords.items()})
    return cls(root, registry=Registry())


def _referenced(validator: Any, keyword: str, ref: Any) -> Any:
    """The validator jsonschema makes for what `ref` points to, seen from where `validator`
    stands (its `$id` scope and the dynamic scope, which only jsonschema knows), or None when
    the target has no keyword or names a draft (`$schema`: jsonschema then uses a class of
    its own, whose keywords are not `_probed`). Raises what jsonschema raises for a
    reference it cannot resolve.

    jsonschema follows the reference itself: a `_Probe` is validated against `{"$ref": ref}`
    (`$recursiveRef` for that keyword) and the target's first keyword hands over the
    validator it was called with."""
    probe = _Probe({"$recursiveRef" if keyword == "$recursiveRef" else "$ref": ref})
    for _ in validator.descend(probe, probe.wrapper):
        pass
    return probe.target


class _Probe:
    def __init__(self, wrapper: dict[str, Any]) -> None:
        self.wrapper = wrapper
        self.target: Any = None


def _probed(keyword: Any, validator: Any, value: Any, instance: Any, schema: Any) -> Any:
    """`keyword`, except for a `_Probe`: its wrapper's `$ref` is followed, and the first
    keyword reached beyond it records its validator; nothing is validated."""
    if not isinstance(instance, _Probe) or schema is instance.wrapper:
        return keyword(validator, value, instance, schema)
    if instance.target is None:
        instance.target = validator
    return ()


class Document:
    """`schema` as `referencing` sees it, to follow its references as jsonschema's validators
    of `validator_class` do: `root` is the resolver a validator of `schema` starts from (the
    schema as the root resource beside the drafts' meta-schemas, nothing fetched),
    `scope(subschema)` the one jsonschema reaches a subschema with through the `$id`s above
    it, `inside` the one it descends with. Not the dynamic scope (the resources jsonschema's
    references passed through, which `$dynamicRef` consults): only jsonschema knows that."""

    def __init__(self, schema: dict[str, Any], validator_class: Any) -> None:
        from jsonschema_specifications import REGISTRY
        from referencing import Registry, Specification
        from referencing.jsonschema import specification_with

        meta = validator_class.META_SCHEMA
        self.draft = specification_with(validator_class.ID_OF(meta) or "urn:unknown-dialect",
                                        default=Specification.OPAQUE)
        resource = self.draft.create_resource(schema)
        self.root: Any = REGISTRY.combine(Registry()).resolver_with_root(resource)
        self.resource = resource
        self.scopes: dict[int, Any] | None = None  # id(subschema): resolver, on first use

    def scope(self, schema: Any) -> Any:
        if self.scopes is None:
            self.scopes = {}
            todo = [(self.resource, self.root)]
            while todo:
                resource, resolver = todo.pop()
                self.scopes.setdefault(id(resource.contents), resolver)
                todo += [(sub, resolver.in_subresource(sub)) for sub in resource.subresources()]
        return self.scopes.get(id(schema), self.root)

    def inside(self, resolver: Any, schema: Any) -> Any:
        """The resolver jsonschema descends into `schema` with from `resolver`."""
        return resolver.in_subresource(self.draft.create_resource(schema))


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


def _unevaluated_properties(document: Document, validator: Any, unevaluated: Any,
                            instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(document, validator, None, instance, schema)
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


def _evaluated_keys(document: Document, validator: Any, resolver: Any,
                    instance: dict[str, Any], schema: Any) -> set[str]:
    """The names some keyword of `schema` evaluates: jsonschema's own walk for draft
    2020-12's `unevaluatedProperties` (and 2019-09's, with its `$recursiveRef`), its patterns
    matched by `_matches`, references followed from `resolver` or, while it is None, by
    jsonschema from where `validator` stands."""
    if not isinstance(schema, dict):
        return set()

    def valid(value: Any, subschema: Any, scoped: bool = True) -> bool:
        """As jsonschema's keywords ask: into `subschema`'s `$id` scope, except for `if`."""
        if resolver is None:
            return bool(validator.evolve(schema=subschema).is_valid(value)) if not scoped \
                else _is_valid(validator.descend(value, subschema))
        inner = document.inside(resolver, subschema) if scoped else resolver
        return _is_valid(validator.descend(value, subschema, resolver=inner))

    def evaluated(subschema: Any) -> set[str]:
        return _evaluated_keys(document, validator, resolver, instance, subschema)

    keys: set[str] = set()
    for ref_keyword in ("$ref", "$dynamicRef", "$recursiveRef"):
        ref = schema.get(ref_keyword)
        if ref is not None and (ref_keyword != "$recursiveRef"
                                or ref_keyword in validator.VALIDATORS):  # 2019-09 only
            keys |= _referenced_keys(document, validator, resolver, instance, ref_keyword,
                                     ref)
    properties = schema.get("properties")
    if isinstance(properties, dict):
        keys |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        subschema = schema.get(keyword)
        if subschema is not None:
            keys |= {key for key, value in instance.items() if valid(value, subschema)}
    for pattern in schema.get("patternProperties", {}):
        keys |= {key for key in instance if _matches(pattern, key)}
    for name, subschema in schema.get("dependentSchemas", {}).items():
        if name in instance:
            keys |= evaluated(subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if valid(instance, subschema):
                keys |= evaluated(subschema)
    if "if" in schema:
        if valid(instance, schema["if"], scoped=False):
            keys |= evaluated(schema["if"])
            if "then" in schema:
                keys |= evaluated(schema["then"])
        elif "else" in schema:
            keys |= evaluated(schema["else"])
    return keys


def _referenced_keys(document: Document, validator: Any, resolver: Any,
                     instance: dict[str, Any], keyword: str, ref: Any) -> set[str]:
    """`_evaluated_keys` of what `ref` points to. jsonschema follows it while `validator`'s
    own resolver applies (`_referenced`); `Document` does from a target jsonschema gives a
    class of its own (`$schema`), where `_referenced` cannot see."""
    if resolver is None:
        target = _referenced(validator, keyword, ref)
        if target is not None:
            return _evaluated_keys(document, target, None, instance, target.schema)
        resolver = document.scope(validator.schema)
    if keyword == "$recursiveRef":
        from referencing.jsonschema import lookup_recursive_ref

        resolved = lookup_recursive_ref(resolver)
    else:  # jsonschema resolves `$dynamicRef` as it does `$ref`
        resolved = resolver.lookup(ref)
    return _evaluated_keys(document, validator, resolved.resolver, instance, resolved.contents)


def _is_valid(errors: Iterator[Any]) -> bool:
    return next(errors, None) is None
