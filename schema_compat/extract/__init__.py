"""Where tools come from: files (`files`, in the shapes `shapes` recognises), live MCP
servers (`live` and its `live_*` modules), client configs (`config`). This package only
reads: writing tools back in their shape is `schema_compat.output`.

Only the file loader is re-exported here: `live` imports the MCP SDK (~1 s), which the
file path must never pay for.
"""

from __future__ import annotations

from .files import (
    SHAPES,
    LoadedSource,
    SourceLoadError,
    load_source_text,
    load_sources,
)

__all__ = ["SHAPES", "LoadedSource", "SourceLoadError", "load_source_text", "load_sources"]
