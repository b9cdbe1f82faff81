"""Phrasing: the words around data names that say how to aggregate, group, filter and order.

Each function finds one kind of phrase in the token list and marks the tokens it explains as
taken, so that whatever is left over and not a stopword is honestly "unresolved".
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from ..wordforms import adjective_base, is_plural
from .spec import TimeRange
from .words import MONTHS, NUMBER_WORDS, stem, to_number

AGG_WORDS: dict[tuple[str, ...], str] = {
    ("how", "many", "distinct"): "count_distinct",
    ("how", "many", "unique"): "count_distinct",
    ("how", "many", "different"): "count_distinct",
    ("number", "of", "distinct"): "count_distinct",
    ("number", "of", "unique"): "count_distinct",
    ("count", "of", "distinct"): "count_distinct",
    ("distinct",): "count_distinct",
    ("unique",): "count_distinct",
    ("how", "many"): "count",
    ("number", "of"): "count",
    ("count", "of"): "count",
    ("count",): "count",
    ("average",): "avg",
    ("avg",): "avg",
    ("mean",): "avg",
    ("typical",): "avg",  # "the typical salary": the average, as "the typical professor"
    ("median",): "median",
    ("standard", "deviation", "of"): "stddev",
    ("standard", "deviation"): "stddev",
    ("std", "dev"): "stddev",
    ("stddev",): "stddev",
    ("total",): "sum",
    ("sum", "of"): "sum",
    ("sum",): "sum",
    ("maximum",): "max",
    ("max",): "max",
    ("minimum",): "min",
    ("min",): "min",
    # "the widest range of salaries" is read as "the highest spread of salaries" (rewording)
    ("spread", "of"): "range",
}
# Superlatives: MAX/MIN of a column when nothing is grouped, an ordering when something is.
SUPERLATIVES = {
    "highest": True,
    "largest": True,
    "longest": True,
    "biggest": True,
    "greatest": True,
    "most": True,
    "top": True,
    "best": True,
    "busiest": True,
    "lowest": False,
    "smallest": False,
    "shortest": False,
    "least": False,
    "fewest": False,
    "bottom": False,
    "worst": False,
}
GROUP_MARKERS = [
    ("broken", "down", "by"),
    ("grouped", "by"),
    ("split", "by"),
    ("for", "each"),
    ("by",),
    ("per",),
    ("each",),
    ("every",),
    ("across",),
]
GRAIN_WORDS = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "quarterly": "quarter",
    "yearly": "year",
    "annually": "year",
    "annual": "year",
}
# Words naming a part of the calendar (a column so named is a time, not a figure)
CALENDAR_WORDS = frozenset({"year", "quarter", "month", "week", "day", "hour", "minute", "date"})
GRAINS = ("day", "week", "month", "quarter", "year", "decade")
COMPARISONS: list[tuple[tuple[str, ...], str]] = [
    (("greater", "than", "or", "equal", "to"), ">="),
    (("less", "than", "or", "equal", "to"), "<="),
    (("greater", "than"), ">"),
    (("more", "than"), ">"),
    (("larger", "than"), ">"),
    (("higher", "than"), ">"),
    (("longer", "than"), ">"),
    (("over",), ">"),
    (("above",), ">"),
    (("exceeding",), ">"),
    (("exceeded",), ">"),
    (("exceeds",), ">"),
    (("exceed",), ">"),
    (("at", "least"), ">="),
    (("less", "than"), "<"),
    (("fewer", "than"), "<"),
    (("smaller", "than"), "<"),
    (("lower", "than"), "<"),
    (("shorter", "than"), "<"),
    (("under",), "<"),
    (("below",), "<"),
    (("at", "most"), "<="),
    (("equal", "to"), "="),
    (("exactly",), "="),
]
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass
class Comparison:
    op: str
    value: float | int
    op_start: int  # the phrase naming the column ends right before this token...
    value_end: int = -1  # ...or starts right here, after the number ("more than 300 seats")
    percent: bool = False  # "above 10%", "over 10 percent": the number said as a percentage
    average: bool = False  # "above the average": the column's own average, not a number


def match_at(tokens: list[str], i: int, phrase: tuple[str, ...]) -> bool:
    return tuple(tokens[i : i + len(phrase)]) == phrase


def find_aggregates(tokens: list[str], taken: set[int]) -> list[tuple[int, int, str]]:
    """(start, end, agg) for every aggregation phrase, longest phrase first at each position."""
    found = []
    i = 0
    phrases = sorted(AGG_WORDS, key=len, reverse=True)
    while i < len(tokens):
        for phrase in phrases:
            if match_at(tokens, i, phrase) and not taken & set(range(i, i + len(phrase))):
                found.append((i, i + len(phrase), AGG_WORDS[phrase]))
                taken.update(range(i, i + len(phrase)))
                i += len(phrase) - 1
                break
        i += 1
    return found


def find_top_n(tokens: list[str], taken: set[int]) -> tuple[int | None, bool | None, int | None]:
    """(limit, descending, position after the phrase) from "top 5", "bottom 3", "first ten"."""
    for i, tok in enumerate(tokens[:-1]):
        if tok in ("top", "bottom", "first", "last") and i not in taken:
            n = to_number(tokens[i + 1])
            if isinstance(n, int) and 0 < n <= 1000:
                taken.update({i, i + 1})
                if superlative_direction(tokens[i + 2] if i + 2 < len(tokens) else "") is not None:
                    return n, None, None  # "the top five oldest bakers": the superlative ranks
                return n, tok in ("top", "first"), i + 2
    for i, tok in enumerate(tokens[:-3]):
        # "the youngest three bakers": N after the superlative, before the things (plural);
        # never a number of a compound ("the highest 28-day viewing figure")
        n = to_number(tokens[i + 2])
        if (
            tok == "the"
            and superlative_direction(tokens[i + 1]) is not None
            and isinstance(n, int)
            and 1 < n <= 1000
            and i + 2 not in taken
            and is_plural(tokens[i + 3])
        ):
            taken.add(i + 2)
            return n, None, None
    for i, tok in enumerate(tokens[:-2]):
        # "the 5 most expensive cars", "the three lightest cars": N before a superlative
        n = to_number(tokens[i + 1])
        ranked = any(superlative_direction(t) is not None for t in tokens[i + 2 : i + 4])
        # "the 5 days with the highest ozone": N, the noun ranked, then what ranks them
        noun_first = tokens[i + 3 : i + 4] in (["with"], ["that"], ["which"], ["having"]) and any(
            superlative_direction(t) is not None for t in tokens[i + 4 : i + 8]
        )
        if (
            tok == "the"
            and isinstance(n, int)
            and 1 < n <= 1000
            and i + 1 not in taken
            and (ranked or noun_first)
        ):
            taken.add(i + 1)
            return n, None, i + 2 if noun_first else None
    for i, tok in enumerate(tokens[:-1]):
        # "top products by revenue": a ranking with no N, so every product, in that order
        # (no N is made up); never "top speed", a thing and not a ranking of things.
        if (
            tok in ("top", "bottom")
            and i not in taken
            and to_number(tokens[i + 1]) is None
            and is_plural(tokens[i + 1])
        ):
            taken.add(i)
            return None, tok == "top", i + 1
    return None, None, None


def find_superlative(tokens: list[str], taken: set[int]) -> tuple[bool | None, int | None]:
    for i, tok in enumerate(tokens):
        if i in taken:
            continue
        direction = superlative_direction(tok)
        if direction is not None:
            taken.add(i)
            return direction, i
    for i, tok in enumerate(tokens[:-1]):
        if i not in taken and tok in _TIME_ENDS and tokens[i + 1] in _TIME_PARTS:
            # "the first year with rubella data": the earliest of the year column
            taken.add(i)
            return _TIME_ENDS[tok], i
    if tokens[:1] in (["which"], ["who"]):
        # "which discipline has the higher average salary": of the groups, the one ranked
        # first; a comparative before "than" is a comparison instead (taken by then).
        for i, tok in enumerate(tokens):
            if i not in taken and tok in _COMPARATIVES and tokens[i + 1 : i + 2] != ["than"]:
                taken.add(i)
                return _COMPARATIVES[tok], i
    return None, None


# "first"/"last" rank only a time part: "the first year" is its lowest, "the last date" its
# highest ("the first 5 rows" and "first class" are not superlatives).
_TIME_ENDS = {"first": False, "earliest": False, "last": True, "latest": True}
_TIME_PARTS = frozenset({"year", "month", "date", "day", "season", "week", "quarter"})

_COMPARATIVES = {
    "higher": True,
    "larger": True,
    "greater": True,
    "bigger": True,
    "more": True,
    "better": True,
    "lower": False,
    "smaller": False,
    "fewer": False,
    "less": False,
    "worse": False,
}


# Adjectives whose superlative asks for the low end ("the weakest", "the youngest").
_LOW_ADJECTIVES = frozenset(
    {"small", "short", "few", "little", "weak", "light", "young", "cheap", "slow", "low"}
    | {"poor", "thin", "narrow", "near", "quiet", "early", "least", "bad", "cold", "dry"}
)


def superlative_direction(token: str) -> bool | None:
    """True for a superlative of the high end, False for the low end, None for no superlative:
    the listed words, and any English "-est" adjective ("strongest", "heaviest", "weakest")."""
    if token in SUPERLATIVES:
        return SUPERLATIVES[token]
    if not token.endswith("est") or len(token) < 6:
        return None
    base = stem(token)
    if base == token or not token.startswith(base[:3]):
        return None  # "interest", "forest": not a comparison
    return base not in _LOW_ADJECTIVES


def find_comparisons(tokens: list[str], taken: set[int]) -> list[Comparison]:
    found = []
    for i in range(len(tokens)):
        for phrase, op in COMPARISONS:
            end = i + len(phrase)
            if (
                match_at(tokens, i, phrase)
                and end < len(tokens)
                and not taken & set(range(i, end + 1))
            ):
                percent = tokens[end].endswith("%")
                value = to_number(tokens[end].rstrip("%"))
                said_average = tokens[end : end + 2] == ["the", "average"] or (
                    tokens[end] == "average"
                )
                if value is None and said_average:
                    # "city mpg above the average": compared with the column's own mean
                    last = end + 1 if tokens[end] == "the" else end
                    found.append(Comparison(op, 0, i, last + 1, average=True))
                    taken.update(range(i, last + 1))
                    break
                if value is not None:
                    scale = _SCALES.get(tokens[end + 1]) if end + 1 < len(tokens) else None
                    if scale is not None:  # "more than 1 million people"
                        value, end = value * scale, end + 1
                    elif not percent and tokens[end + 1 : end + 2] == ["percent"]:
                        percent, end = True, end + 1  # "over 10 percent"
                    found.append(Comparison(op, value, i, end + 1, percent=percent))
                    taken.update(range(i, end + 1))
                    break
        else:
            compared = _adjective_comparison(tokens, i, taken) or _or_beyond(tokens, i, taken)
            if compared is not None:
                found.append(compared)
    return found


# "50 or older", "4 or more", "3 or fewer": the number itself, and beyond it that way.
_OR_ABOVE = frozenset({"more", "older", "higher", "greater", "above", "over", "larger", "later"})
_OR_BELOW = frozenset({"less", "fewer", "younger", "lower", "below", "under", "smaller"})


def _or_beyond(tokens: list[str], i: int, taken: set[int]) -> Comparison | None:
    """ "aged 50 or older", "4 or more cylinders": a number, "or", and a word of direction;
    the phrase naming the column ends before the number or starts after the words."""
    value = to_number(tokens[i]) if i + 2 < len(tokens) else None
    if value is None:
        return None
    # "95 degrees or more": the unit stays where the column's phrase may start
    unit = 1 if tokens[i + 1].isalpha() and tokens[i + 1] != "or" else 0
    at = i + 1 + unit
    if at + 1 >= len(tokens) or tokens[at] != "or" or taken & {i, at, at + 1}:
        return None
    word = tokens[at + 1]
    if word not in _OR_ABOVE | _OR_BELOW:
        return None
    taken.update({i, at, at + 1})
    op = ">=" if word in _OR_ABOVE else "<="
    return Comparison(op, value, i, i + 1 if unit else at + 2)


_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000, "k": 1_000}


def _adjective_comparison(tokens: list[str], i: int, taken: set[int]) -> Comparison | None:
    """ "hotter than 90", "younger than 25": any English comparative before "than" and a
    number. The adjective itself stays for the parser to name a column by ("hot" is the
    temperature), so only "than" and the number are taken."""
    if i + 2 >= len(tokens) or tokens[i + 1] != "than" or taken & {i, i + 1, i + 2}:
        return None
    base = adjective_base(tokens[i])
    value = to_number(tokens[i + 2])
    if base is None or value is None or not tokens[i].endswith("er"):
        return None
    taken.update({i + 1, i + 2})
    return Comparison("<" if base in _LOW_ADJECTIVES else ">", value, i + 1, i + 3)


def find_group_markers(tokens: list[str], taken: set[int]) -> list[int]:
    """Positions right after a grouping word ("by", "per", "for each" ...)."""
    starts = []
    i = 0
    while i < len(tokens):
        for phrase in GROUP_MARKERS:
            if match_at(tokens, i, phrase) and i not in taken:
                taken.update(range(i, i + len(phrase)))
                starts.append(i + len(phrase))
                i += len(phrase) - 1
                break
        i += 1
    return starts


def find_time_grain(tokens: list[str], taken: set[int], group_starts: list[int]) -> str | None:
    """ "monthly", "by month", "per quarter", "over time" (month), "trend" (month)."""
    for i, tok in enumerate(tokens):
        if tok in GRAIN_WORDS and i not in taken and not describes_rows(tokens, i):
            taken.add(i)
            return GRAIN_WORDS[tok]
    for start in group_starts:
        if start < len(tokens) and tokens[start] in GRAINS:
            taken.add(start)
            return tokens[start]
    for i in range(len(tokens) - 1):
        if tokens[i : i + 2] == ["over", "time"]:
            taken.update({i, i + 1})
            return "month"
    return None


ROW_WORDS = frozenset(
    {"record", "records", "row", "rows", "entry", "entries", "observation", "observations"}
    | {"reading", "readings", "measurement", "measurements"}
)


def describes_rows(tokens: list[str], i: int) -> bool:
    """ "monthly records": the grain word says what a row is, it does not ask to group."""
    return i + 1 < len(tokens) and tokens[i + 1] in ROW_WORDS


def find_period_list(tokens: list[str], taken: set[int]) -> TimeRange | None:
    """ "in 1990 and (in) 2010", "June and September", "2023 vs 2024": two or more years, or
    months of any year, each compared with the others (so each is its own row). "between
    1980 and 1989" is a range, not a list, unless the question compares ("compare city
    mileage between 1999 and 2008": the two years side by side)."""
    compares = bool({"compare", "comparison", "compared"} & set(tokens))
    for i in range(len(tokens) - 2):
        if i in taken or (i > 0 and tokens[i - 1] == "from"):
            continue
        if i > 0 and tokens[i - 1] == "between" and not compares:
            continue
        items, j = [], i
        while j < len(tokens) and j not in taken and _list_item(tokens[j]) is not None:
            items.append(j)
            joins = ("and", "vs", "versus", "or", ",", "with")  # "compare 2005 with 2015"
            if j + 2 < len(tokens) and tokens[j + 1] in joins:
                j += 2
                if j + 1 < len(tokens) and tokens[j] in ("in", "for", "during"):
                    j += 1  # "in 1952 and in 2007"
                if j + 1 < len(tokens) and tokens[j] == "the" and _list_item(tokens[j + 1]):
                    j += 1  # "the 1970s and the 1990s"
            else:
                break
        kinds = {_list_item(tokens[k]) for k in items}
        if len(items) < 2 or len(kinds) != 1:
            continue
        lead = i - 1 if i > 0 and tokens[i - 1] in ("in", "for", "during", "of") else i
        lead -= 1 if lead > 0 and kinds == {"decade"} and tokens[lead - 1] == "in" else 0
        taken.update(range(lead, items[-1] + 1))
        said = " and ".join(tokens[k].title() for k in items)
        if kinds == {"decade"}:  # every year of each decade, a row for each decade
            starts = sorted(int(tokens[k][:4]) for k in items)
            years = tuple(y for s in starts for y in range(s, s + 10))
            return TimeRange(
                f"{starts[0]:04d}-01-01",
                f"{starts[-1] + 10:04d}-01-01",
                said.lower(),
                years=years,
                each=True,
                grain="decade",
            )
        if kinds == {"year"}:
            years = tuple(sorted(int(tokens[k]) for k in items))
            return TimeRange(
                f"{years[0]:04d}-01-01", f"{years[-1] + 1:04d}-01-01", said, years=years, each=True
            )
        months = tuple(sorted(MONTHS[tokens[k]] for k in items))
        return TimeRange("0001-01-01", "9999-12-31", said, months=months, each=True)
    return None


