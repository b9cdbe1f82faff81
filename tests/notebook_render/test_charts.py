"""Vega-Lite charts: only where one fits, always with fields that exist in the inlined data."""

from __future__ import annotations

import datetime as dt
from typing import Any

from zlens_jupyter.engine import StepOutcome
from zlens_jupyter.notebook.render import (
    VEGA_LITE,
    answer_bundle,
    answer_outputs,
    chart_choice,
    vega_lite_spec,
)


def assert_valid(spec: dict[str, Any]) -> None:
    """The parts of the Vega-Lite v5 schema a renderer needs, and fields that resolve."""
    assert spec["$schema"] == "https://vega.github.io/schema/vega-lite/v5.json"
    assert spec["mark"]["type"] in {"bar", "line", "area", "point", "arc"}
    values = spec["data"]["values"]
    assert values and all(isinstance(v, dict) for v in values)
    for channel in spec["encoding"].values():
        assert channel["type"] in {"quantitative", "nominal", "ordinal", "temporal"}
        field = channel["field"].replace("\\.", ".").replace("\\[", "[").replace("\\]", "]")
        assert all(field in row for row in values), field
        if channel["type"] == "quantitative":
            assert all(isinstance(row[field], int | float) for row in values)


def spec_for(make_run, result: dict[str, Any], visualization: Any = None) -> dict | None:
    provenance = {"visualization": visualization} if visualization is not None else {}
    run = make_run(
        lambda ctx: StepOutcome(answer="ok", sql="SELECT 1", result=result, provenance=provenance)
    )
    return answer_bundle(run)[0].get(VEGA_LITE)


def test_category_and_number_make_a_sorted_bar_chart(grounded_run):
    data, _ = answer_bundle(grounded_run)
    spec = data[VEGA_LITE]
    assert_valid(spec)
    assert spec["mark"]["type"] == "bar"
    assert spec["encoding"]["x"] == {
        "field": "segment",
        "type": "nominal",
        "title": "Segment",  # words, not the raw column name
        "sort": "-y",
        "axis": {"labelAngle": 0},  # labels read level
    }
    assert [row["revenue"] for row in spec["data"]["values"]] == [1250.5, 990.25, 1733.0]


def test_time_column_and_number_make_a_line_chart(make_run):
    days = [dt.date(2013, 1, d) for d in range(1, 11)]
    result = {
        "columns": ["flight_date", "flights"],
        "rows": [[d, 800 + i] for i, d in enumerate(days)],
    }
    spec = spec_for(make_run, result)
    assert spec is not None
    assert_valid(spec)
    assert spec["mark"]["type"] == "line"
    assert spec["encoding"]["x"]["type"] == "temporal"
    assert spec["data"]["values"][0] == {"flight_date": "2013-01-01", "flights": 800}


def test_integer_years_are_an_ordered_axis(make_run):
    result = {"columns": ["year", "revenue"], "rows": [[2021, 1.0], [2022, 2.5], [2023, 3.0]]}
    spec = spec_for(make_run, result)
    assert spec is not None and spec["mark"]["type"] == "line"
    assert spec["encoding"]["x"]["type"] == "ordinal"


def test_single_values_and_wide_tables_get_no_chart(make_run):
    assert spec_for(make_run, {"columns": ["total"], "rows": [[42]]}) is None
    one_row = {"columns": ["segment", "revenue"], "rows": [["A", 1.0]]}
    assert spec_for(make_run, one_row) is None
    wide = {"columns": ["a", "b", "c", "d"], "rows": [["x", "y", "v", 1], ["z", "w", "u", 2]]}
    assert spec_for(make_run, wide) is None
    text_only = {"columns": ["a", "b"], "rows": [["x", "y"], ["z", "w"]]}
    assert spec_for(make_run, text_only) is None


def test_a_block_visualization_hint_wins(make_run):
    result = {
        "columns": ["carrier", "month", "delay"],
        "rows": [["UA", 1, 10.5], ["AA", 2, 8.0], ["DL", 3, 7.25]],
    }
    spec = spec_for(make_run, result, {"chart": "line", "x": "month", "y": "delay"})
    assert spec is not None
    assert_valid(spec)
    assert (spec["mark"]["type"], spec["encoding"]["x"]["field"]) == ("line", "month")
    assert spec_for(make_run, result, {"chart": "bar", "x": "nope", "y": "delay"}) is None
    assert spec_for(make_run, result, "single_value") is None


