"""Never answers: reads stdin, ignores SIGTERM and end of input (the timeout tests). With a
path argument, writes its pid there first (the tests that it is stopped)."""

import os
import signal
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
if len(sys.argv) > 1:
    with open(sys.argv[1] + ".part", "w") as out:
        out.write(str(os.getpid()))
    os.replace(sys.argv[1] + ".part", sys.argv[1])
for _line in sys.stdin:
    pass
while True:
    time.sleep(1)
