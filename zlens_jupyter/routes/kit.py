"""What every route executor shares: the warehouse, the block library, the semantic model, and
one way to run a statement that records the facts the gates will judge."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import disk_memo
from ..dql import BlockLibrary
from ..engine import StepContext
from ..engine.intent import APP_REQUEST, strip_app_framing
from ..errors import GuardrailViolation, QueryError, QueryTimeout
from ..parsing import (
    Lexicon,
    ParseResult,
    QuestionFrame,
    build_lexicon,
    read_frame,
)
from ..semantic import SemanticModel
from ..warehouse.interface import WarehouseEngine

# Requests to change data or reach outside it are refused before any SQL exists.
_WRITE_INTENT = re.compile(
    r"^\s*(please\s+|can you\s+|could you\s+)?(delete|drop|truncate|insert|update|alter|remove|"
    r"wipe|erase|overwrite|grant|revoke|attach|detach|install|export|dump|set|change|modify|"
    r"rename|reset|increase|decrease)\b"
    r"|\b(delete|drop|truncate|wipe|erase|remove)\s+(all|every|the|table|tables|rows|records|data|"
    r"database)\b|\b(insert\s+into|update\s+\w+\s+set|alter\s+table|"
    r"(create|replace)\s+(or\s+replace\s+)?(table|view|schema|index|database|macro|secret))\b",
    re.IGNORECASE,
)
_FILE_INTENT = re.compile(
    r"(/etc/|/root/|/home/|~/|\.\./|\bpasswd\b|\.ssh\b|\bread(_csv|_parquet|_text|_json|_blob)\b|"
    r"\b(read|open|cat|show)\s+(the\s+)?(file|files)\b|https?://|file://|\bs3://|"
    r"\benv(ironment)?\s+variables?\b|\bapi[_ ]key\b|\bsecrets?\b|"
    # An absolute path to a system folder, or a file name by its extension ("to x.csv").
    r"(?<![\w/])/(tmp|var|usr|opt|etc|root|home|mnt|proc|sys|dev|srv|private)\b|"
    r"\w\.(csv|tsv|parquet|jsonl?|xlsx?|txt|duckdb|db|sqlite)\b)",
    re.IGNORECASE,
)
_SQL_START = re.compile(r"^\s*(select|with)\b", re.IGNORECASE)
# "write sql for ...", "draft a dql block for ...": the request, not the question.
_FRAMING = re.compile(
    r"^\s*(please\s+)?(write|generate|draft|give\s+me|show\s+me|create|make)\s+(me\s+)?"
    r"(the\s+|a\s+|an\s+)?(sql|query|dql\s+block|dql|block|sql\s+cell|cell)\s*"
    r"(for|to|that|showing|with|of|:)?\s*",
    re.IGNORECASE,
)


def strip_framing(question: str) -> str:
    """The question inside a request for code or an app: "write sql for revenue" -> "revenue",
    "build a dashboard of revenue by region" -> "revenue by region"."""
    question = _FRAMING.sub("", question, count=1) or question
    if APP_REQUEST.search(question):
        return strip_app_framing(question) or question
    return question


def refuse_unsafe_request(question: str) -> None:
    """Agent SQL is read-only whatever the question says: refuse, never attempt."""
    if _WRITE_INTENT.search(question):
        raise GuardrailViolation(
            "ZLens only reads data: it will not delete, change or create anything. "
            "Ask a question about the data instead."
        )
    if _FILE_INTENT.search(question):
        raise GuardrailViolation(
            "ZLens only queries the connected database: it will not read files, URLs, "
            "environment variables or secrets."
        )


def looks_like_sql(text: str) -> bool:
    return bool(_SQL_START.match(text))


@dataclass
class RouteKit:
    warehouse: WarehouseEngine
    library: BlockLibrary
    semantic: SemanticModel
    project_dir: Path
    preview_limit: int = 1000
    statement_timeout_s: float = 30.0
    _lexicon: tuple[str, Lexicon] | None = field(default=None, repr=False)
    _validated: dict[tuple[str, str], list[Any]] = field(default_factory=dict, repr=False)
    _parsed: dict[tuple[str, str], ParseResult] = field(default_factory=dict, repr=False)
    # The last certified match (routing asks, then the route): its key and result.
    _matched: tuple[tuple[Any, ...], Any] | None = field(default=None, repr=False)

    def lexicon(self) -> Lexicon:
        catalog = self.warehouse.dated_catalog()
        if self._lexicon is None or self._lexicon[0] != catalog.fingerprint:
            self._lexicon = (catalog.fingerprint, build_lexicon(catalog, self.semantic))
        return self._lexicon[1]

    def frame(self, question: str) -> QuestionFrame:
        """The question's structure (no catalog), read once per question and shared."""
        return read_frame_once(strip_framing(question))

    def parse(self, question: str) -> ParseResult:
        """The question parsed against the catalog, once per question and schema: routing
        asks first, the route asks again, and both get the same result."""
        key = (self.warehouse.catalog().fingerprint, question)
        if key not in self._parsed:
            if len(self._parsed) > 256:
                self._parsed.clear()
            self._parsed[key] = self._parse(question)
        return self._parsed[key]

    def _parse(self, question: str) -> ParseResult:
        # Imported here: a certified answer never parses, and the parser is the largest
        # module to load (`zlens ask` on a certified question is a whole process).
        from ..parsing.question import parse_question

        question = strip_framing(question)
        catalog = self.warehouse.dated_catalog()  # '9/30/1990 0:00:00' read as a date
        values = self.warehouse.probe_values(question)
        result = parse_question(
            question, catalog, self.lexicon(), self.semantic, values, frame=self.frame(question)
        )
        if result.clarification and result.unresolved and not result.candidates:
            linked = self.warehouse.link(" ".join(result.unresolved), k_columns=5)
            result.candidates = [f"{c.table}.{c.column}" for c in linked.columns[:5]]
            if result.candidates:
                result.clarification += " Did you mean " + ", ".join(result.candidates[:3]) + "?"
        return result

    def _validate(self, sql: str) -> list[Any]:
        """Catalog validation, remembered per (schema, statement): re-asking is common."""
        key = (self.warehouse.catalog().fingerprint, sql)
        if key not in self._validated:
            if len(self._validated) > 256:
                self._validated.clear()
            self._validated[key] = self.warehouse.validate(sql)
        return self._validated[key]

    def execute(
        self,
        sql: str,
        ctx: StepContext,
        params: dict[str, Any] | None = None,
        *,
        dialect: str | None = None,
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """Guard, validate against the catalog, run bounded. Returns (result, facts for gates).

        `dialect` is the SQL's own when it declares one (a DQL block written for Spark): an
        engine that reads several runs it unchanged. A guardrail violation raises (the loop
        stops the run); everything else is recorded.
        """
        reading = getattr(self.warehouse, "reading", None)
        engine = reading(dialect.lower()) if dialect and callable(reading) else self.warehouse
        if engine is not self.warehouse:
            return RouteKit(
                engine,
                self.library,
                self.semantic,
                self.project_dir,
                preview_limit=self.preview_limit,
                statement_timeout_s=self.statement_timeout_s,
            ).execute(sql, ctx, params)
        facts: dict[str, Any] = {"guarded": True, "sql": sql}
        if self.warehouse.dialect != "duckdb":  # the statement as the engine ran it
            facts["dialect"] = self.warehouse.dialect
            facts["written_in"] = getattr(self.warehouse, "source_dialect", "duckdb")
        try:
            normalized = self.warehouse.guard(sql)
        except QueryError as exc:  # DuckDB cannot parse it: a fact for the gates, not a crash
            facts["error"] = str(exc)
            return None, facts
        problems = self._validate(normalized)
        written_in = getattr(self.warehouse, "source_dialect", "duckdb")
        facts["grounding"] = dict(grounding_of(normalized, written_in))
        if problems:
            facts["validation_problems"] = [
                {"kind": p.kind, "name": p.name, "nearest": p.nearest, "message": p.message}
                for p in problems
            ]
            return None, facts
        timeout = max(0.5, min(self.statement_timeout_s, ctx.deadline_s))
        try:
            preview = self.warehouse.preview(
                sql,
                params=params,
                limit=self.preview_limit,
                timeout_s=timeout,
                should_stop=lambda: ctx.cancel_token.cancelled,
            )
        except QueryTimeout as exc:
            facts["error"] = str(exc)
            facts["timeout"] = True
            return None, facts
        except QueryError as exc:
            facts["error"] = str(exc)
            return None, facts
        result = preview.to_dict()
        if "dialect" in facts:
            facts["engine_sql"] = preview.sql
        result.pop("sql", None)
        ctx.tool_result(
            "run_sql_preview",
            f"{preview.row_count} rows in {preview.elapsed_ms:.0f} ms",
            {"rows": preview.row_count, "truncated": preview.truncated},
        )
        return result, facts


@functools.lru_cache(maxsize=256)
def read_frame_once(question: str) -> QuestionFrame:
    # Routing scores every certified block and the route matches again: one read serves both.
    return read_frame(question)


@functools.lru_cache(maxsize=256)
def grounding_of(sql: str, dialect: str = "duckdb") -> dict[str, list[str]]:
    """The tables and columns a statement touches (what "grounded in the catalog" refers to).

    Kept on disk as well (`disk_memo`): each `zlens ask` process grounds the same certified
    SQL, and sqlglot alone takes ~0.2 s to import."""
    code, key = _grounding_code(), disk_memo.input_key(sql, dialect)
    known = disk_memo.recall("grounding", code, key)
    if known is not None:
        found: dict[str, list[str]] = json.loads(known)
        return found
    found = _read_grounding(sql, dialect)
    disk_memo.remember("grounding", code, key, json.dumps(found))
    return found


@functools.cache
def _grounding_code() -> str:
    import importlib.util

    spec = importlib.util.find_spec("sqlglot")
    return disk_memo.code_key(files=(__file__, spec.origin if spec else None))


def _read_grounding(sql: str, dialect: str = "duckdb") -> dict[str, list[str]]:
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, dialect=dialect)
    ctes = {c.alias_or_name for c in tree.find_all(exp.CTE)}
    tables = sorted({t.name for t in tree.find_all(exp.Table) if t.name not in ctes})
    columns = sorted({c.sql(dialect="duckdb") for c in tree.find_all(exp.Column)})
    return {"tables": tables, "columns": columns}


def apply_lexical_repair(sql: str, hint: str) -> str | None:
    """Apply a machine hint of the form "replace <old> with <new>" to identifiers in `sql`."""
    import sqlglot
    from sqlglot import exp

    pairs = re.findall(r"replace (\S+) with (\S+)", hint)
    if not pairs:
        return None
    tree = sqlglot.parse_one(sql, dialect="duckdb")
    # "replace o.chanel with channel": identifiers are matched by their last part.
    mapping = {old.strip("\"'`").split(".")[-1].lower(): new.strip("\"'`") for old, new in pairs}

    swapped = []

    def swap(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Identifier) and node.name.lower() in mapping:
            swapped.append(node.name)
            return exp.to_identifier(mapping[node.name.lower()].split(".")[-1])
        if isinstance(node, exp.Anonymous) and str(node.this).lower() in mapping:
            # A misspelled function (avgg -> avg): rebuild it under its real name.
            swapped.append(str(node.this))
            return exp.func(mapping[str(node.this).lower()], *node.expressions, dialect="duckdb")
        return node

    repaired = tree.transform(swap).sql(dialect="duckdb", pretty=True)
    return repaired if swapped else None  # a hint that matched nothing repairs nothing
