"""The answer's chart: a Vega-Lite v5 spec when one fits the result, with the data inlined.

One category + one number is a bar chart, a time column + a number is a line chart, two
dimensions + a number is colour-encoded (grouped bars, or one line per colour) with a legend,
a single value (a KPI tile in the card) or a wide table gets none; a block's visualization
hint (`{chart, x, y}`) wins when its columns exist.
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
MAX_SERIES = 12  # colours a legend can tell apart
HORIZONTAL_AFTER = 8  # categories before bars turn horizontal

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


def series_choice(result: dict[str, Any] | None) -> tuple[str, str, str, str] | None:
    """(mark, x, colour, y) for two dimensions and one number: a category or time column,
    a second category with a few values (the colours, with a legend), and the measure."""
    result = result or {}
    columns = [str(c) for c in result.get("columns") or []]
    rows = result.get("rows") or []
    if len(columns) != 3 or len(rows) < 2:
        return None
    if not all(is_number(r[2]) or r[2] is None for r in rows):
        return None
    if any(is_number(r[1]) for r in rows) or len({r[1] for r in rows}) > MAX_SERIES:
        return None
    first = [r[0] for r in rows]
    if _is_time(columns[0], first):
        return "line", columns[0], columns[1], columns[2]
    if all(is_number(v) for v in first) or len(set(first)) > MAX_BAR_CATEGORIES:
        return None
    return "bar", columns[0], columns[1], columns[2]


def vega_lite_spec(data: dict[str, Any]) -> dict[str, Any] | None:
    """A Vega-Lite v5 spec with the data inlined (at most 500 rows), or None.

    Axis and legend titles are the columns in words with their units ("Average weight
    (kg)"); many or long category labels make horizontal bars, never rotated text.
    """
    result = data.get("result") or {}
    choice = chart_choice(result, (data.get("provenance") or {}).get("visualization"))
    series = None if choice is not None else series_choice(result)
    if choice is None and series is None:
        return None
    colour: str | None = None
    if series is not None:
        kind, x, colour, y = series
    else:
        assert choice is not None
        kind, x, y = choice
    columns = [str(c) for c in result["columns"]]
    rows = result["rows"][:CHART_ROWS]
    values = [{c: _json_value(v) for c, v in zip(columns, row, strict=False)} for row in rows]
    x_values = [row[columns.index(x)] for row in rows]
    x_type = _x_type(x, x_values)
    mark = _MARKS[kind]
    number = {"field": _field(y), "type": "quantitative", "title": title_of(y)}
    if mark == "arc":
        encoding: dict[str, Any] = {
            "theta": number,
            "color": {"field": _field(x), "type": "nominal", "title": title_of(x)},
        }
    else:
        x_enc: dict[str, Any] = {"field": _field(x), "type": x_type, "title": title_of(x)}
        across, along = "x", "y"
        if mark == "bar" and x_type == "nominal":
            if _horizontal(x_values):
                across, along = "y", "x"
                x_enc["sort"] = "-x"
            else:
                x_enc["sort"] = "-y"
                x_enc["axis"] = {"labelAngle": 0}
        encoding = {across: x_enc, along: number}
        if colour is not None:
            encoding["color"] = {
                "field": _field(colour),
                "type": "nominal",
                "title": title_of(colour),
            }
            if mark == "bar":  # grouped bars, side by side within each category
                encoding[f"{across}Offset"] = {"field": _field(colour), "type": "nominal"}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "description": str(data.get("question") or ""),
        "data": {"values": values},
        "mark": {"type": mark, "tooltip": True},
        "encoding": encoding,
        "width": 420,
        # Horizontal bars get a fixed band each, so forty categories stay readable.
        "height": {"step": 20}
        if "y" in encoding and encoding["y"]["type"] != "quantitative"
        else 220,
    }


def title_of(column: str) -> str:
    """An axis title: the column in words, with its unit (`avg_weight_kg` -> "Average weight
    (kg)"); a name that is not a plain identifier stays as written."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", column):
        return column
    from ..routes.narrate import humanize

    return humanize(column)


def _horizontal(labels: list[Any]) -> bool:
    """Many categories, or long names: bars go across so every label reads level."""
    texts = [str(v) for v in labels if v is not None]
    return len(set(texts)) > HORIZONTAL_AFTER or max((len(t) for t in texts), default=0) > 12


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


__all__ = [
    "CHART_ROWS",
    "VEGA_LITE",
    "chart_choice",
    "is_number",
    "series_choice",
    "title_of",
    "vega_lite_spec",
]
