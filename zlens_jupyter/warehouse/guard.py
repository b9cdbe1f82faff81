"""The read-only guard: agent SQL must be one plain query that reads only the database.

Two independent parsers must both agree before a statement runs:

1. DuckDB's own parser (on a private in-memory connection) splits the text into statements
   and names each statement's type; `json_serialize_sql` then gives the exact tree DuckDB
   would execute, which is walked node by node against allow-lists.
2. sqlglot parses the same text and its tree is walked for anything that writes or is not
   a query.

Rules, each named in the violation message:

- `single-statement`: exactly one statement (comments and trailing semicolons are ignored).
- `select-only`: the statement is a SELECT / WITH ... SELECT (also VALUES and DuckDB's
  FROM-first form). DESCRIBE, SHOW, SUMMARIZE, EXPLAIN, PIVOT (which DuckDB runs as several
  statements), ATTACH, COPY, EXPORT, INSTALL/LOAD, SET/RESET, PRAGMA, CALL and DDL/DML are
  rejected.
- `no-writes-in-query`: no INSERT/UPDATE/DELETE/MERGE hidden inside a query (e.g. in a CTE),
  no SELECT ... INTO.
- `file-access`: functions that read files or URLs (read_csv, read_parquet, glob, ...) and
  `FROM 'file.csv'` style path tables are allowed only for sources the user registered.
- `table-function`: any other table function must be on a short known-safe list.
- `forbidden-function`: functions that leak the environment or change state: getenv,
  current_setting and getvariable (settings and variables can hold credentials or paths),
  nextval/setseed (state), query/query_table (dynamic SQL that no guard can see),
  checkpoint/force_checkpoint, which_secret, and all pragma_* / duckdb_secret* functions.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Iterable
from typing import Any

import duckdb
import sqlglot
from sqlglot import exp

from zlens_jupyter.errors import GuardrailViolation, QueryError

SAFE_TABLE_FUNCTIONS = frozenset(
    {
        "range",
        "generate_series",
        "unnest",
        "json_each",
        "json_tree",
        "repeat",
        "duckdb_tables",
        "duckdb_columns",
        "duckdb_views",
        "duckdb_schemas",
        "duckdb_constraints",
        "duckdb_types",
        "duckdb_indexes",
    }
)

FILE_READING_FUNCTIONS = frozenset(
    {
        "read_csv",
        "read_csv_auto",
        "sniff_csv",
        "read_parquet",
        "parquet_scan",
        "parquet_metadata",
        "parquet_schema",
        "parquet_file_metadata",
        "parquet_kv_metadata",
        "parquet_bloom_probe",
        "read_json",
        "read_json_auto",
        "read_json_objects",
        "read_json_objects_auto",
        "read_ndjson",
        "read_ndjson_auto",
        "read_ndjson_objects",
        "read_text",
        "read_blob",
        "glob",
        "read_xlsx",
        "iceberg_scan",
        "iceberg_metadata",
        "delta_scan",
        "sqlite_scan",
        "sqlite_attach",
        "postgres_scan",
        "mysql_scan",
        "read_duckdb",
    }
)

_LEAKS = "reads the process environment or settings, which can hold credentials"
FORBIDDEN_FUNCTIONS: dict[str, str] = {
    "getenv": _LEAKS,
    "current_setting": _LEAKS,
    "getvariable": _LEAKS,
    "which_secret": _LEAKS,
    "nextval": "changes database state (advances a sequence)",
    "setseed": "changes session state",
    "checkpoint": "changes database state",
    "force_checkpoint": "changes database state",
    "query": "runs dynamic SQL that the guard cannot see",
    "query_table": "runs dynamic SQL that the guard cannot see",
}
FORBIDDEN_PREFIXES: dict[str, str] = {
    "pragma_": "runs a PRAGMA (reads or changes settings)",
    "duckdb_secret": _LEAKS,
}

# Query-node and table-reference types of DuckDB's serialized tree that only read.
_SAFE_QUERY_NODES = frozenset(
    {
        "SELECT_NODE",
        "SET_OPERATION_NODE",
        "RECURSIVE_CTE_NODE",
        "CTE_NODE",
    }
)
_SAFE_TABLE_REFS = frozenset(
    {
        "BASE_TABLE",
        "JOIN",
        "SUBQUERY",
        "TABLE_FUNCTION",
        "EXPRESSION_LIST",
        "EMPTY",
    }
)
PATH_MARKS = ("/", "\\", ":", "*", "?", "~", ".")

_WRITE_NODES: tuple[type[exp.Expression], ...] = tuple(
    getattr(exp, name)
    for name in ("DML", "Insert", "Update", "Delete", "Merge", "Into")
    if hasattr(exp, name)
)
_NOT_A_QUERY_NODES: tuple[type[exp.Expression], ...] = tuple(
    getattr(exp, name)
    for name in (
        "DDL",
        "Create",
        "Drop",
        "Alter",
        "TruncateTable",
        "Copy",
        "Command",
        "Pragma",
        "Set",
        "Use",
        "Transaction",
        "Commit",
        "Rollback",
        "Attach",
        "Detach",
        "Install",
        "Export",
        "LoadData",
        "Analyze",
        "Kill",
        "Grant",
        "Revoke",
        "Refresh",
        "Cache",
        "Uncache",
        "Describe",
        "Show",
        "Summarize",
        "Pivot",
    )
    if hasattr(exp, name)
)


class SQLGuardViolation(GuardrailViolation):
    """A statement broke a read-only rule; `rule` is the rule's short name."""

    def __init__(self, rule: str, detail: str) -> None:
        self.rule = rule
        super().__init__(f"read-only guard [{rule}]: {detail}")


