"""Each stop condition of seed 002 ends the run with its own stop reason."""

from __future__ import annotations

from engine_scripts import GateScript, Script, failing, grounded, outcome

from zlens_jupyter.engine import (
    CancelToken,
    EventType,
    Route,
    RunRequest,
    RunStatus,
    Severity,
    StopReason,
    TrustState,
)

GEN = Route.GENERATED_ANSWER


def ask(engine, question="How many flights?", **budget):
    return engine.run(RunRequest(question=question, budget=engine.budget.merged(**budget)))


def test_stop_final_answer(make_engine):
    run = ask(make_engine({GEN: Script([outcome()])}))
    assert run.stop_reason is StopReason.FINAL_ANSWER


def test_stop_max_steps(make_engine):
    gate = GateScript([failing(escalate=True)], grounded())
    run = ask(
        make_engine(
            {GEN: Script([outcome("SELECT 1")]), Route.RESEARCH: Script([outcome()])}, gate
        ),
        max_steps=1,
    )
    assert run.stop_reason is StopReason.MAX_STEPS
    assert len(run.steps) == 1


def test_stop_token_budget(make_engine):
    ex = Script([outcome("SELECT 1", tokens=1200), outcome("SELECT 2", tokens=600)])
    run = ask(make_engine({GEN: ex}, GateScript([failing()], grounded())), max_tokens=1000)
    assert run.stop_reason is StopReason.TOKEN_BUDGET
    assert run.usage.tokens == 1200 and len(ex.contexts) == 1


def test_stop_cost_budget(make_engine):
    ex = Script([outcome("SELECT 1", cost_usd=0.30), outcome("SELECT 2", cost_usd=0.30)])
    run = ask(make_engine({GEN: ex}, GateScript([failing()], grounded())), max_cost_usd=0.25)
    assert run.stop_reason is StopReason.COST_BUDGET
    assert len(ex.contexts) == 1 and run.status is RunStatus.NEEDS_REVIEW


def test_stop_repeated_action(make_engine):
    ex = Script([outcome("SELECT same"), outcome("SELECT same")])
    run = ask(make_engine({GEN: ex}, GateScript([failing()])))
    assert run.stop_reason is StopReason.REPEATED_ACTION
    assert len(ex.contexts) == 2
    assert run.steps[0].attempts[-1].evaluations[-1].id == "repeated-action"


def test_stop_oscillation(make_engine):
    ex = Script(
        [outcome("SELECT a"), outcome("SELECT b"), outcome("SELECT a"), outcome("SELECT b")]
    )
    run = ask(make_engine({GEN: ex}, GateScript([failing()])), max_repairs_per_step=5)
    assert run.stop_reason is StopReason.OSCILLATION
    assert len(ex.contexts) == 4


def test_stop_timeout(make_engine, clock):
    def slow(ctx):
        clock.now += 50
        return outcome(f"SELECT {ctx.attempt}")

    ex = Script([slow])
    run = ask(make_engine({GEN: ex}, GateScript([failing()])), deadline_s=60)
    assert run.stop_reason is StopReason.TIMEOUT
    assert len(ex.contexts) == 2
    assert run.usage.elapsed_s >= 60


def test_executors_see_remaining_deadline(make_engine, clock):
    ex = Script([outcome()])
    ask(make_engine({GEN: ex}), deadline_s=30)
    assert ex.contexts[0].deadline_s == 30


def test_stop_guardrail_violation_from_gate(make_engine):
    gate = GateScript([failing("read-only", hint="x", severity=Severity.BLOCKING)])
    ex = Script([outcome("DELETE FROM flights")])
    run = ask(make_engine({GEN: ex}, gate))
    assert run.stop_reason is StopReason.GUARDRAIL_VIOLATION
    assert run.status is RunStatus.BLOCKED and run.trust_state is TrustState.BLOCKED
    assert len(ex.contexts) == 1  # never retried
    assert run.events[-1].type is EventType.RUN_FAILED


def test_stop_user_cancellation_by_token(make_engine):
    token = CancelToken()

    def cancel_midway(ctx):
        token.cancel()
        return outcome(f"SELECT {ctx.attempt}")

    ex = Script([cancel_midway])
    run = make_engine({GEN: ex}, GateScript([failing()])).run("How many?", cancel=token)
    assert run.stop_reason is StopReason.USER_CANCELLED
    assert run.status is RunStatus.CANCELLED
    assert len(ex.contexts) == 1
    assert run.events[-1].type is EventType.RUN_CANCELLED


def test_stop_user_cancellation_by_keyboard_interrupt(make_engine, tmp_path):
    from zlens_jupyter.store import RunStore

    store = RunStore(tmp_path)
    ex = Script([outcome("SELECT 1"), KeyboardInterrupt()])
    run = make_engine({GEN: ex}, GateScript([failing()]), sink=store).run("How many?")
    assert run.status is RunStatus.CANCELLED
    assert run.stop_reason is StopReason.USER_CANCELLED
    assert run.events[-1].type is EventType.RUN_CANCELLED
    assert store.load(run.id).status is RunStatus.CANCELLED  # persisted, then returned
    assert run.result is not None  # the first attempt's result survives
