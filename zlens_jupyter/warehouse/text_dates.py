"""Dates kept as text: '9/30/1990 0:00:00', '2016/01/01 00:47:36', 'Jan-2018'.

Real exports often store a date as a string, and then "per year" or "in 1995" finds no date
column. A text column named as a time (`date`, `response_datetime`, `issue_month`, `Time`)
whose sampled values all read one way, and only one way, is offered to the question parser as
a date, and the SQL built reads it through `try_strptime` with that format. Where two
formats read the sample differently (3/4/2020: March or April?) nothing is assumed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

import duckdb

from zlens_jupyter.warehouse.catalog import quote_identifier
from zlens_jupyter.warehouse.connection import fetch_best_effort
from zlens_jupyter.warehouse.models import QUARTER_LABEL, Catalog, ColumnInfo

# Words of a column's name that say it holds a time.
_TIME_WORDS = frozenset(
    {"date", "time", "datetime", "timestamp", "day", "month", "dt", "when", "period"}
    | {"quarter", "qtr"}
    # `created_at`, `updated_on`, `dob`: the usual names of a row's moments (the values
    # must still all read as dates)
    | {"at", "on", "dob", "created", "updated"}
)
# Ways people write a date, tried in this order; each is read the same way by Python's
# strptime (the check) and DuckDB's (the query).
FORMATS = (
    "%Y-%m-%d",
    "%Y/%m/%d",
    "%m/%d/%Y",
    "%d/%m/%Y",
    "%d.%m.%Y",
    "%Y-%m-%d %H:%M:%S",
    "%Y/%m/%d %H:%M:%S",
    "%m/%d/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M:%S",
    "%m/%d/%Y %H:%M",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%dT%H:%M:%SZ",
    "%b-%Y",
    "%b %Y",
    "%B %Y",
    "%Y-%m",
    "%d-%b-%Y",
    "%d %b %Y",
    "%b %d, %Y",
    "%B %d, %Y",
)
# A quarter written after its year ('1998 Q1', '2016-Q2'), said as QUARTER_LABEL.
_QUARTER = re.compile(r"^\d{4}\s*-?\s*[Qq][1-4]$")
_QUARTER_SQL = r"^\d{4}\s*-?\s*[Qq][1-4]$"
SAMPLE_ROWS = 200
MAX_TABLES = 200  # a wide warehouse is not sampled table by table for this
_TIMEOUT_S = 2.0


def date_format(values: list[str]) -> str | None:
    """The one format every value reads as, or None (none does, or two read them apart).

    >>> date_format(["9/30/1990 0:00:00", "11/29/1993 0:00:00"])
    '%m/%d/%Y %H:%M:%S'
    >>> date_format(["3/4/2020", "5/6/2021"]) is None  # March 4th or April 3rd?
    True
    """
    values = [v.strip() for v in values if v and v.strip()]
    if not values:
        return None
    if all(_QUARTER.match(v) for v in values):
        return QUARTER_LABEL
    readings: dict[str, tuple[dt.datetime, ...]] = {}
    for fmt in FORMATS:
        try:
            readings[fmt] = tuple(dt.datetime.strptime(v, fmt) for v in values)
        except ValueError:
            continue
    if len(set(readings.values())) != 1:
        return None
    return next(iter(readings))


def _name_words(name: str) -> set[str]:
    """`response_datetime` -> {response, datetime}; `issueMonth` -> {issue, month}."""
    return {w.lower() for w in re.split(r"[_\W\d]+|(?<=[a-z])(?=[A-Z])", name) if w}


def _candidates(
    catalog: Catalog, typed: str = "VARCHAR", words: frozenset[str] = _TIME_WORDS
) -> dict[str, list[str]]:
    """{table: its columns of a `typed` type (VARCHAR, or any INT) named by one of `words`}."""
    found: dict[str, list[str]] = {}
    for table in catalog.tables.values():
        if table.kind != "table" or table.row_count <= 0:
            continue
        named = [
            c.name for c in table.columns if _of_type(c.type, typed) and _name_words(c.name) & words
        ]
        if named:
            found[table.name] = named
    return found


def _of_type(type_name: str, typed: str) -> bool:
    kind = type_name.upper()
    return typed in kind if typed == "INT" else kind.startswith(typed)


# Whole-number columns named as a moment (`timestamp`, `created_utc`) may count seconds (or
# milliseconds) since 1970: their format is said this way, and the SQL reads them with
# epoch_ms, which gives a TIMESTAMP in UTC whatever the machine's time zone.
EPOCH_SECONDS = "epoch seconds"
EPOCH_MILLISECONDS = "epoch milliseconds"
_MOMENT_WORDS = frozenset({"timestamp", "time", "ts", "epoch", "unix", "created", "updated", "utc"})
# The seconds of 1973-03-03 to 2096-11-14 (a count below would be a small number, not a
# moment; milliseconds are the same range times 1,000)
_EPOCH_SECONDS = (100_000_000, 4_000_000_000)


def _epoch_formats(
    connection: duckdb.DuckDBPyConnection, catalog: Catalog
) -> dict[tuple[str, str], str]:
    """(table, column) -> the epoch unit of whole-number moment columns whose every sampled
    value is a moment since 1970 in seconds (or milliseconds)."""
    formats: dict[tuple[str, str], str] = {}
    low, high = _EPOCH_SECONDS
    for table, columns in list(_candidates(catalog, "INT", _MOMENT_WORDS).items())[:MAX_TABLES]:
        ranges = ", ".join(
            f"min({quote_identifier(c)}), max({quote_identifier(c)})" for c in columns
        )
        sample = f"(SELECT * FROM {quote_identifier(table)} LIMIT {SAMPLE_ROWS})"
        rows = fetch_best_effort(connection, f"SELECT {ranges} FROM {sample}", timeout_s=_TIMEOUT_S)
        if not rows:
            continue
        for k, column in enumerate(columns):
            least, most = rows[0][2 * k], rows[0][2 * k + 1]
            if least is None or most is None:
                continue
            if low <= least and most <= high:
                formats[(table, column)] = EPOCH_SECONDS
            elif low * 1000 <= least and most <= high * 1000:
                formats[(table, column)] = EPOCH_MILLISECONDS
    return formats


def detect_text_dates(
    connection: duckdb.DuckDBPyConnection, catalog: Catalog
) -> dict[tuple[str, str], str]:
    """(table, column) -> format for the text columns that hold dates written one way,
    each confirmed by DuckDB reading the whole sample with it; and for whole-number
    columns counting seconds or milliseconds since 1970 (`EPOCH_SECONDS`)."""
    formats: dict[tuple[str, str], str] = _epoch_formats(connection, catalog)
    for table, columns in list(_candidates(catalog).items())[:MAX_TABLES]:
        lists = ", ".join(
            f"list({quote_identifier(c)}) FILTER (WHERE {quote_identifier(c)} IS NOT NULL)"
            for c in columns
        )
        sample = f"(SELECT * FROM {quote_identifier(table)} LIMIT {SAMPLE_ROWS})"
        rows = fetch_best_effort(connection, f"SELECT {lists} FROM {sample}", timeout_s=_TIMEOUT_S)
        if not rows:
            continue
        for column, values in zip(columns, rows[0], strict=True):
            fmt = date_format([str(v) for v in values or []])
            if fmt is None:
                continue
            read = (
                f"NOT regexp_full_match(trim({quote_identifier(column)}), '{_QUARTER_SQL}')"
                if fmt == QUARTER_LABEL
                else f"try_strptime(trim({quote_identifier(column)}), '{fmt}') IS NULL"
            )
            check = (
                f"SELECT count(*) FROM {sample} WHERE {quote_identifier(column)} IS NOT NULL "
                f"AND {read}"
            )
            unread = fetch_best_effort(connection, check, timeout_s=_TIMEOUT_S)
            if unread == [(0,)]:
                formats[(table, column)] = fmt
    return formats


def with_text_dates(catalog: Catalog, formats: dict[tuple[str, str], str]) -> Catalog:
    """The catalog with each text date column typed as the date it holds (TIMESTAMP when
    its format has a time of day, else DATE) and its format kept (`ColumnInfo.date_format`)."""
    if not formats:
        return catalog
    tables = dict(catalog.tables)
    for (table, column), fmt in formats.items():
        info = tables.get(table)
        if info is None:
            continue
        kind = "TIMESTAMP" if "%H" in fmt or fmt.startswith("epoch") else "DATE"
        columns = tuple(
            replace(c, type=kind, date_format=fmt) if c.name == column else c for c in info.columns
        )
        tables[table] = replace(info, columns=columns)
    return replace(catalog, tables=tables)


def stored_date_format(catalog: Catalog, table: str, column: str) -> str:
    """The text format of a column read as a date, or "" for every other column."""
    info = catalog.table(table)
    stored: ColumnInfo | None = info.column(column) if info is not None else None
    return stored.date_format if stored is not None else ""