def _list_item(token: str) -> str | None:
    if is_year(token):
        return "year"
    if re.fullmatch(r"\d{3}0s", token):
        return "decade"
    return "month" if token in MONTHS and token not in ("may", "mar") else None


def find_time_range(
    tokens: list[str], taken: set[int], today: dt.date | None = None
) -> TimeRange | None:
    """A calendar range: "in 2024", "in July 2013", "during Q4 2025", "in July",
    "between 2024-01-01 and 2024-03-31", "since 2024", and periods relative to `today`
    (the machine's date unless given): "last year", "this month", "in the last 30 days"."""
    today = today or dt.date.today()
    for i, tok in enumerate(tokens):
        if i in taken:
            continue
        lead = i + 1 if tok in _RELATIVE_LEADS else i
        lead += 1 if lead < len(tokens) and tokens[lead] == "the" and lead > i else 0
        relative = _relative_at(tokens, lead, today)
        if relative is not None and tok not in ("since", "before", "after"):
            period, used = relative
            taken.update(range(i, lead + used))
            return period
        if tok == "between" and i + 3 < len(tokens) and tokens[i + 2] == "and":
            a, b = tokens[i + 1], tokens[i + 3]
            if _ISO_DATE.match(a) and _ISO_DATE.match(b):
                taken.update(range(i, i + 4))
                return TimeRange(a, _next_day(b), f"between {a} and {b}")
        spanned = _span_at(tokens, i)
        if spanned is not None:
            period, used = spanned
            taken.update(range(i, i + used))
            return period
        if tok in ("in", "during", "for", "from", "since", "before", "after", "on", "of") and (
            i + 1 < len(tokens)
        ):
            found = _period_at(tokens, i + 1)
            if found is not None and tok == "on" and found[0].start == found[0].end:
                found = None  # "on" a day only: "on June" is no period
            # "the lowest close of 2009", "which month of 2018"; never "a population of 2000 …"
            calendar_word = i > 0 and tokens[i - 1] in _UNITS
            if found is not None and tok == "of" and i + 1 + found[1] != len(tokens):
                found = found if calendar_word else None
            if found is not None:
                period, used = found
                taken.update(range(i, i + 1 + used))
                if tok == "since" or tok == "after":
                    start = period.end if tok == "after" else period.start
                    return TimeRange(start, "9999-12-31", f"{tok} {period.said}")
                if tok == "before":
                    return TimeRange("0001-01-01", period.start, f"before {period.said}")
                return period
    return None


