"""Per-step repair budgets, escalation hints, audience constraints, intent and planning."""

from __future__ import annotations

import pytest
from engine_scripts import GateScript, Script, failing, grounded, outcome

from zlens_jupyter.engine import (
    Action,
    Audience,
    Budget,
    Decision,
    DeterministicPlanner,
    FallbackPlanner,
    IntentSignals,
    Mode,
    PlannedStep,
    Route,
    RunRequest,
    StepStatus,
    decide_action,
    select_route,
)
from zlens_jupyter.engine.planner import planned_step


def test_repair_budget_is_per_step_so_a_later_step_is_not_starved(make_engine):
    # Step 1 spends both its repairs and escalates; step 2 still gets its own two repairs.
    gate = GateScript(
        [failing()], [failing()], [failing(escalate=True)], [failing()], [failing()], grounded()
    )
    gen = Script([outcome(f"SELECT g{i}") for i in range(3)])
    research = Script([outcome(f"SELECT r{i}") for i in range(3)])
    engine = make_engine(
        {Route.GENERATED_ANSWER: gen, Route.RESEARCH: research},
        gate,
        budget=Budget(max_repairs_per_step=3),
    )
    run = engine.run("q?")
    assert run.steps[0].repairs == 2 and run.steps[0].status is StepStatus.ESCALATED
    assert run.steps[1].repairs == 2 and run.steps[1].status is StepStatus.REPAIRED


def test_two_steps_each_get_two_repairs_with_default_budget(make_engine):
    class TwoSteps(DeterministicPlanner):
        def plan(self, request, route, budget):  # type: ignore[no-untyped-def]
            from zlens_jupyter.engine import Plan

            return Plan(steps=[planned_step(Route.GENERATED_ANSWER), planned_step(Route.RESEARCH)])

    gate = GateScript([failing()], [failing()], grounded(), [failing()], [failing()], grounded())
    run = make_engine(
        {
            Route.GENERATED_ANSWER: Script([outcome(f"SELECT g{i}") for i in range(3)]),
            Route.RESEARCH: Script([outcome(f"SELECT r{i}") for i in range(3)]),
        },
        gate,
        planner=TwoSteps(),
    ).run("q?")
    assert [s.repairs for s in run.steps] == [2, 2]
    assert [s.status for s in run.steps] == [StepStatus.REPAIRED, StepStatus.REPAIRED]
    assert run.usage.repairs == 4


def test_escalation_budget_bounds_escalations(make_engine):
    gate = GateScript([failing(escalate=True, hint="deeper")])
    engine = make_engine(
        {
            Route.GENERATED_ANSWER: Script([outcome("SELECT 1")]),
            Route.RESEARCH: Script([outcome("SELECT 2")]),
        },
        gate,
    )
    run = engine.run(RunRequest(question="q?", budget=Budget(max_escalations=0)))
    assert len(run.steps) == 1 and run.replans[0]["decision"] == Decision.ACCEPT.value


def test_escalation_carries_the_hint(make_engine):
    research = Script([outcome("SELECT r")])
    gate = GateScript([failing(escalate=True, hint="compare December with November")], grounded())
    make_engine(
        {Route.CERTIFIED_ANSWER: Script([outcome("SELECT c")]), Route.RESEARCH: research},
        gate,
        signals=lambda q: IntentSignals(certified_score=0.7),
    ).run("revenue by month")
    assert research.contexts[0].hint == "compare December with November"


@pytest.mark.parametrize("question", ["write sql for revenue by segment", "draft a dql block"])
def test_audience_stakeholder_never_lands_on_code_routes(question):
    for mode in (Mode.AUTO, Mode.SQL, Mode.BLOCK):
        route = select_route(
            Action.ANSWER, question, IntentSignals(), mode=mode, audience=Audience.STAKEHOLDER
        )
        assert route not in (Route.SQL_CELL, Route.DQL_BLOCK_DRAFT)
    assert select_route(Action.ANSWER, question, IntentSignals()) in (
        Route.SQL_CELL,
        Route.DQL_BLOCK_DRAFT,
    )


def test_audience_constraint_in_a_full_run(make_engine):
    ex = Script([outcome()])
    run = make_engine({Route.GENERATED_ANSWER: ex}).run(
        RunRequest(question="write sql for flights per carrier", audience=Audience.STAKEHOLDER)
    )
    assert run.steps[0].route is Route.GENERATED_ANSWER


