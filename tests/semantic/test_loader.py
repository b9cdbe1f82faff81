"""Loading `semantic/*.yml`: valid files, merging, and a clear error for each malformed case."""

from __future__ import annotations

from pathlib import Path

import pytest

from zlens_jupyter.errors import UserError
from zlens_jupyter.semantic import (
    Dimension,
    Metric,
    Relationship,
    SemanticModel,
    TimeHierarchy,
    load_semantic,
)

from .conftest import SHOP_YML, WriteSemantic


def test_valid_file_loads_every_field(shop_project: Path) -> None:
    model = load_semantic(shop_project)

    revenue = model.metrics[0]
    assert revenue == Metric(
        name="revenue",
        type="sum",
        sql="quantity * unit_price * (1 - discount)",
        table="order_items",
        label="Revenue",
        description="Gross revenue from order items.",
        synonyms=("sales", "turnover", "gmv"),
        time_column="orders.order_date",
    )
    assert revenue.source == "semantic/shop.yml"
    assert [m.name for m in model.metrics] == [
        "revenue",
        "orders",
        "customers",
        "average_order_value",
    ]
    assert model.dimensions[1] == Dimension(
        name="category",
        sql="category",
        table="products",
        type="string",
        synonyms=("product line",),
    )
    assert model.relationships[0] == Relationship("order_items", "order_id", "orders", "order_id")
    # Grains come back ordered fine to coarse whatever order the file used.
    assert model.time == TimeHierarchy("orders.order_date", ("day", "month", "year"))


def test_missing_folder_gives_an_empty_model(tmp_path: Path) -> None:
    model = load_semantic(tmp_path)
    assert model == SemanticModel()
    assert model.is_empty
    assert model.match_metrics("revenue by segment") == []


def test_empty_file_contributes_nothing(write_semantic: WriteSemantic) -> None:
    project = write_semantic({"empty.yml": "", "shop.yml": SHOP_YML})
    assert len(load_semantic(project).metrics) == 4


def test_two_files_merge_in_name_order(write_semantic: WriteSemantic) -> None:
    project = write_semantic(
        {
            "b_products.yaml": """
                dimensions:
                  - name: subcategory
                    table: products
                relationships:
                  - from: order_items.product_id
                    to: products.product_id
            """,
            "a_orders.yml": """
                metrics:
                  - name: units_sold
                    type: sum
                    sql: quantity
                    table: order_items
                relationships:
                  - from: order_items.product_id
                    to: products.product_id
                time:
                  column: orders.order_date
            """,
        }
    )
    model = load_semantic(project)
    assert [m.name for m in model.metrics] == ["units_sold"]
    assert [(d.name, d.source) for d in model.dimensions] == [
        ("subcategory", "semantic/b_products.yaml")
    ]
    assert model.relationships == (  # the same join in both files is kept once
        Relationship("order_items", "product_id", "products", "product_id"),
    )
    assert model.time is not None and model.time.grains == (
        "day",
        "week",
        "month",
        "quarter",
        "year",
    )


def test_same_metric_in_two_files_names_both(write_semantic: WriteSemantic) -> None:
    metric = """
        metrics:
          - name: revenue
            type: sum
            sql: amount
            table: orders
    """
    project = write_semantic({"a.yml": metric, "b.yml": metric})
    with pytest.raises(UserError) as caught:
        load_semantic(project)
    assert str(caught.value) == (
        "semantic/b.yml: metric 'revenue' is already defined in semantic/a.yml; rename one of them"
    )


def test_two_time_hierarchies_conflict(write_semantic: WriteSemantic) -> None:
    project = write_semantic(
        {"a.yml": "time: {column: orders.order_date}", "b.yml": "time: {column: orders.ship_date}"}
    )
    with pytest.raises(
        UserError,
        match=r"semantic/b\.yml: time is already defined in "
        r"semantic/a\.yml",
    ):
        load_semantic(project)


METRIC_HEAD = """
metrics:
  - name: revenue
    table: order_items
"""