_RELATIVE_LEADS = ("in", "during", "for", "over", "within", "from")
_UNITS = {"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year"}
_UNITS.update({f"{unit}s": unit for unit in list(_UNITS)})


def _relative_at(tokens: list[str], i: int, today: dt.date) -> tuple[TimeRange, int] | None:
    """A period named relative to today: calendar ("last year", "this quarter", "yesterday",
    "year to date") or rolling ("last 30 days", "past 6 months", up to and including today).
    `said` keeps the words and adds the dates they meant, so the answer shows both."""
    word = tokens[i] if i < len(tokens) else ""
    unit = _UNITS.get(tokens[i + 1]) if i + 1 < len(tokens) else None
    tomorrow = today + dt.timedelta(days=1)
    if word in ("today", "yesterday"):
        day = today if word == "today" else today - dt.timedelta(days=1)
        return _range(day, day + dt.timedelta(days=1), f"{word}, {day.isoformat()}"), 1
    if tokens[i : i + 3] == ["year", "to", "date"] or word == "ytd":
        start = dt.date(today.year, 1, 1)
        return _range(start, tomorrow, f"year to date, since {start.isoformat()}"), (
            3 if word == "year" else 1
        )
    if word in ("this", "current", "last", "previous") and unit is not None:
        start, end = _calendar(unit, today, back=word in ("last", "previous"))
        return _range(start, end, f"{word} {unit}, {_name(unit, start, end)}"), 2
    count = to_number(tokens[i + 1]) if word in ("last", "past") and i + 2 < len(tokens) else None
    rolling = _UNITS.get(tokens[i + 2]) if count is not None else None
    if count is not None and rolling is not None and count == int(count) and count > 0:
        start = _shift(tomorrow, rolling, -int(count))
        said = f"{word} {int(count)} {tokens[i + 2]}, {start.isoformat()} to {today.isoformat()}"
        return _range(start, tomorrow, said), 3
    return None


