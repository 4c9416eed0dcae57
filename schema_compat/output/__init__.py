"""What `transform` writes, one module per way out.

- `write_back`: the transformed tools in the document they were read from, in its shape;
- `document`: which document a transform writes for its results (one source in its own
  shape, several as one MCP listing), whole or in pieces;
- `results`: the results kept while that document is written (lean, change logs compacted);
- `provider`: the `tools` value of a provider's request body (`transform --to`) and a
  planned request as one MCP listing.

Nothing is re-exported here: `check` imports only `results`, and each command only the
module it writes with.
"""
