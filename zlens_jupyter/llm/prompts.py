"""Bounded grounding context and the exact messages sent to the model.

The context is a slice, never a dump: the top-k tables for the question, at most
`max_columns` columns each, at most `max_samples` sample values per text column, and a hard
character cap. A context overflow asks for a smaller slice (`shrink` halves every bound).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .redact import redact_secrets
from .tools import ToolHost

DEFAULT_SYSTEM_PROMPT = """\
You are a careful analytics assistant answering questions over a DuckDB database.
Use the tools to find the right tables, columns, values and metrics. Never guess a table,
column or filter value: check it with a tool. SQL must be ONE read-only SELECT (or WITH ...
SELECT) in DuckDB syntax. Before writing SQL, state your query plan: the grain (what one
result row means), the measures, the dimensions and the join path. Test your SQL with
run_sql_preview, then call final_answer with query_plan, sql and a one-sentence answer.
If the data cannot answer the question, call final_answer without sql and say why."""

_TEXT_TYPES = ("VARCHAR", "TEXT", "STRING", "ENUM", "CHAR")
_SAMPLE_CHARS = 40  # one long free-text value must not eat the prompt


@dataclass
class ColumnSlice:
    name: str
    type: str
    samples: list[Any] = field(default_factory=list)


@dataclass
class TableSlice:
    name: str
    columns: list[ColumnSlice]
    row_count: int | None = None
    description: str | None = None


@dataclass
class GroundingContext:
    """The part of the catalog the model is shown up front."""

    tables: list[TableSlice] = field(default_factory=list)
    metrics: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        """Compact text for the prompt: one line per table, samples inline."""
        lines: list[str] = []
        for table in self.tables:
            head = f"table {table.name}"
            if table.row_count is not None:
                head += f" ({table.row_count} rows)"
            if table.description:
                head += f": {table.description}"
            lines.append(head)
            for column in table.columns:
                line = f"  - {column.name} {column.type}"
                if column.samples:
                    line += " e.g. " + ", ".join(json.dumps(s, default=str) for s in column.samples)
                lines.append(line)
        for metric in self.metrics:
            lines.append(f"metric {json.dumps(metric, default=str, ensure_ascii=False)}")
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _bound(value: int, shrink: int, floor: int) -> int:
    return max(floor, value >> max(shrink, 0))


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > _SAMPLE_CHARS:
        return value[: _SAMPLE_CHARS - 1] + "…"
    return value


def ground_from_host(
    host: ToolHost,
    question: str,
    *,
    max_tables: int = 4,
    max_columns: int = 16,
    max_samples: int = 3,
    max_sampled_columns: int = 4,
    max_chars: int = 6000,
    shrink: int = 0,
) -> GroundingContext:
    """Build a bounded GroundingContext for `question` from the host's read tools.

    `shrink` (how many context overflows so far) halves every bound per level, and from
    level 2 on no sample values are included at all.
    """
    max_tables = _bound(max_tables, shrink, 1)
    max_columns = _bound(max_columns, shrink, 4)
    max_samples = 0 if shrink >= 2 else _bound(max_samples, shrink, 1)
    max_chars = _bound(max_chars, shrink, 1000)

    found = host.search_catalog(question, max(5, max_tables * 3)).get("results", [])
    table_names: list[str] = []
    matched_columns: set[tuple[str, str]] = set()
    metric_names: list[str] = []
    for hit in found:
        kind, name = hit.get("kind"), hit.get("name")
        table = hit.get("table") or (name if kind == "table" else None)
        if kind == "metric" and name:
            metric_names.append(str(name))
        if table and table not in table_names:
            table_names.append(str(table))
        if kind == "column" and table and name:
            matched_columns.add((str(table), str(name)))

    context = GroundingContext()
    for name in table_names[:max_tables]:
        schema = host.inspect_schema(name)
        if schema.get("error"):
            continue
        columns = list(schema.get("columns", []))
        # Columns the search matched come first, so truncation drops the irrelevant ones.
        columns.sort(key=lambda c: (name, c.get("name")) not in matched_columns)
        slices: list[ColumnSlice] = []
        sampled = 0
        for column in columns[:max_columns]:
            col = ColumnSlice(str(column.get("name")), str(column.get("type", "")))
            is_text = col.type.upper().startswith(_TEXT_TYPES)
            if max_samples and is_text and sampled < max_sampled_columns:
                values = host.sample_values(name, col.name, max_samples).get("values", [])
                col.samples = [_short(v) for v in values[:max_samples]]
                sampled += 1
            slices.append(col)
        if len(columns) > max_columns:
            context.notes.append(f"{name} has {len(columns) - max_columns} more columns")
        context.tables.append(
            TableSlice(name, slices, schema.get("row_count"), schema.get("description"))
        )
    for metric in metric_names[:3]:
        definition = host.lookup_metric(metric)
        if not definition.get("error"):
            context.metrics.append(definition)

    # Hard cap: drop whole tables from the end rather than cut one in half.
    while len(context.render()) > max_chars and len(context.tables) > 1:
        dropped = context.tables.pop()
        context.notes.append(f"table {dropped.name} omitted for space; inspect_schema shows it")
    return context


@dataclass
class Prompt:
    """The exact messages for the first call, and a readable rendering of them."""

    messages: list[dict[str, Any]]
    show_prompt: str


def render_messages(messages: Sequence[dict[str, Any]]) -> str:
    """A human-readable transcript (secrets scrubbed) for a "show prompt" view."""
    parts = []
    for message in redact_secrets(list(messages)):
        body = message.get("content") or ""
        if message.get("tool_calls"):
            body += "\n" + json.dumps(message["tool_calls"], ensure_ascii=False)
        parts.append(f"--- {message.get('role', '?')} ---\n{body}")
    return "\n".join(parts)


def build_messages(
    question: str,
    *,
    system_prompt: str | None = None,
    context: GroundingContext | str | None = None,
    few_shot: Sequence[dict[str, Any]] | None = None,
) -> Prompt:
    """System prompt, optional few-shot example messages, then the question with its context."""
    rendered = context.render() if isinstance(context, GroundingContext) else (context or "")
    user = f"Question: {question}"
    if rendered:
        user += f"\n\nRelevant catalog (a slice; use the tools for more):\n{rendered}"
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt or DEFAULT_SYSTEM_PROMPT},
        *[dict(m) for m in few_shot or []],
        {"role": "user", "content": user},
    ]
    return Prompt(messages, render_messages(messages))
