"""The warehouse layer: DuckDB as the agent sees it.

Catalog (tables, columns, comments, row counts, sampled values, join keys), schema linking
(BM25), value probing, identifier validation, the read-only guard and bounded previews.
"""

from __future__ import annotations

from zlens_jupyter.warehouse.guard import SQLGuardViolation, guard_read_only
from zlens_jupyter.warehouse.models import (
    Catalog,
    ColumnInfo,
    IdentifierProblem,
    JoinKey,
    LinkedColumn,
    LinkResult,
    Preview,
    TableInfo,
    ValueMatch,
)
from zlens_jupyter.warehouse.warehouse import Warehouse

__all__ = [
    "Catalog",
    "ColumnInfo",
    "IdentifierProblem",
    "JoinKey",
    "LinkResult",
    "LinkedColumn",
    "Preview",
    "SQLGuardViolation",
    "TableInfo",
    "ValueMatch",
    "Warehouse",
    "guard_read_only",
]
