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
