"""Statements a kept agent cursor runs again are planned once: prepared on that cursor.

A certified block runs the same SQL on every ask, and DuckDB parses, binds and optimizes it
each time: ~0.15 ms of TPC-H Q1 and ~0.5 ms of Q5's six-way join at SF1, measured here by
`EXECUTE` of a prepared statement against the same text run afresh. On a cursor kept for the
next statement (`connection.bounded_cursor`: read-only private instances only), a statement
that ran there once without error is prepared the second time it comes, and executed by
name after that. Statements with parameters, and every statement on a fresh cursor, run
as they are.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import OrderedDict

import duckdb


class PreparedStatements:
    """What one kept cursor has run: a statement's prepared name, or None when it ran once."""

    KEEP = 32  # statements remembered per cursor; the oldest is deallocated past that

    def __init__(self) -> None:
        self._known: OrderedDict[str, str | None] = OrderedDict()
        self._names = itertools.count()

    def execute(self, cursor: duckdb.DuckDBPyConnection, statement: str) -> None:
        """Run `statement` (already guarded and wrapped) on `cursor`, by its prepared name
        when it ran there before."""
        name = self._known.get(statement)
        if name is None and statement in self._known:  # the second time: plan it once
            name = f"zlens_prepared_{next(self._names)}"
            cursor.execute(f"PREPARE {name} AS {statement}")
            self._known[statement] = name
        if name is None:
            cursor.execute(statement)
            return
        self._known.move_to_end(statement)
        cursor.execute(f"EXECUTE {name}")

    def ran(self, cursor: duckdb.DuckDBPyConnection, statement: str) -> None:
        """`statement` ran on `cursor` without error and its rows were fetched: remember it
        (a statement that failed is never prepared, so its errors read as DuckDB wrote them)."""
        if statement in self._known:
            return
        self._known[statement] = None
        while len(self._known) > self.KEEP:
            _, name = self._known.popitem(last=False)
            if name is not None:
                with contextlib.suppress(duckdb.Error):
                    cursor.execute(f"DEALLOCATE {name}")

    def __len__(self) -> int:
        return sum(1 for name in self._known.values() if name is not None)
