"""An output file (-o, --write-baseline) written by a run that is stopped half way: the file
given is left as it was, and the temporary file beside it does not stay behind.

The writer is a real process (the `write_file` every command uses) whose text stalls after
its first piece, as a long transform's does; it is stopped the ways a shell, a CI runner or
a closed terminal stop a run. SIGKILL cannot be caught: what it leaves is removed by the
next write in the same directory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schema_compat.commands.output_file import write_file

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

WRITER = """
import sys, time
from pathlib import Path
from schema_compat.commands.output_file import write_file

def pieces():
    yield '{"tools": ['
    Path(sys.argv[2]).write_text("writing")
    time.sleep(60)
    yield ']}'

write_file(sys.argv[1], pieces())
"""


def _temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".schema-compat-"))


def _stopped_while_writing(tmp_path: Path, signum: int) -> tuple[Path, int]:
    out = tmp_path / "out.json"
    out.write_text("the user's file")
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(out), str(ready)],
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert time.monotonic() < deadline, "the writer did not start"
        assert proc.poll() is None, "the writer ended"
        time.sleep(0.02)
    assert len(_temporaries(tmp_path)) == 1  # the write is under way
    proc.send_signal(signum)
    proc.wait(timeout=10)
    assert out.read_text() == "the user's file"
    return out, proc.pid


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stopped_write_removes_its_temporary_file(tmp_path: Path, signum: int) -> None:
    _stopped_while_writing(tmp_path, signum)
    assert _temporaries(tmp_path) == []


def test_what_a_killed_write_left_is_removed_by_the_next_write(tmp_path: Path) -> None:
    out, pid = _stopped_while_writing(tmp_path, signal.SIGKILL)
    [left] = _temporaries(tmp_path)
    assert left.startswith(f".schema-compat-{pid}-")
    # a write under way in another process, and a file that is not ours, are never touched
    running = f".schema-compat-{os.getpid()}-abcd1234.json"
    (tmp_path / running).write_text("{")
    (tmp_path / ".schema-compat-baseline.json").write_text("{}")
    write_file(str(out), '{"tools": []}')
    assert out.read_text() == '{"tools": []}'
    assert _temporaries(tmp_path) == sorted([running, ".schema-compat-baseline.json"])


def test_a_pipe_given_as_output_is_written_into_and_stays_a_pipe(tmp_path: Path) -> None:
    """`-o /dev/null` or a named pipe: the rename that makes a file whole would put a regular
    file in the device's place (as root, /dev/null itself was replaced)."""
    import stat
    import threading

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    write_file(str(fifo), ['{"tools": ', "[]}"])
    reader.join(timeout=10)
    assert received == ['{"tools": []}']
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert _temporaries(tmp_path) == []


def test_an_output_in_a_missing_directory_is_a_one_line_error(tmp_path: Path) -> None:
    """`-o` into a folder that is not there: exit 2 and one line naming it, nothing created."""
    from inprocess import cli_in_process

    out = tmp_path / "no-such-folder" / "out.json"
    proc = cli_in_process("transform", "examples/fs_read_files.json", "-o", str(out))
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"schema-compat: error: cannot write {out}: directory "
                                   f"{out.parent} does not exist")
    assert not out.parent.exists()
