"""A provider's error message mapped back to the tool, the place in its schema and the rule
that covers it (`schema-compat explain`).

Providers name the failing place in their own words: Gemini by the index of the function
declaration and of each property (`properties[2].value`: the third entry of the map, in the
order the request carried them), OpenAI by the function's name and a Python tuple of keys,
Anthropic and Bedrock by the tool's index and dotted keys. The shapes are data: `SHAPES`
lists each error text understood (a regex, the provider, the profile whose rules apply, how
its path reads and which rules cover it). A path is resolved against the schemas that were
sent: the SOURCE as given when the tools were sent untransformed, or what transform (and the
proxy) send for the profile (`explain --sent transformed`). Then the check of that profile
is run, and the finding at (or nearest) that place is the rule; an error about the whole
request (too many tools) names its rule and the tools it flags.

The error text is untrusted: it is cut to `MAX_ERROR_CHARS` and every regex is linear (no
quantified group whose repetitions could match the same text two ways), so a hostile text
cannot stall the match.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from .model import Finding, Path, ToolDef, ToolResult
from .paths import resolve
from .schema.keywords import SCHEMA_MAP_KEYWORDS

MAX_ERROR_CHARS = 16_000

# How a shape's `path` group reads:
# - gemini: `parameters.properties[2].value.any_of[0]` (snake_case fields; `properties[N]`
#   followed by `.value` is the N-th map entry, `properties[key]` a key);
# - dotted: `input_schema.properties.q.type` (keys joined by dots; digits index a list);
# - elided: Vertex's `parameters.filter.items`, property names without `properties`;
# - context: OpenAI's `'properties', 'x', 'items'` (a Python tuple's items).
PathStyle = Literal["gemini", "dotted", "elided", "context"]

# The first segment of a path names the field the schema travels in, not a key inside it.
_ROOT_FIELDS = ("parameters_json_schema", "parametersJsonSchema", "parameters",
                "input_schema", "inputSchema", "json")


class Shape(NamedTuple):
    """One error text understood: its regex and how to read what it captures.

    Named groups: `index` (the tool's position in the request) or `name` (the tool's name);
    `group` (Gemini's `tools[T]`); `path` (read as `style` says); `kw` / `kw2` (the keyword
    the message blames, when the path stops at its node)."""

    name: str
    provider: str  # in words, for people
    profiles: tuple[str, ...]  # the first of these that exists is inferred
    pattern: re.Pattern[str]
    style: PathStyle = "dotted"
    # where the error lies: in a tool's schema, on a tool (its name, its description), or
    # on the whole request (how many tools; `codes` then name its rules)
    scope: Literal["schema", "tool", "request"] = "schema"
    keyword: str = ""  # the keyword blamed when the regex captures none
    codes: tuple[str, ...] = ()  # only findings of these rules cover it (none: any rule)


_NAME = r"(?P<name>[^'`\s]{1,256})"
_INDEX = r"(?P<index>\d{1,6})"
_GEM_TOOL = r"(?:request\.)?(?:GenerateContentRequest\.)?tools(?:\[(?P<group>\d{1,6})\])?" \
            r"\.function_declarations\[" + _INDEX + r"\]"
_VERTEX_DECL = (r"because `?" + _NAME
                + r"`? functionDeclaration `?(?P<path>parameters[^`\s]{0,4000})`?")
_GEM = ("gemini",)
_GEM_JSON = ("gemini-json",)
_OPENAI_STRICT = ("openai-strict",)
_OPENAI = ("openai",)
_ANTHROPIC = ("anthropic",)
_BEDROCK = ("bedrock", "openai")  # until a bedrock profile exists: its name and root rules
_VERTEX = ("vertex",)
# The rules of a root that is not `type: object`: a union, no type, another type, no schema.
_ROOT_TYPE = ("ROOT001", "ROOT002", "TYP007", "TYP009")
# Each item starts with its own character (a quote, a digit, a comma) and a number ends
# where its digits do, so the items of a text can be read one way only: linear.
_OPENAI_TUPLE = (r"\((?P<path>(?:'[^'\n]{0,256}'|\"[^\"\n]{0,256}\"|\d{1,6}(?!\d)|,\s?)"
                 r"{0,200})\)")


def _re(text: str) -> re.Pattern[str]:
    return re.compile(text)


SHAPES: tuple[Shape, ...] = (
    # --- Gemini API (the proto JSON parser and the semantic validator) ---
    Shape("gemini-unknown-field", "Gemini", _GEM, _re(
        r"Unknown name \"(?P<kw>[^\"\n]{1,128})\" at '" + _GEM_TOOL
        + r"\.(?P<path>[^'\n]{0,4000})'"), "gemini"),
    Shape("gemini-invalid-value", "Gemini", _GEM, _re(
        r"Invalid value at '" + _GEM_TOOL + r"\.(?P<path>[^'\n]{0,4000})'"), "gemini"),
    Shape("gemini-function-name", "Gemini", _GEM, _re(
        _GEM_TOOL + r"\.name\b"), scope="tool", keyword="name", codes=("NAM001",)),
    Shape("gemini-nesting-depth", "Gemini", _GEM, _re(
        r"FunctionDeclaration '" + _NAME + r"' in the request exceeds the maximum allowed "
        r"nesting depth"), codes=("LIM002",)),
    Shape("gemini-field", "Gemini", _GEM, _re(
        _GEM_TOOL + r"\.(?P<path>parameters[^\s:']{0,4000})"), "gemini"),
    Shape("gemini-json-ref-siblings", "Gemini (parametersJsonSchema)", _GEM_JSON, _re(
        r"schema at (?P<path>[^\s']{1,4000}) can only contain properties starting with '\$' "
        r"when \$ref is present"), codes=("REF007",)),
    Shape("gemini-json-undefined-ref", "Gemini (parametersJsonSchema)", _GEM_JSON, _re(
        r"reference to undefined schema at (?P<path>[^\s']{1,4000})"), codes=("REF005",)),
    # --- Vertex AI ("Unable to submit request because `fn` functionDeclaration ..."; the
    # literal before the name spares a search from trying a name at every character) ---
    Shape("vertex-missing-type", "Vertex AI", _VERTEX, _re(
        _VERTEX_DECL + r" schema didn't specify the schema type field"), "elided",
        keyword="type"),
    Shape("vertex-any-of-siblings", "Vertex AI", _VERTEX, _re(
        _VERTEX_DECL + r" schema specified other fields alongside any_of"), "elided",
        keyword="anyOf"),
    Shape("vertex-enum-type", "Vertex AI", _VERTEX, _re(
        _VERTEX_DECL + r" schema specified incorrect schema type field"), "elided",
        keyword="enum"),
    Shape("vertex-schema", "Vertex AI", _VERTEX, _re(_VERTEX_DECL), "elided"),
    Shape("vertex-root-type", "Vertex AI", _VERTEX, _re(
        r"because function parameters schema should be of type OBJECT"), keyword="type",
        codes=_ROOT_TYPE),
    # --- OpenAI (and the providers that answer in its words: DeepSeek, Groq) ---
    Shape("openai-strict-context", "OpenAI (strict)", _OPENAI_STRICT, _re(
        r"Invalid schema for function '" + _NAME + r"': In context=" + _OPENAI_TUPLE
        + r", '(?P<kw>[^'\n]{1,128})' (?:is required to be supplied|is not permitted)"),
        "context"),
    Shape("openai-context", "OpenAI", _OPENAI, _re(
        r"Invalid schema for function '" + _NAME + r"': In context=" + _OPENAI_TUPLE
        + r"(?:, (?:'(?P<kw>[^'\n]{1,128})'|\w{1,20} schema missing (?P<kw2>\w{1,64})))?"),
        "context"),
    Shape("openai-root", "OpenAI", _OPENAI, _re(
        r"Invalid schema for function '" + _NAME + r"': schema must (?:be a JSON Schema of "
        r"'type: \"object\"'|have type 'object')"), keyword="type", codes=_ROOT_TYPE),
    Shape("openai-schema", "OpenAI", _OPENAI, _re(
        r"Invalid schema for function '" + _NAME + r"'")),
    Shape("openai-tool-name", "OpenAI", _OPENAI, _re(
        r"Invalid 'tools\[" + _INDEX + r"\]\.(?:function\.)?name'"), scope="tool",
        keyword="name", codes=("NAM001",)),
    Shape("openai-tool-description", "OpenAI", _OPENAI, _re(
        r"Invalid 'tools\[" + _INDEX + r"\]\.(?:function\.)?description'"), scope="tool",
        keyword="description", codes=("NAM004",)),
    # --- Anthropic (also inside Bedrock's "The model returned the following errors") ---
    Shape("anthropic-root-union", "Anthropic", _ANTHROPIC, _re(
        r"tools\." + _INDEX + r"\.custom\.input_schema: input_schema does not support oneOf, "
        r"allOf, or anyOf at the top level"), codes=("ROOT001",)),
    Shape("anthropic-tool-name", "Anthropic", _ANTHROPIC, _re(
        r"tools\." + _INDEX + r"\.(?:custom|FrontendRemoteMcpToolDefinition)\.name\b"),
        scope="tool", keyword="name", codes=("NAM001",)),
    Shape("anthropic-root-type", "Anthropic", _ANTHROPIC, _re(
        r"tools\." + _INDEX + r"\.custom\.input_schema\.type: Field required"),
        keyword="type", codes=_ROOT_TYPE),
    Shape("anthropic-input-schema", "Anthropic", _ANTHROPIC, _re(
        r"tools\." + _INDEX + r"\.custom\.(?P<path>input_schema[^\s:]{0,4000})")),
    # --- AWS Bedrock Converse (ValidationException) ---
    Shape("bedrock-tool-name", "Bedrock", _BEDROCK, _re(
        r"toolConfig\.tools\." + _INDEX + r"\.(?:member\.)?toolSpec\.name\b"), scope="tool",
        keyword="name", codes=("NAM001",)),
    Shape("bedrock-root-type", "Bedrock", _BEDROCK, _re(
        r"toolConfig\.tools\." + _INDEX + r"\.(?:member\.)?toolSpec\.inputSchema\.json\.type "
        r"must be one of the following: object"), keyword="type", codes=_ROOT_TYPE),
    Shape("bedrock-input-schema", "Bedrock", _BEDROCK, _re(
        r"toolConfig\.tools\." + _INDEX
        + r"\.(?:member\.)?toolSpec\.inputSchema\.(?P<path>json[^\s:']{0,4000})")),
    # --- the whole request ---
    Shape("openai-too-many-tools", "OpenAI", _OPENAI, _re(
        r"Invalid 'tools': array too long"), scope="request", codes=("LIM001",)),
    Shape("gemini-too-many-declarations", "Gemini", _GEM, _re(
        r"At most \d{1,6} function declarations can be specified"), scope="request",
        codes=("LIM001",)),
    Shape("anthropic-strict-too-complex", "Anthropic (strict)", ("anthropic-strict",), _re(
        r"The compiled grammar is too large|Schema is too complex for compilation"),
        scope="request", codes=("LIM004",)),
    # --- Mistral ---
    Shape("mistral-function-name", "Mistral", ("mistral", "openai"), _re(
        r"Function name was (?P<name>\S{1,256}) but must be"), scope="tool", keyword="name",
        codes=("NAM001",)),
)


def understood() -> str:
    """The error shapes understood, in words, for the line an unrecognised text gets."""
    providers = dict.fromkeys(s.provider.split(" (")[0] for s in SHAPES)
    return ("understood: " + ", ".join(providers) + " errors naming a tool (Gemini "
            "function_declarations[i]..., OpenAI Invalid schema for function 'x', Anthropic "
            "tools.N.custom..., Bedrock toolConfig.tools.N...)")


class Parsed(NamedTuple):
    """What an error text says: the shape it has and what it captured."""

    shape: Shape
    tool_at: int | None  # the tool's index in the request (`index` is a tuple's method)
    group: int | None
    name: str | None
    path: str | None
    keyword: str | None


def parse_error(text: str) -> Parsed | None:
    """The first shape (in `SHAPES` order) the text holds, with what it names; None when the
    text holds none."""
    text = text[:MAX_ERROR_CHARS]
    for shape in SHAPES:
        found = shape.pattern.search(text)
        if found is None:
            continue
        groups = found.groupdict()
        kw = groups.get("kw") or groups.get("kw2") or shape.keyword or None
        index = groups.get("index")
        group = groups.get("group")
        return Parsed(shape, int(index) if index is not None else None,
                      int(group) if group is not None else None, groups.get("name"),
                      groups.get("path"), kw)
    return None


# --- reading a path -----------------------------------------------------------------------


class Entry(NamedTuple):
    """Gemini's `properties[N].value`: the N-th entry of a map, in the order sent."""

    position: int


