"""Connecting to Spark: `%zlens connect spark` in a real IPython shell with a `spark`
variable, and the command line's Parquet folder (`--spark-tables DIR`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from traitlets.config import Config

from zlens_jupyter.errors import ConfigError
from zlens_jupyter.notebook.insert import sql_cell_source
from zlens_jupyter.warehouse.spark import SparkWarehouse, is_spark_session
from zlens_jupyter.warehouse.spark.launch import register_parquet_folder, start_spark


@pytest.fixture
def shop_folder(tmp_path: Path) -> Path:
    """Two small Parquet tables, the way `--spark-tables DIR` expects them."""
    folder = tmp_path / "tables"
    folder.mkdir()
    con = duckdb.connect()
    con.execute(
        "COPY (SELECT * FROM (VALUES (1, 'north', 10.0), (2, 'south', 5.0), (3, 'north', 2.5))"
        f" AS t(order_id, region, amount)) TO '{folder / 'orders.parquet'}' (FORMAT parquet)"
    )
    (folder / "notes.txt").write_text("not a table")
    con.close()
    return folder


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.chdir(tmp_path)
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    shell = InteractiveShell.instance(config=config)
    shell.run_line_magic("load_ext", "zlens_jupyter")
    yield shell
    magics = shell.magics_manager.registry.get("ZLensMagics")
    if magics is not None and magics.session is not None:
        magics.session.close()
    InteractiveShell.clear_instance()


def test_a_parquet_folder_becomes_tables(spark: Any, shop_folder: Path) -> None:
    session = spark.newSession()
    assert register_parquet_folder(session, shop_folder) == ["orders"]
    catalog = SparkWarehouse(session).catalog()
    assert list(catalog.tables) == ["orders"]
    assert catalog.tables["orders"].row_count == 3
    assert catalog.tables["orders"].column("region").distinct_values == ("north", "south")
    with pytest.raises(ConfigError, match="no such folder"):
        register_parquet_folder(session, shop_folder.parent / "ipython")


def test_zlens_connect_spark_in_a_notebook(
    spark: Any, shop_folder: Path, shell: Any, tmp_path: Path
) -> None:
    session = spark.newSession()
    register_parquet_folder(session, shop_folder)
    shell.user_ns["spark"] = session
    assert is_spark_session(session) and not is_spark_session(duckdb.connect())
    with capture_output() as connected:
        shell.run_line_magic("zlens", f"connect spark --project {tmp_path / 'project'}")
    assert "connected to spark: tables orders" in connected.stdout
    magics = shell.magics_manager.registry["ZLensMagics"]
    assert isinstance(magics.session.warehouse, SparkWarehouse)
    run = magics.session.ask("total amount by region")
    assert run.trust_state.value == "grounded"
    assert sorted(run.df.itertuples(index=False, name=None)) == [("north", 12.5), ("south", 5.0)]
    # Insert SQL cell: the statement Spark ran, which %%zlens_sql runs again as Spark SQL.
    cell = str(sql_cell_source(run))
    magic, body = cell.split("\n", 1)
    assert magic == "%%zlens_sql" and run.sql in body
    with capture_output() as rerun:
        shell.run_cell_magic("zlens_sql", "", body)
    assert "zlens:" not in rerun.stderr, rerun.stderr
    assert "12.5" in str(rerun.outputs[0].data) if rerun.outputs else "12.5" in rerun.stdout
    # Written by hand for Spark too: backticks are Spark's quoting, not a DuckDB error.
    with capture_output() as by_hand:
        shell.run_cell_magic(
            "zlens_sql", "", "SELECT `region`, sum(`amount`) AS total FROM `orders` GROUP BY 1"
        )
    assert "zlens:" not in by_hand.stderr, by_hand.stderr


def test_a_warehouse_directory_layout_becomes_tables(
    spark: Any, shop_folder: Path, tmp_path: Path
) -> None:
    """`--spark-warehouse DIR --spark-database shop`: DIR/shop.db/orders/ is table orders."""
    table = tmp_path / "warehouse" / "shop.db" / "orders"
    table.mkdir(parents=True)
    shutil.copy(shop_folder / "orders.parquet", table / "part-00000.parquet")
    session = start_spark("local[2]", warehouse=tmp_path / "warehouse", database="shop")
    try:
        assert session is spark  # getOrCreate: the running session, with the views added
        assert "orders" in [t.name for t in session.catalog.listTables()]
        assert session.sql("SELECT count(*) FROM orders").collect()[0][0] == 3
    finally:
        session.catalog.dropTempView("orders")
        session.sparkContext.setLogLevel("FATAL")
