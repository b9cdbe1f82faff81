"""The semantic model: metrics, dimensions, joins and the time hierarchy of a project.

A `SemanticModel` is plain data loaded from `semantic/*.yml` (see `loader.py` and
`FORMAT.md`). It knows how to turn a metric into its aggregate SQL, how to find metrics and
dimensions a question mentions, and which relationships join two tables. It never touches a
database: routes run the SQL it produces.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, TypeVar

from zlens_jupyter.errors import UserError
from zlens_jupyter.semantic.matching import PhraseIndex, normalize_phrase

METRIC_TYPES: tuple[str, ...] = ("sum", "avg", "count", "count_distinct", "min", "max")
DIMENSION_TYPES: tuple[str, ...] = ("string", "number", "date", "boolean")
TIME_GRAINS: tuple[str, ...] = ("day", "week", "month", "quarter", "year")

# The SQL aggregate each metric type wraps its expression in.
_AGGREGATE_TEMPLATES: dict[str, str] = {
    "sum": "SUM({expr})",
    "avg": "AVG({expr})",
    "count": "COUNT({expr})",
    "count_distinct": "COUNT(DISTINCT {expr})",
    "min": "MIN({expr})",
    "max": "MAX({expr})",
}


@dataclass(frozen=True)
class Metric:
    """A named aggregate over one table's columns, e.g. revenue = SUM(quantity * unit_price)."""

    name: str
    type: str
    sql: str
    table: str
    label: str = ""
    description: str = ""
    synonyms: tuple[str, ...] = ()
    time_column: str | None = None
    source: str = field(default="", compare=False)

    @property
    def display_name(self) -> str:
        """The label if one was given, else the name with underscores as spaces."""
        return self.label or self.name.replace("_", " ")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (what the `lookup_metric` tool and the trace show)."""
        return {
            "name": self.name,
            "label": self.display_name,
            "description": self.description,
            "type": self.type,
            "sql": self.sql,
            "table": self.table,
            "synonyms": list(self.synonyms),
            "time_column": self.time_column,
            "source": self.source,
        }


@dataclass(frozen=True)
class Dimension:
    """A column (or expression) on one table that answers can be grouped or filtered by."""

    name: str
    sql: str
    table: str
    type: str = "string"
    label: str = ""
    description: str = ""
    synonyms: tuple[str, ...] = ()
    source: str = field(default="", compare=False)

    @property
    def display_name(self) -> str:
        """The label if one was given, else the name with underscores as spaces."""
        return self.label or self.name.replace("_", " ")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of the dimension."""
        return {
            "name": self.name,
            "label": self.display_name,
            "description": self.description,
            "type": self.type,
            "sql": self.sql,
            "table": self.table,
            "synonyms": list(self.synonyms),
            "source": self.source,
        }


class Relationship(NamedTuple):
    """A join key pair: `from_table.from_column = to_table.to_column` (usually many-to-one).

    A named tuple, so it can be passed wherever a `(from_table, from_column, to_table,
    to_column)` tuple is expected (e.g. `Warehouse.declare_relationships`).
    """

    from_table: str
    from_column: str
    to_table: str
    to_column: str

    @property
    def join_condition(self) -> str:
        """The ON clause over unaliased table names, e.g. `orders.customer_id = customers...`."""
        return f"{self.from_table}.{self.from_column} = {self.to_table}.{self.to_column}"

    def to_dict(self) -> dict[str, str]:
        """A JSON-ready view in the file's own `from`/`to` shape."""
        return {
            "from": f"{self.from_table}.{self.from_column}",
            "to": f"{self.to_table}.{self.to_column}",
        }


