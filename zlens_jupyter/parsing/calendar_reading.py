"""Time in a question: which column dates the rows, periods said as words, calendar
parts kept as columns (an integer `year`, a `month` number) and tables whose rows are periods."""

from __future__ import annotations

import datetime as dt
import re

from ..warehouse import Catalog, TableInfo
from ..wordforms import is_verb, verb_root
from .lexicon import Lexicon, Span, is_numeric, is_temporal
from .phrasing import CALENDAR_WORDS
from .reading import ParseState, span_text
from .rewording import has_dates, rows_are_days
from .spec import GroupBy, QuestionSpec, TimeRange
from .words import identifier_words, stem


def calendar_span_at(spans: list[Span], at: int) -> bool:
    """Whether a span naming a calendar column (`Day`, `Month`) starts at `at`."""
    return any(s.start == at and names_calendar(s) for s in spans)


def rows_are_periods(info: TableInfo) -> bool:
    """Whether a table's rows are periods (a date, or a month column): its rows then count
    days or months, never the things the period's figures are about. A date kept as text
    (an export's '9/30/1990 0:00:00') says when each event happened: not counted here, as
    the reading of the rows is said anyway."""
    return any(
        (is_temporal(c.type) and not c.date_format) or c.name.lower() == "month"
        for c in info.columns
    )


FINE_TIME = ("day", "hour", "minute", "date", "time", "timestamp", "datetime")


def day_of_rows(
    p: ParseState, span: Span, spec: QuestionSpec, superlative: bool | None, limit: int | None
) -> bool:
    """Whether a ranking names days on a table kept by month and day (no finer time): the
    day column alone is a day of the month, so the days ranked are the rows."""
    if superlative is None and limit is None:
        return False
    named_day = any(
        t.kind == "column" and t.table == spec.fact_table and (t.column or "").lower() == "day"
        for t in span.targets
    )
    if not named_day or not rows_are_days(p.catalog, spec.fact_table):
        return False
    m = spec.measures[0] if len(spec.measures) == 1 else None
    # "which day had the highest ozone" was read as a total per group: the day's own reading
    said = {"total", "sum", "overall", "average", "mean"}
    added = m is not None and m.agg in ("sum", "avg") and not set(p.tokens) & said
    return (
        m is not None
        and (m.agg in ("max", "min") or added)
        and m.target is not None
        and is_numeric(m.target.type)
        and (m.target.column or "").lower() not in CALENDAR_WORDS
    )


def date_verb(tokens: list[str], taken: set[int], catalog: Catalog) -> tuple[str, str] | None:
    """(table, column) of the date column a verb names, its word taken: "polls that ended
    in June" is `enddate`, "orders shipped in 2024" `shipped_at`, "started each month"
    `startdate` (the verb is the first word of one date column's name), "licences issued in
    2017" `license_issue_date` (or a later word of it that is no time word)."""
    dates = [
        (table.name, c.name, word)
        for table in catalog.tables.values()
        for c in table.columns
        if is_temporal(c.type)
        for at, word in enumerate(identifier_words(c.name))
        if at == 0 or word not in CALENDAR_WORDS | {"time", "at", "on", "of"}
    ]
    for i, token in enumerate(tokens):
        if i in taken:
            continue
        said = {verb_root(token) or stem(token), stem(token)}
        found = list(dict.fromkeys((t, c) for t, c, word in dates if stem(word) in said))
        if len(found) == 1:
            taken.add(i)
            return found[0]
    return None


def verb_of_a_date(tokens: list[str], span: Span) -> bool:
    """Whether a one-word span is a verb form naming one date column (`released`)."""
    said = tokens[span.start]
    return (
        span.end - span.start == 1
        and len(span.targets) == 1
        and span.targets[0].kind == "column"
        and is_temporal(span.targets[0].type)
        and (verb_root(said) is not None or is_verb(said))
    )


