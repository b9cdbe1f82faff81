"""Issue 12, problems 5, 6 and 8: a misbehaving model endpoint cannot stretch a run past its
deadline, spend past its budget, or block it.

Everything goes through the real stack: Session -> Engine -> model executors / model planner
-> the `openai` client -> HTTP on 127.0.0.1 -> FakeOpenAIServer in a fault mode.
Wall times are measured around `ask` only (the session is built before the clock starts).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import jsonschema  # noqa: F401  (warm: the planner imports it lazily, ~2 s the first time)
import pytest
from fake_openai import TEST_KEY, FakeOpenAIServer, Reply, final_answer, tool_call
from model_scripts import CHANNEL_PLAN, CHANNEL_SENTENCE, CHANNEL_SQL, QUESTION, answer, one_step
from openai_server import (
    RawReply,
    hang,
    html_page,
    huge_usage,
    no_choices,
    not_json,
    rate_limited,
    slow,
    truncated_json,
    wrong_content_type,
)

from zlens_jupyter.engine import AgentRun, Attempt, RunStatus, StopReason
from zlens_jupyter.llm.limits import estimate_prompt_tokens
from zlens_jupyter.session import Session

MakeSession = Callable[..., Session]
SLACK_S = 1.0  # the bound: a run ends within its deadline + 1 s
# A whole `zlens ask` process: start-up and the catalog come out of the deadline before the
# model is asked, so a loaded machine needs more than 2 s for the model to be reached at all.
CLI_DEADLINE_S = 4
# What the offline path answers QUESTION with, over the real sample data (the numbers of
# CHANNEL_SENTENCE; test_degradation compares a whole offline session the same way).
OFFLINE_ROWS = [["web", 32457], ["store", 12607], ["partner", 9930]]


def best(run: AgentRun) -> Attempt:
    attempt = run.steps[0].best
    assert attempt is not None
    return attempt


def answered_offline(run: AgentRun) -> bool:
    """The run's answer is the deterministic one, from the real data, not the model's."""
    return (
        run.result is not None
        and run.result["rows"] == OFFLINE_ROWS
        and run.answer is not None
        and run.answer != CHANNEL_SENTENCE
        and "32,457" in run.answer
        and "degraded" in run.provenance
    )


def timed_ask(session: Session, **kw: object) -> tuple[AgentRun, float]:
    started = time.monotonic()
    run = session.ask(QUESTION, **kw)  # type: ignore[arg-type]
    return run, time.monotonic() - started


def output_cap(body: dict[str, object]) -> int | None:
    """The output-token cap a request carried, under whichever name the provider used."""
    for name in ("max_completion_tokens", "max_tokens"):
        value = body.get(name)
        if isinstance(value, int):
            return value
    return None


# -- problem 5: deadlines are hard with a model ---------------------------------------------


@pytest.mark.parametrize("planner", [True, False], ids=["model-planner", "no-planner"])
def test_problem5_a_hanging_model_ends_the_run_at_its_deadline_with_timeout(
    make_session: MakeSession, server: FakeOpenAIServer, planner: bool
) -> None:
    server.always(hang())
    session = make_session(timeout_s=30.0, plan_steps=planner)
    run, took = timed_ask(session, deadline_s=2.0)

    assert took <= 2.0 + SLACK_S, f"the run took {took:.2f}s against a 2s deadline"
    assert run.stop_reason is StopReason.TIMEOUT
    assert run.status is RunStatus.NEEDS_REVIEW
    assert server.requests, "the model was asked"


@pytest.mark.parametrize("retry_after", ["0.4", "30"])
def test_problem5_a_429_forever_ends_the_run_at_its_deadline_with_timeout(
    make_session: MakeSession, server: FakeOpenAIServer, retry_after: str
) -> None:
    server.always(rate_limited(retry_after))
    # A patient configuration: many retries, and the server's Retry-After honoured in full.
    session = make_session(max_retries=50, retry_after_cap_s=60.0, backoff_cap_s=60.0)
    run, took = timed_ask(session, deadline_s=2.0)

    assert took <= 2.0 + SLACK_S, f"the run took {took:.2f}s against a 2s deadline"
    assert run.stop_reason is StopReason.TIMEOUT
    assert run.status is not RunStatus.COMPLETED
    failures = [
        f
        for step in run.steps
        for a in step.attempts
        for f in a.provenance.get("provider_failures", [])
    ]
    assert all(f["kind"] == "rate_limited" for f in failures)
    # Never a sleep the deadline could not cover: the waits of planner and step (each at
    # least Retry-After) fit in the deadline, so the requests are few.
    assert sum(f["waited_s"] for f in failures) <= 2.0
    assert 1 <= len(server.requests) <= 2.0 / float(retry_after) + 2


def test_problem5_a_slow_reply_is_cut_at_the_deadline(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(one_step(), slow(final_answer(CHANNEL_SQL, "late", CHANNEL_PLAN), 6.0))
    run, took = timed_ask(make_session(timeout_s=30.0), deadline_s=2.5)
    assert took <= 2.5 + SLACK_S
    assert run.stop_reason is StopReason.TIMEOUT
    assert run.sql is None  # the late reply was never read


def test_problem5_every_model_call_carries_a_timeout_within_the_time_left(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    # The server sends the client's own timeout header back to nobody; instead it hangs, and
    # the client must give up by the deadline even though the configured timeout is 60 s.
    server.script(one_step(), hang())
    run, took = timed_ask(make_session(timeout_s=60.0, max_retries=0), deadline_s=1.5)
    assert took <= 1.5 + SLACK_S
    assert run.stop_reason is StopReason.TIMEOUT


# -- problem 6: token and cost budgets are hard ---------------------------------------------


def test_problem6_a_reply_claiming_240000_tokens_never_passes_a_50_token_budget(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.always(huge_usage(final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN)))
    run = make_session(plan_steps=False).ask(QUESTION, max_tokens=50)

    assert run.stop_reason is StopReason.TOKEN_BUDGET
    assert run.status is RunStatus.NEEDS_REVIEW
    assert run.usage.tokens <= 50
    assert run.answer != CHANNEL_SENTENCE and run.sql is None
    for request in server.requests:  # anything sent asked for at most what was left
        cap = output_cap(request.body)
        assert cap is not None and cap <= 50


def test_problem6_an_overrunning_reply_is_discarded_and_stops_the_run(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    budget = 20_000
    server.script(huge_usage(final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN)), *answer())
    run = make_session(plan_steps=False).ask(QUESTION, max_tokens=budget)

    assert run.stop_reason is StopReason.TOKEN_BUDGET
    assert run.status is RunStatus.NEEDS_REVIEW
    assert len(server.requests) == 1  # nothing after the overrun
    # Its content was never accepted: no SQL ran, no answer, no artifact from it.
    assert run.sql is None and run.answer is None and not run.artifacts
    # What the run records never exceeds its budget; the server's claim is on the trace.
    assert run.usage.tokens <= budget
    attempt = run.steps[0].attempts[0]
    overrun = attempt.provenance["usage_overrun"]
    assert overrun["reported_tokens"] == 240_000 and overrun["charged_tokens"] <= budget
    cap = output_cap(server.requests[0].body)
    prompt = estimate_prompt_tokens(server.requests[0].body)
    assert cap is not None and prompt + cap <= budget


def test_problem6_every_request_carries_an_output_cap_within_the_tokens_left(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    budget = 30_000
    server.script(
        one_step(),
        Reply(tool_calls=[("inspect_schema", {"table": "orders"})], usage=(3000, 40)),
        *answer(),
    )
    run = make_session().ask(QUESTION, max_tokens=budget)
    assert run.status is RunStatus.COMPLETED and run.answer == CHANNEL_SENTENCE

    spent = 0
    usages = [(12, 7), (3000, 40), (12, 7), (12, 7)]
    assert len(server.requests) == len(usages)
    for request, (prompt, completion) in zip(server.requests, usages, strict=True):
        cap = output_cap(request.body)
        assert cap is not None and 0 < cap <= budget - spent
        spent += prompt + completion
    assert run.usage.tokens == spent <= budget


def test_problem6_an_overrunning_narration_is_retracted_and_stops_the_run(
    make_session: MakeSession, server: FakeOpenAIServer, events
) -> None:
    server.script(
        one_step(),
        final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN),
        huge_usage(Reply(CHANNEL_SENTENCE)),
    )
    run = make_session().ask(QUESTION, max_tokens=20_000, on_event=events)

    assert run.stop_reason is StopReason.TOKEN_BUDGET
    assert run.status is RunStatus.NEEDS_REVIEW
    assert run.usage.tokens <= 20_000
    # The verified result stands with the deterministic sentence; the model's is withdrawn.
    assert run.result is not None and run.result["rows"] == OFFLINE_ROWS
    assert run.answer and run.answer != CHANNEL_SENTENCE and "32,457" in run.answer
    assert events.of("answer.delta") and events.of("answer.retracted")
    narration = best(run).provenance["narration"]
    assert narration["stop_reason"] == "token_budget"


def test_problem6_a_cost_overrun_stops_the_run_on_its_cost_budget(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.always(huge_usage(final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN)))
    session = make_session(plan_steps=False, price_per_1k_input_usd=1.0)
    run = session.ask(QUESTION, max_cost_usd=0.5)
    assert run.stop_reason is StopReason.COST_BUDGET
    assert run.usage.cost_usd <= 0.5 and run.sql is None


# -- problem 8: garbled replies degrade, never block ----------------------------------------

GARBLED = {
    "truncated-json": truncated_json,
    "html-page": html_page,
    "not-json": not_json,
    "no-choices": no_choices,
    "empty-200": lambda: RawReply(""),
    "trickled-truncated": lambda: RawReply(truncated_json().body, trickle_s=0.01),
}


@pytest.mark.parametrize("kind", list(GARBLED))
def test_problem8_a_garbled_200_degrades_to_offline_and_never_blocks(
    make_session: MakeSession, server: FakeOpenAIServer, kind: str
) -> None:
    server.always(GARBLED[kind]())
    run = make_session().ask(QUESTION)

    assert run.status is RunStatus.COMPLETED, run.stop_reason
    assert run.stop_reason is StopReason.FINAL_ANSWER
    assert answered_offline(run)
    reason = run.provenance["degraded"]
    assert "malformed reply" in reason
    assert not [e for e in run.evaluations if e.id == "executor-error"]
    failures = best(run).provenance["provider_failures"]
    assert failures and {f["kind"] for f in failures} == {"malformed_reply"}
    assert len(failures) == 2  # one limited repair (the request again), then offline
    assert run.plan is not None and run.plan.source == "deterministic"


def test_problem8_one_garbled_reply_is_repaired_by_asking_again(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(one_step(), html_page(), *answer())
    run = make_session().ask(QUESTION)
    assert run.status is RunStatus.COMPLETED and run.answer == CHANNEL_SENTENCE
    assert "degraded" not in run.provenance
    failures = best(run).provenance["provider_failures"]
    assert [f["kind"] for f in failures] == ["malformed_reply"]


def test_problem8_a_garbled_narration_falls_back_to_the_deterministic_sentence(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(one_step(), final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN))
    server.always(html_page())
    run = make_session().ask(QUESTION)
    assert run.status is RunStatus.COMPLETED and run.sql is not None
    assert run.answer and run.answer != CHANNEL_SENTENCE
    narration = best(run).provenance["narration"]
    assert narration["source"] == "deterministic" and "malformed reply" in narration["reason"]


def test_a_completion_under_the_wrong_content_type_is_still_read(
    make_session: MakeSession, server: FakeOpenAIServer
) -> None:
    server.script(
        wrong_content_type(one_step()),
        wrong_content_type(final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN)),
        Reply(CHANNEL_SENTENCE),
    )
    run = make_session().ask(QUESTION)
    assert run.status is RunStatus.COMPLETED and run.answer == CHANNEL_SENTENCE
    assert run.plan is not None and run.plan.source == "model"


@pytest.mark.parametrize(
    "reply",
    [
        tool_call("read_file", path="/etc/passwd"),
        tool_call("inspect_schema", {"tablename": "orders", "drop": True}),
        tool_call("run_sql_preview", '{"sql": "SELECT 1'),
        final_answer(None, ""),
    ],
    ids=["unknown-tool", "bad-arguments", "broken-arguments-json", "empty-final"],
)
def test_problem8_hallucinated_tools_and_arguments_degrade_to_offline(
    make_session: MakeSession, server: FakeOpenAIServer, reply: Reply
) -> None:
    server.always(reply)
    run, took = timed_ask(make_session(), deadline_s=20.0)
    assert run.status is RunStatus.COMPLETED, run.stop_reason
    assert answered_offline(run)
    assert not [e for e in run.evaluations if e.id == "executor-error"]
    # Bounded: the planner's fix rounds, then two attempts of at most 3 malformed replies.
    assert len(server.requests) <= 3 + 2 * 3
    assert took < 20.0


def test_fault_replies_reach_the_server_as_sent(server: FakeOpenAIServer) -> None:
    """The fault modes themselves: what the loopback server sends for each."""
    import httpx2

    server.script(truncated_json(), html_page(), no_choices())
    url = server.base_url + "/chat/completions"
    bodies = [httpx2.post(url, json={"model": "m", "messages": []}) for _ in range(3)]
    with pytest.raises(json.JSONDecodeError):
        json.loads(bodies[0].text)
    assert bodies[1].headers["content-type"].startswith("text/html")
    assert "choices" not in bodies[2].json()


# -- through the terminal: `zlens ask --deadline` -------------------------------------------


@pytest.mark.parametrize("fault", ["hang", "429-forever"])
def test_problem5_zlens_ask_with_a_deadline_ends_on_time_against_a_faulty_model(
    server: FakeOpenAIServer,
    shop_files: tuple[Path, Path],
    project: Path,
    tmp_path: Path,
    fault: str,
) -> None:
    server.always(hang() if fault == "hang" else rate_limited("0.5"))
    env = {
        **os.environ,
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": TEST_KEY,
        "ZLENS_MODEL": "test-model",
        "ZLENS_MODEL_PLANNER": "1",
        "ZLENS_CACHE_DIR": str(tmp_path / "cache"),
    }
    command = [
        sys.executable,
        "-m",
        "zlens_jupyter.cli",
        "ask",
        QUESTION,
        "--db",
        str(shop_files[0]),
        "--project",
        str(project),
        "--deadline",
        str(CLI_DEADLINE_S),
        "--json",
        "--quiet",
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["usage"]["elapsed_s"] <= CLI_DEADLINE_S + SLACK_S
    if fault == "hang" or record["stop_reason"] == "timeout":
        assert record["stop_reason"] == "timeout"
        assert record["status"] == "needs_review"
    else:
        # 429 with a short Retry-After: the retries can run out before the deadline (how
        # soon depends on the machine); then the question is answered offline, and says so
        assert record["stop_reason"] == "final_answer"
        assert any(
            "answered offline: model unavailable" in (event.get("message") or "")
            for event in record["events"]
        )
    assert server.requests  # the model was really asked
    assert TEST_KEY not in done.stdout + done.stderr
