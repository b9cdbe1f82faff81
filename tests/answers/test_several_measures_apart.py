"""Measures of two tables that share a grouping column but no key: each table is grouped by
its own column and the two are set side by side (real DuckDB file, real session)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from zlens_jupyter.engine import TrustState
from zlens_jupyter.session import Session


def test_two_tables_grouped_by_their_own_column_of_one_name(tmp_path: Path) -> None:
    path = tmp_path / "show.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE bakers (series BIGINT, baker VARCHAR, age BIGINT);
        INSERT INTO bakers SELECT 1 + i % 3, 'baker ' || i, 20 + i FROM range(14) t(i);
        CREATE TABLE episodes (series BIGINT, episode BIGINT, viewers DOUBLE);
        INSERT INTO episodes SELECT 1 + i // 4, 1 + i % 4, 2.0 + i FROM range(12) t(i);
        """
    )
    con.close()
    session = Session(path, tmp_path / "project")
    try:
        run = session.ask("how many bakers and how many episodes per series")
        # It used to stop at "I can't find how bakers relates to episodes (no join key)".
        assert run.result is not None, run.clarification
        assert run.trust_state in (TrustState.GROUNDED, TrustState.REVIEW_REQUIRED)
        got = {row[0]: tuple(row[1:]) for row in run.result["rows"]}
        assert got == {1: (5, 4), 2: (5, 4), 3: (4, 4)}
        assert "FULL JOIN" in run.sql and "bakers.series" in run.sql
    finally:
        session.close()


def test_an_average_over_repeated_rows_keeps_namesakes_apart(tmp_path: Path) -> None:
    """Orders repeated by their lines, grouped by product name: two products of one name
    stay two rows, each order taken once per product."""
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE products (product_id BIGINT PRIMARY KEY, name VARCHAR);
        INSERT INTO products VALUES (1, 'Desk'), (2, 'Desk'), (3, 'Lamp');
        CREATE TABLE orders (order_id BIGINT PRIMARY KEY, amount DOUBLE);
        INSERT INTO orders SELECT i, 10.0 * i FROM range(1, 13) t(i);
        CREATE TABLE order_items (order_id BIGINT, product_id BIGINT, quantity BIGINT);
        INSERT INTO order_items SELECT 1 + i % 12, 1 + i % 3, 1 FROM range(36) t(i);
        INSERT INTO order_items SELECT 1 + i % 12, 1 + i % 3, 2 FROM range(12) t(i);
        """
    )
    truth = sorted(
        con.execute(
            "SELECT p.name, ROUND(AVG(o.amount), 2) FROM orders o JOIN ("
            "SELECT DISTINCT order_id, product_id FROM order_items) i USING (order_id) "
            "JOIN products p USING (product_id) GROUP BY p.product_id, p.name"
        ).fetchall()
    )
    con.close()
    session = Session(path, tmp_path / "project")
    try:
        run = session.ask("average order amount by product")
        assert run.result is not None, run.clarification
        got = sorted((row[0], round(float(row[1]), 2)) for row in run.result["rows"])
        assert got == truth
        assert len(got) == 3  # the two desks apart
    finally:
        session.close()
