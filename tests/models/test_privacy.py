"""What reaches the model is bounded and inspectable; the API key reaches nothing we keep."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai import TEST_KEY, ErrorReply, FakeOpenAIServer, final_answer, tool_call
from model_scripts import (
    CHANNEL_PLAN,
    CHANNEL_SQL,
    QUESTION,
    answer,
    loop_requests,
    narration,
    one_step,
    tool_replies,
)

from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]
SECRET_PART = TEST_KEY[len("sk-test-") :]


def test_the_api_key_is_never_stored_emitted_or_printed(
    make_session: MakeSession,
    server: FakeOpenAIServer,
    project: Path,
    events,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    server.script(
        # 1: a model that echoes the key in a tool call, its draft answer and its sentence
        one_step(goal=f"use {TEST_KEY}"),
        tool_call("search_catalog", query=f"orders {TEST_KEY}"),
        final_answer(CHANNEL_SQL, f"my key is {TEST_KEY}", CHANNEL_PLAN),
        narration(f"Web leads with 32,457 orders ({TEST_KEY})."),
        # 2: a server whose error message echoes the key
        one_step(),
        ErrorReply(400, f"Invalid request for api key {TEST_KEY}", "bad_request"),
        # 3: the key is refused
        ErrorReply(401, f"Incorrect API key provided: {TEST_KEY}", "invalid_api_key"),
    )
    session = make_session()
    runs = [session.ask(QUESTION, on_event=events) for _ in range(3)]

    # The key did reach the server (so this test would notice a misconfiguration) ...
    headers = {k.lower(): v for k, v in server.requests[0].headers.items()}
    assert headers["authorization"] == f"Bearer {TEST_KEY}"
    # ... and nothing we keep, emit or print.
    stored = list((project / ".zlens" / "runs").glob("*.json"))
    assert len(stored) == 3
    for path in stored:
        text = path.read_text()
        assert SECRET_PART not in text, path
    for event in events.events:
        assert SECRET_PART not in json.dumps(event.to_dict(), default=str), event.type
    for run in runs:
        assert SECRET_PART not in json.dumps(run.to_dict(), default=str)
        assert SECRET_PART not in repr(run)
    out = capsys.readouterr()
    assert SECRET_PART not in out.out + out.err and SECRET_PART not in caplog.text
    assert SECRET_PART not in repr(session.model_config)
    # The runs themselves went the expected ways.
    assert runs[0].answer and "redacted" in runs[0].answer
    assert "redacted" in runs[1].provenance["degraded"]
    assert "rejected the credentials" in runs[2].provenance["degraded"]


def test_what_is_sent_is_bounded_and_shown(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        one_step(),
        tool_call("sample_values", table="customers", column="email", k=50),
        tool_call("sample_values", table="customers", column="name", k=20),
        tool_call("run_sql_preview", sql="SELECT * FROM customers", limit=200),
        tool_call("run_sql_preview", sql="SELECT * FROM orders", limit=5000),
        *answer(),
    )
    run = make_session().ask(QUESTION)
    attempt = run.steps[0].best
    assert attempt is not None

    # The prompt is inspectable on the step, and holds a catalog slice, not data dumps.
    shown = attempt.provenance["show_prompt"]
    assert shown == _rendered_first_prompt(loop_requests(server)[0].messages)
    assert "table orders" in shown and "@example.com" not in shown
    assert shown.count("\ntable ") + shown.startswith("table ") <= 4
    # Every tool bound held: k <= 20 values, <= 200 preview rows, observations capped.
    too_many, names, customers, orders = tool_replies(loop_requests(server)[-1])
    assert "invalid arguments for sample_values" in too_many["error"]
    assert too_many["executed"] is False
    assert len(names["values"]) == 20
    assert customers["row_count"] == 200 and customers["truncated"] is True
    assert "invalid arguments for run_sql_preview" in orders["error"]
    for request in server.requests:
        for message in request.messages:
            assert len(str(message.get("content") or "")) < 12_000
    # The narration saw at most 20 formatted rows of the verified result.
    narration_request = server.requests[-1]
    assert narration_request.body.get("tools") is None
    assert "32,457" in narration_request.messages[-1]["content"]


def _rendered_first_prompt(messages: list[dict[str, object]]) -> str:
    """The first loop request's system and user messages, as show_prompt renders them."""
    from zlens_jupyter.llm import render_messages

    first_user = next(i for i, m in enumerate(messages) if m["role"] == "user")
    return render_messages(messages[: first_user + 1])