def _range(start: dt.date, end: dt.date, said: str) -> TimeRange:
    return TimeRange(start.isoformat(), end.isoformat(), said)


def _calendar(unit: str, today: dt.date, *, back: bool) -> tuple[dt.date, dt.date]:
    """[start, end) of the calendar unit holding today, or of the one before it."""
    if unit == "day":
        start = today
    elif unit == "week":
        start = today - dt.timedelta(days=today.weekday())  # ISO weeks start on Monday
    elif unit == "month":
        start = today.replace(day=1)
    elif unit == "quarter":
        start = dt.date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
    else:
        start = dt.date(today.year, 1, 1)
    end = _shift(start, unit, 1)
    return (_shift(start, unit, -1), start) if back else (start, end)


def _shift(day: dt.date, unit: str, n: int) -> dt.date:
    """`day` moved n units; month arithmetic clamps to the month's last day."""
    if unit == "day":
        return day + dt.timedelta(days=n)
    if unit == "week":
        return day + dt.timedelta(weeks=n)
    months = {"month": 1, "quarter": 3, "year": 12}[unit] * n
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))


def _name(unit: str, start: dt.date, end: dt.date) -> str:
    if unit == "year":
        return str(start.year)
    if unit == "month":
        return f"{calendar.month_name[start.month]} {start.year}"
    if unit == "quarter":
        return f"Q{(start.month - 1) // 3 + 1} {start.year}"
    last = end - dt.timedelta(days=1)
    return start.isoformat() if start == last else f"{start.isoformat()} to {last.isoformat()}"


