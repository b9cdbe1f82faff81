"""References inside `query`: tables, dims, metrics, composed blocks and bound parameters."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.dql import (
    BlockLibrary,
    compile_block,
    find_references,
    parse_block,
    parse_dql,
    run_block,
)
from zlens_jupyter.errors import UserError


def _library(text: str) -> BlockLibrary:
    return BlockLibrary([parse_dql(text, file="blocks/test.dql")])


def test_table_and_dim_become_quoted_identifiers() -> None:
    block = parse_block(
        'block "A" { query = """SELECT @dim("flights.carrier") FROM @table("main.flights")""" }'
    )
    assert compile_block(block, None).sql == 'SELECT "flights"."carrier" FROM "main"."flights"'


def test_references_in_sql_strings_and_comments_are_left_alone() -> None:
    sql = """SELECT '@param("x")' AS s, "@table(""t"")" -- @block("y")
    /* @metric("m") */ FROM @table('t')"""
    assert [(r.kind, r.name) for r in find_references(sql)] == [("table", "t")]


def test_metric_uses_the_resolver_and_fails_clearly_without_one() -> None:
    block = parse_block(
        'block "A" { query = """SELECT @metric("flight_count") AS n FROM flights""" }'
    )
    resolved = compile_block(block, None, metric_resolver={"flight_count": "COUNT(*)"}.get)
    assert resolved.sql == "SELECT (COUNT(*)) AS n FROM flights"
    with pytest.raises(UserError, match="no semantic layer"):
        compile_block(block, None)
    with pytest.raises(UserError, match="does not define"):
        compile_block(block, None, metric_resolver={}.get)


def test_block_composition_two_levels(connection: duckdb.DuckDBPyConnection) -> None:
    library = _library('''
block "Flights" { query = """SELECT carrier, dep_delay FROM flights""" }
block "Delayed flights" {
  query = """SELECT carrier FROM @block("Flights") WHERE dep_delay > 60;"""
}
block "Delayed per carrier" {
  query = """
    SELECT carrier, COUNT(*) AS delayed FROM @block("delayed flights")
    JOIN @block("Flights") f USING (carrier)
    GROUP BY 1
  """
}
block "Top delayed" {
  query = """
    WITH ranked AS (SELECT * FROM @block("Delayed per carrier") ORDER BY delayed DESC)
    SELECT carrier FROM ranked LIMIT 1
  """
}
''')
    compiled = compile_block(library.require("Delayed per carrier"), library)
    assert compiled.blocks == ("Flights", "Delayed flights")
    assert compiled.sql.startswith(
        'WITH "block:Flights" AS (\nSELECT carrier, dep_delay FROM flights\n)'
    )
    assert compiled.sql.count('"block:Flights" AS (') == 1  # a shared dependency appears once
    top = compile_block(library.require("Top delayed"), library)
    assert top.blocks == ("Flights", "Delayed flights", "Delayed per carrier")
    assert top.sql.count("WITH ") == 1  # merged into the block's own WITH
    (expected,) = connection.execute(
        "SELECT carrier FROM flights WHERE dep_delay > 60 GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1"
    ).fetchone() or (None,)
    (actual,) = connection.execute(top.sql).fetchone() or (None,)
    assert actual == expected


def test_block_cycle_is_an_error_naming_the_cycle() -> None:
    library = _library('''
block "A" { query = """SELECT * FROM @block("B")""" }
block "B" { query = """SELECT * FROM @block("C")""" }
block "C" { query = """SELECT * FROM @block("a")""" }
block "Self" { query = """SELECT * FROM @block("Self")""" }
''')
    with pytest.raises(UserError, match="cycle: A → B → C → A"):
        compile_block(library.require("A"), library)
    with pytest.raises(UserError, match="cycle: Self → Self"):
        compile_block(library.require("Self"), library)


def test_unknown_block_reference() -> None:
    library = _library('block "A" { query = """SELECT * FROM @block("Ghost")""" }')
    with pytest.raises(UserError, match="'Ghost'"):
        compile_block(library.require("A"), library)


def test_params_are_bound_not_interpolated() -> None:
    block = parse_block(
        'block "A" { query = """SELECT * FROM flights WHERE carrier = @param("carrier")""" }'
    )
    compiled = compile_block(block, None, params={"carrier": "UA", "ignored": 1})
    assert compiled.sql == "SELECT * FROM flights WHERE carrier = $carrier"
    assert compiled.params == {"carrier": "UA"}


def test_a_block_in_spark_sql_compiles_to_spark_quoting_and_parameter_markers() -> None:
    library = _library('''
block "Flights" { query = """SELECT carrier, origin FROM @table("main.flights")""" }
block "By origin" {
  dialect = "spark"
  query = """
    SELECT @dim("f.carrier"), count(*) AS n FROM @block("Flights") f
    WHERE f.origin = @param("origin") AND f.carrier <> @param("origin") GROUP BY 1
  """
}
''')
    compiled = compile_block(library.require("By origin"), library, params={"origin": "EWR"})
    # Backticks (double quotes are a string in Spark) and `:name`, bound by spark.sql(args=).
    assert compiled.sql == (
        "WITH `block:Flights` AS (\nSELECT carrier, origin FROM `main`.`flights`\n)\n"
        "SELECT `f`.`carrier`, count(*) AS n FROM `block:Flights` f\n"
        "WHERE f.origin = :origin AND f.carrier <> :origin GROUP BY 1"
    )
    assert compiled.params == {"origin": "EWR"}
    # Without the declaration a block is DuckDB's, as before.
    duck = compile_block(library.require("Flights"), library)
    assert duck.sql == 'SELECT carrier, origin FROM "main"."flights"'


def test_missing_param_names_it() -> None:
    block = parse_block('block "A" { query = """SELECT @param("origin") AS o""" }')
    with pytest.raises(UserError, match="'origin'"):
        compile_block(block, None, params={"other": 1})


def test_param_defaults_from_params_section() -> None:
    block = parse_block(
        'block "A" { params { origin = "JFK" } query = """SELECT @param("origin") AS o""" }'
    )
    assert compile_block(block, None).params == {"origin": "JFK"}
    assert compile_block(block, None, params={"origin": "EWR"}).params == {"origin": "EWR"}


def test_invalid_param_name_is_rejected() -> None:
    block = parse_block('block "A" { query = """SELECT @param("a; drop") AS o""" }')
    with pytest.raises(UserError, match="not a valid parameter name"):
        compile_block(block, None, params={"a; drop": 1})


def test_semantic_block_without_query_explains() -> None:
    block = parse_block('block "A" { type = "semantic" metric = "m" }')
    with pytest.raises(UserError, match="semantic layer"):
        compile_block(block, None)


def test_hostile_param_value_is_data_and_table_survives(
    connection: duckdb.DuckDBPyConnection, runner: object, tmp_path: Path
) -> None:
    hostile = "x'; DROP TABLE flights; --"
    block = parse_block(
        'block "By carrier" {\n  query = """\n'
        '    SELECT COUNT(*) AS n, @param("carrier") AS asked\n'
        '    FROM flights WHERE carrier = @param("carrier")\n  """\n'
        "  tests { assert n == 0 }\n}"
    )
    run = run_block(block, None, runner, params={"carrier": hostile})  # type: ignore[arg-type]
    assert run.preview.rows == [(0, hostile)]
    assert run.passed
    assert hostile not in run.compiled.sql
    (count,) = connection.execute("SELECT COUNT(*) FROM flights").fetchone() or (0,)
    assert count == 336776


def test_block_named_like_a_table_does_not_shadow_it(connection: duckdb.DuckDBPyConnection) -> None:
    library = _library('''
block "airlines" { query = """SELECT carrier FROM airlines WHERE carrier = 'UA'""" }
block "Both" {
  query = """SELECT (SELECT COUNT(*) FROM @block("airlines")) AS one,
                    (SELECT COUNT(*) FROM airlines) AS every"""
}
''')
    compiled = compile_block(library.require("Both"), library)
    assert connection.execute(compiled.sql).fetchone() == (1, 16)


def test_run_block_guards_before_running(
    runner: object, connection: duckdb.DuckDBPyConnection
) -> None:
    from zlens_jupyter.errors import GuardrailViolation

    block = parse_block('block "Bad" { query = """DROP TABLE flights""" }')
    with pytest.raises(GuardrailViolation):
        run_block(block, None, runner)  # type: ignore[arg-type]
    assert connection.execute("SELECT COUNT(*) FROM flights").fetchone() == (336776,)
