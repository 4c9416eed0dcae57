"""The option table (options.py) is where every option is declared: each of its options must
show in the typer command's `--help` with its help text and default, and be a setting of
`.schema-compat.toml` exactly where the table gives it a key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from schema_compat import cli, settings
from schema_compat import options as table

REPO_ROOT = Path(__file__).resolve().parent.parent
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
TABLE_OPTIONS = [(name, option) for name in table.COMMANDS for option in table.options(name)]


def _squeezed(text: str) -> str:
    """Text without whitespace: help is wrapped, and click also breaks lines after a `-`."""
    return "".join(text.split())


def _help(name: str) -> str:
    result = CliRunner().invoke(cli.app, [name, "--help"], env=ENV)
    assert result.exit_code == 0, result.output
    return result.stdout


def _click_params(name: str) -> dict[str, Any]:
    group = typer.main.get_command(cli.app)
    return {p.name: p for p in group.commands[name].params}  # type: ignore[attr-defined]


def test_the_table_lists_every_command() -> None:
    built = typer.main.get_command(cli.app).commands  # type: ignore[attr-defined]
    assert set(table.COMMANDS) == set(built)


@pytest.mark.parametrize(("name", "option"), TABLE_OPTIONS,
                         ids=[f"{n} {o.flags[0]}" for n, o in TABLE_OPTIONS])
def test_each_option_is_in_the_commands_help(name: str, option: table.Option) -> None:
    shown = _help(name)
    written = ", ".join(sorted(option.flags, key=lambda f: f.startswith("--")))  # -p, --provider
    assert any(ln.strip().startswith(written) for ln in shown.splitlines()), written
    assert _squeezed(option.help) in _squeezed(shown)
    if option.kind == "choice":
        assert f"<{'|'.join(option.choices)}>" in _squeezed(shown)
    default = _click_params(name)[option.param].default
    assert default == option.default
    # click shows no default for an unset value, a flag left off or an empty text
    unset = option.default is None or option.default is False or option.default == ""
    shows_default = option.show_default and not unset
    after = _squeezed(shown).split(_squeezed(option.help), 1)[1]
    assert after.startswith("[default:") == shows_default, option
    if shows_default:
        assert after.startswith(f"[default:{option.default}"), option


@pytest.mark.parametrize("name", list(table.COMMANDS))
def test_the_typer_command_has_the_tables_parameters_in_order(name: str) -> None:
    assert list(_click_params(name)) == [p.param for p in table.COMMANDS[name]]


def _usable(option: table.Option) -> tuple[list[str], Any]:
    """Command-line words that give the option a valid value, and the value handed over."""
    if option.kind == "flag":
        return [option.flags[0]], True
    if option.kind == "choice":
        return [option.flags[0], option.choices[-1]], option.choices[-1]
    if option.kind == "float":
        return [option.flags[0], "5"], 5.0
    text = "x.json"
    return [option.flags[0], text], [text] if option.kind == "multi" else text


def test_the_settings_are_the_options_with_a_settings_key() -> None:
    keyed = {o.setting: o for _, o in TABLE_OPTIONS if o.setting}
    assert set(keyed) | {"per-tool-ignores", "sources"} == set(settings.KEYS)
    for key, option in keyed.items():
        assert settings.KEYS[key][0] == option.flags[0]
        assert settings.DEFAULTS[key] == ([] if option.repeatable else option.default)
    # only the commands that read a settings file (resolve_settings) take an option with a key
    assert {n for n, o in TABLE_OPTIONS if o.setting} == {"check", "transform", "diff"}


def test_show_config_names_each_setting_with_the_flag_that_set_it(tmp_path: Path) -> None:
    """Every setting's flag given on one `check` command line: --show-config says each value
    came from that flag."""
    args = ["check", "--show-config"]
    expected = {}
    for option in table.SETTINGS:
        if not option.flags:
            continue
        words, _ = _usable(option)
        if option is table.PROVIDER:
            words = [option.flags[0], "openai"]
        args += words
        expected[option.setting] = option.flags[0]
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "schema_compat", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    origins = {ln.split(" = ")[0]: ln.rsplit("# ", 1)[1] for ln in proc.stdout.splitlines()[1:]}
    assert origins == {**expected, "per-tool-ignores": "default", "sources": "default"}


@pytest.mark.parametrize("option", [o for o in table.SETTINGS if o.kind == "choice"],
                         ids=lambda o: o.setting)
def test_a_settings_file_takes_exactly_an_options_choices(option: table.Option) -> None:
    for choice in option.choices:
        assert settings.validate({option.setting: choice}, "f") == {option.setting: choice}
    with pytest.raises(settings.SettingsError, match=f"f: {option.setting} must be one of"):
        settings.validate({option.setting: "bogus"}, "f")
