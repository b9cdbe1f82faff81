"""The hostile corpus against a real, writable DuckDB file through Warehouse.preview:
every statement is refused and nothing it asked for happens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from zlens_jupyter.errors import GuardrailViolation
from zlens_jupyter.warehouse import Warehouse

HOSTILE: list[dict[str, str]] = yaml.safe_load(
    (Path(__file__).parent / "hostile_sql.yml").read_text()
)


def _state(con: duckdb.DuckDBPyConnection, scratch: Path) -> dict[str, Any]:
    """Everything a hostile statement could change that we can observe."""
    return {
        "accounts": con.execute("SELECT * FROM accounts ORDER BY id").fetchall(),
        "tables": con.execute(
            "SELECT database_name, table_name FROM duckdb_tables() ORDER BY ALL"
        ).fetchall(),
        "views": con.execute(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY ALL"
        ).fetchall(),
        "columns": con.execute(
            "SELECT table_name, column_name FROM duckdb_columns() ORDER BY ALL"
        ).fetchall(),
        "databases": con.execute(
            "SELECT database_name FROM duckdb_databases() ORDER BY ALL"
        ).fetchall(),
        "sequences": con.execute(
            "SELECT sequence_name, last_value FROM duckdb_sequences() ORDER BY ALL"
        ).fetchall(),
        "macros": con.execute(
            "SELECT count(*) FROM duckdb_functions() WHERE function_type = 'macro' AND NOT internal"
        ).fetchall(),
        "secrets": con.execute("SELECT count(*) FROM duckdb_secrets()").fetchall(),
        "settings": con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN "
            "('threads', 'memory_limit', 'enable_external_access', "
            "'enable_profiling') ORDER BY ALL"
        ).fetchall(),
        "files": sorted(p.name for p in scratch.rglob("*")),
    }


def test_no_hostile_statement_executes(victim_path: Path, scratch: Path) -> None:
    # Read-write on purpose: the guard alone must stop these, not a read-only connection.
    warehouse = Warehouse.connect(victim_path, read_only=False)
    before = _state(warehouse.connection, scratch)
    refused = 0
    for entry in HOSTILE:
        sql = entry["sql"].replace("{tmp}", str(scratch))
        with pytest.raises(GuardrailViolation):
            warehouse.preview(sql, timeout_s=5)
        refused += 1
    after = _state(warehouse.connection, scratch)
    warehouse.close()
    assert refused == len(HOSTILE)
    assert after == before
    assert after["accounts"] == [(1, "alice", 100.0), (2, "bob", 250.0)]


def test_the_state_check_would_notice_a_write(victim_path: Path, scratch: Path) -> None:
    """Control: run two corpus statements unguarded and see the state check catch them."""
    con = duckdb.connect(str(victim_path))
    before = _state(con, scratch)
    con.execute(f"COPY accounts TO '{scratch}/out.csv'")
    con.execute("DELETE FROM accounts WHERE id = 2")
    after = _state(con, scratch)
    con.close()
    assert after["files"] != before["files"]
    assert after["accounts"] != before["accounts"]


def test_registered_source_is_readable_through_preview(victim_path: Path, scratch: Path) -> None:
    warehouse = Warehouse.connect(victim_path)
    secret = scratch / "secret.csv"
    with pytest.raises(GuardrailViolation, match="allow_source"):
        warehouse.preview(f"SELECT * FROM read_csv('{secret}')")
    warehouse.allow_source(str(secret))
    preview = warehouse.preview(f"SELECT owner FROM read_csv('{secret}')")
    assert preview.rows == [("eve",)]
    assert warehouse.allowed_sources == (str(secret),)
    warehouse.close()