def choose_time_column(
    catalog: Catalog, spec: QuestionSpec, dated_by: tuple[str, str] | None, notes: list[str]
) -> None:
    """Which date a period or a grain is read on, when the table has several: the one the
    question's verb named, else the first, and said ("polls in June" by their start or
    their end?)."""
    if not (spec.time_range or spec.time_grain) or not spec.fact_table:
        return
    if dated_by is not None and dated_by[0] == spec.fact_table:
        spec.time_column = dated_by[1]
        return
    info = catalog.table(spec.fact_table)
    dates = [c.name for c in info.columns if is_temporal(c.type)] if info is not None else []
    parts = {c.name.lower() for c in info.columns} if info is not None else set()
    year = (
        next(
            (c.name for c in info.columns if c.name.lower() == "year" and "INT" in c.type.upper()),
            None,
        )
        if info is not None
        else None
    )
    if len(dates) > 1 and year is not None and _whole_years(spec):
        # "breaches in 2012" over a year column and three dates: the year column says it
        spec.time_column = year
        notes.append(f"years read from {year} ({', '.join(dates)} also dates)")
        return
    if len(dates) > 1 and not {"year", "month"} <= parts:
        spec.time_column = dates[0]
        notes.append(f"dates read from {dates[0]} ({', '.join(dates[1:])} also dates)")


def _whole_years(spec: QuestionSpec) -> bool:
    """Whether the question's time is whole calendar years ("in 2012", "per year")."""
    time = spec.time_range
    if time is None:
        return spec.time_grain == "year"
    if time.month_only is not None or time.months:
        return False
    whole = time.start[5:] == "01-01" and time.end[5:] in ("01-01", "12-31")
    return bool(time.years) or (whole and spec.time_grain in (None, "year"))


def one_row_per_period(p: ParseState, table: str) -> bool:
    """Whether a period's rows are one: every text column of the table (what else a row
    could be of: a city, a state) is named by a value in the question, or there is none
    (a table of monthly figures)."""
    info = p.catalog.table(table)
    if info is None:
        return False
    return all(
        (table.lower(), c.name.lower()) in p.pinned
        for c in info.columns
        if not is_numeric(c.type) and not is_temporal(c.type)
    )


def one_year_of(time: TimeRange | None) -> str | None:
    """How one whole calendar year was said ("in 1900"), or None for anything else."""
    if time is None or time.each or time.months or time.month_only or time.years:
        return None
    start, end = time.start, time.end
    whole = start.endswith("-01-01") and end.endswith("-01-01") and len(start) == 10
    if not whole or not start[:4].isdigit() or not end[:4].isdigit():
        return None
    return time.said if int(end[:4]) - int(start[:4]) == 1 else None


def yearly_rows(catalog: Catalog, table: str) -> bool:
    """A table of one row a year: a whole-number `year` column each of whose values is on
    one row (measured when profiled), so a year said is that row (the US economy by year)."""
    info = catalog.table(table)
    return info is not None and any(
        c.one_per_row and c.name.lower() in ("year", "yr") for c in info.columns
    )


def one_period_of(time: TimeRange | None) -> str | None:
    """How a single month or day was said ("January 2000"), or None for anything longer, a
    list, or a month of every year."""
    if time is None or time.each or time.months or time.month_only or time.years:
        return None
    try:
        days = (dt.date.fromisoformat(time.end) - dt.date.fromisoformat(time.start)).days
    except ValueError:
        return None
    return time.said if 0 < days <= 31 else None


def a_series_of_readings(catalog: Catalog, table: str) -> bool:
    """A table that is one series over time: a date, or year and month numbers, and no text
    column at all (FRED's economics, a city's daily air readings), so each row is a period's
    readings, which never add up across periods."""
    info = catalog.table(table)
    if info is None or any(
        not is_numeric(c.type) and not is_temporal(c.type) for c in info.columns
    ):
        return False
    return any(is_temporal(c.type) for c in info.columns) or bool(calendar_columns(catalog, table))


