"""An MCP stdio proxy that makes any MCP server's tools acceptable to one provider.

`relay.py` decides what each message becomes (transformed listings, repaired and renamed
calls, errors for requests the upstream never answers); `run.py` carries the messages over
the official SDK's transports. Only `run.py` imports the SDK.
"""
