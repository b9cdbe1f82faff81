"""SemanticModel: aggregate SQL per metric type, lookups, joins and time columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from zlens_jupyter.errors import UserError
from zlens_jupyter.semantic import METRIC_TYPES, Metric, Relationship, SemanticModel, load_semantic


@pytest.mark.parametrize(
    ("metric_type", "sql", "expected"),
    [
        (
            "sum",
            "quantity * unit_price * (1 - discount)",
            "SUM(quantity * unit_price * (1 - discount))",
        ),
        ("avg", "amount", "AVG(amount)"),
        ("count", "order_id", "COUNT(order_id)"),
        ("count", "", "COUNT(*)"),
        ("count_distinct", "customer_id", "COUNT(DISTINCT customer_id)"),
        ("min", "order_date", "MIN(order_date)"),
        ("max", "  amount  ", "MAX(amount)"),
    ],
)
def test_metric_sql_per_type(metric_type: str, sql: str, expected: str) -> None:
    metric = Metric("m", metric_type, sql, "t")
    assert SemanticModel([metric]).metric_sql(metric) == expected


def test_every_metric_type_has_sql() -> None:
    model = SemanticModel([Metric(f"m_{t}", t, "x", "t") for t in METRIC_TYPES])
    rendered = [model.metric_sql(m) for m in model.metrics]
    assert all(s.endswith("(x)") for s in rendered if "DISTINCT" not in s)
    assert len(set(rendered)) == len(METRIC_TYPES)


def test_metric_sql_by_name_or_synonym(shop_project: Path) -> None:
    model = load_semantic(shop_project)
    assert model.metric_sql("Turnover") == "SUM(quantity * unit_price * (1 - discount))"
    assert model.metric_sql("buyers") == "COUNT(DISTINCT customer_id)"
    with pytest.raises(UserError, match="Unknown metric 'profit'; known metrics: revenue, orders"):
        model.metric_sql("profit")


def test_lookup_by_name_label_synonym_case_and_plural(shop_project: Path) -> None:
    model = load_semantic(shop_project)
    revenue = model.metric("revenue")
    assert revenue is not None
    assert model.metric("REVENUES") is revenue
    assert model.metric("GMV") is revenue
    assert model.metric("Average Order Value") is model.metric("average_order_value")
    assert model.metric("segment") is None  # a dimension is not a metric
    segment = model.dimension("Customer segments")
    assert segment is not None and segment.name == "segment"
    assert model.dimension("order date") is model.dimension("order_date")
    assert model.dimension("nonexistent") is None


def test_join_path_is_shortest_and_works_both_ways(shop_project: Path) -> None:
    model = load_semantic(shop_project)
    assert model.join_path("orders", "orders") == []
    assert model.join_path("order_items", "customers") == [
        Relationship("order_items", "order_id", "orders", "order_id"),
        Relationship("orders", "customer_id", "customers", "customer_id"),
    ]
    assert model.join_path("customers", "products") == [
        Relationship("orders", "customer_id", "customers", "customer_id"),
        Relationship("order_items", "order_id", "orders", "order_id"),
        Relationship("order_items", "product_id", "products", "product_id"),
    ]
    assert model.join_path("orders", "warehouses") is None
    assert model.relationships[0].join_condition == "order_items.order_id = orders.order_id"


def test_time_column_for_metric(shop_project: Path) -> None:
    model = load_semantic(shop_project)
    assert model.time_column_for("revenue") == "orders.order_date"  # declared on the metric
    assert model.time_column_for("customers") == "orders.order_date"  # from the hierarchy
    lonely = SemanticModel([Metric("visits", "count", "", "web_visits", time_column="day")])
    assert lonely.time_column_for("visits") == "web_visits.day"
    unjoined = SemanticModel([Metric("stock", "sum", "units", "inventory")], time=model.time)
    assert unjoined.time_column_for("stock") is None


def test_to_dict_round_trips_the_shape(shop_project: Path) -> None:
    data = load_semantic(shop_project).to_dict()
    assert data["metrics"][0]["synonyms"] == ["sales", "turnover", "gmv"]
    assert data["metrics"][1]["label"] == "orders"  # no label: the name, readable
    assert data["relationships"][0] == {"from": "order_items.order_id", "to": "orders.order_id"}
    assert data["time"] == {"column": "orders.order_date", "grains": ["day", "month", "year"]}


def test_model_is_immutable_and_accepts_lists() -> None:
    model = SemanticModel(metrics=[Metric("m", "sum", "x", "t")])
    assert isinstance(model.metrics, tuple)
    with pytest.raises(AttributeError):
        model.metrics = ()  # type: ignore[misc]


def test_metric_expression_resolves_names_and_synonyms(shop_project: Path) -> None:
    model = load_semantic(shop_project)
    assert model.metric_expression("GMV") == "SUM(quantity * unit_price * (1 - discount))"
    assert model.metric_expression("nonexistent") is None


def test_relationship_is_a_plain_four_tuple() -> None:
    rel = Relationship("orders", "customer_id", "customers", "customer_id")
    assert len(rel) == 4
    assert tuple(rel) == ("orders", "customer_id", "customers", "customer_id")
    assert rel == ("orders", "customer_id", "customers", "customer_id")
    assert rel.to_dict() == {"from": "orders.customer_id", "to": "customers.customer_id"}
