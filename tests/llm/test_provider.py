"""ChatProvider through the real openai client against the loopback server: every failure class."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable

import pytest
from llm_testkit import TEST_KEY, SleepRecorder
from openai_server import (
    ErrorReply,
    FakeOpenAIServer,
    Reply,
    context_overflow,
    model_not_found,
    rate_limited,
    server_error,
    unauthorized,
)

from zlens_jupyter.errors import ContextOverflow, ModelError, TransientError
from zlens_jupyter.llm import ChatProvider, ModelConfig, failures_of, parse_retry_after

ASK = [{"role": "user", "content": "How many flights left JFK?"}]

MakeProvider = Callable[..., ChatProvider]


def test_plain_completion_sends_model_and_messages(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("There were 111,279 flights.", usage=(100, 20)))
    result = make_provider().complete(ASK)
    assert result.content == "There were 111,279 flights."
    assert result.raw == "There were 111,279 flights."
    assert result.attempts == []
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == "gpt-4o-mini"
    assert request.messages == ASK
    assert TEST_KEY not in request.raw_body  # the key travels only in the header
    assert request.headers["authorization"] == f"Bearer {TEST_KEY}"


def test_usage_and_cost_come_from_the_server_and_the_price_table(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("ok", usage=(2000, 500)))
    provider = make_provider(prices={"gpt-4o-mini": (0.001, 0.004)})
    result = provider.complete(ASK)
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (2000, 500)
    assert result.usage.estimated is False
    assert result.cost_usd == pytest.approx(2 * 0.001 + 0.5 * 0.004)


def test_usage_is_estimated_from_characters_when_the_server_reports_none(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("x" * 400, usage=None))
    result = make_provider().complete(ASK)
    assert result.usage.estimated is True
    assert result.usage.completion_tokens == 100
    assert result.usage.prompt_tokens > 0
    assert result.cost_usd > 0


def test_429_honours_retry_after_seconds(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(rate_limited("2"), Reply("done"))
    result = make_provider().complete(ASK)
    assert result.content == "done"
    assert len(server.requests) == 2
    assert len(sleeps.waits) == 1
    assert 2.0 <= sleeps.waits[0] <= 2.0 + 0.5  # the header, plus a little jitter at most
    (failure,) = result.attempts
    assert (failure.kind, failure.status) == ("rate_limited", 429)
    assert failure.waited_s == pytest.approx(sleeps.waits[0], abs=1e-3)


def test_429_honours_retry_after_http_date(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    when = email.utils.formatdate(time.time() + 5, usegmt=True)
    server.script(rate_limited(when), Reply("done"))
    make_provider().complete(ASK)
    # An HTTP date has one-second resolution: the wait is 4..5 s, plus at most 0.5 s of jitter.
    assert 3.9 <= sleeps.waits[0] <= 5.6


def test_retry_after_is_capped(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(rate_limited("86400"), Reply("done"))
    make_provider(retry_after_cap_s=3.0).complete(ASK)
    assert 3.0 <= sleeps.waits[0] <= 3.5


def test_a_real_short_retry_after_is_waited_for(server: FakeOpenAIServer) -> None:
    server.script(rate_limited("0.2"), Reply("done"))
    config = ModelConfig(model="m", base_url=server.base_url, api_key=TEST_KEY)
    started = time.monotonic()
    result = ChatProvider(config).complete(ASK)  # the real time.sleep
    assert result.content == "done"
    assert result.attempts[0].waited_s >= 0.2
    assert time.monotonic() - started >= 0.2


def test_500_then_success_backs_off_once(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(server_error(), Reply("recovered"))
    result = make_provider(backoff_base_s=0.5).complete(ASK)
    assert result.content == "recovered"
    assert [f.kind for f in result.attempts] == ["server_error"]
    assert 0.25 <= sleeps.waits[0] <= 0.5  # jittered within [half, all] of the first step


def test_persistent_5xx_gives_up_after_max_retries(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(*[server_error()] * 5)
    with pytest.raises(TransientError, match="after 3 attempt") as caught:
        make_provider(max_retries=2).complete(ASK)
    assert len(server.requests) == 3
    assert len(sleeps.waits) == 2
    assert sleeps.waits[1] > 0
    assert [f.status for f in failures_of(caught.value)] == [500, 500, 500]


def test_timeout_then_transient_error_after_bounded_retries(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(*[Reply("too late", delay_s=3.0)] * 2)
    with pytest.raises(TransientError, match="timeout") as caught:
        make_provider(timeout_s=0.3, max_retries=1).complete(ASK)
    assert len(server.requests) == 2
    assert [f.kind for f in failures_of(caught.value)] == ["timeout", "timeout"]
    assert len(sleeps.waits) == 1


def test_connection_refused_is_transient(sleeps: SleepRecorder) -> None:
    closed = FakeOpenAIServer()
    url = closed.base_url
    closed.close()  # the port is now closed: connections are refused
    provider = ChatProvider(
        ModelConfig(model="m", base_url=url, api_key=TEST_KEY, max_retries=1), sleep=sleeps
    )
    with pytest.raises(TransientError) as caught:
        provider.complete(ASK)
    assert [f.kind for f in failures_of(caught.value)] == ["connection", "connection"]


def test_401_is_not_retried_and_says_what_to_check(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(unauthorized(), Reply("never sent"))
    with pytest.raises(ModelError, match="OPENAI_API_KEY") as caught:
        make_provider().complete(ASK)
    assert not isinstance(caught.value, TransientError)
    assert len(server.requests) == 1
    assert sleeps.waits == []
    assert failures_of(caught.value)[0].kind == "auth"
    assert TEST_KEY not in str(caught.value)


def test_403_is_not_retried(server: FakeOpenAIServer, make_provider: MakeProvider) -> None:
    server.script(ErrorReply(403, "You are not allowed to use this model", "forbidden"))
    with pytest.raises(ModelError, match="ZLENS_MODEL"):
        make_provider().complete(ASK)
    assert len(server.requests) == 1


def test_404_names_the_model(server: FakeOpenAIServer, make_provider: MakeProvider) -> None:
    server.script(model_not_found("gpt-9"))
    with pytest.raises(ModelError, match="'gpt-9' was not found"):
        make_provider(model="gpt-9").complete(ASK)
    assert len(server.requests) == 1


def test_context_overflow_raises_context_overflow(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(context_overflow())
    with pytest.raises(ContextOverflow, match="smaller grounding context") as caught:
        make_provider().complete(ASK)
    assert len(server.requests) == 1
    assert failures_of(caught.value)[0].kind == "context_overflow"


def test_streaming_delivers_deltas_in_order_and_usage_from_the_last_chunk(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(
        Reply("Delays peak in July.", chunks=["Del", "ays peak", " in ", "July."], usage=(300, 40))
    )
    deltas: list[str] = []
    result = make_provider().complete(ASK, stream=True, on_delta=deltas.append)
    assert deltas == ["Del", "ays peak", " in ", "July."]
    assert result.content == "Delays peak in July."
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (300, 40)
    body = server.requests[0].body
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}


def test_streaming_assembles_tool_call_fragments(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(
        Reply(
            tool_calls=[
                ("inspect_schema", {"table": "flights"}),
                ("sample_values", {"table": "airlines", "column": "name", "k": 3}),
            ]
        )
    )
    result = make_provider().complete(ASK, stream=True)
    assert [(c.name, c.arguments_json) for c in result.tool_calls] == [
        ("inspect_schema", '{"table": "flights"}'),
        ("sample_values", '{"table": "airlines", "column": "name", "k": 3}'),
    ]
    assert all(c.id for c in result.tool_calls)
    assert '"inspect_schema"' in result.raw  # raw output keeps the calls for audit


def test_streaming_retries_a_429_before_any_text(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(rate_limited("1"), Reply("fine now"))
    deltas: list[str] = []
    result = make_provider().complete(ASK, stream=True, on_delta=deltas.append)
    assert "".join(deltas) == "fine now" == result.content
    assert len(sleeps.waits) == 1 and sleeps.waits[0] >= 1.0


def test_parse_retry_after_variants() -> None:
    assert parse_retry_after({"Retry-After": "1.5"}, cap_s=10) == 1.5
    assert parse_retry_after({"retry-after-ms": "250"}, cap_s=10) == 0.25
    past = email.utils.formatdate(time.time() - 60, usegmt=True)
    assert parse_retry_after({"Retry-After": past}, cap_s=10) == 0.0
    assert parse_retry_after({"Retry-After": "soon"}, cap_s=10) is None


def test_a_stream_cut_before_any_text_is_retried(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.script(Reply("lost reply", cut_after=1), Reply("whole reply"))
    deltas: list[str] = []
    result = make_provider().complete(ASK, stream=True, on_delta=deltas.append)
    assert "".join(deltas) == "whole reply"
    assert [f.kind for f in result.attempts] == ["stream_interrupted"]


def test_a_stream_cut_after_text_is_not_retried_so_nothing_repeats(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("one two three four", cut_after=3), Reply("one two three four"))
    deltas: list[str] = []
    with pytest.raises(TransientError, match="stream_interrupted"):
        make_provider().complete(ASK, stream=True, on_delta=deltas.append)
    assert deltas == ["one ", "two "]  # shown once, never replayed
    assert len(server.requests) == 1
