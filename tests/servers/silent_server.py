"""Never answers: reads stdin, ignores SIGTERM and end of input (the timeout tests)."""

import signal
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
for _line in sys.stdin:
    pass
while True:
    time.sleep(1)
