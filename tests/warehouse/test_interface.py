"""DuckDB's Warehouse is a WarehouseEngine: what routes, gates and the DQL runner rely on."""

from __future__ import annotations

import doctest

from zlens_jupyter.warehouse import Warehouse, interface
from zlens_jupyter.warehouse.interface import WarehouseEngine


def test_duckdb_warehouse_satisfies_the_interface() -> None:
    with Warehouse.connect(":memory:") as warehouse:
        assert isinstance(warehouse, WarehouseEngine)
        assert warehouse.dialect == "duckdb"
        assert warehouse.engine_sql("SELECT 1 AS x") == "SELECT 1 AS x"
        assert warehouse.preview(warehouse.engine_sql("SELECT 1 AS x")).rows == [(1,)]


def test_the_interface_docstring_example_runs() -> None:
    result = doctest.testmod(interface)
    assert result.attempted > 0 and result.failed == 0
