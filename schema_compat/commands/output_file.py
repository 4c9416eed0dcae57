"""Writing a command's output file (-o, --write-baseline): whole or not at all.

A transform may stream a large document over a long run, and a run may fail half way; the
file given is then left as it was rather than cut short.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

from .exits import fail


def refuse_input(path: str, option: str, inputs: Iterable[str], hint: str) -> None:
    """Exit 2 when `path` is the same file on disk as one of `inputs` (symlinks followed,
    hard links too), since writing it would replace what the command read: a source, a client
    config, the settings file. A path not there yet overwrites nothing."""
    try:
        target = os.stat(path)
    except (OSError, ValueError):
        return
    for name in inputs:
        try:
            same = os.path.samestat(target, os.stat(name))
        except (OSError, ValueError):
            continue
        if same:
            fail(f"{option} {path} is one of the inputs ({name}); it would be overwritten",
                 hint)


def write_file(path: str, text: str | Iterable[str]) -> None:
    """Write to a temporary file beside `path`, then rename it: `path` is either left as it
    was or replaced whole, even when the text comes in pieces over a long run."""
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        fail(f"cannot write {path}: directory {directory} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".schema-compat-", suffix=".json")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    try:
        os.chmod(tmp, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for piece in (text,) if isinstance(text, str) else text:
                fh.write(piece)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            fail(f"cannot write {path}: {exc.strerror or exc}")
        raise


def _mode_for(path: str) -> int:
    """The permissions `path` should end with: its own when it exists, else what a plain
    `open(path, "w")` would give. mkstemp makes its file 0600, which the rename would keep."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
