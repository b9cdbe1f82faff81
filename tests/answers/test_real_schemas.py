"""Schema linking on tables named the way people name them (issue 9), each on a real DuckDB
file through `Session.ask`, checked against hand-written SQL. The public corpus (eval/public)
measures the same on data nobody tuned for; these pin the behaviours one by one."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.engine import TrustState
from zlens_jupyter.session import Session


@pytest.fixture(scope="module")
def zoo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Session, Path]:
    root = tmp_path_factory.mktemp("zoo")
    path = root / "zoo.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE animals (name VARCHAR, Species VARCHAR, vore VARCHAR, weight_kg DOUBLE,
                              bodywt DOUBLE, sleep_total DOUBLE, sleep_rem DOUBLE,
                              year BIGINT, enclosure BIGINT);
        INSERT INTO animals VALUES
          ('Ada', 'Human', 'omni', 62.0, 62.0, 8.0, 1.9, 2001, 1),
          ('Bo', 'Human', 'omni', 80.5, 80.5, 7.0, 1.5, 2005, 1),
          ('Cy', 'Lion', 'carni', 190.0, 190.0, 13.5, 2.4, 1995, 2),
          ('Di', 'Cow', 'herbi', 600.0, 600.0, 4.0, 0.7, 1998, 3),
          ('Ed', 'Cow', 'herbi', 650.0, 650.0, 4.5, 0.8, 2010, 3);
        """
    )
    con.close()
    session = Session(path, root / "project")
    yield session, path
    session.close()


def truth(path: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return sorted(con.execute(sql).fetchall())
    finally:
        con.close()


def rows(run) -> list[tuple[object, ...]]:
    assert run.result is not None, (run.clarification, run.trust_reason)
    return sorted(tuple(r) for r in run.result["rows"])


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # a unit suffix is a unit: "weight" is weight_kg
        ("What is the average weight?", "SELECT ROUND(AVG(weight_kg), 2) FROM animals"),
        # words run together: bodywt is body weight
        ("What is the maximum body weight?", "SELECT MAX(bodywt) FROM animals"),
        # the same words in another order name the column
        ("What is the average total sleep?", "SELECT ROUND(AVG(sleep_total), 2) FROM animals"),
        ("Maximum REM sleep", "SELECT MAX(sleep_rem) FROM animals"),
        # a value in another word form, and a value stored as a short code
        ("How many humans are there?", "SELECT COUNT(*) FROM animals WHERE Species = 'Human'"),
        ("How many herbivores are there?", "SELECT COUNT(*) FROM animals WHERE vore = 'herbi'"),
        # an integer year column is the table's time: ranges and decades
        (
            "How many animals arrived between 1995 and 2001?",
            "SELECT COUNT(*) FROM animals WHERE year BETWEEN 1995 AND 2001",
        ),
        ("Total weight in the 1990s", "SELECT SUM(weight_kg) FROM animals WHERE year < 2000"),
        # a column's name and then its value
        ("Total weight in enclosure 3", "SELECT SUM(weight_kg) FROM animals WHERE enclosure = 3"),
        # any "-est" adjective ranks
        (
            "Which species has the heaviest average weight?",
            "SELECT Species, AVG(weight_kg) FROM animals GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # compare A and B: a row for each
        (
            "Compare the average weight of lions and cows",
            "SELECT Species, ROUND(AVG(weight_kg), 2) FROM animals "
            "WHERE Species IN ('Lion', 'Cow') GROUP BY 1",
        ),
    ],
)
def test_real_world_names_reach_their_columns_and_values(zoo, question: str, sql: str) -> None:
    session, path = zoo
    run = session.ask(question)
    assert rows(run) == truth(path, sql), run.sql
    assert run.trust_state in (TrustState.GROUNDED, TrustState.REVIEW_REQUIRED)


def test_a_share_of_the_total_says_its_part(zoo) -> None:
    session, path = zoo
    run = session.ask("What percentage of the animals are herbivores?")
    expected = truth(
        path, "SELECT ROUND(100.0 * COUNT(*) FILTER (vore = 'herbi') / COUNT(*), 2) FROM animals"
    )
    assert rows(run) == expected
    assert "share where vore = herbi" in run.answer


def test_a_weight_answer_shows_its_unit(zoo) -> None:
    session, _ = zoo
    assert session.ask("What is the average weight?").answer.startswith("Average weight (kg) is")


def test_an_unknown_noun_read_as_the_rows_is_said_and_not_vouched_for(zoo) -> None:
    session, path = zoo
    run = session.ask("How many creatures are there?")
    assert rows(run) == truth(path, "SELECT COUNT(*) FROM animals")
    assert "each row of animals counted as one creature" in run.answer
    assert run.trust_state is TrustState.REVIEW_REQUIRED


@pytest.mark.parametrize(
    "question",
    [
        "What was the hottest year?",  # a calendar part is never the measure of a superlative
        "Who is the oldest animal?",  # a superlative that ranks nothing
        "revenue by species without cows",  # an exclusion is asked about, never inverted
        "How many animals arrived between 1995 and 2001 in the 1990s and 12?",  # a stray number
    ],
)
def test_what_cannot_be_read_is_asked_not_guessed(zoo, question: str) -> None:
    session, _ = zoo
    run = session.ask(question)
    assert run.trust_state not in (TrustState.GROUNDED, TrustState.CERTIFIED), run.answer