MALFORMED: list[tuple[str, str, str]] = [
    (
        "bad type",
        METRIC_HEAD + "    type: total\n    sql: amount\n",
        "semantic/shop.yml: metric 'revenue': type 'total' is not one of sum, avg, count, "
        "count_distinct, min, max",
    ),
    (
        "not YAML",
        "metrics:\n  - name: revenue\n   type: sum\n",
        "semantic/shop.yml: not valid YAML (line 3, column",
    ),
    (
        "top level is a list",
        "- revenue\n- orders\n",
        "semantic/shop.yml: expected a mapping with keys metrics, dimensions, relationships or "
        "time at the top level, found a list",
    ),
    (
        "unknown top-level key",
        "measures: []\n",
        "semantic/shop.yml: unknown field 'measures'; expected one of metrics, dimensions, "
        "relationships, time",
    ),
    (
        "metrics is a mapping",
        "metrics:\n  revenue: {type: sum}\n",
        "semantic/shop.yml: metrics must be a list of items (each starting with '- '), found a "
        "mapping",
    ),
    (
        "metric is a string",
        "metrics:\n  - revenue\n",
        "semantic/shop.yml: metric #1: expected a mapping of name, label",
    ),
    (
        "missing name",
        "metrics:\n  - type: sum\n    sql: amount\n    table: orders\n",
        "semantic/shop.yml: metric #1: missing required field 'name'",
    ),
    (
        "name with spaces",
        "metrics:\n  - name: net revenue\n    type: sum\n    sql: amount\n    table: orders\n",
        "semantic/shop.yml: metric 'net revenue': name 'net revenue' must be an identifier",
    ),
    (
        "missing type",
        METRIC_HEAD + "    sql: amount\n",
        "semantic/shop.yml: metric 'revenue': missing required field 'type'",
    ),
    (
        "sum without sql",
        METRIC_HEAD + "    type: sum\n",
        "semantic/shop.yml: metric 'revenue': missing required field 'sql' (only a count may "
        "omit it)",
    ),
    (
        "missing table",
        "metrics:\n  - name: revenue\n    type: sum\n    sql: amount\n",
        "semantic/shop.yml: metric 'revenue': missing required field 'table'",
    ),
    (
        "misspelt field",
        METRIC_HEAD + "    type: sum\n    sql: amount\n    synonym: [sales]\n",
        "semantic/shop.yml: metric 'revenue': unknown field 'synonym'; expected one of name, "
        "label, description, type, sql, table, synonyms, time_column",
    ),
    (
        "synonyms is a mapping",
        METRIC_HEAD + "    type: sum\n    sql: amount\n    synonyms: {sales: 1}\n",
        "semantic/shop.yml: metric 'revenue': synonyms must be a list of words or phrases",
    ),
    (
        "sql is a list",
        METRIC_HEAD + "    type: sum\n    sql: [amount]\n",
        "semantic/shop.yml: metric 'revenue': sql must be text, found a list",
    ),
    (
        "bad time_column",
        METRIC_HEAD + "    type: sum\n    sql: amount\n    time_column: orders.order date\n",
        "semantic/shop.yml: metric 'revenue': time_column 'orders.order date' must be `column` "
        "or `table.column`",
    ),
    (
        "time_column on an unjoined table",
        METRIC_HEAD + "    type: sum\n    sql: amount\n    time_column: orders.order_date\n",
        "semantic/shop.yml: metric 'revenue': time_column 'orders.order_date' is on table "
        "'orders', but no relationship joins 'order_items' to 'orders'",
    ),
    (
        "dimension type",
        "dimensions:\n  - name: segment\n    table: customers\n    type: text\n",
        "semantic/shop.yml: dimension 'segment': type 'text' is not one of string, number, "
        "date, boolean",
    ),
    (
        "relationship without to",
        "relationships:\n  - from: orders.customer_id\n",
        "semantic/shop.yml: relationship #1: missing required field 'to'",
    ),
    (
        "relationship not qualified",
        "relationships:\n  - from: customer_id\n    to: customers.customer_id\n",
        "semantic/shop.yml: relationship #1: from 'customer_id' must be table.column",
    ),
    (
        "time grain",
        "time:\n  column: orders.order_date\n  grains: [month, fortnight]\n",
        "semantic/shop.yml: time: grain 'fortnight' is not one of day, week, month, quarter, year",
    ),
    (
        "time column unqualified",
        "time:\n  column: order_date\n",
        "semantic/shop.yml: time: column 'order_date' must be table.column",
    ),
    (
        "synonym shared by two metrics",
        "metrics:\n"
        "  - {name: revenue, type: sum, sql: amount, table: orders, synonyms: [sales]}\n"
        "  - {name: net_sales, type: sum, sql: net, table: orders, synonyms: [Sales]}\n",
        "semantic/shop.yml: metric 'net_sales': 'Sales' already names metric 'revenue' "
        "(semantic/shop.yml); a phrase may name only one metric",
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [(t, e) for _, t, e in MALFORMED], ids=[i for i, _, _ in MALFORMED]
)
def test_malformed_file_names_file_and_problem(
    write_semantic: WriteSemantic, text: str, expected: str
) -> None:
    project = write_semantic({"shop.yml": text})
    with pytest.raises(UserError) as caught:
        load_semantic(project)
    assert str(caught.value).startswith(expected)


def test_undecodable_file_is_a_user_error(write_semantic: WriteSemantic) -> None:
    project = write_semantic()
    (project / "semantic" / "latin.yml").write_bytes(b"metrics: [\xff]\n")
    with pytest.raises(UserError, match=r"semantic/latin\.yml: not UTF-8 text"):
        load_semantic(project)


def test_count_may_omit_sql_and_dimension_sql_defaults_to_name(
    write_semantic: WriteSemantic,
) -> None:
    project = write_semantic(
        {
            "x.yml": """
                metrics:
                  - {name: order_lines, type: count, table: order_items}
                dimensions:
                  - {name: channel, table: orders}
            """
        }
    )
    model = load_semantic(project)
    assert model.metric_sql("order_lines") == "COUNT(*)"
    assert model.dimensions[0].sql == "channel"
    assert model.dimensions[0].type == "string"
