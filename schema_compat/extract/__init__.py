"""Where tools come from: files (`files`), live MCP servers (`live`), client configs (`config`).

Only the file loader is re-exported here: `live` imports the MCP SDK (~1 s), which the
file path must never pay for.
"""

from __future__ import annotations

from .files import (
    SHAPES,
    LoadedSource,
    SourceLoadError,
    detect_shape,
    iter_write_back,
    load_source_text,
    load_sources,
    write_back,
)

__all__ = [
    "SHAPES",
    "LoadedSource",
    "SourceLoadError",
    "detect_shape",
    "iter_write_back",
    "load_source_text",
    "load_sources",
    "write_back",
]