def names_calendar(span: Span) -> bool:
    columns = [t for t in span.targets if t.kind == "column"]
    return bool(columns) and all((t.column or "").lower() in CALENDAR_WORDS for t in columns)


def part_of_year(tokens: list[str], taken: set[int], grain: str | None) -> bool:
    """ "each month of the year": the grain's number within a year. Takes "of (the) year".
    With no grain read yet ("which month of the year …" ranks one later), any grain word."""
    for i, token in enumerate(tokens):
        if token != grain and (grain is not None or token not in ("month", "week", "day")):
            continue
        for said in (["of", "the", "year"], ["of", "year"]):
            if tokens[i + 1 : i + 1 + len(said)] == said:
                taken.update(range(i + 1, i + 1 + len(said)))
                return True
    return False


_WEEKDAY_PHRASES = (
    ("day", "of", "the", "week"),
    ("days", "of", "the", "week"),
    ("day", "of", "week"),
)


def weekday_column_named(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "each day of the week" -> "each weekday" where a column is the weekday (`dow`)."""
    if not lexicon.lookup(["weekday"]):
        return tokens
    for i in range(len(tokens)):
        for phrase in _WEEKDAY_PHRASES:
            if tokens[i : i + len(phrase)] == list(phrase):
                return [*tokens[:i], "weekday", *tokens[i + len(phrase) :]]
    return tokens


def day_of_the_week(tokens: list[str], taken: set[int], lexicon: Lexicon) -> range | None:
    """ "which day of the week", "by weekday": the weekday of each row's date asked as a
    grouping, where no column is named by the words (a `dow` column is read as named).
    Takes the words; returns where they are."""
    if any(lexicon.lookup(list(said)) for said in (*_WEEKDAY_PHRASES, ("weekday",))):
        return None
    for i in range(len(tokens)):
        for phrase in _WEEKDAY_PHRASES:
            if tokens[i : i + len(phrase)] == list(phrase):
                taken.update(range(i, i + len(phrase)))
                return range(i, i + len(phrase))
        grouped = i > 0 and tokens[i - 1] in ("which", "each", "by", "per", "every")
        if tokens[i] == "weekday" and grouped:
            taken.add(i)
            return range(i, i + 1)
    return None


# A column name that holds a year ("yronset", "birth_yr", "year_built"), never a length of
# years ("yrs.service", "years_experience").
_YEARISH = re.compile(r"(?:^|[^a-z])yr(?!s)|^yr|year(?!s|ly)")


def timeless(p: ParseState, time: TimeRange) -> bool:
    """Whether one whole year was named ("in 1986") where nothing holds a time: no date or
    calendar column in any table, and no semantic time column."""
    one_year = time.years == () and not time.each and not time.months and not time.month_only
    one_year = one_year and time.start[5:] == "01-01" and time.end[5:] == "01-01"
    one_year = one_year and int(time.end[:4]) - int(time.start[:4]) == 1
    if not one_year or (p.semantic is not None and p.semantic.time is not None):
        return False
    if any(
        re.search(r"(?:^|[^0-9])(?:18|19|20)\d\d(?:$|[^0-9])", c.name)
        for t in p.catalog.tables.values()
        for c in t.columns
    ):
        return False  # years kept in names (`total_pop_2018`): another year is asked about
    if any(
        is_numeric(c.type) and _YEARISH.search(c.name.lower())
        for t in p.catalog.tables.values()
        for c in t.columns
    ):
        return False  # `yronset` (85 for 1985): a year is kept, in a way not read here
    return not has_dates(p.catalog) and not any(
        calendar_columns(p.catalog, t.name) for t in p.catalog.tables.values()
    )


def calendar_columns(catalog: Catalog, table: str) -> dict[str, str]:
    """The whole-number calendar columns of a table with no date column: {"month": "Month"}."""
    info = catalog.table(table)
    if info is None or any(is_temporal(c.type) for c in info.columns):
        return {}
    return {
        c.name.lower(): c.name
        for c in info.columns
        if c.name.lower() in CALENDAR_WORDS and "INT" in c.type.upper()
    }


def dated_by_day(catalog: Catalog) -> bool:
    """Whether the data dates rows by the day (a DATE column, not a timestamp)."""
    return any(c.type.upper() == "DATE" for info in catalog.tables.values() for c in info.columns)


def own_calendar_column(catalog: Catalog, table: str, grain: str | None) -> str | None:
    """A whole-number column named by the grain (`month`) on a table that also has a date."""
    info = catalog.table(table) if table and grain in ("month", "week", "day") else None
    if info is None or not any(is_temporal(c.type) for c in info.columns):
        return None
    return next(
        (c.name for c in info.columns if c.name.lower() == grain and "INT" in c.type.upper()),
        None,
    )


def period_group(catalog: Catalog, table: str, part: str) -> GroupBy | None:
    """The year or the month of a table's rows as a grouping: its date column's part, or its
    whole-number `year`/`month` column."""
    info = catalog.table(table)
    if info is None:
        return None
    dates = [c for c in info.columns if is_temporal(c.type)]
    year = next(
        (c.name for c in info.columns if c.name.lower() == "year" and "INT" in c.type.upper()),
        None,
    )
    if len(dates) > 1 and part == "year" and year:
        # several dates and a year column: the year column (as choose_time_column reads)
        return GroupBy(info.name, year, alias=year, is_time=True)
    column = calendar_columns(catalog, table).get(part)
    if dates:
        return GroupBy(info.name, f'{part}("{dates[0].name}")', alias=part, is_time=True)
    return GroupBy(info.name, column, alias=column, is_time=True) if column else None


def year_of_name(p: ParseState, spec: QuestionSpec, lexicon: Lexicon, span: Span) -> Span:
    """One column for a name kept once per year (`life_expectancy_1970`, `_2000`, `_2018`):
    the one of the year the question says, which then filters nothing ("in 2018" is in the
    name), else the latest, said."""
    years = {t: lexicon.column_years.get(t) for t in span.targets}
    if len(span.targets) < 1 or any(y is None for y in years.values()):
        return span
    said = spec.time_range
    year = int(said.start[:4]) if said is not None and _whole_years(spec) else None
    chosen = [t for t, y in years.items() if y == year]
    if year is not None and said is not None and not said.years and len(chosen) == 1:
        spec.time_range = None  # the year is the column's own
        return Span(span.start, span.end, (chosen[0],), guessed=span.guessed)
    if len(span.targets) == 1 or said is not None:
        return span
    latest = max(span.targets, key=lambda t: years[t] or 0)
    others = ", ".join(t.column or "" for t in span.targets if t is not latest)
    p.notes.append(
        f"'{span_text(p.tokens, span)}' read as {latest.column} (the latest; also {others})"
    )
    return Span(span.start, span.end, (latest,), guessed=span.guessed)


# Age words ranking years or dates: the oldest model year is the earliest, the youngest the
# latest (the other way round from an age).
_AGE_ENDS = {"oldest": False, "youngest": True}


def age_of_a_year(tokens: list[str], at: int | None, spec: QuestionSpec) -> bool | None:
    """ "the oldest vehicle model year" over `yearVeh`: the direction an age word ranks years
    or dates in, when every figure ranked is a year or a date; None otherwise."""
    if at is None or tokens[at] not in _AGE_ENDS:
        return None
    ranked = [m.target for m in spec.measures if m.target is not None]
    if not ranked or not all(_holds_years(t.type, t.column or "") for t in ranked):
        return None
    return _AGE_ENDS[tokens[at]]


def _holds_years(column_type: str, name: str) -> bool:
    words = identifier_words(name)
    return is_temporal(column_type) or (
        is_numeric(column_type) and any(w in ("year", "yr") for w in words)
    )
