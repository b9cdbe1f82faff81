"""Build the sample shop DuckDB file once, in the user cache, safely across processes.

The file name carries `SAMPLE_VERSION`, so changing the generator gives a new file instead of
silently reusing an old one. A build writes a private temporary file and renames it into place
(`os.replace` is atomic), under a lock file so two processes starting at once build it only
once and nobody ever sees a half-written database.

Run `python -m zlens_jupyter.sample` to (re)build it and print the time and size.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import platformdirs
from filelock import FileLock

from zlens_jupyter.sample.schema import CREATE_TABLES, comment_statements

SAMPLE_VERSION = 1
CACHE_ENV_VAR = "ZLENS_CACHE_DIR"
_LOCK_TIMEOUT_SECONDS = 300

# Staging frames are cast to the declared column types on insert (floats → DECIMAL).
_INSERTS = {
    "customers": "SELECT customer_id, name, email, segment, region, "
    "CAST(signup_date AS DATE) FROM customers_df",
    "products": "SELECT product_id, name, category, subcategory, "
    "CAST(unit_price AS DECIMAL(10, 2)), CAST(cost AS DECIMAL(10, 2)) FROM products_df",
    # The order total is computed from the staged lines with the same decimal arithmetic
    # the revenue metric uses, so orders.amount and order_items always agree.
    "orders": """
        SELECT o.order_id, o.customer_id, CAST(o.order_date AS DATE), o.status, o.channel,
               CAST(ROUND(t.amount, 2) AS DECIMAL(12, 2))
        FROM orders_df AS o
        JOIN (
            SELECT order_id,
                   SUM(quantity * CAST(unit_price AS DECIMAL(10, 2))
                       * (1 - CAST(discount AS DECIMAL(4, 2)))) AS amount
            FROM items_df GROUP BY order_id
        ) AS t USING (order_id)
        ORDER BY o.order_id
    """,
    "order_items": "SELECT order_item_id, order_id, product_id, quantity, "
    "CAST(unit_price AS DECIMAL(10, 2)), CAST(unit_cost AS DECIMAL(10, 2)), "
    "CAST(discount AS DECIMAL(4, 2)) FROM items_df",
}


def cache_dir() -> Path:
    """Where ZLens keeps generated files: `$ZLENS_CACHE_DIR`, else the platform user cache."""
    override = os.environ.get(CACHE_ENV_VAR)
    return Path(override) if override else Path(platformdirs.user_cache_dir("zlens-jupyter"))


def sample_database_target() -> Path:
    """Where the sample database of this generator version lives (built or not)."""
    return cache_dir() / f"sample-shop-v{SAMPLE_VERSION}.duckdb"


def sample_database_path() -> Path:
    """Path of the sample shop database, building it on first use (a few seconds).

    Safe to call from several processes at once: one builds, the others wait and reuse it.
    """
    target = sample_database_target()
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock", timeout=_LOCK_TIMEOUT_SECONDS):
        if not target.exists():  # another process may have built it while we waited
            build_sample_database(target)
    return target


def build_sample_database(target: Path) -> None:
    """Generate the shop and write it to `target` atomically (temp file, then rename)."""
    temporary = target.with_name(f"{target.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        _write_database(temporary)
        os.replace(temporary, target)
    finally:
        for leftover in (temporary, temporary.with_name(temporary.name + ".wal")):
            leftover.unlink(missing_ok=True)


def _write_database(path: Path) -> None:
    # Imported here so that finding an already-built sample costs no numpy/pandas/duckdb import.
    import duckdb

    from zlens_jupyter.sample.data import generate_shop

    shop = generate_shop()
    con = duckdb.connect(str(path))
    try:
        staged = {
            "customers_df": shop.customers,
            "products_df": shop.products,
            "orders_df": shop.orders,
            "items_df": shop.order_items,
        }
        for name, frame in staged.items():
            con.register(name, frame)
        con.execute("BEGIN TRANSACTION")
        con.execute(CREATE_TABLES)
        for table, select in _INSERTS.items():  # parents first, so foreign keys resolve
            con.execute(f"INSERT INTO {table} {select}")
        for statement in comment_statements():
            con.execute(statement)
        con.execute("COMMIT")
        for name in staged:
            con.unregister(name)
        con.execute("CHECKPOINT")
    finally:
        con.close()