def guard_read_only(sql: str, allowed_sources: Iterable[str] = ()) -> str:
    """Return `sql` as one normalized read-only statement, or raise.

    Normalized means: leading and trailing comments, whitespace and semicolons removed, the
    text in between untouched. Raises SQLGuardViolation (a GuardrailViolation) naming the
    broken rule, or QueryError when DuckDB cannot parse the text at all.

    >>> guard_read_only("SELECT 1; -- bye")
    'SELECT 1'
    >>> guard_read_only("DROP TABLE t")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    SQLGuardViolation: read-only guard [select-only]: DROP statements are not allowed
    """
    return _guard_cached(sql, tuple(allowed_sources))


@functools.lru_cache(maxsize=512)
def _guard_cached(sql: str, allowed_sources: tuple[str, ...]) -> str:
    # The guard is a pure function of its text, and one run checks the same statement several
    # times (before running it, inside preview, in the gate); only verdicts that pass are
    # cached (lru_cache does not keep exceptions), so a violation is re-examined every time.
    sources = SourcePolicy(allowed_sources)
    statement = _single_select(sql)
    _check_duckdb_tree(statement, sources)
    _check_sqlglot_tree(statement, sources)
    return statement


class SourcePolicy:
    """Files and URLs a query may read: exact paths, or anything under a registered folder."""

    def __init__(self, sources: Iterable[str]) -> None:
        self.exact: set[str] = set()
        self.folders: list[str] = []
        for source in sources:
            normal = normalize_source(source)
            is_folder = source.endswith(("/", os.sep)) or (
                "://" not in source and os.path.isdir(normal)
            )
            if is_folder:
                self.folders.append(normal.rstrip("/" + os.sep) + "/")
            else:
                self.exact.add(normal)

    def allows(self, source: str) -> bool:
        normal = normalize_source(source)
        return normal in self.exact or any(normal.startswith(f) for f in self.folders)


def normalize_source(source: str) -> str:
    """A URL as written; a local path made absolute and normalized (so `a/../b` cannot
    escape a registered folder)."""
    if "://" in source:
        return source
    return os.path.normpath(os.path.abspath(os.path.expanduser(source)))


# --- DuckDB: statement count and type, then the serialized tree -------------------------

_parser_lock = threading.Lock()
_parser: duckdb.DuckDBPyConnection | None = None


def _parser_connection() -> duckdb.DuckDBPyConnection:
    """A private, empty in-memory database used only to parse (never to run user SQL)."""
    global _parser
    if _parser is None:
        _parser = duckdb.connect(":memory:")
    return _parser


def _single_select(sql: str) -> str:
    _require_valid_unicode(sql)
    with _parser_lock:
        try:
            statements = _parser_connection().extract_statements(sql)
        except duckdb.Error as error:
            raise QueryError(str(error)) from error
        tokens = duckdb.tokenize(sql)
    if not statements:
        raise SQLGuardViolation("single-statement", "there is no SQL statement to run")
    if len(statements) > 1:
        raise SQLGuardViolation(
            "single-statement", f"found {len(statements)} statements; send exactly one query"
        )
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        raise SQLGuardViolation(
            "select-only", f"{kind.name} statements are not allowed; only SELECT/WITH queries"
        )
    return _strip_outer_noise(sql, tokens)


