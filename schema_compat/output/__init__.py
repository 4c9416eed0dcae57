"""What `transform` writes, one module per way out.

- `write_back`: the transformed tools in the document they were read from, in its shape;
- `document`: which document a transform writes for its results (one source in its own
  shape, several as one MCP listing), whole or in pieces;
- `results`: the results kept while that document is written (lean, change logs compacted).

(`transform --to`'s provider request bodies are requests/bodies.py's.) Nothing is
re-exported here: each command imports only the module it writes with.
"""
