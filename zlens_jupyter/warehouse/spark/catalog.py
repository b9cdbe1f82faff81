"""A Spark catalog (through `spark.catalog`) profiled into ZLens's `Catalog`.

Reading the shape (tables, views, columns, types, comments) costs catalog calls only and
runs no job. Profiling runs jobs, so it is lazy (on first use) and approximate where exact
would scan a large table: `count(*)` (Parquet answers it from footers), then
`approx_count_distinct` over text columns, on a `TABLESAMPLE` above a million rows, and only
the columns with few values have them collected (`collect_set`). Each statement has its own
job group and time cap: a huge table gives up its values, never the whole catalog.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from zlens_jupyter.warehouse.catalog import (
    LOW_CARDINALITY_LIMIT,
    PROBE_CARDINALITY_LIMIT,
    PROBE_VALUE_BUDGET,
    PROFILE_SAMPLE_ROWS,
    UNIQUENESS_MAX_ROWS,
    ColumnValues,
    distinct_tuples_sql,
    fingerprint_of,
    is_text_type,
)
from zlens_jupyter.warehouse.models import ColumnInfo, TableInfo
from zlens_jupyter.warehouse.spark.guard import quote_spark_identifier as q
from zlens_jupyter.warehouse.spark.jobs import fetch_spark_best_effort
from zlens_jupyter.warehouse.spark.types import house_type

ENGINE = "spark"
# A Spark job has a fixed cost (scheduling, codegen) that DuckDB's scans do not: the caps are
# wider than DuckDB's, and a table past its cap is listed uncounted or unsampled.
TABLE_TIMEOUT_S = 60.0
VIEW_TIMEOUT_S = 10.0
# Columns of these types never join (joins.py): no distinct estimate is needed for them.
_NEVER_KEYS = ("FLOAT", "DOUBLE", "REAL", "BOOLEAN", "DATE", "TIME", "INTERVAL", "BLOB")


@dataclass(frozen=True)
class SparkColumn:
    table: str
    column: str
    spark_type: str
    comment: str | None


def read_spark_shape(spark: Any) -> tuple[SparkColumn, ...]:
    """Every column of the current database's tables and of the temporary views, in order.

    `SHOW TABLES` and each table's schema: catalog calls only, no job (about 30 ms for ten
    tables, where `catalog.listColumns` takes a second)."""
    rows: list[SparkColumn] = []
    listed = spark.sql("SHOW TABLES").collect()
    names = sorted({(r["tableName"], bool(r["isTemporary"]), r["namespace"]) for r in listed})
    for name, temporary, namespace in names:
        reference = q(name) if temporary or not namespace else f"{q(namespace)}.{q(name)}"
        try:
            schema = spark.table(reference).schema
        except Exception:  # dropped meanwhile, or unreadable: not part of the catalog
            continue
        rows.extend(
            SparkColumn(name, f.name, f.dataType.simpleString(), f.metadata.get("comment"))
            for f in schema.fields
        )
    return tuple(rows)


def read_table_details(spark: Any) -> dict[str, tuple[str, str | None]]:
    """{table: (kind, comment)} from `spark.catalog.listTables()` (read when profiling)."""
    details: dict[str, tuple[str, str | None]] = {}
    for table in spark.catalog.listTables():
        kind = "view" if (table.tableType or "").upper() == "VIEW" else "table"
        details[table.name] = (kind, table.description or None)
    return details


def spark_fingerprint(triples: Iterable[tuple[str, str, str]]) -> str:
    """The schema fingerprint on Spark: the engine's name and its own type names, so a block
    certified on DuckDB never passes for certified on Spark (nor the other way round)."""
    return f"{ENGINE}:" + fingerprint_of(triples)


def profile_spark_tables(
    spark: Any, shape: tuple[SparkColumn, ...]
) -> tuple[dict[str, TableInfo], list[ColumnValues], dict[tuple[str, str], int]]:
    """Tables with row counts and low-cardinality values, the values kept for probing, and
    every column's approximate distinct count ({(table, column): n}, lower-cased names)."""
    grouped: dict[str, list[SparkColumn]] = {}
    for row in shape:
        grouped.setdefault(row.table, []).append(row)
    details = read_table_details(spark)
    tables: dict[str, TableInfo] = {}
    probe_values: list[ColumnValues] = []
    estimated: dict[tuple[str, str], int] = {}
    budget = PROBE_VALUE_BUDGET
    for name, rows in grouped.items():
        kind, comment = details.get(name, ("table", None))
        timeout = VIEW_TIMEOUT_S if kind == "view" else TABLE_TIMEOUT_S
        row_count = _count_rows(spark, name, timeout)
        text = [r.column for r in rows if is_text_type(house_type(r.spark_type))]
        wanted = [r.column for r in rows if not house_type(r.spark_type).startswith(_NEVER_KEYS)]
        estimates = _estimates(spark, name, wanted, row_count, timeout)
        estimated.update(((name.lower(), c.lower()), n) for c, n in estimates.items())
        values = _text_values(spark, name, text, row_count, estimates, timeout)
        columns = []
        for r in rows:
            distinct = values.get(r.column, ())
            if 0 < len(distinct) <= budget:
                probe_values.append(ColumnValues(name, r.column, distinct))
                budget -= len(distinct)
            low = distinct if len(distinct) <= LOW_CARDINALITY_LIMIT else ()
            columns.append(ColumnInfo(r.column, house_type(r.spark_type), r.comment, low))
        tables[name] = TableInfo(name, kind, comment, row_count, tuple(columns))
    return tables, probe_values, estimated


