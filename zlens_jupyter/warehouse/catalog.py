"""Reading a database's shape and profiling its tables into a Catalog.

Two speeds on purpose: `read_shape` is a single cheap query over duckdb_columns() and runs
on every `Warehouse.catalog()` call to notice schema changes; `scan_tables` counts rows and
samples text values, and runs only when the shape changed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import duckdb

from zlens_jupyter.warehouse.connection import fetch_best_effort
from zlens_jupyter.warehouse.models import ColumnInfo, TableInfo

LOW_CARDINALITY_LIMIT = 50  # distinct values kept on ColumnInfo (for grounding prompts)
PROBE_CARDINALITY_LIMIT = 5_000  # distinct values kept for value probing ("JFK", "LAX")
PROBE_VALUE_BUDGET = 200_000  # total probe values across the catalog, to bound memory
PROFILE_SAMPLE_ROWS = 1_000_000  # bigger tables are profiled on a block sample
TABLE_TIMEOUT_S = 10.0
VIEW_TIMEOUT_S = 2.0  # views can hide arbitrary work; give up quickly

_SHAPE_SQL = """
SELECT t.kind, t.name, t.comment, c.column_name, c.data_type, c.comment
FROM (
    SELECT 'table' AS kind, table_name AS name, comment FROM duckdb_tables()
    WHERE database_name = current_database() AND schema_name = current_schema()
      AND NOT internal AND NOT temporary
    UNION ALL
    SELECT 'view', view_name, comment FROM duckdb_views()
    WHERE database_name = current_database() AND schema_name = current_schema()
      AND NOT internal AND NOT temporary
) t
JOIN duckdb_columns() c
  ON c.table_name = t.name AND c.database_name = current_database()
 AND c.schema_name = current_schema()
ORDER BY t.name, c.column_index
"""

# Order-insensitive sums of hashes, computed inside DuckDB so no catalog rows travel to
# Python: the whole check is one small result row.
_CHECK_SQL = """
SELECT
  (SELECT count(*) || ':' || coalesce(sum(hash(table_name, column_name, data_type, comment)), 0)
   FROM duckdb_columns()
   WHERE database_name = current_database() AND schema_name = current_schema()),
  (SELECT count(*) || ':' || coalesce(sum(hash(table_name, comment)), 0)
   FROM duckdb_tables()
   WHERE database_name = current_database() AND schema_name = current_schema()
     AND NOT internal AND NOT temporary),
  (SELECT count(*) || ':' || coalesce(sum(hash(view_name, comment, sql)), 0)
   FROM duckdb_views()
   WHERE database_name = current_database() AND schema_name = current_schema()
     AND NOT internal AND NOT temporary)
"""

# The cheap change signal: one row per table and view, not per column. Object ids change
# when a table or view is created, dropped or replaced, column counts when a column is added
# or dropped; renames and type changes in place keep both (see Warehouse._current).
_SIGNAL_SQL = """
SELECT
  (SELECT count(*) || ':' || coalesce(sum(hash(table_oid, column_count, comment)), 0)
   FROM duckdb_tables()
   WHERE database_name = current_database() AND schema_name = current_schema()
     AND NOT internal AND NOT temporary),
  (SELECT count(*) || ':' || coalesce(sum(hash(view_oid, comment)), 0)
   FROM duckdb_views()
   WHERE database_name = current_database() AND schema_name = current_schema()
     AND NOT internal AND NOT temporary)
"""

_COLUMNS_OF_SQL = """
SELECT table_name, column_name, data_type
FROM duckdb_columns()
WHERE database_name = current_database() AND schema_name = current_schema()
  AND table_name IN (SELECT unnest(?::VARCHAR[]))
ORDER BY table_name, column_index
"""

_KEY_CONSTRAINTS_SQL = """
SELECT table_name, constraint_type, constraint_column_names, referenced_table,
       referenced_column_names
FROM duckdb_constraints()
WHERE database_name = current_database() AND schema_name = current_schema()
  AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