Segment = str | int | Entry

_GEMINI_PART = re.compile(r"([^.\[\]]{1,256})?((?:\[[^\]]{0,256}\])*)")
_BRACKETS = re.compile(r"\[([^\]]{0,256})\]")
_TUPLE_ITEM = re.compile(r"'([^'\n]{0,256})'|\"([^\"\n]{0,256})\"|(\d{1,6})")


def camel(name: str) -> str:
    """`any_of` -> `anyOf`: the proto's field names are the keywords, snake_cased."""
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def segments(path: str, style: PathStyle) -> list[Segment]:
    """The steps a provider's path names, from the root of the schema (the field the schema
    travels in left out)."""
    if style == "context":
        return [m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None
                else int(m.group(3)) for m in _TUPLE_ITEM.finditer(path)]
    out: list[Segment] = []
    if style == "gemini":
        for part in _split_dots(path):
            match = _GEMINI_PART.fullmatch(part)
            if match is None:
                out.append(part)
                continue
            name, brackets = match.group(1), _BRACKETS.findall(match.group(2) or "")
            if name == "value" and not brackets and out and isinstance(out[-1], int):
                out[-1] = Entry(out[-1])  # `properties[N].value`: the N-th entry's value
                continue
            if name is not None:
                out.append(name)
            for inside in brackets:
                out.append(int(inside) if inside.isdigit() else inside)
    else:
        out = list(path.split("."))
    if out and out[0] in _ROOT_FIELDS:
        out.pop(0)
    return out


