"""The closed vocabularies of a run. Values are the strings stored in the run-record JSON."""

from __future__ import annotations

from enum import StrEnum


class Route(StrEnum):
    CERTIFIED_ANSWER = "certified_answer"
    GENERATED_ANSWER = "generated_answer"
    RESEARCH = "research"
    SQL_CELL = "sql_cell"
    DQL_BLOCK_DRAFT = "dql_block_draft"
    APP_BUILD = "app_build"
    CLARIFY = "clarify"
    CONVERSE = "converse"


class Action(StrEnum):
    ANSWER = "answer"
    CLARIFY = "clarify"
    INVESTIGATE = "investigate"
    COMPOSE_APP = "compose_app"
    CONVERSE = "converse"


class Mode(StrEnum):
    """What the user forced with --mode; AUTO lets the intent decide."""

    AUTO = "auto"
    ASK = "ask"
    RESEARCH = "research"
    SQL = "sql"
    BLOCK = "block"
    APP = "app"


class Audience(StrEnum):
    ANALYST = "analyst"
    STAKEHOLDER = "stakeholder"


class RunStatus(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    NEEDS_REVIEW = "needs_review"
    NEEDS_CLARIFICATION = "needs_clarification"
    CANCELLED = "cancelled"
    BLOCKED = "blocked"
    # Only the store assigns this: a checkpoint whose process died before finishing.
    INTERRUPTED = "interrupted"


class TrustState(StrEnum):
    CERTIFIED = "certified"
    GROUNDED = "grounded"
    REVIEW_REQUIRED = "review_required"
    BLOCKED = "blocked"
    NOT_APPLICABLE = "not_applicable"


class StopReason(StrEnum):
    FINAL_ANSWER = "final_answer"
    CLARIFICATION = "clarification"
    MAX_STEPS = "max_steps"
    TOKEN_BUDGET = "token_budget"
    COST_BUDGET = "cost_budget"
    REPEATED_ACTION = "repeated_action"
    OSCILLATION = "oscillation"
    TIMEOUT = "timeout"
    GUARDRAIL_VIOLATION = "guardrail_violation"
    USER_CANCELLED = "user_cancelled"
    EXECUTOR_ERROR = "executor_error"


class StepStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    PASSED = "passed"
    REPAIRED = "repaired"
    NEEDS_REVIEW = "needs_review"
    NEEDS_CLARIFICATION = "needs_clarification"
    ESCALATED = "escalated"
    BLOCKED = "blocked"
    CANCELLED = "cancelled"


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    BLOCKING = "blocking"


class RepairKind(StrEnum):
    RETRY = "retry"
    ESCALATE = "escalate"


class Decision(StrEnum):
    """What replan() chose after a failing gate."""

    REPAIR = "repair"
    ESCALATE = "escalate"
    CLARIFY = "clarify"
    ACCEPT = "accept"


class EventType(StrEnum):
    RUN_STARTED = "run.started"
    PLAN_CREATED = "plan.created"
    STEP_STARTED = "step.started"
    ROUTE_DECIDED = "route.decided"
    EXECUTOR_STARTED = "executor.started"
    TOOL_CALLED = "tool.called"
    TOOL_RESULT = "tool.result"
    EVALUATION_RECORDED = "evaluation.recorded"
    REPLAN_DECIDED = "replan.decided"
    REPAIR_ATTEMPTED = "repair.attempted"
    ESCALATED = "escalated"
    ARTIFACT_CREATED = "artifact.created"
    ANSWER_DELTA = "answer.delta"
    # Streamed text the gates then refused (a number not in the result): withdrawn, on record.
    ANSWER_RETRACTED = "answer.retracted"
    STEP_COMPLETED = "step.completed"
    RUN_COMPLETED = "run.completed"
    RUN_FAILED = "run.failed"
    RUN_CANCELLED = "run.cancelled"


TERMINAL_EVENTS = frozenset(
    {EventType.RUN_COMPLETED, EventType.RUN_FAILED, EventType.RUN_CANCELLED}
)
# Streamed to subscribers as they happen but not kept on the run record.
TRANSIENT_EVENTS = frozenset({EventType.ANSWER_DELTA})
