"""Project settings: `.schema-compat.toml` or `[tool.schema-compat]` in `pyproject.toml`.

Found the way ruff finds its configuration: walk up from the current directory and take the
first directory that has one (`.schema-compat.toml` before `pyproject.toml`; a
`pyproject.toml` without the table is passed over). Command-line flags win over the file,
and every setting remembers where its value came from, so `check --show-config` can say.
Which settings there are, their flags and defaults come from the option table (options.py).
Settings are looked for on every `check`, so this module is stdlib only and imports little at
start-up: the walk uses `os.path`; `pathlib` and `tomllib` are imported only for a file found;
the records are a named tuple and small classes rather than dataclasses (which import
`inspect`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from .options import PROVIDER, SETTINGS, SOURCES_SETTING, Option, describe_setting, setting_default

if TYPE_CHECKING:
    from pathlib import Path

DOTFILE = ".schema-compat.toml"
PYPROJECT = "pyproject.toml"
TABLE = "schema-compat"

# Setting name -> (the flag that overrides it, what the value is, in words), and its default:
# both from the option table (options.py), in the order `check --show-config` lists them.
KEYS: dict[str, tuple[str, str]] = {
    o.setting: (o.flags[0] if o.flags else "", describe_setting(o)) for o in SETTINGS}
DEFAULTS: dict[str, Any] = {o.setting: setting_default(o) for o in SETTINGS}
_BY_KEY: dict[str, Option] = {o.setting: o for o in SETTINGS}


class SettingsError(Exception):
    """A settings file that cannot be used: the message names the file and the key."""


class Setting(NamedTuple):
    value: Any
    origin: str  # "default", the flag that set it, or the settings file's name


class Settings:
    __slots__ = ("file", "table", "values")

    def __init__(self, values: Mapping[str, Setting], file: Path | None = None,
                 table: str = "") -> None:
        self.values = values
        self.file = file
        self.table = table  # "[tool.schema-compat]" for pyproject.toml, "" for the dotfile

    def __getitem__(self, key: str) -> Any:
        return self.values[key].value

    @property
    def providers(self) -> str:
        """The provider setting as the CLI's --provider text (lists joined by commas)."""
        value = self["provider"]
        return ",".join(value) if isinstance(value, list) else str(value)

    @property
    def sources(self) -> list[str]:
        """The sources setting, each as a path from the current directory: the file names
        them from its own folder, so a bare `check` anywhere below it reads the same files."""
        if self.file is None or self.values["sources"].origin == "default":
            return []
        folder = os.path.dirname(os.path.abspath(self.file))
        out = []
        for name in self["sources"]:
            path = os.path.join(folder, name)
            try:
                out.append(os.path.relpath(path))
            except ValueError:  # another drive (Windows)
                out.append(path)
        return out


class FileSettings:
    __slots__ = ("path", "table", "values")

    def __init__(self, path: Path | None = None, table: str = "",
                 values: dict[str, Any] | None = None) -> None:
        self.path = path
        self.table = table
        self.values: dict[str, Any] = {} if values is None else values


def find_settings_file(start: str | os.PathLike[str] | None = None) -> tuple[Path, str] | None:
    """The nearest settings file at or above `start` (by default the current directory),
    with the table it uses."""
    directory = os.getcwd() if start is None else os.fspath(start)
    while True:
        dotfile = os.path.join(directory, DOTFILE)
        if os.path.isfile(dotfile):
            return _path(dotfile), ""
        pyproject = os.path.join(directory, PYPROJECT)
        if os.path.isfile(pyproject) and _has_table(pyproject):
            return _path(pyproject), f"[tool.{TABLE}]"
        parent = os.path.dirname(directory) or "."  # what PurePath.parents ends with
        if parent == directory:
            return None
        directory = parent


def _path(found: str) -> Path:
    from pathlib import Path

    return Path(found)


def _has_table(pyproject: str) -> bool:
    # A broken pyproject.toml is reported only if it is the file we use; it is not ours to
    # judge otherwise. Look for the table header in the text instead.
    try:
        with open(pyproject, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError):
        try:
            with open(pyproject, encoding="utf-8", errors="replace") as file:
                return f"[tool.{TABLE}]" in file.read()
        except OSError:
            return False
    if not _may_name_table(text):
        return False
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return f"[tool.{TABLE}]" in text
    tool = data.get("tool")
    return isinstance(tool, dict) and TABLE in tool