"""


@dataclass(frozen=True)
class ShapeRow:
    kind: str
    table: str
    table_comment: str | None
    column: str
    type: str
    column_comment: str | None


@dataclass(frozen=True)
class SchemaShape:
    """Names, types and comments only; `check_key` changes when any of them changes."""

    rows: tuple[ShapeRow, ...]
    check_key: str
    fingerprint: str


@dataclass(frozen=True)
class KeyConstraint:
    table: str
    kind: str  # "PRIMARY KEY" | "UNIQUE" | "FOREIGN KEY"
    columns: tuple[str, ...]
    referenced_table: str | None
    referenced_columns: tuple[str, ...]


@dataclass(frozen=True)
class ColumnValues:
    """Distinct values of one text column, kept for probing questions."""

    table: str
    column: str
    values: tuple[str, ...]


def quote_identifier(name: str) -> str:
    """`name` as a DuckDB quoted identifier (catalog names are data, never trusted SQL)."""
    return '"' + name.replace('"', '""') + '"'


def fingerprint_of(triples: Iterable[tuple[str, str, str]]) -> str:
    """sha256 over sorted (table, column, type), names lower-cased like DuckDB compares them."""
    normal = sorted((t.lower(), c.lower(), ty) for t, c, ty in triples)
    return hashlib.sha256(json.dumps(normal).encode()).hexdigest()


def read_check_key(connection: duckdb.DuckDBPyConnection) -> str:
    """The cheap check: a key that changes when any table, view, column, type or comment
    does. One aggregate query over the system catalog; no table is touched."""
    cursor = connection.cursor()
    try:
        row = cursor.execute(_CHECK_SQL).fetchone()
    finally:
        cursor.close()
    return "|".join(str(part) for part in row or ())


def read_change_signal(connection: duckdb.DuckDBPyConnection) -> str:
    """A key that changes when a table or view is created, dropped or replaced, or a column
    added or dropped: one row per table, so ~10x cheaper than `read_check_key` on a wide
    database, but blind to renames and type changes in place."""
    cursor = connection.cursor()
    try:
        row = cursor.execute(_SIGNAL_SQL).fetchone()
    finally:
        cursor.close()
    return "|".join(str(part) for part in row or ())


def read_columns_of(
    connection: duckdb.DuckDBPyConnection, tables: list[str]
) -> dict[str, list[tuple[str, str]]]:
    """{table: [(column, type), ...]} of `tables` as they are now (a missing table is absent)."""
    if not tables:
        return {}
    cursor = connection.cursor()
    try:
        rows = cursor.execute(_COLUMNS_OF_SQL, [list(tables)]).fetchall()
    finally:
        cursor.close()
    found: dict[str, list[tuple[str, str]]] = {}
    for table, column, type_ in rows:
        found.setdefault(str(table), []).append((str(column), str(type_)))
    return found


def is_read_only(connection: duckdb.DuckDBPyConnection) -> bool:
    """Whether the connection's current database was opened read-only."""
    cursor = connection.cursor()
    try:
        row = cursor.execute(
            "SELECT readonly FROM duckdb_databases() WHERE database_name = current_database()"
        ).fetchone()
    finally:
        cursor.close()
    return bool(row and row[0])


def read_shape(connection: duckdb.DuckDBPyConnection, check_key: str) -> SchemaShape:
    """Every table and view with its columns, types and comments (no table is touched)."""
    cursor = connection.cursor()
    try:
        rows = tuple(ShapeRow(*row) for row in cursor.execute(_SHAPE_SQL).fetchall())
    finally:
        cursor.close()
    return SchemaShape(
        rows=rows,
        check_key=check_key,
        fingerprint=fingerprint_of((r.table, r.column, r.type) for r in rows),
    )


def read_key_constraints(connection: duckdb.DuckDBPyConnection) -> list[KeyConstraint]:
    """PRIMARY KEY, UNIQUE and FOREIGN KEY constraints of the main schema."""
    cursor = connection.cursor()
    try:
        rows = cursor.execute(_KEY_CONSTRAINTS_SQL).fetchall()
    finally:
        cursor.close()
    return [
        KeyConstraint(table, kind, tuple(cols or ()), ref_table, tuple(ref_cols or ()))
        for table, kind, cols, ref_table, ref_cols in rows
    ]


