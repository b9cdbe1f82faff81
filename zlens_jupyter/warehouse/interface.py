"""What an engine behind ZLens must provide: the seam between the loop and a database.

Routes, gates and the DQL runner talk to a `WarehouseEngine`; `Warehouse` (DuckDB, the
embedded default) and `SparkWarehouse` (Spark SQL through PySpark) are its two engines.

Why our own small Protocol rather than Ibis: ZLens needs far more than a query builder from an
engine (a read-only guard checked by the engine's own parser, bounded previews that cancel,
profiled catalogs, a schema fingerprint for certification), and its SQL is already built and
checked with sqlglot, whose dialects carry the per-engine syntax. Ibis would add a large
dependency for the part that was already portable and none of the parts that are not.

SQL crosses the seam in the engine's own dialect (`dialect`, a sqlglot dialect name), except
that every engine also accepts the house dialect ZLens builds and certifies blocks in (DuckDB)
and transpiles it with sqlglot: `engine_sql(sql)` is the statement as the engine runs it.

>>> from zlens_jupyter.warehouse import Warehouse
>>> isinstance(Warehouse.connect(":memory:"), WarehouseEngine)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from zlens_jupyter.warehouse.models import (
    Catalog,
    IdentifierProblem,
    LinkResult,
    Preview,
    ValueMatch,
)

HOUSE_DIALECT = "duckdb"  # what routes build and blocks are written in unless they declare one


@runtime_checkable
class WarehouseEngine(Protocol):
    """One database as the loop sees it. Every method is safe to call from any route."""

    # The sqlglot dialect of the statements the engine runs ("duckdb", "spark").
    dialect: str

    # -- catalog: tables, columns, types, comments, row counts, sampled values, keys ----
    def catalog(self) -> Catalog:
        """The profiled catalog (rebuilt when the schema changed)."""
        ...

    def dated_catalog(self) -> Catalog:
        """The catalog as questions read it: text columns holding dates written one way
        typed as dates (`ColumnInfo.date_format`), for the parser and the SQL it builds."""
        ...

    def pinned(self) -> AbstractContextManager[Catalog]:
        """One schema for a whole run: the catalog is not re-checked inside the block."""
        ...

    def link(
        self,
        question: str,
        *,
        k_tables: int = 5,
        k_columns: int = 10,
        synonyms: Mapping[str, list[str]] | None = None,
    ) -> LinkResult:
        """Tables and columns ranked for `question`."""
        ...

    def probe_values(self, question: str) -> list[ValueMatch]:
        """Words of `question` that are stored values."""
        ...

    def declare_relationships(self, pairs: Iterable[tuple[str, str, str, str]]) -> None:
        """Join keys from a semantic file (ConfigError on unknown names)."""
        ...

    def schema_fingerprint(self, tables: Iterable[str] | None = None) -> str:
        """A digest of the tables' shape on this engine; certification records it, so a
        block certified on one engine is not certified on another."""
        ...

    # -- SQL: guard, identifier validation, bounded preview with deadline and cancel --------
    def guard(self, sql: str) -> str:
        """The single read-only statement, or GuardrailViolation naming the rule."""
        ...

    def validate(self, sql: str) -> list[IdentifierProblem]:
        """Unknown tables and columns, each with the nearest real names."""
        ...

    def engine_sql(self, sql: str) -> str:
        """`sql` as this engine runs it (transpiled from the house dialect if needed)."""
        ...

    def preview(
        self,
        sql: str,
        *,
        params: Any = None,
        limit: int = 1000,
        timeout_s: float = 30.0,
        should_stop: Callable[[], bool] | None = None,
    ) -> Preview:
        """Guard, then run bounded by `limit` rows and `timeout_s` seconds; `should_stop`
        turning true cancels the engine's work (KeyboardInterrupt, the loop's cancel path)."""
        ...

    def close(self) -> None:
        """Release what this warehouse opened (never what the caller passed in)."""
        ...
