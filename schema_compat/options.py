"""Every option and argument of the command line, declared once.

The typer app in cli.py reads every command line, its commands' parameters (and their help)
built from this table; some options are also settings of `.schema-compat.toml` (settings.py),
built from it too. So an option's flags, value, default and help cannot drift apart:

- `COMMANDS` lists, per command, its parameters in the order `--help` shows them;
- an `Option` says how its value reads (`kind`), its default, help and, when a settings file
  may set it too, its settings key;
- an option several commands share is declared once here and, where one command words it
  differently or takes one value instead of a list, varied with `_replace` next to that
  command.

Imported on every command line, so it uses only named tuples (no dataclasses, no typer).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

# How an option's value reads: a flag alone, one text value, a repeatable one (a list), one of
# `choices`, a number within `minimum`..`maximum`; "table" is a settings-file-only value.
Kind = Literal["flag", "value", "multi", "choice", "float", "int", "table"]


class Option(NamedTuple):
    """One option of one or more commands."""

    param: str  # the parameter the command is handed (and its options record's field)
    flags: tuple[str, ...]  # the long flag first; () for a setting no flag sets
    kind: Kind
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    setting: str = ""  # its key in .schema-compat.toml / [tool.schema-compat], if any
    setting_value: str = ""  # what the setting holds, in words (derived for choices, flags)
    panel: str = ""  # the section of `--help` it is listed under
    show_default: bool = True
    minimum: float | None = None
    maximum: float | None = None
    completes_profiles: bool = False  # shell completion offers the profile names
    metavar: str = ""  # what `--help` shows for the value (FILE, GLOB); a choice: its choices

    @property
    def repeatable(self) -> bool:
        return self.kind == "multi"


class Argument(NamedTuple):
    """One positional argument; `many` takes all the rest (and may be left out)."""

    param: str
    help: str
    metavar: str = ""
    many: bool = False


Parameter = Option | Argument

DEFAULT_PROVIDER = "gemini"
_REQUEST = "One request (the tools a client sends at once)"
_LIVE = "Live servers"

# --- what to read -------------------------------------------------------------------------

SOURCES = Argument("sources", "JSON files, directories, or - for stdin.", metavar="SOURCE...",
                   many=True)
TOOL_NAME = Argument("tool_name", "The tool to show.", metavar="TOOL")
PROVIDER = Option(
    "provider", ("--provider", "-p"), "value", DEFAULT_PROVIDER,
    "Target profile (see `schema-compat profiles`); `check` also takes a comma-separated "
    "list or `all`.", setting="provider",
    setting_value='a profile name, a list of them, or "all"', completes_profiles=True,
    metavar="NAME")
TOOL = Option("tool", ("--tool", "-t"), "multi", None,
              "Only tools whose name matches (glob; repeatable).", setting="tools",
              setting_value="a list of tool-name globs", show_default=False, metavar="GLOB")
SELECT = Option("select", ("--select",), "multi", None,
                "Only these rules: codes, prefixes or names, comma-separated (e.g. REF,UNI001).",
                setting="select", setting_value="a list of rule codes, prefixes or names",
                show_default=False, metavar="RULES")
IGNORE = Option("ignore", ("--ignore",), "multi", None,
                "Skip these rules (same forms as --select).", setting="ignore",
                setting_value="a list of rule codes, prefixes or names", show_default=False,
                metavar="RULES")
PER_TOOL_IGNORES = Option("per_tool_ignores", (), "table", {},
                          "Rules to skip for the tools whose name matches a glob.",
                          setting="per-tool-ignores",
                          setting_value="a table: tool-name glob = list of rule codes")
SOURCES_SETTING = Option(
    "sources", (), "multi", None,
    "What `check` reads when given no SOURCE and no live server: JSON files or directories, "
    "each relative to the settings file's folder.", setting="sources",
    setting_value="a list of JSON files or directories, relative to the settings file")
LOSSLESS_ONLY = Option(
    "lossless_only", ("--lossless-only",), "flag", False,
    "Apply only lossless fixes (the arguments accepted stay exactly the same); the other "
    "findings stay standing.", setting="lossless-only")
JSON = Option("json_out", ("--json",), "flag", False, "Print the JSON report for agents.")

# --- check's report ------------------------------------------------------------------------

FORMAT = Option("output_format", ("--format", "-f"), "choice", "text",
                "Report format: text, json, sarif (GitHub code scanning), github (workflow "
                "annotations), markdown (a PR comment).",
                choices=("text", "json", "sarif", "github", "markdown"))
FAIL_ON = Option("fail_on", ("--fail-on",), "choice", "error",
                 "Lowest severity that makes the exit code 1.",
                 choices=("error", "warning", "info"), setting="fail-on")
VERBOSE = Option("verbose", ("--verbose", "-v"), "flag", False,
                 "List compatible tools and fix titles too.")
SHOW_CONFIG = Option("show_config", ("--show-config",), "flag", False,
                     "Print the settings in force (from flags, .schema-compat.toml or "
                     "pyproject.toml) and where each came from, then exit.")
BASELINE = Option("baseline", ("--baseline",), "value", None,
                  "Report only findings not recorded in this baseline file; exit 0 when there "
                  "are none.", show_default=False, metavar="FILE")
WRITE_BASELINE = Option("write_baseline", ("--write-baseline",), "value", None,
                        "Record every current finding in this file (for --baseline later) and "
                        "exit 0.", show_default=False, metavar="FILE")

# --- diff's view ----------------------------------------------------------------------------

FULL = Option("full", ("--full",), "flag", False,
              "Show every line: unchanged and removed blocks are folded otherwise.")
FOCUS = Option("path", ("--path",), "value", None,
               "Only the node(s) this JSONPath matches in the original schema, beside the "
               "same path in the transformed one (e.g. '$.properties.files').",
               show_default=False, metavar="JSONPATH")

# --- transform's output --------------------------------------------------------------------

OUTPUT = Option("output", ("--output", "-o"), "value", None,
                "Write the transformed tools here (default: stdout).", metavar="FILE")
FORCE = Option("force", ("--force",), "flag", False, "Allow -o to overwrite an input file.")
QUIET = Option("quiet", ("--quiet", "-q"), "flag", False, "No summary on stderr.")
TO = Option("to", ("--to",), "choice", None,
            "Write exactly the `tools` value of this provider's request body, with the planned "
            "names and strict flags (one request; the provider's profile unless --provider "
            "names one).", choices=("openai-chat", "openai-responses", "anthropic", "gemini",
                                    "bedrock", "mistral", "ollama"),
            panel=_REQUEST, show_default=False)

# --- what one request is (commands/requests.py) --------------------------------------------

REQUEST = Option("request", ("--request",), "choice", "auto",
                 "What one request is: auto (all servers of a client config; every other "
                 "source alone), all (everything given), per-source.",
                 choices=("auto", "all", "per-source"), setting="request", panel=_REQUEST)
STRICT_FIRST = Option("strict_first", ("--strict-first",), "multi", None,
                      "Strict tools within a per-request budget (anthropic-strict) are chosen "
                      "among these first (glob on a tool's name or server/tool; repeatable).",
                      setting="strict-first", setting_value="a list of tool-name globs",
                      panel=_REQUEST, show_default=False, metavar="GLOB")
NAME_PREFIX = Option("name_prefix", ("--name-prefix",), "choice", "none",
                     "How the client names tools: none, server (server_tool) or mcp "
                     "(mcp__server__tool, Claude Code); names are made valid and unique after "
                     "it.", choices=("none", "server", "mcp"), setting="name-prefix",
                     panel=_REQUEST)
EXCLUDE_TOOL = Option("exclude_tool", ("--exclude-tool",), "multi", None,
                      "Leave out tools whose name or server/tool matches (glob; repeatable).",
                      setting="exclude-tools", setting_value="a list of tool-name globs",
                      panel=_REQUEST, show_default=False, metavar="GLOB")
# read as text and checked by the command against profiles/clients.py's table, as --provider
CLIENT = Option("client", ("--client",), "value", None,
                "The MCP client in front of the provider (cursor, windsurf, vscode, "
                "claude-code, copilot-cli, ...): its own limits (tool count, name prefix and "
                "length, characters, description cut) are added to the provider's "
                "(`schema-compat profiles` lists them with their sources). `check` infers it "
                "from the client config it reads.", setting="client",
                setting_value="an MCP client's name (see `schema-compat profiles`)",
                panel=_REQUEST, show_default=False, metavar="NAME")
REQUEST_OPTIONS = (REQUEST, STRICT_FIRST, NAME_PREFIX, EXCLUDE_TOOL, CLIENT)

# --- live servers (commands/inputs.py's LiveOpts) ------------------------------------------

SERVER = Option("server", ("--server",), "multi", None,
                'Launch a stdio MCP server: "CMD ARGS" (repeatable).', panel=_LIVE,
                show_default=False, metavar='"CMD ARGS"')
ENV = Option("env", ("--env",), "multi", None, "K=V for --server (repeatable).", panel=_LIVE,
             show_default=False, metavar="K=V")
CWD = Option("cwd", ("--cwd",), "value", None, "Working directory for --server.", panel=_LIVE,
             show_default=False, metavar="DIR")
URL = Option("url", ("--url",), "multi", None, "Connect over streamable HTTP (repeatable).",
             panel=_LIVE, show_default=False, metavar="URL")
HEADER = Option("header", ("--header",), "multi", None,
                "'K: V' for --url and --sse (repeatable).", panel=_LIVE, show_default=False,
                metavar="'K: V'")
SSE = Option("sse", ("--sse",), "multi", None, "Connect over legacy SSE (repeatable).",
             panel=_LIVE, show_default=False, metavar="URL")
CONFIG = Option("config", ("--config",), "multi", None,
                "An MCP client config (.mcp.json, .vscode/mcp.json, .cursor/mcp.json, "
                ".gemini/settings.json, claude_desktop_config.json): the tools of each server "
                "in it.", panel=_LIVE, show_default=False, metavar="FILE")
NAME = Option("name", ("--name",), "multi", None,
              "Only these servers of --config (glob; repeatable).", panel=_LIVE,
              show_default=False, metavar="NAME")
TIMEOUT = Option("timeout", ("--timeout",), "float", 30.0,
                 "Seconds to wait for each live server.", panel=_LIVE, minimum=0.1,
                 metavar="SECONDS")
LIVE_OPTIONS = (SERVER, ENV, CWD, URL, HEADER, SSE, CONFIG, NAME, TIMEOUT)

# --- proxy --config: a client config's servers served as one (proxy/gateway.py) ------------

_GATEWAY = "Gateway (--config)"
PROXY_GATEWAY = (
    CONFIG._replace(kind="value", panel=_GATEWAY,
                    help="Serve every server of this MCP client config as one server (tools "
                         "only)."),
    NAME._replace(panel=_GATEWAY,
                  help="With --config: only these servers (name or glob; repeatable)."),
    # read as text and checked by the command (its own message), not as typer's choice
    NAME_PREFIX._replace(kind="value", choices=(), setting="", panel=_GATEWAY, metavar="PREFIX",
                         help="With --config: how the client names tools (none, server, mcp); "
                              "names are made valid and unique after it."),
    STRICT_FIRST._replace(setting="", setting_value="", panel=_GATEWAY,
                          help="With --config: strict tools within a per-request budget are "
                               "chosen among these first (glob on name or server/tool; "
                               "repeatable)."),
    TOOL._replace(setting="", setting_value="", panel=_GATEWAY,
                  help="With --config: only tools whose name or server/tool matches (glob; "
                       "repeatable)."),
    EXCLUDE_TOOL._replace(setting="", setting_value="", panel=_GATEWAY,
                          help="With --config: leave out tools whose name or server/tool "
                               "matches (glob; repeatable)."),
    CLIENT._replace(setting="", setting_value="", panel=_GATEWAY,
                    help="With --config: the MCP client served, whose own limits are added "
                         "to the provider's (see `schema-compat profiles`)."),
)

# --- per command, in the order `--help` lists them ------------------------------------------

COMMANDS: dict[str, tuple[Parameter, ...]] = {
    "check": (
        SOURCES, PROVIDER, TOOL, JSON, FORMAT, SELECT, IGNORE, FAIL_ON, LOSSLESS_ONLY, VERBOSE,
        SHOW_CONFIG, BASELINE, WRITE_BASELINE, *REQUEST_OPTIONS, *LIVE_OPTIONS),
    "transform": (
        SOURCES, PROVIDER, OUTPUT, TOOL,
        JSON._replace(help="Print the JSON report (with each change) instead of the tools."),
        SELECT, IGNORE, LOSSLESS_ONLY, FORCE, QUIET, *REQUEST_OPTIONS, TO, *LIVE_OPTIONS),
    "diff": (TOOL_NAME, SOURCES, PROVIDER, JSON, FULL, FOCUS, SELECT, IGNORE, LOSSLESS_ONLY,
             *LIVE_OPTIONS),
    "repair": (
        SOURCES,
        TOOL._replace(kind="value", default="", setting="", setting_value="", metavar="NAME",
                      help="The tool whose arguments these are: its original name, or the "
                           "name a transform sends (for --provider, else the first profile "
                           "that gives it)."),
        Option("args", ("--args", "-a"), "value", "",
               "The arguments: JSON text, @FILE, or - for stdin.", show_default=False,
               metavar="JSON"),
        PROVIDER._replace(default=None, setting="", setting_value="", show_default=False,
                          completes_profiles=False,
                          help="Read --tool as this profile's transform names tools."),
        JSON._replace(help='Print {"arguments", "coercions", "valid", "errors"}.'),
        *LIVE_OPTIONS),
    "breaking": (
        Argument("sources", "OLD then NEW: each a JSON file, a directory or - (NEW may be a "
                 "live server instead: --server, --url, --sse, --config).",
                 metavar="OLD [NEW]", many=True),
        Option("against", ("--against",), "value", None,
               "The old version (a snapshot such as the mcp-tools.json `init` writes); the "
               "SOURCE or live server given is then the new one.", show_default=False,
               metavar="SNAPSHOT"),
        TOOL._replace(setting="", setting_value=""),
        JSON, FORMAT,
        FAIL_ON._replace(default="breaking", choices=("breaking", "warning"), setting="",
                         help="What makes the exit code 1: a breaking change (possibly "
                              "breaking ones too), or also a warning (drift)."),
        SELECT._replace(setting="", setting_value="",
                        help="Only these checks: codes or prefixes, comma-separated (e.g. "
                             "EVO1 for what callers send)."),
        IGNORE._replace(setting="", setting_value="",
                        help="Skip these checks (same forms as --select), e.g. EVO106."),
        *LIVE_OPTIONS),
    "explain": (
        Argument("error", "The provider's error message, quoted as one argument.",
                 metavar="ERROR"),
        SOURCES._replace(help="The tools that were sent: JSON files, directories, or - for "
                              "stdin (or a live server: --server, --url, --sse, --config)."),
        PROVIDER._replace(default=None, setting="", setting_value="", show_default=False,
                          help="The profile whose request it was (default: inferred from "
                               "the error's shape)."),
        Option("sent", ("--sent",), "choice", "original",
               "The schemas the request carried, which the error's indices and names read "
               "against: original (the SOURCE as given) or transformed (as transform and "
               "the proxy send them for the profile).", choices=("original", "transformed")),
        JSON._replace(help="Print tool, path, pointer, rule, fix and matched as JSON."),
        *LIVE_OPTIONS),
    "rules": (
        PROVIDER._replace(default=None, setting="", setting_value="", completes_profiles=False,
                          help="Only the rules of this profile, with its severities."),),
    "rule": (Argument("code", "A rule code or name, e.g. REF001.", metavar="CODE"),),
    "profiles": (),
    "serve": (
        Option("port", ("--port",), "int", 0, "Port on 127.0.0.1 (0: a free one).", minimum=0,
               maximum=65535, metavar="PORT"),
        Option("no_open", ("--no-open",), "flag", False,
               "Print the URL only; open no browser."),
        CONFIG._replace(panel="", help="Also offer the servers of this MCP client config "
                                       "(repeatable); those found here and in your home folder "
                                       "are offered anyway."),
        TIMEOUT),
    "init": (
        PROVIDER._replace(default=None, setting="", setting_value="", show_default=False,
                          help="The provider(s) to check against, as for check: a profile, a "
                               "comma-separated list or all (asked on a terminal; else "
                               f"{DEFAULT_PROVIDER})."),
        SERVER._replace(kind="value", panel="",
                        help="The command that starts your server over stdio."),
        ENV, CWD,
        URL._replace(kind="value", panel="",
                     help="Instead of --server: your running server's streamable HTTP URL "
                          "(usually .../mcp)."),
        SSE._replace(kind="value", panel="",
                     help="Instead of --server: your running server's legacy SSE URL (its "
                          "event stream, usually .../sse)."),
        HEADER._replace(panel="", help="'K: V' sent to the --url or --sse server "
                                       "(repeatable)."),
        CONFIG._replace(kind="value", panel="",
                        help="Instead of --server: an MCP client config naming your "
                             "server(s)."),
        NAME,
        Option("snapshot", ("--snapshot",), "value", "mcp-tools.json",
               "Where the snapshot of the tools goes (several servers: mcp-tools.NAME.json "
               "each).", metavar="FILE"),
        Option("install_from", ("--install-from",), "value", None,
               "What CI installs schema-compat from, for pipx: e.g. "
               "'git+https://HOST/OWNER/schema-compat@TAG' (default: the git repository and "
               "commit this copy was installed from).", show_default=False, metavar="SPEC"),
        Option("directory", ("--dir",), "value", ".", "The repository to set up.",
               metavar="DIR"),
        TIMEOUT),
    "proxy": (
        Argument("command", "The upstream stdio server's command, after --.",
                 metavar="-- CMD [ARGS]...", many=True),
        PROVIDER._replace(setting="", setting_value="", completes_profiles=False,
                          help="The profile whose dialect the client speaks."),
        URL._replace(kind="value", panel="",
                     help="A streamable HTTP upstream instead of a command."),
        SSE._replace(kind="value", panel="",
                     help="A legacy SSE upstream (its event stream's URL, usually .../sse) "
                          "instead of a command."),
        HEADER._replace(panel="", help="'K: V' sent to the --url or --sse upstream "
                                       "(repeatable)."),
        ENV._replace(panel="", help="K=V for the upstream command (repeatable)."),
        CWD._replace(panel="", help="Working directory for the upstream command."),
        TIMEOUT._replace(default=60.0, panel="",
                         help="Seconds the upstream has to answer a request (a progress "
                              "notification restarts the clock); then the client gets an "
                              "error."),
        Option("log", ("--log",), "value", None, "Append the log here instead of stderr.",
               show_default=False, metavar="FILE"),
        LOSSLESS_ONLY._replace(setting=""),
        *PROXY_GATEWAY),
}

# The settings, in the order `check --show-config` lists them.
SETTINGS: tuple[Option, ...] = (PROVIDER, SELECT, IGNORE, PER_TOOL_IGNORES, FAIL_ON,
                                LOSSLESS_ONLY, REQUEST, STRICT_FIRST, NAME_PREFIX, CLIENT, TOOL,
                                EXCLUDE_TOOL, SOURCES_SETTING)


def options(command: str) -> tuple[Option, ...]:
    """The options of `command`, in order."""
    return tuple(p for p in COMMANDS[command] if isinstance(p, Option))


def describe_setting(option: Option) -> str:
    """What a setting holds, in words, for a settings file's error messages."""
    if option.kind == "choice":
        return "one of " + ", ".join(f'"{c}"' for c in option.choices)
    if option.kind == "flag":
        return "true or false"
    return option.setting_value


