"""Scripted executors and gates: the real Engine, driven by outcomes a test writes down."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from zlens_jupyter.engine import (
    Evaluation,
    RepairAction,
    RepairKind,
    Route,
    Severity,
    StepContext,
    StepOutcome,
)

RESULT = {"columns": ["n"], "rows": [[42]], "row_count": 1, "truncated": False}


def outcome(sql: str = "SELECT 42", **kw: Any) -> StepOutcome:
    kw.setdefault("answer", "There are 42.")
    kw.setdefault("result", dict(RESULT))
    kw.setdefault("action_key", sql)
    return StepOutcome(sql=sql, **kw)


def grounded() -> list[Evaluation]:
    return [
        Evaluation(id="result-executed", label="Executed", passed=True),
        Evaluation(id="catalog-grounding", label="Grounded", passed=True),
    ]


def failing(
    eval_id: str = "semantic-cardinality",
    *,
    hint: str | None = "fix it",
    escalate_to: Route | None = None,
    escalate: bool = False,
    severity: Severity = Severity.WARNING,
    prose: str | None = None,
    question: str | None = None,
) -> Evaluation:
    action = None
    if escalate or escalate_to:
        action = RepairAction(kind=RepairKind.ESCALATE, route=escalate_to, hint=hint)
    elif hint is not None:
        action = RepairAction(kind=RepairKind.RETRY, hint=hint)
    evidence = {"question": question} if question else None
    return Evaluation(
        id=eval_id,
        label=eval_id.title(),
        passed=False,
        severity=severity,
        message=f"{eval_id} failed",
        suggested_repair=prose,
        repair_action=action,
        evidence=evidence,
    )


class Script:
    """An executor that replays a FIFO of outcomes (or exceptions) and records its contexts."""

    def __init__(
        self,
        items: Iterable[StepOutcome | BaseException | Callable[[StepContext], StepOutcome]],
        *,
        idempotent: bool = True,
        repeat_last: bool = True,
    ) -> None:
        self.items = deque(items)
        self.last: Any = None
        self.contexts: list[StepContext] = []
        self.idempotent = idempotent
        self.repeat_last = repeat_last

    def __call__(self, ctx: StepContext) -> StepOutcome:
        self.contexts.append(ctx)
        if self.items:
            self.last = self.items.popleft()
        elif not self.repeat_last:
            raise AssertionError("script exhausted")
        item = self.last
        if isinstance(item, BaseException):
            raise item
        if callable(item) and not isinstance(item, StepOutcome):
            return item(ctx)
        return item


class GateScript:
    """A gate that returns scripted evaluations per call (the last list repeats)."""

    def __init__(self, *rounds: list[Evaluation]) -> None:
        self.rounds = deque(rounds)
        self.last: list[Evaluation] = grounded()
        self.calls = 0

    def __call__(self, ctx: StepContext, out: StepOutcome) -> list[Evaluation]:
        self.calls += 1
        if self.rounds:
            self.last = self.rounds.popleft()
        return [Evaluation.from_dict(e.to_dict()) for e in self.last]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
