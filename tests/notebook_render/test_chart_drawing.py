"""The chart picture drawn without Vega: what the SVG shows must be what the data says.

Each picture is parsed as XML and measured: one mark per row, bars proportional to their
values from a zero baseline, the spec's titles and order, text escaped; a spec outside the
shapes drawn here goes to Vega's engine.
"""

from __future__ import annotations

import datetime as dt
import itertools
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from zlens_jupyter.notebook import chart_image
from zlens_jupyter.notebook.chart import vega_lite_spec
from zlens_jupyter.notebook.chart_drawing import CHAR_PX, draw_svg

NS = {"s": "http://www.w3.org/2000/svg"}


def spec_of(columns: list[str], rows: list[list[Any]], hint: Any = None) -> dict[str, Any]:
    data: dict[str, Any] = {"question": "q", "result": {"columns": columns, "rows": rows}}
    if hint is not None:
        data["provenance"] = {"visualization": hint}
    spec = vega_lite_spec(data)
    assert spec is not None
    return spec


def drawn(spec: dict[str, Any]) -> ET.Element:
    svg = draw_svg(spec)
    assert svg is not None, "a shape answers take must not need Vega's engine"
    return ET.fromstring(svg)  # raises on anything that is not well-formed XML


def marks(root: ET.Element, tag: str = "rect") -> list[ET.Element]:
    return [e for e in root.iter(f"{{{NS['s']}}}{tag}") if e.get("class") == "mark"]


def texts(root: ET.Element) -> list[str]:
    return ["".join(e.itertext()) for e in root.iter(f"{{{NS['s']}}}text")]


def box(rect: ET.Element) -> tuple[float, float, float, float]:
    x, y, width, height = (float(rect.get(k, 0)) for k in ("x", "y", "width", "height"))
    return x, y, width, height


def tooltip(element: ET.Element) -> str:
    title = element.find("s:title", NS)
    assert title is not None
    return title.text or ""


NATIONS: list[list[Any]] = [
    ["INDIA", 36272867.52],
    ["CHINA", 44678593.94],
    ["VIETNAM", 31834053.86],
    ["JAPAN", 35727093.63],
    ["INDONESIA", 39286503.82],
]


def test_one_bar_per_row_as_tall_as_its_value_from_zero_largest_first():
    root = drawn(spec_of(["nation", "revenue"], NATIONS))
    bars = marks(root)
    assert len(bars) == len(NATIONS)
    boxes = [box(b) for b in bars]
    bottoms = {round(y + h, 6) for _, y, _, h in boxes}
    assert len(bottoms) == 1  # one baseline
    by_name = {tooltip(b).split(";")[0]: box(b) for b in bars}
    for name, value in NATIONS:
        height = by_name[f"Nation: {name}"][3]
        ratio = height / by_name["Nation: CHINA"][3]
        assert ratio == pytest.approx(value / 44678593.94, rel=1e-4)  # to 1/100 px
    # the spec sorts by revenue, largest first, left to right
    lefts = sorted((box(b)[0], tooltip(b)) for b in bars)
    assert [t.split(";")[0] for _, t in lefts] == [
        "Nation: CHINA",
        "Nation: INDONESIA",
        "Nation: INDIA",
        "Nation: JAPAN",
        "Nation: VIETNAM",
    ]
    words = texts(root)
    assert "Nation" in words and "Revenue" in words  # axis titles from the spec
    assert "40,000,000" in words  # ticks read as numbers, with separators
    assert "Revenue: 44,678,593.94" in tooltip(bars[1])


def test_negative_values_hang_below_zero_and_a_missing_value_draws_no_bar():
    root = drawn(spec_of(["segment", "change"], [["up", 12.0], ["down", -6.0], ["none", None]]))
    bars = {tooltip(b).split(";")[0]: box(b) for b in marks(root)}
    assert set(bars) == {"Segment: up", "Segment: down"}
    _, up_y, _, up_h = bars["Segment: up"]
    _, down_y, _, down_h = bars["Segment: down"]
    assert up_y + up_h == pytest.approx(down_y)  # both start at the zero line
    assert up_h == pytest.approx(2 * down_h, rel=1e-3)
    assert "none" in texts(root)  # the category is still named
    assert "\u22126" in texts(root)  # a negative tick


