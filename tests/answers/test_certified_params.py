"""A certified block answers a filtered question when a declared @param binds the filter, and
never when a parameter would filter by a default the question did not ask for."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.engine import Route, TrustState
from zlens_jupyter.session import Session

BLOCK = '''block "Fares by class" {
  domain = "travel"
  status = "review"
  description = "Total fare by travel class, for one region."
  owner = "analyst@example.com"
  grain = "class"
  outputs = ["class", "fare"]
  query = """
    SELECT class, SUM(fare) AS fare FROM tickets WHERE region = @param("region") GROUP BY class
  """
  params {
    region = "north"
  }
  visualization {
    chart = "bar"
    x = class
    y = fare
  }
  tests {
    assert row_count > 0
  }
}
'''


@pytest.fixture
def travel(tmp_path: Path) -> Session:
    database = tmp_path / "travel.duckdb"
    con = duckdb.connect(str(database))
    con.execute("CREATE TABLE tickets (id INTEGER, class VARCHAR, region VARCHAR, fare DOUBLE)")
    con.execute(
        "INSERT INTO tickets VALUES (1, 'first', 'north', 900), (2, 'economy', 'north', 120),"
        " (3, 'economy', 'south', 80), (4, 'first', 'south', 700), (5, 'economy', 'south', 60)"
    )
    con.close()
    project = tmp_path / "project"
    (project / "blocks").mkdir(parents=True)
    (project / "blocks" / "fares.dql").write_text(BLOCK, encoding="utf-8")
    session = Session(database, project)
    session.certify("Fares by class", by="analyst@example.com")
    yield session
    session.close()


def test_a_question_that_names_a_region_binds_the_blocks_parameter(travel: Session) -> None:
    run = travel.ask("What is the fare by class in the south region?")
    assert run.route is Route.CERTIFIED_ANSWER, run.signals.notes if run.signals else None
    assert run.trust_state is TrustState.CERTIFIED, run.trust_reason
    assert sorted(map(tuple, run.result["rows"])) == [("economy", 140.0), ("first", 700.0)]
    step = run.steps[-1].best
    assert step is not None and step.parsed_intent["params"] == {"region": "south"}


def test_a_question_without_the_filter_is_not_answered_by_the_default(travel: Session) -> None:
    run = travel.ask("What is the total fare by class?")
    assert run.trust_state is not TrustState.CERTIFIED
    assert any("parameter 'region' needs a value" in n for n in run.signals.notes)
    # The generated answer covers every region: 900 + 700 first, 120 + 80 + 60 economy.
    assert sorted(map(tuple, run.result["rows"])) == [("economy", 260.0), ("first", 1600.0)]


def test_a_block_that_keeps_the_asked_period_answers_it_and_no_other(tmp_path: Path) -> None:
    database = tmp_path / "sales.duckdb"
    con = duckdb.connect(str(database))
    con.execute("CREATE TABLE sales (day DATE, region VARCHAR, amount DOUBLE)")
    con.execute(
        "INSERT INTO sales VALUES ('2024-03-01', 'north', 10), ('2024-07-01', 'south', 20),"
        " ('2025-02-01', 'north', 40)"
    )
    con.close()
    project = tmp_path / "project"
    (project / "blocks").mkdir(parents=True)
    (project / "blocks" / "sales.dql").write_text(
        '''block "Sales by region" {
  domain = "sales"
  status = "review"
  description = "Total sales by region in 2024."
  owner = "analyst@example.com"
  grain = "region"
  outputs = ["region", "sales"]
  query = """
    SELECT region, SUM(amount) AS sales FROM sales
    WHERE day >= DATE '2024-01-01' AND day < DATE '2025-01-01'
    GROUP BY region
  """
  tests {
    assert row_count == 2
  }
}
''',
        encoding="utf-8",
    )
    session = Session(database, project)
    try:
        session.certify("Sales by region", by="analyst@example.com")
        in_2024 = session.ask("What are the sales by region in 2024?")
        assert in_2024.trust_state is TrustState.CERTIFIED, in_2024.signals.notes
        assert sorted(map(tuple, in_2024.result["rows"])) == [("north", 10.0), ("south", 20.0)]
        for other in ("What are the sales by region in 2025?", "What are the sales by region?"):
            run = session.ask(other)
            assert run.trust_state is not TrustState.CERTIFIED, other
            assert run.route is not Route.CERTIFIED_ANSWER, other
    finally:
        session.close()