def _split_dots(path: str) -> list[str]:
    """`a.b[x.y].c` -> `a`, `b[x.y]`, `c`: a dot inside brackets (a key) splits nothing."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(path):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == "." and depth == 0:
            parts.append(path[start:at])
            start = at + 1
    parts.append(path[start:])
    return [p for p in parts if p]


_MAPS = frozenset((k,) for k in SCHEMA_MAP_KEYWORDS)


class Located(NamedTuple):
    """Where a path leads in one schema: the node reached (`path`), the keyword blamed there
    (`keyword`, present in the node or not), and the steps that could not be followed."""

    path: Path
    keyword: str | None
    missing: tuple[Segment, ...]


def locate(schema: Any, steps: Sequence[Segment], keyword: str | None,
           style: PathStyle) -> Located:
    """Follow `steps` through `schema`: Gemini's snake_case names read as keywords, `ref` as
    `$ref`, a map entry by position as its key in the order the schema holds them, a last
    step the node lacks as the keyword blamed (`items: missing field`)."""
    node, path = schema, ()  # type: tuple[Any, Path]
    steps = list(steps)
    for at, step in enumerate(steps):
        found = _step(node, step, style)
        if found is None:
            if at == len(steps) - 1 and isinstance(step, str) and isinstance(node, dict) \
                    and path[-1:] not in _MAPS:  # a key of `properties` is a name, not a keyword
                return Located(path, _keyword(node, step), ())
            return Located(path, keyword, tuple(steps[at:]))
        node, keys = found
        path += keys
    if keyword is not None and isinstance(node, dict):
        return Located(path, _keyword(node, keyword), ())
    return Located(path, keyword, ())


def _spellings(name: str) -> tuple[str, ...]:
    """The keys a provider's name for a keyword may mean (`ref`: `$ref`, `any_of`: `anyOf`)."""
    return (name, camel(name), "$" + name, "$" + camel(name))


