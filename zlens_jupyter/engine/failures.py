"""Classified failures (seed 002): what an executor or gate raised decides what happens next.

transient + idempotent  -> back off and try again, a bounded number of times
malformed model output  -> a repair, with the validation error as the hint
context overflow        -> try again with a smaller grounding context
guardrail / permission  -> stop now, never retried
anything else           -> the run ends blocked with an executor-error evaluation
"""

from __future__ import annotations

import socket
from enum import StrEnum

from ..errors import ContextOverflow, GuardrailViolation, MalformedOutput, TransientError
from .enums import RepairKind, Route, Severity
from .records import Evaluation, RepairAction


class FailureClass(StrEnum):
    TRANSIENT = "transient"
    MALFORMED_OUTPUT = "malformed_output"
    CONTEXT_OVERFLOW = "context_overflow"
    PERMISSION = "permission"
    FATAL = "fatal"


def classify_failure(exc: BaseException) -> FailureClass:
    if isinstance(exc, GuardrailViolation | PermissionError):
        return FailureClass.PERMISSION
    if isinstance(exc, MalformedOutput):
        return FailureClass.MALFORMED_OUTPUT
    if isinstance(exc, ContextOverflow):
        return FailureClass.CONTEXT_OVERFLOW
    if isinstance(exc, TransientError | TimeoutError | ConnectionError | socket.timeout):
        return FailureClass.TRANSIENT
    return FailureClass.FATAL


def backoff_seconds(retry: int, base: float = 0.05, cap: float = 2.0) -> float:
    """Exponential backoff: 0.05, 0.1, 0.2 ... seconds, capped."""
    return float(min(cap, base * (2**retry)))


def failure_evaluation(
    failure: FailureClass, exc: BaseException, source: str = "executor"
) -> Evaluation:
    """The observation a failure leaves in the trace, shaped so replan() knows what to do."""
    message = f"{source} raised {type(exc).__name__}: {exc}"
    evidence = {"failure_class": failure.value, "source": source}
    if failure is FailureClass.PERMISSION:
        return Evaluation(
            id="read-only",
            label="Guardrail",
            passed=False,
            severity=Severity.BLOCKING,
            message=str(exc) or message,
            evidence=evidence,
        )
    if failure is FailureClass.MALFORMED_OUTPUT:
        hint = f"Your last output was invalid: {exc}"
        return Evaluation(
            id="malformed-output",
            label="Output validation",
            passed=False,
            severity=Severity.WARNING,
            message=message,
            evidence=evidence,
            repair_action=RepairAction(kind=RepairKind.RETRY, hint=hint),
        )
    if failure is FailureClass.CONTEXT_OVERFLOW:
        return Evaluation(
            id="context-overflow",
            label="Context size",
            passed=False,
            severity=Severity.WARNING,
            message=message,
            evidence=evidence,
        )
    return Evaluation(
        id="executor-error",
        label="Executor error",
        passed=False,
        severity=Severity.BLOCKING,
        message=message,
        evidence=evidence,
    )


def route_unavailable(route: Route) -> Evaluation:
    """A route with no executor ends honestly, escalating where the map allows."""
    return Evaluation(
        id="route-available",
        label="Route available",
        passed=False,
        severity=Severity.WARNING,
        message=f"the {route.value} route is not available in this version",
        repair_action=RepairAction(
            kind=RepairKind.ESCALATE, hint=f"{route.value} is not available"
        ),
    )
