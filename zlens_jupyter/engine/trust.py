"""Trust composition (DESIGN §3): how far the user may trust the run's answer.

The loop can verify but never certify: `certified` needs a certified block that a person
certified, executed unchanged.
"""

from __future__ import annotations

from .enums import Route, RunStatus, Severity, StepStatus, StopReason, TrustState
from .records import Attempt, Step

_CEILING = {
    Route.CERTIFIED_ANSWER: TrustState.CERTIFIED,
    Route.GENERATED_ANSWER: TrustState.GROUNDED,
    Route.RESEARCH: TrustState.GROUNDED,
    Route.SQL_CELL: TrustState.REVIEW_REQUIRED,
    Route.DQL_BLOCK_DRAFT: TrustState.REVIEW_REQUIRED,
    # A dashboard is as trusted as its least trusted tile (`_dashboard_trust`).
    Route.APP_BUILD: TrustState.CERTIFIED,
    Route.CLARIFY: TrustState.NOT_APPLICABLE,
    Route.CONVERSE: TrustState.NOT_APPLICABLE,
}
# What each capped route produced, in the words a reader uses (route names are internal).
_PRODUCT = {
    Route.SQL_CELL: "SQL written for a cell is",
    Route.DQL_BLOCK_DRAFT: "a drafted block is",
    Route.GENERATED_ANSWER: "a generated answer is",
    Route.RESEARCH: "research is",
}
_ORDER = [
    TrustState.BLOCKED,
    TrustState.REVIEW_REQUIRED,
    TrustState.GROUNDED,
    TrustState.CERTIFIED,
]
_GROUNDING_CHECKS = ("catalog-grounding", "result-executed")


def answer_step(steps: list[Step]) -> Step | None:
    """The step whose result the user sees: the last one that produced something."""
    for step in reversed(steps):
        best = step.best
        if best is not None and (best.result is not None or best.answer or best.clarification):
            return step
    return steps[-1] if steps else None


def compose_trust(steps: list[Step], *, cancelled: bool = False) -> tuple[TrustState, str]:
    """Return the trust state and a one-line reason for it."""
    for step in steps:
        for evaluation in step.evaluations:
            if not evaluation.passed and evaluation.severity is Severity.BLOCKING:
                return TrustState.BLOCKED, f"{evaluation.label}: {evaluation.message}"
    answering = answer_step(steps)
    if answering is None or answering.best is None:
        reason = (
            "the run was cancelled before an answer" if cancelled else "no step produced an answer"
        )
        return TrustState.REVIEW_REQUIRED, reason
    best = answering.best
    if best.clarification or answering.route in (Route.CLARIFY, Route.CONVERSE):
        return TrustState.NOT_APPLICABLE, "no data answer was given"
    state, reason = _earned(answering, best)
    ceiling = _CEILING[answering.route]
    if _ORDER.index(state) > _ORDER.index(ceiling):
        limit = ceiling.value.replace("_", " ")
        product = _PRODUCT.get(answering.route, "this kind of answer is")
        return ceiling, f"{product} at most {limit} until a person reviews it"
    return state, reason


def _earned(step: Step, best: Attempt) -> tuple[TrustState, str]:
    if step.status not in (StepStatus.PASSED, StepStatus.REPAIRED):
        return TrustState.REVIEW_REQUIRED, f"step {step.index + 1} ended {step.status.value}"
    if step.route is Route.APP_BUILD:
        return _dashboard_trust(best)
    failing = [e for e in best.evaluations if not e.passed and e.severity is not Severity.INFO]
    block = best.certified_block
    if step.route is Route.CERTIFIED_ANSWER and block and block.get("status") == "certified":
        if failing:
            return TrustState.REVIEW_REQUIRED, f"certified block failed {failing[0].label}"
        return TrustState.CERTIFIED, f'certified block "{block.get("name")}" ran unchanged'
    passed = {e.id for e in best.evaluations if e.passed}
    if all(check in passed for check in _GROUNDING_CHECKS) and not failing:
        return (
            TrustState.GROUNDED,
            "grounded in the catalog and executed; no person has certified it",
        )
    if failing:
        return TrustState.REVIEW_REQUIRED, f"{failing[0].label}: {failing[0].message}"
    return TrustState.REVIEW_REQUIRED, "grounding was not verified"


# A tile label that is not a trust state: a drifted certified block needs a person again.
_TILE_TRUST = {"pending_recertification": TrustState.REVIEW_REQUIRED}


def _dashboard_trust(best: Attempt) -> tuple[TrustState, str]:
    """The dashboard's own label, the lowest of its tiles, as the app_build route set it."""
    said = (best.provenance or {}).get("dashboard") or {}
    label = str(said.get("trust") or "")
    reason = str(said.get("reason") or "no dashboard was composed")
    if label in _TILE_TRUST:
        return _TILE_TRUST[label], f"{label.replace('_', ' ')}: {reason}"
    try:
        return TrustState(label), reason
    except ValueError:
        return TrustState.REVIEW_REQUIRED, reason


def compose_status(steps: list[Step], stop: StopReason, trust: TrustState) -> RunStatus:
    if stop is StopReason.USER_CANCELLED:
        return RunStatus.CANCELLED
    if trust is TrustState.BLOCKED or stop in (
        StopReason.GUARDRAIL_VIOLATION,
        StopReason.EXECUTOR_ERROR,
    ):
        return RunStatus.BLOCKED
    if stop is StopReason.CLARIFICATION:
        return RunStatus.NEEDS_CLARIFICATION
    step = answer_step(steps)
    if step is None or step.status not in (StepStatus.PASSED, StepStatus.REPAIRED):
        return RunStatus.NEEDS_REVIEW
    if stop is not StopReason.FINAL_ANSWER:
        return RunStatus.NEEDS_REVIEW
    return RunStatus.COMPLETED
