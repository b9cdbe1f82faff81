"""Agent cursors on a read-only private instance: one kept per thread, no read-only
transaction of its own, and still nothing written.

The private instance of a file (`Warehouse.connect(path)`) attaches the file read-only to an
in-memory instance of ZLens's own and locks its configuration; there DuckDB itself refuses
every write, so statements run on a cursor kept for the thread's next statement instead of
a fresh cursor in a `BEGIN TRANSACTION READ ONLY` each. Anywhere else (a connection the user
passed, ':memory:', a file opened read-write) the fresh cursor and its transaction stay.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.errors import QueryError, QueryTimeout
from zlens_jupyter.warehouse import Warehouse
from zlens_jupyter.warehouse.connection import bounded_cursor, prepared_on, runs_read_only
from zlens_jupyter.warehouse.prepared import PreparedStatements


def _cursor_of(warehouse: Warehouse) -> duckdb.DuckDBPyConnection:
    with bounded_cursor(warehouse.connection, 5.0) as (cursor, _):
        cursor.execute("SELECT 1").fetchall()
        return cursor


def test_a_private_file_instance_keeps_one_cursor_per_thread(canary_path: Path) -> None:
    warehouse = Warehouse.connect(canary_path)
    try:
        warehouse.preview("SELECT count(*) FROM accounts")  # locks the instance first
        assert runs_read_only(warehouse.connection)
        first = _cursor_of(warehouse)
        assert _cursor_of(warehouse) is first
        other: list[duckdb.DuckDBPyConnection] = []
        thread = threading.Thread(target=lambda: other.append(_cursor_of(warehouse)))
        thread.start()
        thread.join()
        assert other and other[0] is not first
        assert warehouse.preview("SELECT owner FROM accounts ORDER BY id").rows == [
            ("alice",),
            ("bob",),
        ]
    finally:
        warehouse.close()


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT setval('seq', 5000000)",
        "SELECT nextval('seq')",
        "INSERT INTO accounts VALUES (3, 'mallory', 1e9)",
        "UPDATE accounts SET balance = 0",
        "CREATE TABLE stolen AS SELECT * FROM accounts",
        "DROP TABLE accounts",
    ],
)
def test_sql_that_skipped_the_guard_still_writes_nothing_through_a_kept_cursor(
    canary_path: Path, sql: str
) -> None:
    warehouse = Warehouse.connect(canary_path)
    try:
        warehouse.preview("SELECT 1")
        assert runs_read_only(warehouse.connection)
        with (
            bounded_cursor(warehouse.connection, 5.0) as (cursor, _),
            pytest.raises(duckdb.Error, match=r"read-only|read only"),
        ):
            cursor.execute(sql)
        # The failed statement's cursor was not kept; the next one works.
        assert warehouse.preview("SELECT count(*) FROM accounts").rows == [(2,)]
    finally:
        warehouse.close()
    con = duckdb.connect(str(canary_path))  # the file itself: nothing changed
    try:
        assert con.execute("SELECT count(*), sum(balance) FROM accounts").fetchone() == (2, 350)
        assert con.execute("SELECT nextval('seq')").fetchone() == (2,)
    finally:
        con.close()


def test_only_a_read_only_private_instance_keeps_cursors(canary_path: Path) -> None:
    user = duckdb.connect(str(canary_path))
    memory = Warehouse.connect(":memory:")
    shared = Warehouse.connect(user)
    try:
        memory.preview("SELECT 1")
        shared.preview("SELECT 1")
        assert not runs_read_only(memory.connection)  # its own database is writable
        assert not runs_read_only(user)  # the user's: their transaction rules
        assert _cursor_of(memory) is not _cursor_of(memory)
        with (
            bounded_cursor(memory.connection, 5.0) as (cursor, _),
            pytest.raises(duckdb.Error, match="read-only"),
        ):
            cursor.execute("CREATE TABLE t AS SELECT 1 AS x")
    finally:
        memory.close()
        user.close()


def test_a_timed_out_statement_drops_its_cursor_and_the_next_one_runs(canary_path: Path) -> None:
    warehouse = Warehouse.connect(canary_path)
    try:
        warehouse.preview("SELECT 1")
        before = _cursor_of(warehouse)
        slow = "SELECT count(*) FROM range(1000000000) a, range(1000) b WHERE a.range + b.range < 0"
        started = time.monotonic()
        with pytest.raises(QueryTimeout):
            warehouse.preview(slow, timeout_s=0.3)
        assert time.monotonic() - started < 10
        after = _cursor_of(warehouse)
        assert after is not before  # never reused once interrupted
        assert warehouse.preview("SELECT count(*) FROM accounts").rows == [(2,)]
    finally:
        warehouse.close()


def test_closing_the_warehouse_releases_the_file_its_kept_cursors_held(canary_path: Path) -> None:
    warehouse = Warehouse.connect(canary_path)
    warehouse.preview("SELECT count(*) FROM accounts")
    kept = _cursor_of(warehouse)
    warehouse.close()
    writer = duckdb.connect(str(canary_path))  # refused while any cursor held the file
    try:
        writer.execute("INSERT INTO accounts VALUES (3, 'carol', 5)")
    finally:
        writer.close()
    with pytest.raises(duckdb.ConnectionException):
        kept.execute("SELECT 1")


def _prepared(warehouse: Warehouse) -> PreparedStatements:
    cursor = _cursor_of(warehouse)
    statements = prepared_on(cursor)
    assert statements is not None
    return statements


def test_a_statement_run_again_on_a_kept_cursor_is_prepared_once(canary_path: Path) -> None:
    warehouse = Warehouse.connect(canary_path)
    try:
        sql = "SELECT owner, balance FROM accounts ORDER BY id"
        first = warehouse.preview(sql)
        assert len(_prepared(warehouse)) == 0  # once: run as it is
        second = warehouse.preview(sql)
        assert len(_prepared(warehouse)) == 1  # again: prepared, then run by name
        third = warehouse.preview(sql)
        assert len(_prepared(warehouse)) == 1
        assert first.rows == second.rows == third.rows == [("alice", 100.0), ("bob", 250.0)]
        assert first.columns == third.columns and first.column_types == third.column_types
        assert third.truncated is False and warehouse.preview(sql, limit=1).truncated is True
        # A statement with parameters runs as it is, however often.
        for _ in range(3):
            rows = warehouse.preview("SELECT owner FROM accounts WHERE id = $id", params={"id": 2})
            assert rows.rows == [("bob",)]
        assert len(_prepared(warehouse)) == 1  # (the LIMIT 1 preview is another statement)
    finally:
        warehouse.close()


def test_a_statement_that_failed_is_never_prepared_and_fails_the_same_way(
    canary_path: Path,
) -> None:
    warehouse = Warehouse.connect(canary_path)
    try:
        sql = "SELECT CAST(owner AS INTEGER) AS n FROM accounts"
        with pytest.raises(QueryError) as first:
            warehouse.preview(sql)
        with pytest.raises(QueryError) as second:
            warehouse.preview(sql)
        assert str(first.value) == str(second.value)
        assert "PREPARE" not in str(second.value) and "zlens_prepared" not in str(second.value)
        assert len(_prepared(warehouse)) == 0
    finally:
        warehouse.close()


def test_statements_prepared_on_a_kept_cursor_are_bounded(canary_path: Path) -> None:
    warehouse = Warehouse.connect(canary_path)
    try:
        keep = PreparedStatements.KEEP
        for i in range(keep + 8):
            for _ in range(2):  # twice each: the second run prepares it
                preview = warehouse.preview(f"SELECT {i} AS n, count(*) AS c FROM accounts")
                assert preview.rows == [(i, 2)]
        statements = _prepared(warehouse)
        assert len(statements) == keep  # the oldest deallocated past KEEP
        cursor = _cursor_of(warehouse)
        held = cursor.execute("SELECT count(*) FROM duckdb_prepared_statements()").fetchone()
        assert held == (keep,)
        assert warehouse.preview("SELECT 0 AS n, count(*) AS c FROM accounts").rows == [(0, 2)]
    finally:
        warehouse.close()


def test_a_prepared_statement_reads_the_clock_and_the_dice_on_every_run(canary_path: Path) -> None:
    """A block that filters on `now()` (the last 30 days) must not keep the day it was first
    run: DuckDB evaluates such functions when a prepared statement executes, not once."""
    warehouse = Warehouse.connect(canary_path)
    try:
        sql = "SELECT epoch_ms(now()) AS at, random() AS dice"
        seen = []
        for _ in range(4):
            seen.append(warehouse.preview(sql).rows[0])
            time.sleep(0.01)
        assert len(_prepared(warehouse)) == 1  # the later runs were by the prepared plan
        stamps = [at for at, _ in seen]
        assert stamps == sorted(stamps) and stamps[-1] > stamps[1]
        assert len({dice for _, dice in seen[1:]}) == 3
    finally:
        warehouse.close()
