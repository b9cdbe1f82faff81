"""Fixtures for the semantic layer: small projects written to a temporary folder."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

SHOP_YML = """
metrics:
  - name: revenue
    label: Revenue
    description: Gross revenue from order items.
    type: sum
    sql: quantity * unit_price * (1 - discount)
    table: order_items
    synonyms: [sales, turnover, gmv]
    time_column: orders.order_date
  - name: orders
    type: count
    sql: order_id
    table: orders
    synonyms: [number of orders, purchases]
  - name: customers
    type: count_distinct
    sql: customer_id
    table: orders
    synonyms: [buyers]
  - name: average_order_value
    label: Average order value
    type: avg
    sql: amount
    table: orders
    synonyms: [aov, order value]
dimensions:
  - name: segment
    sql: segment
    table: customers
    type: string
    synonyms: [customer segment]
  - name: category
    table: products
    synonyms: [product line]
  - name: order_date
    sql: order_date
    table: orders
    type: date
relationships:
  - from: order_items.order_id
    to: orders.order_id
  - from: orders.customer_id
    to: customers.customer_id
  - from: order_items.product_id
    to: products.product_id
time:
  column: orders.order_date
  grains: [month, day, year]
"""

WriteSemantic = Callable[..., Path]


@pytest.fixture
def write_semantic(tmp_path: Path) -> WriteSemantic:
    """Write `semantic/<name>` files into a fresh project and return the project folder."""
    project = tmp_path / "project"

    def write(files: dict[str, str] | None = None, **named: str) -> Path:
        folder = project / "semantic"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in {**(files or {}), **named}.items():
            (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
        return project

    return write


@pytest.fixture
def shop_project(write_semantic: WriteSemantic) -> Path:
    return write_semantic({"shop.yml": SHOP_YML})
