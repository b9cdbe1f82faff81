"""Opening a DuckDB database, and running one statement on its own cursor under a deadline."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

from zlens_jupyter.errors import ConfigError, QueryError, QueryTimeout
from zlens_jupyter.warehouse.deadline import Deadline

MEMORY = ":memory:"


def open_connection(
    target: str | os.PathLike[str] | duckdb.DuckDBPyConnection, read_only: bool | None
) -> tuple[duckdb.DuckDBPyConnection, bool]:
    """Open `target` and say whether we own the connection (and so must close it).

    A file opens read-only unless `read_only=False`; when this process already holds the
    file open read-write (DuckDB refuses a second configuration), `read_only=None` falls back
    to sharing that read-write database — the read-only guard still stands in front of it.
    """
    if isinstance(target, duckdb.DuckDBPyConnection):
        return target, False
    text = os.fspath(target)
    if text == MEMORY:
        return duckdb.connect(MEMORY), True
    path = Path(text).expanduser()
    if not path.is_file():
        raise ConfigError(
            f"no database at {text}; pass an existing .duckdb file, ':memory:' or 'sample'"
        )
    try:
        return duckdb.connect(str(path), read_only=read_only is not False), True
    except duckdb.ConnectionException as error:
        if read_only is None and "different configuration" in str(error):
            return _open_or_explain(path, read_only=False), True
        raise _explain_open_failure(path, error) from error
    except duckdb.Error as error:
        raise _explain_open_failure(path, error) from error


def _open_or_explain(path: Path, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as error:
        raise _explain_open_failure(path, error) from error


def _explain_open_failure(path: Path, error: duckdb.Error) -> ConfigError:
    message = str(error)
    if "lock" in message.lower():
        hint = (
            "another process holds it open for writing; close that process, or pass its "
            "open duckdb connection instead of the path"
        )
    elif "not a valid duckdb database" in message.lower() or "database file" in message.lower():
        hint = "it is not a DuckDB database file; pass a .duckdb file, ':memory:' or 'sample'"
    else:
        hint = "check the path and that DuckDB can open it"
    return ConfigError(f"cannot open the database at {path}: {hint} ({message})")


@contextmanager
def bounded_cursor(
    connection: duckdb.DuckDBPyConnection,
    timeout_s: float,
    should_stop: Callable[[], bool] | None = None,
) -> Iterator[tuple[duckdb.DuckDBPyConnection, Deadline]]:
    """A fresh cursor (its own DuckDB connection to the same database) under a deadline.

    A separate cursor means an interrupt can only ever stop our statement, never something
    the user runs on their own connection at the same moment.

    Replacement scans are off on it: otherwise DuckDB resolves an unknown table name to any
    pandas/Arrow object in the Python call stack, so agent SQL could read a notebook's
    DataFrames (`SELECT * FROM secrets`) that were never registered with the catalog.
    """
    cursor = connection.cursor()
    try:
        cursor.execute("SET python_enable_replacements = false")
        with Deadline(cursor, timeout_s, should_stop) as deadline:
            yield cursor, deadline
    finally:
        cursor.close()


def is_interrupt(error: BaseException) -> bool:
    """Whether DuckDB stopped the statement on an interrupt. A SIGINT (Jupyter's Stop, Ctrl-C)
    that lands while DuckDB runs surfaces as a plain RuntimeError("Query interrupted"), not
    as duckdb.InterruptException: both mean the same thing."""
    if isinstance(error, duckdb.InterruptException):
        return True
    return type(error) is RuntimeError and str(error).strip().lower() == "query interrupted"


def translate_error(error: BaseException, deadline: Deadline) -> BaseException:
    """Map a DuckDB error to ours, keeping DuckDB's own words (and its "Did you mean")."""
    if is_interrupt(error):
        if deadline.expired:
            return QueryTimeout(
                f"the query ran past its {deadline.seconds:g} s limit and was stopped; "
                "narrow it (filters, fewer joins) or allow a longer timeout"
            )
        # Not our timer: the user interrupted the kernel; let the cancel path see it.
        return KeyboardInterrupt()
    return QueryError(str(error))


def fetch_best_effort(
    connection: duckdb.DuckDBPyConnection, sql: str, *, timeout_s: float
) -> list[tuple[Any, ...]] | None:
    """All rows of `sql`, or None when it failed or ran past `timeout_s`.

    For best-effort catalog facts (a view's row count, sampled values) where giving up is
    better than hanging, and where one broken view must not break the whole catalog.
    """
    with bounded_cursor(connection, timeout_s) as (cursor, deadline):
        try:
            return cursor.execute(sql).fetchall()
        except (duckdb.Error, RuntimeError) as error:
            if not is_interrupt(error):
                if isinstance(error, duckdb.Error):
                    return None
                raise
            if not deadline.expired:
                raise KeyboardInterrupt from None
            return None
