"""The same questions on DuckDB and on Spark (same Parquet data): same answers, same labels.

Each question runs through the whole offline loop on both engines (routing, parsing, SQL
built in the house dialect and transpiled for Spark, guard, bounded preview, gates, trust).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from zlens_jupyter.engine import TrustState
from zlens_jupyter.session import Session
from zlens_jupyter.warehouse.spark import SparkWarehouse

NYC_QUESTIONS = [
    "average departure delay by carrier",
    "how many flights by origin",
    "top 5 destinations by number of flights",
    "total distance by month",
    "average arrival delay for JFK by month",
    "number of flights by airline name",
    "how many planes by manufacturer",
    "average temperature by origin",
]
TPCH_QUESTIONS = [
    "total o_totalprice by o_orderpriority",
    "how many customers by c_mktsegment",
    "sum of l_extendedprice by l_returnflag",
    "count of orders by order status",
    "number of orders by year",
    "how many parts by brand",
    "total o_totalprice by c_mktsegment",
]


@pytest.fixture(scope="module")
def nyc_pair(nyc_duckdb: Path, nyc_spark: Any, tmp_path_factory: pytest.TempPathFactory):
    duck = Session(nyc_duckdb, tmp_path_factory.mktemp("nyc_project_duck"), persist=False)
    spark = Session(nyc_spark, tmp_path_factory.mktemp("nyc_project_spark"), persist=False)
    yield duck, spark
    duck.close()
    spark.close()


@pytest.fixture(scope="module")
def tpch_pair(tpch_duckdb: Path, tpch_spark: Any, tmp_path_factory: pytest.TempPathFactory):
    duck = Session(tpch_duckdb, tmp_path_factory.mktemp("tpch_project_duck"), persist=False)
    spark = Session(tpch_spark, tmp_path_factory.mktemp("tpch_project_spark"), persist=False)
    yield duck, spark
    duck.close()
    spark.close()


def _rows(run: Any, ordered: bool) -> list[tuple[Any, ...]]:
    rows = [tuple(_normal(v) for v in row) for row in run.df.itertuples(index=False)]
    return rows if ordered else sorted(rows, key=repr)


def _normal(value: Any) -> Any:
    if isinstance(value, float) and not math.isnan(value):
        return round(value, 6)
    if hasattr(value, "item"):  # numpy scalars
        return _normal(value.item())
    return value


def _same_answer(duck: Session, spark: Session, question: str) -> None:
    on_duck = duck.ask(question)
    on_spark = spark.ask(question)
    assert isinstance(spark.warehouse, SparkWarehouse)
    assert on_duck.trust_state in (TrustState.GROUNDED, TrustState.CERTIFIED), on_duck.summary
    assert (on_spark.status, on_spark.trust_state, on_spark.route) == (
        on_duck.status,
        on_duck.trust_state,
        on_duck.route,
    ), on_spark.summary
    assert list(on_spark.df.columns) == list(on_duck.df.columns)
    assert _rows(on_spark, ordered=False) == _rows(on_duck, ordered=False)
    if "ORDER BY" in (on_duck.sql or "").upper():  # same order (ties may swap places)
        assert [r[-1] for r in _rows(on_spark, True)] == [r[-1] for r in _rows(on_duck, True)]
    assert len(on_duck.df) > 0


@pytest.mark.parametrize("question", NYC_QUESTIONS)
def test_nycflights_question_same_on_both_engines(nyc_pair: Any, question: str) -> None:
    _same_answer(*nyc_pair, question)


@pytest.mark.parametrize("question", TPCH_QUESTIONS)
def test_tpch_question_same_on_both_engines(tpch_pair: Any, question: str) -> None:
    _same_answer(*tpch_pair, question)


def test_the_spark_answer_shows_spark_sql(nyc_pair: Any) -> None:
    _, spark = nyc_pair
    sql = spark.warehouse.engine_sql('SELECT "carrier", count(*) AS n FROM flights GROUP BY 1')
    assert sql == "SELECT `carrier`, COUNT(*) AS n FROM flights GROUP BY 1"


def test_catalog_types_comments_counts_and_keys_match_duckdb(nyc_pair: Any) -> None:
    duck, spark = nyc_pair
    on_duck, on_spark = duck.warehouse.catalog(), spark.warehouse.catalog()
    assert sorted(on_spark.tables) == sorted(on_duck.tables)
    for name, table in on_duck.tables.items():
        other = on_spark.tables[name]
        assert other.row_count == table.row_count
        assert [(c.name, c.type) for c in other.columns] == [
            (c.name, c.type) for c in table.columns
        ]
        for mine, theirs in zip(other.columns, table.columns, strict=True):
            assert mine.distinct_values == theirs.distinct_values, (name, mine.name)
    assert {
        (k.left_table, k.left_column, k.right_table, k.right_column) for k in on_spark.join_keys
    } == {(k.left_table, k.left_column, k.right_table, k.right_column) for k in on_duck.join_keys}
    assert on_spark.fingerprint.startswith("spark:")
    assert on_spark.fingerprint != on_duck.fingerprint


@pytest.mark.parametrize("question", ["revenue by region", "total profit by warehouse"])
def test_a_question_that_must_be_asked_again_is_the_same_clarification(
    tpch_pair: Any, question: str
) -> None:
    duck, spark = tpch_pair
    on_duck, on_spark = duck.ask(question), spark.ask(question)
    assert on_duck.trust_state is TrustState.NOT_APPLICABLE
    assert (on_spark.status, on_spark.trust_state) == (on_duck.status, on_duck.trust_state)
    assert on_spark.clarification == on_duck.clarification


def _keys(catalog: Any) -> set[tuple[str, str, str, str]]:
    return {(k.left_table, k.left_column, k.right_table, k.right_column) for k in catalog.join_keys}
