"""Views stored in the database, checked through to what they read.

The guard sees `SELECT * FROM sales_view` and nothing wrong with it; DuckDB then expands the
view, and a view can read files (`CREATE VIEW v AS SELECT * FROM read_text('~/.ssh/id_rsa')`),
URLs, settings or sequences. So a statement that names a stored view is allowed only when
the view's own SQL passes the same guard (views within views too), and the catalog scan at
connect never samples a view that would not.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from zlens_jupyter import disk_memo
from zlens_jupyter.errors import GuardrailViolation, QueryError, ZLensError
from zlens_jupyter.warehouse.guard import SQLGuardViolation, guard_read_only, serialized_tree

MAX_VIEW_DEPTH = 16  # views reading views; a deeper chain is refused, not followed


@dataclass
class StoredViews:
    """The database's own views (by lower-cased name; several schemas may share a name) and
    its user-defined types, read in one round trip."""

    sql: dict[str, list[str]]
    types: tuple[str, ...] = ()
    # The database's own functions (macros). A macro may shadow a built-in (`CREATE MACRO
    # upper(x) AS current_setting(...)` makes every `upper(...)` read a setting), and its
    # body is not in the statement: a statement calling one is refused.
    functions: frozenset[str] = frozenset()
    _verdicts: dict[tuple[str, tuple[str, ...]], str | None] = field(default_factory=dict)

    @classmethod
    def read(cls, connection: duckdb.DuckDBPyConnection, held: Path | None = None) -> StoredViews:
        """The views, types and macros of the database `connection` is on.

        `held`: the database file, when `connection` holds it read-only (no one can change it
        meanwhile). Its types and macros are then remembered between processes (`disk_memo`):
        listing macros means DuckDB listing every function it has (~15 ms of each `zlens
        ask`). The memo is keyed by the file as it is on disk (`file_identity`) and DuckDB's
        version, so a changed file is listed afresh. Views are read every time: one cheap
        query, and their SQL is the database's, not the cache's, to keep."""
        # No function calls in these queries (names are lower-cased here, in Python): the
        # database may define a macro that shadows a built-in such as lower().
        identity = file_identity(held) if held is not None else None
        known = _recall_macros(identity) if identity else None
        cursor = connection.cursor()
        try:
            rows = cursor.execute(
                "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal"
            ).fetchall()
            if known is not None:
                types, functions = known
            else:
                types = [
                    str(t)
                    for (t,) in cursor.execute(
                        "SELECT type_name FROM duckdb_types() WHERE NOT internal"
                    ).fetchall()
                ]
                functions = [
                    str(f).lower()
                    for (f,) in cursor.execute(
                        "SELECT function_name FROM duckdb_functions() WHERE NOT internal"
                    ).fetchall()
                ]
                if identity:
                    both = [sorted(set(types)), sorted(set(functions))]
                    disk_memo.remember("macros", _macros_code(), identity, json.dumps(both))
        finally:
            cursor.close()
        by_name: dict[str, list[str]] = {}
        for name, sql in rows:
            by_name.setdefault(str(name).lower(), []).append(str(sql or ""))
        return cls(by_name, tuple(sorted(set(types))), frozenset(functions))

    def check(self, statement: str, sources: Iterable[str]) -> None:
        """Raise SQLGuardViolation [view] when `statement` names a view that reads what agent
        SQL may not."""
        self._check_functions(statement, "the query")
        if not self.sql:
            return
        for name in referenced_tables(statement):
            why = self.refusal(name, sources)
            if why:
                raise SQLGuardViolation("view", why)

    def refusal(self, name: str, sources: Iterable[str]) -> str | None:
        """Why the view `name` may not be read, or None (also None for a non-view)."""
        key = (name.lower(), tuple(sources))
        if key not in self._verdicts:
            self._verdicts[key] = self._refusal(name.lower(), key[1], depth=0, seen=set())
        return self._verdicts[key]

    def _refusal(
        self, name: str, sources: tuple[str, ...], *, depth: int, seen: set[str]
    ) -> str | None:
        if name not in self.sql or name in seen:
            return None
        if depth >= MAX_VIEW_DEPTH:
            return f"view {name} reads views {MAX_VIEW_DEPTH} levels deep; not followed"
        seen = seen | {name}
        for create in self.sql[name]:
            try:
                body = view_body(create)
                statement = guard_read_only(body, sources, self.types)
                self._check_functions(statement, f"view {name}")
            except (GuardrailViolation, QueryError) as error:
                return f"view {name} reads what agent SQL may not: {error}"
            for inner in referenced_tables(statement):
                why = self._refusal(inner, sources, depth=depth + 1, seen=seen)
                if why:
                    return f"view {name} reads {why}"
        return None

    def check_calls(self, sql: str) -> None:
        """Raise the violation for a call to one of this database's macros in `sql`, text the
        guard refused as a QueryError (it knows no such function); nothing when the text
        cannot be read at all (the QueryError stands)."""
        if not self.functions or len(sql) > 100_000:
            return
        try:
            calls = called_functions(sql)
        except (ZLensError, RecursionError, ValueError):
            return
        if calls & self.functions:
            self._check_functions(sql, "the query")

    def _check_functions(self, statement: str, where: str) -> None:
        if not self.functions:  # no macros here: nothing to look for (nor a parse to pay)
            return
        mine = sorted(called_functions(statement) & self.functions)
        if mine:
            raise SQLGuardViolation(
                "function-not-allowed",
                f"{where} calls {', '.join(f + '()' for f in mine)}, defined in this database "
                "(a macro whose body the guard cannot see; it may shadow a built-in)",
            )


def file_identity(path: Path) -> str | None:
    """A key that changes whenever the DuckDB file at `path` does, or None when it cannot be
    stat'ed: its path, inode, size, modification and change times (the change time no one
    can set back: a file put back with its old modification time still differs), and the
    same of the write-ahead log a writer left behind (changes not yet checkpointed into the
    file, which opening it replays).

    Stat only, never opened: closing any descriptor of a file drops every POSIX lock this
    process holds on it, and DuckDB's lock is what keeps writers out while we read it."""

    def identity(name: str) -> list[int] | None:
        try:
            stat = os.stat(name)
        except FileNotFoundError:
            return None
        return [stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]

    try:
        main = identity(str(path))
        log = identity(f"{path}.wal")
        return disk_memo.input_key(str(path.resolve()), main, log) if main else None
    except OSError:
        return None


