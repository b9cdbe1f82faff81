"""The sample semantic layer checked against the real sample database."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.dql import BlockLibrary, compile_block, parse_block
from zlens_jupyter.semantic import Metric, SemanticModel, load_semantic


@pytest.fixture(scope="module")
def model(sample_project: Path) -> SemanticModel:
    return load_semantic(sample_project)


def columns_of(shop: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], str]:
    rows = shop.execute(
        "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE NOT internal"
    ).fetchall()
    return {(t, c): d for t, c, d in rows}


def test_expected_vocabulary(model: SemanticModel) -> None:
    assert {"revenue", "orders", "customers", "average_order_value", "units_sold"} <= {
        m.name for m in model.metrics
    }
    assert {
        "segment",
        "region",
        "category",
        "subcategory",
        "channel",
        "status",
        "product_name",
        "order_date",
    } <= {d.name for d in model.dimensions}
    assert {m.type for m in model.metrics} >= {"sum", "count", "count_distinct", "avg", "max"}
    assert model.time is not None and model.time.column == "orders.order_date"


def test_every_metric_runs_on_its_table(
    model: SemanticModel, shop: duckdb.DuckDBPyConnection
) -> None:
    for metric in model.metrics:
        (value,) = shop.execute(f"SELECT {model.metric_sql(metric)} FROM {metric.table}").fetchone()  # type: ignore[misc]
        assert value is not None and value > 0, metric.name


def test_every_dimension_runs_and_has_values(
    model: SemanticModel, shop: duckdb.DuckDBPyConnection
) -> None:
    types = {"string": "VARCHAR", "date": "DATE"}
    for dim in model.dimensions:
        result = shop.execute(f"SELECT DISTINCT {dim.sql} FROM {dim.table}")
        assert result.description[0][1] == types[dim.type], dim.name
        assert len(result.fetchall()) > 1, dim.name


def test_relationships_and_time_columns_reference_real_columns(
    model: SemanticModel, shop: duckdb.DuckDBPyConnection
) -> None:
    columns = columns_of(shop)
    for rel in model.relationships:
        assert (rel.from_table, rel.from_column) in columns, rel
        assert (rel.to_table, rel.to_column) in columns, rel
        assert columns[(rel.from_table, rel.from_column)] == columns[(rel.to_table, rel.to_column)]
    assert model.time is not None
    assert columns[tuple(model.time.column.split("."))] == "DATE"  # type: ignore[index]
    for metric in model.metrics:
        time_column = model.time_column_for(metric)
        assert time_column is not None
        assert columns[tuple(time_column.split("."))] == "DATE"  # type: ignore[index]


def monthly_sql(model: SemanticModel, metric: Metric) -> str:
    """A metric by month, joined along the model's relationships (what a route would build)."""
    time_column = model.time_column_for(metric)
    assert time_column is not None
    time_table = time_column.split(".")[0]
    path = model.join_path(metric.table, time_table)
    assert path is not None
    joined, joins = {metric.table}, []
    for rel in path:
        new = rel.to_table if rel.from_table in joined else rel.from_table
        joins.append(f"JOIN {new} ON {rel.join_condition}")
        joined.add(new)
    return (
        f"SELECT date_trunc('month', {time_column}) AS month, {model.metric_sql(metric)} "
        f"FROM {metric.table} {' '.join(joins)} GROUP BY 1"
    )


def test_metrics_by_month_through_the_join_graph(
    model: SemanticModel, shop: duckdb.DuckDBPyConnection
) -> None:
    for metric in model.metrics:
        rows = shop.execute(monthly_sql(model, metric)).fetchall()
        assert len(rows) == 24, metric.name


def test_semantic_revenue_equals_the_certified_block(
    model: SemanticModel, shop: duckdb.DuckDBPyConnection, sample_project: Path
) -> None:
    revenue = model.metric("sales")
    assert revenue is not None
    (semantic_total,) = shop.execute(
        f"SELECT {model.metric_sql(revenue)} FROM {revenue.table}"
    ).fetchone()  # type: ignore[misc]
    block = BlockLibrary.load(sample_project).get("Revenue by segment")
    assert block is not None and block.query is not None
    (block_total,) = shop.execute(f"SELECT sum(revenue) FROM ({block.query})").fetchone()  # type: ignore[misc]
    assert abs(semantic_total - block_total) < 1


@pytest.mark.parametrize(
    ("question", "metric", "dimension"),
    [
        ("What is total revenue by customer segment?", "revenue", "segment"),
        ("How many orders by channel?", "orders", "channel"),
        ("Average order value by region", "average_order_value", "region"),
        ("units sold per product category", "units_sold", "category"),
        ("top products by sales", "revenue", "product_name"),
        ("gross margin by subcategory", "gross_profit", "subcategory"),
    ],
)
def test_sample_questions_match(
    model: SemanticModel, question: str, metric: str, dimension: str
) -> None:
    assert model.match_metrics(question)[0][0].name == metric
    assert model.match_dimensions(question)[0][0].name == dimension


def test_metric_reference_in_a_dql_block_compiles_through_the_model(
    model: SemanticModel, shop: duckdb.DuckDBPyConnection
) -> None:
    block = parse_block(
        'block "Units by category" {\n'
        '  query = """\n'
        '    SELECT p.category, @metric("units sold") AS units_sold\n'
        "    FROM order_items JOIN products AS p USING (product_id)\n"
        "    GROUP BY 1\n"
        '  """\n'
        "}\n"
    )
    compiled = compile_block(block, None, metric_resolver=model.metric_expression)
    rows = shop.execute(compiled.sql).fetchall()
    (total,) = shop.execute("SELECT sum(quantity) FROM order_items").fetchone()  # type: ignore[misc]
    assert len(rows) == 5
    assert sum(units for _, units in rows) == total
