"""The sources of the cells an answer offers to insert: a `%%dql` block draft and a SQL cell.

Both come from the run record alone (no model, no database), so they can be rebuilt from a
stored run. The lab extension inserts them below the answer's cell; without it the answer's
<details> block shows them to copy.
"""

from __future__ import annotations

import base64
import re
from functools import lru_cache
from typing import Any

from ..dql.block import Block
from ..dql.formatter import format_declaration
from ..dql.literals import Ident
from ..dql.model import Assertion, Field, Item, Section, Value
from ..engine.records import AgentRun
from .chart import chart_choice

DQL_MAGIC = "%%dql"
# The cell magic that runs read-only SQL against the session's connection.
SQL_MAGIC = "%%zlens_sql"
_NAME_LIMIT = 60


def dql_draft_source(run: AgentRun | dict[str, Any]) -> str | None:
    """A `%%dql` cell holding a reviewable draft block for the run's answer, or None.

    Uses the run's `dql_block_draft` artifact when there is one; otherwise drafts a minimal
    `status = "draft"` block around the answer's SQL. AI output is always a draft: only a
    person certifies.
    """
    data = _as_dict(run)
    for artifact in reversed(data.get("artifacts") or []):
        content = artifact.get("content") or {}
        if artifact.get("kind") in ("dql_block_draft", "app_draft") and isinstance(
            content.get("source"), str
        ):
            return _with_magic(DQL_MAGIC, content["source"])
    sql = (data.get("sql") or "").strip()
    if not sql:
        return None
    # `format_declaration` of the draft block: its leading comments, one line each, then
    # the block, whose text is kept per question and SQL (see `_draft_text`).
    comments = "".join(f"// {c}\n" for c in _draft_comments(data))
    return _with_magic(DQL_MAGIC, comments + _draft_text(_draft_key(data)))


def sql_cell_source(run: AgentRun | dict[str, Any], *, magic: str = SQL_MAGIC) -> str | None:
    """A cell that reruns the answer's SQL (from a `sql_cell` artifact or the answer), or None."""
    data = _as_dict(run)
    sql = None
    for artifact in reversed(data.get("artifacts") or []):
        content = artifact.get("content") or {}
        if artifact.get("kind") == "sql_cell":
            sql = content.get("source") or content.get("sql")
            break
    sql = (sql or data.get("sql") or "").strip()
    if not sql:
        return None
    header = f"-- {_one_line(data.get('question', ''))}\n" if data.get("question") else ""
    return _with_magic(magic, header + sql + "\n")


def draft_block(run: AgentRun | dict[str, Any]) -> Block:
    """A minimal draft block for the run's SQL: what a reviewer completes and certifies."""
    data = _as_dict(run)
    block = _draft_of(_draft_key(data))
    block.leading_comments = _draft_comments(data)
    return block


# What a draft block is made of, less its leading comments (which name the run): question,
# domain, dialect, result columns, SQL and chart.
_DraftKey = tuple[str, str, str | None, tuple[str, ...], str, tuple[str, str, str] | None]


def _draft_key(data: dict[str, Any]) -> _DraftKey:
    question = _one_line(data.get("question") or "Untitled question")
    result = data.get("result") or {}
    columns = tuple(str(c) for c in result.get("columns") or [])
    domain = str((data.get("context") or {}).get("domain") or "analytics")
    dialect = (data.get("provenance") or {}).get("dialect")
    sql = str(data.get("sql") or "").strip()
    chart = chart_choice(result, (data.get("provenance") or {}).get("visualization"))
    return (
        question,
        domain,
        dialect if isinstance(dialect, str) and dialect else None,
        columns,
        sql,
        chart,
    )


def _draft_comments(data: dict[str, Any]) -> list[str]:
    return [
        f"Drafted by ZLens from run {data.get('id', '?')}: review it, add owner and grain,",
        "then certify it with %zlens certify (a person's act; the agent never certifies).",
    ]


def _draft_of(key: _DraftKey) -> Block:
    question, domain, dialect, columns, sql, chart = key
    items: list[Item] = [
        Field("domain", domain),
        Field("type", "custom"),
        Field("status", "draft"),
    ]
    if dialect:  # the run's SQL is that engine's (Spark SQL)
        items.append(Field("dialect", dialect))
    items += [
        Field("description", question),
        Field("llmContext", f"Use when people ask: {question}"),
    ]
    if columns:
        outputs: list[Value] = [*columns]
        items.append(Field("outputs", outputs))
    items.append(Field("query", sql))
    if chart is not None:
        kind, x, y = chart
        fields: list[Item] = [Field("chart", kind), Field("x", _ident(x)), Field("y", _ident(y))]
        items.append(Section("visualization", fields))
    items.append(Section("tests", [Assertion("row_count", ">", 0)]))
    return Block(kind="block", name=_block_name(question), items=items)


@lru_cache(maxsize=64)
def _draft_text(key: _DraftKey) -> str:
    """The draft block's DQL without its leading comments. Formatting it is most of what an
    answer card's Insert as DQL cell costs, and the same answer (a re-run cell, the live
    panel and the card of one run) drafts the same block: formatted once, kept."""
    return format_declaration(_draft_of(key))


def encode_source(source: str) -> str:
    """Base64 of the UTF-8 source: safe inside an HTML attribute, decoded by the extension."""
    return base64.b64encode(source.encode("utf-8")).decode("ascii")


def _as_dict(run: AgentRun | dict[str, Any]) -> dict[str, Any]:
    return run.to_dict() if isinstance(run, AgentRun) else run


def _with_magic(magic: str, body: str) -> str:
    body = body.lstrip("\n")
    if body.startswith(magic):
        return body
    return f"{magic}\n{body}" if body.endswith("\n") else f"{magic}\n{body}\n"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _block_name(question: str) -> str:
    name = question.rstrip("?.! ")
    if len(name) > _NAME_LIMIT:
        name = name[:_NAME_LIMIT].rsplit(" ", 1)[0] + "…"
    return name or "Untitled"


def _ident(name: str) -> str:
    """A bare identifier when DQL allows one (`x = segment`), else a quoted string."""
    return Ident(name) if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else name


__all__ = [
    "DQL_MAGIC",
    "SQL_MAGIC",
    "dql_draft_source",
    "draft_block",
    "encode_source",
    "sql_cell_source",
]
