"""Figures that are counts or rates: populations and "per 100,000 people", tallies
kept as a column (`n`, `cases`), ages of people, sale prices and units to convert."""

from __future__ import annotations

import re

from ..vocabulary import people, quantities, units
from ..warehouse import Catalog, ColumnInfo, TableInfo, ValueMatch
from ..wordforms import doer_of, verb_root
from .lexicon import Lexicon, Span, Target, is_key, is_numeric, run_together
from .phrasing import CALENDAR_WORDS, ROW_WORDS, Comparison
from .reading import ParseState, clarify, is_integer
from .spec import Measure, ParseResult, QuestionSpec
from .words import identifier_words, split_unit, stem, to_number

NUMBER_SCALES = frozenset({"thousand", "million", "billion"})  # "1 million people"
_SOLD = frozenset({"sold", "sell", "sells", "selling", "went", "go", "goes", "priced"})


def sale_price(
    tokens: list[str], comparison: Comparison, catalog: Catalog, fact: str | None
) -> Target | None:
    """ "houses that sold for more than $300,000": what a thing sold for is its one price
    column (`price`, `sale_price`), when nothing else named the compared figure."""
    before = tokens[max(0, comparison.op_start - 2) : comparison.op_start]
    info = catalog.table(fact) if fact else None
    if info is None or len(before) < 2 or before[1] not in ("for", "at") or before[0] not in _SOLD:
        return None
    prices = [c for c in info.columns if is_numeric(c.type) and "price" in identifier_words(c.name)]
    if len(prices) != 1:
        return None
    return Target("column", info.name, prices[0].name, type=prices[0].type)


# Words for how many people live somewhere: "counties with more than 1 million people".
_INHABITANTS = frozenset({"people", "persons", "residents", "inhabitants"})
# What a population column's name may add to it: `poptotal`, `total_population`.
_POPULATION_PARTS = frozenset({"", "total", "tot"})


def _population_columns(info: TableInfo) -> list[ColumnInfo]:
    """A table's population columns (`pop`, `population`, `poptotal`; never `popwhite`)."""
    found = []
    for column in info.columns:
        name = re.sub(r"[^a-z]", "", column.name.lower())
        for head in ("population", "pop"):
            rest = name.removeprefix(head) if name.startswith(head) else name.removesuffix(head)
            if rest != name and rest in _POPULATION_PARTS and is_numeric(column.type):
                found.append(column)
                break
    return found


def per_people_said(
    tokens: list[str], taken: set[int], lexicon: Lexicon
) -> tuple[int, str, int] | None:
    """(scale, the words) of "per 100,000 people", "per capita", "per person", the words
    taken (and a "rate" before them, which they define)."""
    for i in range(len(tokens) - 1):
        if tokens[i] != "per" or i in taken:
            continue
        number = to_number(tokens[i + 1])
        at = i + 2 if isinstance(number, int) and number > 0 else i + 1
        word = tokens[at] if at < len(tokens) else ""
        if word not in _INHABITANTS | {"capita", "person", "inhabitant", "resident"}:
            continue
        if run_together(tokens[max(0, i - 3) : at + 1], lexicon, set()):
            continue  # "GDP per capita" spells `gdpPercap`: a column's own name
        scale = number if at == i + 2 and isinstance(number, int) else 1
        start = i - 1 if i > 0 and stem(tokens[i - 1]) == "rate" else i
        taken.update(range(start, at + 1))
        return scale, " ".join(tokens[start : at + 1]), start
    return None