def test_every_text_is_escaped_and_the_picture_parses():
    nasty = 'A & <B> "q" </text><script>alert(1)</script>\x1b[31m\x00'
    spec = spec_of(["who", "n"], [[nasty, 1], ["plain", 2]])
    spec["encoding"]["y"]["title"] = "<b>Count</b> & more"
    root = drawn(spec)  # parses: nothing broke out of its element
    assert not list(root.iter(f"{{{NS['s']}}}script"))
    written = texts(root)
    assert "<b>Count</b> & more" in written
    shown = [t for t in written if t.startswith("A & <B>")]
    assert shown and "\x00" not in shown[0] and "\x1b" not in shown[0]


def test_many_long_categories_run_down_the_side_one_bar_each_cut_labels_keep_full_names():
    rows = [[f"Customer#{i:09d} of a rather long name", 1000 * (i + 1)] for i in range(60)]
    spec = spec_of(["customer", "revenue"], rows)
    assert "y" in spec["encoding"] and spec["encoding"]["y"]["type"] == "nominal"
    root = drawn(spec)
    bars = marks(root)
    assert len(bars) == 60
    widths = sorted(box(b)[2] for b in bars)
    assert widths[-1] / widths[0] == pytest.approx(60, rel=1e-3)
    tops = [box(b)[1] for b in sorted(bars, key=lambda b: -box(b)[2])]
    assert tops == sorted(tops)  # largest at the top
    labels = [t for t in texts(root) if t.startswith("Customer#000000059")]
    assert labels and labels[0].endswith("…")
    assert "Customer#000000059 of a rather long name" in labels[0]  # in its <title>


def test_a_time_axis_places_points_by_date_and_labels_dates():
    days = [dt.date(2024, 1, 1), dt.date(2024, 1, 2), dt.date(2024, 3, 1), dt.date(2024, 6, 1)]
    spec = spec_of(["order_date", "orders"], [[d, i + 1] for i, d in enumerate(days)])
    assert spec["encoding"]["x"]["type"] == "temporal"
    root = drawn(spec)
    line = marks(root, "polyline")
    assert len(line) == 1
    xs = [float(p.split(",")[0]) for p in (line[0].get("points") or "").split()]
    assert len(xs) == 4 and xs == sorted(xs)
    span = (days[-1] - days[0]).days
    for x, day in zip(xs, days, strict=True):  # proportional to time, not evenly spaced
        share = (x - xs[0]) / (xs[-1] - xs[0])
        assert share == pytest.approx((day - days[0]).days / span, abs=1e-4)
    assert {"Feb 2024", "Apr 2024"} <= set(texts(root))


def test_a_missing_value_breaks_the_line_and_many_rows_are_all_drawn():
    rows = [[2000 + i, None if i == 250 else float(i)] for i in range(500)]
    root = drawn(spec_of(["year", "total"], rows))
    parts = marks(root, "polyline")
    assert [len((p.get("points") or "").split()) for p in parts] == [250, 249]


def test_two_dimensions_make_side_by_side_bars_with_a_legend():
    rows = [[r, s, v] for r in ("ASIA", "EUROPE") for s, v in (("AUTO", 3.0), ("BUILD", 1.0))]
    root = drawn(spec_of(["region", "segment", "revenue"], rows))
    bars = marks(root)
    assert len(bars) == 4
    colours = {tooltip(b).split("; ")[1]: b.get("fill") for b in bars}
    assert len(set(colours.values())) == 2
    legend = next(g for g in root.iter(f"{{{NS['s']}}}g") if g.get("class") == "legend")
    entries = ["".join(t.itertext()) for t in legend.iter(f"{{{NS['s']}}}text")]
    assert entries == ["Segment", "AUTO", "BUILD"]


