"""Property tests over random executor and gate behaviour."""

from __future__ import annotations

from engine_scripts import FakeClock, failing, grounded, outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zlens_jupyter.engine import (
    TERMINAL,
    Budget,
    CancelToken,
    Engine,
    Evaluation,
    Route,
    RunRequest,
    Severity,
    StopReason,
)
from zlens_jupyter.errors import ContextOverflow, MalformedOutput, TransientError

ROUTES = [
    Route.GENERATED_ANSWER,
    Route.RESEARCH,
    Route.CERTIFIED_ANSWER,
    Route.SQL_CELL,
    Route.DQL_BLOCK_DRAFT,
]

behaviour = st.one_of(
    st.tuples(st.just("ok"), st.integers(0, 3), st.integers(0, 500), st.floats(0, 0.5)),
    st.tuples(
        st.just("raise"),
        st.sampled_from(["transient", "fatal", "malformed", "overflow", "interrupt"]),
        st.just(0),
        st.just(0.0),
    ),
    st.tuples(st.just("slow"), st.integers(0, 3), st.just(0), st.just(0.0)),
)
verdict = st.sampled_from(["pass", "retry", "escalate", "clarify", "block", "warn"])


def make_executor(script, clock, token):
    script = list(script)

    def run(ctx):
        kind, n, tokens, cost = script[(ctx.step_index * 3 + ctx.attempt) % len(script)]
        if kind == "raise":
            if n == "interrupt":
                token.cancel()
                return outcome("SELECT 0")
            raise {
                "transient": TransientError("busy"),
                "fatal": ValueError("bad"),
                "malformed": MalformedOutput("no json"),
                "overflow": ContextOverflow("big"),
            }[n]
        if kind == "slow":
            clock.now += 40
        return outcome(f"SELECT {n}", tokens=tokens, cost_usd=cost)

    return run


def make_gate(verdicts):
    verdicts = list(verdicts)
    calls = [0]

    def gate(ctx, out) -> list[Evaluation]:
        v = verdicts[calls[0] % len(verdicts)]
        calls[0] += 1
        return {
            "pass": grounded(),
            "retry": [failing()],
            "escalate": [failing(escalate=True)],
            "clarify": [failing(hint=None, question="which?")],
            "block": [failing("read-only", severity=Severity.BLOCKING)],
            "warn": grounded() + [failing(hint=None)],
        }[v]

    return gate


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    script=st.lists(behaviour, min_size=1, max_size=6),
    verdicts=st.lists(verdict, min_size=1, max_size=6),
    max_steps=st.integers(1, 4),
    max_repairs=st.integers(0, 3),
    max_tokens=st.integers(100, 2000),
    max_cost=st.floats(0.1, 2.0),
    deadline=st.floats(30, 200),
    missing=st.sets(st.sampled_from(ROUTES)),
)
def test_every_run_terminates_within_budget(
    script, verdicts, max_steps, max_repairs, max_tokens, max_cost, deadline, missing
):
    clock, token = FakeClock(), CancelToken()
    executor = make_executor(script, clock, token)
    engine = Engine(
        {r: executor for r in ROUTES if r not in missing},
        make_gate(verdicts),
        clock=clock,
        sleep=clock.sleep,
    )
    budget = Budget(
        max_steps=max_steps,
        max_repairs_per_step=max_repairs,
        max_tokens=max_tokens,
        max_cost_usd=max_cost,
        deadline_s=deadline,
    )
    run = engine.run(RunRequest(question="how many flights?", budget=budget), cancel=token)

    assert run.stop_reason is not None and run.status.value != "running"
    terminal = [e for e in run.events if e.type in TERMINAL]
    assert len(terminal) == 1 and run.events[-1] is terminal[0]
    seqs = [e.seq for e in run.events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert run.usage.steps <= max_steps
    assert all(s.repairs <= max_repairs for s in run.steps)
    assert run.usage.escalations <= budget.max_escalations
    # Budgets may be overrun by the one action that crossed them, never by a further one.
    attempts = [a for s in run.steps for a in s.attempts]
    assert all(len(s.attempts) <= max_repairs + 1 + 2 for s in run.steps)
    if attempts:
        before_last_tokens = sum(a.tokens for a in attempts[:-1])
        before_last_cost = sum(a.cost_usd for a in attempts[:-1])
        assert before_last_tokens < max_tokens
        assert before_last_cost < max_cost
    if run.usage.tokens >= max_tokens and run.stop_reason is not StopReason.TOKEN_BUDGET:
        # Crossing the budget must stop the run unless it was already ending for another reason.
        assert run.stop_reason in {
            StopReason.FINAL_ANSWER,
            StopReason.CLARIFICATION,
            StopReason.GUARDRAIL_VIOLATION,
            StopReason.EXECUTOR_ERROR,
            StopReason.REPEATED_ACTION,
            StopReason.OSCILLATION,
            StopReason.USER_CANCELLED,
            StopReason.MAX_STEPS,
        }
    if run.stop_reason is StopReason.USER_CANCELLED:
        assert run.status.value == "cancelled"
    assert run.trust_state is not None
