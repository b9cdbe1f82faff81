"""The read-only tools a model may call, run against the real warehouse (the llm `ToolHost`).

Every tool answers with a JSON dict. Problems the model can fix (an unknown table, a column
that does not exist, SQL the guard refuses, a DuckDB error) come back as `{"error": ...}`
observations with the nearest real names, never as exceptions, so the model can try again.
What the model sees is bounded: at most 20 sample values, at most 200 preview rows, schema
slices of one table at a time; nothing here can return a whole table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from ..errors import GuardrailViolation, QueryError, QueryTimeout
from ..llm.limits import LimitReached
from ..warehouse.validate import nearest_names
from .kit import RouteKit

MAX_SAMPLE_VALUES = 20
MAX_PREVIEW_ROWS = 200
MAX_SCHEMA_COLUMNS = 80
_VALUE_CHARS = 80  # one long free-text value must not flood the model's context
MIN_STATEMENT_S = 0.25  # the shortest statement timeout a tool runs with


class WarehouseToolHost:
    """`ToolHost` over a `RouteKit`: catalog search, schema, samples, metrics, SQL preview.

    `timeout_s` bounds every statement a tool runs; `seconds_left` (the run's clock) shrinks
    that bound as the run goes on, and a tool asked for after the deadline is not run
    (LimitReached("timeout")). `calls` counts the tools run, for the trace.
    """

    def __init__(
        self,
        kit: RouteKit,
        *,
        timeout_s: float = 10.0,
        seconds_left: Callable[[], float | None] | None = None,
    ) -> None:
        self.kit = kit
        self._timeout_s = max(0.5, min(timeout_s, kit.statement_timeout_s))
        self._seconds_left = seconds_left
        self.calls = 0

    def _start_tool(self) -> None:
        """Count the tool, unless the run's time is spent (then it does not run)."""
        _ = self.timeout_s  # raises LimitReached after the deadline
        self.calls += 1

    @property
    def timeout_s(self) -> float:
        """The statement timeout for the next tool: within the time the run has left."""
        left = self._seconds_left() if self._seconds_left is not None else None
        if left is None:
            return self._timeout_s
        if left <= 0:
            raise LimitReached("timeout", "the run's time budget is spent; no more tools run")
        return max(MIN_STATEMENT_S, min(self._timeout_s, left))

    # -- catalog --------------------------------------------------------------------------

    def search_catalog(self, query: str, k: int = 5) -> dict[str, Any]:
        """Metrics, tables and columns that match `query` (BM25 over names, comments and
        sampled values; metric names and synonyms), at most `k` of each kind."""
        self._start_tool()
        k = _clamp(k, 1, MAX_SAMPLE_VALUES)
        catalog = self.kit.warehouse.catalog()
        linked = self.kit.warehouse.link(query, k_tables=k, k_columns=k)
        results: list[dict[str, Any]] = []
        for metric, score in self.kit.semantic.match_metrics(query)[:k]:
            results.append(
                {
                    "kind": "metric",
                    "name": metric.name,
                    "table": metric.table,
                    "score": round(score, 3),
                    "description": metric.description or metric.display_name,
                }
            )
        for name, score in linked.tables:
            table = catalog.table(name)
            hit: dict[str, Any] = {"kind": "table", "name": name, "score": round(score, 3)}
            if table is not None:
                hit["row_count"] = table.row_count
                if table.comment:
                    hit["description"] = table.comment
            results.append(hit)
        for column in linked.columns:
            info = catalog.table(column.table)
            col = info.column(column.column) if info is not None else None
            results.append(
                {
                    "kind": "column",
                    "name": column.column,
                    "table": column.table,
                    "type": col.type if col is not None else None,
                    "score": round(column.score, 3),
                }
            )
        return {"results": results}

    def inspect_schema(self, table: str) -> dict[str, Any]:
        """Columns and types of one table, with its row count and the keys it joins on."""
        self._start_tool()
        catalog = self.kit.warehouse.catalog()
        info = catalog.table(table)
        if info is None:
            return _unknown("table", table, list(catalog.tables))
        columns = [
            {"name": c.name, "type": c.type, **({"description": c.comment} if c.comment else {})}
            for c in info.columns[:MAX_SCHEMA_COLUMNS]
        ]
        joins = [
            k.condition()  # every column pair of a composite key, joined by AND
            for k in catalog.join_keys
            if info.name in (k.left_table, k.right_table)
        ]
        schema: dict[str, Any] = {
            "table": info.name,
            "columns": columns,
            "row_count": info.row_count,
            "joins": joins,
        }
        if info.comment:
            schema["description"] = info.comment
        if len(info.columns) > MAX_SCHEMA_COLUMNS:
            schema["more_columns"] = len(info.columns) - MAX_SCHEMA_COLUMNS
        return schema

    def sample_values(self, table: str, column: str, k: int = 5) -> dict[str, Any]:
        """Up to `k` (at most 20) distinct non-null values of one column."""
        self._start_tool()
        k = _clamp(k, 1, MAX_SAMPLE_VALUES)
        catalog = self.kit.warehouse.catalog()
        info = catalog.table(table)
        if info is None:
            return _unknown("table", table, list(catalog.tables))
        col = info.column(column)
        if col is None:
            return _unknown("column", column, [c.name for c in info.columns], table=info.name)
        if col.distinct_values:  # already sampled by the catalog: no query needed
            values: list[Any] = list(col.distinct_values[:k])
        else:
            name = exp.column(col.name, quoted=True)
            query = (
                exp.select(name)
                .distinct()
                .from_(exp.table_(info.name, quoted=True))
                .where(exp.Not(this=exp.Is(this=name.copy(), expression=exp.Null())))
                .order_by(name.copy())
                .limit(k)
            )
            try:
                preview = self.kit.warehouse.preview(
                    query.sql(dialect="duckdb"), limit=k, timeout_s=self.timeout_s
                )
            except QueryError as exc:
                return {"error": str(exc), "table": info.name, "column": col.name}
            values = [row[0] for row in preview.to_dict()["rows"]]
        shown = [_short(v) for v in values]
        return {"table": info.name, "column": col.name, "type": col.type, "values": shown}

    def lookup_metric(self, name: str) -> dict[str, Any]:
        """The governed definition of a metric: its aggregate SQL, table and time column."""
        self._start_tool()
        semantic = self.kit.semantic
        metric = semantic.metric(name)
        if metric is None:
            return _unknown("metric", name, [m.name for m in semantic.metrics])
        definition = metric.to_dict()
        definition.pop("source", None)  # a file path says nothing the model needs
        definition["expression"] = semantic.metric_sql(metric)
        definition["time_column"] = semantic.time_column_for(metric)
        return definition

    # -- SQL ------------------------------------------------------------------------------

    def run_sql_preview(self, sql: str, limit: int = 50) -> dict[str, Any]:
        """Guard, validate against the catalog, and run at most `limit` (<= 200) rows.

        Every refusal or failure is an observation the model can act on."""
        self._start_tool()
        limit = _clamp(limit, 1, MAX_PREVIEW_ROWS)
        warehouse = self.kit.warehouse
        try:
            statement = warehouse.guard(sql)
        except GuardrailViolation as exc:
            return {
                "error": f"refused by the read-only guard: {exc}",
                "executed": False,
                "fix": "write ONE SELECT over the connected tables; nothing else is allowed",
            }
        problems = warehouse.validate(statement)
        if problems:
            return {
                "error": problems[0].message,
                "executed": False,
                "problems": [
                    {"kind": p.kind, "name": p.name, "did_you_mean": p.nearest} for p in problems
                ],
            }
        try:
            preview = warehouse.preview(statement, limit=limit, timeout_s=self.timeout_s)
        except QueryTimeout as exc:
            return {"error": f"{exc}; narrow the query (a filter, fewer groups)", "executed": True}
        except QueryError as exc:
            return {"error": str(exc), "executed": True}
        data = preview.to_dict()
        return {
            "columns": data["columns"],
            "column_types": data["column_types"],
            "rows": data["rows"],
            "row_count": data["row_count"],
            "truncated": data["truncated"],
        }


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(int(value), high))


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > _VALUE_CHARS:
        return value[: _VALUE_CHARS - 1] + "…"
    return value


def _unknown(kind: str, name: str, known: list[str], *, table: str | None = None) -> dict[str, Any]:
    """An error observation naming the nearest real names (and some of the rest)."""
    where = f" in {table}" if table else ""
    near = nearest_names(name, known, fallback=True)
    message = f"no {kind} named {name!r}{where}"
    if near:
        message += f"; did you mean {' or '.join(near)}?"
    return {"error": message, "did_you_mean": near, f"known_{kind}s": known[:40]}


class GroundingHost(WarehouseToolHost):
    """The host the up-front prompt context is built from: it shows sample values only for
    categorical columns (the catalog's sampled low-cardinality text), never free text such as
    names or e-mail addresses. The model can still ask for values with `sample_values`,
    bounded and recorded in the trace."""

    def sample_values(self, table: str, column: str, k: int = 5) -> dict[str, Any]:
        info = self.kit.warehouse.catalog().table(table)
        col = info.column(column) if info is not None else None
        if col is None or not col.distinct_values:
            return {"table": table, "column": column, "values": []}
        return super().sample_values(table, column, k)
