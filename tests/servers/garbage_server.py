"""A stdio "server" that never speaks JSON-RPC: it writes undecodable bytes and text lines to
stdout until it is killed, as a misconfigured command (a binary, a pager) does."""

import sys
import time

out = sys.stdout.buffer
while True:
    out.write(b"\xff\xfe\x00garbage\x89PNG\r\n")
    out.write(b"not json either\n")
    out.flush()
    time.sleep(0.05)