def rates_per_people(p: ParseState, measures: list[Measure]) -> list[Measure] | ParseResult:
    """ "the murder rate per 100,000 people": the figure added up over the rows, per the
    people of the same rows (the table's one population column), times the scale. Said."""
    assert p.per_people is not None
    scale, said, _ = p.per_people
    rated = []
    for m in measures:
        info = p.catalog.table(m.table)
        counted = m.target is not None and is_numeric(m.target.type) and m.agg in ("sum", "max")
        pops = _population_columns(info) if info is not None else []
        if not counted or m.target is None or len(pops) != 1:
            return clarify(
                f"'{said}' needs a number to divide and one population column beside it on "
                f"{m.table}; name them, e.g. 'total per 100,000 population'.",
                [],
            )
        per = Target("column", m.table, pops[0].name, type=pops[0].type)
        alias = f"{m.target.column}_per_{scale}" if scale > 1 else f"{m.target.column}_per_person"
        rated.append(Measure("sum", m.table, m.target, alias=alias, per=per, scale=scale))
        p.notes.append(f"'{said}' read as {m.target.column} × {scale:,} / {pops[0].name}")
    return rated


def population_of(
    tokens: list[str], comparison: Comparison, catalog: Catalog, fact: str | None
) -> Target | None:
    """ "more than 1 million people" over a table of places: its one population column
    (`pop`, `population`, `poptotal`; never `popwhite`, a group's own), when nothing else
    in the question named the compared figure."""
    after = tokens[comparison.value_end] if comparison.value_end < len(tokens) else ""
    info = catalog.table(fact) if fact else None
    if after not in _INHABITANTS or info is None:
        return None
    # the fact table's own, else the one other table's ("countries with more than 100
    # million people" over `wbd_example` beside `countrypops`)
    tables = [info] + [t for t in catalog.tables.values() if t.name != info.name]
    for table in tables:
        found = _population_columns(table)
        years = {t for t in tokens if len(t) == 4 and t.isdigit()}
        dated = [c for c in found if set(re.findall(r"\d{4}", c.name)) & years]
        found = dated if len(found) > 1 and len(dated) == 1 else found  # `population_2021`
        if len(found) == 1:
            return Target("column", table.name, found[0].name, type=found[0].type)
        if found:
            return None
    return None


# Units a figure could be asked in that the stored one may not be: never converted here.
_CONVERTIBLE = frozenset({"s", "min", "h", "kg", "g", "lb", "oz", "cm", "mm", "m", "km", "mi"})


def unit_to_convert(
    tokens: list[str], catalog: Catalog
) -> ParseResult | tuple[list[str], str | None]:
    """ "the average departure delay, in minutes": where no column says which unit it is kept
    in, the figures are shown as stored, the unit asked left unchecked and said (reviewed);
    people mostly ask in the unit their data is kept in. Where a column of the same quantity
    says another unit (`time_sec` asked in minutes), asked: answering in the stored unit
    would give another number under the question's unit."""
    for i in range(len(tokens) - 1):
        unit = units().get(tokens[i + 1]) if tokens[i] == "in" else None
        if unit is None or i + 2 != len(tokens):
            continue
        stated = {
            kept
            for t in catalog.tables.values()
            for c in t.columns
            if (kept := split_unit(c.name)[1])
        }
        if unit in stated:
            return tokens, None
        quantity = _quantity_of(unit)
        if unit in _CONVERTIBLE and quantity and any(_quantity_of(o) == quantity for o in stated):
            return clarify(
                f"'in {tokens[i + 1]}': no column here is kept in {tokens[i + 1]}, and I don't "
                "convert units yet. Ask without it to get the figures as stored.",
                [],
            )
        note = (
            f"'in {tokens[i + 1]}': the data does not say which unit its figures are kept in; "
            "shown as stored, not converted"
        )
        return tokens[:i], note
    return tokens, None


def _quantity_of(unit: str) -> str:
    return quantities().get(unit, "")


