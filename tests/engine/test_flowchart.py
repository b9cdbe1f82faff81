"""One test per branch of seed 000's flowchart, named after the branch."""

from __future__ import annotations

from engine_scripts import GateScript, Script, failing, grounded, outcome

from zlens_jupyter.engine import (
    Decision,
    EventType,
    IntentSignals,
    Plan,
    PlannedStep,
    Route,
    RunStatus,
    StepStatus,
    StopReason,
    TrustState,
)
from zlens_jupyter.engine.planner import DeterministicPlanner, planned_step

CERTIFIED = {"name": "Revenue by segment", "status": "certified"}


def certified_signals(question: str) -> IntentSignals:
    return IntentSignals(certified_score=0.9, certified_block="Revenue by segment")


class MultiStepPlanner(DeterministicPlanner):
    def __init__(self, *routes: Route) -> None:
        self.routes = routes

    def plan(self, request, route, budget):  # type: ignore[no-untyped-def]
        return Plan(steps=[planned_step(r) for r in self.routes], source="test")


def types(run):
    return [e.type for e in run.events]


def test_intent_then_plan_then_queue(make_engine):
    run = make_engine({Route.GENERATED_ANSWER: Script([outcome()])}).run("How many flights?")
    assert types(run)[:5] == [
        EventType.RUN_STARTED,
        EventType.PLAN_CREATED,
        EventType.STEP_STARTED,
        EventType.ROUTE_DECIDED,
        EventType.EXECUTOR_STARTED,
    ]
    assert run.action is not None and run.plan is not None and run.plan.source == "deterministic"
    assert [s.route for s in run.plan.steps] == [Route.GENERATED_ANSWER]


def test_queue_empty_goes_to_finalize(make_engine):
    run = make_engine({Route.GENERATED_ANSWER: Script([outcome()])}).run("How many flights?")
    assert run.stop_reason is StopReason.FINAL_ANSWER
    assert run.status is RunStatus.COMPLETED
    assert types(run)[-1] is EventType.RUN_COMPLETED
    assert run.answer == "There are 42." and run.result["rows"] == [[42]]


def test_step_count_at_limit_goes_to_finalize(make_engine):
    planner = MultiStepPlanner(*[Route.GENERATED_ANSWER] * 4)
    ex = Script([outcome(f"SELECT {i}") for i in range(10)])
    engine = make_engine({Route.GENERATED_ANSWER: ex}, planner=planner)
    run = engine.run(
        "How many flights?",
    )
    assert len(run.steps) == 4
    run = engine.run(
        __import__("zlens_jupyter.engine", fromlist=["RunRequest"]).RunRequest(
            question="How many flights?",
            budget=engine.budget.merged(max_steps=2),
        )
    )
    assert len(run.steps) == 2 and run.stop_reason is StopReason.MAX_STEPS


def test_no_failing_evaluation_passes_the_step(make_engine):
    run = make_engine({Route.GENERATED_ANSWER: Script([outcome()])}).run("How many flights?")
    assert run.steps[0].status is StepStatus.PASSED
    assert run.trust_state is TrustState.GROUNDED


def test_failing_evaluation_without_repair_passes_but_lowers_trust(make_engine):
    gate = GateScript(grounded() + [failing("answer-shape", hint=None)])
    run = make_engine({Route.GENERATED_ANSWER: Script([outcome()])}, gate).run("How many flights?")
    assert run.steps[0].status is StepStatus.PASSED
    assert len(run.steps[0].attempts) == 1
    assert run.trust_state is TrustState.REVIEW_REQUIRED


def test_repair_retries_same_route_with_hint(make_engine):
    ex = Script([outcome("SELECT bad"), outcome("SELECT good")])
    gate = GateScript(
        grounded() + [failing(hint="use column dep_delay", prose="try harder")], grounded()
    )
    run = make_engine({Route.GENERATED_ANSWER: ex}, gate).run("How many flights?")
    step = run.steps[0]
    assert step.status is StepStatus.REPAIRED and step.repairs == 1
    # The machine hint of the failing evaluation wins over its prose.
    assert ex.contexts[1].hint == "use column dep_delay"
    assert ex.contexts[1].previous is not None and ex.contexts[1].previous.sql == "SELECT bad"
    assert run.sql == "SELECT good" and run.trust_state is TrustState.GROUNDED
    assert EventType.REPAIR_ATTEMPTED in types(run)


def test_prose_hint_used_when_no_machine_hint(make_engine):
    ex = Script([outcome("SELECT bad"), outcome("SELECT good")])
    bad = failing(hint=None, prose="group by carrier")
    run = make_engine({Route.GENERATED_ANSWER: ex}, GateScript([bad], grounded())).run("q?")
    assert ex.contexts[1].hint == "group by carrier"
    assert run.steps[0].status is StepStatus.REPAIRED


def test_exhausted_repair_budget_needs_review_with_best_result(make_engine):
    ex = Script([outcome(f"SELECT {i}") for i in range(5)])
    gate = GateScript(grounded() + [failing()])
    run = make_engine({Route.GENERATED_ANSWER: ex}, gate).run("How many flights?")
    step = run.steps[0]
    assert step.status is StepStatus.NEEDS_REVIEW
    assert step.repairs == 2 and len(step.attempts) == 3
    assert run.status is RunStatus.NEEDS_REVIEW
    assert run.trust_state is TrustState.REVIEW_REQUIRED
    assert run.result is not None  # the best result is kept, not thrown away


