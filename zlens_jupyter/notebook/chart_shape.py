"""Which Vega-Lite specs `chart_drawing` draws, read into one small record.

`vega_lite_spec` (chart.py) emits bars (tall, or across when categories are many or long,
side by side per colour), lines (one per colour), points and areas over categories, ordered
values or time, and pies. `read_shape` accepts a spec only when every key in it is one of
those shapes' (a pie, bars on a time axis, a measure Vega would have to parse: None), so
whatever it accepts is drawn faithfully, and the rest goes to Vega's own engine.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

_SPEC_KEYS = {"$schema", "description", "data", "mark", "encoding", "width", "height"}
_CHANNEL_KEYS = {"field", "type", "title", "sort", "axis"}
_MARKS = {"bar", "line", "point", "area"}


@dataclass
class ChartShape:
    """A chart as drawn: its mark, which channel holds the categories, and the rows."""

    mark: str
    across: str  # the channel holding the categories ("x", or "y" for bars across)
    category: dict[str, Any]  # its encoding
    measure: dict[str, Any]
    colour: dict[str, Any] | None
    rows: list[tuple[Any, float | None, Any]]  # (category, value, colour value)
    width: float
    height: float


def read_shape(spec: dict[str, Any]) -> ChartShape | None:
    """The chart's shape, when every key of the spec is one `chart_drawing` draws faithfully."""
    if not isinstance(spec, dict) or not set(spec) <= _SPEC_KEYS:
        return None
    mark = spec.get("mark")
    mark_type = mark.get("type") if isinstance(mark, dict) else mark
    if mark_type not in _MARKS or (isinstance(mark, dict) and not set(mark) <= {"type", "tooltip"}):
        return None
    encoding = spec.get("encoding")
    values = (spec.get("data") or {}).get("values")
    if not isinstance(encoding, dict) or not isinstance(values, list):
        return None
    x, y = encoding.get("x"), encoding.get("y")
    if not isinstance(x, dict) or not isinstance(y, dict):
        return None
    if y.get("type") == "quantitative" and x.get("type") != "quantitative":
        across, category, measure = "x", x, y
    elif mark_type == "bar" and x.get("type") == "quantitative" and y.get("type") == "nominal":
        across, category, measure = "y", y, x
    else:
        return None
    colour = encoding.get("color")
    offset = encoding.get(f"{across}Offset")
    if not set(encoding) <= {"x", "y", "color", f"{across}Offset"}:
        return None
    if colour is not None:  # bars side by side per colour, or one line per colour
        if not isinstance(colour, dict) or colour.get("type") != "nominal":
            return None
        wanted = mark_type == "bar"
        if wanted != (isinstance(offset, dict) and offset.get("field") == colour.get("field")):
            return None
        if mark_type not in ("bar", "line"):
            return None
    elif offset is not None:
        return None
    for channel in (category, measure, colour or {}):
        if not set(channel) <= _CHANNEL_KEYS or not isinstance(channel.get("field", ""), str):
            return None
    if category.get("type") not in ("nominal", "ordinal", "temporal"):
        return None
    if category.get("axis") not in (None, {"labelAngle": 0}) or measure.get("axis") is not None:
        return None
    if measure.get("sort") is not None or category.get("sort") not in (None, "-x", "-y"):
        return None
    if category.get("type") == "temporal" and mark_type == "bar":
        return None  # bars on a time axis: Vega's own engine
    rows = _rows(values, category, measure, colour)
    if rows is None:
        return None
    width = spec.get("width", 420)
    height = spec.get("height", 220)
    if isinstance(height, dict) and set(height) == {"step"} and across == "y":
        height = height["step"] * max(1, len({sort_key(r[0]) for r in rows}))
    if not all(isinstance(v, int | float) and 0 < v <= 20000 for v in (width, height)):
        return None
    return ChartShape(mark_type, across, category, measure, colour, rows, width, height)


def _rows(
    values: list[Any],
    category: dict[str, Any],
    measure: dict[str, Any],
    colour: dict[str, Any] | None,
) -> list[tuple[Any, float | None, Any]] | None:
    names = [_unescape(c["field"]) if c else None for c in (category, measure, colour)]
    temporal = category.get("type") == "temporal"
    rows = []
    for value in values:
        if not isinstance(value, dict):
            return None
        at = value.get(names[0])
        number = value.get(names[1])
        if number is not None and (
            isinstance(number, bool)
            or not isinstance(number, int | float)
            or not (number == 0 or 1e-300 < abs(number) < 1e300)  # nan, inf, out of scale
        ):
            return None  # a measure Vega would have to parse: its engine draws it
        if temporal and at is not None:
            at = _parse_time(at)
            if at is None:
                return None
        rows.append((at, number, value.get(names[2]) if names[2] else None))
    return rows


def _unescape(field: str) -> str:
    return re.sub(r"\\(.)", r"\1", field)


def _parse_time(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    text = value + "-01" if re.fullmatch(r"\d{4}-\d{2}", value) else value
    try:
        parsed = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is not None:  # one clock for the axis: UTC
        parsed = parsed.astimezone(dt.UTC).replace(tzinfo=None)
    return parsed


def sort_key(value: Any) -> tuple[int, Any]:
    """Vega's ascending order: numbers by value, then text, then null."""
    if value is None:
        return (2, 0)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, value)
    return (1, str(value))


__all__ = ["ChartShape", "read_shape", "sort_key"]
