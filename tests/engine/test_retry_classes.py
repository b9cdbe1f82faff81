"""The retry classes of seed 002, as the loop applies them to executor and gate failures."""

from __future__ import annotations

import pytest
from engine_scripts import GateScript, Script, outcome

from zlens_jupyter.engine import (
    EventType,
    Route,
    RunStatus,
    StepStatus,
    StopReason,
    TrustState,
)
from zlens_jupyter.errors import (
    ContextOverflow,
    GuardrailViolation,
    MalformedOutput,
    TransientError,
)

GEN = Route.GENERATED_ANSWER


def test_transient_failure_of_idempotent_executor_backs_off_and_retries(make_engine, clock):
    ex = Script([TransientError("503 busy"), ConnectionError("reset"), outcome()])
    run = make_engine({GEN: ex}).run("How many flights?")
    assert run.status is RunStatus.COMPLETED
    assert len(ex.contexts) == 3
    assert clock.sleeps == [0.05, 0.1]  # exponential backoff
    assert run.steps[0].attempts[0].transient_retries == 2


def test_transient_failure_retries_are_bounded(make_engine, clock):
    ex = Script([TimeoutError("slow")])
    run = make_engine({GEN: ex}).run("How many flights?")
    assert len(ex.contexts) == 3  # 1 + max_transient_retries
    assert run.status is RunStatus.BLOCKED
    assert run.stop_reason is StopReason.EXECUTOR_ERROR
    ev = run.steps[0].attempts[0].evaluations[0]
    assert ev.id == "executor-error" and "slow" in ev.message


def test_transient_failure_of_non_idempotent_executor_is_not_retried(make_engine):
    ex = Script([TransientError("busy"), outcome()], idempotent=False)
    run = make_engine({GEN: ex}).run("How many flights?")
    assert len(ex.contexts) == 1 and run.status is RunStatus.BLOCKED


def test_malformed_output_goes_back_as_a_structured_repair(make_engine):
    ex = Script([MalformedOutput("field 'sql' is required"), outcome()])
    run = make_engine({GEN: ex}).run("How many flights?")
    assert ex.contexts[1].hint == "Your last output was invalid: field 'sql' is required"
    assert run.steps[0].status is StepStatus.REPAIRED
    assert run.status is RunStatus.COMPLETED


def test_malformed_output_is_limited_by_the_repair_budget(make_engine):
    ex = Script([MalformedOutput("bad json")])
    run = make_engine({GEN: ex}).run("How many flights?")
    assert len(ex.contexts) == 3 and run.status is RunStatus.NEEDS_REVIEW


def test_permission_denial_is_never_retried(make_engine):
    ex = Script([GuardrailViolation("DELETE is not allowed: agent SQL is read-only"), outcome()])
    run = make_engine({GEN: ex}).run("delete all flights")
    assert len(ex.contexts) == 1
    assert run.stop_reason is StopReason.GUARDRAIL_VIOLATION
    assert run.trust_state is TrustState.BLOCKED
    assert "read-only" in run.trust_reason


def test_same_action_repeated_breaks_the_loop(make_engine):
    from engine_scripts import failing

    ex = Script([outcome("SELECT x")])
    run = make_engine({GEN: ex}, GateScript([failing()])).run("q?")
    assert run.stop_reason is StopReason.REPEATED_ACTION and len(ex.contexts) == 2


def test_context_overflow_shrinks_the_context_and_retries(make_engine):
    ex = Script([ContextOverflow("prompt too long"), outcome()])
    run = make_engine({GEN: ex}).run("How many flights?")
    assert [c.shrink_context for c in ex.contexts] == [0, 1]
    assert run.status is RunStatus.COMPLETED
    assert run.steps[0].repairs == 0  # shrinking is not a repair


def test_context_overflow_that_persists_ends_in_review(make_engine):
    ex = Script([ContextOverflow("prompt too long")])
    run = make_engine({GEN: ex}).run("How many flights?")
    assert len(ex.contexts) == 3
    assert run.status is RunStatus.NEEDS_REVIEW


def test_fatal_executor_error_blocks_with_its_message(make_engine):
    ex = Script([ZeroDivisionError("division by zero")])
    run = make_engine({GEN: ex}).run("How many flights?")
    assert run.status is RunStatus.BLOCKED
    assert run.stop_reason is StopReason.EXECUTOR_ERROR
    ev = run.steps[0].attempts[0].evaluations[0]
    assert ev.id == "executor-error" and "division by zero" in ev.message
    assert run.events[-1].type is EventType.RUN_FAILED


def test_gate_crash_blocks_instead_of_passing(make_engine):
    def broken_gate(ctx, out):
        raise KeyError("missing column")

    run = make_engine({GEN: Script([outcome()])}, broken_gate).run("How many flights?")
    assert run.status is RunStatus.BLOCKED
    assert "gate raised KeyError" in run.steps[0].attempts[0].evaluations[0].message


def test_subscriber_crash_never_breaks_the_run(make_engine):
    seen = []

    def bad_subscriber(event):
        seen.append(event.type)
        raise RuntimeError("widget gone")

    run = make_engine({GEN: Script([outcome()])}).run("How many?", on_event=bad_subscriber)
    assert run.status is RunStatus.COMPLETED
    assert seen[-1] is EventType.RUN_COMPLETED and len(seen) == len(run.events)
    assert "widget gone" in run.provenance["subscriber_errors"][0]


def test_empty_question_is_a_clear_user_error(make_engine):
    from zlens_jupyter.errors import UserError

    with pytest.raises(UserError, match="question is empty"):
        make_engine({GEN: Script([outcome()])}).run("   ")
