"""The model planner: 1..N validated steps, the deterministic plan on any failure."""

from __future__ import annotations

from collections.abc import Callable

from fake_openai import FakeOpenAIServer, Reply
from model_scripts import (
    CHANNEL_SENTENCE,
    QUESTION,
    REGION_PLAN,
    REGION_SQL,
    answer,
    loop_requests,
    one_step,
    plan_reply,
    user_text,
)

from zlens_jupyter.engine import Route, RunStatus
from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]
REGION_SENTENCE = "East leads revenue with 10,664,527.09."


def test_a_two_step_model_plan_runs_both_steps(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        plan_reply(
            ("generated_answer", "Count orders by channel in 2025"),
            ("generated_answer", "Total revenue by customer region"),
        ),
        *answer(),
        *answer(REGION_SQL, REGION_PLAN, REGION_SENTENCE),
    )
    run = make_session().ask(QUESTION)

    assert run.plan is not None and run.plan.source == "model"
    assert [s.goal for s in run.plan.steps] == [
        "Count orders by channel in 2025",
        "Total revenue by customer region",
    ]
    assert [s.route for s in run.steps] == [Route.GENERATED_ANSWER] * 2
    assert run.steps[0].best.answer == CHANNEL_SENTENCE
    assert run.answer == REGION_SENTENCE and run.status is RunStatus.COMPLETED
    second = loop_requests(server)[1]
    assert "Goal of this step: Total revenue by customer region" in user_text(second)
    planner = server.requests[0]
    assert planner.body["response_format"]["type"] == "json_schema"
    assert "tools" not in planner.body
    assert run.usage.tokens == 5 * 19  # the planner's tokens are charged to the run too


def test_an_invalid_plan_falls_back_to_the_deterministic_plan(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    bad = plan_reply(("drop_everything", "Delete the data"))
    server.script(bad, bad, bad, *answer())
    run = make_session().ask(QUESTION)

    assert run.plan is not None and run.plan.source == "deterministic"
    assert run.plan.fallback_reason is not None
    assert "MalformedOutput" in run.plan.fallback_reason
    assert "drop_everything" in run.plan.fallback_reason
    assert "Your reply was invalid" in user_text(server.requests[1])  # fix rounds first
    assert [s.route for s in run.steps] == [Route.GENERATED_ANSWER]
    assert run.status is RunStatus.COMPLETED and run.answer == CHANNEL_SENTENCE


def test_a_plan_longer_than_the_step_budget_falls_back(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    long = plan_reply(*[("generated_answer", f"part {i}") for i in range(3)])
    server.script(long, long, long, *answer())
    run = make_session().ask(QUESTION, max_steps=2)
    assert run.plan is not None and run.plan.source == "deterministic"
    assert "MalformedOutput" in (run.plan.fallback_reason or "")
    assert len(run.steps) == 1 and run.answer == CHANNEL_SENTENCE


def test_unparseable_plans_fall_back_too(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    prose = Reply(content="I would first look at the orders table.")
    server.script(prose, prose, prose, *answer())
    run = make_session().ask(QUESTION)
    assert run.plan is not None and run.plan.source == "deterministic"
    assert run.answer == CHANNEL_SENTENCE


def test_forced_modes_and_certified_answers_do_not_consult_the_model(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    session = make_session()
    sql_cell = session.ask(QUESTION, mode="sql")
    certified = session.ask("What is revenue by segment?")
    assert sql_cell.route is Route.SQL_CELL and sql_cell.plan.source == "deterministic"
    assert certified.route is Route.CERTIFIED_ANSWER
    assert certified.trust_state.value == "certified"
    assert server.requests == []


def test_a_one_step_model_plan_keeps_the_models_goal(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(one_step(goal="Orders per sales channel, calendar 2025"), *answer())
    run = make_session().ask(QUESTION)
    assert run.steps[0].goal == "Orders per sales channel, calendar 2025"
    assert "Goal of this step" in user_text(loop_requests(server)[0])


def test_a_request_to_change_data_is_refused_before_any_model_call(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    run = make_session().ask("Please delete all orders from 2024")
    assert run.status is RunStatus.BLOCKED
    assert run.stop_reason.value == "guardrail_violation"
    assert server.requests == []


def test_without_opting_in_no_planner_call_is_made(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(*answer())  # the tool loop's rounds and the narration, nothing else
    run = make_session(plan_steps=False).ask(QUESTION)
    assert run.plan is not None and run.plan.source == "deterministic"
    assert run.answer == CHANNEL_SENTENCE and run.status is RunStatus.COMPLETED
    assert not [r for r in server.requests if "response_format" in r.body]
    assert len(server.requests) == len(answer())
