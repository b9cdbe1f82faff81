"""Composite join keys on Spark: the same inference as on DuckDB (two same-named columns
unique together on one side), over the same Parquet data, and the same answer through them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from zlens_jupyter.engine import RunStatus
from zlens_jupyter.session import Session
from zlens_jupyter.warehouse import JoinKey, Warehouse
from zlens_jupyter.warehouse.spark import SparkWarehouse

TABLES = ["episodes", "ratings", "plays", "repeats"]
QUESTION = "What is the average viewers 7day by bakers out?"


@pytest.fixture(scope="module")
def bakeoff(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """ratings and episodes: one row per (series, episode) each; plays and repeats: several
    rows per (series, episode), so nothing is unique between those two."""
    path = tmp_path_factory.mktemp("composite") / "bakeoff.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE episodes AS SELECT s AS series, e AS episode, (s * 7 + e) % 3 AS bakers_out"
        " FROM range(1, 4) a(s), range(1, 5) b(e)"
    )
    con.execute(
        "CREATE TABLE ratings AS SELECT series, episode, "
        "CAST(2 + series + 0.3 * episode + (episode % 3) * 0.1 AS DOUBLE) AS viewers_7day "
        "FROM episodes"
    )
    con.execute(
        "CREATE TABLE plays AS SELECT series, episode, k AS minutes FROM episodes, range(2) c(k)"
    )
    con.execute(
        "CREATE TABLE repeats AS SELECT series, episode, k AS channel FROM episodes, range(3) c(k)"
    )
    folder = tmp_path_factory.mktemp("composite_parquet")
    for table in TABLES:
        con.execute(f"COPY {table} TO '{folder / (table + '.parquet')}' (FORMAT parquet)")
    con.close()
    spark.sql("CREATE DATABASE IF NOT EXISTS composite")
    for table in TABLES:
        spark.sql(
            f"CREATE TABLE IF NOT EXISTS composite.{table} USING parquet "
            f"LOCATION '{folder / (table + '.parquet')}'"
        )
    scoped = spark.newSession()
    scoped.catalog.setCurrentDatabase("composite")
    return path, scoped


def _between(keys: tuple[JoinKey, ...], a: str, b: str) -> list[JoinKey]:
    return [k for k in keys if {k.left_table, k.right_table} == {a, b}]


def test_spark_infers_the_same_composite_keys(bakeoff: tuple[Path, Any]) -> None:
    path, scoped = bakeoff
    spark_keys = SparkWarehouse(scoped).catalog().join_keys
    [key] = _between(spark_keys, "ratings", "episodes")
    assert key.pairs == (("series", "series"), ("episode", "episode"))
    [plays] = _between(spark_keys, "plays", "episodes")
    assert plays.right_table == "episodes" and plays.composite
    assert not _between(spark_keys, "plays", "repeats")  # unique on neither side
    with Warehouse.connect(path) as duck:
        duck_keys = duck.catalog().join_keys

    def described(keys: tuple[JoinKey, ...]) -> set[tuple[str, str, tuple[tuple[str, str], ...]]]:
        return {(k.left_table, k.right_table, k.pairs) for k in keys}

    assert described(spark_keys) == described(duck_keys)


def test_spark_answers_through_the_composite_key(bakeoff: tuple[Path, Any], tmp_path: Path) -> None:
    path, scoped = bakeoff
    answers = []
    for target in (path, scoped):
        session = Session(target, tmp_path / str(len(answers)), persist=False)
        try:
            run = session.ask(QUESTION)
        finally:
            session.close()
        assert run.status is RunStatus.COMPLETED, (run.status, run.clarification)
        answers.append(sorted((int(r[0]), float(r[1])) for r in run.result["rows"]))
    con = duckdb.connect(str(path), read_only=True)
    truth = con.execute(
        "SELECT e.bakers_out, round(avg(r.viewers_7day), 2) FROM ratings r "
        "JOIN episodes e USING (series, episode) GROUP BY 1 ORDER BY 1"
    ).fetchall()
    con.close()
    for got in answers:
        assert [a for a, _ in got] == [a for a, _ in truth]
        assert all(abs(b - want) < 0.011 for (_, b), (_, want) in zip(got, truth, strict=True))
