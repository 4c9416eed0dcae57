"""An object with very many properties is checked and transformed in work that grows with
the number of properties, not its square: `required` is looked up in a set, not searched
as a list for each property (issue 28, point 8: 200,000 properties took half a minute).

The work is counted, not timed: each comparison of a property name with another name."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from schema_compat.api import check, transform


class Name(str):
    """A property name that counts how often it is compared for equality."""

    compared: ClassVar[int] = 0

    def __eq__(self, other: object) -> bool:
        Name.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _wide(n: int) -> dict[str, Any]:
    props = {Name(f"p{i}"): {"type": "string"} for i in range(n)}
    # distinct objects from the keys: a list search compares each name it passes
    required = [Name(f"p{i}") for i in range(0, n, 2)]
    return {"name": "wide", "description": "A tool with many properties.",
            "inputSchema": {"type": "object", "properties": props, "required": required,
                            "additionalProperties": False}}


# Half the properties are optional: OpenAI's strict mode wants them required (and
# nullable); Anthropic's allows 24 optional parameters in a request.
@pytest.mark.parametrize(("provider", "finding"), [("openai-strict", "OBJ009"),
                                                   ("anthropic-strict", "LIM004")])
def test_optional_properties_of_a_wide_object_are_counted_in_linear_work(
        provider: str, finding: str) -> None:
    n = 2000
    tool = _wide(n)
    Name.compared = 0
    report = check([tool], provider)
    assert finding in {f.code for f in report.results[0].findings}
    assert Name.compared < 5 * n, Name.compared  # a list searched per name: ~n²/4
    Name.compared = 0
    (result,) = transform([tool], provider)
    if provider == "openai-strict":
        assert len(result.transformed_schema["required"]) == n
    assert Name.compared < 5 * n, Name.compared