def is_text_type(type_name: str) -> bool:
    upper = type_name.upper()
    return upper.startswith(("VARCHAR", "ENUM(", "TEXT", "STRING"))


def scan_tables(
    connection: duckdb.DuckDBPyConnection,
    shape: SchemaShape,
    may_read: Callable[[str], bool] = lambda name: True,
    sample: Callable[[str], bool] = lambda name: True,
) -> tuple[dict[str, TableInfo], list[ColumnValues]]:
    """Count rows and sample text values of every table and view in `shape`.

    Returns the tables by name and, for probing, the distinct values of every text column
    with at most PROBE_CARDINALITY_LIMIT of them (within PROBE_VALUE_BUDGET overall). A table
    or view for which `may_read(name)` is False (a view reading files or forbidden functions)
    is listed with its columns only: never counted, never sampled (row_count -1). One for
    which `sample(name)` is False is counted but its values are left for later
    (`sample_tables`): a wide database is sampled where questions lead, not all at once.
    """
    grouped: dict[str, list[ShapeRow]] = {}
    for row in shape.rows:
        grouped.setdefault(row.table, []).append(row)
    tables: dict[str, TableInfo] = {}
    probe_values: list[ColumnValues] = []
    budget = PROBE_VALUE_BUDGET
    counts = _count_table_rows(
        connection, [n for n, r in grouped.items() if r[0].kind == "table" and may_read(n)]
    )
    # Small base tables are profiled many per statement (at 1,000 tables, two statements per
    # table was most of connect time); views and sampled big tables keep their own.
    small = {
        name: rows
        for name, rows in grouped.items()
        if rows[0].kind == "table"
        and may_read(name)
        and 0 <= counts.get(name, -1) <= PROFILE_SAMPLE_ROWS
    }
    batched = _batched_text_values(
        connection,
        {
            name: [r.column for r in rows if is_text_type(r.type)]
            for name, rows in small.items()
            if sample(name)
        },
    )
    # 0/1 flags where values are sampled now; a table sampled later gets them then
    flags = _zero_one_columns(
        connection,
        {
            name: [r.column for r in rows if is_number_type(r.type)]
            for name, rows in small.items()
            if sample(name)
        },
    )
    yearly = _one_per_row_columns(
        connection,
        {
            name: [r.column for r in rows if _once_checked(r.column, r.type)]
            for name, rows in small.items()
            if sample(name)
        },
    )
    for name, rows in grouped.items():
        kind = rows[0].kind
        timeout = VIEW_TIMEOUT_S if kind == "view" else TABLE_TIMEOUT_S
        row_count: int = -1
        values: dict[str, tuple[str, ...]] = {}
        if may_read(name):
            counted = counts.get(name)
            row_count = _count_rows(connection, name, timeout) if counted is None else counted
            text_columns = [r.column for r in rows if is_text_type(r.type)]
            cached = batched.get(name)
            values = (
                cached
                if cached is not None or not sample(name)
                else _distinct_text_values(connection, name, text_columns, row_count, timeout)
            ) or {}
        columns = []
        for r in rows:
            distinct = values.get(r.column, ())
            if 0 < len(distinct) <= budget:
                probe_values.append(ColumnValues(name, r.column, distinct))
                budget -= len(distinct)
            low = distinct if len(distinct) <= LOW_CARDINALITY_LIMIT else ()
            columns.append(
                ColumnInfo(
                    r.column,
                    r.type,
                    r.column_comment,
                    low,
                    _listed(distinct, row_count),
                    zero_one=r.column in flags.get(name, ()),
                    one_per_row=r.column in yearly.get(name, ()),
                )
            )
        tables[name] = TableInfo(name, kind, rows[0].table_comment, row_count, tuple(columns))
    return tables, probe_values


