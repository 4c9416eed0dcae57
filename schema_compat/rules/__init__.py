"""Rules as data: one module per family, one registry, one engine (`schema_compat.engine`)."""