def _span_at(tokens: list[str], i: int) -> tuple[TimeRange, int] | None:
    """Inclusive spans of whole periods: "between 2010 and 2015", "from 2005 to 2010",
    "2005-2010", "from June to August" (months of any year), "the 1990s" (a decade)."""
    tok = tokens[i]
    dated = _months_of_years(tokens, i) if tok in ("between", "from") else None
    if dated is not None:
        return dated
    if tok in ("between", "from") and i + 3 < len(tokens) and tokens[i + 2] in ("and", "to"):
        a, b = tokens[i + 1], tokens[i + 3]
        if is_year(a) and is_year(b) and int(a) <= int(b):
            return TimeRange(f"{a}-01-01", f"{int(b) + 1:04d}-01-01", f"{a} to {b}"), 4
        if a in MONTHS and b in MONTHS and a != "may" and MONTHS[a] <= MONTHS[b]:
            months = tuple(range(MONTHS[a], MONTHS[b] + 1))
            said = f"{a.title()} to {b.title()}"
            return TimeRange("", "", said, month_only=MONTHS[a], months=months), 4
    decade = re.fullmatch(r"(\d{3})0s", tok)
    if decade and i > 0 and tokens[i - 1] in ("the", "in", "during"):
        start = int(decade.group(1)) * 10
        return TimeRange(f"{start:04d}-01-01", f"{start + 10:04d}-01-01", f"the {start}s"), 1
    return None


