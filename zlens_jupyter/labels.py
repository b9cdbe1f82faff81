"""The words a run's outcome is shown with: one table for the chip, the orb, the history list,
the CLI and the README, so a state never reads two ways.

A run's *label* is its trust label, except that a run the user stopped is labelled
`cancelled` (its record keeps `trust_state = review_required`: nothing it produced was
checked, but "review required" would invite a review of work that never finished).

>>> outcome_label("completed", "grounded")
('grounded', 'grounded')
>>> outcome_label("cancelled", "review_required")
('cancelled', 'cancelled')
"""

from __future__ import annotations

import datetime as dt
from typing import Any

TRUST_WORDS = {
    "certified": "certified",
    "grounded": "grounded",
    "review_required": "review required",
    "blocked": "blocked",
    "not_applicable": "not applicable",
}
CANCELLED = "cancelled"
# Run statuses shown as cancelled: stopped by the user, or by a process that died mid-run.
_CANCELLED_STATUSES = frozenset({"cancelled", "interrupted"})

# The orb: a colour for where the loop is, then how the run ended.
ORB_WORDS = {
    "idle": "idle",
    "planning": "planning",
    "working": "working",
    "verifying": "verifying",
    "repairing": "repairing",
    "done": "done",
    "needs_review": "review required",
    "clarify": "needs clarification",
    "blocked": "blocked",
    "cancelled": "cancelled",
    "failed": "failed",
}
# How a run's route reads to a person (route names are the engine's).
ROUTE_WORDS = {
    "certified_answer": "certified block",
    "generated_answer": "generated from the catalog",
    "research": "research",
    "sql_cell": "SQL cell",
    "dql_block_draft": "block draft",
    "app_build": "dashboard",
    "clarify": "clarifying question",
    "converse": "conversation",
}
_ORB_OF_STATUS = {
    "completed": "done",
    "needs_review": "needs_review",
    "needs_clarification": "clarify",
    "blocked": "blocked",
    "cancelled": "cancelled",
    "interrupted": "cancelled",
}


def _value(value: Any) -> str | None:
    if value is None:
        return None
    return str(getattr(value, "value", value))


def outcome_label(status: Any, trust_state: Any) -> tuple[str, str]:
    """(key, words) for a run's chip: the trust label, or `cancelled` for a stopped run."""
    status_value, trust = _value(status), _value(trust_state)
    if status_value in _CANCELLED_STATUSES:
        return CANCELLED, CANCELLED
    if not trust:
        return "-", "-"
    return trust, TRUST_WORDS.get(trust, trust.replace("_", " "))


def local_time(iso: str | None) -> str:
    """A stored UTC timestamp in this machine's time, labelled with its zone.

    >>> local_time("2026-12-01T09:30:00+00:00").endswith(("UTC", "GMT")) or True
    True
    """
    if not iso:
        return "-"
    try:
        moment = dt.datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    local = moment.astimezone()
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or ''}".strip()


def orb_of_status(status: Any) -> str:
    """The orb state a finished run rests in (a clarification is neutral, not a warning)."""
    return _ORB_OF_STATUS.get(_value(status) or "", "done")


__all__ = [
    "CANCELLED",
    "ORB_WORDS",
    "ROUTE_WORDS",
    "TRUST_WORDS",
    "local_time",
    "orb_of_status",
    "outcome_label",
]
