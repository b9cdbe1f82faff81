"""`SparkWarehouse`: a Spark SQL catalog as the rest of ZLens sees it (a `WarehouseEngine`).

Same contract as the DuckDB `Warehouse`: a profiled catalog, schema linking and value
probing (the engine-neutral parts are shared), a read-only guard, identifier validation and
bounded previews that Stop and the deadline cancel. ZLens builds SQL in its house dialect
(DuckDB's); here it is transpiled by sqlglot to Spark SQL, guarded by sqlglot's Spark dialect
and by Spark's own parser, and run as `spark.sql(...).limit(n+1).collect()` in a job group.
"""

from __future__ import annotations

import copy
import functools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import sqlglot

from zlens_jupyter.errors import ConfigError, QueryError
from zlens_jupyter.warehouse.guard import SQLGuardViolation
from zlens_jupyter.warehouse.interface import HOUSE_DIALECT
from zlens_jupyter.warehouse.joins import infer_join_keys
from zlens_jupyter.warehouse.linking import IndexCache
from zlens_jupyter.warehouse.models import (
    Catalog,
    IdentifierProblem,
    JoinKey,
    LinkResult,
    Preview,
    ValueMatch,
)
from zlens_jupyter.warehouse.probing import ValueIndex
from zlens_jupyter.warehouse.spark.catalog import (
    SparkColumn,
    profile_spark_tables,
    read_spark_shape,
    spark_column_is_unique,
    spark_columns_are_unique,
    spark_fingerprint,
)
from zlens_jupyter.warehouse.spark.guard import guard_spark_plan, guard_spark_text
from zlens_jupyter.warehouse.spark.jobs import run_spark_preview
from zlens_jupyter.warehouse.validate import validate_identifiers
from zlens_jupyter.warehouse.warehouse import _resolve


@dataclass
class _Snapshot:
    shape: tuple[SparkColumn, ...]
    catalog: Catalog
    values: ValueIndex
    estimates: dict[tuple[str, str], int] = field(default_factory=dict)
    uniqueness: dict[tuple[str, str], bool] = field(default_factory=dict)
    composite_uniqueness: dict[tuple[str, tuple[str, ...]], bool] = field(default_factory=dict)


def is_spark_session(value: Any) -> bool:
    """Whether `value` is a classic PySpark SparkSession, without importing pyspark. A Spark
    Connect session (`sc://`) is not: it has no JVM, so Spark's parser cannot check SQL."""
    return any(
        cls.__name__ == "SparkSession"
        and cls.__module__.startswith("pyspark.")
        and not cls.__module__.startswith("pyspark.sql.connect")
        for cls in type(value).__mro__
    )


