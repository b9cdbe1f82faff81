"""Numbers in the answer card: table cells formatted as the sentence formats them, and a
result of one row of numbers shown as KPI tiles."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from ..formatting import cell_text
from .chart import is_number, title_of

_MUTED = "color: var(--jp-ui-font-color2, #616161)"
_BORDER = "var(--jp-border-color2, #d0d7de)"

_IDENTIFIER = re.compile(r"(^|_)(id|key|code|year|yr|zip|number|no)$", re.IGNORECASE)


def table_cell(column: str, value: Any) -> str:
    """A table cell, formatted as the sentence formats numbers (1,234 and 1,234.50 alike),
    except that ids, codes and years never get separators.

    >>> table_cell("orders", 17855), table_cell("customer_id", 17855), table_cell("year", 2025)
    ('17,855', '17855', '2025')
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) if _IDENTIFIER.search(column.strip('"')) else f"{value:,}"
    return cell_text(value)


def kpi_values(data: dict[str, Any]) -> list[tuple[str, Any]] | None:
    """(column, value) pairs when the result is one row of one to four numbers: a KPI tile."""
    result = data.get("result") or {}
    columns = [str(c) for c in result.get("columns") or []]
    rows = result.get("rows") or []
    if len(rows) != 1 or not 1 <= len(columns) <= 4 or not all(is_number(v) for v in rows[0]):
        return None
    return [(c, v) for c, v in zip(columns, rows[0], strict=True)]


def kpi_html(values: list[tuple[str, Any]]) -> str:
    tiles = [(column, title_of(column), value) for column, value in values]
    cells = "".join(
        f'<div class="zlens-kpi" style="display: inline-block; margin: 4px 12px 4px 0;'
        f' padding: 6px 14px; border: 1px solid {_BORDER}; border-radius: 6px">'
        f'<div style="{_MUTED}; font-size: 12px">{escape(title)}</div>'
        f'<div class="zlens-kpi-value" style="font-size: 22px; font-weight: 600;'
        f' font-variant-numeric: tabular-nums">{escape(table_cell(column, value))}</div></div>'
        for column, title, value in tiles
    )
    return f'<div class="zlens-kpis">{cells}</div>'


__all__ = ["kpi_html", "kpi_values", "table_cell"]