def sample_tables(
    connection: duckdb.DuckDBPyConnection,
    tables: list[TableInfo],
    budget: int,
) -> tuple[dict[str, TableInfo], list[ColumnValues], int]:
    """`scan_tables`'s sampling for tables counted earlier without it (all readable):
    the tables with their low-cardinality values, their probe values, and what is left of
    the probe-value `budget`."""
    text_of = {t.name: [c.name for c in t.columns if is_text_type(c.type)] for t in tables}
    batched = _batched_text_values(
        connection,
        {
            t.name: text_of[t.name]
            for t in tables
            if t.kind == "table" and 0 <= t.row_count <= PROFILE_SAMPLE_ROWS
        },
    )
    flags = _zero_one_columns(
        connection,
        {
            t.name: [c.name for c in t.columns if is_number_type(c.type)]
            for t in tables
            if t.kind == "table" and 0 <= t.row_count <= PROFILE_SAMPLE_ROWS
        },
    )
    yearly = _one_per_row_columns(
        connection,
        {
            t.name: [c.name for c in t.columns if _once_checked(c.name, c.type)]
            for t in tables
            if t.kind == "table" and 0 <= t.row_count <= PROFILE_SAMPLE_ROWS
        },
    )
    out: dict[str, TableInfo] = {}
    probe_values: list[ColumnValues] = []
    for table in tables:
        values = batched.get(table.name)
        if values is None:
            timeout = VIEW_TIMEOUT_S if table.kind == "view" else TABLE_TIMEOUT_S
            values = _distinct_text_values(
                connection, table.name, text_of[table.name], table.row_count, timeout
            )
        columns = []
        for c in table.columns:
            distinct = values.get(c.name, ())
            if 0 < len(distinct) <= budget:
                probe_values.append(ColumnValues(table.name, c.name, distinct))
                budget -= len(distinct)
            low = distinct if len(distinct) <= LOW_CARDINALITY_LIMIT else ()
            columns.append(
                ColumnInfo(
                    c.name,
                    c.type,
                    c.comment,
                    low,
                    _listed(distinct, table.row_count),
                    zero_one=c.zero_one or c.name in flags.get(table.name, ()),
                    one_per_row=c.one_per_row or c.name in yearly.get(table.name, ()),
                )
            )
        out[table.name] = TableInfo(
            table.name, table.kind, table.comment, table.row_count, tuple(columns)
        )
    return out, probe_values, budget


_NUMBER_TYPES = re.compile(
    r"(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|DOUBLE|FLOAT|REAL|DECIMAL|NUMERIC)(\(\d+(,\s*\d+)?\))?"
)


def is_number_type(type_name: str) -> bool:
    return bool(_NUMBER_TYPES.fullmatch(type_name.upper().strip()))


def _zero_one_columns(
    connection: duckdb.DuckDBPyConnection, numbers_of: dict[str, list[str]], chunk: int = 100
) -> dict[str, set[str]]:
    """The number columns of each table whose every value is 0 or 1 (and that hold one),
    in one statement per chunk of tables. A chunk that fails leaves its tables without flags:
    they read as numbers, as before."""
    return _flagged_columns(connection, numbers_of, _only_zero_one, chunk)


def _flagged_columns(
    connection: duckdb.DuckDBPyConnection,
    columns_of: dict[str, list[str]],
    flag: Callable[[str], str],
    chunk: int,
) -> dict[str, set[str]]:
    """The columns of each table for which the boolean aggregate `flag(column)` is true, in
    one statement per chunk of tables; a chunk that fails flags none of its tables."""
    found: dict[str, set[str]] = {}
    names = [n for n, cols in columns_of.items() if cols]
    for start in range(0, len(names), chunk):
        part = names[start : start + chunk]
        rows = _per_table_lists(connection, part, columns_of, flag)
        for i, flags in rows or ():
            columns = columns_of[part[i]]
            found[part[i]] = {c for c, f in zip(columns, flags or (), strict=True) if f}
    return found


