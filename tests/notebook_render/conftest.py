"""Runs for the rendering tests, made by the real Engine with scripted executors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from zlens_jupyter.engine import (
    AgentRun,
    Artifact,
    Engine,
    Evaluation,
    IntentSignals,
    RepairAction,
    RepairKind,
    Route,
    Severity,
    StepContext,
    StepOutcome,
)

SEGMENT_SQL = (
    "SELECT c.segment, SUM(o.amount) AS revenue\n"
    "FROM orders o JOIN customers c ON c.customer_id = o.customer_id\nGROUP BY 1"
)
SEGMENT_RESULT = {
    "columns": ["segment", "revenue"],
    "rows": [["AUTOMOBILE", 1250.5], ["BUILDING", 990.25], ["MACHINERY", 1733.0]],
    "row_count": 3,
    "truncated": False,
}
GROUNDED = [
    Evaluation(id="catalog-grounding", label="Catalog grounding", passed=True),
    Evaluation(id="result-executed", label="Result executed", passed=True),
]


def grounded_outcome(
    answer: str = "MACHINERY leads revenue with 1,733.00.",
    sql: str = SEGMENT_SQL,
    result: dict[str, Any] | None = None,
    **kw: Any,
) -> StepOutcome:
    return StepOutcome(
        answer=answer,
        sql=sql,
        result=result if result is not None else dict(SEGMENT_RESULT),
        evaluations=[Evaluation(e.id, e.label, e.passed) for e in GROUNDED],
        **kw,
    )


def run_with(
    executor: Callable[[StepContext], StepOutcome],
    question: str = "What is revenue by segment?",
    *,
    signals: IntentSignals | None = None,
) -> AgentRun:
    """One real engine run in which every route is served by `executor`."""
    engine = Engine(
        {route: executor for route in Route},
        signals=(lambda q: signals) if signals is not None else None,
    )
    return engine.run(question)


@pytest.fixture
def make_run() -> Callable[..., AgentRun]:
    """`make_run(executor, question="...")`: a real engine run with a scripted executor."""
    return run_with


@pytest.fixture
def grounded_run() -> AgentRun:
    return run_with(lambda ctx: grounded_outcome())


@pytest.fixture
def escalated_run() -> AgentRun:
    """generated_answer asks to escalate; research answers with a repair on the way."""

    def executor(ctx: StepContext) -> StepOutcome:
        if ctx.route is Route.GENERATED_ANSWER:
            failing = Evaluation(
                id="shape-fit",
                label="Shape fits question",
                passed=False,
                severity=Severity.WARNING,
                message="one number cannot answer a breakdown question",
                repair_action=RepairAction(kind=RepairKind.ESCALATE, hint="break it down"),
            )
            return StepOutcome(answer="4,000", sql="SELECT 4000", evaluations=[failing])
        if ctx.attempt == 0:
            bad = Evaluation(
                id="result-executed",
                label="Result executed",
                passed=False,
                severity=Severity.WARNING,
                message="Binder Error: column segmnt not found",
                repair_action=RepairAction(kind=RepairKind.RETRY, hint="use column segment"),
            )
            return StepOutcome(sql="SELECT segmnt", evaluations=[bad], action_key="a1")
        return grounded_outcome(action_key="a2")

    return run_with(executor)


@pytest.fixture
def certified_run() -> AgentRun:
    def executor(ctx: StepContext) -> StepOutcome:
        block = {"name": "Revenue by segment", "status": "certified"}
        return grounded_outcome(certified_block=block)

    signals = IntentSignals(certified_score=0.92, certified_block="Revenue by segment")
    return run_with(executor, signals=signals)


@pytest.fixture
def blocked_run() -> AgentRun:
    def executor(ctx: StepContext) -> StepOutcome:
        guard = Evaluation(
            id="read-only",
            label="Read-only guard",
            passed=False,
            severity=Severity.BLOCKING,
            message="DROP statements are not allowed <b>here</b>",
        )
        return StepOutcome(sql="DROP TABLE orders", evaluations=[guard])

    return run_with(executor, "Please drop the orders table")


@pytest.fixture
def clarification_run() -> AgentRun:
    def executor(ctx: StepContext) -> StepOutcome:
        return StepOutcome(clarification="Which year do you mean: 2013 or 2014?")

    return run_with(executor, "How many flights were late?")


@pytest.fixture
def draft_artifact_run() -> AgentRun:
    source = 'block "Late flights" {\n  domain = "ops"\n  status = "draft"\n}\n'

    def executor(ctx: StepContext) -> StepOutcome:
        outcome = grounded_outcome()
        outcome.artifacts = [
            Artifact(kind="dql_block_draft", title="Late flights", content={"source": source}),
            Artifact(kind="sql_cell", title="SQL", content={"sql": "SELECT 42 AS answer"}),
        ]
        return outcome

    return run_with(executor)
