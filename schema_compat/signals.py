"""SIGTERM and SIGHUP ended as an exit (SystemExit, status 128 + the signal), for the spells
of a run that leave something behind when the process dies at once: servers started for a
live listing, the temporary file of an output being written. As an exit, `finally` blocks,
`except BaseException` cleanups and atexit handlers run. SIGINT needs nothing: Python ends
it as KeyboardInterrupt already. SIGKILL cannot be caught.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["signals_as_exit"]

# a closed terminal sends SIGHUP (not on Windows)
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                 if hasattr(signal, name))


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def signals_as_exit() -> Iterator[None]:
    """While the block runs in the main thread, SIGTERM and SIGHUP end the process as an
    exit does. A signal the program handles (or ignores: `nohup`) itself is left alone, and
    so is every signal off the main thread, where Python cannot set a handler."""
    taken = []
    if threading.current_thread() is threading.main_thread():
        for signum in _SIGNALS:
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, _exit)
                taken.append(signum)
    try:
        yield
    finally:
        for signum in taken:
            signal.signal(signum, signal.SIG_DFL)
