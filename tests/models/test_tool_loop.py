"""generated_answer with a model: the bounded tool loop end to end, through a real Session."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from fake_openai import FakeOpenAIServer, Reply, final_answer, tool_call
from model_scripts import (
    CATEGORY_PLAN,
    CATEGORY_QUESTION,
    CATEGORY_SQL,
    CHANNEL_PLAN,
    CHANNEL_SENTENCE,
    CHANNEL_SQL,
    QUESTION,
    answer,
    loop_requests,
    one_step,
    tool_replies,
    truth,
    user_text,
)

from zlens_jupyter.engine import Route, RunStatus, StopReason, TrustState
from zlens_jupyter.routes.modeled import ModelAnswer, ModelResearch
from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]


def test_session_with_a_model_wires_model_executors(make_session: MakeSession) -> None:
    session = make_session()
    assert isinstance(session.engine.executors[Route.GENERATED_ANSWER], ModelAnswer)
    assert isinstance(session.engine.executors[Route.RESEARCH], ModelResearch)


def test_tool_calls_then_a_final_answer_with_a_query_plan(
    make_session: MakeSession,
    server: FakeOpenAIServer,
    shop_files: tuple[Path, Path],
    events,
) -> None:
    server.script(
        one_step(),
        tool_call("search_catalog", query="orders channel"),
        tool_call("inspect_schema", table="orders"),
        tool_call("sample_values", table="orders", column="channel", k=5),
        tool_call("lookup_metric", {"name": "orders"}),
        tool_call("run_sql_preview", sql=CHANNEL_SQL, limit=10),
        *answer(),
    )
    run = make_session().ask(QUESTION, on_event=events)

    assert run.status is RunStatus.COMPLETED and run.trust_state is TrustState.GROUNDED
    assert run.route is Route.GENERATED_ANSWER and run.plan is not None
    assert run.plan.source == "model"
    # The answer is the real data, re-run by the kit, narrated from the verified result.
    expected = truth(shop_files[0], CHANNEL_SQL)
    assert [tuple(r) for r in run.result["rows"]] == [tuple(r) for r in expected]
    assert expected[0] == ("web", 32457)
    assert run.answer == CHANNEL_SENTENCE and run.sql == CHANNEL_SQL

    attempt = run.steps[0].best
    assert attempt is not None
    assert attempt.parsed_intent["query_plan"] == CHANNEL_PLAN
    assert attempt.parsed_intent["shape"] == "breakdown"
    assert [s["tool"] for s in attempt.provenance["tool_steps"]] == [
        "search_catalog",
        "inspect_schema",
        "sample_values",
        "lookup_metric",
        "run_sql_preview",
    ]
    assert all(s["executed"] and s["error"] is None for s in attempt.provenance["tool_steps"])
    assert attempt.provenance["model"] == "test-model"
    assert "Question: How many orders" in attempt.provenance["show_prompt"]
    assert "table orders" in attempt.provenance["show_prompt"]
    raw = json.loads(attempt.raw_model_output or "[]")
    assert len(raw) == 6 and "final_answer" in raw[-1]  # every round's raw output, kept

    # What the tools observed went back to the model, from the real warehouse.
    last = loop_requests(server)[-1]
    observed = tool_replies(last)
    assert observed[2]["values"] == ["partner", "store", "web"]
    assert observed[3]["expression"] == "COUNT(order_id)"
    assert observed[4]["rows"][0] == ["web", 32457]

    # Tool calls reached the engine as events, the final SQL re-run included.
    called = [e.payload["tool"] for e in events.of("tool.called")]
    assert called[:2] == ["ground_context", "search_catalog"]
    assert called[-1] == "run_sql_preview"
    assert events.of("tool.called")[-1].payload["arguments"]["purpose"].startswith("final")
    assert len(events.of("tool.result")) >= 6


def test_usage_is_the_servers_and_is_charged_to_the_run(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        one_step(),
        Reply(tool_calls=[("inspect_schema", {"table": "orders"})], usage=(300, 20)),
        final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN),
        Reply(content=CHANNEL_SENTENCE, usage=(50, 25)),
    )
    session = make_session(price_per_1k_input_usd=0.5, price_per_1k_output_usd=1.0)
    run = session.ask(QUESTION)
    # planner 12+7, loop 300+20 and 12+7, narration 50+25 (the server's numbers)
    assert run.usage.tokens == 19 + 320 + 19 + 75
    cost = (12 + 300 + 12 + 50) / 1000 * 0.5 + (7 + 20 + 7 + 25) / 1000 * 1.0
    assert abs(run.usage.cost_usd - cost) < 1e-9
    best = run.steps[0].best
    assert best is not None and best.tokens == run.usage.tokens
    assert best.provenance["model_usage"]["calls"] == 4


def test_streamed_answer_reaches_on_event_as_transient_deltas(
    make_session: MakeSession, server: FakeOpenAIServer, events
) -> None:
    server.script(one_step(), *answer())
    run = make_session().ask(QUESTION, on_event=events)
    deltas = events.of("answer.delta")
    assert len(deltas) > 3  # one per streamed chunk
    assert "".join(e.payload["delta"] for e in deltas).strip() == CHANNEL_SENTENCE
    assert all(e.route is Route.GENERATED_ANSWER for e in deltas)
    assert not [e for e in run.events if e.type.value == "answer.delta"]  # not kept
    assert server.requests[-1].body.get("stream") is True


def test_certified_examples_are_in_the_prompt(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        one_step(goal="Revenue by category"),
        *answer(CATEGORY_SQL, CATEGORY_PLAN, "Electronics leads with 17,848,918.05 in revenue."),
    )
    run = make_session().ask(CATEGORY_QUESTION)
    assert run.status is RunStatus.COMPLETED, run.summary
    system = loop_requests(server)[0].messages[0]["content"]
    assert 'Certified block "Top products by revenue"' in system
    assert "SUM(oi.quantity * oi.unit_price" in system  # the certified SQL itself
    assert run.result["rows"][0][0] == "Electronics"


def test_a_hallucinated_tool_gets_a_structured_error_and_the_loop_goes_on(
    make_session: MakeSession, server: FakeOpenAIServer, events
) -> None:
    server.script(
        one_step(),
        tool_call("read_file", path="/etc/passwd"),
        tool_call("run_sql_preview", sql="SELECT chanel, COUNT(*) FROM orders GROUP BY 1"),
        tool_call("run_sql_preview", sql="DELETE FROM orders"),
        *answer(),
    )
    run = make_session().ask(QUESTION, on_event=events)
    assert run.status is RunStatus.COMPLETED and run.answer == CHANNEL_SENTENCE
    unknown, bad_column, refused = tool_replies(loop_requests(server)[-1])
    assert "unknown tool 'read_file'" in unknown["error"] and unknown["executed"] is False
    assert "run_sql_preview" in unknown["available_tools"]
    assert "chanel" in bad_column["error"] and bad_column["problems"][0]["did_you_mean"] == [
        "channel"
    ]
    assert refused["error"].startswith("refused by the read-only guard")
    steps = run.steps[0].best.provenance["tool_steps"]
    assert steps[0]["valid"] is False and steps[0]["executed"] is False
    results = [e for e in events.of("tool.result") if e.payload["tool"] == "read_file"]
    assert results and results[0].payload["executed"] is False


def test_malformed_output_gets_a_fix_round(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        one_step(),
        Reply(content="Sure! The web channel is the biggest."),  # no tool call, no JSON
        Reply(tool_calls=[("inspect_schema", '{"table": "orders"')]),  # broken arguments
        *answer(),
    )
    run = make_session().ask(QUESTION)
    assert run.status is RunStatus.COMPLETED and run.answer == CHANNEL_SENTENCE
    rounds = loop_requests(server)
    assert "Your reply was invalid" in user_text(rounds[1])
    broken = tool_replies(rounds[2])[0]
    assert "not valid JSON" in broken["error"]
    intents = run.steps[0].best.parsed_intent["intents"]
    assert intents[0]["type"] == "invalid" and intents[1]["valid"] is False


def test_a_model_that_repeats_itself_stops_with_the_reason_recorded(
    make_session: MakeSession, server: FakeOpenAIServer, offline_session: Session
) -> None:
    same = tool_call("inspect_schema", table="orders")
    server.script(one_step(), same, same, same, same)
    run = make_session().ask(QUESTION)

    loop_stops = [e for e in run.evaluations if e.id == "model-loop"]
    assert [e.evidence["stop_reason"] for e in loop_stops] == ["repeated_action"] * 2
    assert loop_stops[0].repair_action is not None  # first: a repair with a hint
    assert "repeated_action" in (run.steps[0].attempts[1].hint or "")
    assert "repeated_action" in user_text(loop_requests(server)[2])  # the hint reached it
    # Second time: the offline answer, flagged, never a silent model answer.
    offline = offline_session.ask(QUESTION)
    assert run.answer == offline.answer and run.result["rows"] == offline.result["rows"]
    assert "repeated_action" in run.provenance["degraded"]
    assert run.trust_state is TrustState.REVIEW_REQUIRED
    assert run.stop_reason is StopReason.FINAL_ANSWER


def test_final_sql_that_writes_is_blocked_not_retried(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(one_step(), final_answer("DELETE FROM orders", "done", CHANNEL_PLAN))
    run = make_session().ask(QUESTION)
    assert run.status is RunStatus.BLOCKED
    assert run.stop_reason is StopReason.GUARDRAIL_VIOLATION
    assert run.trust_state is TrustState.BLOCKED
    assert run.usage.tokens == 38  # what the model spent is still charged
    assert len(server.requests) == 2  # no narration, no retry


def test_an_oscillating_model_is_stopped_with_the_reason_recorded(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    a = tool_call("inspect_schema", table="orders")
    b = tool_call("inspect_schema", table="customers")
    server.script(one_step(), a, b, a, b, a, b, a, b)
    run = make_session().ask(QUESTION)
    stops = [e.evidence["stop_reason"] for e in run.evaluations if e.id == "model-loop"]
    assert stops == ["oscillation", "oscillation"]
    executed = run.steps[0].attempts[0].provenance["tool_steps"]
    assert [s["executed"] for s in executed] == [True, True, True, False]  # 4th never ran
    assert run.answer and "oscillation" in run.provenance["degraded"]