def _months_of_years(tokens: list[str], i: int) -> tuple[TimeRange, int] | None:
    """ "between June and August 2008" (one year said after both months), "from March 2010
    to June 2011": whole months, both ends included."""
    words = tokens[i + 1 : i + 6]
    if len(words) >= 4 and words[0] in MONTHS and words[1] in ("and", "to"):
        a, b, year = words[0], words[2], words[3]
        if b in MONTHS and is_year(year) and MONTHS[a] <= MONTHS[b]:
            return _months_between(a, int(year), b, int(year)), 5
    if len(words) == 5 and words[0] in MONTHS and is_year(words[1]) and words[2] in ("and", "to"):
        a, first, b, last = words[0], int(words[1]), words[3], words[4]
        if b in MONTHS and is_year(last) and (first, MONTHS[a]) <= (int(last), MONTHS[b]):
            return _months_between(a, first, b, int(last)), 6
    return None


def _months_between(a: str, first: int, b: str, last: int) -> TimeRange:
    start = dt.date(first, MONTHS[a], 1)
    end = _shift(dt.date(last, MONTHS[b], 1), "month", 1)
    said = (
        f"{a.title()} {first} to {b.title()} {last}"
        if first != last
        else (f"{a.title()} to {b.title()} {last}")
    )
    return _range(start, end, said)