def _count_rows(spark: Any, table: str, timeout: float) -> int:
    rows = fetch_spark_best_effort(spark, f"SELECT count(*) FROM {q(table)}", timeout_s=timeout)
    return int(rows[0][0]) if rows else -1


def _sampled(table: str, row_count: int) -> str:
    if row_count > PROFILE_SAMPLE_ROWS:
        percent = max(0.1, 100.0 * PROFILE_SAMPLE_ROWS / row_count)
        return f"{q(table)} TABLESAMPLE ({percent:.3f} PERCENT)"
    return q(table)


def _estimates(
    spark: Any, table: str, columns: list[str], row_count: int, timeout: float
) -> dict[str, int]:
    """approx_count_distinct of every column in one pass (HyperLogLog: memory stays small
    whatever the table's size); it decides which text columns have their values listed and
    which columns can be unique at all."""
    if not columns or row_count <= 0:
        return {}
    rows = fetch_spark_best_effort(
        spark,
        "SELECT "
        + ", ".join(f"approx_count_distinct({q(c)})" for c in columns)
        + f" FROM {_sampled(table, row_count)}",
        timeout_s=timeout,
    )
    if not rows:
        return {}
    return {c: int(n) for c, n in zip(columns, rows[0], strict=True) if n is not None}


def _text_values(
    spark: Any,
    table: str,
    columns: list[str],
    row_count: int,
    estimates: dict[str, int],
    timeout: float,
) -> dict[str, tuple[str, ...]]:
    if not columns or row_count == 0:
        return {}
    source = _sampled(table, row_count)
    # approx_count_distinct can undercount by a few percent; the exact list decides below.
    keep = [c for c in columns if 0 < estimates.get(c, 0) <= PROBE_CARDINALITY_LIMIT * 1.1]
    if not keep:
        return {}
    lists = fetch_spark_best_effort(
        spark,
        "SELECT "
        + ", ".join(f"collect_set(CAST({q(c)} AS STRING))" for c in keep)
        + f" FROM {source}",
        timeout_s=timeout,
    )
    if not lists:
        return {}
    found: dict[str, tuple[str, ...]] = {}
    for column, values in zip(keep, lists[0], strict=True):
        distinct = sorted(v for v in values or () if v is not None)
        if 0 < len(distinct) <= PROBE_CARDINALITY_LIMIT:
            found[column] = tuple(distinct)
    return found


def spark_column_is_unique(spark: Any, table: TableInfo, column: str, estimate: int) -> bool:
    """Every row has its own non-null value. The profile's approximate distinct count rules
    most columns out with no query; the rest are counted exactly, and only on tables up to
    UNIQUENESS_MAX_ROWS (beyond, only declared keys count)."""
    if not 0 < table.row_count <= UNIQUENESS_MAX_ROWS or estimate < 0.9 * table.row_count:
        return False
    rows = fetch_spark_best_effort(
        spark,
        f"SELECT count(DISTINCT {q(column)}) = count(*) FROM {q(table.name)}",
        timeout_s=TABLE_TIMEOUT_S,
    )
    return bool(rows and rows[0][0])


def spark_columns_are_unique(
    spark: Any, table: TableInfo, columns: tuple[str, ...], estimates: tuple[int, ...]
) -> bool:
    """Every row has its own tuple of `columns`, none null (a composite key), with
    `spark_column_is_unique`'s bound. Distinct tuples are at most the product of each
    column's distinct count, so the profile's estimates rule out combinations too few to be a
    key with no query (only where they were taken over the whole table, not a sample)."""
    if not 0 < table.row_count <= UNIQUENESS_MAX_ROWS or not columns:
        return False
    whole = table.row_count <= PROFILE_SAMPLE_ROWS and all(n > 0 for n in estimates)
    if whole and math.prod(estimates) < 0.9 * table.row_count:
        return False
    rows = fetch_spark_best_effort(
        spark, distinct_tuples_sql(table.name, columns, quote=q), timeout_s=TABLE_TIMEOUT_S
    )
    return bool(rows and rows[0][0])