def _require_valid_unicode(sql: str) -> None:
    """DuckDB takes UTF-8; a lone surrogate (e.g. from a badly decoded file) cannot be
    encoded, and the binding would fail with a TypeError that says nothing useful."""
    try:
        sql.encode("utf-8")
    except UnicodeEncodeError as error:
        raise QueryError(
            f"the SQL text has a character that is not valid Unicode at position {error.start}"
            f" ({sql[error.start]!r}); remove it or re-decode the text as UTF-8"
        ) from None


def _strip_outer_noise(sql: str, tokens: list[tuple[int, Any]]) -> str:
    """The text from the first to the last real token (no outer comments or semicolons)."""
    raw = sql.encode("utf-8")  # DuckDB's token positions are byte offsets, not characters
    spans: list[tuple[int, int]] = []
    for i, (start, kind) in enumerate(tokens):
        end = tokens[i + 1][0] if i + 1 < len(tokens) else len(raw)
        if kind == duckdb.token_type.comment or raw[start:end].strip() == b";":
            continue
        spans.append((start, end))
    return raw[spans[0][0] : spans[-1][1]].decode("utf-8").strip()


def _check_duckdb_tree(statement: str, sources: SourcePolicy) -> None:
    with _parser_lock:
        row = (
            _parser_connection()
            .execute("SELECT json_serialize_sql(?::VARCHAR)", [statement])
            .fetchone()
        )
    tree = json.loads(row[0]) if row else {"error": True, "error_message": "no result"}
    if tree.get("error"):
        message = str(tree.get("error_message", ""))
        if "Only SELECT" in message:
            raise SQLGuardViolation("select-only", "only SELECT/WITH queries are allowed")
        raise SQLGuardViolation("select-only", f"DuckDB could not verify the query ({message})")
    stack: list[Any] = [tree["statements"]]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(_check_duckdb_node(item, sources))


def _check_duckdb_node(node: dict[str, Any], sources: SourcePolicy) -> list[Any]:
    """Check one node of DuckDB's tree; return the children still to visit."""
    kind = node.get("type")
    if "class" in node:  # an expression
        name = node.get("function_name")
        if isinstance(name, str):
            _check_scalar_function(name)
    elif isinstance(kind, str) and kind.endswith("_NODE"):
        if kind not in _SAFE_QUERY_NODES:
            what = kind.removesuffix("_QUERY_NODE").removesuffix("_NODE")
            raise SQLGuardViolation(
                "no-writes-in-query", f"a {what} inside the query is not allowed"
            )
    elif isinstance(kind, str) and "alias" in node and "sample" in node:  # a table reference
        if kind == "SHOW_REF":
            raise SQLGuardViolation(
                "select-only",
                "DESCRIBE/SHOW/SUMMARIZE are not allowed; "
                "query duckdb_columns() or the table itself",
            )
        if kind not in _SAFE_TABLE_REFS:
            raise SQLGuardViolation("select-only", f"{kind} table references are not allowed")
        if kind == "BASE_TABLE":
            _check_base_table(node, sources)
        elif kind == "TABLE_FUNCTION":
            function = node.get("function") or {}
            _check_table_function(
                str(function.get("function_name", "")).lower(), _duckdb_arguments(function), sources
            )
            # The function itself is checked; still visit every argument and the rest.
            rest = [v for k, v in node.items() if k != "function"]
            return [*_duckdb_arguments(function, named=True), *rest]
    return list(node.values())


def _duckdb_arguments(function: dict[str, Any], *, named: bool = False) -> list[Any]:
    """Argument expressions of a serialized DuckDB function call: the positional ones, or
    all of them with `named=True`."""
    if "arguments" in function:  # recent DuckDB wraps each argument with its name
        return [a.get("expression") for a in function["arguments"] if named or not a.get("name")]
    return list(function.get("children", []))


