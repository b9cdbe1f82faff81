"""Test assertions: pure evaluation over given results, and through run_block on real data."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb

from zlens_jupyter.dql import (
    Assertion,
    BlockLibrary,
    evaluate_assertion,
    evaluate_assertions,
    parse_block,
    run_block,
)


def _tests(body: str) -> Any:
    return parse_block(f'block "T" {{\n  tests {{\n{body}\n  }}\n}}')


def test_passing_assertions_report_observed_values() -> None:
    block = _tests(
        "assert row_count == 3\nassert min(n) >= 1\nassert max(n) < 10\n"
        "assert count_null(label) == 1\nassert unique(n) == true"
    )
    results = evaluate_assertions(block, ["n", "label"], [(1, "a"), (5, None), (9, "c")])
    assert [(r.passed, r.observed) for r in results] == [
        (True, 3),
        (True, 1),
        (True, 9),
        (True, 1),
        (True, True),
    ]
    assert results[1].message == "min(n) >= 1 passed: observed 1"


def test_failing_assertions_report_what_was_observed() -> None:
    block = _tests(
        "assert row_count > 5\nassert max(n) <= 4\nassert unique(n) == true\n"
        "assert count_null(n) == 0"
    )
    results = evaluate_assertions(block, ["n"], [(1,), (7,), (7,), (None,)])
    assert [r.passed for r in results] == [False, False, False, False]
    assert [r.observed for r in results] == [4, 7, False, 1]
    assert results[1].message == "max(n) <= 4 failed: observed 7"
    assert results[1].expected == 4


def test_bare_column_needs_a_single_row() -> None:
    assertion = Assertion("column", ">", 100, "total")
    assert evaluate_assertion(assertion, ["total"], [(250,)]).passed
    many = evaluate_assertion(assertion, ["total"], [(250,), (1,)])
    assert not many.passed and "single-row" in many.message and "2 rows" in many.message


def test_missing_column_is_a_failure_naming_the_columns() -> None:
    result = evaluate_assertion(Assertion("min", ">", 0, "delay"), ["carrier", "n"], [("UA", 1)])
    assert not result.passed
    assert "'delay' is not in the result" in result.message and "carrier, n" in result.message


def test_column_lookup_is_case_insensitive() -> None:
    assert evaluate_assertion(Assertion("max", "==", 2, "N"), ["n"], [(1,), (2,)]).passed


def test_null_and_empty_observations_fail() -> None:
    result = evaluate_assertion(Assertion("min", ">", 0, "n"), ["n"], [(None,)])
    assert not result.passed and result.observed is None and "NULL" in result.message
    empty = evaluate_assertion(Assertion("row_count", ">", 0), ["n"], [])
    assert not empty.passed and empty.observed == 0


def test_type_aware_comparisons() -> None:
    on_day = Assertion("min", ">=", "2013-01-01", "day")
    assert evaluate_assertion(on_day, ["day"], [(dt.date(2013, 1, 1),)]).passed
    assert evaluate_assertion(
        Assertion("column", "==", 1.5, "x"), ["x"], [(Decimal("1.5"),)]
    ).passed
    mismatch = evaluate_assertion(Assertion("column", ">", "abc", "x"), ["x"], [(3,)])
    assert not mismatch.passed and "cannot compare" in mismatch.message
    boolean = evaluate_assertion(Assertion("unique", "==", 1, "x"), ["x"], [(1,)])
    assert not boolean.passed


def test_unique_ignores_nulls_and_handles_unhashable_values() -> None:
    assert evaluate_assertion(
        Assertion("unique", "==", True, "x"), ["x"], [(None,), (None,), (1,)]
    ).passed
    assert not evaluate_assertion(
        Assertion("unique", "==", True, "x"), ["x"], [([1, 2],), ([1, 2],)]
    ).passed


def test_assertion_result_to_dict() -> None:
    result = evaluate_assertion(
        Assertion("column", "==", "x", "d"), ["d"], [(dt.date(2020, 1, 2),)]
    )
    assert result.to_dict()["observed"] == "2020-01-02"


def test_run_block_on_flights(project: Path, runner: Any) -> None:
    library = BlockLibrary.load(project)
    run = run_block(library.require("Flights by carrier"), library, runner)
    assert run.passed
    assert run.preview.columns == ["carrier", "flights"]
    assert run.preview.rows[0] == ("UA", 58665)
    assert [(a.expression, a.observed) for a in run.assertions] == [
        ("row_count == 16", 16),
        ("unique(carrier) == true", True),
        ("min(flights) > 0", 32),
    ]
    assert run.to_dict()["assertions"][0]["passed"] is True


def test_truncated_preview_is_tested_on_the_full_result(
    runner: Any, connection: duckdb.DuckDBPyConnection
) -> None:
    block = parse_block('''block "All flights" {
  query = """SELECT carrier, dep_delay FROM flights"""
  tests {
    assert row_count == 336776
    assert max(dep_delay) == 1301
    assert count_null(dep_delay) == 8255
    assert unique(carrier) == false
    assert carrier == "UA"
  }
}''')
    run = run_block(block, None, runner, limit=50)
    assert run.preview.truncated and len(run.preview.rows) == 50
    assert [a.observed for a in run.assertions[:4]] == [336776, 1301, 8255, False]
    assert [a.passed for a in run.assertions] == [True, True, True, True, False]
    assert "336776 rows" in run.assertions[4].message
    assert not run.passed