def _once_checked(name: str, type_name: str) -> bool:
    """A whole-number year or id column: whether each of its values is on one row says
    whether the table has one row a year, or one row per thing the id names."""
    low = name.lower()
    named_id = low == "id" or (low.endswith(("_id", "id")) and low not in ("paid", "valid"))
    return (low in ("year", "yr") or named_id) and "INT" in type_name.upper()


def _one_per_row_columns(
    connection: duckdb.DuckDBPyConnection, columns_of: dict[str, list[str]], chunk: int = 100
) -> dict[str, set[str]]:
    """The columns of each table holding each of their values on one row only (and no
    NULL), in one statement per chunk of tables; a chunk that fails leaves none."""
    return _flagged_columns(connection, columns_of, _each_once, chunk)


def _each_once(column: str) -> str:
    quoted = quote_identifier(column)
    return f"coalesce(count(DISTINCT {quoted}) = count(*) AND count({quoted}) = count(*), false)"


def _only_zero_one(column: str) -> str:
    quoted = quote_identifier(column)
    return f"coalesce(bool_and({quoted} IN (0, 1)) AND max({quoted}) = 1, false)"


def _listed(distinct: tuple[str, ...], row_count: int) -> int:
    """How many distinct values a column holds, when they were listed from the whole table
    (a big table's values come from a sample: their number says nothing of the whole)."""
    return len(distinct) if distinct and 0 <= row_count <= PROFILE_SAMPLE_ROWS else -1


def _count_table_rows(
    connection: duckdb.DuckDBPyConnection, tables: list[str], chunk: int = 200
) -> dict[str, int]:
    """Exact row counts of base tables, many per statement (a table's count(*) is cheap;
    the round trips are not when a warehouse has thousands of tables)."""
    counts: dict[str, int] = {}
    for start in range(0, len(tables), chunk):
        names = tables[start : start + chunk]
        sql = " UNION ALL ".join(
            f"SELECT {i} AS i, count(*) AS n FROM {quote_identifier(name)}"
            for i, name in enumerate(names)
        )
        rows = fetch_best_effort(connection, sql, timeout_s=TABLE_TIMEOUT_S) or []
        counts.update((names[i], int(n)) for i, n in rows)
    return counts


def _batched_text_values(
    connection: duckdb.DuckDBPyConnection, columns_of: dict[str, list[str]], chunk: int = 100
) -> dict[str, dict[str, tuple[str, ...]]]:
    """`_distinct_text_values` for many small tables in few statements: one pass of
    cardinality estimates over a chunk of tables, one pass of value lists over the columns
    that qualify. A chunk that fails is left out, and its tables are profiled one by one."""
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    names = [n for n, cols in columns_of.items() if cols]
    found.update((n, {}) for n, cols in columns_of.items() if not cols)
    for start in range(0, len(names), chunk):
        part = names[start : start + chunk]
        estimates = _per_table_lists(connection, part, columns_of, _approx)
        if estimates is None:
            continue
        keep: dict[str, list[str]] = {n: [] for n in part}
        for i, counts in estimates:
            keep[part[i]] = [
                c
                for c, n in zip(columns_of[part[i]], counts or (), strict=True)
                if n is not None and 0 < n <= PROBE_CARDINALITY_LIMIT * 1.1
            ]
        wanted = [n for n in part if keep[n]]
        found.update((n, {}) for n in part if not keep[n])
        if not wanted:
            continue
        lists = _per_table_lists(connection, wanted, keep, _distinct)
        if lists is None:
            continue
        for i, per_column in lists:
            values: dict[str, tuple[str, ...]] = {}
            for column, distinct in zip(keep[wanted[i]], per_column or (), strict=True):
                kept = sorted(v for v in distinct or () if v is not None)
                if 0 < len(kept) <= PROBE_CARDINALITY_LIMIT:
                    values[column] = tuple(kept)
            found[wanted[i]] = values
    return found


