"""Stop conditions (seed 002), each with its own reason, checked on every turn of the loop."""

from __future__ import annotations

from .enums import StopReason
from .records import Budget, Usage


def check_budget_stop(usage: Usage, budget: Budget, *, cancelled: bool) -> StopReason | None:
    """The stops that do not depend on what the last action was. Cancellation comes first."""
    if cancelled:
        return StopReason.USER_CANCELLED
    if usage.elapsed_s >= budget.deadline_s:
        return StopReason.TIMEOUT
    if usage.tokens >= budget.max_tokens:
        return StopReason.TOKEN_BUDGET
    if usage.cost_usd >= budget.max_cost_usd:
        return StopReason.COST_BUDGET
    return None


def check_step_limit(usage: Usage, budget: Budget) -> StopReason | None:
    return StopReason.MAX_STEPS if usage.steps >= budget.max_steps else None


def check_repetition(action_keys: list[str]) -> StopReason | None:
    """Same action twice in a row, or two actions alternating (A, B, A, B).

    >>> check_repetition(["a", "b", "b"])
    <StopReason.REPEATED_ACTION: 'repeated_action'>
    >>> check_repetition(["a", "b", "a", "b"])
    <StopReason.OSCILLATION: 'oscillation'>
    >>> check_repetition(["a", "b", "c"]) is None
    True
    """
    if len(action_keys) >= 2 and action_keys[-1] == action_keys[-2]:
        return StopReason.REPEATED_ACTION
    if len(action_keys) >= 4:
        a, b, c, d = action_keys[-4:]
        if a == c and b == d and a != b:
            return StopReason.OSCILLATION
    return None
