"""The structure planted in the sample data: growth, a Q4 peak and the December 2025 drop."""

from __future__ import annotations

import duckdb

REVENUE_BY = """
    SELECT {key} AS key, strftime(o.order_date, '%Y-%m') AS month,
           sum(oi.quantity * oi.unit_price * (1 - oi.discount)) AS revenue
    FROM order_items oi
    JOIN orders o USING (order_id)
    JOIN customers c USING (customer_id)
    JOIN products p USING (product_id)
    GROUP BY ALL
"""


def revenue(shop: duckdb.DuckDBPyConnection, key: str = "'all'") -> dict[tuple[str, str], float]:
    rows = shop.execute(REVENUE_BY.format(key=key)).fetchall()
    return {(k, m): float(r) for k, m, r in rows}


def test_year_over_year_growth(shop: duckdb.DuckDBPyConnection) -> None:
    by_year = dict(
        shop.execute(
            "SELECT year(order_date), sum(amount)::DOUBLE FROM orders GROUP BY 1"
        ).fetchall()
    )
    assert 1.15 < by_year[2025] / by_year[2024] < 1.35


def test_fourth_quarter_peak(shop: duckdb.DuckDBPyConnection) -> None:
    by_quarter = dict(
        shop.execute(
            "SELECT quarter(order_date), sum(amount)::DOUBLE FROM orders "
            "WHERE year(order_date) = 2024 GROUP BY 1"
        ).fetchall()
    )
    assert by_quarter[4] == max(by_quarter.values())
    assert by_quarter[4] > 1.2 * by_quarter[1]


def test_december_2025_drop_is_driven_by_west_electronics(
    shop: duckdb.DuckDBPyConnection,
) -> None:
    total = revenue(shop)
    # December normally beats November; in 2025 it falls.
    assert total["all", "2024-12"] > total["all", "2024-11"]
    drop = total["all", "2025-12"] - total["all", "2025-11"]
    assert drop < -0.05 * total["all", "2025-11"]

    region = revenue(shop, "c.region")
    west_change = region["West", "2025-12"] - region["West", "2025-11"]
    assert west_change < drop  # the West alone loses more than the whole company
    assert region["West", "2025-12"] < 0.6 * region["West", "2025-11"]
    for other in ("North", "South", "East"):
        assert region[other, "2025-12"] > region[other, "2025-11"], other

    west_category = revenue(shop, "c.region || '/' || p.category")
    electronics = ("West/Electronics", "2025-12"), ("West/Electronics", "2025-11")
    assert west_category[electronics[0]] < 0.2 * west_category[electronics[1]]
    changes = {
        key: west_category[key, "2025-12"] - west_category[key, "2025-11"]
        for key, month in west_category
        if key.startswith("West/") and month == "2025-12"
    }
    assert min(changes, key=lambda k: changes[k]) == "West/Electronics"
    assert changes["West/Electronics"] < 0.6 * west_change  # the biggest part of the fall
