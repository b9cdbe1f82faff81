"""The hostile corpus against a real, writable DuckDB file through Warehouse.preview:
every statement is refused and nothing it asked for happens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from zlens_jupyter.errors import GuardrailViolation, QueryError
from zlens_jupyter.warehouse import Warehouse

SECRET_SETTING = "s3cret-proxy-pw"  # set on the user's connection; must never surface
# Agent SQL DuckDB ran, from its own query log (this query's own text is left out).
RAN = (
    "SELECT count(*) FROM duckdb_logs WHERE type = 'QueryLog' "
    "AND contains(message, ') AS zlens_preview LIMIT') AND NOT contains(message, 'duckdb_logs')"
)

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
            "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal ORDER BY ALL"
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
        "types": con.execute(
            "SELECT type_name FROM duckdb_types() WHERE NOT internal ORDER BY ALL"
        ).fetchall(),
        "secrets": con.execute("SELECT count(*) FROM duckdb_secrets()").fetchall(),
        "extensions": con.execute(
            "SELECT extension_name FROM duckdb_extensions() WHERE loaded ORDER BY ALL"
        ).fetchall(),
        "settings": con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN "
            "('threads', 'memory_limit', 'enable_external_access', 'lock_configuration', "
            "'autoload_known_extensions', 'autoinstall_known_extensions', "
            "'http_proxy_password', 'enable_profiling', 'enable_logging') ORDER BY ALL"
        ).fetchall(),
        "files": sorted(p.name for p in scratch.rglob("*")),
    }


def _refuse_all(
    warehouse: Warehouse, scratch: Path, *, guard_first: bool = True
) -> tuple[int, int, list[str]]:
    """Send the whole corpus through `warehouse.preview`; return (refused, executed, every
    error message). With `guard_first`, executed counts statements the guard let through
    (the preview would run them); without, the caller counts from DuckDB's query log."""
    refused = executed = 0
    messages: list[str] = []
    for entry in HOSTILE:
        sql = entry["sql"].replace("{tmp}", str(scratch))
        if guard_first:
            try:
                warehouse.guard(sql)
            except (GuardrailViolation, QueryError):
                pass
            else:
                executed += 1
                continue
        try:
            warehouse.preview(sql, timeout_s=5)
        except (GuardrailViolation, QueryError) as error:
            refused += 1
            messages.append(str(error))
    return refused, executed, messages


def test_no_hostile_statement_executes_on_a_file_zlens_opens(
    hostile_path: Path, scratch: Path
) -> None:
    before = _state_of_file(hostile_path, scratch)
    warehouse = Warehouse.connect(hostile_path)  # read-only, private, locked down
    assert warehouse.is_private
    refused, executed, _ = _refuse_all(warehouse, scratch)
    warehouse.close()
    assert (refused, executed) == (len(HOSTILE), 0)
    assert _state_of_file(hostile_path, scratch) == before


def _state_of_file(path: Path, scratch: Path) -> dict[str, Any]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return _state(con, scratch)
    finally:
        con.close()


def test_no_hostile_statement_executes_on_the_users_read_write_connection(
    hostile_path: Path, scratch: Path
) -> None:
    # The user's own read-write connection, with a credential in its settings.
    user = duckdb.connect(str(hostile_path))
    user.execute(f"SET http_proxy_password = '{SECRET_SETTING}'")
    # DuckDB logs every statement it runs, on every cursor: the oracle for "executed" (agent
    # SQL only ever runs wrapped as `... AS zlens_preview`).
    user.execute("CALL enable_logging('QueryLog')")
    before = _state(user, scratch)
    warehouse = Warehouse.connect(user)
    assert not warehouse.is_private
    refused, _, messages = _refuse_all(warehouse, scratch, guard_first=False)
    (executed,) = user.execute(RAN).fetchone() or (None,)
    assert (refused, executed) == (len(HOSTILE), 0)
    warehouse.preview("SELECT 1 AS control")  # the oracle does see a statement that ran
    assert user.execute(RAN).fetchone() == (1,)
    assert _state(user, scratch) == before
    assert not [m for m in messages if SECRET_SETTING in m]
    # The sequence was never advanced: the next insert takes the id it would have anyway.
    user.execute("INSERT INTO items (label) VALUES ('second')")
    assert user.execute("SELECT max(id) FROM items").fetchone() == (2,)
    user.close()


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
