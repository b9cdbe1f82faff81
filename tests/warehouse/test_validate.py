"""Identifier validation against the catalog (sqlglot scopes)."""

from __future__ import annotations

from zlens_jupyter.warehouse import Warehouse


def test_misspelled_column_names_the_real_one(nyc: Warehouse) -> None:
    problems = nyc.validate("SELECT dep_dely FROM flights")
    assert len(problems) == 1
    problem = problems[0]
    assert problem.kind == "column" and problem.name == "dep_dely"
    assert problem.nearest[0] == "dep_delay"
    assert "dep_delay" in problem.message and "flights" in problem.message


def test_unknown_table_names_the_nearest_tables(nyc: Warehouse) -> None:
    problems = nyc.validate("SELECT count(*) FROM flight")
    assert [(p.kind, p.name) for p in problems] == [("table", "flight")]
    assert problems[0].nearest[0] == "flights"
    gibberish = nyc.validate("SELECT * FROM zzz_unknown")
    assert gibberish[0].nearest  # always offers real tables to choose from


def test_qualified_columns_through_aliases(nyc: Warehouse) -> None:
    sql = (
        "SELECT f.carrier, a.nam FROM flights f JOIN airlines a ON a.carrier = f.carrier "
        "WHERE f.dep_delay > 0"
    )
    problems = nyc.validate(sql)
    assert [(p.kind, p.name) for p in problems] == [("column", "a.nam")]
    assert problems[0].nearest[0] == "name"


def test_ctes_aliases_and_valid_queries_are_fine(nyc: Warehouse) -> None:
    valid = [
        "WITH d AS (SELECT carrier, avg(dep_delay) AS avg_delay FROM flights GROUP BY carrier)"
        " SELECT a.name, d.avg_delay FROM d JOIN airlines a USING (carrier)"
        " ORDER BY avg_delay DESC",
        "SELECT carrier, count(*) AS n FROM flights GROUP BY carrier HAVING n > 10",
        "SELECT * FROM flights f WHERE EXISTS "
        "(SELECT 1 FROM planes p WHERE p.tailnum = f.tailnum AND p.year > 2000)",
        "SELECT x.i FROM range(3) x(i)",
        "SELECT list_transform([1, 2], lambda v: v + 1) AS l FROM airlines",
        "SELECT table_name FROM information_schema.tables",
        "SELECT * FROM long_delays WHERE dep_delay > 200",
    ]
    for sql in valid:
        assert nyc.validate(sql) == [], sql


def test_unknown_column_of_a_cte(nyc: Warehouse) -> None:
    sql = "WITH d AS (SELECT carrier AS c FROM flights) SELECT d.carrier FROM d"
    problems = nyc.validate(sql)
    assert [(p.kind, p.name) for p in problems] == [("column", "d.carrier")]


def test_unparseable_sql_has_no_identifier_problems(nyc: Warehouse) -> None:
    assert nyc.validate("SELECT FROM WHERE (") == []
