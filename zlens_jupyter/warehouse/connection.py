"""Opening a DuckDB database, and running one statement on its own cursor under a deadline."""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

from zlens_jupyter.errors import ConfigError, QueryError, QueryTimeout
from zlens_jupyter.warehouse.deadline import Deadline
from zlens_jupyter.warehouse.prepared import PreparedStatements

MEMORY = ":memory:"


# Settings every database instance ZLens opens itself starts with: nothing is downloaded
# or loaded behind the user's back (a cast to INET would otherwise fetch the inet
# extension), and Python objects in the call stack are never tables.
PRIVATE_CONFIG: dict[str, Any] = {
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "python_enable_replacements": False,
}


def open_connection(
    target: str | os.PathLike[str] | duckdb.DuckDBPyConnection, read_only: bool | None
) -> tuple[duckdb.DuckDBPyConnection, bool]:
    """Open `target` and say whether we own the connection (and so must close it).

    A file opens read-only unless `read_only=False`; when this process already holds the
    file open read-write (DuckDB refuses a second configuration), `read_only=None` falls back
    to sharing that read-write database — the read-only guard still stands in front of it.
    """
    connection, owned, _private = open_database(target, read_only)
    return connection, owned


def open_database(
    target: str | os.PathLike[str] | duckdb.DuckDBPyConnection, read_only: bool | None
) -> tuple[duckdb.DuckDBPyConnection, bool, bool]:
    """`open_connection`, also saying whether the database instance is private: opened by
    us with PRIVATE_CONFIG and shared with no one, so its global settings are ours to lock
    (see `harden`). A connection the user passed, or an instance this process already had
    open (DuckDB hands back the same instance), is not private: its settings stay theirs."""
    if isinstance(target, duckdb.DuckDBPyConnection):
        return target, False, False
    text = os.fspath(target)
    if text == MEMORY:
        return duckdb.connect(MEMORY, config=PRIVATE_CONFIG), True, True
    path = Path(text).expanduser()
    if not path.is_file():
        raise ConfigError(
            f"no database at {text}; pass an existing .duckdb file, ':memory:' or 'sample'"
        )
    if read_only is not False:
        private = _attach_privately(path)
        if private is not None:
            return private, True, True
    # Read-write on purpose, or this process holds the file already: share DuckDB's instance
    # for the file (as the user's own connections do) and leave its settings alone.
    try:
        return duckdb.connect(str(path), read_only=read_only is not False), True, False
    except duckdb.ConnectionException as error:
        if read_only is None and "different configuration" in str(error):
            return _open_or_explain(path, read_only=False), True, False
        raise _explain_open_failure(path, error) from error
    except duckdb.Error as error:
        raise _explain_open_failure(path, error) from error


_RESERVED_NAMES = frozenset({"memory", "system", "temp", "main"})


def _attach_privately(path: Path) -> duckdb.DuckDBPyConnection | None:
    """The file attached read-only to a fresh in-memory instance of our own, or None when
    this process already holds it in a way that forbids that (then we share).

    Why not `duckdb.connect(path, read_only=True, config=...)`: DuckDB keeps one instance
    per file per process, so a user who later opens the same file read-only in the same
    process would either join our locked instance (their read_csv and SET would fail) or be
    refused for a "different configuration". An instance of our own avoids both; DuckDB
    still refuses, with a clear error, anyone opening the file read-write meanwhile."""
    connection = duckdb.connect(MEMORY, config=PRIVATE_CONFIG)
    alias = path.stem if path.stem.lower() not in _RESERVED_NAMES else f"{path.stem}_db"
    quoted = '"' + alias.replace('"', '""') + '"'
    literal = "'" + str(path.resolve()).replace("'", "''") + "'"
    try:
        connection.execute(f"ATTACH {literal} AS {quoted} (READ_ONLY)")
        connection.execute(f"USE {quoted}")
        # Cursors start in the instance's default database: with the empty in-memory one
        # gone, that is the file, as if it had been opened directly.
        connection.execute("DETACH memory")
    except duckdb.Error:
        # Held read-write by this process (a file handle conflict), not a database, locked
        # by another process: the plain open below meets the same and explains it.
        connection.close()
        return None
    return connection