def _check_base_table(node: dict[str, Any], sources: SourcePolicy) -> None:
    name = str(node.get("table_name", ""))
    qualifiers = [str(node.get("schema_name", "")), str(node.get("catalog_name", ""))]
    if any(mark in part for part in qualifiers for mark in PATH_MARKS):
        raise SQLGuardViolation("file-access", f"{'.'.join(qualifiers)} looks like a file path")
    if any(mark in name for mark in PATH_MARKS) and not sources.allows(name):
        raise SQLGuardViolation(
            "file-access",
            f"reading {name!r} as a table reads a file or URL; register it with "
            "allow_source() first",
        )


def _check_table_function(name: str, arguments: list[Any], sources: SourcePolicy) -> None:
    if name in SAFE_TABLE_FUNCTIONS:
        return
    if name in FILE_READING_FUNCTIONS:
        paths = _literal_strings(arguments[0]) if arguments else None
        if paths is None:
            raise SQLGuardViolation(
                "file-access", f"{name}() may only read a literal path registered as a source"
            )
        denied = [p for p in paths if not sources.allows(p)]
        if denied:
            raise SQLGuardViolation(
                "file-access",
                f"{name}() would read {', '.join(map(repr, denied))}, which is not a "
                "registered source; register it with allow_source() first",
            )
        return
    _check_scalar_function(name)
    raise SQLGuardViolation(
        "table-function",
        f"table function {name}() is not on the safe list "
        f"({', '.join(sorted(SAFE_TABLE_FUNCTIONS))})",
    )


def _literal_strings(expression: Any) -> list[str] | None:
    """The string(s) of a literal 'path' or ['a', 'b'] argument; None for anything else."""
    if not isinstance(expression, dict):
        return None
    literal = expression.get("literal")
    if expression.get("class") == "CONSTANT" and isinstance(literal, dict):
        return [str(literal.get("text"))] if literal.get("kind") == "STRING" else None
    if expression.get("class") == "FUNCTION" and expression.get("function_name") in (
        "list_value",
        "array_value",
    ):
        parts = [_literal_strings(child) for child in _duckdb_arguments(expression)]
        if all(p is not None for p in parts):
            return [text for part in parts if part for text in part]
    return None


def _check_scalar_function(name: str) -> None:
    lowered = name.lower()
    reason = FORBIDDEN_FUNCTIONS.get(lowered) or next(
        (why for prefix, why in FORBIDDEN_PREFIXES.items() if lowered.startswith(prefix)), None
    )
    if reason:
        raise SQLGuardViolation("forbidden-function", f"{lowered}() is not allowed: it {reason}")
    if lowered in FILE_READING_FUNCTIONS:
        raise SQLGuardViolation("file-access", f"{lowered}() reads files")


# --- sqlglot: an independent second opinion --------------------------------------------


def _check_sqlglot_tree(statement: str, sources: SourcePolicy) -> None:
    try:
        trees = [t for t in sqlglot.parse(statement, read="duckdb") if t is not None]
    except sqlglot.errors.SqlglotError as error:
        raise QueryError(
            f"the query could not be checked (sqlglot: {error}); write it in plainer SQL"
        ) from error
    if len(trees) != 1:
        raise SQLGuardViolation("single-statement", "send exactly one query")
    root = trees[0]
    if not isinstance(root, exp.Query | exp.Values):
        raise SQLGuardViolation("select-only", f"{root.key.upper()} is not a query")
    for node in root.walk():
        if isinstance(node, _WRITE_NODES):
            raise SQLGuardViolation(
                "no-writes-in-query", f"{node.key.upper()} inside the query is not allowed"
            )
        if isinstance(node, _NOT_A_QUERY_NODES):
            raise SQLGuardViolation("select-only", f"{node.key.upper()} is not allowed")
        if isinstance(node, exp.Table) and isinstance(node.this, exp.Func):
            name = _sqlglot_function_name(node.this)
            if name not in SAFE_TABLE_FUNCTIONS and name not in FILE_READING_FUNCTIONS:
                raise SQLGuardViolation(
                    "table-function", f"table function {name}() is not on the safe list"
                )
        elif isinstance(node, exp.Table) and any(m in node.name for m in PATH_MARKS):
            if not sources.allows(node.name):
                raise SQLGuardViolation("file-access", f"{node.name!r} looks like a file")
        elif isinstance(node, exp.Func) and not isinstance(node.parent, exp.Table):
            _check_scalar_function(_sqlglot_function_name(node))


def _sqlglot_function_name(function: exp.Func) -> str:
    if isinstance(function, exp.Anonymous):
        return str(function.name).lower()
    return function.sql_name().lower()
