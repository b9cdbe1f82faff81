"""Stop and the deadline cancel a running Spark job; certification is per engine."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from zlens_jupyter.engine import CancelToken, Route, RunStatus, TrustState
from zlens_jupyter.errors import QueryTimeout
from zlens_jupyter.session import Session
from zlens_jupyter.warehouse.spark import SparkWarehouse

# ~10^11 joined rows: hours in local mode, so only a cancel can end it within the test.
LONG = (
    "SELECT count(*) AS n FROM flights a CROSS JOIN flights b "
    "WHERE a.dep_delay + b.arr_delay > 100000"
)


def _stop_once_running(spark: Any, stop: threading.Event, stamp: list[float]) -> None:
    """Set `stop` as soon as a Spark job is running (so the cancel meets a live job)."""
    tracker = spark.sparkContext.statusTracker()
    give_up = time.monotonic() + 60
    while not tracker.getActiveJobsIds() and time.monotonic() < give_up:
        time.sleep(0.05)
    time.sleep(0.5)  # let its tasks get going
    stamp.append(time.monotonic())
    stop.set()


def _wait_for_no_jobs(spark: Any, within_s: float) -> float:
    tracker = spark.sparkContext.statusTracker()
    started = time.monotonic()
    while tracker.getActiveJobsIds() and time.monotonic() - started < within_s:
        time.sleep(0.05)
    return time.monotonic() - started


def test_stop_cancels_a_long_spark_job_within_two_seconds(nyc_spark: Any) -> None:
    warehouse = SparkWarehouse(nyc_spark)
    stop, stamp = threading.Event(), []
    threading.Thread(target=_stop_once_running, args=(nyc_spark, stop, stamp)).start()
    with pytest.raises(KeyboardInterrupt):
        warehouse.preview(LONG, timeout_s=300, should_stop=stop.is_set)
    returned = time.monotonic() - stamp[0]
    assert returned < 2.0, f"preview returned {returned:.2f} s after Stop"
    assert _wait_for_no_jobs(nyc_spark, 2.0) < 2.0  # the job itself is gone from Spark


def test_the_deadline_cancels_the_job_and_is_a_timeout(nyc_spark: Any) -> None:
    warehouse = SparkWarehouse(nyc_spark)
    started = time.monotonic()
    with pytest.raises(QueryTimeout):
        warehouse.preview(LONG, timeout_s=3)
    assert time.monotonic() - started < 3 + 2.0
    assert _wait_for_no_jobs(nyc_spark, 2.0) < 2.0


def test_stop_during_a_run_ends_it_cancelled(nyc_spark: Any, tmp_path: Path) -> None:
    session = Session(nyc_spark, tmp_path, persist=False)
    token, stop, stamp = CancelToken(), threading.Event(), []

    def stop_run() -> None:
        _stop_once_running(nyc_spark, stop, stamp)
        token.cancel("Stop")

    threading.Thread(target=stop_run).start()
    run = session.ask(LONG, cancel=token, deadline_s=120)
    assert run.status is RunStatus.CANCELLED
    assert time.monotonic() - stamp[0] < 2.0
    assert _wait_for_no_jobs(nyc_spark, 2.0) < 2.0
    session.close()


BLOCK = '''block "Flights by carrier" {
  domain = "operations"
  status = "review"
  description = "Number of flights by carrier."
  owner = "analyst@example.com"
  grain = "carrier"
  outputs = ["carrier", "flights"]
  query = """
    SELECT carrier, count(*) AS flights FROM flights GROUP BY carrier ORDER BY flights DESC
  """
  visualization {
    chart = "bar"
    x = carrier
    y = flights
  }
  tests {
    assert row_count > 0
  }
}
'''


def test_certification_is_per_engine(nyc_spark: Any, nyc_duckdb: Path, tmp_path: Path) -> None:
    (tmp_path / "blocks").mkdir()
    (tmp_path / "blocks" / "flights.dql").write_text(BLOCK, encoding="utf-8")
    question = "How many flights by carrier?"

    on_duck = Session(nyc_duckdb, tmp_path, persist=False)
    on_duck.certify("Flights by carrier", by="analyst@example.com")
    assert on_duck.ask(question).trust_state is TrustState.CERTIFIED
    on_duck.close()

    # The same project on Spark: the DuckDB record does not hold here.
    on_spark = Session(nyc_spark, tmp_path, persist=False)
    status = {b.name: b.status for b in on_spark.blocks()}
    assert status["Flights by carrier"] != "certified"
    run = on_spark.ask(question)
    assert run.trust_state is not TrustState.CERTIFIED

    # A person certifies it on Spark: now Spark answers from it, certified, same numbers.
    on_spark.certify("Flights by carrier", by="analyst@example.com")
    run = on_spark.ask(question)
    assert run.route is Route.CERTIFIED_ANSWER
    assert run.trust_state is TrustState.CERTIFIED
    assert run.df.iloc[0].tolist() == ["UA", 58665]
    on_spark.close()

    # ...and that record is Spark's: back on DuckDB the block is not certified.
    again = Session(nyc_duckdb, tmp_path, persist=False)
    assert {b.name: b.status for b in again.blocks()}["Flights by carrier"] != "certified"
    again.close()


SPARK_BLOCK = '''block "Flights by origin" {
  domain = "operations"
  status = "review"
  dialect = "spark"
  description = "Number of flights by origin airport."
  owner = "analyst@example.com"
  grain = "origin"
  outputs = ["origin", "flights"]
  query = """
    SELECT `origin`, count(*) AS flights FROM flights GROUP BY `origin` ORDER BY flights DESC
  """
  tests {
    assert row_count == 3
  }
}
'''


def test_a_block_written_in_spark_sql_runs_unchanged_and_certifies_there(
    nyc_spark: Any, tmp_path: Path
) -> None:
    (tmp_path / "blocks").mkdir()
    (tmp_path / "blocks" / "origin.dql").write_text(SPARK_BLOCK, encoding="utf-8")
    session = Session(nyc_spark, tmp_path, persist=False)
    session.certify("Flights by origin", by="analyst@example.com")
    run = session.ask("How many flights by origin?")
    failed = [(e.id, e.message) for e in run.evaluations if not e.passed]
    assert (run.route, run.trust_state) == (Route.CERTIFIED_ANSWER, TrustState.CERTIFIED), failed
    assert run.df.iloc[0].tolist() == ["EWR", 120835]
    session.close()
