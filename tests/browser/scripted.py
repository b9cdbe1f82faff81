"""Runs the browser tests' notebooks drive from their cells (copied next to the notebooks).

The real Engine, RunPanel and answer bundle, with scripted executors that take their time so
the browser can watch each phase. The magics come later; these cells call the APIs directly.
"""

from __future__ import annotations

import time

from IPython.display import display

from zlens_jupyter.engine import (
    AgentRun,
    DeterministicPlanner,
    Engine,
    Evaluation,
    RepairAction,
    RepairKind,
    Route,
    Severity,
    StepContext,
    StepOutcome,
)
from zlens_jupyter.notebook.render import answer_outputs
from zlens_jupyter.notebook.widget import RunPanel

QUESTION = "What is revenue by segment?"
SQL = "SELECT segment, SUM(amount) AS revenue\nFROM orders\nGROUP BY 1\nORDER BY 2 DESC"
RESULT = {
    "columns": ["segment", "revenue"],
    "rows": [["MACHINERY", 1733.0], ["AUTOMOBILE", 1250.5], ["BUILDING", 990.25]],
    "row_count": 3,
    "truncated": False,
}


class SlowPlanner(DeterministicPlanner):
    """Planning and re-planning take a while, as a model planner would."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def plan(self, request, route, budget):  # type: ignore[no-untyped-def]
        time.sleep(self.delay)
        return super().plan(request, route, budget)

    def replan(self, step, failing, escalations_left):  # type: ignore[no-untyped-def]
        time.sleep(self.delay)
        return super().replan(step, failing, escalations_left)


def _escalate(to: Route | None, message: str) -> Evaluation:
    return Evaluation(
        id="shape-fit",
        label="Shape fits question",
        passed=False,
        severity=Severity.WARNING,
        message=message,
        repair_action=RepairAction(kind=RepairKind.ESCALATE, route=to, hint="go deeper"),
    )


def _grounded() -> list[Evaluation]:
    return [
        Evaluation(id="catalog-grounding", label="Catalog grounding", passed=True),
        Evaluation(id="result-executed", label="Result executed", passed=True),
    ]


def three_step_executor(delay: float):  # type: ignore[no-untyped-def]
    """generated_answer -> (escalate) research -> (repair, escalate) sql_cell, which passes."""

    def executor(ctx: StepContext) -> StepOutcome:
        time.sleep(delay)
        if ctx.route is Route.GENERATED_ANSWER:
            # A narration streams, then a check refuses it: the panel must strike it through.
            for word in ("Revenue ", "is ", "4,000."):
                ctx.answer_delta(word)
            ctx.answer_retracted("it stated 4000, not in the result")
            return StepOutcome(
                answer="4,000",
                sql="SELECT 4000",
                tokens=420,
                cost_usd=0.002,
                evaluations=[_escalate(None, "one number for a breakdown")],
            )
        if ctx.route is Route.RESEARCH:
            ctx.tool_called("run_sql_preview", {"sql": SQL})
            ctx.tool_result("run_sql_preview", "3 rows")
            if ctx.attempt == 0:
                retry = Evaluation(
                    id="result-executed",
                    label="Result executed",
                    passed=False,
                    severity=Severity.WARNING,
                    message="Binder Error: column segmnt not found",
                    repair_action=RepairAction(kind=RepairKind.RETRY, hint="use segment"),
                )
                return StepOutcome(sql="SELECT segmnt", evaluations=[retry], tokens=300)
            return StepOutcome(
                answer="Research found 3 segments.",
                sql=SQL,
                result=RESULT,
                tokens=510,
                cost_usd=0.003,
                action_key="research-2",
                evaluations=[_escalate(Route.SQL_CELL, "the user wants a cell")],
            )
        return StepOutcome(
            answer="MACHINERY leads revenue with 1,733.00.",
            sql=SQL,
            result=RESULT,
            tokens=380,
            cost_usd=0.002,
            evaluations=_grounded(),
        )

    return executor


def live_run(delay: float = 0.4) -> tuple[RunPanel, AgentRun]:
    """Display a panel and run a three-step escalating run synchronously in this cell."""
    engine = Engine({r: three_step_executor(delay) for r in Route}, planner=SlowPlanner(delay))
    panel = RunPanel(QUESTION, budget=engine.budget)
    display(panel)
    run = engine.run(QUESTION, on_event=panel.on_event)
    panel.finish(run)
    return panel, run


def long_run(seconds: float = 120.0) -> tuple[RunPanel, AgentRun]:
    """A run whose only step takes minutes: the test stops it with the panel's Stop button.

    The Engine turns the kernel interrupt (KeyboardInterrupt) into a cancelled run.
    """

    def executor(ctx: StepContext) -> StepOutcome:
        time.sleep(seconds)
        return StepOutcome(answer="too late", sql=SQL, result=RESULT, evaluations=_grounded())

    engine = Engine({r: executor for r in Route})
    panel = RunPanel("How many flights left JFK in 2013?", budget=engine.budget)
    display(panel)
    run = engine.run(panel.question, on_event=panel.on_event)
    panel.finish(run)
    print(f"run ended: {run.status.value}")
    return panel, run


def grounded_run() -> AgentRun:
    """A quick one-step grounded run (no display)."""

    def executor(ctx: StepContext) -> StepOutcome:
        return StepOutcome(
            answer="MACHINERY leads revenue with 1,733.00.",
            sql=SQL,
            result=RESULT,
            evaluations=_grounded(),
        )

    return Engine({r: executor for r in Route}).run(QUESTION)


def show_answer() -> AgentRun:
    """Display the static answer bundle of a grounded run, as the magic will."""
    run = grounded_run()
    for data, metadata in answer_outputs(run):
        display(data, metadata=metadata, raw=True)
    return run


def unfinished_panel() -> RunPanel:
    """A panel fed every event of a finished run but never `finish()`ed: only the events
    (replayed on request) can tell a newly loaded page what happened."""
    engine = Engine({r: three_step_executor(0.0) for r in Route})
    panel = RunPanel(QUESTION, budget=engine.budget)
    engine.run(QUESTION, on_event=panel.on_event)
    return panel