def test_escalate_unshifts_mapped_route(make_engine):
    research = Script([outcome("SELECT research")])
    gen = Script([outcome("SELECT gen")])
    gate = GateScript([failing(escalate=True, hint="compare periods")], grounded())
    run = make_engine({Route.GENERATED_ANSWER: gen, Route.RESEARCH: research}, gate).run(
        "How many?"
    )
    assert [s.route for s in run.steps] == [Route.GENERATED_ANSWER, Route.RESEARCH]
    assert run.steps[0].status is StepStatus.ESCALATED
    assert run.steps[1].escalated_from is Route.GENERATED_ANSWER
    assert research.contexts[0].hint == "compare periods"  # the hint reaches the escalated step
    assert run.usage.escalations == 1 and run.route is Route.RESEARCH


def test_clarify_asks_one_question_and_stops(make_engine):
    gate = GateScript([failing("catalog-grounding", hint=None, question="Revenue or order count?")])
    ex = Script([outcome()])
    run = make_engine({Route.GENERATED_ANSWER: ex}, gate).run("How big is it?")
    assert run.status is RunStatus.NEEDS_CLARIFICATION
    assert run.clarification == "Revenue or order count?"
    assert run.stop_reason is StopReason.CLARIFICATION
    assert run.trust_state is TrustState.NOT_APPLICABLE
    assert len(ex.contexts) == 1


def test_executor_clarification_stops_the_run(make_engine):
    ex = Script(
        [outcome(answer=None, result=None, clarification="Which measure: revenue or units?")]
    )
    run = make_engine({Route.GENERATED_ANSWER: ex}).run("How much?")
    assert run.status is RunStatus.NEEDS_CLARIFICATION
    assert run.clarification == "Which measure: revenue or units?"


def test_accept_when_escalation_has_nowhere_to_go(make_engine):
    gate = GateScript([failing(escalate=True)])
    run = make_engine({Route.SQL_CELL: Script([outcome()])}, gate).run("write sql for flights")
    assert run.replans[0]["decision"] == Decision.ACCEPT.value
    assert run.steps[0].status is StepStatus.PASSED
    assert run.trust_state is TrustState.REVIEW_REQUIRED


def test_certified_completion_is_terminal_success(make_engine):
    planner = MultiStepPlanner(Route.CERTIFIED_ANSWER, Route.RESEARCH)
    certified = Script([outcome(certified_block=CERTIFIED)])
    research = Script([outcome("SELECT r")])
    engine = make_engine(
        {Route.CERTIFIED_ANSWER: certified, Route.RESEARCH: research},
        planner=planner,
        signals=certified_signals,
    )
    run = engine.run("revenue by segment")
    assert len(run.steps) == 1 and research.contexts == []
    assert run.trust_state is TrustState.CERTIFIED
    assert run.status is RunStatus.COMPLETED


def test_not_terminal_advances_to_next_step(make_engine):
    planner = MultiStepPlanner(Route.GENERATED_ANSWER, Route.RESEARCH)
    run = make_engine(
        {
            Route.GENERATED_ANSWER: Script([outcome("SELECT 1")]),
            Route.RESEARCH: Script([outcome("SELECT 2")]),
        },
        planner=planner,
    ).run("q?")
    assert [s.status for s in run.steps] == [StepStatus.PASSED, StepStatus.PASSED]
    assert run.sql == "SELECT 2"


def test_loop_never_certifies_generated_output(make_engine):
    # Even an executor that claims a certified block cannot lift a generated route.
    ex = Script([outcome(certified_block=CERTIFIED)])
    run = make_engine({Route.GENERATED_ANSWER: ex}).run("How many flights?")
    assert run.trust_state is TrustState.GROUNDED


def test_certified_route_without_certified_block_is_not_certified(make_engine):
    ex = Script([outcome(certified_block={"name": "x", "status": "draft"})])
    run = make_engine({Route.CERTIFIED_ANSWER: ex}, signals=certified_signals).run("revenue")
    assert run.trust_state is not TrustState.CERTIFIED


def test_missing_route_escalates_honestly(make_engine):
    draft = Script([outcome("SELECT draft")])
    run = make_engine({Route.DQL_BLOCK_DRAFT: draft}).run("build me a dashboard of revenue")
    assert run.steps[0].route is Route.APP_BUILD
    assert run.steps[0].attempts[0].evaluations[0].id == "route-available"
    assert run.steps[1].route is Route.DQL_BLOCK_DRAFT
    assert run.trust_state is TrustState.REVIEW_REQUIRED


def test_model_plan_with_two_steps_runs_both(make_engine):
    class Model:
        def propose(self, request, route, budget):  # type: ignore[no-untyped-def]
            return [
                PlannedStep(route=Route.GENERATED_ANSWER, goal="a"),
                PlannedStep(route=Route.RESEARCH, goal="b"),
            ]

    from zlens_jupyter.engine import FallbackPlanner

    run = make_engine(
        {
            Route.GENERATED_ANSWER: Script([outcome("SELECT 1")]),
            Route.RESEARCH: Script([outcome("SELECT 2")]),
        },
        planner=FallbackPlanner(Model()),
    ).run("q?")
    assert run.plan.source == "model" and len(run.steps) == 2
