"""The run record: what a run decided, did, checked and concluded.

These dataclasses are the one JSON schema shared by the CLI (`--json`), the run store and the
notebook widget. `to_dict()` / `from_dict()` round-trip losslessly.
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Self

from .enums import (
    Action,
    Audience,
    Decision,
    EventType,
    Mode,
    RepairKind,
    Route,
    RunStatus,
    Severity,
    StepStatus,
    StopReason,
    TrustState,
)
from .serde import from_jsonable, to_jsonable

SCHEMA_VERSION = "zlens.run/1"


def new_id(prefix: str = "") -> str:
    return prefix + uuid.uuid4().hex[:16]


_SECOND_TEXT: dict[int, str] = {}


def utc_now() -> str:
    """ISO-8601 UTC with milliseconds, e.g. 2026-11-29T20:50:51.470+00:00.

    Every event carries one, so the formatted second is reused: this is ~4x cheaper than
    datetime.isoformat, which was the largest single cost of an instant step."""
    now = time.time()
    second = int(now)
    head = _SECOND_TEXT.get(second)
    if head is None:
        _SECOND_TEXT.clear()
        head = _SECOND_TEXT[second] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return f"{head}.{int((now - second) * 1000):03d}+00:00"


class Record:
    """Mixin: every record serialises through the same schema-driven functions."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = to_jsonable(self)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return from_jsonable(cls, data)


@dataclass
class RepairAction(Record):
    """The machine-readable repair a gate proposes; its hint wins over prose."""

    kind: RepairKind
    route: Route | None = None
    hint: str | None = None


@dataclass
class Evaluation(Record):
    """One gate check on one attempt."""

    id: str
    label: str
    passed: bool
    severity: Severity = Severity.INFO
    message: str = ""
    evidence: dict[str, Any] | None = None
    suggested_repair: str | None = None
    repair_action: RepairAction | None = None
    attempt: int = 0

    @property
    def actionable(self) -> bool:
        """A failure the loop can act on: the flowchart's "failing eval with a repair"."""
        return not self.passed and (
            self.repair_action is not None
            or bool(self.suggested_repair)
            or bool((self.evidence or {}).get("question"))
        )


@dataclass
class Artifact(Record):
    kind: str  # answer | research_run | sql_cell | dql_block_draft | app_draft | clarification
    title: str
    content: dict[str, Any]
    route: Route | None = None
    step_index: int | None = None
    id: str = field(default_factory=lambda: new_id("art_"))


@dataclass
class Event(Record):
    id: str
    run_id: str
    seq: int
    at: str
    type: EventType
    message: str = ""
    route: Route | None = None
    status: str | None = None
    trust_state: TrustState | None = None
    payload: dict[str, Any] | None = None


@dataclass
class PlannedStep(Record):
    route: Route
    goal: str
    success_criteria: list[str] = field(default_factory=list)
    hint: str | None = None
    escalated_from: Route | None = None


@dataclass
class Plan(Record):
    steps: list[PlannedStep]
    source: str = "deterministic"  # deterministic | model
    fallback_reason: str | None = None


@dataclass
class Attempt(Record):
    """One execution of a step's route, with what the gates said about it."""

    number: int
    hint: str | None = None
    action_key: str | None = None
    answer: str | None = None
    sql: str | None = None
    result: dict[str, Any] | None = None
    evaluations: list[Evaluation] = field(default_factory=list)
    tokens: int = 0
    cost_usd: float = 0.0
    elapsed_ms: float = 0.0
    error: str | None = None
    # Audit trail: what the model literally said, and what we understood it to mean.
    raw_model_output: str | None = None
    parsed_intent: dict[str, Any] | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    certified_block: dict[str, Any] | None = None
    clarification: str | None = None
    transient_retries: int = 0

    @property
    def failing(self) -> list[Evaluation]:
        return [e for e in self.evaluations if not e.passed]


