"""`schema-compat repair`: the command's work, from its options to an exit status."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NamedTuple

from .exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, fail, print_errors
from .inputs import LiveOpts, load_inputs, one_tool
from .providers import provider_plan
from .running import run_tools

if TYPE_CHECKING:
    from ..model import ToolDef


class RepairOptions(NamedTuple):
    """Every option of `repair` (options.py holds their flags, defaults and help)."""

    sources: list[str] | None
    tool: str
    args: str
    provider: str | None
    json_out: bool
    live: LiveOpts


def run_repair(options: RepairOptions) -> int:
    """The exit status of a `repair`: 0 when the repaired arguments are valid, 1 when the
    schema still rejects them."""
    from ..jsonio import JsonInputError, dump_json, load_json_bytes, load_json_file
    from ..repair_args import repair as repair_arguments

    sources, tool, args, provider, json_out, live = options
    if not tool:
        fail("--tool NAME is required", "name the tool whose arguments these are")
    if not args:
        fail("--args is required", "give JSON text, @FILE, or - for stdin")
    if args == "-" and "-" in (sources or []):
        fail("stdin cannot hold both the SOURCE and --args", "put one of them in a file")
    try:
        if args == "-" or args.startswith("@"):
            arguments = load_json_file("-" if args == "-" else args[1:])
        else:
            arguments = load_json_bytes(args.encode("utf-8", "surrogatepass"), "--args")
    except JsonInputError as exc:
        fail(exc.error.one_line().replace("--args: ", "--args ", 1))
    loaded, errors = load_inputs(sources, live)
    if errors:
        print_errors(errors)
        return EXIT_USAGE
    tools = [t for s in loaded for t in s.tools]
    chosen = [t for t in tools if t.name == tool] or _renamed_to(tool, tools, provider)
    if not chosen:
        names = ", ".join(t.name for t in tools[:10]) + (", …" if len(tools) > 10 else "")
        fail(f"no tool named {tool!r}", f"tools here: {names}" if names else
             "no tools were read")
    result = repair_arguments(one_tool(chosen, tool).schema, arguments)
    if json_out:
        sys.stdout.write(dump_json(result.to_dict()))
    else:
        sys.stdout.write(dump_json(result.arguments))
        for c in result.coercions:
            print(f"repaired {c.describe()}", file=sys.stderr)
        for err in result.errors:
            print(f"invalid {err}", file=sys.stderr)
    return EXIT_OK if result.valid else EXIT_FINDINGS


def _renamed_to(name: str, tools: list[ToolDef], provider: str | None) -> list[ToolDef]:
    """The tools a transform sends as `name` (a call names the tool as the model was told it):
    for --provider, else for the first profile that renames one of them so, in the order
    `schema-compat profiles` lists them (the default provider first). Says on stderr which
    tool it is, since the arguments are repaired against that tool's own schema."""
    from ..profiles import DEFAULT_PROFILE, PROFILES

    for profile in [provider] if provider else list(dict.fromkeys([DEFAULT_PROFILE, *PROFILES])):
        plan = provider_plan(profile, None, None, False)
        renamed = [r.tool for r in run_tools(tools, plan, keep_schemas=False)
                   if r.transformed_name == name and r.tool.name != name]
        if renamed:
            originals = ", ".join(repr(n) for n in dict.fromkeys(t.name for t in renamed))
            print(f"schema-compat: --tool {name} is {originals} of "
                  f"{renamed[0].source}, as the {plan.profile.name} transform names it",
                  file=sys.stderr)
            return renamed
    return []