@pytest.mark.parametrize(
    ("question", "signals", "action"),
    [
        ("hello", IntentSignals(), Action.CONVERSE),
        ("thanks!", IntentSignals(), Action.CONVERSE),
        ("build me a dashboard of revenue", IntentSignals(), Action.COMPOSE_APP),
        (
            "why did revenue drop in December?",
            IntentSignals(certified_score=0.9),
            Action.INVESTIGATE,
        ),
        ("what drove the increase in orders", IntentSignals(), Action.INVESTIGATE),
        ("what are the drivers of churn", IntentSignals(), Action.INVESTIGATE),
        # "driver" as a thing the data holds (an airbag for the driver) is no investigation
        ("how many cars have a driver airbag", IntentSignals(), Action.ANSWER),
        ("revenue by segment", IntentSignals(certified_score=0.8), Action.ANSWER),
        ("how big is the thing", IntentSignals(missing_context=True), Action.CLARIFY),
        (
            "how many flights",
            IntentSignals(missing_context=True, has_retrieval=True),
            Action.ANSWER,
        ),
        ("how many flights", IntentSignals(), Action.ANSWER),
    ],
)
def test_decide_action(question, signals, action):
    assert decide_action(question, signals) is action


@pytest.mark.parametrize(
    ("mode", "action", "question", "score", "route"),
    [
        (Mode.RESEARCH, Action.ANSWER, "revenue", 0.9, Route.RESEARCH),
        (Mode.SQL, Action.ANSWER, "revenue", 0.9, Route.SQL_CELL),
        (Mode.BLOCK, Action.ANSWER, "revenue", 0.0, Route.DQL_BLOCK_DRAFT),
        (Mode.APP, Action.ANSWER, "revenue", 0.0, Route.APP_BUILD),
        (Mode.ASK, Action.INVESTIGATE, "why revenue", 0.0, Route.GENERATED_ANSWER),
        (Mode.ASK, Action.ANSWER, "revenue", 0.6, Route.CERTIFIED_ANSWER),
        (Mode.AUTO, Action.ANSWER, "write sql for revenue", 0.9, Route.SQL_CELL),
        (Mode.AUTO, Action.ANSWER, "draft a dql block for revenue", 0.9, Route.DQL_BLOCK_DRAFT),
        (Mode.AUTO, Action.COMPOSE_APP, "dashboard", 0.9, Route.APP_BUILD),
        (Mode.AUTO, Action.ANSWER, "revenue by segment", 0.5, Route.CERTIFIED_ANSWER),
        (Mode.AUTO, Action.ANSWER, "revenue by segment", 0.49, Route.GENERATED_ANSWER),
        (Mode.AUTO, Action.INVESTIGATE, "why did revenue drop", 0.2, Route.RESEARCH),
        (Mode.AUTO, Action.CLARIFY, "how big", 0.0, Route.CLARIFY),
        (Mode.AUTO, Action.CONVERSE, "hi", 0.0, Route.CONVERSE),
    ],
)
def test_select_route(mode, action, question, score, route):
    signals = IntentSignals(certified_score=score)
    assert select_route(action, question, signals, mode=mode) is route


class _Model:
    def __init__(self, result):
        self.result = result

    def propose(self, request, route, budget):  # type: ignore[no-untyped-def]
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


@pytest.mark.parametrize(
    "bad",
    [
        RuntimeError("model unreachable"),
        [],
        [PlannedStep(route=Route.RESEARCH, goal="x")] * 5,
        [PlannedStep(route="teleport", goal="x")],  # type: ignore[arg-type]
    ],
)
def test_model_planner_falls_back_to_deterministic_plan(bad):
    plan = FallbackPlanner(_Model(bad)).plan(
        RunRequest(question="q"), Route.GENERATED_ANSWER, Budget()
    )
    assert plan.source == "deterministic" and plan.fallback_reason
    assert [s.route for s in plan.steps] == [Route.GENERATED_ANSWER]


def test_model_planner_plan_is_used_when_valid():
    steps = [
        PlannedStep(route=Route.GENERATED_ANSWER, goal="a"),
        PlannedStep(route=Route.RESEARCH, goal="b"),
    ]
    plan = FallbackPlanner(_Model(steps)).plan(RunRequest(question="q"), Route.RESEARCH, Budget())
    assert plan.source == "model" and len(plan.steps) == 2


def test_model_planner_failure_recorded_on_run(make_engine):
    run = make_engine(
        {Route.GENERATED_ANSWER: Script([outcome()])},
        planner=FallbackPlanner(_Model(RuntimeError("503"))),
    ).run("q?")
    assert run.plan.fallback_reason == "RuntimeError: 503"
    assert run.status.value == "completed"
