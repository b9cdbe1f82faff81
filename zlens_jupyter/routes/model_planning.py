"""The model planner: 1..N steps `{route, goal, success_criteria}` asked of the model as JSON,
validated against the known routes and the step budget, with the deterministic one-step plan
as the fallback on any failure (the engine's `FallbackPlanner` does the falling back).

The model is consulted only where its plan could differ from the deterministic one: an AUTO
question routed to generated_answer or research. A forced mode, a certified match, a
clarification, a greeting or a request the executors will refuse keep their one
deterministic step and cost no tokens.
"""

from __future__ import annotations

from typing import Any

from ..engine import Budget, Mode, Plan, PlannedStep, Route, RunRequest
from ..engine.planner import DeterministicPlanner, FallbackPlanner, Planner, validate_steps
from ..errors import GuardrailViolation, ModelError, TransientError
from ..llm import complete_json, redact_text
from .kit import refuse_unsafe_request
from .model_link import Meter, ModelLink

# Routes a model plan may use: the ones that answer from data with a model behind them.
PLANNABLE = (Route.GENERATED_ANSWER, Route.RESEARCH)
MAX_GOAL_CHARS = 300

_PLANNER_PROMPT = """\
You plan how an analytics assistant answers a question over a DuckDB database.
Routes you may use:
- generated_answer: answer one well-defined question with one grounded query.
- research: investigate a change or a "why" with 2-4 grounded sub-queries.
Use ONE step for a question that asks one thing. Use more steps only when the question asks
for several distinct things, one step each, in the order they should run.
Reply with JSON: {"steps": [{"route": ..., "goal": ..., "success_criteria": [...]}]}."""


def plan_schema(max_steps: int) -> dict[str, Any]:
    """The JSON schema of a plan: 1..max_steps steps over the plannable routes."""
    step = {
        "type": "object",
        "properties": {
            "route": {"type": "string", "enum": [r.value for r in PLANNABLE]},
            "goal": {"type": "string", "minLength": 1, "maxLength": MAX_GOAL_CHARS},
            "success_criteria": {
                "type": "array",
                "items": {"type": "string", "maxLength": 200},
                "maxItems": 6,
            },
        },
        "required": ["route", "goal"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "steps": {"type": "array", "items": step, "minItems": 1, "maxItems": max_steps}
        },
        "required": ["steps"],
        "additionalProperties": False,
    }


class ModelStepPlanner:
    """The engine's `ModelPlanner`: asks the model for steps. Any exception means fallback."""

    def __init__(self, link: ModelLink) -> None:
        self.link = link

    def propose(self, request: RunRequest, route: Route, budget: Budget) -> list[PlannedStep]:
        if self.link.disabled:
            raise ModelError(f"the model is off for this session: {self.link.disabled}")
        messages = [
            {"role": "system", "content": _PLANNER_PROMPT},
            {
                "role": "user",
                "content": f"Question: {request.question}\n"
                f"Suggested route: {route.value}\nAt most {budget.max_steps} steps.",
            },
        ]
        # The engine passes what is left of the run's budget: the plan obeys the run's clock
        # and budgets like every other call (a limit reached here means the fallback plan).
        meter = Meter(
            seconds=budget.deadline_s, tokens=budget.max_tokens, cost_usd=budget.max_cost_usd
        )
        # A charge left by an earlier run of this question that ended before any model step
        # belongs to that run, not to this one.
        self.link.take_planning(request.question)
        provider = self.link.provider(meter)
        try:
            reply = complete_json(provider, messages, plan_schema(budget.max_steps), name="plan")
        except (ModelError, TransientError) as exc:
            self.link.note_failure(exc)
            raise
        finally:
            self.link.supports_json_schema = provider.supports_json_schema
            self.link.charge_planning(request.question, meter.spent)
            provider.close()
        steps = [planned(entry) for entry in reply.value["steps"]]
        validate_steps(steps, budget)
        return steps


def planned(entry: dict[str, Any]) -> PlannedStep:
    """One validated JSON step as the engine's PlannedStep (unknown routes raise)."""
    route = Route(entry["route"])
    if route not in PLANNABLE:
        raise ValueError(f"route {route.value} cannot be planned by the model")
    # The goal is model text that ends up in events and the store: scrub it like any output.
    return PlannedStep(
        route=route,
        goal=redact_text(str(entry["goal"]).strip()[:MAX_GOAL_CHARS]),
        success_criteria=[redact_text(str(c)) for c in entry.get("success_criteria", [])],
    )


class ConsultingPlanner(FallbackPlanner):
    """FallbackPlanner that consults the model only where a plan could differ."""

    def plan(self, request: RunRequest, route: Route, budget: Budget) -> Plan:
        if request.mode is not Mode.AUTO or route not in PLANNABLE or unsafe(request.question):
            return DeterministicPlanner.plan(self, request, route, budget)
        return super().plan(request, route, budget)


def unsafe(question: str) -> bool:
    """A request the executors will refuse anyway is not worth sending to the model."""
    try:
        refuse_unsafe_request(question)
    except GuardrailViolation:
        return True
    return False


def model_planner(link: ModelLink) -> Planner:
    """A planner over the session's model link."""
    return ConsultingPlanner(ModelStepPlanner(link))
