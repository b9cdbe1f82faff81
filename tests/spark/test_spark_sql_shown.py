"""On Spark a person sees the SQL Spark ran (card, Insert, --json, the record), and a block
written in Spark SQL takes its `@param`s as Spark's named parameter markers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sqlglot

from zlens_jupyter.engine import Route, TrustState
from zlens_jupyter.errors import GuardrailViolation, QueryError
from zlens_jupyter.notebook.insert import dql_draft_source, sql_cell_source
from zlens_jupyter.notebook.render import all_sql
from zlens_jupyter.session import Session
from zlens_jupyter.warehouse.spark import SparkWarehouse


def _rows(frame: Any) -> list[list[Any]]:
    return [[round(v, 6) if isinstance(v, float) else v for v in row] for row in frame]


@pytest.mark.parametrize(
    "question", ["average departure delay by carrier", "number of flights by year and month"]
)
def test_a_spark_answer_shows_the_spark_sql_it_ran(
    nyc_spark: Any, tmp_path: Path, question: str
) -> None:
    session = Session(nyc_spark, tmp_path, persist=False)
    run = session.ask(question)
    assert run.result and run.sql, run.evaluations
    written = run.provenance["written_sql"]  # what the route built (DuckDB's dialect)
    assert run.sql == run.provenance["engine_sql"]
    # Spark SQL: it reads in sqlglot's Spark dialect, DuckDB's ordering of NULLs is said
    # (Spark's default differs), and spark.sql runs it as pasted: same rows, same order.
    sqlglot.parse_one(run.sql, read="spark")
    if "ORDER BY\n  1" in written:
        assert "NULLS LAST" in run.sql and "NULLS LAST" not in written
    pasted = nyc_spark.sql(run.sql).collect()
    assert _rows(pasted) == _rows(run.df.itertuples(index=False, name=None))
    assert len(run.sql.splitlines()) > 3  # laid out on lines, as DuckDB's SQL is
    # Everything a person copies or reads carries that statement.
    assert json.loads(json.dumps(run.to_dict(), default=str))["sql"] == run.sql  # --json
    assert all_sql(run.to_dict()) == run.sql  # the card's SQL view and Copy SQL
    assert run.sql in str(sql_cell_source(run))  # Insert SQL cell
    draft = str(dql_draft_source(run))  # Insert as DQL cell: a block in Spark SQL says so
    assert 'dialect = "spark"' in draft and run.sql.splitlines()[0] in draft
    # The gates read the SQL as written and passed it: a grounded answer, as on DuckDB.
    assert run.trust_state is TrustState.GROUNDED
    session.close()


HOUSE_BLOCK = '''block "Flights by carrier" {
  domain = "operations"
  status = "review"
  description = "Number of flights by carrier."
  owner = "analyst@example.com"
  grain = "carrier"
  outputs = ["carrier", "flights"]
  query = """
    SELECT "carrier", count(*) AS flights FROM @table("flights")
    GROUP BY "carrier" ORDER BY flights DESC
  """
  tests {
    assert row_count > 10
  }
}
'''


def test_a_certified_duckdb_block_on_spark_shows_backticks(nyc_spark: Any, tmp_path: Path) -> None:
    (tmp_path / "blocks").mkdir()
    (tmp_path / "blocks" / "carrier.dql").write_text(HOUSE_BLOCK, encoding="utf-8")
    session = Session(nyc_spark, tmp_path, persist=False)
    session.certify("Flights by carrier", by="analyst@example.com")
    run = session.ask("How many flights by carrier?")
    assert (run.route, run.trust_state) == (Route.CERTIFIED_ANSWER, TrustState.CERTIFIED)
    assert '"carrier"' in run.provenance["written_sql"]  # in Spark, a string: every row 'carrier'
    assert "`carrier`" in run.sql and '"' not in run.sql
    pasted = nyc_spark.sql(run.sql).collect()
    assert _rows(pasted) == _rows(run.df.itertuples(index=False, name=None))
    assert pasted[0][0] == "UA"
    session.close()


SPARK_PARAM_BLOCK = '''block "Planes by engine" {
  domain = "fleet"
  status = "review"
  dialect = "spark"
  description = "Number of planes by engine type, for one manufacturer."
  owner = "analyst@example.com"
  grain = "engine"
  outputs = ["engine", "planes"]
  query = """
    SELECT `engine`, count(*) AS planes
    FROM @table("planes")
    WHERE `manufacturer` = @param("manufacturer")
    GROUP BY `engine`
    ORDER BY planes DESC, `engine`
  """
  params {
    manufacturer = "AIRBUS"
  }
  tests {
    assert row_count > 0
  }
}
'''


def test_a_spark_block_with_a_param_answers_certified_on_spark(
    nyc_spark: Any, tmp_path: Path
) -> None:
    (tmp_path / "blocks").mkdir()
    (tmp_path / "blocks" / "planes.dql").write_text(SPARK_PARAM_BLOCK, encoding="utf-8")
    session = Session(nyc_spark, tmp_path, persist=False)
    session.certify("Planes by engine", by="analyst@example.com")
    run = session.ask("How many planes by engine for BOEING?")
    failed = [(e.id, e.message) for e in run.evaluations if not e.passed]
    assert (run.route, run.trust_state) == (Route.CERTIFIED_ANSWER, TrustState.CERTIFIED), failed
    # Spark's named parameter marker, bound by spark.sql(sql, args=...), and Spark's own
    # identifier quoting for @table: never DuckDB's $name or "planes" (a string in Spark).
    assert ":manufacturer" in run.sql and "$" not in run.sql and '"' not in run.sql
    sqlglot.parse_one(run.sql, read="spark")
    expected = nyc_spark.sql(
        "SELECT engine, count(*) AS planes FROM planes WHERE manufacturer = 'BOEING' "
        "GROUP BY engine ORDER BY planes DESC, engine"
    ).collect()
    assert _rows(run.df.itertuples(index=False, name=None)) == _rows(expected)
    pasted = nyc_spark.sql(run.sql, args={"manufacturer": "BOEING"}).collect()
    assert _rows(pasted) == _rows(expected)
    # Another value binds the same certified block.
    run = session.ask("number of planes by engine made by EMBRAER")
    assert (run.route, run.trust_state) == (Route.CERTIFIED_ANSWER, TrustState.CERTIFIED)
    assert run.df.values.tolist() == [["Turbo-fan", 298], ["Turbo-jet", 1]]
    session.close()


def test_the_guard_judges_the_statement_with_its_parameter_markers(nyc_spark: Any) -> None:
    spark_sql = SparkWarehouse(nyc_spark).reading("spark")
    ok = spark_sql.preview(
        "SELECT count(*) AS n FROM `flights` WHERE `origin` = :origin", params={"origin": "LGA"}
    )
    assert ok.rows == [(104662,)]
    for hostile in (
        "SELECT * FROM flights WHERE origin = :o; DROP TABLE flights",
        "INSERT INTO flights SELECT * FROM flights WHERE origin = :o",
        "CACHE TABLE x AS SELECT * FROM flights WHERE origin = :o",
    ):
        with pytest.raises((GuardrailViolation, QueryError)):
            spark_sql.preview(hostile, params={"o": "LGA"})
    assert nyc_spark.sql("SELECT count(*) FROM flights").collect()[0][0] == 336776
