"""docs/providers.md: what each provider accepts, made from the profiles and the facts they
rest on.

The page is written from the Profile data (`make docs`), so it says what the checks check, and a
test fails when it is stale. The facts (profiles/facts.tsv, one a line: ID, status, statement,
sources) keep their IDs because the rule pages cite them (`providers.md#gem-13`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ..profiles import PROFILES, Profile
from ..profiles.clients import CLIENTS

FACTS_FILE = Path(__file__).resolve().parent.parent / "profiles" / "facts.tsv"
# The fact groups by ID prefix, in page order.
GROUPS = {
    "GEM": "Gemini API `parameters`", "GJS": "Gemini API `parametersJsonSchema`",
    "GEN": "Gemini generations", "VTX": "Vertex AI", "OAI": "OpenAI",
    "OAIS": "OpenAI strict mode", "ANT": "Anthropic", "ANTS": "Anthropic strict tool use",
    "BDR": "AWS Bedrock", "MIS": "Mistral", "OLL": "Ollama", "LCP": "llama.cpp", "XAI": "xAI",
    "DSK": "DeepSeek", "GRQ": "Groq", "QWN": "Alibaba DashScope (Qwen)",
    "MCP": "MCP specification",
}
_ISSUE = re.compile(r"(?<![\w/.-])([\w.-]+/[\w.-]+)#(\d+)\b")
_HEAD = """# Providers

What each profile checks a tool against: the provider's request field, names, limits and
keywords, the rules it runs (each links to its page), and the facts behind them. Generated from
the profiles by `make docs`; `schema-compat profiles` prints the same, `schema-compat rules
--provider P` the rules with that profile's severities.

Each fact has an ID that the rule pages cite, a status (**D** documented by the provider: docs,
API reference, proto/OpenAPI or official SDK; **O** observed in public error reports; **U**
unverified or contradicted) and its sources (`owner/repo#N` is a GitHub issue or pull request).
A provider refuses the whole request when one tool breaks a rule. Sources were read from
snapshots dated up to 2026-08/09 (googleapis/googleapis `f8291d2b`, python-genai `66807187`,
modelcontextprotocol `b0f60ba5`, anthropic-sdk-python `009b0353`, openai-python `e43b4224`,
ollama `fb307609`); provider behaviour changes, so each fact carries its source.
"""


def facts() -> list[list[str]]:
    """The rows of facts.tsv: [ID, status, statement, sources]."""
    return [line.split("\t") for line in FACTS_FILE.read_text("utf-8").splitlines()[1:]]


def _code(words: Iterable[str]) -> str:
    return ", ".join(f"`{w}`" for w in sorted(words))


def _profile(p: Profile) -> list[str]:
    out = [f"## {p.name}\n", f"**{p.title}**: {p.target}. {p.notes}\n"]
    if p.generation:
        out.append(f"- Models: {p.generation}.")
    out.append(f"- Tool names: {p.name_rule} (`{p.name_pattern}`).")
    if p.max_tools:
        src = f" ({p.max_tools_source})" if p.max_tools_source else ""
        out.append(f"- At most {p.max_tools} tools per request{src}.")
    if p.strict_budget:
        b = p.strict_budget
        out.append(f"- Per request, over the strict tools: {b.strict_tools} tools, {b.optional} "
                   f"optional parameters, {b.unions} unions ({b.source}); the others are sent "
                   f"as `{b.fallback}`.")
    if p.max_description:
        out.append(f"- Descriptions of at most {p.max_description} characters.")
    out.append("- Keywords: " + (_code(p.allowed_keywords) + "." if p.allowed_keywords else "any."))
    for kind, formats in sorted((p.formats or {}).items()):
        out.append(f"- `format` on {kind}: {_code(formats)}.")
    if p.types:
        out.append(f"- Types: {_code(p.types)}.")
    for code, when in sorted(p.generations.items()):
        out.append(f"- {code} applies to: {when}.")
    warn = {c for c, s in p.severity.items() if s == "warning"}
    out.append(f"- Rules ({len(p.rules)}, *warnings* in italics): " + ", ".join(
        f"[{'*' + c + '*' if c in warn else c}](rules/{c}.md)" for c in sorted(p.rules)) + ".")
    own = [_ISSUE.sub(_link, s) for s in p.sources if not s.startswith("docs/providers.md")]
    out.append("- Sources: " + "; ".join(own) + "; facts "
               + ", ".join(f"[{g}](#facts-{g.lower()})" for g in p.facts) + ".\n")
    return out


def _link(m: re.Match[str]) -> str:
    return f"[{m.group(0)}](https://github.com/{m.group(1)}/issues/{m.group(2)})"


def generate() -> str:
    out = [_HEAD, "| profile | sends the schema as |", "|---|---|"]
    out += [f"| [{p.name}](#{p.name}) | {p.target} |" for p in PROFILES.values()]
    out.append("")
    for p in PROFILES.values():
        out += _profile(p)
    out += ["## MCP clients\n", "Limits `--client` adds to the provider's.\n",
            "| client | tools | names | descriptions | notes; sources |", "|---|---|---|---|---|"]
    for c in CLIENTS.values():
        names = (f"{c.max_name} characters " if c.max_name else "") + " ".join(
            f"no `{ch}`" for ch in c.forbidden)
        said = " ".join((c.notes, "; ".join(c.sources))).strip()
        out.append(f"| `{c.name}` | {c.max_tools or ''} | {names} | {c.max_description or ''} "
                   f"| {_ISSUE.sub(_link, said)} |")
    out.append("\n## Facts\n")
    rows = facts()
    for prefix, title in GROUPS.items():
        out += [f'<a id="facts-{prefix.lower()}"></a>\n', f"### {title}\n",
                "| ID | fact | status | sources |", "|---|---|---|---|"]
        out += [f'| <a id="{i.lower()}"></a>{i} | {fact} | {status} | {_ISSUE.sub(_link, src)} |'
                for i, status, fact, src in rows if i.rsplit("-", 1)[0] == prefix]
        out.append("")
    return "\n".join(out)
