"""A model that is slow, down, refusing us or overflowing never crashes a run: transient
failures are retried, and what stays broken is answered offline with the reason on record."""

from __future__ import annotations

from collections.abc import Callable

from fake_openai import FakeOpenAIServer, context_overflow, rate_limited, unauthorized
from model_scripts import CHANNEL_SENTENCE, QUESTION, answer, loop_requests, one_step

from zlens_jupyter.engine import RunStatus, TrustState
from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]


def test_429_with_retry_after_then_success(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(one_step(), rate_limited("2"), *answer())
    run = make_session().ask(QUESTION)
    assert run.status is RunStatus.COMPLETED and run.answer == CHANNEL_SENTENCE
    assert "degraded" not in run.provenance
    failures = run.steps[0].best.provenance["provider_failures"]
    assert [f["kind"] for f in failures] == ["rate_limited"]
    # Retry-After: 2 was honoured, capped by the config (0.05 s) so the test does not wait.
    assert 0.05 <= failures[0]["waited_s"] <= 0.06
    assert len(server.requests) == 4


def test_a_server_that_keeps_failing_degrades_to_the_offline_answer(
    make_session: MakeSession, server: FakeOpenAIServer, offline_session: Session, events
) -> None:
    # Nothing scripted: every request gets a 500.
    run = make_session().ask(QUESTION, on_event=events)

    offline = offline_session.ask(QUESTION)
    assert run.status is RunStatus.COMPLETED and run.trust_state is TrustState.GROUNDED
    assert run.answer == offline.answer and run.result["rows"] == offline.result["rows"]
    reason = run.provenance["degraded"]
    assert "unavailable after 3 attempt(s)" in reason and "server_error" in reason
    assert run.plan.source == "deterministic" and "TransientError" in run.plan.fallback_reason
    degraded = [e for e in run.evaluations if e.id == "model-degraded"]
    assert len(degraded) == 1 and degraded[0].message.startswith("answered offline")
    traced = [e for e in events.of("evaluation.recorded") if e.payload["id"] == "model-degraded"]
    assert traced and "server_error" in traced[0].message
    assert run.artifacts[0].content["degraded"] == reason
    assert len(server.requests) == 6  # planner 1 + 2 retries, executor 1 + 2 retries
    kinds = [f["kind"] for f in run.steps[0].best.provenance["provider_failures"]]
    assert kinds == ["server_error"] * 3


def test_401_is_one_clear_message_then_offline(
    make_session: MakeSession, server: FakeOpenAIServer, offline_session: Session
) -> None:
    server.script(unauthorized())
    session = make_session()
    run = session.ask(QUESTION)

    assert run.status is RunStatus.COMPLETED
    assert run.answer == offline_session.ask(QUESTION).answer
    assert len(server.requests) == 1  # no retry of a refused key, and the step did not ask
    said = [e.message for e in run.evaluations if "rejected the credentials" in e.message]
    assert len(said) == 1
    assert "HTTP 401" in said[0] and "check OPENAI_API_KEY" in said[0]
    assert "Traceback" not in said[0]
    assert "rejected the credentials" in run.provenance["degraded"]

    again = session.ask(QUESTION)  # the rest of the session stays offline, quietly
    assert len(server.requests) == 1
    assert (
        again.status is RunStatus.COMPLETED
        and "off for this session" in again.provenance["degraded"]
    )


def test_context_overflow_shrinks_the_prompt_then_degrades(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(one_step(), context_overflow(), context_overflow(), context_overflow())
    run = make_session().ask(QUESTION)

    assert run.status is RunStatus.COMPLETED and run.answer
    assert "does not fit" in run.provenance["degraded"]
    sizes = [len(r.raw_body) for r in loop_requests(server)]
    assert len(sizes) == 3 and sizes[0] > sizes[1] > sizes[2]  # each retry sent less
    assert len(run.steps[0].attempts) == 3