def harden(connection: duckdb.DuckDBPyConnection, sources: list[str]) -> None:
    """Lock a private instance down before agent SQL runs on it: no file or network access
    except the registered `sources` (DuckDB's allowed_paths / allowed_directories), and the
    configuration locked so no statement can change a setting back.

    DuckDB takes allowed paths only while external access is still on, and nothing at all
    once locked: the order below is the only one that works. A registered URL needs
    external access (DuckDB's allow-lists are for local paths), so with one the instance
    keeps it; autoload stays off either way and the guard still limits reads to sources.
    """
    files = [s for s in sources if "://" not in s]
    folders = [
        s.rstrip("/" + os.sep) + "/" for s in files if s.endswith(("/", os.sep)) or Path(s).is_dir()
    ]
    paths = [s for s in files if s.rstrip("/" + os.sep) + "/" not in folders]
    cursor = connection.cursor()
    try:
        locked = cursor.execute("SELECT current_setting('lock_configuration')").fetchone()
        if not (locked and locked[0]):  # locked already (hardened once before): keep it
            cursor.execute("SET allowed_directories = ?", [folders])
            cursor.execute("SET allowed_paths = ?", [paths])
            if len(files) == len(sources):
                cursor.execute("SET enable_external_access = false")
            cursor.execute("SET lock_configuration = true")
        _note_if_read_only(cursor, connection)
    finally:
        cursor.close()


# Locked private instances whose every database is attached read-only (`harden` checks,
# `_note_if_read_only`). DuckDB refuses any write to them itself, so their agent statements
# need no read-only transaction of their own, and each thread keeps one agent cursor there
# instead of opening one per statement (`bounded_cursor`): the cursor, its BEGIN and its
# close were ~0.3 ms of every certified answer, measured in situ at SF1.
_READ_ONLY_INSTANCES: weakref.WeakSet[duckdb.DuckDBPyConnection] = weakref.WeakSet()
_KEPT_CURSORS: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, threading.local] = (
    weakref.WeakKeyDictionary()
)
_KEPT_LOCK = threading.Lock()
_PREPARED: weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, PreparedStatements] = (
    weakref.WeakKeyDictionary()
)


def _note_if_read_only(
    cursor: duckdb.DuckDBPyConnection, parent: duckdb.DuckDBPyConnection
) -> None:
    """Remember `parent` as read-only when every database it holds (the internal `system`
    and `temp` aside) is attached read-only: the private instance of a file (see
    `_attach_privately`). Checked once, after locking: only code holding this private
    connection (ZLens's own) could attach a database to it later, and the guard keeps ATTACH
    (and the functions that advance a sequence) out of agent SQL.

    A read-only transaction guards no more than that there: it refuses writes to attached
    databases only (DuckDB 2.0 still lets one create temp objects and COPY TO a file), and
    DuckDB refuses those writes to a database attached read-only anyway."""
    row = cursor.execute(
        "SELECT count(*), count(*) FILTER (WHERE NOT readonly) FROM duckdb_databases() "
        "WHERE NOT internal"
    ).fetchone()
    if row is not None and row[0] >= 1 and row[1] == 0:
        _READ_ONLY_INSTANCES.add(parent)
    else:
        _READ_ONLY_INSTANCES.discard(parent)


def prepared_on(cursor: duckdb.DuckDBPyConnection) -> PreparedStatements | None:
    """The statements prepared on `cursor` when it is a kept cursor (see `prepared.py`),
    else None: a fresh cursor is closed after one statement, so nothing is prepared on it."""
    return _PREPARED.get(cursor)


def runs_read_only(connection: duckdb.DuckDBPyConnection) -> bool:
    """Whether `connection` is a locked private instance whose every database is attached
    read-only (see `_note_if_read_only`)."""
    return connection in _READ_ONLY_INSTANCES


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


def bounded_cursor(
    connection: duckdb.DuckDBPyConnection,
    timeout_s: float,
    should_stop: Callable[[], bool] | None = None,
) -> contextlib.AbstractContextManager[tuple[duckdb.DuckDBPyConnection, Deadline]]:
    """A cursor of our own (its own DuckDB connection to the same database) under a deadline,
    for one statement.

    A separate cursor means an interrupt can only ever stop our statement, never something
    the user runs on their own connection at the same moment.

    Replacement scans are off on it: otherwise DuckDB resolves an unknown table name to any
    pandas/Arrow object in the Python call stack, so agent SQL could read a notebook's
    DataFrames (`SELECT * FROM secrets`) that were never registered with the catalog.

    On a read-only private instance (`runs_read_only`) the thread's kept cursor is lent;
    anywhere else a fresh cursor runs the statement in a read-only transaction.
    """
    if connection in _READ_ONLY_INSTANCES:
        return _kept_cursor(connection, timeout_s, should_stop)
    return _fresh_cursor(connection, timeout_s, should_stop)


