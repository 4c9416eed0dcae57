"""Schema structure: which keywords hold subschemas, one walker, local `$ref` resolution."""
