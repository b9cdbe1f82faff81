"""Issue 12, deliverable 2: property tests over random fault schedules.

Each example scripts the loopback OpenAI server with a random sequence of behaviours, one per
request (good replies, 429s, 500s, hangs, slow and dribbling replies, huge usage claims,
garbled 200s, hallucinated tools), then a behaviour for every request after that, and asks a
real Session under a small deadline and random token and cost budgets. Whatever the server
does:

- the run ends within its deadline + 1 s (wall time around `ask`);
- the tokens and dollars it records never exceed its budgets;
- it always has a stop reason, and never `final_answer` after its deadline.

CI replays fixed examples (HYPOTHESIS_PROFILE=ci, tests/conftest.py); a local run explores.
The figures of every run are printed at the end of the module (pytest -s).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # noqa: F401  (warm: the planner imports it lazily, ~2 s the first time)
import pytest
from fake_openai import TEST_KEY, FakeOpenAIServer, Reply, final_answer, tool_call
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_scripts import CHANNEL_PLAN, CHANNEL_SENTENCE, CHANNEL_SQL, QUESTION, one_step
from openai_server import (
    ErrorReply,
    RawReply,
    Scripted,
    hang,
    html_page,
    huge_usage,
    no_choices,
    not_json,
    rate_limited,
    server_error,
    slow,
    truncated_json,
)

from zlens_jupyter.engine import RunStatus, StopReason
from zlens_jupyter.llm import ModelConfig
from zlens_jupyter.session import Session

SLACK_S = 1.0
FIGURES: list[dict[str, Any]] = []


def behaviour(name: str) -> Scripted:
    """One server behaviour for one request."""
    final = final_answer(CHANNEL_SQL, "draft", CHANNEL_PLAN)
    return {
        "plan": one_step(),
        "tool": tool_call("inspect_schema", table="orders"),
        "final": final,
        "narration": Reply(CHANNEL_SENTENCE),
        "429-short": rate_limited("0.2"),
        "429-long": rate_limited("30"),
        "500": server_error(),
        "hang": hang(),
        "slow": slow(final, 0.8),
        "huge-usage": huge_usage(final),
        "truncated": truncated_json(),
        "html": html_page(),
        "not-json": not_json(),
        "no-choices": no_choices(),
        "hallucinated": tool_call("read_file", path="/etc/passwd"),
        "dribble": RawReply(truncated_json(Reply("x" * 600)).body, trickle_s=0.02),
        "400": ErrorReply(400, "bad request"),
    }[name]


BEHAVIOURS = [
    "plan",
    "tool",
    "final",
    "narration",
    "429-short",
    "429-long",
    "500",
    "hang",
    "slow",
    "huge-usage",
    "truncated",
    "html",
    "not-json",
    "no-choices",
    "hallucinated",
    "dribble",
    "400",
]
FOREVER = ["hang", "429-short", "500", "html", "final", "narration", "huge-usage", "tool"]


@pytest.fixture(scope="module")
def fault_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture(scope="module")
def fault_session(
    shop_files: tuple[Path, Path],
    tmp_path_factory: pytest.TempPathFactory,
    fault_server: FakeOpenAIServer,
) -> Iterator[Session]:
    project = tmp_path_factory.mktemp("faults") / "project"
    shutil.copytree(shop_files[1], project)
    config = ModelConfig(
        base_url=fault_server.base_url,
        api_key=TEST_KEY,
        model="test-model",
        timeout_s=30.0,  # the run's deadline, not this, must bound every call
        max_retries=20,
        backoff_base_s=0.05,
        backoff_cap_s=0.5,
        retry_after_cap_s=60.0,
        price_per_1k_input_usd=0.01,
        price_per_1k_output_usd=0.03,
        plan_steps=True,
    )
    session = Session(shop_files[0], project, model=config)
    yield session
    session.close()
    if FIGURES:
        over = max(f["took_s"] - f["deadline_s"] for f in FIGURES)
        tokens = max(f["tokens"] / f["max_tokens"] for f in FIGURES)
        cost = max(f["cost_usd"] / f["max_cost_usd"] for f in FIGURES)
        print(
            f"\nfault properties: {len(FIGURES)} runs, max wall-time overshoot {over:+.3f}s "
            f"past the deadline, max tokens {tokens:.1%} of budget, max cost {cost:.1%} of "
            f"budget, stop reasons {sorted({f['stop'] for f in FIGURES})}"
        )


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    schedule=st.lists(st.sampled_from(BEHAVIOURS), max_size=8),
    forever=st.sampled_from(FOREVER),
    deadline_s=st.sampled_from([1.5, 2.0, 2.5]),
    max_tokens=st.sampled_from([500, 3_000, 8_000, 40_000]),
    max_cost_usd=st.sampled_from([0.02, 0.1, 2.0]),
)
def test_any_fault_schedule_respects_deadline_and_budgets(
    fault_session: Session,
    fault_server: FakeOpenAIServer,
    schedule: list[str],
    forever: str,
    deadline_s: float,
    max_tokens: int,
    max_cost_usd: float,
) -> None:
    fault_server.reset()
    fault_server.script(*(behaviour(name) for name in schedule))
    fault_server.always(behaviour(forever))

    started = time.monotonic()
    run = fault_session.ask(
        QUESTION, deadline_s=deadline_s, max_tokens=max_tokens, max_cost_usd=max_cost_usd
    )
    took = time.monotonic() - started
    FIGURES.append(
        {
            "took_s": took,
            "deadline_s": deadline_s,
            "tokens": run.usage.tokens,
            "max_tokens": max_tokens,
            "cost_usd": run.usage.cost_usd,
            "max_cost_usd": max_cost_usd,
            "stop": run.stop_reason.value if run.stop_reason else "none",
        }
    )

    assert took <= deadline_s + SLACK_S, f"{took:.2f}s against {deadline_s}s: {schedule}"
    assert run.stop_reason is not None
    assert run.usage.tokens <= max_tokens
    assert run.usage.cost_usd <= max_cost_usd + 1e-9
    late = run.usage.elapsed_s > deadline_s
    assert not (late and run.stop_reason is StopReason.FINAL_ANSWER)
    assert not (late and run.status is RunStatus.COMPLETED)
    assert run.status is not RunStatus.BLOCKED, run.evaluations