def _keyword(node: dict[str, Any], name: str) -> str:
    """The key of `node` a provider's name for a keyword means, or the keyword's own name
    when the node lacks it."""
    return next((key for key in _spellings(name) if key in node), camel(name))


def _step(node: Any, step: Segment, style: PathStyle) -> tuple[Any, Path] | None:
    """One step down: the child and the keys that reach it, or None when there is none."""
    if isinstance(node, list):
        index = step if isinstance(step, int) else int(step) if (
            isinstance(step, str) and step.isdigit()) else None
        if index is not None and 0 <= index < len(node):
            return node[index], (index,)
        return None
    if not isinstance(node, dict):
        return None
    if isinstance(step, Entry):
        keys = list(node)
        if 0 <= step.position < len(keys):
            return node[keys[step.position]], (keys[step.position],)
        return None
    if isinstance(step, int):  # `properties[3]` naming a key
        step = str(step)
    if style == "elided":
        props = node.get("properties")
        if isinstance(props, dict) and step in props:
            return props[step], ("properties", step)
    spellings = _spellings(step) if style == "gemini" else (step,)
    return next(((node[key], (key,)) for key in spellings if key in node), None)


# --- the tool, the place and the rule -----------------------------------------------------


class Explanation(NamedTuple):
    """An error text mapped back: the tool (None when not found), where its path leads, the
    finding of `profile`'s check that covers it (None: no rule does) and, when something
    the text names was not found, what (`problem`)."""

    parsed: Parsed
    profile: str
    tool: ToolDef | None
    tool_index: int | None
    located: Located | None
    finding: Finding | None
    node: Any
    problem: str
    inferred: str  # how the tool was found when the text names none ("" when it names one)

    @property
    def target(self) -> Path:
        """The place the text blames: the node, and the keyword when the node holds it."""
        if self.located is None or self.parsed.shape.scope != "schema":
            return ()
        kw = self.located.keyword
        if kw is not None and isinstance(self.node, dict) and kw in self.node:
            return (*self.located.path, kw)
        return self.located.path


