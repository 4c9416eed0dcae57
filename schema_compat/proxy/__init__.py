"""An MCP stdio proxy that makes any MCP server's tools acceptable to one provider.

`relay.py` decides what each message becomes (transformed listings, repaired and renamed
calls, errors for requests the upstream never answers); `gateway_serve.py` is the one serve
loop, over an `upstream.Upstream` (a stdio process, or through `remote.py` an HTTP or SSE
server: the only module that imports the MCP SDK).
"""
