"""Bounded previews, timeouts, DuckDB's errors, parameters and opening databases."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.errors import ConfigError, GuardrailViolation, QueryError, QueryTimeout
from zlens_jupyter.warehouse import Warehouse

FLIGHT_ROWS = 336_776


def test_a_big_result_is_cut_at_the_limit(nyc: Warehouse) -> None:
    preview = nyc.preview("SELECT * FROM flights")
    assert preview.row_count == 1000 and len(preview.rows) == 1000
    assert preview.truncated is True
    assert preview.columns[:3] == ["year", "month", "day"]
    assert preview.column_types[preview.columns.index("dep_delay")] == "DOUBLE"
    assert preview.elapsed_ms > 0
    assert preview.sql == "SELECT * FROM flights"


def test_the_wrapper_asks_duckdb_for_one_row_more_than_the_limit(nyc: Warehouse) -> None:
    small = nyc.preview("SELECT * FROM flights", limit=10)
    assert small.row_count == 10 and small.truncated
    exact = nyc.preview("SELECT * FROM airlines", limit=16)
    assert exact.row_count == 16 and not exact.truncated
    nothing = nyc.preview("SELECT * FROM airlines", limit=0)
    assert nothing.rows == [] and nothing.truncated


def test_order_and_aggregates_survive_the_wrapper(nyc: Warehouse) -> None:
    preview = nyc.preview(
        "SELECT origin, count(*) AS n FROM flights GROUP BY origin ORDER BY n DESC -- busiest first"
    )
    assert [r[0] for r in preview.rows] == ["EWR", "JFK", "LGA"]
    assert sum(r[1] for r in preview.rows) == FLIGHT_ROWS
    assert not preview.truncated


def test_benign_corpus_runs(nyc: Warehouse) -> None:
    import yaml

    for sql in yaml.safe_load((Path(__file__).parent / "benign_sql.yml").read_text()):
        preview = nyc.preview(sql, limit=5)
        assert preview.columns, sql


def test_parameters_are_bound_not_pasted(nyc: Warehouse) -> None:
    named = nyc.preview(
        "SELECT count(*) FROM flights WHERE origin = $origin", params={"origin": "JFK"}
    )
    positional = nyc.preview("SELECT count(*) FROM flights WHERE origin = ?", params=["JFK"])
    assert named.rows == positional.rows and named.rows[0][0] > 100_000
    injected = nyc.preview(
        "SELECT count(*) FROM flights WHERE origin = ?", params=["JFK' OR '1'='1"]
    )
    assert injected.rows == [(0,)]


def test_a_long_query_times_out(nyc: Warehouse) -> None:
    # Unstopped, this runs for hours; the error only arrives once DuckDB has stopped it.
    with pytest.raises(QueryTimeout, match=r"0\.5 s limit"):
        nyc.preview("SELECT count(*) FROM range(10000000000) a, range(10) b", timeout_s=0.5)
    # The connection is still usable afterwards.
    assert nyc.preview("SELECT 1 AS one").rows == [(1,)]


def test_duckdb_error_text_is_kept(nyc: Warehouse) -> None:
    with pytest.raises(QueryError) as caught:
        nyc.preview("SELECT dep_dely FROM flights")
    assert not isinstance(caught.value, QueryTimeout)
    assert "dep_dely" in str(caught.value)
    assert "dep_delay" in str(caught.value)  # DuckDB's suggestion survives
    assert "LINE 1: SELECT dep_dely FROM flights" in str(caught.value)  # the user's line


def test_preview_always_guards(nyc: Warehouse) -> None:
    with pytest.raises(GuardrailViolation):
        nyc.preview("SELECT 1; SELECT 2")


def test_to_dict_is_json_safe(nyc: Warehouse) -> None:
    preview = nyc.preview(
        "SELECT time_hour, DATE '2013-01-01' AS d, 1.50::DECIMAL(4, 2) AS money, "
        "'nan'::DOUBLE AS nan, INTERVAL 90 MINUTE AS gap, [1, 2] AS xs, {'a': 1} AS s, "
        "'\\x00\\xff'::BLOB AS raw, uuid() AS id FROM flights LIMIT 1"
    )
    data = preview.to_dict()
    text = json.dumps(data, allow_nan=False)
    row = json.loads(text)["rows"][0]
    assert row[0].startswith("2013-01-01T")
    assert row[1] == "2013-01-01" and row[2] == 1.5 and row[3] is None
    assert row[4] == 5400.0 and row[5] == [1, 2] and row[6] == {"a": 1}
    assert isinstance(row[7], str) and len(row[8]) == 36
    assert data["row_count"] == 1 and data["truncated"] is False


def test_interrupting_the_users_connection_leaves_our_query_alone() -> None:
    con = duckdb.connect()
    warehouse = Warehouse.connect(con)
    done = threading.Event()

    def keep_interrupting() -> None:
        while not done.is_set():
            con.interrupt()
            time.sleep(0.001)

    # Previews run on their own cursor, so interrupts aimed at the user's connection (their
    # own Ctrl-C on a cell, say) cannot cancel ours, and ours cannot cancel theirs.
    thread = threading.Thread(target=keep_interrupting)
    thread.start()
    try:
        preview = warehouse.preview("SELECT sum(range) FROM range(100000000)")
    finally:
        done.set()
        thread.join()
    assert preview.rows == [(4999999950000000,)]


def test_missing_database_file_says_how_to_fix(tmp_path: Path) -> None:
    missing = tmp_path / "nope.duckdb"
    with pytest.raises(ConfigError) as caught:
        Warehouse.connect(missing)
    message = str(caught.value)
    assert f"no database at {missing}" in message
    assert "':memory:'" in message and "'sample'" in message


def test_not_a_database_file_is_a_config_error(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.duckdb"
    bogus.write_text("just text")
    with pytest.raises(ConfigError, match="cannot open"):
        Warehouse.connect(bogus)


def test_files_open_read_only_by_default(nyc_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "ro.duckdb"
    duckdb.connect(str(path)).execute("CREATE TABLE t AS SELECT 1 AS x").close()
    warehouse = Warehouse.connect(path)
    with pytest.raises(duckdb.Error, match="read-only"):
        warehouse.connection.execute("CREATE TABLE u (x INTEGER)")
    warehouse.close()


def test_shares_a_file_this_process_already_holds_read_write(tmp_path: Path) -> None:
    path = tmp_path / "shared.duckdb"
    mine = duckdb.connect(str(path))
    mine.execute("CREATE TABLE t AS SELECT 1 AS x")
    warehouse = Warehouse.connect(path)  # read_only=None falls back instead of failing
    assert warehouse.preview("SELECT x FROM t").rows == [(1,)]
    warehouse.close()
    mine.close()


def test_memory_and_existing_connections(tmp_path: Path) -> None:
    with Warehouse.connect(":memory:") as memory:
        assert memory.catalog().tables == {}
        assert memory.link("anything").tables == []
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT 1 AS x")
    with Warehouse.connect(con) as wrapped:
        assert wrapped.connection is con
        assert list(wrapped.catalog().tables) == ["t"]
    assert con.execute("SELECT x FROM t").fetchall() == [(1,)]  # still open: not ours


def test_a_billion_row_result_is_never_materialized() -> None:
    with Warehouse.connect(":memory:") as warehouse:
        preview = warehouse.preview("SELECT range AS n FROM range(1000000000)", limit=10)
    assert preview.rows == [(n,) for n in range(10)]
    assert preview.truncated


def test_deadlines_are_per_query_across_threads() -> None:
    con = duckdb.connect()
    warehouse = Warehouse.connect(con)
    outcomes: dict[str, object] = {}

    def slow() -> None:
        try:
            warehouse.preview(
                "SELECT count(*) FROM range(10000000000) a, range(10) b", timeout_s=0.3
            )
        except QueryTimeout as error:
            outcomes["slow"] = error

    def quick() -> None:
        outcomes["quick"] = warehouse.preview(
            "SELECT sum(range) FROM range(1000)", timeout_s=60
        ).rows

    threads = [threading.Thread(target=slow), threading.Thread(target=quick)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert isinstance(outcomes["slow"], QueryTimeout)
    assert outcomes["quick"] == [(499500,)]


def test_a_disarmed_deadline_never_fires_later() -> None:
    from zlens_jupyter.warehouse.deadline import Deadline

    cursor = duckdb.connect().cursor()
    with Deadline(cursor, 1.0) as deadline:
        pass  # the guarded work finished at once
    time.sleep(1.5)  # past the due time: a timer that was not disarmed would fire now
    assert cursor.execute("SELECT sum(range) FROM range(20000000)").fetchall()
    assert not deadline.expired


# Runs ~6 s on a laptop, then ends by itself: a deadline or a Stop the watchdog missed shows
# as the statement finishing instead of being stopped (never as a hang).
FINITE_SLOW = "SELECT sum(range % 7) FROM range(2000000000)"


def test_a_shorter_deadline_wakes_a_watchdog_sleeping_until_a_later_one() -> None:
    # The watchdog is woken only when a new deadline is due before it would look anyway:
    # one due sooner than the deadline it sleeps until must still stop its statement.
    from zlens_jupyter.warehouse.deadline import Deadline

    warehouse = Warehouse.connect(":memory:")
    # The first deadline has the watchdog sleep ~600 s; the second is due long before.
    with Deadline(duckdb.connect().cursor(), 600.0), pytest.raises(QueryTimeout):
        warehouse.preview(FINITE_SLOW, timeout_s=0.3)


def test_a_stop_is_polled_for_a_statement_armed_while_the_watchdog_sleeps_long() -> None:
    # A statement that obeys a Stop is polled every STOP_POLL_S, even when the watchdog was
    # sleeping until a far deadline with nothing to poll.
    from zlens_jupyter.warehouse.deadline import Deadline
    from zlens_jupyter.warehouse.preview import run_preview

    stop = threading.Event()
    warehouse = Warehouse.connect(":memory:")
    with Deadline(duckdb.connect().cursor(), 600.0):  # nothing to poll: it sleeps ~600 s
        timer = threading.Timer(0.3, stop.set)  # Stop, once the statement below runs
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            run_preview(warehouse.connection, FINITE_SLOW, timeout_s=600, should_stop=stop.is_set)
        timer.join()


def test_a_dataframe_in_the_callers_scope_is_not_a_table() -> None:
    # DuckDB's replacement scans would resolve `payroll` to this local DataFrame; agent SQL
    # must see the catalog only, not whatever Python objects happen to be in the call stack.
    import pandas as pd

    payroll = pd.DataFrame({"name": ["Ada"], "salary": [250_000]})
    con = duckdb.connect()
    assert con.execute("SELECT * FROM payroll").fetchall() == [("Ada", 250_000)]  # the risk
    warehouse = Warehouse.connect(con)
    with pytest.raises(QueryError, match="Table with name payroll does not exist"):
        warehouse.preview("SELECT * FROM payroll")
    assert len(payroll) == 1
    # The user's own connection keeps its behaviour: only our cursors turn the scans off.
    assert con.execute("SELECT count(*) FROM payroll").fetchone() == (1,)


def test_a_kernel_interrupt_during_a_query_is_a_keyboard_interrupt() -> None:
    # Jupyter's Stop sends SIGINT. Landing inside DuckDB it surfaces as a bare
    # RuntimeError("Query interrupted"); the preview must hand the loop a KeyboardInterrupt
    # (its cancel path), not a crash.
    import os
    import signal

    warehouse = Warehouse.connect(":memory:")
    with pytest.raises(KeyboardInterrupt):
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        warehouse.preview("SELECT count(*) FROM range(100000000000) AS a", timeout_s=120)


def test_the_one_statement_check_remembers_only_what_passed() -> None:
    from zlens_jupyter.warehouse.preview import _one_statement, wrap_with_limit

    cursor = duckdb.connect()
    one = wrap_with_limit("SELECT 42 AS answer", 10)
    two = "SELECT 1; SELECT 2"
    assert _one_statement(cursor, one) and _one_statement(cursor, one)
    assert not _one_statement(cursor, two) and not _one_statement(cursor, two)
    closed = duckdb.connect()
    closed.close()
    assert _one_statement(closed, one)  # remembered: DuckDB is not asked again
    with pytest.raises(duckdb.Error):
        _one_statement(closed, two)  # a failing text is asked about every time


def test_every_preview_ends_its_cursor_and_transaction(tmp_path: Path) -> None:
    """On a user's read-write connection, a preview that succeeds, one DuckDB refuses and
    one that times out each leave no cursor (and so no transaction) behind: a successful one
    is ended by closing its cursor, without a ROLLBACK statement first (issue 11), and
    nothing a preview's transaction saw is kept from the user's own writes."""
    con = duckdb.connect(str(tmp_path / "rw.duckdb"))
    con.execute("CREATE TABLE t AS SELECT range AS i FROM range(1000)")
    count = "SELECT count FROM duckdb_connection_count()"
    baseline = con.execute(count).fetchone()
    warehouse = Warehouse.connect(con)
    assert warehouse.preview("SELECT count(*) FROM t").rows == [(1000,)]
    with pytest.raises(QueryError):
        warehouse.preview("SELECT no_such_column FROM t")
    with pytest.raises(QueryTimeout):
        warehouse.preview("SELECT count(*) FROM range(10000000000) a", timeout_s=0.2)
    assert con.execute(count).fetchone() == baseline
    con.execute("INSERT INTO t VALUES (-1)")  # the user's write is theirs, at once
    assert warehouse.preview("SELECT count(*) FROM t").rows == [(1001,)]
    assert con.execute(count).fetchone() == baseline
