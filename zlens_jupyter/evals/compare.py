"""Is an answer's result the gold result? Values compared as people read them.

- Rows are a multiset unless order matters (then a sequence).
- Columns are matched by their values, not their names, and the answer may carry extra
  columns (a ranking that also shows the category); every gold column must be there.
- Numbers are equal within rounding (a block's ROUND(x, 2) equals the unrounded gold).
- Dates stay dates: a year asked "by year" and shown as `2015-01-01` is not `2015`. Months
  are the exception: `2010-03-01` in a column whose dates all start a month is the month
  `2010-03`, and, when they are all of one year, the month number 3.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
from collections import Counter
from decimal import Decimal
from typing import Any

# Rounding tolerance: two decimals, as sentences and blocks round money.
_ABS_TOLERANCE = 0.0051
_REL_TOLERANCE = 1e-6
_MAX_MAPPINGS = 5_000


def normalize(value: Any) -> Any:
    """One cell as a comparable value: numbers as floats, dates as ISO text."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal):
        return float(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    return str(value)


def same_result(
    answer_rows: list[list[Any]] | list[tuple[Any, ...]],
    gold_rows: list[tuple[Any, ...]] | list[list[Any]],
    *,
    ordered: bool = False,
) -> bool:
    """Whether the answer's rows hold the gold rows' columns (by value), row for row.

    >>> same_result([["a", 1.004], ["b", 2]], [("b", 2), ("a", 1)])
    True
    >>> same_result([["2015-01-01", 3]], [(2015, 3)])
    False
    """
    answer = _with_month_numbers([[normalize(v) for v in row] for row in answer_rows])
    gold = [[normalize(v) for v in row] for row in gold_rows]
    if len(answer) != len(gold):
        return False
    if not gold:
        return True
    width = len(gold[0])
    candidates = [
        [
            j
            for j in range(len(answer[0]))
            if _same_column([r[j] for r in answer], [g[i] for g in gold])
        ]
        for i in range(width)
    ]
    if any(not c for c in candidates):
        return False
    for count, mapping in enumerate(itertools.product(*candidates)):
        if count >= _MAX_MAPPINGS:
            break
        if len(set(mapping)) != width:
            continue
        projected = [[row[j] for j in mapping] for row in answer]
        if _same_rows(projected, gold, ordered=ordered):
            return True
    return False


def _with_month_numbers(rows: list[list[Any]]) -> list[list[Any]]:
    """`rows` plus, for each column of first-of-month dates, the months as `YYYY-MM` and,
    when all are of one year, their numbers: more columns (an answer may carry extra ones).

    >>> _with_month_numbers([["2010-01-01", 7.0], ["2010-02-01", 6.0]])
    [['2010-01-01', 7.0, '2010-01', 1.0], ['2010-02-01', 6.0, '2010-02', 2.0]]
    >>> _with_month_numbers([["2009-12-01", 7.0], ["2010-01-01", 6.0]])[0]
    ['2009-12-01', 7.0, '2009-12']
    """
    if not rows:
        return rows
    months, numbered = [], []
    for j in range(len(rows[0])):
        values = [row[j] for row in rows]
        if all(isinstance(v, str) and _MONTH_START.fullmatch(v) for v in values):
            months.append(j)
            if len({v[:4] for v in values}) == 1:
                numbered.append(j)
    if not months:
        return rows
    return [
        [*row, *(row[j][:7] for j in months), *(float(row[j][5:7]) for j in numbered)]
        for row in rows
    ]


_MONTH_START = re.compile(r"\d{4}-(0[1-9]|1[0-2])-01")


def _same_column(answer: list[Any], gold: list[Any]) -> bool:
    return _same_rows([[v] for v in answer], [[v] for v in gold], ordered=False)


def _same_rows(answer: list[list[Any]], gold: list[list[Any]], *, ordered: bool) -> bool:
    if ordered:
        return all(_same_row(a, g) for a, g in zip(answer, gold, strict=True))
    if all(not isinstance(v, float) for row in gold for v in row):
        return Counter(map(tuple, answer)) == Counter(map(tuple, gold))
    # With floats, pair rows greedily after sorting by their non-float cells then floats.
    key = lambda row: tuple((isinstance(v, float), v if v is not None else "") for v in row)  # noqa: E731
    try:
        left, right = sorted(answer, key=key), sorted(gold, key=key)
    except TypeError:
        left, right = sorted(answer, key=repr), sorted(gold, key=repr)
    if all(_same_row(a, g) for a, g in zip(left, right, strict=True)):
        return True
    remaining = list(answer)
    for row in gold:
        match = next((i for i, a in enumerate(remaining) if _same_row(a, row)), None)
        if match is None:
            return False
        remaining.pop(match)
    return True


def _same_row(answer: list[Any], gold: list[Any]) -> bool:
    return len(answer) == len(gold) and all(
        _same_value(a, g) for a, g in zip(answer, gold, strict=True)
    )


def _same_value(answer: Any, gold: Any) -> bool:
    if isinstance(answer, float) and isinstance(gold, float):
        if math.isnan(answer) or math.isnan(gold):
            return math.isnan(answer) and math.isnan(gold)
        return math.isclose(answer, gold, rel_tol=_REL_TOLERANCE, abs_tol=_ABS_TOLERANCE)
    return bool(answer == gold)
