"""Structured output: the tolerant parser, precise validation messages, bounded fix rounds."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from openai_server import ErrorReply, FakeOpenAIServer, Reply

from zlens_jupyter.errors import MalformedOutput
from zlens_jupyter.llm import (
    QUERY_PLAN_SCHEMA,
    ChatProvider,
    complete_json,
    extract_json,
    validate_json,
)

PLAN = {
    "grain": "one row per carrier",
    "measures": ["count(*)"],
    "dimensions": ["carrier"],
    "join_path": ["flights.carrier = airlines.carrier"],
}
ASK = [{"role": "user", "content": "Plan: flights per airline"}]


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        'Here you go:\n```json\n{"a": 1}\n```',
        '```\n{"a": 1}\n```\nAnything else?',
        'I think {"a": 1} is right.',
        '{"a": 1,}',
        'prose with a stray { brace, then {"a": 1}',
    ],
)
def test_extract_json_tolerates_common_wrappers(text: str) -> None:
    assert extract_json(text) == {"a": 1}


@pytest.mark.parametrize("text", ["", "   ", "no json here", "{broken: yes"])
def test_extract_json_refuses_text_without_an_object(text: str) -> None:
    with pytest.raises(MalformedOutput, match="JSON"):
        extract_json(text)


def test_validation_message_names_path_and_problem() -> None:
    bad = {"grain": "", "measures": [], "dimensions": ["carrier"], "join_path": [], "x": 1}
    with pytest.raises(MalformedOutput) as caught:
        validate_json(bad, QUERY_PLAN_SCHEMA, what="the query plan")
    message = str(caught.value)
    assert "the query plan does not match" in message
    assert "at $: Additional properties are not allowed ('x' was unexpected)" in message
    assert "at $.grain:" in message
    assert "at $.measures:" in message and "should be non-empty" in message


def test_valid_json_first_time_uses_json_schema(
    server: FakeOpenAIServer, make_provider: Callable[..., ChatProvider]
) -> None:
    import json

    server.script(Reply(json.dumps(PLAN), usage=(50, 10)))
    result = complete_json(make_provider(), ASK, QUERY_PLAN_SCHEMA, name="query_plan")
    assert result.value == PLAN
    assert result.fix_rounds == 0 and result.used_json_schema
    response_format = server.requests[0].body["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["schema"] == QUERY_PLAN_SCHEMA
    assert result.usage.total_tokens == 60


def test_malformed_json_gets_a_fix_round_with_the_validation_error(
    server: FakeOpenAIServer, make_provider: Callable[..., ChatProvider]
) -> None:
    import json

    missing_grain = {k: v for k, v in PLAN.items() if k != "grain"}
    server.script(
        Reply("```json\n" + json.dumps(missing_grain) + "\n```"),
        Reply(json.dumps(PLAN)),
    )
    result = complete_json(make_provider(), ASK, QUERY_PLAN_SCHEMA)
    assert result.value == PLAN
    assert result.fix_rounds == 1
    assert "'grain' is a required property" in result.errors[0]
    second = server.requests[1].messages
    assert second[-2]["role"] == "assistant"  # the bad reply, then the correction request
    assert second[-1]["role"] == "user"
    assert "'grain' is a required property" in second[-1]["content"]
    assert len(result.raw_outputs) == 2 and result.raw_outputs[0].startswith("```json")


def test_fix_rounds_are_bounded(
    server: FakeOpenAIServer, make_provider: Callable[..., ChatProvider]
) -> None:
    server.script(Reply("nope"), Reply("still nope"), Reply("never"))
    with pytest.raises(MalformedOutput) as caught:
        complete_json(make_provider(), ASK, QUERY_PLAN_SCHEMA, max_fix_rounds=1)
    assert len(server.requests) == 2
    assert caught.value.raw_outputs == ["nope", "still nope"]  # type: ignore[attr-defined]


def test_server_without_json_schema_falls_back_to_prompt_and_parse(
    server: FakeOpenAIServer, make_provider: Callable[..., ChatProvider]
) -> None:
    import json

    server.script(
        ErrorReply(
            400,
            "Invalid parameter: 'response_format' of type 'json_schema' is not "
            "supported with this model",
            "invalid_parameter",
        ),
        Reply("Sure: " + json.dumps(PLAN)),
        Reply(json.dumps(PLAN)),
    )
    provider = make_provider()
    first = complete_json(provider, ASK, QUERY_PLAN_SCHEMA)
    assert first.value == PLAN and not first.used_json_schema
    assert provider.supports_json_schema is False
    retried = server.requests[1].body
    assert "response_format" not in retried
    assert '"grain"' in retried["messages"][-1]["content"]  # the schema is stated instead
    complete_json(provider, ASK, QUERY_PLAN_SCHEMA)  # remembered: no second rejection
    assert "response_format" not in server.requests[2].body
