"""What `transform` writes, one module per way out.

- `write_back`: the text of the document the tools came in, with the new tools in place;
- `document`: which document a transform writes for its results (one source in its own
  shape, several as one MCP listing), written in pieces as the tools are transformed;
- `results`: the results kept while that document is written (lean, change logs compacted).

(`transform --to`'s provider request bodies are requests/bodies.py's.) Nothing is
re-exported here: each command imports only the module it writes with.
"""
