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
  FROM-first form). Every other statement type (DESCRIBE, SHOW, SUMMARIZE, EXPLAIN, PIVOT,
  ATTACH, COPY, EXPORT, INSTALL/LOAD, UPDATE EXTENSIONS, SET/RESET, PRAGMA, CALL, DDL/DML,
  transactions) is refused: the allowed types are listed, not the forbidden ones.
- `no-writes-in-query`: no INSERT/UPDATE/DELETE/MERGE hidden inside a query (e.g. in a CTE),
  no SELECT ... INTO.
- `file-access`: functions that read files or URLs (read_csv, read_parquet, glob, ...) and
  `FROM 'file.csv'` style path tables are allowed only for sources the user registered.
- `table-function`: any other table function must be on a short known-safe list.
- `function-not-allowed`: scalar, aggregate, window and macro functions must be on an
  allow-list of DuckDB's own side-effect-free built-ins (see `allowed_functions`); anything
  else (an extension's function, a user macro, a new DuckDB function nobody reviewed) is
  refused.
- `forbidden-function`: built-ins that are pure but leak the environment (settings,
  variables, the query text, serialized plans that evaluate settings) or change state
  (sequences, the random seed, logging) are named here with the reason.
- `system-catalog`: pg_catalog, the `system` catalog and DuckDB's internal views that show
  settings, file paths, logs, secrets or extensions are unreachable.
- `extension-type`: a cast to a type that is not built into DuckDB (e.g. INET, which would
  make DuckDB download and load an extension) or defined in the user's database.
- `too-complex`: more than MAX_NESTING levels of parentheses or more than MAX_SQL_CHARS
  characters; the parsers would recurse that deep (a RecursionError), so it is refused
  before any parser sees it.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import duckdb

from zlens_jupyter import disk_memo
from zlens_jupyter.errors import GuardrailViolation, QueryError

if TYPE_CHECKING:
    from sqlglot import exp

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
_STATE = "changes database or session state"
_PLAN = "serializes or runs SQL the guard cannot see (it can evaluate settings)"
# Pure built-ins that are refused anyway, each with its reason. The allow-list below is the
# rule; this table only names why a familiar function is missing from it, and it is also
# what the sqlglot second opinion checks.
FORBIDDEN_FUNCTIONS: dict[str, str] = {
    "getenv": _LEAKS,
    "current_setting": _LEAKS,
    "getvariable": _LEAKS,
    "which_secret": _LEAKS,
    "current_query": "reads the running query text",
    "current_query_id": _LEAKS,
    "current_connection_id": _LEAKS,
    "current_transaction_id": _LEAKS,
    "txid_current": _LEAKS,
    "in_search_path": _LEAKS,
    "current_schemas": _LEAKS,
    "get_block_size": _LEAKS,
    "version": _LEAKS,
    "parse_duckdb_log_message": "reads DuckDB's logs",
    "json_serialize_plan": _PLAN,
    "json_serialize_sql": _PLAN,
    "json_deserialize_sql": _PLAN,
    "json_execute_serialized_sql": _PLAN,
    "nextval": f"{_STATE} (advances a sequence)",
    "currval": f"{_STATE} (reads a sequence)",
    "setval": f"{_STATE} (sets a sequence)",
    "setseed": _STATE,
    "write_log": _STATE,
    "sleep_ms": "stalls the database",
    "pg_sleep": "stalls the database",
    "stats": _LEAKS,
    "vector_type": _LEAKS,
    "checkpoint": _STATE,
    "force_checkpoint": _STATE,
    "enable_logging": _STATE,
    "disable_logging": _STATE,
    "enable_profiling": _STATE,
    "disable_profiling": _STATE,
    "truncate_duckdb_logs": _STATE,
    "query": "runs dynamic SQL that the guard cannot see",
    "query_table": "runs dynamic SQL that the guard cannot see",
}
FORBIDDEN_PREFIXES: dict[str, str] = {
    "pragma_": "runs a PRAGMA (reads or changes settings)",
    "duckdb_secret": _LEAKS,
    "__internal": "is DuckDB-internal",
    "json_serialize": _PLAN,
    "json_execute": _PLAN,
}

# Value functions DuckDB's parser knows that duckdb_functions() lists as something else
# (unnest is a table function there), and volatile ones DuckDB flags `has_side_effects`
# only because each call gives a new value: they change no state.
PARSER_FUNCTIONS = frozenset(
    {"unnest", "unlist", "grouping", "grouping_id", "random", "uuid", "uuidv4", "uuidv7"}
    | {"gen_random_uuid"}
)

# Function types of duckdb_functions() that compute a value from their arguments. Table
# functions are not in it: they get their own short list (SAFE_TABLE_FUNCTIONS).
_VALUE_FUNCTION_TYPES = ("scalar", "aggregate", "window", "macro")

# The system catalog's views and tables, unqualified or not: they show settings
# (pg_settings), file paths (pragma_database_list, duckdb_databases), logs, secrets,
# extensions, prepared statements. The few catalog views analytics SQL needs stay readable.
SAFE_SYSTEM_VIEWS = frozenset(
    {
        "duckdb_tables",
        "duckdb_columns",
        "duckdb_views",
        "duckdb_schemas",
        "duckdb_constraints",
        "duckdb_types",
        "duckdb_indexes",
    }
)
SYSTEM_SCHEMAS = frozenset({"pg_catalog"})
SYSTEM_CATALOGS = frozenset({"system", "temp"})

MAX_NESTING = 128  # parentheses deep; real analytics SQL stays far below
MAX_SQL_CHARS = 1_000_000

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

# sqlglot node types, by name (sqlglot is imported on the first check, see `_sqlglot`).
_WRITE_NODE_NAMES = ("DML", "Insert", "Update", "Delete", "Merge", "Into")
_NOT_A_QUERY_NODE_NAMES = (
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


class SQLGuardViolation(GuardrailViolation):
    """A statement broke a read-only rule; `rule` is the rule's short name."""

    def __init__(self, rule: str, detail: str) -> None:
        self.rule = rule
        super().__init__(f"read-only guard [{rule}]: {detail}")


def guard_read_only(
    sql: str, allowed_sources: Iterable[str] = (), allowed_types: Iterable[str] = ()
) -> str:
    """Return `sql` as one normalized read-only statement, or raise.

    Normalized means: leading and trailing comments, whitespace and semicolons removed, the
    text in between untouched. Raises SQLGuardViolation (a GuardrailViolation) naming the
    broken rule, or QueryError when DuckDB cannot parse the text at all. `allowed_types`
    names types defined in the user's database (an ENUM) that casts may use.

    >>> guard_read_only("SELECT 1; -- bye")
    'SELECT 1'
    >>> guard_read_only("DROP TABLE t")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    SQLGuardViolation: read-only guard [select-only]: DROP statements are not allowed
    """
    return _guard_cached(
        sql, tuple(allowed_sources), tuple(sorted({t.lower() for t in allowed_types}))
    )


@functools.lru_cache(maxsize=512)
def _guard_cached(
    sql: str, allowed_sources: tuple[str, ...], allowed_types: tuple[str, ...]
) -> str:
    # The guard is a pure function of its text, and one run checks the same statement several
    # times (before running it, inside preview, in the gate); only verdicts that pass are
    # cached (lru_cache does not keep exceptions), so a violation is re-examined every time.
    # Passing verdicts are kept on disk too (`disk_memo`, keyed by this file, the DuckDB and
    # the sqlglot installed): every `zlens ask` process guards the same certified SQL, and
    # the check needs DuckDB's function list and sqlglot (~0.3 s to load between them).
    # Sources are judged as paths from here and folders by what is on disk now: both keyed.
    where = [os.getcwd(), [os.path.isdir(s) for s in allowed_sources]] if allowed_sources else []
    key = disk_memo.input_key(sql, allowed_sources, allowed_types, where)
    known = disk_memo.recall("guard", _verdict_code(), key)
    if known is not None:
        return known
    sources = SourcePolicy(allowed_sources)
    try:
        statement = _single_select(sql)
        _check_duckdb_tree(statement, sources, frozenset(allowed_types))
        _check_sqlglot_tree(statement, sources)
    except RecursionError:
        # Bounded nesting is checked first; this is the last line for a shape it missed.
        raise SQLGuardViolation(
            "too-complex", "the query is nested too deeply to check; write it flatter"
        ) from None
    disk_memo.remember("guard", _verdict_code(), key, statement)
    return statement


@functools.cache
def _verdict_code() -> str:
    """What a verdict depends on besides its inputs: these rules, DuckDB (its built-in
    functions and types, its parser) and sqlglot."""
    import importlib.util

    spec = importlib.util.find_spec("sqlglot")
    return disk_memo.code_key(duckdb.__version__, files=(__file__, spec.origin if spec else None))


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
    """A private, empty in-memory database used only to parse (never to run user SQL).

    It can load nothing and touch no file: its function and type lists below are then
    exactly what DuckDB has built in, with no extension's additions."""
    global _parser
    if _parser is None:
        _parser = duckdb.connect(":memory:", config=HARDENED_SETTINGS)
    return _parser


# Settings for every connection ZLens opens itself and runs agent SQL on (see connection.py).
HARDENED_SETTINGS: dict[str, Any] = {
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "enable_external_access": False,
}


@dataclass(frozen=True)
class Builtins:
    """What DuckDB has built in, read once from its own catalog on the private connection.

    Why derived rather than a curated list typed into this file: DuckDB ships ~1,000
    scalar/aggregate/window/macro functions and adds more each release; a hand-typed list
    would either lag (refusing legitimate SQL) or be copied from this same table without
    review. Deriving it keeps it exact for the DuckDB in use while the filter stays strict:
    only the `main` schema of the system catalog (no pg_catalog compatibility macros), only
    value functions, none that DuckDB itself flags `has_side_effects` (nextval, setval,
    setseed, write_log, ...), none that an extension adds (the private connection loads
    none), and never the FORBIDDEN_FUNCTIONS / FORBIDDEN_PREFIXES that are pure but leak.
    A function added in a later DuckDB lands on the list only if DuckDB says it has no side
    effects; the test suite pins the dangerous ones by name.
    """

    functions: frozenset[str]
    types: frozenset[str]
    system_views: frozenset[str]
    known: frozenset[str]  # every function name DuckDB has built in, allowed or not


@functools.cache
def builtins() -> Builtins:
    with _parser_lock:
        con = _parser_connection()
        rows = con.execute(
            "SELECT DISTINCT lower(function_name) FROM duckdb_functions() "
            "WHERE database_name = 'system' AND schema_name = 'main' "
            "AND function_type IN (SELECT unnest(?::VARCHAR[])) "
            "AND NOT coalesce(has_side_effects, false)",
            [list(_VALUE_FUNCTION_TYPES)],
        ).fetchall()
        types = con.execute("SELECT DISTINCT lower(type_name) FROM duckdb_types()").fetchall()
        known = con.execute(
            "SELECT DISTINCT lower(function_name) FROM duckdb_functions()"
        ).fetchall()
        views = con.execute(
            "SELECT DISTINCT lower(view_name) FROM duckdb_views() WHERE internal "
            "AND schema_name <> 'information_schema'"
        ).fetchall()
    functions = PARSER_FUNCTIONS | {
        name
        for (name,) in rows
        if name not in FORBIDDEN_FUNCTIONS
        and not name.startswith(tuple(FORBIDDEN_PREFIXES))
        and name not in FILE_READING_FUNCTIONS
    }
    return Builtins(
        functions=frozenset(functions),
        types=frozenset(t for (t,) in types),
        system_views=frozenset(v for (v,) in views) - SAFE_SYSTEM_VIEWS,
        known=frozenset(n for (n,) in known) | set(FORBIDDEN_FUNCTIONS),
    )


def allowed_functions() -> frozenset[str]:
    """The scalar, aggregate, window and macro functions agent SQL may call."""
    return builtins().functions


def _single_select(sql: str) -> str:
    _require_valid_unicode(sql)
    if len(sql) > MAX_SQL_CHARS:
        raise SQLGuardViolation(
            "too-complex", f"the query is {len(sql):,} characters; the limit is {MAX_SQL_CHARS:,}"
        )
    with _parser_lock:
        tokens = duckdb.tokenize(sql)
        _require_bounded_nesting(sql, tokens)
        try:
            statements = _parser_connection().extract_statements(sql)
        except duckdb.Error as error:
            raise QueryError(str(error)) from error
    if not statements:
        raise SQLGuardViolation("single-statement", "there is no SQL statement to run")
    if len(statements) > 1:
        raise SQLGuardViolation(
            "single-statement", f"found {len(statements)} statements; send exactly one query"
        )
    try:
        kind = statements[0].type
    except ValueError:
        # The Python binding has no name for some statement types (UPDATE EXTENSIONS is one)
        # and fails converting it: a statement type not on our list either way.
        raise SQLGuardViolation(
            "select-only", "this statement type is not allowed; only SELECT/WITH queries"
        ) from None
    if kind != duckdb.StatementType.SELECT:
        raise SQLGuardViolation(
            "select-only", f"{kind.name} statements are not allowed; only SELECT/WITH queries"
        )
    return _strip_outer_noise(sql, tokens)


def _require_bounded_nesting(sql: str, tokens: list[tuple[int, Any]]) -> None:
    """Refuse more than MAX_NESTING open parentheses at once, counted on DuckDB's tokens (so
    a parenthesis inside a string literal or comment does not count)."""
    raw = sql.encode("utf-8")
    depth = deepest = 0
    for i, (start, kind) in enumerate(tokens):
        if kind != duckdb.token_type.operator:
            continue
        end = tokens[i + 1][0] if i + 1 < len(tokens) else len(raw)
        for char in raw[start:end]:
            if char == ord("("):
                depth += 1
                deepest = max(deepest, depth)
            elif char == ord(")"):
                depth -= 1
    if deepest > MAX_NESTING:
        raise SQLGuardViolation(
            "too-complex",
            f"the query nests {deepest} levels of parentheses; the limit is {MAX_NESTING}",
        )


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


def _check_duckdb_tree(
    statement: str, sources: SourcePolicy, types: frozenset[str] = frozenset()
) -> None:
    tree = serialized_tree(statement)
    # Each item carries the CTE names in scope where it stands (see `_cte_scopes`).
    stack: list[tuple[Any, frozenset[str]]] = [(tree["statements"], frozenset())]
    while stack:
        item, scope = stack.pop()
        if isinstance(item, list):
            stack.extend((child, scope) for child in item)
        elif isinstance(item, dict):
            if isinstance(item.get("cte_map"), dict):
                stack.extend(_cte_scopes(item, scope))
                scope = scope | {name for name, _ in _cte_entries(item)}
                item = {k: v for k, v in item.items() if k != "cte_map"}
            for child in _check_duckdb_node(item, sources, types, scope):
                stack.append((child, scope))


def _cte_entries(node: dict[str, Any]) -> list[tuple[str, Any]]:
    entries = (node.get("cte_map") or {}).get("map") or []
    return [(str(e.get("key", "")).lower(), e.get("value")) for e in entries]


def _cte_scopes(node: dict[str, Any], scope: frozenset[str]) -> list[tuple[Any, frozenset[str]]]:
    """The CTE bodies of a query node, each with the names it can see: the enclosing scope
    and the CTEs defined before it (a recursive CTE also sees itself). The node's own body
    sees all of them; a reference outside the node sees none (DuckDB's scoping)."""
    bodies: list[tuple[Any, frozenset[str]]] = []
    earlier: list[str] = []
    for name, value in _cte_entries(node):
        body = (value or {}).get("query_node") or (value or {}).get("query")
        recursive = isinstance(body, dict) and body.get("type") == "RECURSIVE_CTE_NODE"
        seen = scope | set(earlier)
        if recursive and isinstance(body, dict):
            # Only the recursive term sees the CTE itself: in the anchor DuckDB reads its name
            # as a table or a file (WITH RECURSIVE "x.csv" AS (SELECT * FROM "x.csv" UNION ...)).
            key = "query_node" if "query_node" in value else "query"
            bodies.append((body.get("right"), seen | {name}))
            value = {**value, key: {k: v for k, v in body.items() if k != "right"}}
        bodies.append((value, seen))
        earlier.append(name)
    return bodies


def serialized_tree(statement: str) -> dict[str, Any]:
    """DuckDB's own parse tree of one SELECT statement, or a violation saying why not."""
    text = _serialized_text(statement)
    tree = json.loads(text) if text else {"error": True, "error_message": "no result"}
    if tree.get("error"):
        message = str(tree.get("error_message", ""))
        if "Only SELECT" in message:
            raise SQLGuardViolation("select-only", "only SELECT/WITH queries are allowed")
        raise SQLGuardViolation("select-only", f"DuckDB could not verify the query ({message})")
    return dict(tree)


# The parse of one text never changes (a private parser connection, default settings), and a
# certified answer guards the same block SQL on every ask, twice (the statement, then the
# views it names): a DuckDB round trip of milliseconds each. The text is cached, not the tree,
# so every caller still walks a fresh tree of its own.
@functools.lru_cache(maxsize=256)
def _serialized_text(statement: str) -> str | None:
    with _parser_lock:
        row = (
            _parser_connection()
            .execute("SELECT json_serialize_sql(?::VARCHAR)", [statement])
            .fetchone()
        )
    return str(row[0]) if row else None


def _check_duckdb_node(
    node: dict[str, Any],
    sources: SourcePolicy,
    types: frozenset[str] = frozenset(),
    ctes: frozenset[str] = frozenset(),
) -> list[Any]:
    """Check one node of DuckDB's tree; return the children still to visit."""
    kind = node.get("type")
    if "class" in node:  # an expression
        if node["class"] == "TYPE":
            _check_type(node, types)
        name = node.get("function_name")
        if isinstance(name, str):
            _check_value_function(
                name, str(node.get("schema") or ""), str(node.get("catalog") or "")
            )
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
            _check_base_table(node, sources, ctes)
        elif kind == "TABLE_FUNCTION":
            function = node.get("function") or {}
            _check_table_function(
                str(function.get("function_name", "")).lower(),
                _duckdb_arguments(function),
                sources,
                str(function.get("schema") or "") + str(function.get("catalog") or ""),
            )
            # The function itself is checked; still visit every argument and the rest.
            rest = [v for k, v in node.items() if k != "function"]
            return [*_duckdb_arguments(function, named=True), *rest]
    elif "cast_type" in node or "type_info" in node:  # a logical type (older serializations)
        _check_logical_type(node)
    return list(node.values())


def _check_type(node: dict[str, Any], types: frozenset[str]) -> None:
    """A type named in a cast (`x::T`, CAST, TRY_CAST, `T 'literal'`): built in or the
    user's own. A type from an extension (INET, ...) would make DuckDB load, and with
    autoinstall download, that extension."""
    name = str(node.get("type_name", "")).lower()
    qualified = bool(node.get("catalog") or node.get("schema"))
    if (name in builtins().types and not qualified) or name in types:
        return
    raise SQLGuardViolation(
        "extension-type",
        f"the type {node.get('type_name')!r} is not built into DuckDB (it may need an "
        "extension, which agent SQL never loads); cast to a built-in type",
    )


def _check_logical_type(node: dict[str, Any]) -> None:
    info = node.get("type_info")
    if isinstance(info, dict) and info.get("type") == "USER_TYPE_INFO":
        name = str(info.get("user_type_name", "")).lower()
        if name not in builtins().types:
            raise SQLGuardViolation("extension-type", f"the type {name!r} is not built into DuckDB")


def _duckdb_arguments(function: dict[str, Any], *, named: bool = False) -> list[Any]:
    """Argument expressions of a serialized DuckDB function call: the positional ones, or
    all of them with `named=True`."""
    if "arguments" in function:  # recent DuckDB wraps each argument with its name
        return [a.get("expression") for a in function["arguments"] if named or not a.get("name")]
    return list(function.get("children", []))


def _check_base_table(
    node: dict[str, Any], sources: SourcePolicy, ctes: frozenset[str] = frozenset()
) -> None:
    name = str(node.get("table_name", ""))
    schema, catalog = str(node.get("schema_name", "")), str(node.get("catalog_name", ""))
    if not schema and not catalog and name.lower() in ctes:
        return  # the statement's own CTE in scope here, not a file or a system view
    qualifiers = [schema, catalog]
    if any(mark in part for part in qualifiers for mark in PATH_MARKS):
        raise SQLGuardViolation("file-access", f"{'.'.join(qualifiers)} looks like a file path")
    if any(mark in name for mark in PATH_MARKS) and not sources.allows(name):
        raise SQLGuardViolation(
            "file-access",
            f"reading {name!r} as a table reads a file or URL; register it with "
            "allow_source() first",
        )
    _check_system_relation(name, schema, catalog)


def _check_system_relation(name: str, schema: str, catalog: str) -> None:
    lowered = name.lower()
    schema, catalog = schema.lower(), catalog.lower()
    # `FROM pg_catalog` alone can also name a schema-qualified catalog (`pg_catalog.x`
    # parses with the schema in catalog_name when written as a.b.c).
    if (
        schema in SYSTEM_SCHEMAS
        or catalog in SYSTEM_SCHEMAS
        or catalog in SYSTEM_CATALOGS
        or (lowered in builtins().system_views and schema in ("", "main", "pg_catalog"))
    ):
        raise SQLGuardViolation(
            "system-catalog",
            f"{'.'.join(p for p in (catalog, schema, name) if p)} is part of DuckDB's system "
            "catalog (settings, paths, logs); query the data tables, or duckdb_tables() / "
            "duckdb_columns() for the schema",
        )


def _check_table_function(
    name: str, arguments: list[Any], sources: SourcePolicy, qualifier: str = ""
) -> None:
    if qualifier.lower() not in ("", "main", "system", "systemmain"):
        raise SQLGuardViolation(
            "table-function", f"table function {qualifier}.{name}() is not on the safe list"
        )
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
    _check_forbidden(name)
    if name.startswith("duckdb_") or name in builtins().system_views:
        raise SQLGuardViolation("system-catalog", f"{name}() is part of DuckDB's system catalog")
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


def _check_forbidden(name: str) -> None:
    lowered = name.lower()
    reason = FORBIDDEN_FUNCTIONS.get(lowered) or next(
        (why for prefix, why in FORBIDDEN_PREFIXES.items() if lowered.startswith(prefix)), None
    )
    if reason:
        raise SQLGuardViolation("forbidden-function", f"{lowered}() is not allowed: it {reason}")
    if lowered in FILE_READING_FUNCTIONS:
        raise SQLGuardViolation("file-access", f"{lowered}() reads files")


def _check_value_function(name: str, schema: str = "", catalog: str = "") -> None:
    """A scalar, aggregate, window or macro call: on the allow-list, or refused.

    A name DuckDB does not know at all is most likely a typo (`avgg`): that is DuckDB's own
    kind of error, repairable from its "Did you mean", so it is a QueryError in DuckDB's
    words. Either way the statement does not run."""
    _check_forbidden(name)
    qualified = schema.lower() not in ("", "main") or catalog.lower() not in ("", "system")
    lowered = name.lower()
    if not qualified and lowered not in allowed_functions() and lowered not in builtins().known:
        near = difflib.get_close_matches(lowered, sorted(allowed_functions()), n=1, cutoff=0.75)
        raise QueryError(
            f"Catalog Error: Scalar Function with name {name} does not exist!"
            + (f'\nDid you mean "{near[0]}"?' if near else "")
        )
    if qualified or lowered not in allowed_functions():
        where = ".".join(p for p in (catalog, schema) if p)
        raise SQLGuardViolation(
            "function-not-allowed",
            f"{where + '.' if where else ''}{name}() is not one of DuckDB's built-in "
            "side-effect-free functions that agent SQL may call",
        )


# --- sqlglot: an independent second opinion --------------------------------------------


@functools.cache
def _sqlglot() -> tuple[Any, Any, Any, Any]:
    """sqlglot, its expressions, and the write and not-a-query node types, on first use: a
    process whose statements were all judged before (see `guard_read_only`) never imports it
    (~0.2 s)."""
    import sqlglot
    from sqlglot import exp

    write = tuple(getattr(exp, n) for n in _WRITE_NODE_NAMES if hasattr(exp, n))
    not_query = tuple(getattr(exp, n) for n in _NOT_A_QUERY_NODE_NAMES if hasattr(exp, n))
    return sqlglot, exp, write, not_query


def _check_sqlglot_tree(statement: str, sources: SourcePolicy) -> None:
    sqlglot, exp, write_nodes, not_query_nodes = _sqlglot()
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
        if isinstance(node, write_nodes):
            raise SQLGuardViolation(
                "no-writes-in-query", f"{node.key.upper()} inside the query is not allowed"
            )
        if isinstance(node, not_query_nodes):
            raise SQLGuardViolation("select-only", f"{node.key.upper()} is not allowed")
        if isinstance(node, exp.Table) and isinstance(node.this, exp.Func):
            name = _sqlglot_function_name(node.this)
            if name not in SAFE_TABLE_FUNCTIONS and name not in FILE_READING_FUNCTIONS:
                raise SQLGuardViolation(
                    "table-function", f"table function {name}() is not on the safe list"
                )
        elif isinstance(node, exp.Table) and any(m in node.name for m in PATH_MARKS):
            if not sources.allows(node.name) and not _names_own_cte(node):
                raise SQLGuardViolation("file-access", f"{node.name!r} looks like a file")
        elif isinstance(node, exp.Func) and not isinstance(node.parent, exp.Table):
            _check_forbidden(_sqlglot_function_name(node))


def _names_own_cte(table: exp.Table) -> bool:
    """Whether an unqualified table reference names one of the statement's own CTEs in scope
    where it stands (the rule of `_cte_scopes`: a CTE's body sees only earlier CTEs)."""
    exp = _sqlglot()[1]
    if table.args.get("db") or table.args.get("catalog"):
        return False
    if not isinstance(table.this, exp.Identifier):
        return False
    child: Any = table
    parent: Any = table.parent
    while parent is not None:
        names: list[str] = []
        if isinstance(parent, exp.With) and isinstance(child, exp.CTE):
            at = next(i for i, cte in enumerate(parent.expressions) if cte is child)
            names = [cte.alias for cte in parent.expressions[:at]]
        else:
            with_ = parent.args.get("with_") or parent.args.get("with")
            if isinstance(with_, exp.With) and with_ is not child:
                names = [cte.alias for cte in with_.expressions]
        if table.name in names:
            return True
        child, parent = parent, parent.parent
    return False


def _sqlglot_function_name(function: exp.Func) -> str:
    exp = _sqlglot()[1]
    if isinstance(function, exp.Anonymous):
        return str(function.name).lower()
    return function.sql_name().lower()
