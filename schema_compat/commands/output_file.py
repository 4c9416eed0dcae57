"""Writing a command's output file (-o, --write-baseline): whole or not at all.

A transform may stream a large document over a long run, and a run may fail or be stopped
half way; the file given is then left as it was rather than cut short, and the temporary
file written meanwhile is removed.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable

from ..signals import signals_as_exit
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
    was or replaced whole, even when the text comes in pieces over a long run.

    An interrupted run removes its temporary file (^C, SIGTERM and SIGHUP end it as an exit:
    `signals_as_exit`). SIGKILL cannot be caught: the file it leaves is named with the
    writer's pid, and the next write in the same directory removes those whose writer is no
    longer running on this machine (`_remove_stale`)."""
    import stat
    import tempfile

    with contextlib.suppress(OSError):
        if not stat.S_ISREG(os.stat(path).st_mode):  # /dev/null, a FIFO, a terminal:
            _write_in_place(path, text)  # a rename would put a regular file in its place
            return
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        fail(f"cannot write {path}: directory {directory} does not exist")
    _remove_stale(directory)
    with signals_as_exit():
        try:
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=f"{_PREFIX}{os.getpid()}-",
                                       suffix=_SUFFIX)
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


def _write_in_place(path: str, text: str | Iterable[str]) -> None:
    """Write into what `path` is (a device or a pipe), which has no whole-or-nothing."""
    try:
        with open(path, "w", encoding="utf-8") as fh:
            for piece in (text,) if isinstance(text, str) else text:
                fh.write(piece)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


# the temporary file of a write: `.schema-compat-PID-XXXXXXXX.json` (mkstemp's 8 characters)
_PREFIX, _SUFFIX = ".schema-compat-", ".json"
_STALE = re.compile(r"\.schema-compat-(\d+)-[a-z0-9_]{8}\.json")


def _remove_stale(directory: str) -> None:
    """Remove the temporary files a killed write left in `directory`: those named for a
    process that no longer runs here (POSIX; a file whose pid was given to another process
    since is kept). Nothing else: a file of another name is never touched."""
    if os.name != "posix":
        return
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        found = _STALE.fullmatch(name)
        if found is None or _running(int(found.group(1))):
            continue
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(directory, name))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # EPERM: another user's process; it runs
        return True
    return True


def _mode_for(path: str) -> int:
    """The permissions `path` should end with: its own when it exists, else what a plain
    `open(path, "w")` would give. mkstemp makes its file 0600, which the rename would keep."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
