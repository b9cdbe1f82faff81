"""A certified block with a `@param` and a dashboard that binds it (the sample's blocks
declare no parameters), shared by the dashboard tests and the browser test."""

from __future__ import annotations

from pathlib import Path

REGION_BLOCK = '''// dql-format: 1
block "Revenue by segment for a region" {
  domain = "sales"
  type = "custom"
  status = "review"
  description = "Gross revenue by customer segment, optionally for one customer region."
  owner = "analytics@sample-shop.example"
  grain = "segment"
  outputs = ["segment", "revenue"]
  dimensions = ["segment"]
  filterBindings {
    region = "customers.region"
  }

  params {
    region = "all"
  }

  query = """
    SELECT c.segment,
           ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS revenue
    FROM order_items AS oi
    JOIN orders AS o ON o.order_id = oi.order_id
    JOIN customers AS c ON c.customer_id = o.customer_id
    WHERE @param("region") = 'all' OR c.region = @param("region")
    GROUP BY c.segment
    ORDER BY revenue DESC
  """

  visualization {
    chart = "bar"
    x = segment
    y = revenue
  }

  tests {
    assert row_count == 4
  }
}
'''

REGION_DASHBOARD = """// dql-format: 1
dashboard "Regional sales" {
  domain = "sales"
  status = "review"
  owner = "analytics@sample-shop.example"
  description = "Segment revenue for a chosen region next to the monthly trend."
  columns = 2

  filter "region" {
    label = "Region"
    param = "region"
  }

  filter "month" {
    label = "Month"
    type = "range"
    column = "month"
  }

  tile "Segments in the region" {
    block = "Revenue by segment for a region"
    chart = "bar"
  }

  tile "Monthly revenue" {
    block = "Monthly revenue"
    width = 2
  }
}
"""


def add_region_dashboard(session: object, project: Path) -> None:
    """Write the block and the dashboard into `project`; certify the block (real record)."""
    (project / "blocks" / "revenue_by_segment_for_region.dql").write_text(REGION_BLOCK)
    (project / "dashboards").mkdir(exist_ok=True)
    (project / "dashboards" / "regional_sales.dql").write_text(REGION_DASHBOARD)
    session.reload()  # type: ignore[attr-defined]
    session.certify("Revenue by segment for a region", by="reviewer@sample-shop.example")  # type: ignore[attr-defined]
