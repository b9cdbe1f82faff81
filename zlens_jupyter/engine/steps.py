"""Step bookkeeping for the loop: copying outcomes onto attempts, choosing the best attempt,
and the small predicates the flowchart branches on."""

from __future__ import annotations

from ..errors import UserError
from .contracts import StepOutcome
from .enums import Route, Severity, StepStatus, StopReason
from .records import AgentRun, Artifact, Attempt, PlannedStep, RunRequest, Step, utc_now


def validated(request: RunRequest | str) -> RunRequest:
    if isinstance(request, str):
        request = RunRequest(question=request)
    if not request.question or not request.question.strip():
        raise UserError("The question is empty: ask something, e.g. 'What is revenue by segment?'")
    request.question = request.question.strip()
    return request


def plan_message(run: AgentRun) -> str:
    assert run.plan is not None
    routes = " -> ".join(s.route.value for s in run.plan.steps)
    return f"{len(run.plan.steps)} step plan ({run.plan.source}): {routes}"


def why(planned: PlannedStep) -> dict[str, object]:
    why: dict[str, object] = {"goal": planned.goal, "criteria": planned.success_criteria}
    if planned.escalated_from is not None:
        why["escalated_from"] = planned.escalated_from.value
    if planned.hint:
        why["hint"] = planned.hint
    return why


def copy_outcome(attempt: Attempt, outcome: StepOutcome) -> None:
    attempt.action_key = outcome.action_key
    attempt.answer = outcome.answer
    attempt.sql = outcome.sql
    attempt.result = outcome.result
    attempt.tokens = outcome.tokens
    attempt.cost_usd = outcome.cost_usd
    attempt.raw_model_output = outcome.raw_model_output
    attempt.parsed_intent = outcome.parsed_intent
    attempt.provenance = dict(outcome.provenance)
    attempt.certified_block = outcome.certified_block
    attempt.clarification = outcome.clarification
    if outcome.artifacts:
        attempt.provenance["artifacts"] = [a.to_dict() for a in outcome.artifacts]


def artifacts_of(run: AgentRun, step: Step) -> list[Artifact]:
    best = step.best
    raw = (best.provenance.get("artifacts") if best else None) or []
    return [Artifact.from_dict(a) for a in raw]


def best_attempt(attempts: list[Attempt]) -> int:
    """The attempt to keep if no better one comes: executed, fewest failures, latest."""

    def score(i: int) -> tuple[int, int, int, int]:
        a = attempts[i]
        blocking = sum(1 for e in a.failing if e.severity is Severity.BLOCKING)
        return (
            a.error is None,
            a.result is not None or bool(a.answer),
            -blocking,
            -len(a.failing) * 100 + i,
        )

    return max(range(len(attempts)), key=score)


def passed(step: Step) -> StepStatus:
    """Accepting a step needs something to accept: an attempt that ran and produced output."""
    best = step.best
    if best is None or best.error or not (best.result is not None or best.answer):
        return StepStatus.NEEDS_REVIEW
    return StepStatus.REPAIRED if step.repairs else StepStatus.PASSED


def terminal_success(step: Step) -> bool:
    best = step.best
    return (
        step.route is Route.CERTIFIED_ANSWER
        and step.status in (StepStatus.PASSED, StepStatus.REPAIRED)
        and best is not None
        and bool(best.certified_block)
    )


def blocked(attempt: Attempt) -> bool:
    return any(e.severity is Severity.BLOCKING for e in attempt.failing)


def block_reason(attempt: Attempt) -> StopReason:
    ids = {e.id for e in attempt.failing if e.severity is Severity.BLOCKING}
    return (
        StopReason.EXECUTOR_ERROR if ids <= {"executor-error"} else StopReason.GUARDRAIL_VIOLATION
    )


def cancel_open_step(run: AgentRun) -> None:
    if run.steps and run.steps[-1].status is StepStatus.RUNNING:
        run.steps[-1].status = StepStatus.CANCELLED
        run.steps[-1].ended_at = utc_now()
        if run.steps[-1].attempts:
            run.steps[-1].best_attempt = best_attempt(run.steps[-1].attempts)
