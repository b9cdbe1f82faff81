"""How one result value reads in a table, the same in the notebook's HTML and text answers and
in the CLI: NULL for missing, thousands separators and two decimals for floats."""

from __future__ import annotations

import decimal
import math
from typing import Any


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
    return str(value)