@dataclass
class Step(Record):
    index: int
    route: Route
    goal: str
    status: StepStatus = StepStatus.PENDING
    attempts: list[Attempt] = field(default_factory=list)
    repairs: int = 0
    escalated_from: Route | None = None
    escalated_to: Route | None = None
    hint: str | None = None
    best_attempt: int | None = None
    started_at: str | None = None
    ended_at: str | None = None

    @property
    def best(self) -> Attempt | None:
        if self.best_attempt is None:
            return None
        return self.attempts[self.best_attempt]

    @property
    def evaluations(self) -> list[Evaluation]:
        return [e for a in self.attempts for e in a.evaluations]


@dataclass
class Budget(Record):
    """Hard limits for one run. Defaults follow the seed: 4 steps, 2 repairs per step."""

    max_steps: int = 4
    max_repairs_per_step: int = 2
    max_escalations: int = 2
    max_tokens: int = 200_000
    max_cost_usd: float = 2.0
    deadline_s: float = 120.0
    max_transient_retries: int = 2

    def merged(self, **overrides: Any) -> Budget:
        given = {k: v for k, v in overrides.items() if v is not None}
        return dataclasses.replace(self, **given)


@dataclass
class Usage(Record):
    """What a run has spent. Only ever grows, so what is left only ever shrinks."""

    steps: int = 0
    repairs: int = 0
    escalations: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    elapsed_s: float = 0.0

    def remaining(self, budget: Budget) -> dict[str, float]:
        return {
            "steps": budget.max_steps - self.steps,
            "escalations": budget.max_escalations - self.escalations,
            "tokens": budget.max_tokens - self.tokens,
            "cost_usd": round(budget.max_cost_usd - self.cost_usd, 6),
            "seconds": round(budget.deadline_s - self.elapsed_s, 3),
        }


@dataclass
class IntentSignals(Record):
    """What the catalog says about a question before any route runs."""

    certified_score: float = 0.0
    certified_block: str | None = None
    metric_score: float = 0.0
    has_retrieval: bool = False
    missing_context: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class RunRequest(Record):
    question: str
    mode: Mode = Mode.AUTO
    audience: Audience = Audience.ANALYST
    budget: Budget | None = None
    context: dict[str, Any] = field(default_factory=dict)
    run_id: str | None = None


@dataclass
class AgentRun(Record):
    id: str
    question: str
    schema: str = SCHEMA_VERSION
    mode: Mode = Mode.AUTO
    audience: Audience = Audience.ANALYST
    status: RunStatus = RunStatus.RUNNING
    trust_state: TrustState | None = None
    trust_reason: str = ""
    action: Action | None = None
    route: Route | None = None
    stop_reason: StopReason | None = None
    answer: str | None = None
    sql: str | None = None
    result: dict[str, Any] | None = None
    summary: str = ""
    clarification: str | None = None
    signals: IntentSignals | None = None
    plan: Plan | None = None
    steps: list[Step] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    artifacts: list[Artifact] = field(default_factory=list)
    budget: Budget = field(default_factory=Budget)
    usage: Usage = field(default_factory=Usage)
    replans: list[dict[str, Any]] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    started_at: str = field(default_factory=utc_now)
    ended_at: str | None = None
    error: str | None = None

    @property
    def evaluations(self) -> list[Evaluation]:
        return [e for s in self.steps for e in s.evaluations]

    @property
    def df(self) -> Any:
        """The result as a pandas DataFrame (pandas is imported only when asked for)."""
        import pandas as pd

        result = self.result or {"columns": [], "rows": []}
        return pd.DataFrame([list(r) for r in result["rows"]], columns=result["columns"])

    def __repr__(self) -> str:
        trust = self.trust_state.value if self.trust_state else "-"
        return (
            f"<AgentRun {self.id} {self.status.value} trust={trust} "
            f"route={self.route.value if self.route else '-'} question={self.question!r}>"
        )


__all__ = [
    "SCHEMA_VERSION",
    "Action",
    "AgentRun",
    "Artifact",
    "Attempt",
    "Budget",
    "Decision",
    "Evaluation",
    "Event",
    "IntentSignals",
    "Plan",
    "PlannedStep",
    "RepairAction",
    "RunRequest",
    "Step",
    "Usage",
]
