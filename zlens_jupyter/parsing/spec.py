"""What the offline parser understood a question to ask: measures, groupings, filters, order."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..warehouse.models import LIST_SEPARATORS as LIST_SEPARATORS  # where filters read it
from .lexicon import Target

AGGREGATES = (
    *("count", "count_distinct", "sum", "avg", "median", "min", "max", "stddev", "corr"),
    "range",  # the largest minus the smallest ("the widest range of salaries")
)
# A filter with op "has" keeps the rows listing its value among others joined by one of
# LIST_SEPARATORS ('Rain , Thunderstorm', 'Laptop; Paper').
# A filter with op "spellings" holds one value as the data stores it several ways ('Fled on
# Foot' and 'Fled on Foot   '): any of them, and never a comparison of groups as "in" is.


@dataclass
class Measure:
    agg: str  # one of AGGREGATES, or "metric" (the semantic metric's own aggregate)
    table: str
    target: Target | None = None  # None means COUNT(*) over `table`
    alias: str = ""
    # "murders per 100,000 people": the sum divided by this column's sum, times `scale`
    per: Target | None = None
    scale: int = 1
    # "the correlation between temperature and ozone": agg "corr" of `target` with this
    paired: Target | None = None
    # "the median price per carat": the aggregate of each row's target divided by this
    divided_by: Target | None = None


@dataclass
class GroupBy:
    table: str
    column: str | None  # a column, or a dimension's SQL expression
    grain: str | None = None  # day | week | month | quarter | year for a time column
    alias: str = ""
    is_time: bool = False
    # Each row said by its name ("who won series 5"): a row with no name is none of them.
    named: bool = False
    # "orders per customer" said by the customer's name: the key column grouped by as well,
    # so two customers of one name stay two rows; not shown.
    key: str | None = None


@dataclass(frozen=True)
class AverageOf:
    """A filter's value that is its column's average over every row ("cars with city mpg
    above the average"): compared with it, never with a number written in the question."""

    table: str
    column: str

    def __str__(self) -> str:
        return f"the average {self.column}"


@dataclass(frozen=True)
class ColumnRef:
    """A filter's value that is another column of the same row ("leave ahead of remain")."""

    column: str

    def __str__(self) -> str:
        return self.column


@dataclass
class Filter:
    table: str
    column: str
    op: str  # = > >= < <= between in, "not in", "is null", "is not null", starts, has, spellings
    value: Any
    label: str = ""
    is_time: bool = False
    # The question's words that named the value ("professors" for 'Prof'): where it was said,
    # when the stored value is spelt otherwise. Not part of what the filter keeps.
    said: str = field(default="", compare=False)


@dataclass
class TimeRange:
    """A calendar range the question named: [start, end) as ISO dates, plus how it was said."""

    start: str
    end: str
    said: str
    month_only: int | None = None  # "in July" with no year
    months: tuple[int, ...] = ()  # "from June to August": several months of any year
    years: tuple[int, ...] = ()  # "in 1990 and 2010": those years only
    each: bool = False  # a list of periods ("June and September"): a row for each
    grain: str | None = None  # "the 1970s and the 1990s": the years of each, a row per decade


@dataclass
class QuestionSpec:
    measures: list[Measure] = field(default_factory=list)
    group_by: list[GroupBy] = field(default_factory=list)
    filters: list[Filter] = field(default_factory=list)
    time_range: TimeRange | None = None
    time_grain: str | None = None
    order_desc: bool | None = None
    limit: int | None = None
    fact_table: str = ""
    notes: list[str] = field(default_factory=list)
    listing: bool = False  # "show me the orders": the table's rows, not an aggregate
    # The date column periods are read on, when the table has several ("polls that ended in
    # June" is `enddate`); None: the table's own time (its one date, or year/month parts).
    time_column: str | None = None
    # "what percentage of animals are herbivores": these filters pick the part, and each
    # measure is shown as its part's percentage of the whole.
    share_of: list[Filter] = field(default_factory=list)
    # "what share of the salary goes to each rank": each group's part of the whole.
    share_of_groups: bool = False
    # "what share of the works were made in the 1990s": the time range is the part
    share_of_period: bool = False
    # "the difference between the average salary of men and women": the measure over the
    # first filter's rows minus the same over the second's, one number
    difference_of: list[Filter] = field(default_factory=list)
    # How the first filter's figure is set against the second's: "" their difference,
    # "percent" the difference as a percentage of the second ("by what percentage did it
    # rise"), "ratio" the first over the second ("how many times larger was it")
    change_kind: str = ""
    # "the average number of deaths per day": the measure taken for each day (month, …),
    # then averaged over the days the data holds; None: taken once over the rows.
    average_over: str | None = None
    # "the average age of the professors" over courses: the measure taken for each value of
    # this key column (one professor), then over those; None: over the rows.
    once_per: Target | None = None
    # "movies with at least 100 ratings": only the groups whose row count is (op, n)
    group_rows: tuple[str, int] | None = None
    # "how many artists have 10 or more works": those groups counted, one number
    groups_counted: bool = False

    @property
    def shape(self) -> str:
        """scalar | breakdown | timeseries | topn | rows: the result shape the gates expect."""
        if self.listing:
            return "rows"
        if self.limit is not None and (self.group_by or self.time_grain):
            return "topn"
        if self.time_grain or any(g.is_time for g in self.group_by):
            return "timeseries"
        if self.group_by:
            return "breakdown"
        return "scalar"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["shape"] = self.shape
        return data


@dataclass
class QuestionFrame:
    """The structure of a question, read from its words alone (no catalog)."""

    tokens: list[str]
    aggregates: list[str] = field(default_factory=list)  # sum | avg | count | ... as asked
    groupings: list[list[str]] = field(default_factory=list)  # each a phrase's words
    # Groupings after "by" alone: those may name a ranking measure ("top products by
    # revenue"); "per", "each", "which X" always group.
    by_groupings: list[list[str]] = field(default_factory=list)
    time_grain: str | None = None
    limit: int | None = None  # "top 5" -> 5; a singular superlative -> 1
    descending: bool | None = None  # True for top/most/highest, False for least/bottom
    ranked: bool = False  # any top/bottom/superlative wording
    excludes: bool = False
    whole: bool = False  # "in all", "overall"
    period: str | None = None  # a date range the question names
    period_bounds: tuple[str, str] | None = None  # its [start, end) as ISO dates, if dated
    compares: bool = False  # "more than 500"

    @property
    def grouped(self) -> bool:
        return bool(self.groupings or self.time_grain)


@dataclass
class ParseResult:
    spec: QuestionSpec | None = None
    clarification: str | None = None
    candidates: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    frame: QuestionFrame | None = None  # the same structural read the certified matcher uses
