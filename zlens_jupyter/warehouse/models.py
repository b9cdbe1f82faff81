"""The warehouse layer's records: what a database looks like and what a query returned.

All records are frozen dataclasses so a catalog can be cached and shared between threads
without anyone mutating it under a reader.
"""

from __future__ import annotations

import base64
import datetime as dt
import math
import uuid
from collections import deque
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

# A text column of quarters written after their year ('1998 Q1') has this as its
# `date_format`: no strptime format reads it; the SQL reads the date its quarter starts.
QUARTER_LABEL = "year and quarter"


@dataclass(frozen=True)
class ColumnInfo:
    """One column of a table or view.

    `distinct_values` holds the sampled distinct values of a low-cardinality text column
    (at most `LOW_CARDINALITY_LIMIT` of them, sorted); it is empty for every other column.
    `distinct_count` is how many distinct values a text column holds when profiling listed
    them all from the whole table (USArrests' 50 states: 50, one per row), else -1.
    """

    name: str
    type: str
    comment: str | None = None
    distinct_values: tuple[str, ...] = ()
    distinct_count: int = -1
    # A text column read as dates ('%m/%d/%Y %H:%M:%S'; see text_dates): its `type` is then
    # the date's, and SQL reads it through try_strptime with this format.
    date_format: str = ""
    # A number column whose every value is 0 or 1 (`received_callback`, `series_winner`): a
    # yes/no flag, whatever its name, so "the callback rate" is its mean and "how many got a
    # callback" counts its 1s. Measured when the table was profiled (False when not).
    zero_one: bool = False
    # A whole-number `year` or id column whose every value is on one row only (one row a
    # year, one row per patient): "the population in 1900" is that row's; the table whose
    # `id` is so is where the things other tables repeat are one each. Measured when the
    # table was profiled.
    one_per_row: bool = False


@dataclass(frozen=True)
class TableInfo:
    """One table or view of the main schema. `row_count` is -1 when it could not be counted
    cheaply (a view whose count ran past its time cap)."""

    name: str
    kind: str  # "table" | "view"
    comment: str | None
    row_count: int
    columns: tuple[ColumnInfo, ...]

    def column(self, name: str) -> ColumnInfo | None:
        """The column called `name` (case-insensitive, like DuckDB identifiers), or None."""
        wanted = name.lower()
        return next((c for c in self.columns if c.name.lower() == wanted), None)