class SparkWarehouse:
    """The tables of a SparkSession's current database (and its temporary views).

    `written_in` is the dialect of the SQL handed to `guard`, `validate` and `preview`: the
    house dialect by default (what ZLens builds and blocks are written in), "spark" for
    SQL a person wrote for Spark.
    """

    dialect = "spark"

    def __init__(self, spark: Any, *, written_in: str = HOUSE_DIALECT) -> None:
        if not is_spark_session(spark):
            raise ConfigError(
                f"expected a pyspark SparkSession, got {type(spark).__name__}; "
                "build one with SparkSession.builder.getOrCreate()"
            )
        self.spark = spark
        self.source_dialect = written_in
        self._lock = threading.RLock()
        self._snapshot: _Snapshot | None = None
        self._pins = 0
        self._declared: list[tuple[str, str, str, str]] = []
        self._indexes = IndexCache()
        self._closed = False

    def reading(self, dialect: str) -> SparkWarehouse:
        """This warehouse taking SQL written in `dialect` (a DQL block's `dialect = "spark"`
        runs unchanged); catalog and state are shared."""
        if dialect == self.source_dialect:
            return self
        twin = copy.copy(self)
        twin.source_dialect = dialect
        return twin

    def close(self) -> None:
        """Forget the catalog; the SparkSession stays the caller's (never stopped here)."""
        self._closed = True

    # --- catalog ---------------------------------------------------------------------

    def catalog(self) -> Catalog:
        """The profiled catalog; re-profiled only when a name, type or comment changed."""
        return self._current().catalog

    def dated_catalog(self) -> Catalog:
        """The catalog: dates kept as text are not read as dates on Spark yet."""
        return self.catalog()

    @contextmanager
    def pinned(self) -> Iterator[Catalog]:
        """One schema for a whole run: the catalog is read once, not on every call."""
        with self._lock:
            snapshot = self._current()
            self._pins += 1
        try:
            yield snapshot.catalog
        finally:
            with self._lock:
                self._pins -= 1

    def _current(self) -> _Snapshot:
        with self._lock:
            if self._closed:
                raise ConfigError("this Spark warehouse is closed; connect again")
            if self._snapshot is not None and self._pins:
                return self._snapshot
            shape = read_spark_shape(self.spark)
            if self._snapshot is None or self._snapshot.shape != shape:
                self._snapshot = self._profile(shape)
            return self._snapshot

    def _profile(self, shape: tuple[SparkColumn, ...]) -> _Snapshot:
        tables, probe_values, estimates = profile_spark_tables(self.spark, shape)
        fingerprint = spark_fingerprint((r.table, r.column, r.spark_type) for r in shape)
        catalog = Catalog(tables, (), fingerprint)
        snapshot = _Snapshot(shape, catalog, ValueIndex(probe_values), estimates)
        return self._with_join_keys(snapshot)

    def _with_join_keys(self, snapshot: _Snapshot) -> _Snapshot:
        tables = snapshot.catalog.tables
        by_lower = {name.lower(): table for name, table in tables.items()}

        def is_unique(table: str, column: str) -> bool:
            key = (table.lower(), column.lower())
            if key not in snapshot.uniqueness:
                snapshot.uniqueness[key] = spark_column_is_unique(
                    self.spark,
                    by_lower[table.lower()],
                    column,
                    snapshot.estimates.get(key, 0),
                )
            return snapshot.uniqueness[key]

        def are_unique(table: str, columns: tuple[str, ...]) -> bool:
            key = (table.lower(), tuple(c.lower() for c in columns))
            if key not in snapshot.composite_uniqueness:
                snapshot.composite_uniqueness[key] = spark_columns_are_unique(
                    self.spark,
                    by_lower[table.lower()],
                    columns,
                    tuple(snapshot.estimates.get((key[0], c), 0) for c in key[1]),
                )
            return snapshot.composite_uniqueness[key]

        declared = [k for pair in self._declared if (k := _resolve(snapshot.catalog, pair))]
        keys: tuple[JoinKey, ...] = infer_join_keys(tables, (), declared, is_unique, are_unique)
        snapshot.catalog = snapshot.catalog.with_join_keys(keys)
        return snapshot

    def declare_relationships(self, pairs: Iterable[tuple[str, str, str, str]]) -> None:
        """Add (from_table, from_column, to_table, to_column) joins from a semantic file."""
        with self._lock:
            snapshot = self._current()
            new: list[tuple[str, str, str, str]] = []
            for pair in pairs:
                if len(pair) != 4:
                    raise ConfigError(f"a relationship needs 4 names, got {pair!r}")
                a, b, c, d = (str(part) for part in pair)
                _resolve(snapshot.catalog, (a, b, c, d), strict=True)
                new.append((a, b, c, d))
            self._declared.extend(p for p in new if p not in self._declared)
            self._snapshot = self._with_join_keys(snapshot)

    def schema_fingerprint(self, tables: Iterable[str] | None = None) -> str:
        """`spark:` + sha256 of (table, column, Spark type) for `tables` (all when None)."""
        snapshot = self._current()
        if tables is None:
            return snapshot.catalog.fingerprint
        by_table: dict[str, list[SparkColumn]] = {}
        for row in snapshot.shape:
            by_table.setdefault(row.table.lower(), []).append(row)
        triples: list[tuple[str, str, str]] = []
        for name in tables:
            rows = by_table.get(name.lower())
            if not rows:
                triples.append((name, "", "<missing>"))
            else:
                triples.extend((r.table, r.column, r.spark_type) for r in rows)
        return spark_fingerprint(triples)

    # --- questions -------------------------------------------------------------------

    def link(
        self,
        question: str,
        *,
        k_tables: int = 5,
        k_columns: int = 10,
        synonyms: Mapping[str, list[str]] | None = None,
    ) -> LinkResult:
        """Rank tables and columns for `question` (BM25 over the profiled catalog)."""
        snapshot = self._current()
        return self._indexes.search(
            snapshot.catalog,
            (snapshot.catalog.fingerprint, snapshot.shape),
            question,
            k_tables=k_tables,
            k_columns=k_columns,
            synonyms=synonyms,
        )

    def probe_values(self, question: str) -> list[ValueMatch]:
        """Words and phrases of `question` equal to sampled text values."""
        snapshot = self._current()
        return snapshot.values.probe(question, snapshot.catalog)

    # --- SQL ---------------------------------------------------------------------------

    def engine_sql(self, sql: str) -> str:
        """`sql` in Spark SQL (transpiled by sqlglot when written in the house dialect)."""
        return _transpile(sql, self.source_dialect)

    def guard(self, sql: str) -> str:
        """`sql` (as written) if its Spark form is one read-only query, else raise.

        Checked twice, independently: sqlglot's Spark dialect, then Spark's own parser (the
        plan must be a query, no command or write anywhere in it). Nothing runs."""
        engine_text = self.engine_sql(sql)
        try:
            statement = guard_spark_text(engine_text)
        except QueryError:
            # sqlglot cannot read it: Spark's parser says whether it is a command (a
            # violation, never retried) or not SQL at all; either way it never runs.
            guard_spark_plan(self.spark, engine_text)
            raise
        guard_spark_plan(self.spark, statement)
        return sql.strip().rstrip(";").strip()

    def validate(self, sql: str) -> list[IdentifierProblem]:
        """Unknown tables and columns in `sql`, each with the nearest real names."""
        house = sql if self.source_dialect == HOUSE_DIALECT else _to_house(sql, self.source_dialect)
        return validate_identifiers(house, self.catalog())

    def preview(
        self,
        sql: str,
        *,
        params: Any = None,
        limit: int = 1000,
        timeout_s: float = 30.0,
        should_stop: Callable[[], bool] | None = None,
    ) -> Preview:
        """Guard, then run on Spark bounded by `limit` rows and `timeout_s` seconds.

        A job group per statement: Stop (`should_stop`, Ctrl-C, a kernel interrupt) and the
        deadline cancel its jobs on the cluster (`cancelJobGroup`)."""
        self.guard(sql)
        statement = guard_spark_text(self.engine_sql(sql))
        if isinstance(params, list | tuple):
            raise QueryError("positional parameters are not supported on Spark; name them")
        return run_spark_preview(
            self.spark,
            statement,
            params=dict(params) if params else None,
            limit=limit,
            timeout_s=timeout_s,
            should_stop=should_stop,
        )


@functools.lru_cache(maxsize=512)
def _transpile(sql: str, written_in: str) -> str:
    text = sql.strip().rstrip(";").strip()
    if written_in == "spark":
        return text
    try:
        statements = sqlglot.transpile(text, read=written_in, write="spark")
    except sqlglot.errors.SqlglotError as error:
        raise QueryError(f"cannot read the SQL as {written_in}: {error}") from None
    except RecursionError:
        raise QueryError("the SQL is nested too deeply to read") from None
    # sqlglot renders a statement Spark has no form for as "" (DuckDB's INSTALL): count
    # what was written, not what survived, or `SELECT 1; INSTALL x` would pass as one.
    if len(statements) != 1:
        raise SQLGuardViolation(
            "single-statement", f"exactly one statement is allowed, found {len(statements)}"
        )
    if not statements[0].strip():
        raise QueryError(f"this {written_in} statement has no Spark SQL form")
    return statements[0]


@functools.lru_cache(maxsize=256)
def _to_house(sql: str, written_in: str) -> str:
    try:
        return ";\n".join(sqlglot.transpile(sql, read=written_in, write=HOUSE_DIALECT))
    except (sqlglot.errors.SqlglotError, RecursionError):
        return sql