def infer_profile(shape: Shape, known: Sequence[str]) -> str:
    """The profile whose rules the request was checked by: the first of the shape's that
    exists (a provider without its own profile yet is read by the nearest one's rules)."""
    return next((p for p in shape.profiles if p in known), shape.profiles[-1])


def explain(parsed: Parsed, tools: Sequence[ToolDef], results: Sequence[ToolResult],
            profile: str, groups: Sequence[int] = ()) -> Explanation:
    """Map `parsed` to one of `tools` (`results` are `profile`'s check of them, in order).

    `groups`: when the tools come from a Gemini `tools` list, how many function declarations
    each of its entries holds (a built-in such as googleSearch: none), so that Gemini's
    `tools[T].function_declarations[F]` finds its tool; empty, every tool is read as one
    entry's, `tools[0]`'s (as a client sends an MCP server's)."""
    shape = parsed.shape

    def answer(index: int | None, problem: str = "", inferred: str = "") -> Explanation:
        if index is None:
            return Explanation(parsed, profile, None, None, None, None, None, problem, "")
        tool, steps = tools[index], _steps(parsed)
        located = locate(tool.schema, steps, parsed.keyword, shape.style) \
            if shape.scope == "schema" else Located((), parsed.keyword, ())
        node = resolve(tool.schema, located.path) if shape.scope == "schema" else {
            "name": tool.name, "description": tool.description}
        if located.missing and not problem:
            problem = f"{tool.name!r} has no {_shown(located.missing)} at that place"
        finding = None if located.missing else covering(
            results[index].findings, located, node, shape)
        return Explanation(parsed, profile, tool, index, located, finding, node, problem,
                           inferred)

    if shape.scope == "request":
        over = [(t, f) for t, r in zip(tools, results, strict=True) for f in r.findings
                if f.code in shape.codes]
        if not over:
            return answer(None, f"the error is about the whole request, and no rule of "
                                f"{profile} flags it for these {len(tools)} tool(s)")
        names = ", ".join(repr(t.name) for t, _ in over[:10]) + (
            ", …" if len(over) > 10 else "")
        return Explanation(parsed, profile, None, None, None, over[0][1], None, "",
                           f"the error is about the whole request ({len(tools)} tools); "
                           f"the rule flags {names}")
    if parsed.tool_at is not None:
        at, group = parsed.tool_at, parsed.group or 0
        if groups:
            if group >= len(groups) or at >= groups[group]:
                count = groups[group] if group < len(groups) else 0
                return answer(None, f"the error names tools[{group}].function_declarations"
                                    f"[{at}], and the source's tools[{group}] holds {count} "
                                    f"declaration(s) ({len(groups)} entries in all)")
            at += sum(groups[:group])
        elif group:
            return answer(None, f"the error names tools[{group}], and the sources are not a "
                                "Gemini tools list: their tools are read as tools[0]'s")
        if at >= len(tools):
            return answer(None, f"the error names tool {at}, and the sources hold "
                                f"{len(tools)} tool(s) (0 to {len(tools) - 1})")
        return answer(at)
    if parsed.name is not None:
        named = [i for i, t in enumerate(tools) if t.name == parsed.name] or [
            i for i, r in enumerate(results) if r.transformed_name == parsed.name]
        if not named:
            return answer(None, f"no tool is named {parsed.name!r} (nor sent under that "
                                f"name by the {profile} transform)")
        return answer(named[0])
    # No tool named: the one whose schema holds the place (and, among several, the one a
    # rule flags there).
    held = [(i, e) for i in range(len(tools)) if not (e := answer(i)).problem]
    flagged = [i for i, e in held if e.finding is not None]
    fits = flagged or [i for i, _ in held]
    if len(fits) == 1:
        return answer(fits[0], inferred="the error names no tool; this is the only one it "
                                        "fits")
    names = ", ".join(repr(tools[i].name) for i in fits[:10])
    return answer(None, "the error names no tool, and " + (
        f"{len(fits)} tools fit it: {names}" if fits else "no tool's schema holds that place"))


