"""One attempt of one step, made robust: run the executor (retrying what is transient), then
judge what it produced with the gate. Neither function lets an exception escape."""

from __future__ import annotations

from collections.abc import Callable

from .contracts import Executor, Gate, StepContext, StepOutcome
from .failures import (
    FailureClass,
    backoff_seconds,
    classify_failure,
    failure_evaluation,
    route_unavailable,
)
from .records import Attempt, Evaluation
from .steps import copy_outcome


def execute_attempt(
    executor: Executor | None,
    ctx: StepContext,
    *,
    max_retries: int,
    may_retry: Callable[[], bool],
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> tuple[Attempt, StepOutcome, FailureClass | None]:
    """Run the executor; transient failures of idempotent executors back off and retry while
    `may_retry()` (no stop condition) allows. Other failures become an observation."""
    attempt = Attempt(number=ctx.attempt, hint=ctx.hint)
    if executor is None:
        return attempt, StepOutcome(evaluations=[route_unavailable(ctx.route)]), None
    started = clock()
    retries = 0
    while True:
        try:
            outcome = executor(ctx)
            break
        except Exception as exc:  # classified below; never escapes run()
            failure = classify_failure(exc)
            retryable = getattr(executor, "idempotent", True) and retries < max_retries
            left = ctx.deadline_s - (clock() - started)  # never back off past the deadline
            wait = backoff_seconds(retries)
            if failure is FailureClass.TRANSIENT and retryable and may_retry() and wait < left:
                sleep(wait)
                retries += 1
                continue
            attempt.error = f"{type(exc).__name__}: {exc}"
            attempt.transient_retries = retries
            attempt.elapsed_ms = (clock() - started) * 1000
            return attempt, StepOutcome(evaluations=[failure_evaluation(failure, exc)]), failure
    attempt.transient_retries = retries
    attempt.elapsed_ms = (clock() - started) * 1000
    copy_outcome(attempt, outcome)
    for artifact in outcome.artifacts:
        artifact.route, artifact.step_index = ctx.route, ctx.step_index
    return attempt, outcome, None


def judge_attempt(
    gate: Gate | None, ctx: StepContext, outcome: StepOutcome, attempt: Attempt
) -> list[Evaluation]:
    """The executor's own checks plus the gate's; a gate that raises blocks, never passes."""
    evaluations = list(outcome.evaluations)
    if gate is not None and attempt.error is None:
        try:
            evaluations.extend(gate(ctx, outcome))
        except Exception as exc:
            evaluations.append(failure_evaluation(FailureClass.FATAL, exc, source="gate"))
    for evaluation in evaluations:
        evaluation.attempt = attempt.number
    return evaluations