@pytest.mark.parametrize(
    "columns, rows, hint",
    [
        (["segment", "n"], [["a", 1], ["b", 2]], None),
        (["month", "n"], [["2024-01", 1], ["2024-02", 2]], None),
        (["month", "kind", "n"], [["2024-01", "a", 1], ["2024-01", "b", 2]], None),
        (["segment", "n"], [["a", 1], ["b", 2]], {"chart": "scatter", "x": "segment", "y": "n"}),
        (["segment", "n"], [["a", 1], ["b", 2]], {"chart": "area", "x": "segment", "y": "n"}),
        (["segment", "n"], [["a", 1], ["b", 2]], {"chart": "line", "x": "segment", "y": "n"}),
    ],
)
def test_the_shapes_answers_take_are_drawn_without_vega(columns, rows, hint):
    assert draw_svg(spec_of(columns, rows, hint)) is not None


def test_a_spec_outside_those_shapes_goes_to_vegas_engine(monkeypatch):
    pie = spec_of(["segment", "n"], [["a", 1], ["b", 2]], "pie")
    assert draw_svg(pie) is None
    assert draw_svg({**spec_of(["s", "n"], [["a", 1], ["b", 2]]), "transform": []}) is None
    asked: list[dict[str, Any]] = []

    def vega(spec: dict[str, Any]) -> str:
        asked.append(spec)
        return "<svg/>"

    monkeypatch.setattr(chart_image, "_draw_with_vega", vega)
    assert chart_image._draw(pie) == "<svg/>" and asked == [pie]
    bars = spec_of(["segment", "n"], [["a", 1], ["b", 2]])
    assert chart_image._draw(bars) == draw_svg(bars) and asked == [pie]


def test_vegas_engine_draws_what_falls_back():
    pie = spec_of(["segment", "n"], [["a", 1], ["b", 2]], "pie")
    svg = chart_image._draw_with_vega(pie)
    assert svg is not None and ET.fromstring(svg).tag == f"{{{NS['s']}}}svg"


def test_numbers_across_the_bottom_never_overlap():
    """Wide tick labels (millions) under bars running across: some are skipped, as Vega does."""
    rows = [[f"Segment {i}", 17_800_000 / (i + 1)] for i in range(10)]
    root = drawn(spec_of(["segment", "revenue"], rows))
    bottom = [
        (float(t.get("x", 0)), "".join(t.itertext()))
        for t in root.iter(f"{{{NS['s']}}}text")
        if t.get("text-anchor") == "middle" and "," in "".join(t.itertext())
    ]
    assert len(bottom) >= 3
    spans = sorted((x - len(s) * CHAR_PX / 2, x + len(s) * CHAR_PX / 2) for x, s in bottom)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))


def test_every_tall_bar_keeps_its_name_cut_to_its_width():
    rows = [[f"Region {chr(65 + i)}-abc", 10 * (i + 1)] for i in range(8)]  # 12 characters
    spec = spec_of(["region", "sales"], rows)
    assert spec["encoding"]["x"]["type"] == "nominal"  # tall bars, names underneath
    root = drawn(spec)
    names = [t for t in root.iter(f"{{{NS['s']}}}text") if "Region " in "".join(t.itertext())]
    assert len(names) == 8  # one per bar, none skipped
    for name in names:
        title = name.find("s:title", NS)
        shown = (name.text or "") if title is None else (title.tail or "")
        assert len(shown) * CHAR_PX <= 420 / 8  # fits its band
        assert title is None or (title.text or "").startswith("Region")


def test_the_docstring_example_holds():
    import doctest

    from zlens_jupyter.notebook import chart_drawing

    result = doctest.testmod(chart_drawing)
    assert result.attempted > 0 and result.failed == 0