@dataclass(frozen=True)
class TimeHierarchy:
    """The project's main date column and the grains answers may be bucketed by."""

    column: str
    grains: tuple[str, ...] = TIME_GRAINS

    @property
    def table(self) -> str:
        """The table part of `column` (`orders` for `orders.order_date`)."""
        return self.column.split(".", 1)[0]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of the hierarchy."""
        return {"column": self.column, "grains": list(self.grains)}


_Item = TypeVar("_Item", bound=Metric | Dimension)


def _lookup_table(items: tuple[_Item, ...]) -> dict[tuple[str, ...], _Item]:
    table: dict[tuple[str, ...], _Item] = {}
    for named in items:
        phrases: tuple[str, ...] = (named.name, named.label, *named.synonyms)
        for phrase in phrases:
            key = normalize_phrase(phrase)
            if key:
                # The first definition wins; the loader rejects clashing names and synonyms.
                table.setdefault(key, named)
    return table


@dataclass(frozen=True, init=False)
class SemanticModel:
    """All metrics, dimensions, relationships and the time hierarchy of one project.

    >>> m = SemanticModel(metrics=[Metric("units", "sum", "quantity", "order_items")])
    >>> m.metric_sql(m.metric("units"))
    'SUM(quantity)'
    """

    metrics: tuple[Metric, ...] = ()
    dimensions: tuple[Dimension, ...] = ()
    relationships: tuple[Relationship, ...] = ()
    time: TimeHierarchy | None = None

    def __init__(
        self,
        metrics: Iterable[Metric] = (),
        dimensions: Iterable[Dimension] = (),
        relationships: Iterable[Relationship] = (),
        time: TimeHierarchy | None = None,
    ) -> None:
        # Accept any iterable but store tuples so the model stays immutable and hashable.
        object.__setattr__(self, "metrics", tuple(metrics))
        object.__setattr__(self, "dimensions", tuple(dimensions))
        object.__setattr__(self, "relationships", tuple(relationships))
        object.__setattr__(self, "time", time)

    @property
    def is_empty(self) -> bool:
        """True when the project has no semantic files (or they define nothing)."""
        return not (self.metrics or self.dimensions or self.relationships or self.time)

    # -- lookup ---------------------------------------------------------------------------

    def metric(self, name_or_synonym: str) -> Metric | None:
        """The metric whose name, label or synonym equals the phrase (case, `_` and plural
        insensitive), or None."""
        return self._metric_lookup.get(normalize_phrase(name_or_synonym))

    def dimension(self, name_or_synonym: str) -> Dimension | None:
        """The dimension whose name, label or synonym equals the phrase, or None."""
        return self._dimension_lookup.get(normalize_phrase(name_or_synonym))

    @cached_property
    def _metric_lookup(self) -> dict[tuple[str, ...], Metric]:
        return _lookup_table(self.metrics)

    @cached_property
    def _dimension_lookup(self) -> dict[tuple[str, ...], Dimension]:
        return _lookup_table(self.dimensions)

    # -- SQL ------------------------------------------------------------------------------

    def metric_expression(self, name_or_synonym: str) -> str | None:
        """The aggregate SQL of a named metric, or None when no metric has that name; fits
        DQL's `metric_resolver` for `@metric("name")` references."""
        found = self.metric(name_or_synonym)
        return None if found is None else self.metric_sql(found)

    def metric_sql(self, metric: Metric | str) -> str:
        """The aggregate expression for a metric, e.g. `SUM(quantity * unit_price)` or
        `COUNT(DISTINCT customer_id)`. The expression is over the metric's own table's
        columns, unqualified; the caller decides aliases and joins.

        A `count` metric without `sql` counts rows: `COUNT(*)`.
        """
        resolved = self._resolve_metric(metric)
        expr = resolved.sql.strip() or "*"
        return _AGGREGATE_TEMPLATES[resolved.type].format(expr=expr)

    def time_column_for(self, metric: Metric | str) -> str | None:
        """The `table.column` date to bucket a metric by: its own `time_column`, else the
        time hierarchy's column when that table can be joined from the metric's table."""
        resolved = self._resolve_metric(metric)
        if resolved.time_column:
            if "." in resolved.time_column:
                return resolved.time_column
            return f"{resolved.table}.{resolved.time_column}"
        if self.time is None:
            return None
        if self.join_path(resolved.table, self.time.table) is None:
            return None
        return self.time.column

    def join_path(self, from_table: str, to_table: str) -> list[Relationship] | None:
        """The shortest chain of relationships linking two tables (either direction), `[]`
        for the same table, or None when they are not connected."""
        if from_table == to_table:
            return []
        previous: dict[str, tuple[str, Relationship]] = {}
        queue = deque([from_table])
        seen = {from_table}
        while queue:
            table = queue.popleft()
            for rel in self.relationships:
                for here, there in (
                    (rel.from_table, rel.to_table),
                    (rel.to_table, rel.from_table),
                ):
                    if here != table or there in seen:
                        continue
                    seen.add(there)
                    previous[there] = (table, rel)
                    if there == to_table:
                        return _walk_back(previous, from_table, to_table)
                    queue.append(there)
        return None

    # -- matching questions -----------------------------------------------------------------

    def match_metrics(self, question: str) -> list[tuple[Metric, float]]:
        """Metrics the question mentions, best first, each with a score in 0..1.

        1.0 = name or label mentioned, 0.9 = a synonym, below 0.5 = only some words of a
        multi-word phrase. Matching is on whole words, case- and plural-insensitive, and a
        phrase inside a longer matched phrase does not count ("order" in "average order
        value", or in the dimension "order date").
        """
        return [(m, s) for m, s in self._phrase_index.match(question) if isinstance(m, Metric)]

    def match_dimensions(self, question: str) -> list[tuple[Dimension, float]]:
        """Dimensions the question mentions, best first; same scoring as `match_metrics`."""
        return [(d, s) for d, s in self._phrase_index.match(question) if isinstance(d, Dimension)]

    @cached_property
    def _phrase_index(self) -> PhraseIndex[Metric | Dimension]:
        index: PhraseIndex[Metric | Dimension] = PhraseIndex()
        items: list[Metric | Dimension] = [*self.metrics, *self.dimensions]
        for item in items:
            index.add(item, item.name.replace("_", " "), weight=1.0)
            if item.label:
                index.add(item, item.label, weight=1.0)
            for synonym in item.synonyms:
                index.add(item, synonym, weight=0.9)
        return index

    def _resolve_metric(self, metric: Metric | str) -> Metric:
        if isinstance(metric, Metric):
            return metric
        found = self.metric(metric)
        if found is None:
            known = ", ".join(m.name for m in self.metrics) or "none defined"
            raise UserError(f"Unknown metric {metric!r}; known metrics: {known}.")
        return found

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view of the whole model."""
        return {
            "metrics": [m.to_dict() for m in self.metrics],
            "dimensions": [d.to_dict() for d in self.dimensions],
            "relationships": [r.to_dict() for r in self.relationships],
            "time": self.time.to_dict() if self.time else None,
        }


def _walk_back(
    previous: dict[str, tuple[str, Relationship]], start: str, end: str
) -> list[Relationship]:
    path: list[Relationship] = []
    table = end
    while table != start:
        table, rel = previous[table]
        path.append(rel)
    path.reverse()
    return path