def _per_table_lists(
    connection: duckdb.DuckDBPyConnection,
    tables: list[str],
    columns_of: dict[str, list[str]],
    each: Callable[[str], str],
) -> list[tuple[Any, ...]] | None:
    """One statement over many tables: a row per table, its position in `tables` and a list
    of `each(column)` over its columns. None when the statement failed or timed out."""
    return fetch_best_effort(
        connection,
        " UNION ALL ".join(
            f"SELECT {i} AS i, [{', '.join(each(c) for c in columns_of[n])}] AS v "
            f"FROM {quote_identifier(n)}"
            for i, n in enumerate(tables)
        ),
        timeout_s=TABLE_TIMEOUT_S,
    )


def _approx(column: str) -> str:
    return f"approx_count_distinct({quote_identifier(column)})::BIGINT"


def _distinct(column: str) -> str:
    return f"list(DISTINCT {quote_identifier(column)}::VARCHAR)"


def _count_rows(connection: duckdb.DuckDBPyConnection, table: str, timeout: float) -> int:
    rows = fetch_best_effort(
        connection, f"SELECT count(*) FROM {quote_identifier(table)}", timeout_s=timeout
    )
    return int(rows[0][0]) if rows else -1


def _distinct_text_values(
    connection: duckdb.DuckDBPyConnection,
    table: str,
    columns: list[str],
    row_count: int,
    timeout: float,
) -> dict[str, tuple[str, ...]]:
    """Sorted distinct values of the text columns that have few enough of them.

    A first pass estimates cardinality (approx_count_distinct) so a high-cardinality column
    never has its values pulled; a second pass lists the survivors in one scan.
    """
    if not columns or row_count == 0:
        return {}
    if row_count > PROFILE_SAMPLE_ROWS:
        columns = _without_many_values(connection, table, columns, timeout)
        if not columns:
            return {}
    source = quote_identifier(table)
    if row_count > PROFILE_SAMPLE_ROWS:
        source = _sample_source(connection, table, row_count, timeout)
    estimates_sql = (
        "SELECT "
        + ", ".join(f"approx_count_distinct({quote_identifier(c)})" for c in columns)
        + f" FROM {source}"
    )
    estimates = fetch_best_effort(connection, estimates_sql, timeout_s=timeout)
    if not estimates:
        return {}
    # approx_count_distinct can undercount by a few percent; the exact check comes below.
    keep = [
        c
        for c, n in zip(columns, estimates[0], strict=True)
        if n is not None and 0 < n <= PROBE_CARDINALITY_LIMIT * 1.1
    ]
    if not keep:
        return {}
    lists_sql = (
        "SELECT "
        + ", ".join(f"list(DISTINCT {quote_identifier(c)}::VARCHAR)" for c in keep)
        + f" FROM {source}"
    )
    lists = fetch_best_effort(connection, lists_sql, timeout_s=timeout)
    if not lists:
        return {}
    found: dict[str, tuple[str, ...]] = {}
    for column, values in zip(keep, lists[0], strict=True):
        distinct = sorted(v for v in values or () if v is not None)
        if 0 < len(distinct) <= PROBE_CARDINALITY_LIMIT:
            found[column] = tuple(distinct)
    return found


SAMPLE_WINDOWS = 10  # stretches of rows a big table's values are sampled from


def _sample_source(
    connection: duckdb.DuckDBPyConnection, table: str, row_count: int, timeout: float
) -> str:
    """A FROM clause reading about PROFILE_SAMPLE_ROWS rows of a big table.

    A table is read in SAMPLE_WINDOWS stretches of consecutive rows spread over its length
    (rowid ranges, which DuckDB's scan skips to): a handful of row groups are read, where a
    `TABLESAMPLE ... (system)` of the same size touches a vector in nearly every row group
    and so loads every row group's blocks (TPC-H SF3 lineitem: ~190 MiB peak against ~95,
    five times slower). A view has no rowid: it is block-sampled."""
    name = quote_identifier(table)
    if (
        fetch_best_effort(connection, f"SELECT rowid FROM {name} LIMIT 0", timeout_s=timeout)
        is None
    ):
        percent = max(0.1, 100.0 * PROFILE_SAMPLE_ROWS / row_count)
        return f"{name} TABLESAMPLE {percent:.3f}% (system)"
    step, width = row_count // SAMPLE_WINDOWS, PROFILE_SAMPLE_ROWS // SAMPLE_WINDOWS
    windows = " OR ".join(
        f"(rowid >= {i * step} AND rowid < {i * step + width})" for i in range(SAMPLE_WINDOWS)
    )
    return f"(SELECT * FROM {name} WHERE {windows}) AS sampled"


