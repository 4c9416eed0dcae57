"""The resolver's shortcuts past jsonref and urldefrag: a plain pointer and a local
`#...` reference must come out exactly as those libraries would resolve and split them."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from schema_compat.schema.pointer import resolve_pointer


def _through_jsonref(document: Any, fragment: str) -> Any:
    """What jsonref alone makes of a pointer (the shortcut for plain keys bypassed)."""
    import jsonref

    def refuse(uri: str) -> Any:
        raise LookupError(uri)

    proxy = jsonref.JsonRef({"$ref": "#" + fragment}, base_uri="", loader=refuse,
                            load_on_repr=False, _store=jsonref.URIDict({"": document}))
    try:
        return proxy.__subject__
    except jsonref.JsonRefError:
        return LookupError


KEYS = st.sampled_from(["a", "$defs", "", " ", "a b", "é", "1", "0", "x?y", "#", ".", "..",
                        "&=", "a;b", "[", "*"])
DOCS = st.recursive(st.one_of(st.none(), st.integers(0, 3), KEYS),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(KEYS, inner, max_size=4)),
                    max_leaves=12)


@given(DOCS, st.lists(KEYS, min_size=1, max_size=4))
def test_a_plain_pointer_resolves_as_jsonref_resolves_it(document: Any, steps: list[str]) -> None:
    fragment = "/" + "/".join(steps)
    try:
        ours: Any = resolve_pointer(document, fragment)
    except LookupError:
        ours = LookupError
    theirs = _through_jsonref(document, fragment)
    if theirs is not LookupError and isinstance(theirs, str) and ours is LookupError:
        return  # a step into a string: jsonref indexes it, a pointer does not (checked above)
    if any(s.startswith("-") or (s.isdigit() and len(s) > 1 and s[0] == "0") for s in steps):
        return  # refused before jsonref is asked (checked above)
    assert ours is theirs


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12))
def test_a_local_reference_splits_as_urldefrag_splits_it(text: str) -> None:
    """The resolver splits a printable `#...` reference itself instead of through
    urldefrag; that must be exactly what urldefrag would give."""
    from urllib.parse import urldefrag

    ref = "#" + text
    if ref.isprintable():
        assert tuple(urldefrag(ref)) == ("", text)
