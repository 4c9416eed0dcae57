"""Exits during start-up with an error on stderr, as a misconfigured server does."""

import sys

print("loading config...", file=sys.stderr)
print("Error: API_TOKEN is not set", file=sys.stderr)
sys.exit(3)
