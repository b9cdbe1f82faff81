"""The read-only guard for Spark SQL: sqlglot's Spark dialect, then Spark's own parser.

Two independent readings must both say "one query that only reads the catalog's tables":

1. sqlglot (Spark dialect): exactly one statement, a SELECT/WITH/set operation at the root, no
   DDL/DML/command node anywhere, no file reader (`csv.\\`/path\\``), no script transform
   (`TRANSFORM ... USING 'cmd'`), no function that reaches outside SQL (`reflect`,
   `java_method`), no table function but the harmless generators.
2. Spark (`sessionState.sqlParser.parsePlan`): the unresolved plan is not a `Command`, and
   no node of it (subqueries included, read from the plan's JSON) writes, runs a script,
   reads a file through a data-source name, or calls a denied function.

Nothing here executes SQL: parsing builds an unresolved plan and no job. A violation is a
`SQLGuardViolation` (blocking, never retried); text that does not parse is a `QueryError`.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from typing import Any

import sqlglot
from sqlglot import exp

from zlens_jupyter.errors import QueryError
from zlens_jupyter.warehouse.guard import SQLGuardViolation

_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # sqlglot underlines the error's place for terminals
# Data-source names Spark reads a path through: `SELECT * FROM csv.`/etc/passwd``.
FILE_FORMATS = frozenset(
    {
        "csv",
        "json",
        "parquet",
        "orc",
        "text",
        "avro",
        "binaryfile",
        "delta",
        "iceberg",
        "hudi",
        "jdbc",
        "libsvm",
        "xml",
        "image",
        "hive",
        "file",
    }
)
# Functions that call into the JVM, read files or leak the environment.
DENIED_FUNCTIONS = frozenset(
    {
        "reflect",
        "java_method",
        "try_reflect",
        "read_files",
        "input_file_name",
        "input_file_block_start",
        "input_file_block_length",
        "current_user",
        "user",
        "session_user",
        "secret",
        "try_secret",
        "http_request",
        "ai_query",
    }
)
# Table-valued functions that only generate rows from their arguments.
ALLOWED_TABLE_FUNCTIONS = frozenset(
    {
        "range",
        "explode",
        "explode_outer",
        "inline",
        "inline_outer",
        "posexplode",
        "posexplode_outer",
        "stack",
        "json_tuple",
        "variant_explode",
        "variant_explode_outer",
    }
)
# sqlglot nodes that are never part of a read-only query.
_WRITE_NODES: tuple[type[exp.Expr], ...] = tuple(
    getattr(exp, name)
    for name in (
        "Command",
        "Create",
        "Drop",
        "Insert",
        "Update",
        "Delete",
        "Merge",
        "Set",
        "Cache",
        "Uncache",
        "Into",
        "LoadData",
        "Use",
        "Alter",
        "Copy",
        "Refresh",
        "TruncateTable",
        "Describe",
        "Show",
        "Analyze",
        "Grant",
        "Revoke",
        "Comment",
        "QueryTransform",
        "Transaction",
        "Commit",
        "Rollback",
    )
    if hasattr(exp, name)
)
# Spark plan nodes (simple class names) that write, run a program or are not queries.
_DENIED_PLAN_NODES = frozenset(
    {
        "InsertIntoStatement",
        "InsertIntoDir",
        "ScriptTransformation",
        "AppendData",
        "OverwriteByExpression",
        "OverwritePartitionsDynamic",
        "MergeIntoTable",
        "UpdateTable",
        "DeleteFromTable",
        "ReplaceData",
        "WriteDelta",
        "CacheTableAsSelect",
    }
)


def quote_spark_identifier(name: str) -> str:
    """`name` as a Spark quoted identifier (catalog names are data, never trusted SQL)."""
    return "`" + name.replace("`", "``") + "`"


def guard_spark_text(sql: str) -> str:
    """The one read-only Spark statement in `sql` (re-rendered by sqlglot), or raise.

    >>> print(guard_spark_text("select a from t;"))
    SELECT
      a
    FROM t
    >>> guard_spark_text("CACHE TABLE t")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    SQLGuardViolation: read-only guard [select-only]: ...
    """
    return _guard_text(sql)


@functools.lru_cache(maxsize=512)
def _guard_text(sql: str) -> str:
    try:
        statements = [s for s in sqlglot.parse(sql, read="spark") if s is not None]
    except sqlglot.errors.SqlglotError as error:  # parser or tokenizer (unterminated text)
        plain = _ANSI.sub("", str(error))
        raise QueryError(f"Spark SQL does not parse: {plain}") from None
    except RecursionError:
        raise QueryError("the SQL is nested too deeply to read") from None
    if len(statements) != 1:
        raise SQLGuardViolation(
            "single-statement", f"exactly one statement is allowed, found {len(statements)}"
        )
    tree = statements[0]
    if not isinstance(tree, exp.Query):
        raise SQLGuardViolation(
            "select-only", f"{tree.key.upper()} statements are not allowed; write one SELECT"
        )
    for node in tree.walk():
        _check_node(node)
    # Laid out on lines as DuckDB's statements are: this is the SQL an answer shows on Spark.
    return tree.sql(dialect="spark", pretty=True)


def _check_node(node: exp.Expr) -> None:
    if isinstance(node, _WRITE_NODES):
        raise SQLGuardViolation(
            "no-writes-in-query", f"{node.key.upper()} is not allowed inside a query"
        )
    if isinstance(node, exp.Table):
        _check_table(node)
    elif isinstance(node, exp.Func):
        name = _function_name(node)
        if name in DENIED_FUNCTIONS:
            raise SQLGuardViolation("forbidden-function", f"{name}() is not allowed")


def _check_table(table: exp.Table) -> None:
    source = table.this
    if isinstance(source, exp.Func):  # a table function: `FROM range(10)`
        name = _function_name(source)
        if name not in ALLOWED_TABLE_FUNCTIONS:
            raise SQLGuardViolation("table-function", f"table function {name}() is not allowed")
        return
    parts = [p.lower() for p in (table.catalog, table.db) if p]
    if parts and parts[-1] in FILE_FORMATS:
        raise SQLGuardViolation(
            "file-access", f"reading files through {parts[-1]}.`path` is not allowed"
        )
    if any("/" in p or ":" in p for p in [*parts, table.name]):
        raise SQLGuardViolation("file-access", f"{table.name} looks like a path, not a table")


def _function_name(node: exp.Expr) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.this).lower()
    if isinstance(node, exp.Func):
        return node.sql_name().lower()
    return ""


def guard_spark_plan(spark: Any, sql: str) -> None:
    """Spark's own reading of `sql`: parse (no analysis, no job) and inspect the plan.

    Raises QueryError when Spark cannot parse the text, SQLGuardViolation when the plan is a
    command (`logical.Command`) or holds a denied node anywhere, subqueries included.
    """
    parser = spark._jsparkSession.sessionState().sqlParser()
    try:
        plan = parser.parsePlan(sql)
    except Exception as error:  # py4j carries Spark's ParseException
        raise QueryError(_spark_message(error)) from None
    command = spark._jvm.java.lang.Class.forName(
        "org.apache.spark.sql.catalyst.plans.logical.Command"
    )
    if command.isInstance(plan):
        name = plan.getClass().getSimpleName()
        raise SQLGuardViolation("select-only", f"Spark reads this as a command ({name})")
    nodes = list(_plan_nodes(json.loads(plan.toJSON())))
    root = str(nodes[0].get("class", "")).rsplit(".", 1)[-1] if nodes else ""
    if root in _DENIED_PLAN_NODES or root.endswith(("Command", "Statement")):
        raise SQLGuardViolation("select-only", f"Spark reads this as {root}, not a query")
    for node in nodes:
        _check_plan_node(node)


def _plan_nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Every node dict in a plan's JSON, nested plans (subqueries) included."""
    if isinstance(value, dict):
        if "class" in value:
            yield value
        for inner in value.values():
            yield from _plan_nodes(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _plan_nodes(inner)


def _check_plan_node(node: dict[str, Any]) -> None:
    name = str(node.get("class", "")).rsplit(".", 1)[-1]
    if name in _DENIED_PLAN_NODES or name.endswith(("Command", "Statement")):
        raise SQLGuardViolation("no-writes-in-query", f"Spark plans {name}, which is not a read")
    if name == "UnresolvedRelation":
        parts = _name_parts(node.get("multipartIdentifier"))
        if len(parts) >= 2 and parts[-2].lower() in FILE_FORMATS:
            raise SQLGuardViolation(
                "file-access", f"reading files through {parts[-2]}.`path` is not allowed"
            )
    elif name == "UnresolvedFunction":
        parts = _name_parts(node.get("nameParts"))
        if parts and parts[-1].lower() in DENIED_FUNCTIONS:
            raise SQLGuardViolation("forbidden-function", f"{parts[-1]}() is not allowed")
    elif name == "UnresolvedTableValuedFunction":
        parts = _name_parts(node.get("name"))
        if parts and parts[-1].lower() not in ALLOWED_TABLE_FUNCTIONS:
            raise SQLGuardViolation(
                "table-function", f"table function {parts[-1]}() is not allowed"
            )


def _name_parts(value: Any) -> list[str]:
    """`[csv, /etc/passwd]` (how Spark's JSON prints a Seq[String]) as a list."""
    if isinstance(value, list):
        return [str(v) for v in value]
    text = str(value or "").strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    return [p.strip() for p in text.split(",")] if text else []


def _spark_message(error: BaseException) -> str:
    text = str(error)
    for marker in ("ParseException:", "AnalysisException:"):
        if marker in text:
            text = text.split(marker, 1)[1]
    return text.strip().split("\n\tat ", 1)[0]
