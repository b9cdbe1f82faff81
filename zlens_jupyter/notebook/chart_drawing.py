"""The answer's chart drawn as SVG in a fraction of a millisecond, for the shapes answers take.

`draw_svg` draws the shapes `chart_shape` accepts (bars, lines, points, areas) the way
Vega-Lite lays them out (its palette, zero-based nice scales, sort orders, a gap where a value
is missing), and returns None for any other spec, so the caller falls back to Vega's own
engine (vl-convert: 25-35 ms of CPU even for five bars, against ~0.3 ms here; pygal,
measured, costs 4 ms to draw five bars and 55 ms to import, and would still need this
mapping from the spec).

Every piece of text comes from data or questions: it is XML-escaped, and characters XML
cannot hold are dropped, so the picture always parses.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from ..formatting import cell_text
from .chart_shape import ChartShape, read_shape, sort_key

PALETTE = (  # Vega's "tableau10", the colours the interactive chart uses
    "#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b",
    "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac",
)  # fmt: skip
FONT = 'font-family="Helvetica, Arial, sans-serif"'
GRID, AXIS = "#ddd", "#888"
CHAR_PX = 6.0  # average width of a 10px label character (no text measurement here)
LABEL_CHARS = 28  # a longer label is cut with an ellipsis (its full text is in a tooltip)

_XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def draw_svg(spec: dict[str, Any]) -> str | None:
    """The chart as an SVG document, or None when the spec is not one of the shapes drawn here.

    >>> svg = draw_svg({"mark": {"type": "bar"}, "width": 200, "height": 100,
    ...     "data": {"values": [{"k": "a", "n": 2}, {"k": "b", "n": 1}]},
    ...     "encoding": {"x": {"field": "k", "type": "nominal", "title": "K"},
    ...                  "y": {"field": "n", "type": "quantitative", "title": "N"}}})
    >>> svg.count('class="mark"')
    2
    >>> draw_svg({"mark": "arc", "encoding": {}, "data": {"values": []}}) is None
    True
    """
    chart = read_shape(spec)
    return None if chart is None else _Drawing(chart).svg()


# -- drawing ----------------------------------------------------------------------------------


class _Drawing:
    """One chart's layout and its SVG, built as a list of strings."""

    def __init__(self, chart: ChartShape) -> None:
        self.chart = chart
        self.out: list[str] = []
        rows = chart.rows
        self.series = sorted({r[2] for r in rows}, key=sort_key) if chart.colour else [None]
        self.temporal = chart.category.get("type") == "temporal"
        numbers = [r[1] for r in rows if r[1] is not None]
        lo, hi = min([0.0, *numbers]), max([0.0, *numbers])
        length = chart.height if chart.across == "x" else chart.width
        self.ticks = _nice_ticks(lo, hi, max(2, math.ceil(length / 40)))
        self.lo, self.hi = self.ticks[0], self.ticks[-1]
        self.categories = [] if self.temporal else self._categories()

    def _categories(self) -> list[Any]:
        chart = self.chart
        seen: dict[tuple[int, Any], Any] = {}
        totals: dict[tuple[int, Any], float] = {}
        for at, number, _ in chart.rows:
            key = sort_key(at)
            seen.setdefault(key, at)
            totals[key] = totals.get(key, 0.0) + (number or 0.0)
        keys = sorted(seen)
        if chart.category.get("sort") in ("-x", "-y"):  # by the measure's sum, largest first
            keys.sort(key=lambda k: -totals[k])
        return [seen[k] for k in keys]

    def svg(self) -> str:
        """The document: margins wide enough for the labels that must fit, then the parts."""
        chart = self.chart
        value_labels = [_number(t, self.ticks) for t in self.ticks]
        if chart.across == "x":  # numbers down the left side
            left = max(len(t) for t in value_labels) * CHAR_PX + 30
        else:  # category names down the left side
            names = [_label(c) for c in self.categories]
            left = max((len(n) for n in names), default=1) * CHAR_PX + 30
        bottom = 40  # tick labels and the axis title
        legend = self._legend_width()
        self.left, self.top = round(left), 10
        # Room for half the last label centred under the right edge.
        right = len(value_labels[-1]) if chart.across == "y" else 9 if self.temporal else 1
        total_w = self.left + chart.width + max(12, right * CHAR_PX / 2 + 4) + legend
        total_h = self.top + chart.height + bottom
        out = self.out
        out.append(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}"'
            f' height="{total_h:.0f}" viewBox="0 0 {total_w:.0f} {total_h:.0f}" {FONT}'
            ' font-size="10">'
        )
        out.append(f'<rect width="{total_w:.0f}" height="{total_h:.0f}" fill="white"/>')
        out.append(f'<g transform="translate({self.left},{self.top})">')
        self._value_axis(value_labels)
        if self.temporal:
            self._time_axis()
        else:
            self._category_axis()
        if chart.mark == "bar":
            self._bars()
        else:
            self._lines()
        self._titles()
        out.append("</g>")
        if legend:
            self._legend(self.left + chart.width + 16)
        out.append("</svg>")
        return "".join(out)

    def _value(self, number: float) -> float:
        """Pixels from the origin of the measure's axis (up for tall charts, right if across)."""
        length = self.chart.height if self.chart.across == "x" else self.chart.width
        return (number - self.lo) / (self.hi - self.lo) * length

    def _value_axis(self, labels: list[str]) -> None:
        chart, out = self.chart, self.out
        every = 1  # across the bottom, labels that would overlap are skipped (Vega's parity)
        if chart.across == "y" and len(labels) > 1:
            spacing = chart.width / (len(labels) - 1)
            every = math.ceil((max(len(t) for t in labels) * CHAR_PX + 8) / spacing)
        for index, (tick, label) in enumerate(zip(self.ticks, labels, strict=True)):
            at = self._value(tick)
            stroke = AXIS if tick == 0 and self.lo < 0 else GRID
            if chart.across == "x":
                y = chart.height - at
                out.append(f'<line x1="0" x2="{chart.width}" y1="{y:.1f}" y2="{y:.1f}"'
                           f' stroke="{stroke}"/>')  # fmt: skip
                out.append(f'<text x="-6" y="{y + 3:.1f}" text-anchor="end">{label}</text>')
            else:
                out.append(f'<line x1="{at:.1f}" x2="{at:.1f}" y1="0" y2="{chart.height}"'
                           f' stroke="{stroke}"/>')  # fmt: skip
                if index % every == 0:
                    out.append(
                        f'<text x="{at:.1f}" y="{chart.height + 14}" text-anchor="middle">'
                        f"{label}</text>"
                    )
        out.append(f'<rect width="{chart.width}" height="{chart.height}" fill="none"'
                   f' stroke="{GRID}"/>')  # fmt: skip

    # categories: bands for bars, points for lines
    def _band(self) -> tuple[float, float]:
        """(step, padding before the first band) of the category scale."""
        chart = self.chart
        length = chart.width if chart.across == "x" else chart.height
        n = max(1, len(self.categories))
        if chart.mark != "bar":  # a point scale: half a step of padding at either end
            return length / n, length / n / 2
        inner, outer = (0.2, 0.2) if chart.colour else (0.1, 0.05)
        step = length / (n - inner + 2 * outer)
        return step, step * outer

    def _category_axis(self) -> None:
        chart, out = self.chart, self.out
        step, start = self._band()
        width = step * (1 - (0.2 if chart.colour else 0.1)) if chart.mark == "bar" else 0
        labels = [_label(c) for c in self.categories]
        every = 1
        if chart.across == "x" and chart.mark == "bar":  # every bar keeps its name, cut to fit
            labels = [_label(c, max(3, int((step - 4) // CHAR_PX))) for c in self.categories]
        elif chart.across == "x":  # points along an ordered axis: every k-th label is written
            widest = max((len(t) for t in labels), default=1) * CHAR_PX + 6
            every = max(1, math.ceil(widest / step))
        for i, label in enumerate(labels):
            if i % every:
                continue
            middle = start + i * step + width / 2
            full = _raw(self.categories[i])
            title = "" if label == full else f"<title>{_xml(full)}</title>"
            if chart.across == "x":
                out.append(f'<text x="{middle:.1f}" y="{chart.height + 14}"'
                           f' text-anchor="middle">{title}{_xml(label)}</text>')  # fmt: skip
            else:
                out.append(f'<text x="-6" y="{middle + 3:.1f}" text-anchor="end">'
                           f"{title}{_xml(label)}</text>")  # fmt: skip

    def _time_axis(self) -> None:
        chart, out = self.chart, self.out
        times = [r[0] for r in chart.rows if r[0] is not None]
        self.t0 = min(times) if times else dt.datetime(2000, 1, 1)
        self.t1 = max(times) if times else self.t0
        for tick, label in _time_ticks(self.t0, self.t1, max(2, int(chart.width // 80))):
            x = self._time_x(tick)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="0" y2="{chart.height}"'
                       f' stroke="{GRID}"/>')  # fmt: skip
            out.append(f'<text x="{x:.1f}" y="{chart.height + 14}" text-anchor="middle">'
                       f"{label}</text>")  # fmt: skip

    def _time_x(self, at: dt.datetime) -> float:
        span = (self.t1 - self.t0).total_seconds()
        if span <= 0:
            return self.chart.width / 2
        return (at - self.t0).total_seconds() / span * self.chart.width

    def _category_at(self) -> dict[tuple[int, Any], float]:
        step, start = self._band()
        return {sort_key(c): start + i * step for i, c in enumerate(self.categories)}

    def _bars(self) -> None:
        chart, out = self.chart, self.out
        step, _ = self._band()
        at = self._category_at()
        width = step * (1 - (0.2 if chart.colour else 0.1))
        slot = width / len(self.series)
        base = self._value(0.0)
        for category, number, series in chart.rows:
            if number is None:
                continue  # no value, no bar: the category keeps its label
            index = self.series.index(series) if chart.colour else 0
            start = at[sort_key(category)] + index * slot
            tip = self._tip(category, number, series)
            end = self._value(number)
            low, size = min(base, end), abs(end - base)
            if chart.across == "x":
                box = f'x="{start:.2f}" y="{chart.height - low - size:.2f}"' \
                      f' width="{slot:.2f}" height="{size:.2f}"'  # fmt: skip
            else:
                box = f'x="{low:.2f}" y="{start:.2f}" width="{size:.2f}" height="{slot:.2f}"'
            out.append(f'<rect class="mark" {box} fill="{PALETTE[index % len(PALETTE)]}">'
                       f"<title>{tip}</title></rect>")  # fmt: skip

    def _lines(self) -> None:
        chart, out = self.chart, self.out
        at = None if self.temporal else self._category_at()
        for index, series in enumerate(self.series):
            colour = PALETTE[index % len(PALETTE)]
            points = [
                (
                    self._time_x(c) if at is None else at[sort_key(c)],
                    0.0 if n is None else chart.height - self._value(n),
                    c,
                    n,
                )
                for c, n, s in chart.rows
                if s == series and c is not None
            ]
            if at is None:
                points.sort(key=lambda p: p[0])
            else:
                order = {k: i for i, k in enumerate(at)}
                points.sort(key=lambda p: order[sort_key(p[2])])
            runs: list[list[tuple[float, float]]] = [[]]
            for x, y, category, number in points:
                if number is None:  # a missing value breaks the line, as Vega draws it
                    runs.append([])
                    continue
                runs[-1].append((x, y))
                if chart.mark == "point" or len(points) <= 60:
                    tip = self._tip(category, number, series)
                    hollow = chart.mark == "point"
                    out.append(
                        f'<circle class="{"mark" if hollow else "dot"}" cx="{x:.2f}"'
                        f' cy="{y:.2f}" r="{3 if hollow else 2}"'
                        f' fill="{"none" if hollow else colour}" stroke="{colour}"'
                        f' stroke-width="{2 if hollow else 0}"><title>{tip}</title></circle>'
                    )
            if chart.mark == "point":
                continue
            base = chart.height - self._value(0.0)
            for run in runs:
                if len(run) < 2:
                    continue
                path = " ".join(f"{x:.2f},{y:.2f}" for x, y in run)
                if chart.mark == "area":
                    out.append(f'<polygon class="mark" points="{run[0][0]:.2f},{base:.2f} {path}'
                               f' {run[-1][0]:.2f},{base:.2f}" fill="{colour}"'
                               ' fill-opacity="0.7"/>')  # fmt: skip
                else:
                    out.append(f'<polyline class="mark" points="{path}" fill="none"'
                               f' stroke="{colour}" stroke-width="2"/>')  # fmt: skip

    def _tip(self, category: Any, number: float, series: Any) -> str:
        """A mark's tooltip: each field's title and value, as the interactive chart's."""
        chart = self.chart
        parts = [(chart.category, _raw(category))]
        if chart.colour:
            parts.append((chart.colour, _raw(series)))
        parts.append((chart.measure, cell_text(number)))
        return _xml("; ".join(f"{c.get('title') or c.get('field')}: {v}" for c, v in parts))

    def _titles(self) -> None:
        chart, out = self.chart, self.out
        x_title = (chart.category if chart.across == "x" else chart.measure).get("title")
        y_title = (chart.measure if chart.across == "x" else chart.category).get("title")
        if x_title:
            out.append(f'<text x="{chart.width / 2:.1f}" y="{chart.height + 32}"'
                       ' text-anchor="middle" font-weight="bold" font-size="11">'
                       f"{_xml(str(x_title))}</text>")  # fmt: skip
        if y_title:
            out.append(f'<text transform="translate({16 - self.left},{chart.height / 2:.1f})'
                       ' rotate(-90)" text-anchor="middle" font-weight="bold" font-size="11">'
                       f"{_xml(str(y_title))}</text>")  # fmt: skip

    def _legend_width(self) -> float:
        if not self.chart.colour:
            return 0
        texts = [str(self.chart.colour.get("title") or "")] + [_label(s) for s in self.series]
        return max(len(t) for t in texts) * CHAR_PX + 24

    def _legend(self, x: float) -> None:
        chart, out = self.chart, self.out
        assert chart.colour is not None
        out.append(f'<g class="legend" transform="translate({x:.0f},{self.top})">')
        out.append('<text y="9" font-weight="bold" font-size="11">'
                   f'{_xml(str(chart.colour.get("title") or ""))}</text>')  # fmt: skip
        for i, series in enumerate(self.series):
            y = 24 + i * 16
            fill = PALETTE[i % len(PALETTE)]
            if chart.mark == "bar":
                out.append(f'<rect x="0" y="{y - 8}" width="10" height="10" fill="{fill}"/>')
            else:
                out.append(f'<circle cx="5" cy="{y - 3}" r="4" fill="{fill}"/>')
            out.append(f'<text x="16" y="{y}">{_xml(_label(series))}</text>')
        out.append("</g>")


# -- scales, numbers and text -----------------------------------------------------------------


def _nice_ticks(lo: float, hi: float, count: int) -> list[float]:
    """Round ticks covering [lo, hi] (zero included by the caller), about `count` of them."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    power = 10 ** math.floor(math.log10(raw))
    error = raw / power  # d3's choice of 1, 2, 5 or 10 times a power of ten, as Vega's axes
    step = power * (
        10 if error >= 50**0.5 else 5 if error >= 10**0.5 else 2 if error >= 2**0.5 else 1
    )
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    if step >= 1:
        return [i * step for i in range(first, last + 1)]
    inverse = round(1 / step)  # 0.1 * 3 is 0.30000000000000004, 3 / 10 is 0.3
    return [i / inverse for i in range(first, last + 1)]


def _number(value: float, ticks: list[float]) -> str:
    """A tick label with thousands separators and as many decimals as the step needs."""
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    if decimals > 6 or max(abs(ticks[0]), abs(ticks[-1])) >= 1e15:
        text = f"{abs(value):.3g}"  # beyond what separators make readable
    else:
        text = f"{abs(value):,.{decimals}f}"
    return ("\u2212" + text) if value < 0 else text


_UNITS = [  # (seconds, months, label format) of a time tick's step
    (3600, 0, "%H:%M"), (3 * 3600, 0, "%H:%M"), (6 * 3600, 0, "%H:%M"),
    (12 * 3600, 0, "%b %d %H:%M"), (86400, 0, "%b %d"), (2 * 86400, 0, "%b %d"),
    (7 * 86400, 0, "%b %d"), (0, 1, "%b %Y"), (0, 3, "%b %Y"), (0, 6, "%b %Y"),
    (0, 12, "%Y"), (0, 24, "%Y"), (0, 60, "%Y"), (0, 120, "%Y"), (0, 240, "%Y"),
    (0, 600, "%Y"), (0, 1200, "%Y"),
]  # fmt: skip


def _time_ticks(t0: dt.datetime, t1: dt.datetime, count: int) -> list[tuple[dt.datetime, str]]:
    """Calendar ticks (whole hours, days, weeks, months or years) inside [t0, t1]."""
    span = (t1 - t0).total_seconds()
    if span <= 0:
        return [(t0, t0.strftime("%Y-%m-%d"))]
    seconds, months, fmt = next(
        (unit for unit in _UNITS if span / (unit[0] or unit[1] * 30.44 * 86400) <= count),
        _UNITS[-1],
    )
    ticks: list[dt.datetime] = []
    if months:
        index = t0.year * 12 + t0.month - 1
        index += -index % months
        while True:
            tick = t0.replace(year=index // 12, month=index % 12 + 1, day=1, hour=0, minute=0,
                              second=0, microsecond=0)  # fmt: skip
            if tick > t1:
                break
            if tick >= t0:
                ticks.append(tick)
            index += months
    else:
        origin = t0.replace(hour=0, minute=0, second=0, microsecond=0)
        step = dt.timedelta(seconds=seconds)
        tick = origin
        while tick <= t1:
            if tick >= t0:
                ticks.append(tick)
            tick += step
    return [(t, t.strftime(fmt)) for t in ticks]


def _raw(value: Any) -> str:
    """A category as text: null as Vega shows it, numbers as written."""
    if value is None:
        return "null"
    if isinstance(value, dt.datetime):
        return value.isoformat()
    return cell_text(value) if isinstance(value, float) else str(value)


def _label(value: Any, chars: int = LABEL_CHARS) -> str:
    text = _raw(value)
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _xml(text: str) -> str:
    """Text as XML character data or an attribute value: escaped, and only characters XML
    can hold."""
    text = _XML_UNSAFE.sub("\ufffd", text)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace('"', "&quot;")
    )  # fmt: skip


__all__ = ["draw_svg"]
