"""A schema's `pattern` run against text nobody vouches for, in bounded time.

A server's `pattern` and `patternProperties` meet a model's arguments (`repair`, the proxy)
and the server's own property names (a merge). Python's `re` backtracks: `^(a+)+$` against 26
`a`s and a `!` takes half a minute, twice that with each further character, and nothing can
interrupt it. RE2 (the `google-re2` package) runs in time linear in the text, so every such
match goes through `search` here, and a pattern RE2 cannot run (a lookaround, a
backreference) is never handed to `re` instead: `PatternUnchecked` says so, and the caller
reports it as not checked.

JSON Schema patterns are ECMA-262 regular expressions, whose syntax RE2 mostly shares, and
whose `\\d`, `\\w`, `\\b` and `$` mean what RE2's do (ASCII classes, `$` at the very end;
`\\s` and `.` differ only at rare separators: RE2's `\\s` leaves out U+00A0 and kin).
The one spelling rewritten is ECMA's `\\uXXXX` (a surrogate pair of them, and `\\u{...}`),
RE2's `\\x{...}`. A lone surrogate in the text is read as U+FFFD: RE2 reads UTF-8, which has
no surrogates.
"""

from __future__ import annotations

import re

__all__ = ["PatternUnchecked", "search"]

_SURROGATE = re.compile(r"[\ud800-\udfff]")  # raw: mypyc takes no surrogate literal
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")
_BRACED = re.compile(r"\{([0-9A-Fa-f]{1,6})\}")


class PatternUnchecked(ValueError):
    """A pattern that was not run: RE2 cannot run it, or RE2 is not installed."""

    def __init__(self, pattern: object, reason: str) -> None:
        super().__init__(f"pattern {pattern!r} cannot be checked in bounded time, so it was "
                         f"not run: {reason}")
        self.pattern = pattern
        self.reason = reason


def search(pattern: object, text: str) -> bool:
    """Whether `pattern` matches somewhere in `text` (JSON Schema's `pattern`), in time
    linear in the text. Raises `PatternUnchecked` for a pattern it cannot run so."""
    if not isinstance(pattern, str):
        raise PatternUnchecked(pattern, "it is not a string")
    try:
        import re2  # google-re2: imported here, so that check and transform never load it
    except ImportError:
        raise PatternUnchecked(pattern, "the google-re2 package is not installed") from None
    options = re2.Options()
    options.log_errors = False  # RE2 would write each refused pattern to our stderr
    try:
        compiled = re2.compile(_re2_syntax(pattern), options)
    except (re2.error, UnicodeEncodeError) as exc:
        raise PatternUnchecked(pattern, f"RE2 cannot run it ({_reason(exc)})") from None
    return compiled.search(_SURROGATE.sub("\ufffd", text)) is not None


def _re2_syntax(pattern: str) -> str:
    """ECMA-262 `\\uXXXX`, a surrogate pair of them, and `\\u{X...}` written as RE2's
    `\\x{X...}`; everything else as it was (RE2 refuses what it cannot read)."""
    if "\\u" not in pattern:
        return pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char != "\\" or i + 1 >= len(pattern):
            out.append(char)
            i += 1
            continue
        if pattern[i + 1] != "u":  # another escape, kept whole (`\\u` after `\\\\` is text)
            out.append(pattern[i:i + 2])
            i += 2
            continue
        braced = _BRACED.match(pattern, i + 2)
        unit = _HEX4.fullmatch(pattern, i + 2, i + 6)
        if braced:
            out.append(f"\\x{{{braced.group(1)}}}")
            i = braced.end()
        elif unit:
            code = int(unit.group(), 16)
            low = _HEX4.fullmatch(pattern, i + 8, i + 12) \
                if pattern.startswith("\\u", i + 6) else None
            if 0xD800 <= code < 0xDC00 and low and 0xDC00 <= int(low.group(), 16) < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + (int(low.group(), 16) - 0xDC00)
                i += 12
            else:
                i += 6
            out.append(f"\\x{{{code:X}}}")
        else:
            out.append(pattern[i:i + 2])  # RE2 refuses a bare `\\u`, as ECMA's u-mode does
            i += 2
    return "".join(out)


def _reason(exc: Exception) -> str:
    if isinstance(exc, UnicodeEncodeError):
        return "it holds a lone surrogate"
    detail = exc.args[0] if exc.args else ""
    text = detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    return text or type(exc).__name__
