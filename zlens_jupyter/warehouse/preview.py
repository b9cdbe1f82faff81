"""Bounded preview: run one guarded query and bring back at most `limit` rows.

The query is wrapped as `SELECT * FROM (<query>) LIMIT limit+1` so DuckDB itself stops
early (a top-N instead of a full sort), and rows are pulled with `fetchmany`, so even a
query over millions of rows puts at most limit+1 rows into Python. The extra row only
tells us the result was truncated.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import duckdb

from zlens_jupyter.errors import GuardrailViolation, QueryError
from zlens_jupyter.warehouse.connection import (
    bounded_cursor,
    is_interrupt,
    prepared_on,
    translate_error,
)
from zlens_jupyter.warehouse.models import Preview

_LINE = re.compile(r"LINE (\d+):")
_ONE_STATEMENT_LOCK = threading.Lock()

Params = dict[str, Any] | list[Any] | tuple[Any, ...] | None


def wrap_with_limit(statement: str, limit: int) -> str:
    """The guarded statement inside a LIMIT. Newlines around it matter: a `--` comment on
    the statement's last line must not swallow the closing parenthesis."""
    # `limit` is an int we computed, never user text, so formatting it in is safe.
    return f"SELECT * FROM (\n{statement}\n) AS zlens_preview LIMIT {int(limit) + 1}"


_ONE_STATEMENT: OrderedDict[str, None] = OrderedDict()  # wrapped texts found to be one query
_ONE_STATEMENT_KEPT = 256


def _one_statement(cursor: duckdb.DuckDBPyConnection, wrapped: str) -> bool:
    """Whether DuckDB parses the wrapped text as one statement. The answer is a pure function
    of the text (and this process's DuckDB), and a certified block runs the same text on
    every ask, so passing verdicts are kept: parsing it again cost ~0.3 ms an ask."""
    with _ONE_STATEMENT_LOCK:
        if wrapped in _ONE_STATEMENT:
            _ONE_STATEMENT.move_to_end(wrapped)
            return True
    if len(cursor.extract_statements(wrapped)) != 1:
        return False
    with _ONE_STATEMENT_LOCK:
        _ONE_STATEMENT[wrapped] = None
        while len(_ONE_STATEMENT) > _ONE_STATEMENT_KEPT:
            _ONE_STATEMENT.popitem(last=False)
    return True


def _unwrapped(error: BaseException) -> BaseException:
    """DuckDB counts lines in the wrapped text; point its `LINE n:` at the user's SQL."""
    if isinstance(error, QueryError) and error.args:
        message = _LINE.sub(lambda m: f"LINE {int(m.group(1)) - 1}:", str(error.args[0]))
        return type(error)(message)
    return error


def run_preview(
    connection: duckdb.DuckDBPyConnection,
    statement: str,
    *,
    params: Params = None,
    limit: int = 1000,
    timeout_s: float = 30.0,
    should_stop: Callable[[], bool] | None = None,
) -> Preview:
    """Run an already-guarded `statement`; parameters are bound by DuckDB, never pasted in.

    Raises QueryTimeout past `timeout_s`, QueryError with DuckDB's own message otherwise.
    """
    if limit < 0:
        raise ValueError("limit must be >= 0")
    wrapped = wrap_with_limit(statement, limit)
    started = time.perf_counter()
    with bounded_cursor(connection, timeout_s, should_stop) as (cursor, deadline):
        try:
            # Belt and braces: the wrapped text must still be one query (nothing escaped the
            # parentheses), whatever the statement contained.
            if not _one_statement(cursor, wrapped):
                raise GuardrailViolation(
                    "read-only guard [single-statement]: the query escaped its preview wrapper"
                )
            if deadline.stop_requested():  # cancelled before it started: never start it
                raise KeyboardInterrupt
            # A kept cursor runs a statement it ran before by its prepared plan.
            prepared = None if params else prepared_on(cursor)
            if prepared is None:
                cursor.execute(wrapped, params)
            else:
                prepared.execute(cursor, wrapped)
            rows = cursor.fetchmany(limit + 1)
            description = cursor.description or []
            if prepared is not None:
                prepared.ran(cursor, wrapped)
        except (duckdb.Error, RuntimeError) as error:
            if not isinstance(error, duckdb.Error) and not is_interrupt(error):
                raise
            if is_interrupt(error) and deadline.stop_requested():
                # The run was cancelled (Stop, Ctrl-C): whatever else fired, this is the
                # loop's cancel path, never a timeout to repair and re-run.
                raise KeyboardInterrupt from None
            raise _unwrapped(translate_error(error, deadline)) from error
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    truncated = len(rows) > limit
    rows = [tuple(r) for r in rows[:limit]]
    return Preview(
        sql=statement,
        columns=[str(d[0]) for d in description],
        column_types=[str(d[1]) for d in description],
        rows=rows,
        row_count=len(rows),
        truncated=truncated,
        elapsed_ms=elapsed_ms,
    )