def _period_at(tokens: list[str], i: int) -> tuple[TimeRange, int] | None:
    tok = tokens[i]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    day = _day_at(tokens, i)
    if day is not None:
        return day
    if (tok in MONTHS and tok not in ("may", "mar")) or (tok in ("may", "mar") and is_year(nxt)):
        month = MONTHS[tok]
        if is_year(nxt):
            year = int(nxt)
            start = f"{year:04d}-{month:02d}-01"
            end = f"{year + (month == 12):04d}-{month % 12 + 1:02d}-01"
            return TimeRange(start, end, f"{tok.title()} {year}"), 2
        return TimeRange("", "", tok.title(), month_only=month), 1
    if re.fullmatch(r"q[1-4]", tok) and is_year(nxt):
        q, year = int(tok[1]), int(nxt)
        start_month = 3 * (q - 1) + 1
        end = f"{year + (q == 4):04d}-{(start_month + 3 - 1) % 12 + 1:02d}-01"
        return TimeRange(f"{year:04d}-{start_month:02d}-01", end, f"Q{q} {year}"), 2
    if is_year(tok):
        year = int(tok)
        return TimeRange(f"{year:04d}-01-01", f"{year + 1:04d}-01-01", str(year)), 1
    if _ISO_DATE.match(tok):
        return TimeRange(tok, _next_day(tok), tok), 1
    return None


def _day_at(tokens: list[str], i: int) -> tuple[TimeRange, int] | None:
    """One calendar day written out: "December 31 2015" or "31 December 2015" (the comma
    is gone from the tokens); None when it is no real date."""
    words = tokens[i : i + 3]
    if len(words) < 3 or not is_year(words[2]):
        return None
    month, day = (words[0], words[1]) if words[0] in MONTHS else (words[1], words[0])
    if month not in MONTHS or not re.fullmatch(r"\d{1,2}", day):
        return None
    try:
        when = dt.date(int(words[2]), MONTHS[month], int(day))
    except ValueError:
        return None
    said = f"{calendar.month_name[when.month]} {when.day}, {when.year}"
    return TimeRange(when.isoformat(), (when + dt.timedelta(days=1)).isoformat(), said), 3


def is_year(tok: str) -> bool:
    return bool(re.fullmatch(r"(1[6-9]|20)\d\d", tok))  # 1600-2099: history has years too


def _next_day(iso: str) -> str:
    return (dt.date.fromisoformat(iso) + dt.timedelta(days=1)).isoformat()


def number_word(tok: str) -> bool:
    return tok in NUMBER_WORDS
