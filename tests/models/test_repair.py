"""Repair: the cheap lexical fix first, then the model with the database's real error; the
recovery story stays in the trace and the answer only states verified numbers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fake_openai import FakeOpenAIServer, final_answer
from model_scripts import (
    CHANNEL_PLAN,
    CHANNEL_SENTENCE,
    CHANNEL_SQL,
    QUESTION,
    answer,
    loop_requests,
    narration,
    one_step,
    truth,
    user_text,
)

from zlens_jupyter.engine import Event, RunStatus, StepStatus, TrustState
from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]
HALLUCINATED = CHANNEL_SQL.replace("o.channel", "o.chanel")
# Passes the catalog check (every name exists) but DuckDB refuses it: SUM over text.
TYPE_ERROR = "SELECT o.channel, SUM(o.channel) AS orders FROM orders AS o GROUP BY o.channel"


def test_a_hallucinated_column_is_fixed_lexically_without_asking_the_model(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        one_step(),
        final_answer(HALLUCINATED, "draft", CHANNEL_PLAN),
        narration(CHANNEL_SENTENCE),
    )
    run = make_session().ask(QUESTION)

    assert run.status is RunStatus.COMPLETED and run.trust_state is TrustState.GROUNDED
    step = run.steps[0]
    assert step.status is StepStatus.REPAIRED and len(step.attempts) == 2
    grounding = [e for e in step.attempts[0].evaluations if e.id == "catalog-grounding"]
    assert grounding[0].passed is False and "chanel" in grounding[0].message
    assert step.attempts[1].hint == "replace chanel with channel"  # the gate's hint
    assert len(loop_requests(server)) == 1  # the repair cost no model round
    best = step.best
    assert best is not None and best.provenance["recovery"]["kind"] == "lexical"
    assert "channel" in (run.sql or "") and "chanel" not in (run.sql or "")
    assert run.answer == CHANNEL_SENTENCE
    assert "chanel" not in run.answer and "repair" not in run.answer.lower()


def test_a_database_error_is_repaired_by_the_model_from_the_real_message(
    make_session: MakeSession, server: FakeOpenAIServer, shop_files: tuple[Path, Path]
) -> None:
    server.script(
        one_step(),
        final_answer(TYPE_ERROR, "draft", CHANNEL_PLAN),
        *answer(),
    )
    run = make_session().ask(QUESTION)

    assert run.status is RunStatus.COMPLETED, run.summary
    first, second = run.steps[0].attempts
    executed = [e for e in first.evaluations if e.id == "result-executed"]
    assert executed[0].passed is False and "sum(VARCHAR)" in executed[0].message
    # The model saw its SQL and DuckDB's own words, and fixed it.
    repair_prompt = user_text(loop_requests(server)[1])
    assert TYPE_ERROR in repair_prompt
    assert "Binder Error: No function matches the given name and argument types" in repair_prompt
    assert second.provenance["recovery"]["kind"] == "model"
    assert "sum(VARCHAR)" in second.provenance["recovery"]["error"]
    expected = truth(shop_files[0], CHANNEL_SQL)
    assert [tuple(r) for r in run.result["rows"]] == [tuple(r) for r in expected]
    assert run.answer == CHANNEL_SENTENCE  # no recovery prose in the answer


def test_a_made_up_column_with_no_near_name_goes_to_the_model(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    made_up = "SELECT o.sales_region, COUNT(*) AS orders FROM orders AS o GROUP BY 1"
    server.script(
        one_step(),
        final_answer(made_up, "draft", CHANNEL_PLAN),
        *answer(),
    )
    run = make_session().ask(QUESTION)
    assert run.status is RunStatus.COMPLETED
    repair_prompt = user_text(loop_requests(server)[1])
    assert "sales_region" in repair_prompt and "Error from the database" in repair_prompt
    assert run.answer == CHANNEL_SENTENCE


def test_a_sentence_with_a_number_not_in_the_result_is_replaced(
    make_session: MakeSession, server: FakeOpenAIServer, offline_session: Session
) -> None:
    server.script(
        one_step(),
        *answer(sentence="Web took 41,000 orders in 2025, up 12% on 2024."),
    )
    seen: list[Event] = []
    run = make_session().ask(QUESTION, on_event=seen.append)
    best = run.steps[0].best
    assert best is not None
    # The refused words were already streamed; the stream and the record both withdraw them.
    kinds = [e.type.value for e in seen]
    streamed = max(i for i, kind in enumerate(kinds) if kind == "answer.delta")
    assert kinds.index("answer.retracted") > streamed
    retracted = [e for e in run.events if e.type.value == "answer.retracted"]
    assert len(retracted) == 1 and "41000" in retracted[0].message
    assert best.provenance["narration"]["source"] == "deterministic"
    assert "41000" in best.provenance["narration"]["reason"]
    assert "41,000" not in (run.answer or "")
    assert run.answer and run.answer.startswith("Orders by channel (3 groups): web (32,457)")
    faithful = [e for e in run.evaluations if e.id == "answer-faithful"]
    assert faithful and faithful[-1].passed


def test_a_gate_hint_reaches_the_model_on_the_next_attempt(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    """The plan promised one number (no dimensions) but the SQL returned three rows: the
    cardinality gate asks for a repair, and its hint is in the next prompt."""
    scalar_plan = {**CHANNEL_PLAN, "dimensions": []}
    total_sql = (
        "SELECT COUNT(*) AS orders FROM orders AS o "
        "WHERE o.order_date >= DATE '2025-01-01' AND o.order_date < DATE '2026-01-01'"
    )
    server.script(
        one_step(),
        final_answer(CHANNEL_SQL, "draft", scalar_plan),
        narration(CHANNEL_SENTENCE),
        *answer(total_sql, scalar_plan, "There were 54,994 orders in 2025."),
    )
    run = make_session().ask(QUESTION)
    first = run.steps[0].attempts[0]
    cardinality = [e for e in first.evaluations if e.id == "semantic-cardinality"]
    assert cardinality and cardinality[0].passed is False
    assert "aggregate to a single row" in user_text(loop_requests(server)[1])
    assert run.answer == "There were 54,994 orders in 2025."
    assert run.result["rows"] == [[54994]]