def _recall_macros(identity: str) -> tuple[list[str], list[str]] | None:
    known = disk_memo.recall("macros", _macros_code(), identity)
    try:
        types, functions = json.loads(known) if known else (None, None)
    except (ValueError, TypeError):
        return None  # not what this code writes: list them afresh
    if not isinstance(types, list) or not isinstance(functions, list):
        return None
    return [str(t) for t in types], [str(f) for f in functions]


@functools.cache
def _macros_code() -> str:
    return disk_memo.code_key(duckdb.__version__, files=(__file__,))


def view_body(create_sql: str) -> str:
    """The query of a `CREATE VIEW name [(columns)] AS query;` text, as DuckDB stores it."""
    raw = create_sql.encode("utf-8")
    tokens = duckdb.tokenize(create_sql)
    depth = 0
    for i, (start, kind) in enumerate(tokens):
        end = tokens[i + 1][0] if i + 1 < len(tokens) else len(raw)
        text = raw[start:end].strip()
        if kind == duckdb.token_type.operator:
            depth += text.count(b"(") - text.count(b")")
        elif kind == duckdb.token_type.keyword and depth == 0 and text.upper() == b"AS":
            return raw[end:].decode("utf-8").strip().rstrip(";").strip()
    raise QueryError(f"cannot read the view definition {create_sql[:80]!r}")


@functools.lru_cache(maxsize=512)
def referenced_tables(statement: str) -> frozenset[str]:
    """Lower-cased names of every table or view `statement` reads (its own CTE names
    included: checking a CTE name that is also a view's only ever refuses more).
    Remembered by the text (a pure function of it): a certified block's SQL is guarded on
    every ask."""
    return frozenset(
        {
            str(node["table_name"]).lower()
            for node in _nodes(statement)
            if node.get("type") == "BASE_TABLE" and "table_name" in node
        }
    )


@functools.lru_cache(maxsize=512)
def called_functions(statement: str) -> frozenset[str]:
    """Lower-cased names of every function `statement` calls (value and table functions),
    remembered by the text like `referenced_tables`."""
    return frozenset(
        {
            node["function_name"].lower()
            for node in _nodes(statement)
            if isinstance(node.get("function_name"), str)
        }
    )


def _nodes(statement: str) -> list[dict[str, Any]]:
    """Every object node of DuckDB's serialized tree for `statement`."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [serialized_tree(statement)["statements"]]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
    return found
