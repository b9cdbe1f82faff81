"""Evaluate a block's `tests { assert ... }` against a result, in pure Python.

Subjects: `row_count`; `min(col)`, `max(col)` (over non-null values); `count_null(col)`;
`unique(col)` (true when no non-null value repeats, like a SQL UNIQUE constraint); or a bare
column of a single-row result. Every result carries the observed value, so a failure says
what the data actually held.

When a preview was truncated, `assertion_summary_sql` computes the same observations over the
full result in one aggregate query, and `evaluate_from_summary` reads them back.
"""

from __future__ import annotations

import datetime as dt
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from zlens_jupyter.dql.block import Block
from zlens_jupyter.dql.model import Assertion
from zlens_jupyter.dql.references import quote_identifier

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}


@dataclass(frozen=True)
class AssertionResult:
    """The outcome of one assertion: what was expected, what was observed, and a sentence."""

    expression: str
    passed: bool
    observed: Any
    expected: Any
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "expression": self.expression,
            "passed": self.passed,
            "observed": _display(self.observed),
            "expected": self.expected,
            "message": self.message,
        }


class _Unobservable(Exception):
    """The assertion cannot be evaluated on this result (missing column, too many rows)."""


def evaluate_assertions(
    block: Block | Iterable[Assertion], columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> list[AssertionResult]:
    """Check each of the block's test assertions against `columns` and `rows`.

    >>> from zlens_jupyter.dql.parser import parse_block
    >>> b = parse_block('block "B" { tests { assert row_count > 0 assert max(n) <= 2 } }')
    >>> [(r.passed, r.observed) for r in evaluate_assertions(b, ["n"], [(1,), (3,)])]
    [(True, 2), (False, 3)]
    """
    assertions = block.tests if isinstance(block, Block) else list(block)
    return [evaluate_assertion(a, columns, rows) for a in assertions]


def evaluate_assertion(
    assertion: Assertion, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> AssertionResult:
    """Check one assertion against a full result."""
    try:
        observed = _observe(assertion, columns, rows)
    except _Unobservable as problem:
        return _result(assertion, False, None, str(problem))
    return _judge(assertion, observed)


def assertion_summary_sql(assertions: Iterable[Assertion], sql: str, columns: Sequence[str]) -> str:
    """One aggregate query computing every observation over the full result of `sql`.

    Output column names are `summary_key(assertion)`; identifiers are quoted, and no value
    from the data or the user is spliced in.
    """
    selected = {"row_count": "COUNT(*)"}
    for assertion in assertions:
        column = _find_column(assertion.column, columns) if assertion.column else None
        if column is None or assertion.subject == "column":
            continue
        ref = quote_identifier(column)
        selected[summary_key(assertion)] = {
            "min": f"MIN({ref})",
            "max": f"MAX({ref})",
            "count_null": f"COUNT(*) - COUNT({ref})",
            "unique": f"COUNT(DISTINCT {ref}) = COUNT({ref})",
        }[assertion.subject]
    select_list = ", ".join(f"{expr} AS {quote_identifier(key)}" for key, expr in selected.items())
    return f"SELECT {select_list} FROM (\n{sql}\n) AS block_result"


def summary_key(assertion: Assertion) -> str:
    """The summary column holding this assertion's observation."""
    if assertion.subject in ("row_count", "column"):
        return assertion.subject
    return f"{assertion.subject}({assertion.column})"


def evaluate_from_summary(
    assertions: Iterable[Assertion],
    summary: dict[str, Any],
    columns: Sequence[str],
    first_rows: Sequence[Sequence[Any]],
) -> list[AssertionResult]:
    """Judge assertions from a summary row (see `assertion_summary_sql`)."""
    results = []
    row_count = int(summary["row_count"])
    for assertion in assertions:
        if assertion.subject == "row_count":
            results.append(_judge(assertion, row_count))
        elif assertion.subject == "column" and row_count != 1:
            results.append(
                _result(
                    assertion,
                    False,
                    None,
                    f"{assertion.column} needs a single-row result; the query "
                    f"returned {row_count} rows",
                )
            )
        elif assertion.subject == "column":
            results.append(evaluate_assertion(assertion, columns, first_rows[:1]))
        elif summary_key(assertion) not in summary:
            results.append(evaluate_assertion(assertion, columns, []))  # reports the column
        else:
            results.append(_judge(assertion, summary[summary_key(assertion)]))
    return results


def _observe(assertion: Assertion, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> Any:
    if assertion.subject == "row_count":
        return len(rows)
    column = _find_column(assertion.column, columns)
    if column is None:
        raise _Unobservable(
            f"column {assertion.column!r} is not in the result "
            f"(columns: {', '.join(columns) or 'none'})"
        )
    index = list(columns).index(column)
    values = [row[index] for row in rows]
    if assertion.subject == "column":
        if len(rows) != 1:
            raise _Unobservable(
                f"{assertion.column} needs a single-row result; the query returned {len(rows)} rows"
            )
        return values[0]
    present = [v for v in values if v is not None]
    if assertion.subject == "count_null":
        return len(values) - len(present)
    if assertion.subject == "unique":
        keys = [_hashable(v) for v in present]
        return len(set(keys)) == len(keys)
    if not present:
        return None
    return min(present) if assertion.subject == "min" else max(present)


def _judge(assertion: Assertion, observed: Any) -> AssertionResult:
    expression = assertion.expression
    if observed is None:
        return _result(assertion, False, None, f"{expression} failed: observed NULL")
    try:
        passed = bool(_OPERATORS[assertion.op](*_comparable(observed, assertion.expected)))
    except TypeError:
        return _result(
            assertion,
            False,
            observed,
            f"{expression} failed: cannot compare observed {_display(observed)} "
            f"with {assertion.expected!r}",
        )
    verdict = "passed" if passed else "failed"
    return _result(
        assertion, passed, observed, f"{expression} {verdict}: observed {_display(observed)}"
    )


def _result(assertion: Assertion, passed: bool, observed: Any, message: str) -> AssertionResult:
    if not message.startswith(assertion.expression):
        message = f"{assertion.expression} failed: {message}"
    return AssertionResult(assertion.expression, passed, observed, assertion.expected, message)


def _comparable(observed: Any, expected: Any) -> tuple[Any, Any]:
    """Bring observed and expected to types Python can compare meaningfully."""
    if isinstance(expected, bool) or isinstance(observed, bool):
        if isinstance(expected, bool) and isinstance(observed, bool):
            return observed, expected
        raise TypeError("booleans compare only with booleans")
    if isinstance(observed, Decimal) and isinstance(expected, float):
        return float(observed), expected
    if isinstance(expected, str) and isinstance(observed, dt.date | dt.time):
        parse = type(observed).fromisoformat
        try:
            return observed, parse(expected)
        except ValueError as exc:
            raise TypeError(str(exc)) from exc
    if isinstance(expected, str) != isinstance(observed, str):
        raise TypeError("text compares only with text")
    return observed, expected


def _find_column(name: str | None, columns: Sequence[str]) -> str | None:
    if name is None:
        return None
    if name in columns:
        return name
    return next((c for c in columns if c.lower() == name.lower()), None)


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _display(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