@dataclass(frozen=True)
class JoinKey:
    """A join candidate: `left_table.left_column = right_table.right_column`, and for a
    composite key (several columns together) also each further pair in `more`.

    For inferred keys the left side is the referencing ("many") side and the right side the
    referenced ("one") side. `source` says where the key came from: "declared" (a semantic
    file), "foreign_key" (a DuckDB FOREIGN KEY), "same_name" or "id_suffix" (heuristics).
    `more` holds the further (left column, right column) pairs of a composite key (empty for
    a single-column key): a join must use every pair (see `pairs`), never the first alone.

    >>> key = JoinKey("ratings", "series", "episodes", "series", "same_name",
    ...               (("episode", "episode"),))
    >>> key.condition()
    'ratings.series = episodes.series AND ratings.episode = episodes.episode'
    >>> key.reversed().pairs
    (('series', 'series'), ('episode', 'episode'))
    """

    left_table: str
    left_column: str
    right_table: str
    right_column: str
    source: str
    more: tuple[tuple[str, str], ...] = ()

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Every (left column, right column) pair, the first one first."""
        return ((self.left_column, self.right_column), *self.more)

    @property
    def composite(self) -> bool:
        return bool(self.more)

    def condition(self) -> str:
        """The join condition as text (`a.x = b.x AND a.y = b.y`), for people and prompts."""
        return " AND ".join(
            f"{self.left_table}.{left} = {self.right_table}.{right}" for left, right in self.pairs
        )

    def reversed(self) -> JoinKey:
        """The same key seen from the right table."""
        return JoinKey(
            self.right_table,
            self.right_column,
            self.left_table,
            self.left_column,
            self.source,
            tuple((right, left) for left, right in self.more),
        )


@dataclass(frozen=True)
class Catalog:
    """Tables, views and join keys of a database, plus a fingerprint of its shape.

    `fingerprint` is a sha256 over the sorted (table, column, type) triples, so it changes
    exactly when a table, column or type changes (not when rows or comments change).
    """

    tables: dict[str, TableInfo]
    join_keys: tuple[JoinKey, ...]
    fingerprint: str
    _by_lower: dict[str, TableInfo] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen, so the case-insensitive index is set once here rather than per lookup.
        object.__setattr__(self, "_by_lower", {n.lower(): t for n, t in self.tables.items()})

    def table(self, name: str) -> TableInfo | None:
        """The table or view called `name` (case-insensitive), or None."""
        return self._by_lower.get(name.lower())

    def with_join_keys(self, join_keys: tuple[JoinKey, ...]) -> Catalog:
        """A copy of this catalog with other join keys (declaring keys changes no shape)."""
        return replace(self, join_keys=join_keys)

    def join_path(self, a: str, b: str) -> list[JoinKey] | None:
        """The shortest chain of join keys leading from table `a` to table `b`.

        Each key in the answer is oriented along the path: its left table is the table the
        path comes from. `[]` when `a` and `b` are the same table; None when no chain of
        keys connects them. Declared keys are preferred when two paths are equally short.

        >>> key = JoinKey("flights", "carrier", "airlines", "carrier", "same_name")
        >>> cat = Catalog({}, (key,), "")
        >>> [k.left_table for k in cat.join_path("AIRLINES", "flights")]
        ['airlines']
        """
        start, goal = a.lower(), b.lower()
        if start == goal:
            return []
        edges: dict[str, list[JoinKey]] = {}
        for key in sorted(self.join_keys, key=lambda k: k.source != "declared"):
            edges.setdefault(key.left_table.lower(), []).append(key)
            edges.setdefault(key.right_table.lower(), []).append(key.reversed())
        came_by: dict[str, JoinKey | None] = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for key in edges.get(here, []):
                there = key.right_table.lower()
                if there in came_by:
                    continue
                came_by[there] = key
                if there == goal:
                    return _walk_back(came_by, goal)
                queue.append(there)
        return None


def _walk_back(came_by: dict[str, JoinKey | None], goal: str) -> list[JoinKey]:
    path: list[JoinKey] = []
    key = came_by[goal]
    while key is not None:
        path.append(key)
        key = came_by[key.left_table.lower()]
    return path[::-1]


@dataclass(frozen=True)
class Preview:
    """The first rows of a guarded query. `row_count` is the number of rows returned (never
    more than the limit); `truncated` says the query had more."""

    sql: str
    columns: list[str]
    column_types: list[str]
    rows: list[tuple[Any, ...]]
    row_count: int
    truncated: bool
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: dates become ISO strings, Decimals floats, bytes base64, NaN None."""
        return {
            "sql": self.sql,
            "columns": list(self.columns),
            "column_types": list(self.column_types),
            # Texts, integers and NULLs (most cells) are kept inline, without a call each.
            "rows": [
                [v if type(v) in _SAFE_AS_IS else json_safe(v) for v in row] for row in self.rows
            ],
            "row_count": self.row_count,
            "truncated": self.truncated,
            "elapsed_ms": round(self.elapsed_ms, 3),
        }


_SAFE_AS_IS = frozenset({str, int, bool, type(None)})  # what `json_safe` returns unchanged


def json_safe(value: Any) -> Any:
    """Turn one DuckDB result value into something `json.dumps` accepts without options."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return float(value) if value.is_finite() else None
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [json_safe(v) for v in value]
    return str(value)


@dataclass(frozen=True)
class LinkedColumn:
    """A column the question seems to be about, with its BM25 score (higher is closer)."""

    table: str
    column: str
    score: float


@dataclass(frozen=True)
class LinkResult:
    """Tables and columns ranked by relevance to a question, best first; only scores > 0."""

    tables: list[tuple[str, float]]
    columns: list[LinkedColumn]


@dataclass(frozen=True)
class ValueMatch:
    """Words of a question that equal a value stored in a column, e.g. ("jfk", "flights",
    "origin", "JFK"). Month names match an integer `month` column when a table has one, and
    otherwise come back with empty table and column and the month number as value."""

    word: str
    table: str
    column: str
    value: str
    # The value is the first word of the stored values ("Merc" of "Merc 240D", "manual" of
    # "manual(m5)"): the rows whose value begins with that word.
    prefix: bool = False
    # The value was reached from a word that begins it ("rodents" for `Rodentia`): a reading
    # the data cannot confirm, so the answer says it.
    guessed: bool = False
    # Other values of the column list this one among several ('Comedy|Drama' beside
    # 'Drama'): the rows holding it are every row listing it, not only where it is alone.
    listed: bool = False


# What joins several values in one text field ('Rain , Thunderstorm', 'Comedy|Drama').
LIST_SEPARATORS = ",;|/"


@dataclass(frozen=True)
class IdentifierProblem:
    """A table or column in SQL that the catalog does not have, with the nearest real names."""

    kind: str  # "table" | "column"
    name: str
    nearest: list[str]
    message: str