@contextmanager
def _kept_cursor(
    connection: duckdb.DuckDBPyConnection,
    timeout_s: float,
    should_stop: Callable[[], bool] | None,
) -> Iterator[tuple[duckdb.DuckDBPyConnection, Deadline]]:
    """This thread's cursor of a read-only private instance, kept for its next statement.
    Dropped (closed) when a statement failed through it or its deadline fired, so the next
    statement starts on a fresh one. Closing `connection` closes it too (DuckDB closes a
    connection's cursors with it), which releases the file."""
    kept = _KEPT_CURSORS.get(connection)
    if kept is None:
        with _KEPT_LOCK:
            kept = _KEPT_CURSORS.setdefault(connection, threading.local())
    cursor: duckdb.DuckDBPyConnection | None = getattr(kept, "cursor", None)
    kept.cursor = None  # lent: a statement on it that fails or is stopped never returns it
    returned = False
    try:
        if cursor is None:
            cursor = connection.cursor()
            _no_replacement_scans(cursor, connection)
            _PREPARED[cursor] = PreparedStatements()
        with Deadline(cursor, timeout_s, should_stop) as deadline:
            yield cursor, deadline
        returned = not (deadline.expired or deadline.cancelled)
    finally:
        if returned:
            kept.cursor = cursor
        elif cursor is not None:
            with contextlib.suppress(duckdb.Error):
                cursor.close()


@contextmanager
def _fresh_cursor(
    connection: duckdb.DuckDBPyConnection,
    timeout_s: float,
    should_stop: Callable[[], bool] | None,
) -> Iterator[tuple[duckdb.DuckDBPyConnection, Deadline]]:
    """A new cursor whose statement runs in a read-only transaction, closed afterwards."""
    cursor = connection.cursor()
    try:
        _no_replacement_scans(cursor, connection)
        # Agent SQL and catalog sampling run in a read-only transaction: whatever a
        # statement or a stored view calls, nothing it does can be committed (a sequence
        # advanced by setval, a table written), on the user's read-write database too.
        cursor.execute("BEGIN TRANSACTION READ ONLY")
        with Deadline(cursor, timeout_s, should_stop) as deadline:
            yield cursor, deadline
    except BaseException:
        # A statement failed or was stopped: its transaction is ended explicitly first.
        with contextlib.suppress(duckdb.Error, RuntimeError):
            cursor.execute("ROLLBACK")
        raise
    finally:
        # Closing the cursor closes its own DuckDB connection, which rolls back whatever
        # transaction it holds: after a statement that succeeded (read-only, nothing to
        # undo) no ROLLBACK statement is run first (~0.2 ms of every preview and sample).
        cursor.close()


# Connections whose instance is locked with replacement scans off: no cursor of theirs can
# turn them on again, so they are checked once, not before every statement (the refused SET
# and the check cost ~0.4 ms a statement).
_LOCKED_WITHOUT_REPLACEMENTS: weakref.WeakSet[duckdb.DuckDBPyConnection] = weakref.WeakSet()


def _no_replacement_scans(
    cursor: duckdb.DuckDBPyConnection, parent: duckdb.DuckDBPyConnection | None = None
) -> None:
    """Turn replacement scans off on this cursor. A locked private instance refuses the SET;
    there they are off for the whole instance already (PRIVATE_CONFIG), which is checked
    once per `parent` connection."""
    if parent is not None and parent in _LOCKED_WITHOUT_REPLACEMENTS:
        return
    try:
        cursor.execute("SET python_enable_replacements = false")
    except duckdb.InvalidInputException:
        row = cursor.execute("SELECT current_setting('python_enable_replacements')").fetchone()
        if not row or row[0]:
            raise
        locked = cursor.execute("SELECT current_setting('lock_configuration')").fetchone()
        if parent is not None and locked and locked[0]:
            _LOCKED_WITHOUT_REPLACEMENTS.add(parent)


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