def _steps(parsed: Parsed) -> list[Segment]:
    return segments(parsed.path, parsed.shape.style) if parsed.path else []


def _shown(steps: Sequence[Segment]) -> str:
    """Steps as the provider wrote them: `properties[0].items`."""
    text = ""
    for step in steps:
        if isinstance(step, Entry | int):
            text += f"[{step.position if isinstance(step, Entry) else step}]"
        else:
            text += ("." if text else "") + step
    return text


def covering(findings: Sequence[Finding], located: Located, node: Any,
             shape: Shape) -> Finding | None:
    """The finding that covers the place the text blames: where the text names its rules
    (`shape.codes`), the one of them nearest the place; where it blames a keyword, the one
    about that keyword there; else the one at the node or nearest it, up or down the same
    branch. None when no rule does."""
    kw = located.keyword
    at = (*located.path, kw) if kw is not None and isinstance(node, dict) and kw in node \
        else located.path
    if shape.scope == "tool":
        return next((f for f in findings if f.scope == "tool"
                     and (f.code in shape.codes or f.keyword == kw)), None)
    mine = [f for f in findings if f.scope == "schema"]

    def distance(f: Finding) -> int:
        common = next((i for i, (a, b) in enumerate(zip(f.path, at, strict=False)) if a != b),
                      min(len(f.path), len(at)))
        return len(f.path) + len(at) - 2 * common

    if shape.codes:
        chosen = [f for f in mine if f.code in shape.codes]
    elif kw is not None:
        chosen = [f for f in mine if f.path[:len(located.path)] == located.path
                  and (f.keyword == kw or f.path[len(located.path):][:1] == (kw,))]
        chosen = chosen or [f for f in mine if f.path == located.path]
    else:
        chosen = [f for f in mine if f.path[:len(at)] == at or at[:len(f.path)] == f.path]
    return min(chosen, key=distance, default=None)
