"""Token and cost budgets stop a run in the middle of the model's tool loop, for that reason."""

from __future__ import annotations

import json
from collections.abc import Callable

from fake_openai import FakeOpenAIServer, Reply
from model_scripts import QUESTION

from zlens_jupyter.engine import RunStatus, StopReason
from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]
BIG = (400, 100)  # every reply reports 500 tokens


def plan() -> Reply:
    body = {"steps": [{"route": "generated_answer", "goal": "Count orders by channel"}]}
    return Reply(content=json.dumps(body), usage=BIG)


def inspect(table: str) -> Reply:
    return Reply(tool_calls=[("inspect_schema", {"table": table})], usage=BIG)


def test_the_token_budget_stops_the_run_mid_loop(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(plan(), inspect("orders"), inspect("customers"), inspect("products"))
    run = make_session().ask(QUESTION, max_tokens=3000)

    assert run.stop_reason is StopReason.TOKEN_BUDGET
    assert run.status is RunStatus.NEEDS_REVIEW
    # planner 500, then two rounds (500 each); the third call's prompt (~2,000 tokens
    # estimated) no longer fits the 1,500 left, so it was never made
    assert run.usage.tokens == 1500 and len(server.requests) == 3
    stops = [e for e in run.evaluations if e.id == "model-loop"]
    assert stops and stops[0].evidence == {"stop_reason": "token_budget"}
    assert run.steps[0].attempts[0].provenance["tool_steps"][0]["tool"] == "inspect_schema"
    assert 0 <= run.usage.remaining(run.budget)["tokens"] < 3000  # spent, never overspent
    spent = 0
    for request in server.requests:  # each call was capped to what was left after its prompt
        assert 0 < request.body["max_tokens"] <= 3000 - spent
        spent += 500


def test_the_cost_budget_stops_the_run_mid_loop(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(plan(), inspect("orders"), inspect("customers"))
    session = make_session(price_per_1k_input_usd=1.0, price_per_1k_output_usd=2.0)
    run = session.ask(QUESTION, max_cost_usd=2.5)

    assert run.stop_reason is StopReason.COST_BUDGET
    assert abs(run.usage.cost_usd - 1.2) < 1e-9  # 0.4 + 0.2 per call, two calls
    # the next loop call's prompt alone (~1,750 tokens at $1/1k) cannot be paid from $1.30
    assert len(server.requests) == 2
    stops = [e for e in run.evaluations if e.id == "model-loop"]
    assert stops[0].evidence == {"stop_reason": "cost_budget"}
    completed = run.events[-1]
    assert completed.payload["stop_reason"] == "cost_budget"


def test_cancelling_mid_loop_ends_the_run_cancelled(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    from zlens_jupyter.engine import CancelToken, Event

    token = CancelToken()

    def stop_on_first_tool(event: Event) -> None:
        if event.type.value == "tool.result" and event.payload["tool"] == "inspect_schema":
            token.cancel("Stop pressed")

    server.script(plan(), inspect("orders"), inspect("customers"))
    run = make_session().ask(QUESTION, on_event=stop_on_first_tool, cancel=token)
    assert run.status is RunStatus.CANCELLED
    assert run.stop_reason is StopReason.USER_CANCELLED
    assert len(server.requests) == 2  # the call after the click was never made
    assert run.usage.tokens == 1000