def expected(option: Option) -> str:
    """What `option` takes, in words: the hint of a usage error about its value."""
    if option.kind == "choice":
        return "choose one of: " + ", ".join(option.choices)
    if option.kind in ("float", "int"):
        what = "a whole number" if option.kind == "int" else "a number"
        what += " of seconds" if option.metavar == "SECONDS" else ""
        low, high = (_number(b) for b in (option.minimum, option.maximum))
        if low and high:
            return f"give {what} from {low} to {high}"
        if low:
            return f"give {what}, at least {low}"
        return f"give {what}"
    return f"`schema-compat --help` says what {option.flags[0]} takes"


def value_error(option: Option, text: str) -> tuple[str, str]:
    """The one-line usage error (message, hint) for `text` given to `option`, which does not
    take it (cli.py tells click's refusal of it in these words)."""
    flag = option.flags[0]
    if option.kind == "choice":
        return f"unknown {flag} {text!r}", expected(option)
    if option.kind in ("float", "int"):
        try:
            (int if option.kind == "int" else float)(text)
        except ValueError:
            number = "a whole number" if option.kind == "int" else "a number"
            return f"{flag} {text!r} is not {number}", expected(option)
        return f"{flag} {text.strip()} is out of range", expected(option)
    return f"{flag} does not take {text!r}", expected(option)


def _number(bound: float | None) -> str:
    """A bound as the user would write it: 0.1, 30, 65535."""
    if bound is None:
        return ""
    return str(int(bound)) if float(bound).is_integer() else str(bound)


def setting_default(option: Option) -> Any:
    """A setting's value when neither a flag nor the file sets it: a list is empty."""
    return [] if option.kind == "multi" else option.default
