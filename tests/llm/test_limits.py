"""ChatProvider under hard limits, through the real openai client against the loopback server:
timeouts within the time left, output caps within the tokens left, retries that stop at the
deadline, overruns discarded, and garbled 200s classified (issue 12, problems 5, 6, 8)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from llm_testkit import TEST_KEY, SleepRecorder
from openai_server import (
    ErrorReply,
    FakeOpenAIServer,
    RawReply,
    Reply,
    completion_json,
    hang,
    html_page,
    huge_usage,
    no_choices,
    not_json,
    rate_limited,
    truncated_json,
    wrong_content_type,
)

from zlens_jupyter.errors import ModelError
from zlens_jupyter.llm import ChatProvider, ModelConfig, failures_of
from zlens_jupyter.llm.limits import (
    MIN_CALL_S,
    CallLimits,
    LimitReached,
    estimate_prompt_tokens,
)
from zlens_jupyter.llm.retry import MalformedReply

ASK = [{"role": "user", "content": "How many flights left JFK?"}]
MakeProvider = Callable[..., ChatProvider]


def limited(make_provider: MakeProvider, limits: CallLimits, **config: object) -> ChatProvider:
    provider = make_provider(**config)
    provider.limits = limits
    return provider


# -- output caps ----------------------------------------------------------------------------


def test_every_request_carries_the_configured_output_cap(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("ok"))
    make_provider(max_output_tokens=321).complete(ASK)
    assert server.requests[0].body["max_tokens"] == 321  # a non-OpenAI base URL: max_tokens


def test_the_cap_is_the_tokens_left_after_the_prompt(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("ok", usage=(30, 5)), Reply("ok"))
    limits = CallLimits(tokens=200)
    provider = limited(make_provider, limits)
    provider.complete(ASK)
    provider.complete(ASK)
    first, second = (r.body["max_tokens"] for r in server.requests)
    prompt = estimate_prompt_tokens({"messages": ASK})
    assert first == 200 - prompt
    assert second == 200 - 35 - prompt  # the first reply's usage is spent
    assert limits.tokens == 35 + 19


def test_max_completion_tokens_when_asked_and_a_named_rejection_switches_field(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("ok"))
    make_provider(output_cap_param="max_completion_tokens").complete(ASK)
    assert "max_completion_tokens" in server.requests[0].body
    assert "max_tokens" not in server.requests[0].body

    # A server that wants the other field says so (OpenAI's o-series does): it gets it.
    rejected = ErrorReply(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. "
        "Use 'max_completion_tokens' instead.",
        "unsupported_parameter",
    )
    server.script(rejected, Reply("ok"))
    provider = make_provider()
    assert provider.complete(ASK).content == "ok"
    assert "max_tokens" in server.requests[1].body
    assert server.requests[2].body["max_completion_tokens"] == 4096
    server.script(Reply("again"))
    provider.complete(ASK)
    assert "max_completion_tokens" in server.requests[3].body  # remembered


def test_a_call_whose_prompt_does_not_fit_the_tokens_left_is_never_sent(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    with pytest.raises(LimitReached) as caught:
        limited(make_provider, CallLimits(tokens=10)).complete(ASK)
    assert caught.value.reason == "token_budget"
    assert server.requests == []


def test_the_cap_shrinks_to_what_the_money_left_buys(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(Reply("ok", usage=(10, 5)))
    # $0.001 per output token, nothing for input: $0.05 buys 50 output tokens.
    provider = limited(make_provider, CallLimits(cost_usd=0.05), prices={"gpt-4o-mini": (0.0, 1.0)})
    provider.complete(ASK)
    assert server.requests[0].body["max_tokens"] == 50


# -- overruns -------------------------------------------------------------------------------


def test_a_reply_reporting_more_than_was_left_is_discarded_and_charged_to_the_limit(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(huge_usage(Reply("the answer is 42")))
    limits = CallLimits(tokens=5000)
    with pytest.raises(LimitReached, match="240,000 tokens") as caught:
        limited(make_provider, limits).complete(ASK)
    assert caught.value.reason == "token_budget"
    assert limits.tokens == 5000  # charged up to the limit, never past it
    (overrun,) = limits.overruns
    assert overrun["reported_tokens"] == 240_000 and overrun["charged_tokens"] == 5000
    assert "the answer is 42" in overrun["discarded_reply"]  # kept for audit, not used
    with pytest.raises(LimitReached):
        limits.check()  # and nothing more may be spent


def test_a_cost_overrun_stops_on_the_cost_budget(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(huge_usage(Reply("ok")))
    limits = CallLimits(cost_usd=1.0)
    provider = limited(make_provider, limits, prices={"gpt-4o-mini": (0.01, 0.01)})
    with pytest.raises(LimitReached) as caught:
        provider.complete(ASK)
    assert caught.value.reason == "cost_budget"
    assert limits.cost_usd == pytest.approx(1.0)


# -- the clock ------------------------------------------------------------------------------


def test_a_hanging_server_is_given_up_on_at_the_deadline(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.always(hang())
    started = time.monotonic()
    with pytest.raises(LimitReached) as caught:
        limited(make_provider, CallLimits(seconds=1.0), timeout_s=60.0).complete(ASK)
    took = time.monotonic() - started
    assert caught.value.reason == "timeout"
    assert took <= 1.0 + 0.5
    assert [f.kind for f in failures_of(caught.value)] == ["timeout"]


def test_a_dribbling_reply_is_cut_at_the_deadline(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    body = completion_json(Reply("x" * 2000))  # 16 bytes every 0.05 s: ~7 s in all
    server.always(RawReply(body, trickle_s=0.05))
    started = time.monotonic()
    with pytest.raises(LimitReached) as caught:
        limited(make_provider, CallLimits(seconds=1.0), timeout_s=60.0).complete(ASK)
    assert caught.value.reason == "timeout"
    assert time.monotonic() - started <= 1.0 + 0.5


def test_a_retry_the_deadline_cannot_cover_is_not_slept(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder
) -> None:
    server.always(rate_limited("5"))
    with pytest.raises(LimitReached, match="cannot fit") as caught:
        limited(make_provider, CallLimits(seconds=2.0), max_retries=10).complete(ASK)
    assert caught.value.reason == "timeout"
    assert sleeps.waits == []  # Retry-After 5 > 2 s left: no sleep at all
    assert len(server.requests) == 1
    assert [f.kind for f in failures_of(caught.value)] == ["rate_limited"]


def test_retries_run_while_the_deadline_covers_them(server: FakeOpenAIServer) -> None:
    server.always(rate_limited("0.3"))
    config = ModelConfig(model="m", base_url=server.base_url, api_key=TEST_KEY, max_retries=100)
    provider = ChatProvider(config, limits=CallLimits(seconds=1.5))  # the real sleep
    started = time.monotonic()
    with pytest.raises(LimitReached):
        provider.complete(ASK)
    took = time.monotonic() - started
    assert took <= 1.5  # the last wait was refused, not slept past the deadline
    assert 2 <= len(server.requests) <= 1.5 / 0.3 + 1


def test_timeouts_never_exceed_the_time_left() -> None:
    now = [0.0]
    limits = CallLimits(seconds=10.0, clock=lambda: now[0])
    config = ModelConfig(timeout_s=30.0)
    assert limits.plan_call(config, {"messages": ASK}).timeout_s == 10.0
    now[0] = 9.5
    assert limits.plan_call(config, {"messages": ASK}).timeout_s == pytest.approx(0.5)
    now[0] = 10.0 - MIN_CALL_S / 2
    with pytest.raises(LimitReached, match="cannot cover"):
        limits.plan_call(config, {"messages": ASK})
    assert not limits.covers_wait(1.0)


def test_cancellation_stops_the_next_call(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    with pytest.raises(LimitReached) as caught:
        limited(make_provider, CallLimits(cancelled=lambda: True)).complete(ASK)
    assert caught.value.reason == "user_cancelled" and server.requests == []


# -- garbled 200s ---------------------------------------------------------------------------

GARBLED = {
    "truncated-json": (truncated_json, "truncated JSON"),
    "html-page": (html_page, "an HTML page"),
    "not-json": (not_json, "not JSON"),
    "no-choices": (no_choices, "JSON without choices"),
    "empty": (lambda: RawReply(""), "an empty body"),
    "array": (lambda: RawReply("[1, 2]"), "not an object"),
    "error-in-200": (lambda: RawReply('{"error": {"message": "overloaded"}}'), "error inside"),
}


@pytest.mark.parametrize("kind", list(GARBLED))
def test_a_garbled_200_is_asked_again_once_then_malformed_reply(
    server: FakeOpenAIServer, make_provider: MakeProvider, sleeps: SleepRecorder, kind: str
) -> None:
    make, said = GARBLED[kind]
    server.always(make())
    with pytest.raises(MalformedReply, match="malformed reply") as caught:
        make_provider().complete(ASK)
    assert isinstance(caught.value, ModelError)  # the callers' degrade path
    failures = failures_of(caught.value)
    assert [f.kind for f in failures] == ["malformed_reply", "malformed_reply"]
    assert said in failures[0].message and failures[0].status == 200
    assert len(server.requests) == 2 and sleeps.waits == []


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_a_garbled_reply_then_a_good_one_is_read(
    server: FakeOpenAIServer, make_provider: MakeProvider, stream: bool
) -> None:
    server.script(html_page(), Reply("There were 111,279 flights."))
    result = make_provider().complete(ASK, stream=stream)
    assert result.content == "There were 111,279 flights."
    assert [f.kind for f in result.attempts] == ["malformed_reply"]


def test_a_garbled_stream_is_malformed_too(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.always(html_page())
    deltas: list[str] = []
    with pytest.raises(MalformedReply):
        make_provider().complete(ASK, stream=True, on_delta=deltas.append)
    assert deltas == []


def test_a_completion_under_the_wrong_content_type_is_read(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(wrong_content_type(Reply("fine", usage=(3, 2))))
    result = make_provider().complete(ASK)
    assert result.content == "fine" and result.usage.total_tokens == 5


def test_a_server_that_ignores_stream_is_read_whole(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    server.script(RawReply(completion_json(Reply("all at once"))))
    deltas: list[str] = []
    result = make_provider().complete(ASK, stream=True, on_delta=deltas.append)
    assert result.content == "all at once" and deltas == ["all at once"]


def test_tool_calls_with_object_arguments_are_kept_verbatim_for_validation(
    server: FakeOpenAIServer, make_provider: MakeProvider
) -> None:
    body = completion_json(Reply(tool_calls=[("inspect_schema", {"table": "flights"})]))
    server.script(RawReply(body.replace('"{\\"table\\": \\"flights\\"}"', '{"table": "flights"}')))
    result = make_provider().complete(ASK)
    (call,) = result.tool_calls
    assert call.name == "inspect_schema" and '"flights"' in call.arguments_json