def age_of_people(
    tokens: list[str], comparison: Comparison, lexicon: Lexicon, fact: str | None
) -> Target | None:
    """ "passengers over 60", "children under 12", "people aged 18 or older": a comparison
    said of people (vocabulary `people`), or followed by "years old", with no column of its
    own, is about age, when the asked table has exactly one numeric column named age."""
    at = comparison.op_start - 1
    aged = at >= 0 and tokens[at] == "aged"  # "winners aged 50 or older": the age said
    while at > 0 and tokens[at] in ("aged", "are", "were", "is", "was"):
        at -= 1  # "winners were aged 50 or older"
    before = tokens[at] if at >= 0 else ""
    after = tokens[comparison.value_end : comparison.value_end + 2]
    # "smokers under 25", "drivers over 60": doers are people too
    doer = doer_of(before) is not None
    # "how many employees in the sales department are over 40": the people counted
    counted = tokens[2] if tokens[:2] == ["how", "many"] and len(tokens) > 2 else ""
    verb_led = tokens[comparison.op_start - 1] in ("are", "were") if comparison.op_start else False
    counted_people = verb_led and counted in people()
    said_of_people = before in people() or doer or counted_people or aged
    if not said_of_people and after != ["years", "old"]:
        return None
    ages = [
        t
        for t in lexicon.lookup(["age"])
        if t.kind == "column" and is_numeric(t.type) and (fact is None or t.table == fact)
    ]
    return ages[0] if len(ages) == 1 else None


# Words of a column's name that say its figures are rates or shares, which never add up.
_RATE_WORDS = frozenset(
    {"rate", "rates", "pct", "percent", "percentage", "ratio", "share", "proportion", "prop"}
    | {"mpg", "density", "speed"}
    # a figure that is itself a statistic (txhousing's `median` price) does not add up either
    | {"median", "mean", "average", "avg"}
)


# Quantities per unit of something else ("city mileage" for `cty`, "mpg", "speed"): like
# rates, their figures do not add up
PER_UNIT_WORDS = frozenset({"mileage", "mpg", "efficiency", "economy", "speed", "density"})


def is_rate(column: str) -> bool:
    """ "Grad.Rate", "pct_female", "S.F.Ratio", "percollege": a rate, share or percentage."""
    words = identifier_words(column)
    low = column.lower()
    return bool(set(words) & _RATE_WORDS) or low.startswith(("perc", "pct")) or "%" in low


# Names of a column that holds how many of the table's thing each row stands for.
# ("number" is not one: `Number` is as often a record's number as a count)
_TALLY_NAMES = frozenset({"total", "count", "n", "freq", "frequency", "cases", "cnt"})


def tally_for_rate(catalog: Catalog, spans: list[Span], values: list[ValueMatch]) -> Target | None:
    """The one tally column (`count`, `total`) of the table a rate's words point at: a
    table named, else the table of the values said, else the only table."""
    tables = [t.table for s in spans for t in s.targets if t.kind == "table"]
    tables = tables or [m.table for m in values if m.table]
    tables = tables or (list(catalog.tables) if len(catalog.tables) == 1 else [])
    found = set()
    for name in dict.fromkeys(tables):
        info = catalog.table(name)
        if info is None:
            continue
        for c in info.columns:
            if is_numeric(c.type) and c.name.lower() in _TALLY_NAMES and not is_key(c.name):
                found.add((info.name, c.name, c.type))
    if len(found) != 1:
        return None
    table, column, kind = found.pop()
    return Target("column", table, column, type=kind)


def people_held_in_a_tally(
    tokens: list[str], spec: QuestionSpec, catalog: Catalog, notes: list[str]
) -> None:
    """ "how many women were in prison" over rows of state, gender and quarter with a
    `count` of prisoners each: the people are that column's figures added up, never the rows
    (16 rows of women, 3,000 women). Said. Only people: "how many states …" counts rows."""
    counted = tokens[2] if tokens[:2] == ["how", "many"] and len(tokens) > 2 else ""
    if counted not in people() or set(tokens) & ROW_WORDS:
        return
    for at, m in enumerate(spec.measures):
        if m.agg != "count" or m.target is not None:
            continue
        tally = tally_for_rate(catalog, [], [ValueMatch("", m.table, "", "")])
        if tally is None or stem(counted) in identifier_words(m.table):
            continue
        spec.measures[at] = Measure("sum", m.table, tally, alias=f"sum_{tally.column}")
        notes.append(f"'{counted}' counted by adding up {m.table}.{tally.column}")
        prefix = f"each row of {m.table} counted as one"
        spec.notes[:] = [n for n in spec.notes if not n.startswith(prefix)]
        notes[:] = [n for n in notes if not n.startswith(prefix)]