def _may_name_table(text: str) -> bool:
    """False when no key of this TOML text can be `schema-compat`, so it need not be parsed:
    the name is not written out as a key (bare or quoted, then `]`, `.` or `=`: a project's
    own `name = "schema-compat"` is a value), and no \\u or \\U escape could spell it (the
    only escapes that give letters or `-`)."""
    return re.search(rf"{TABLE}[\"']?\s*[\].=]", text) is not None \
        or "\\u" in text or "\\U" in text


def load_file(path: Path, table: str) -> FileSettings:
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SettingsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML: {exc}") from None
    if table:
        data = data.get("tool", {}).get(TABLE, {})
        if not isinstance(data, dict):
            raise SettingsError(f"{path}: {table} must be a table")
    return FileSettings(path, table, validate(data, f"{path}{' ' + table if table else ''}"))


def validate(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Check every key and value; names may use `_` for `-`."""
    out: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = raw_key.replace("_", "-")
        if key not in KEYS:
            raise SettingsError(f"{where}: unknown setting {raw_key!r} (known: "
                                f"{', '.join(KEYS)})")
        out[key] = _check_value(key, value, f"{where}: {raw_key}")
    return out


def _str_list(value: Any, where: str, what: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip()
                                              for v in value):
        raise SettingsError(f"{where} must be {what}")
    return [p.strip() for v in value for p in v.split(",") if p.strip()]


def _check_value(key: str, value: Any, where: str) -> Any:
    option = _BY_KEY[key]
    what = KEYS[key][1]
    if key == PROVIDER.setting:  # one name, or several as a list or a comma-separated string
        items = _str_list(value, where, what)
        if not items:
            raise SettingsError(f"{where} must be {what}")
        return items[0] if isinstance(value, str) and len(items) == 1 else items
    if option is SOURCES_SETTING:  # file names: a comma is part of one
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise SettingsError(f"{where} must be {what}")
        return value
    if option.kind == "multi":
        return _str_list(value, where, what)
    if option.kind == "table":  # per-tool-ignores
        if not isinstance(value, dict):
            raise SettingsError(f"{where} must be {what}")
        return {str(k): _str_list(v, f"{where}.{k}", "a list of rule codes")
                for k, v in value.items()}
    if option.kind == "value":  # a name, checked by the command (commands/providers.py)
        if not isinstance(value, str) or not value.strip():
            raise SettingsError(f"{where} must be {what}")
        return value.strip().lower()
    if option.kind == "choice":
        if value not in option.choices:
            raise SettingsError(f"{where} must be {what}, not {value!r}")
        return value
    if not isinstance(value, bool):  # a flag's setting
        raise SettingsError(f"{where} must be {what}, not {value!r}")
    return value


def resolve(file: FileSettings, flags: Mapping[str, Any]) -> Settings:
    """Flags (only those given on the command line) win over the file, the file over the
    defaults."""
    values: dict[str, Setting] = {}
    origin = file.path.name if file.path else ""
    for key, default in DEFAULTS.items():
        if key in flags:
            values[key] = Setting(flags[key], KEYS[key][0])
        elif key in file.values:
            values[key] = Setting(file.values[key], origin)
        else:
            values[key] = Setting(default, "default")
    return Settings(values, file.path, file.table)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_value(k)} = {_toml_value(v)}"
                                for k, v in value.items()) + " }" if value else "{}"
    return str(value)


def describe(settings: Settings) -> str:
    """The settings in force as TOML, each line saying where its value came from."""
    if settings.file is None:
        head = "# no settings file found (looked for .schema-compat.toml and " \
               "[tool.schema-compat] in pyproject.toml, from here up)"
    else:
        head = f"# settings file: {settings.file}" + (f" {settings.table}"
                                                       if settings.table else "")
    rows = [(f"{k} = {_toml_value(s.value)}" if s.value is not None else f"# {k} (not set)",
             s.origin) for k, s in settings.values.items()]
    width = max(len(r[0]) for r in rows)
    lines = [head] + [f"{text:<{width}}  # {origin}" for text, origin in rows]
    return "\n".join(lines) + "\n"