def test_dotted_field_names_are_escaped_for_vega_lite():
    result = {"columns": ["o.segment", "sum(o.amount)"], "rows": [["A", 1], ["B", 2]]}
    spec = vega_lite_spec({"question": "q", "result": result})
    assert spec is not None
    assert spec["encoding"]["x"]["field"] == "o\\.segment"
    assert spec["encoding"]["x"]["title"] == "o.segment"  # not an identifier: as written
    assert_valid(spec)


def test_chart_data_is_capped_at_500_rows():
    rows = [[dt.date(2013, 1, 1) + dt.timedelta(days=i), i] for i in range(900)]
    spec = vega_lite_spec({"result": {"columns": ["day", "n"], "rows": rows}})
    assert spec is not None and len(spec["data"]["values"]) == 500
    assert chart_choice({"columns": ["day", "n"], "rows": rows}) == ("line", "day", "n")


def test_answer_outputs_put_the_chart_in_its_own_output(grounded_run, clarification_run):
    # One output shows one mime type (Lab ranks HTML above Vega-Lite), so the chart is apart.
    (answer, meta), (chart, chart_meta) = answer_outputs(grounded_run)
    assert VEGA_LITE not in answer and "text/html" in answer
    assert set(chart) == {VEGA_LITE, "text/plain"}
    assert chart["text/plain"] == "[bar chart: revenue by segment]"
    assert chart_meta == meta
    assert len(answer_outputs(clarification_run)) == 1


def test_two_dimensions_are_colour_encoded_grouped_bars_with_a_legend(make_run):
    result = {
        "columns": ["region", "segment", "revenue"],
        "rows": [[r, s, 10.0 * i + j] for i, r in enumerate("NESW") for j, s in enumerate("AB")],
    }
    spec = spec_for(make_run, result)
    assert spec is not None
    assert_valid(spec)
    assert spec["mark"]["type"] == "bar"
    assert spec["encoding"]["color"] == {"field": "segment", "type": "nominal", "title": "Segment"}
    assert spec["encoding"]["xOffset"] == {"field": "segment", "type": "nominal"}
    assert "stack" not in spec["encoding"]["y"]


def test_time_and_a_dimension_make_one_line_per_colour(make_run):
    months = ["2025-01", "2025-02", "2025-03"]
    result = {
        "columns": ["month", "region", "revenue"],
        "rows": [[m, r, 1.0] for m in months for r in ("East", "West")],
    }
    spec = spec_for(make_run, result)
    assert spec is not None and spec["mark"]["type"] == "line"
    assert spec["encoding"]["color"]["field"] == "region"


def test_long_or_many_labels_make_horizontal_bars(make_run):
    names = [f"Product category number {i}" for i in range(5)]
    result = {"columns": ["category", "avg_weight_kg"], "rows": [[n, 1.5] for n in names]}
    spec = spec_for(make_run, result)
    assert spec is not None
    assert_valid(spec)
    assert spec["encoding"]["y"]["field"] == "category" and spec["encoding"]["y"]["sort"] == "-x"
    assert spec["encoding"]["x"]["title"] == "Average weight (kg)"  # units from the name
    assert spec["height"] == {"step": 20}  # a band per bar
    many = {"columns": ["code", "n"], "rows": [[f"C{i}", i] for i in range(12)]}
    assert spec_for(make_run, many)["encoding"]["y"]["field"] == "code"


def test_one_number_is_a_kpi_tile(make_run):
    run = make_run(
        lambda ctx: StepOutcome(
            answer="There are 753.",
            sql="SELECT 1",
            result={"columns": ["customers"], "rows": [[753]]},
        )
    )
    html = answer_bundle(run)[0]["text/html"]
    assert 'class="zlens-kpi"' in html and "<table" not in html
    assert ">Customers</div>" in html and ">753</div>" in html
