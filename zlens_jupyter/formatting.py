"""How an answer reads, the same in the notebook's HTML and text answers and in the CLI: the
headline sentence of a run (from the one run-record schema) and how one result value reads in
a table (NULL for missing, thousands separators and two decimals for floats)."""

from __future__ import annotations

import decimal
import math
from typing import Any

from .inputs import terminal_safe


def cell_text(value: Any) -> str:
    """
    >>> cell_text(6691522.8), cell_text(None), cell_text(0.00042), cell_text(7)
    ('6,691,522.80', 'NULL', '0.00042', '7')
    """
    if value is None:
        return "NULL"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return f"{value:,.2f}" if abs(value) >= 1 or value == 0 else f"{value:.4g}"
    if isinstance(value, decimal.Decimal):
        return cell_text(float(value))
    # Data is shown, never obeyed: ESC, CR, BEL and other controls read as escapes.
    return terminal_safe(str(value))


def answer_sentence(data: dict[str, Any]) -> str:
    """What the run concluded, in one sentence or paragraph."""
    status = data.get("status")
    if status == "needs_clarification" and data.get("clarification"):
        return f"ZLens needs one detail before answering: {data['clarification']}"
    if data.get("answer"):
        return str(data["answer"])
    if status == "cancelled":
        return "The run was cancelled before it produced an answer."
    if status == "blocked":
        return (
            f"The run was blocked: {data.get('trust_reason') or data.get('error') or 'see trace'}"
        )
    return str(data.get("summary") or "No answer was produced.")