def _without_many_values(
    connection: duckdb.DuckDBPyConnection, table: str, columns: list[str], timeout: float
) -> list[str]:
    """`columns` minus those DuckDB's own statistics already say hold far too many distinct
    values to keep (free: no scan). On a big table the estimate pass would otherwise read a
    sample of every text column, free-text comments too (TPC-H SF3 lineitem: ~240 MiB of
    buffers and seconds at connect, for a column that is never kept). A column without
    statistics (a view) stays for the sampled estimate."""
    rows = fetch_best_effort(
        connection,
        "SELECT "
        + ", ".join(f"stats({quote_identifier(c)})" for c in columns)
        + f" FROM {quote_identifier(table)} LIMIT 1",
        timeout_s=timeout,
    )
    if not rows:
        return columns
    kept = []
    for column, stats in zip(columns, rows[0], strict=True):
        estimate = _approx_unique(stats)
        if estimate is None or estimate <= PROBE_CARDINALITY_LIMIT * 4:
            kept.append(column)
    return kept


def _approx_unique(stats: object) -> int | None:
    """The distinct-count estimate in DuckDB's `stats()` (a struct, or text in older
    versions), or None."""
    if isinstance(stats, dict):
        value = stats.get("approx_unique")
        return int(value) if isinstance(value, int | float) else None
    match = re.search(r"Approx Unique: (\d+)", str(stats or ""))
    return int(match.group(1)) if match else None


# Beyond this, only declared keys count as unique: an exact distinct count over a larger
# table costs hundreds of MB of hash table on connect (TPC-H lineitem: ~400 MB peak).
UNIQUENESS_MAX_ROWS = 2_000_000


def column_is_unique(connection: duckdb.DuckDBPyConnection, table: TableInfo, column: str) -> bool:
    """Whether every row of a non-empty table has its own non-null value in `column`.

    Empty tables, uncounted views and very large tables say False: no evidence, no key.
    """
    if not 0 < table.row_count <= UNIQUENESS_MAX_ROWS:
        return False
    rows = fetch_best_effort(
        connection,
        f"SELECT count(DISTINCT {quote_identifier(column)}) = count(*) "
        f"FROM {quote_identifier(table.name)}",
        timeout_s=TABLE_TIMEOUT_S,
    )
    return bool(rows and rows[0][0])


def columns_are_unique(
    connection: duckdb.DuckDBPyConnection, table: TableInfo, columns: tuple[str, ...]
) -> bool:
    """Whether every row of a non-empty table has its own tuple of `columns`, none of them
    null (a composite key). Bounded like `column_is_unique`: no evidence, no key."""
    if not 0 < table.row_count <= UNIQUENESS_MAX_ROWS or not columns:
        return False
    rows = fetch_best_effort(
        connection, distinct_tuples_sql(table.name, columns), timeout_s=TABLE_TIMEOUT_S
    )
    return bool(rows and rows[0][0])


def distinct_tuples_sql(
    table: str, columns: tuple[str, ...], quote: Callable[[str], str] = quote_identifier
) -> str:
    """SQL saying (one boolean) whether the non-null distinct tuples of `columns` are as many
    as the table's rows; plain enough for DuckDB and Spark alike."""
    names = ", ".join(quote(c) for c in columns)
    not_null = " AND ".join(f"{quote(c)} IS NOT NULL" for c in columns)
    source = quote(table)
    return (
        f"SELECT (SELECT count(*) FROM (SELECT DISTINCT {names} FROM {source} "
        f"WHERE {not_null}) AS distinct_tuples) = (SELECT count(*) FROM {source})"
    )
