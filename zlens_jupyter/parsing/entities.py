"""Entities in a question: the thing a table's rows are ("which ship", "how many trees"),
the column that names them, kinds said as rows, and rows ranked one by one."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from ..vocabulary import people
from ..warehouse import Catalog, TableInfo, ValueMatch
from ..wordforms import is_adjective, is_noun, is_unknown, is_verb, verb_root
from .calendar_reading import FINE_TIME, rows_are_periods
from .counts_and_rates import tally_for_rate
from .lexicon import Lexicon, Span, Target, is_key, is_numeric, is_temporal
from .phrasing import CALENDAR_WORDS, ROW_WORDS
from .reading import LABELS, ROW_LABELS, SHOW_WORDS, ParseState, clarify, span_text
from .spec import Measure, ParseResult, QuestionSpec
from .words import GLUE_WORDS, identifier_words, question_tokens, stem, to_number

_MOST_WORDS = frozenset({"most", "fewest", "least", "more", "less"})


def text_ranked_by_rows(p: ParseState, spec: QuestionSpec) -> ParseResult | None:
    """ "the most precipitation" over a text column `precip`: what ranks is the named column
    (a mass noun, never a plural that counts rows, "the most tests"), and counting rows
    instead would answer another question. Asked, never answered with a row count that
    leaves the word unused."""
    if not spec.measures or any(m.target is not None for m in spec.measures) or spec.listing:
        return None
    used = {(f.table.lower(), f.column.lower()) for f in [*spec.filters, *spec.share_of]}
    used |= {(g.table.lower(), (g.column or "").lower()) for g in spec.group_by}
    for span in p.all_spans:
        column = span.targets[0] if len(span.targets) == 1 else None
        if (
            column is None
            or column.kind != "column"
            or is_numeric(column.type)
            or span.start == 0
            or p.tokens[span.start - 1] not in _MOST_WORDS
            or (column.table.lower(), (column.column or "").lower()) in used
            # "the most bird strikes", "the most tests": a plural counts the rows
            or stem(p.tokens[span.end - 1]) != p.tokens[span.end - 1]
        ):
            continue
        said = span_text(p.tokens, span)
        return clarify(
            f"'{said}' ({column.column}) holds text here, not numbers: which number should "
            "rank them?",
            [],
        )
    return None


def kinds_named_as_the_rows(
    p: ParseState, value_filters: list[tuple[ValueMatch, str | None]]
) -> list[str]:
    """ "all the municipalities", "how many single-tier municipalities" over `csd_type`
    holding 'municipality' among town, city and village: after "all", or after another
    value, the plural may name every row (all municipalities) as well as the kind. With
    nothing else naming the rows, the kind is read, and said. ("How many droids" alone is
    the kind, unsaid.)"""
    if any(t.kind == "table" for s in p.all_spans for t in s.targets):
        return []
    valued = {w.lower() for m, _ in value_filters for w in question_tokens(m.word)}
    notes = []
    for m, _ in value_filters:
        word, value = m.word.lower(), m.value.lower()
        at = p.tokens.index(word) if word in p.tokens else -1
        before = p.tokens[max(at - 2, 0) : max(at, 0)]
        info = p.catalog.table(m.table)
        column = info.column(m.column) if info is not None else None
        if at > 0 and column is not None and info is not None and _kind_asked_as_rows(p, at, m):
            # "which municipality covers the most land" over `csd_type` holding
            # 'municipality' beside 'town' and 'city', each row a named municipality: the
            # word may be every row as well as the kind. The kind is read, and said.
            notes.append(f"'{m.word}' read as the rows whose {m.column} is {m.value}")
            continue
        if at <= 0 or not ("all" in before or (before[-1:] and before[-1] in valued - {word})):
            continue
        if (
            column is not None
            and word != value
            and word.endswith("s")
            and stem(word) == stem(value)
            and " " not in value
            and len(column.distinct_values) >= 3
        ):
            notes.append(f"'{m.word}' read as the rows whose {m.column} is {m.value}")
    return notes


_KIND_WORDS = frozenset({"type", "kind", "category", "class", "sort", "tier", "designation"})


def _kind_asked_as_rows(p: ParseState, at: int, m: ValueMatch) -> bool:
    """Whether the value at `at` is the thing asked about ("which municipality", "how many
    municipalities") and one of three or more kinds in a column named a type or kind, on a
    table whose rows a text column names one by one: then the word may be every row."""
    lead = p.tokens[:at]
    if lead not in (["which"], ["what"], ["how", "many"]) and lead[-2:] != ["how", "many"]:
        return False
    if stem(p.tokens[at]) != stem(m.value.lower()) or " " in m.value:
        return False
    info = p.catalog.table(m.table)
    column = info.column(m.column) if info is not None else None
    if info is None or column is None or len(column.distinct_values) < 3:
        return False
    return bool(set(identifier_words(m.column)) & _KIND_WORDS) and _named_row_by_row(info)


def kinds_of_observed_things(
    tokens: list[str],
    spec: QuestionSpec,
    catalog: Catalog,
    value_filters: list[tuple[ValueMatch, str | None]],
) -> None:
    """ "How many hurricanes were there in 2005?" over 6-hourly storm observations, where
    'hurricane' is a status: the storms seen as hurricanes, by their names (15), never the
    212 sightings; so "which year had the most hurricanes" ranks years by storms. "How many
    hurricane observations" still counts the rows."""
    counted = tokens[:2] == ["how", "many"]
    if not (counted or spec.group_by) or len(tokens) < 3 or set(tokens) & ROW_WORDS:
        return
    m = spec.measures[0] if len(spec.measures) == 1 else None
    if m is None or m.agg != "count" or m.target is not None or spec.listing:
        return
    if counted and spec.group_by:
        return
    observed = observation_label(catalog, m.table)
    kinds = {match.word.lower() for match, _ in value_filters if match.table == m.table}
    # "tropical depressions": the kind may take several words, the last in the plural
    said = next((k.split() for k in kinds if _said_at(tokens, k.split(), counted)), [])
    if observed is None or not said or stem(said[-1]) == said[-1]:
        return
    label = Target("column", m.table, observed, type="VARCHAR")
    spec.measures = [Measure("count_distinct", m.table, label, alias=f"distinct_{observed}")]
    spec.notes.append(f"{m.table} counted by distinct {observed} (each row is one observation)")


def row_entity(
    tokens: list[str],
    taken: set[int],
    unresolved: list[str],
    catalog: Catalog,
    superlative_at: int | None,
    named_tables: Collection[str] = (),
) -> tuple[tuple[int, int], str] | None:
    """The words of a one-table database that name what its rows are ("cars", "animals",
    "faculty members"): the unexplained nouns right after "how many", "which", "who is the
    heaviest", "percentage of the", or, as before, the one unexplained plural noun. Returns
    ((start, end), table); the answer says how they were read. With several tables, the one
    table everything else the question names is on ("the average math score of students"
    over `MathAchieve`'s `MathAch`)."""
    if not unresolved:
        return None
    if len(catalog.tables) == 1:
        info = next(iter(catalog.tables.values()))
    elif len(named_tables) == 1 and (one := catalog.table(next(iter(named_tables)))):
        info = one
    elif (parent := _one_row_per_thing(catalog, named_tables)) is not None:
        info = parent
    else:
        return None
    asks_which = tokens[:1] in (["which"], ["who"], ["what"], ["how"]) or tokens[0] in SHOW_WORDS
    ranked_at = superlative_at if asks_which else None
    found = None
    for start in _entity_positions(tokens, ranked_at):
        if start in taken and start + 1 < len(tokens) and start + 1 not in taken:
            start += 1  # "any AMD processor": past the value that qualifies the noun
        elif (
            start + 1 < len(tokens)
            and start + 1 not in taken
            and is_adjective(tokens[start])
            and _noun(tokens[start + 1])
            and stem(tokens[start + 1]) != tokens[start + 1]
        ):
            # "automatic cars": the rows are the cars; the kind, which nothing here holds,
            # stays unexplained and is asked about
            start += 1
        end = start
        while end < len(tokens) and end - start < 2 and end not in taken and _noun(tokens[end]):
            if end > start and tokens[end] in GLUE_WORDS:
                break  # "employees who …"
            if end > start and is_verb(tokens[end]) and _plural(tokens[end - 1]):
                break  # "people work overtime": the verb after the rows, not "people work"
            end += 1
        if end > start and all(t in unresolved for t in tokens[start:end]):
            found = (start, end)
            break
    if found is None and len(unresolved) == 1:
        word = unresolved[0]
        at = next((i for i, t in enumerate(tokens) if t == word and i not in taken), None)
        # "how many of the players are pitchers": a noun said of the rows is a condition on
        # them that no column holds, not what the rows are
        predicate = at is not None and at > 0 and tokens[at - 1] in ("are", "is", "were", "was")
        if at is not None and stem(word) != word and _noun(word) and not predicate:
            found = (at, at + 1)
    if found is None:
        return None
    start, end = found
    last = tokens[end - 1]
    if end < len(tokens) and end in taken and stem(last) == last and is_noun(tokens[end]):
        return None  # "assistant professors": a word qualifying a value, not the rows
    if stem(tokens[start]) in _TERMS:
        return None  # "which semester": a span of time the data lacks, never its rows
    if end - start == 2 and _doer(tokens[start]):
        return None  # "the director's films": whose they are, which nothing here holds
    if last in people() and tally_for_rate(
        catalog, [Span(0, 0, (Target("table", info.name),))], []
    ):
        return found, info.name  # "prisoners" over rows that each hold a `count` of them
    periods = rows_are_periods(info) and observation_label(catalog, info.name) is None
    # ... unless a text column names the rows nearly one each (a processor's `name` beside
    # its `released` date): then each row is one thing, dated
    periods = periods and not _named_row_by_row(info)
    if stem(last) not in CALENDAR_WORDS and periods and not _names_events(last):
        return None  # rows of city-months are not "homes" (a count of rows would not be)
    return found, info.name


# Spans of time that are no calendar column's part: a question grouping by one the data lacks
_TERMS = frozenset({"semester", "term", "trimester", "season", "era", "period"})


def _doer(word: str) -> bool:
    """A noun for who does something ("director", "producer"), said of other things."""
    if len(word) < 6 or not word.endswith(("or", "er")):
        return False
    return any(is_verb(base) for base in (word[:-2], word[:-1]) if len(base) > 3)


def _plural(word: str) -> bool:
    """A plural noun: "employees", "people"."""
    return word in people() or stem(word) != word


def _noun(word: str) -> bool:
    """A noun, or a word the English tables do not know (a domain's own: "processors")."""
    return is_noun(word) or is_unknown(word)


def one_name_column(catalog: Catalog, table: str) -> str | None:
    """The one text column of a table called name (or ending in name), which says who; or
    the one naming who won (`Champion`, `winner`) on a table of wins."""
    info = catalog.table(table) if table else None
    names = [
        c.name
        for c in (info.columns if info is not None else [])
        if not is_numeric(c.type) and identifier_words(c.name)[-1:] == ("name",)
    ]
    if not names and info is not None:
        names = [
            c.name
            for c in info.columns
            if not is_numeric(c.type) and identifier_words(c.name) in (("champion",), ("winner",))
        ]
    if not names and info is not None:
        # `baker` on `bakers`: the column named as one of the table's rows is their name
        one = tuple(stem(w) for w in identifier_words(info.name))
        names = [
            c.name
            for c in info.columns
            if not is_numeric(c.type) and identifier_words(c.name) == one
        ]
    return names[0] if len(names) == 1 else None


def _named_row_by_row(info: TableInfo) -> bool:
    """Whether a text column of the table names its rows mostly one each (over half: the
    victims' forenames of a murder list repeat, 659 for 838 rows). A table of periods (days
    of a city's weather, months of a market) has no such column: its text columns are the
    few places or kinds its figures are of."""
    return info.row_count >= 20 and any(
        not is_numeric(c.type)
        and not is_temporal(c.type)
        and not is_key(c.name)  # an order id names orders, not the things ordered
        and c.distinct_count > 0.5 * info.row_count
        for c in info.columns
    )


def _names_events(word: str) -> bool:
    """ "bookings", "listings", "shipments"? No: a noun made from a verb with -ing
    ("booking" from book) names something that happens, so on a table with dates each row is
    one of them at its date, never a period."""
    single = stem(word)
    return single.endswith("ing") and len(single) > 5 and verb_root(single) is not None


_ENTITY_LEADS = (
    ("how", "many"),
    ("number", "of"),
    ("which",),
    ("what",),
    ("of", "the"),
    ("any",),  # "the most minutes any customer used"
    ("of", "a"),  # "the median TDP of a processor"
    ("of", "an"),
    ("per",),  # "the average day minutes per customer": per row
    # "what percentage of bookings came …": the rows a share is taken of
    ("percentage", "of"),
    ("percent", "of"),
    ("share", "of"),
    ("proportion", "of"),
    ("fraction", "of"),
    ("count", "of"),  # "count of faculty by discipline"
)
# Leads that name the rows only when a word for persons follows ("the highest salary among
# female faculty", "the average age for staff"); any other noun there is something else.
_PEOPLE_LEADS = (("among",), ("for",))
# "the most common class of car", "which class of car …": what the column is of is the rows,
# in a question asking which (tried last; "each type of cigarette" counts no cigarettes)
_WHICH_ENTITY_LEADS = (("of",),)


def _entity_positions(tokens: list[str], superlative_at: int | None) -> list[int]:
    positions = []
    asks_which = tokens[:1] in (["which"], ["what"])
    for lead in _ENTITY_LEADS + (_WHICH_ENTITY_LEADS if asks_which else ()):
        for i in range(len(tokens) - len(lead)):
            if tuple(tokens[i : i + len(lead)]) == lead:
                at = i + len(lead)
                at += 1 if at < len(tokens) and tokens[at] in ("the", "all") else 0
                at += 1 if at < len(tokens) and to_number(tokens[at]) is not None else 0
                positions.append(at)  # "which 5 animals": past the ranking's N
    for lead in _PEOPLE_LEADS:
        positions += [
            i + 1 + n
            for i, t in enumerate(tokens[:-1])
            if (t,) == lead
            for n in (0, 1)  # "among faculty", "among female faculty"
            if i + 1 + n < len(tokens) and tokens[i + 1 + n] in people()
        ]
    if superlative_at is not None:
        positions.append(superlative_at + 1)
    return positions


def ranks_its_rows(
    p: ParseState, span: Span, spec: QuestionSpec, superlative: bool | None, limit: int | None
) -> bool:
    """Whether a ranking names the fact table's own rows and one number of theirs to rank
    them by: "show the 3 heaviest diamonds" is rows, not a group of them."""
    if (superlative is None and limit is None) or p.tokens[:1] == ["who"]:
        return False  # "who bought the cheapest diamond": a row is no one
    if span.start == p.guessed_rows:
        return False  # "which mine did the most expensive diamond come from": not a row
    if not any(t.kind == "table" and t.table == spec.fact_table for t in span.targets):
        return False
    if len(spec.measures) != 1 or spec.group_by:
        return False
    m = spec.measures[0]
    return (
        m.agg in ("max", "min")
        and m.target is not None
        and m.target.kind == "column"
        and m.table == spec.fact_table
        and is_numeric(m.target.type)
    )


def counted_in_one_of_many(catalog: Catalog, spec: QuestionSpec) -> list[str]:
    """A note for distinct values counted in one table when other tables have the column
    too and nothing in the question ties the count to this one: "how many countries are in
    the data" over a statistics table and a code list, which need not hold the same ones."""
    if spec.filters or spec.group_by or spec.time_range or spec.share_of:
        return []
    notes = []
    for m in spec.measures:
        if m.agg != "count_distinct" or m.target is None or not m.target.column:
            continue
        also = [
            t.name
            for t in catalog.tables.values()
            if t.name != m.table and t.column(m.target.column) is not None
        ]
        if also:
            notes.append(
                f"counted the distinct {m.target.column} of {m.table}; "
                f"{', '.join(also)} also has {m.target.column}"
            )
    return notes


def _said_at(tokens: list[str], words: list[str], counted: bool) -> bool:
    """Whether `words` follow "how many" (`counted`), or else come right after "most",
    "fewest" or "least" ("the most hurricanes")."""
    if counted:
        return words == tokens[2 : 2 + len(words)]
    return any(
        tokens[i - 1] in ("most", "fewest", "least") and tokens[i : i + len(words)] == words
        for i in range(1, len(tokens))
    )


def _one_row_per_thing(catalog: Catalog, named_tables: Collection[str]) -> TableInfo | None:
    """The one table holding each thing once, by an id column every value of which is on
    one row, where another table repeats that id (pbc's patients by `id`, their lab visits
    in pbcseq): "the patients" are its rows. None where the question names other tables or
    no table, or several, is so."""
    found = parent_table(catalog)
    if found is None or any(t != found.name for t in named_tables):
        return None
    return found


def parent_table(catalog: Catalog) -> TableInfo | None:
    """The one table keyed by an id each of whose values is on one of its rows, where
    another table repeats that id; None where no table, or several, is so."""
    found = []
    for info in catalog.tables.values():
        for column in info.columns:
            if not column.one_per_row or not is_key(column.name):
                continue
            repeated = any(
                (other := o.column(column.name)) is not None and not other.one_per_row
                for o in catalog.tables.values()
                if o.name != info.name
            )
            if repeated:
                found.append(info)
                break
    return found[0] if len(found) == 1 else None


def observation_label(catalog: Catalog, table: str) -> str | None:
    """The label column of a table that records named things over time (a name column and
    day- or hour-level time), whose rows are observations rather than the things."""
    info = catalog.table(table)
    if info is None:
        return None
    names = {c.name.lower(): c for c in info.columns}
    label = next((n for n in LABELS if n in names and not is_numeric(names[n].type)), None)
    timed = any(n in FINE_TIME for n in names) or any(
        is_temporal(c.type) and c.type.upper() != "DATE" for c in info.columns
    )
    return label if label is not None and timed else None


_ROW_RANK_GLUE = frozenset({"with", "the", "a", "an", "that", "which", "had", "has", "have"})


def ranks_single_rows(tokens: list[str], spans: list[Span], superlative_at: int | None) -> bool:
    """ "the poll with the largest sample", "the game that had the most goals": a noun
    naming a table's rows, then the superlative: the rows are ranked one by one."""
    if superlative_at is None:
        return False
    return any(
        len(s.targets) == 1
        and s.targets[0].kind == "table"
        and s.end < superlative_at
        and all(t in _ROW_RANK_GLUE for t in tokens[s.end : superlative_at])
        and any(t == "with" or t in ("had", "has", "have") for t in tokens[s.end : superlative_at])
        for s in spans
    )


def names_its_rows(catalog: Catalog, column: Target) -> bool:
    """A key by its name (`order_id`) that is one: `test_id` holding two test codes over
    15,524 rows names no test, and a count of its values is a reading to say."""
    if not is_key(column.column or ""):
        return False
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or stored.distinct_count < 0:
        return True
    return 2 * stored.distinct_count > info.row_count


def mostly_distinct(catalog: Catalog, column: Target) -> bool:
    """A text column of names nearly one per row (course titles, 3,124 of 3,950 rows), or of
    values too many to count: "how many courses" may be its distinct titles or the rows,
    which two courses sharing a title tell apart. A category (173 subjects) is its values."""
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or is_numeric(stored.type):
        return False
    return stored.distinct_count < 0 or 2 * stored.distinct_count > info.row_count


def rows_are_the_things(catalog: Catalog, column: Target) -> bool:
    """ "how many counties" over midwest (437 rows, 320 county names: ADAMS in Ohio and in
    Indiana): names that are mostly distinct, on a table with no time column to repeat them
    (gapminder's countries repeat once a year: those are counted as names), name one row
    each; a name shared by a few rows is a coincidence of names, not one thing."""
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or info.row_count <= 0 or stored.distinct_count <= 0:
        return False
    if any(is_temporal(c.type) or c.name.lower() in CALENDAR_WORDS for c in info.columns):
        return False
    return stored.distinct_count < info.row_count <= 2 * stored.distinct_count


def names_each_row(catalog: Catalog, span: Span) -> bool:
    """Whether a span names one text column whose values name the rows nearly one each (nine
    in ten distinct, or more): a menu's `item`, a list's `name`."""
    columns = [t for t in span.targets if t.kind == "column"]
    if len(columns) != 1 or len(span.targets) != 1 or is_numeric(columns[0].type):
        return False
    info = catalog.table(columns[0].table)
    stored = info.column(columns[0].column or "") if info is not None else None
    if info is None or stored is None or info.row_count < 20:
        return False
    return stored.distinct_count >= 0.9 * info.row_count


def one_row_each(catalog: Catalog, span: Span) -> bool:
    """Whether a span names a text column listing exactly one value per row of its table
    (USArrests' 50 states over 50 rows): grouping by it leaves each row alone."""
    columns = [t for t in span.targets if t.kind == "column"]
    if not columns or len(columns) != len(span.targets):
        return False
    for column in columns:  # `state` of two tables keyed by it: one row each in both
        info = catalog.table(column.table)
        stored = info.column(column.column or "") if info is not None else None
        if (
            info is None
            or stored is None
            or is_numeric(column.type)
            or info.row_count <= 0
            or stored.distinct_count != info.row_count
        ):
            return False
    return True


def names_rows(catalog: Catalog, match: ValueMatch) -> bool:
    """Whether a value names rows one by one ("Luke Skywalker", "Honda Accord"): a value of
    a name column, of a text column with too many values to list (a label, not a category),
    or of one listing as many values as the table has rows (USArrests' 50 states)."""
    if match.column.lower() in ROW_LABELS:
        return True
    info = catalog.table(match.table)
    column = info.column(match.column) if info is not None else None
    if info is None or column is None or is_numeric(column.type):
        return False
    if identifier_words(match.column)[-1:] in (("name",), ("title",)):
        return True  # `team_name`: a name column, however few its values
    return not column.distinct_values or len(column.distinct_values) == info.row_count


def names_text_only(span: Span) -> bool:
    """A span naming only text columns (no table, no number, no date)."""
    return bool(span.targets) and all(
        t.kind == "column" and not is_numeric(t.type) and not is_temporal(t.type)
        for t in span.targets
    )


def listed_count(catalog: Catalog, column: Target) -> int:
    """How many values a text column lists (0 when none are)."""
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    return len(stored.distinct_values) if stored is not None else 0


def lists_values(catalog: Catalog, span: Span) -> bool:
    """Whether the span's columns are categories (few enough values to list), not names."""
    for t in span.targets:
        info = catalog.table(t.table)
        stored = info.column(t.column or "") if info is not None else None
        if stored is None or not stored.distinct_values:
            return False
    return True


def entity_qualified(
    tokens: list[str], spans: list[Span], taken: set[int], lex: Lexicon, entity: tuple[int, int]
) -> list[Span]:
    """ "passengers by class" over a column `passengerClass`: with the row noun before it, an
    unexplained word names a column ("passenger class")."""
    noun = stem(tokens[entity[1] - 1])
    found = []
    for i, token in enumerate(tokens):
        if i in taken:
            continue
        named = [t for t in lex.lookup([noun, token]) if t.kind == "column"]
        if len(named) == 1:
            found.append(Span(i, i + 1, (named[0],)))
            taken.add(i)
    return sorted(spans + found, key=lambda s: s.start) if found else spans


_DISTINCT_WORDS = frozenset({"different", "distinct", "unique", "separate"})


def rows_named_by_their_table(tokens: list[str], span: Span, lexicon: Lexicon) -> Span:
    """ "how many flights" over `nycflights`, whose `flight` is a flight number: the plural
    the table's own name gives its rows names the rows, before a column named by the same
    word in the singular (a number each row carries, shared by many rows). "How many
    different flights" still counts the column's values."""
    if span.end - span.start != 1:
        return span
    word = tokens[span.start]
    table = lexicon.row_nouns.get(stem(word))
    if table is None or stem(word) == word:
        return span  # said in the singular ("flight 1545"): the column
    if span.start > 0 and tokens[span.start - 1] in _DISTINCT_WORDS:
        return span
    named = [
        t
        for t in span.targets
        if t.kind == "column"
        and t.table == table
        and identifier_words(t.column or "") == (stem(word),)
    ]
    if not named or len(named) != len(span.targets):
        return span
    return replace(span, targets=(Target("table", table),))
