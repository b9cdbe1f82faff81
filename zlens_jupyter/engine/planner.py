"""Planning: which steps to run, and what to do when a step's gate fails.

The deterministic planner is the default and the fallback. A model planner plugs in through
`FallbackPlanner`, which validates its plan and falls back on any failure, so a misbehaving
model can never leave the loop without a plan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .enums import Decision, RepairKind, Route
from .records import Budget, Evaluation, Plan, PlannedStep, RunRequest, Step

ESCALATION_MAP: dict[Route, Route] = {
    Route.CERTIFIED_ANSWER: Route.RESEARCH,
    Route.GENERATED_ANSWER: Route.RESEARCH,
    Route.APP_BUILD: Route.DQL_BLOCK_DRAFT,
}

_GOALS = {
    Route.CERTIFIED_ANSWER: "Answer from the matching certified block",
    Route.GENERATED_ANSWER: "Ground the question in the catalog and answer it with one query",
    Route.RESEARCH: "Investigate with grounded sub-queries and summarise the findings",
    Route.SQL_CELL: "Write grounded SQL for a notebook cell",
    Route.DQL_BLOCK_DRAFT: "Draft a reviewable DQL block",
    Route.APP_BUILD: "Compose an app from certified blocks",
    Route.CLARIFY: "Ask one clarifying question",
    Route.CONVERSE: "Reply briefly and say what can be asked",
}

_CRITERIA = {
    Route.CERTIFIED_ANSWER: ["certified block runs unchanged", "its tests pass"],
    Route.GENERATED_ANSWER: ["grounded in catalog", "query executes", "shape fits question"],
    Route.RESEARCH: ["2-4 grounded sub-queries execute", "findings cite evidence"],
    Route.SQL_CELL: ["read-only", "grounded in catalog", "executes"],
    Route.DQL_BLOCK_DRAFT: ["block parses", "query executes", "tests pass"],
}


@dataclass(frozen=True)
class ReplanOutcome:
    decision: Decision
    reason: str
    hint: str | None = None
    route: Route | None = None
    question: str | None = None


class Planner(Protocol):
    def plan(self, request: RunRequest, route: Route, budget: Budget) -> Plan: ...

    def replan(
        self, step: Step, failing: list[Evaluation], escalations_left: int
    ) -> ReplanOutcome: ...


def planned_step(route: Route, *, hint: str | None = None, escalated_from: Route | None = None):
    return PlannedStep(
        route=route,
        goal=_GOALS[route],
        success_criteria=list(_CRITERIA.get(route, [])),
        hint=hint,
        escalated_from=escalated_from,
    )


def repair_hint(evaluation: Evaluation) -> str | None:
    """The machine hint of a failing evaluation wins over its prose suggestion."""
    if evaluation.repair_action and evaluation.repair_action.hint:
        return evaluation.repair_action.hint
    return evaluation.suggested_repair


class DeterministicPlanner:
    """One step per run; replan reads the first actionable failing evaluation."""

    def plan(self, request: RunRequest, route: Route, budget: Budget) -> Plan:
        return Plan(steps=[planned_step(route)], source="deterministic")

    def replan(self, step: Step, failing: list[Evaluation], escalations_left: int) -> ReplanOutcome:
        actionable = [e for e in failing if e.actionable]
        if not actionable:
            return ReplanOutcome(Decision.ACCEPT, "no failing evaluation proposes a repair")
        first = actionable[0]
        question = (first.evidence or {}).get("question")
        if question and first.repair_action is None:
            return ReplanOutcome(Decision.CLARIFY, first.message, question=str(question))
        action = first.repair_action
        if action is not None and action.kind is RepairKind.ESCALATE:
            target = action.route or ESCALATION_MAP.get(step.route)
            if target is None or escalations_left <= 0:
                why = (
                    "escalation budget spent"
                    if target
                    else f"{step.route.value} has no deeper route"
                )
                return ReplanOutcome(Decision.ACCEPT, f"{first.id}: {why}")
            return ReplanOutcome(
                Decision.ESCALATE,
                f"{first.id}: {first.message}",
                hint=repair_hint(first),
                route=target,
            )
        return ReplanOutcome(
            Decision.REPAIR, f"{first.id}: {first.message}", hint=repair_hint(first)
        )


class ModelPlanner(Protocol):
    """What a model-backed planner supplies; any exception means "use the fallback"."""

    def propose(self, request: RunRequest, route: Route, budget: Budget) -> list[PlannedStep]: ...


class FallbackPlanner(DeterministicPlanner):
    """Ask the model for 1..N steps; validate them; fall back to one deterministic step."""

    def __init__(self, model: ModelPlanner) -> None:
        self.model = model

    def plan(self, request: RunRequest, route: Route, budget: Budget) -> Plan:
        try:
            steps = self.model.propose(request, route, budget)
            validate_steps(steps, budget)
        except Exception as exc:  # the seam: any model failure means the deterministic plan
            fallback = super().plan(request, route, budget)
            fallback.fallback_reason = f"{type(exc).__name__}: {exc}"
            return fallback
        return Plan(steps=list(steps), source="model")


def validate_steps(steps: list[PlannedStep], budget: Budget) -> None:
    if not steps:
        raise ValueError("the model proposed no steps")
    if len(steps) > budget.max_steps:
        raise ValueError(f"{len(steps)} steps exceed the step budget of {budget.max_steps}")
    for step in steps:
        if not isinstance(step.route, Route):
            raise ValueError(f"unknown route {step.route!r}")
