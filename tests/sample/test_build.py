"""Building the sample database: where it goes, what it holds, determinism and concurrency."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.sample import SAMPLE_VERSION, cache_dir, sample_database_path

TABLES = ("customers", "products", "orders", "order_items")


def table_fingerprints(path: Path) -> dict[str, tuple[int, int]]:
    """Row count and an order-independent checksum of every row, per table."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            table: con.execute(f"SELECT count(*), sum(hash(t)) FROM {table} AS t").fetchone()  # type: ignore[misc]
            for table in TABLES
        }
    finally:
        con.close()


def test_cache_dir_honours_the_environment(fresh_cache: Path) -> None:
    assert cache_dir() == fresh_cache


def test_database_is_versioned_in_the_cache_and_built_once(sample_env: Path) -> None:
    path = sample_database_path()
    assert path == sample_env / f"sample-shop-v{SAMPLE_VERSION}.duckdb"
    built_at = path.stat().st_mtime_ns
    assert sample_database_path() == path
    assert path.stat().st_mtime_ns == built_at  # reused, not rebuilt
    leftovers = [p.name for p in sample_env.iterdir() if p.name.endswith((".tmp", ".wal"))]
    assert leftovers == []


def test_two_builds_are_identical(sample_db_path: Path, fresh_cache: Path) -> None:
    second = sample_database_path()
    assert second != sample_db_path
    first_prints = table_fingerprints(sample_db_path)
    assert table_fingerprints(second) == first_prints
    con = duckdb.connect(str(second), read_only=True)
    try:
        (amount,) = con.execute("SELECT sum(amount) FROM orders").fetchone()  # type: ignore[misc]
    finally:
        con.close()
    con = duckdb.connect(str(sample_db_path), read_only=True)
    try:
        assert con.execute("SELECT sum(amount) FROM orders").fetchone() == (amount,)
    finally:
        con.close()


@pytest.mark.parametrize(
    ("table", "low", "high"),
    [
        ("customers", 10_000, 10_000),
        ("products", 500, 500),
        ("orders", 95_000, 105_000),
        ("order_items", 230_000, 270_000),
    ],
)
def test_row_counts(shop: duckdb.DuckDBPyConnection, table: str, low: int, high: int) -> None:
    (count,) = shop.execute(f"SELECT count(*) FROM {table}").fetchone()  # type: ignore[misc]
    assert low <= count <= high


def test_value_domains(shop: duckdb.DuckDBPyConnection) -> None:
    def values(sql: str) -> set[object]:
        return {row[0] for row in shop.execute(sql).fetchall()}

    assert values("SELECT DISTINCT segment FROM customers") == {
        "Consumer",
        "Corporate",
        "Enterprise",
        "Small Business",
    }
    assert values("SELECT DISTINCT region FROM customers") == {"North", "South", "East", "West"}
    assert values("SELECT DISTINCT category FROM products") == {
        "Electronics",
        "Furniture",
        "Office Supplies",
        "Apparel",
        "Books",
    }
    assert values("SELECT DISTINCT status FROM orders") == {"completed", "returned", "cancelled"}
    assert values("SELECT DISTINCT channel FROM orders") == {"web", "store", "partner"}
    first, last = shop.execute("SELECT min(order_date), max(order_date) FROM orders").fetchone()  # type: ignore[misc]
    assert (str(first), str(last)) == ("2024-01-01", "2025-12-31")
    assert shop.execute("SELECT count(DISTINCT name) = count(*) FROM products").fetchone() == (
        True,
    )
    assert shop.execute("SELECT bool_and(cost < unit_price) FROM products").fetchone() == (True,)


def test_referential_integrity(shop: duckdb.DuckDBPyConnection) -> None:
    orphans = {
        "order lines without an order": """
            SELECT count(*) FROM order_items oi LEFT JOIN orders o USING (order_id)
            WHERE o.order_id IS NULL""",
        "order lines without a product": """
            SELECT count(*) FROM order_items oi LEFT JOIN products p USING (product_id)
            WHERE p.product_id IS NULL""",
        "orders without a customer": """
            SELECT count(*) FROM orders o LEFT JOIN customers c USING (customer_id)
            WHERE c.customer_id IS NULL""",
        "orders without lines": """
            SELECT count(*) FROM orders o
            WHERE NOT EXISTS (SELECT 1 FROM order_items oi WHERE oi.order_id = o.order_id)""",
        "orders before the customer signed up": """
            SELECT count(*) FROM orders o JOIN customers c USING (customer_id)
            WHERE o.order_date < c.signup_date""",
        "order totals that disagree with their lines": """
            SELECT count(*) FROM orders o JOIN (
                SELECT order_id, sum(quantity * unit_price * (1 - discount)) AS total
                FROM order_items GROUP BY order_id) t USING (order_id)
            WHERE abs(o.amount - t.total) > 0.005""",
    }
    found = {name: shop.execute(sql).fetchone()[0] for name, sql in orphans.items()}  # type: ignore[index]
    assert found == dict.fromkeys(orphans, 0)


def test_keys_constraints_and_comments(shop: duckdb.DuckDBPyConnection) -> None:
    constraints = set(
        shop.execute(
            "SELECT table_name, constraint_type FROM duckdb_constraints() "
            "WHERE constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')"
        ).fetchall()
    )
    assert {(t, "PRIMARY KEY") for t in TABLES} <= constraints
    assert {("orders", "FOREIGN KEY"), ("order_items", "FOREIGN KEY")} <= constraints
    uncommented_tables = shop.execute(
        "SELECT table_name FROM duckdb_tables() WHERE coalesce(comment, '') = ''"
    ).fetchall()
    uncommented_columns = shop.execute(
        "SELECT table_name, column_name FROM duckdb_columns() "
        "WHERE NOT internal AND coalesce(comment, '') = ''"
    ).fetchall()
    assert uncommented_tables == []
    assert uncommented_columns == []


def test_foreign_keys_are_enforced(sample_db_path: Path, tmp_path: Path) -> None:
    copy = tmp_path / "shop-copy.duckdb"
    shutil.copyfile(sample_db_path, copy)
    con = duckdb.connect(str(copy))
    try:
        with pytest.raises(duckdb.ConstraintException, match="foreign key"):
            con.execute("INSERT INTO order_items VALUES (0, -1, 1, 1, 1.00, 0.50, 0)")
        with pytest.raises(duckdb.ConstraintException):
            con.execute("INSERT INTO customers SELECT * FROM customers LIMIT 1")
    finally:
        con.close()


BUILD_IN_CHILD = (
    "from zlens_jupyter.sample import sample_database_path; print(sample_database_path())"
)


def test_concurrent_first_use_builds_one_good_file(tmp_path: Path, sample_db_path: Path) -> None:
    cache = tmp_path / "shared-cache"
    env = {**os.environ, "ZLENS_CACHE_DIR": str(cache)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", BUILD_IN_CHILD],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [child.communicate(timeout=240) for child in children]
    assert [child.returncode for child in children] == [0, 0], outputs
    paths = {Path(out.strip()) for out, _ in outputs}
    assert len(paths) == 1
    (path,) = paths
    assert sorted(p.name for p in cache.iterdir()) == [path.name, path.name + ".lock"]
    assert table_fingerprints(path) == table_fingerprints(sample_db_path)
