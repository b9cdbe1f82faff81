"""The answer's chart: a Vega-Lite v5 spec when one fits the result, with the data inlined.

One category + one number is a bar chart, a time column + a number is a line chart, a single
value or a wide table gets none; a block's visualization hint (`{chart, x, y}`) wins when its
columns exist.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
from typing import Any

VEGA_LITE = "application/vnd.vegalite.v5+json"
CHART_ROWS = 500
MAX_BAR_CATEGORIES = 60

_MARKS = {"bar": "bar", "line": "line", "area": "area", "scatter": "point", "pie": "arc"}
_TIME_NAME = re.compile(r"(^|_)(date|day|week|month|quarter|year|time|ts|hour)s?($|_)", re.I)
_ISO_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?([ T]\d{2}:\d{2}.*)?$")


def is_number(value: Any) -> bool:
    """A numeric cell (booleans are not numbers here)."""
    return isinstance(value, int | float | decimal.Decimal) and not isinstance(value, bool)


def chart_choice(result: dict[str, Any] | None, hint: Any = None) -> tuple[str, str, str] | None:
    """(chart kind, x column, y column) when a chart fits the result, else None.

    A visualization hint (a chart name, or a block's `{chart, x, y}`) wins when its columns
    exist; otherwise one category + one number is a bar chart and a time column + a number is
    a line chart. A single value, or a table, gets no chart.
    """
    result = result or {}
    columns = [str(c) for c in result.get("columns") or []]
    rows = result.get("rows") or []
    if len(rows) < 2 or len(columns) < 2:
        return None
    kind, x, y = _read_hint(hint)
    if kind in ("single_value", "table"):
        return None
    if kind in _MARKS and x in columns and y in columns:
        return kind, x, y
    if len(columns) != 2:
        return None
    first, second = columns
    values = [r[0] for r in rows]
    if not all(is_number(r[1]) or r[1] is None for r in rows):
        return None
    if _is_time(first, values):
        return (kind if kind in _MARKS else "line"), first, second
    if all(is_number(v) for v in values) or len(rows) > MAX_BAR_CATEGORIES:
        return None
    return (kind if kind in _MARKS else "bar"), first, second


def vega_lite_spec(data: dict[str, Any]) -> dict[str, Any] | None:
    """A Vega-Lite v5 spec with the data inlined (at most 500 rows), or None."""
    result = data.get("result") or {}
    choice = chart_choice(result, (data.get("provenance") or {}).get("visualization"))
    if choice is None:
        return None
    kind, x, y = choice
    columns = [str(c) for c in result["columns"]]
    rows = result["rows"][:CHART_ROWS]
    values = [{c: _json_value(v) for c, v in zip(columns, row, strict=False)} for row in rows]
    x_values = [row[columns.index(x)] for row in rows]
    x_type = _x_type(x, x_values)
    mark = _MARKS[kind]
    if mark == "arc":
        encoding: dict[str, Any] = {
            "theta": {"field": _field(y), "type": "quantitative", "title": y},
            "color": {"field": _field(x), "type": "nominal", "title": x},
        }
    else:
        x_enc: dict[str, Any] = {"field": _field(x), "type": x_type, "title": x}
        if mark == "bar" and x_type == "nominal":
            x_enc["sort"] = "-y"
        encoding = {"x": x_enc, "y": {"field": _field(y), "type": "quantitative", "title": y}}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "description": str(data.get("question") or ""),
        "data": {"values": values},
        "mark": {"type": mark, "tooltip": True},
        "encoding": encoding,
        "width": 420,
        "height": 220,
    }


def _read_hint(hint: Any) -> tuple[str | None, str | None, str | None]:
    if isinstance(hint, str):
        return hint.lower(), None, None
    if isinstance(hint, dict):
        kind = hint.get("chart") or hint.get("type") or hint.get("kind")
        x, y = hint.get("x"), hint.get("y")
        return (
            str(kind).lower() if kind else None,
            str(x) if x is not None else None,
            str(y) if y is not None else None,
        )
    return None, None, None


def _is_time(name: str, values: list[Any]) -> bool:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, dt.date) for v in present):
        return True
    if present and all(isinstance(v, str) and _ISO_DATE.match(v) for v in present):
        return True
    return bool(_TIME_NAME.search(name))


def _x_type(name: str, values: list[Any]) -> str:
    present = [v for v in values if v is not None]
    if present and all(
        isinstance(v, dt.date) or (isinstance(v, str) and _ISO_DATE.match(v)) for v in present
    ):
        return "temporal"
    if _is_time(name, values):
        return "ordinal"  # e.g. an integer year or a month name: ordered, not a timestamp
    return "nominal"


def _field(name: str) -> str:
    """Vega-Lite reads `.` and `[ ]` in a field name as nesting; escape them."""
    return re.sub(r"([.\[\]\\])", r"\\\1", name)


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


__all__ = ["CHART_ROWS", "VEGA_LITE", "chart_choice", "is_number", "vega_lite_spec"]
