"""Spark type names in the house vocabulary (DuckDB's), so the parser reads one language.

The question parser, the semantic drafter and the prompts tell measures, dates and text
apart by type name (`BIGINT`, `DOUBLE`, `VARCHAR`, `TIMESTAMP`); a Spark catalog says
`bigint`, `double`, `string`, `timestamp_ntz`. The catalog shows the house names, the schema
fingerprint keeps Spark's own.

>>> [house_type(t) for t in ("string", "bigint", "decimal(15,2)", "timestamp_ntz", "int")]
['VARCHAR', 'BIGINT', 'DECIMAL(15,2)', 'TIMESTAMP', 'INTEGER']
"""

from __future__ import annotations

_SIMPLE = {
    "string": "VARCHAR",
    "char": "VARCHAR",
    "varchar": "VARCHAR",
    "tinyint": "TINYINT",
    "byte": "TINYINT",
    "smallint": "SMALLINT",
    "short": "SMALLINT",
    "int": "INTEGER",
    "integer": "INTEGER",
    "bigint": "BIGINT",
    "long": "BIGINT",
    "float": "FLOAT",
    "double": "DOUBLE",
    "boolean": "BOOLEAN",
    "date": "DATE",
    "timestamp": "TIMESTAMP",
    "timestamp_ntz": "TIMESTAMP",
    "timestamp_ltz": "TIMESTAMP",
    "binary": "BLOB",
    "void": "NULL",
}


def house_type(spark_type: str) -> str:
    """A Spark `simpleString` type as DuckDB would name it; nested types upper-cased."""
    text = spark_type.strip().lower()
    base = text.split("(", 1)[0]
    if base == "decimal":
        return text.upper().replace(" ", "")
    if base in _SIMPLE:
        return _SIMPLE[base]
    return text.upper()