def tally_of(catalog: Catalog, span: Span, said: str = "") -> Target | None:
    """The column that counts what a table's name says (`murders.total`), when the span names
    only the table, its name is a plural noun and exactly one numeric column of it is called
    by a tally word (`total`, `count`, `n`, ...), or else by the start of that noun (`fatal`
    on Fatalities). People said of a table with a tally word's column are counted by it too
    ("prisoners" over `prisonLF.count`, one row per state, gender and quarter)."""
    if len(span.targets) != 1 or span.targets[0].kind != "table":
        return None
    info = catalog.table(span.targets[0].table)
    if info is not None and said in people() and stem(said) not in identifier_words(info.name):
        return tally_for_rate(catalog, [span], [])
    words = identifier_words(info.name) if info is not None else ()
    if info is None or not words or stem(words[-1]) == words[-1]:
        return None
    plural = words[-1]
    tallies = [
        c
        for c in info.columns
        if is_numeric(c.type) and c.name.lower() in _TALLY_NAMES and not is_key(c.name)
    ] or [
        # `fatal` on Fatalities: the one whole-number column whose name begins the table's
        c
        for c in info.columns
        if is_integer(c.type)
        and c.name.isalpha()
        and len(c.name) >= 4
        and plural.startswith(c.name.lower())
        and plural != c.name.lower()
        # `flight` on flights is each row's flight number, the singular, never a tally
        and stem(plural) != c.name.lower()
    ]
    if len(tallies) != 1:
        return None
    found = tallies[0]
    return Target("column", info.name, found.name, type=found.type)


def counted_of_a_named_row(p: ParseState, span: Span, column: Target) -> bool:
    """ "how many home runs did Don Mattingly hit": a whole-number column said in the plural,
    asked of one named row, is that row's figure (`HmRun`), never its distinct values."""
    said, name = p.tokens[span.end - 1], column.column or ""
    if is_key(name) or name.lower() in CALENDAR_WORDS:
        return False  # "how many years of data for California": years counted, never added
    plural = said.endswith("s") and stem(said) != said and not said.endswith("ss")
    return plural and is_integer(column.type) and column.table.lower() in p.named_rows


def holds_counts(column: Target) -> bool:
    """A numeric column named by a plural noun (`electoral_votes`, `passengers`, `sales`):
    each row's figure is how many of them, so "how many" adds it up rather than counting
    rows. Not a key, a calendar part or a column named in the singular (`rating`)."""
    name = column.column or ""
    if not is_numeric(column.type) or is_key(name) or name.lower() in CALENDAR_WORDS:
        return False
    words, _ = split_unit(name)
    words = tuple(w for w in words if not w.isdigit())  # `births_2018`: births
    last = words[-1] if words else ""
    if len(words) > 1 and words[0] in ("count", "number"):
        return True  # `count_working`, `num_cc_carrying_balance`: how many, by its name
    if len(words) == 2 and words[1].endswith("ed") and verb_root(words[1]) is not None:
        last = words[0]  # `Individuals_Affected`: how many individuals were
    return last.endswith("s") and stem(last) != last and not last.endswith("ss")


def counts_who_were(said: str, column: Target) -> bool:
    """ "how many unemployed" over a whole-number `unemploy`, "how many injured" over
    `injured`: a participle said of people counts those who were, which such a column already
    holds on each row (a 0/1 flag adds up to the same count)."""
    name = column.column or ""
    if "INT" not in column.type.upper() or is_key(name) or name.lower() in CALENDAR_WORDS:
        return False
    if not said.endswith("ed") or not said.isalpha():
        return False
    return verb_root(said) is not None or (
        said.startswith("un") and verb_root(said[2:]) is not None
    )
