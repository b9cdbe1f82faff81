"""The vocabulary of one database: every phrase that names a table, column, metric or dimension.

Built from the catalog and the optional semantic model. Matching is exact on stemmed words
(no fuzzy scores), because the parser must never answer with an unrelated column: a phrase
either names something in the data or it stays unresolved and the question is clarified.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..semantic import SemanticModel
from ..vocabulary import (
    abbreviation_aliases,
    abbreviations,
    kinds_named,
    people,
    quantities,
    synonyms,
    units,
)
from ..warehouse import Catalog, TableInfo
from ..wordforms import doer_of, is_adjective, is_english, is_noun, is_verb, verb_root
from .words import identifier_words, question_tokens, raw_words, split_unit, stem, stems

NUMERIC_TYPES = (
    "INT",
    "DECIMAL",
    "DOUBLE",
    "FLOAT",
    "REAL",
    "NUMERIC",
    "HUGEINT",
    "BIGINT",
    "SMALLINT",
    "TINYINT",
    "UBIGINT",
    "UINTEGER",
)
TIME_TYPES = ("DATE", "TIMESTAMP")


def is_numeric(sql_type: str) -> bool:
    return sql_type.upper().startswith(NUMERIC_TYPES)


def is_temporal(sql_type: str) -> bool:
    return sql_type.upper().startswith(TIME_TYPES)


def is_key(column: str) -> bool:
    low = column.lower()
    # `EmployeeNumber`, `case_number`: a thing's number names it, it counts nothing
    numbered = (
        low.endswith("number")
        and len(low) > len("number") + 2
        and not low.startswith(("total", "avg", "average", "mean", "numberof"))  # counts
    )
    return (
        low == "id"
        or numbered
        or (low.endswith(("_id", "_key", "id")) and low not in ("paid", "valid"))
    )


@dataclass(frozen=True)
class Target:
    """Something a phrase can name."""

    kind: str  # table | column | metric | dimension
    table: str
    column: str | None = None  # the column, or the SQL expression of a dimension
    name: str | None = None  # metric or dimension name
    type: str = ""
    unit: str = ""  # "kg" for weight_kg: shown as "weight (kg)"

    @property
    def label(self) -> str:
        return self.name or self.column or self.table


@dataclass
class Lexicon:
    phrases: dict[tuple[str, ...], list[Target]] = field(default_factory=dict)
    # Phrases reached only through the vocabulary's synonyms: used when no name matches, so
    # "gender" is the `gender` column where there is one, and `sex` only where there is not.
    synonym_phrases: dict[tuple[str, ...], list[Target]] = field(default_factory=dict)
    unordered: dict[frozenset[str], list[Target]] = field(default_factory=dict)
    # The same for synonyms' phrases ("highway mileage" for MPG.highway), weakest of all.
    unordered_synonyms: dict[frozenset[str], list[Target]] = field(default_factory=dict)
    # The same phrases with each word's verb ("technical wins" for technical_winner, "viewing"
    # for viewers): the weakest match, tried only when nothing else names the words.
    by_verb: dict[tuple[str, ...] | frozenset[str], list[Target]] = field(default_factory=dict)
    table_endings: dict[str, list[Target]] = field(default_factory=dict)  # one-word table names
    # Plural nouns a table's name gives its rows by ("flights" of `nycflights`, "polls" of
    # `brexit_polls`) -> the table, by the noun's stem
    row_nouns: dict[str, str] = field(default_factory=dict)
    # Columns with a year in their name (`births_2018`, `life_expectancy_1970`) -> that year
    column_years: dict[Target, int] = field(default_factory=dict)
    # Columns named by their words without a number (`viewers_7day`, `viewers_28day`)
    numbered_variants: set[Target] = field(default_factory=set)
    # Of those, the ones whose number is a window of time (`viewers_7day`, `active_30d`) ->
    # its length in days: the shortest window is the headline figure of the measure
    variant_windows: dict[Target, float] = field(default_factory=dict)
    # Column names qualified by their table's ("airline name"): never found across a word
    # between ("salary in discipline" over `Salaries.discipline` is two names)
    qualified: set[tuple[str, ...]] = field(default_factory=set)
    # Indexes derived from the phrases on first use (the lexicon is kept per catalog): a
    # question then costs a lookup, not a pass over every phrase of 5,000 tables.
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    longest: int = 1
    # What each bucket holds, as a set: `target not in bucket` on the list was quadratic
    # ("city" names 1,000 columns at 1,000 tables: 8 s of building the lexicon).
    _held: dict[tuple[int, Any], set[Target]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def add(
        self,
        words: tuple[str, ...] | list[str],
        target: Target,
        *,
        synonym: bool = False,
        loose: bool = True,
    ) -> None:
        key = stems(tuple(words))
        if not key:
            return
        bucket = (self.synonym_phrases if synonym else self.phrases).setdefault(key, [])
        held = self._held.setdefault((int(synonym), key), set())
        if target not in held:
            held.add(target)
            bucket.append(target)
        verbs = _verb_key(words)
        if verbs != key and not synonym:
            for verb_key in (verbs, frozenset(verbs)) if loose else (verbs,):
                held = self._held.setdefault((4, verb_key), set())
                if target not in held:
                    held.add(target)
                    self.by_verb.setdefault(verb_key, []).append(target)
        if loose and len(key) > 1 and len(set(key)) == len(key):
            loose_key = frozenset(key)
            kept = self.unordered_synonyms if synonym else self.unordered
            unordered = kept.setdefault(loose_key, [])
            held = self._held.setdefault((3 if synonym else 2, loose_key), set())
            if target not in held:
                held.add(target)
                unordered.append(target)
        self.longest = max(self.longest, len(key))

    def lookup(self, words: list[str]) -> list[Target]:
        key = stems(tuple(words))
        found = self.phrases.get(key) or self.synonym_phrases.get(key, [])
        if not found and len(key) > 1:
            # "total sleep" names sleep_total, "REM sleep" sleep_rem: the same words in
            # another order, when no phrase in that order names anything.
            found = self.unordered.get(frozenset(key)) or self.unordered_synonyms.get(
                frozenset(key), []
            )
        if not found:
            verbs = _verb_key(words)
            # "processors" is never `process` (the node size): a doer, said, is a thing or a
            # person, not the column named by the bare verb it is made from
            doer = any(s.endswith(("er", "or")) and v != s for v, s in zip(verbs, key, strict=True))
            # ... but "smokers" are the rows whose `smoke` (a yes/no text) says so, before
            # any table whose name comes from the same verb (`smoking`)
            named = self.phrases.get(verbs, []) if verbs != key else []
            kinds = [t for t in named if t.kind == "column" and not is_numeric(t.type)]
            found = (
                (kinds if doer else [])
                or self.by_verb.get(verbs)
                or (named if not doer else [])
                or self.by_verb.get(frozenset(verbs), [])
            )
        if not found and len(key) == 1 and key[0].isalpha():
            # "earthquakes" for the table quakes: a word that ends with a table's name (five
            # letters at least) is a kind of what the table holds
            word = key[0]
            found = next(
                (
                    self.table_endings[word[cut:]]
                    for cut in range(1, len(word) - 4)
                    if word[cut:] in self.table_endings
                ),
                [],
            )
        return found


# A number against a unit of time in a name: `7day`, `28_day`, `30d`, `12m`, `2yr`
_WINDOW = re.compile(
    r"(\d+)(h|hr|hrs|hours?|d|days?|w|wk|wks|weeks?|m|mo|mos|months?|y|yr|yrs|years?)"
)
_WINDOW_DAYS = {"h": 1 / 24, "d": 1, "w": 7, "m": 30, "y": 365}


def window_days(words: tuple[str, ...]) -> float | None:
    """The window of time a column name's number is (`viewers_28day` -> 28), or None."""
    glued = [a + b for a, b in pairwise(words) if a.isdigit()]
    windows = [m for w in (*words, *glued) if (m := _WINDOW.fullmatch(w))]
    if len(windows) != 1:
        return None
    count, unit = windows[0].groups()
    return int(count) * _WINDOW_DAYS[unit[0]]


def _digits_apart(words: tuple[str, ...]) -> tuple[str, ...]:
    """Numbers written against words set apart: ("viewers", "28day") -> viewers 28 day."""
    return tuple(p for w in words for p in re.findall(r"\d+|\D+", w))


def _verb_key(words: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(verb_root(w) or s for w, s in zip(words, stems(tuple(words)), strict=True))


_TOTAL_WORDS = frozenset({"total", "overall", "all"})
# Generic nouns of a measure, after the subject measured (`MathAch`, `reading_score`)
_MEASURE_NOUNS = frozenset({"achievement", "score", "result", "performance", "rating"})
# "number of …", "share of …": the head of such a name says how, not what (never its name)
_COUNTING_HEADS = _MEASURE_NOUNS | {
    "number",
    "count",
    "amount",
    "total",
    "percent",
    "percentage",
    "share",
    "rate",
    "ratio",
}
_CALENDAR_PARTS = frozenset({"year", "quarter", "month", "week", "day", "hour", "minute"})
_INNER_GLUE = frozenset({"of", "the", "in", "per", "their", "its", "his", "her"})
# Words of a column's name that say how it was figured, not what it is.
_NAME_FILLERS = frozenset({"avg", "average", "mean", "per", "of", "the"})


_JOINING = frozenset({"of", "and", "in", "on", "by", "for", "the", "to", "per", "with"})


# Words in front of a column's name saying when its value holds, not what it is.
_TIME_QUALIFIERS = frozenset({"current", "latest", "present", "recent", "reported"})


def build_lexicon(catalog: Catalog, semantic: SemanticModel | None) -> Lexicon:
    lex = Lexicon()
    # every word the tables' names say (and "movie" ending `movielens`): an id column's
    # thing named by a table is that table's rows, never the id alone
    table_words = {
        stem(w)
        for t in catalog.tables.values()
        for w in (*identifier_words(t.name), english_tail(identifier_words(t.name)))
        if w
    }
    singular_names: list[tuple[str, str]] = []  # (the last word, the table): `AirCrash`
    for table in catalog.tables.values():
        t_words = identifier_words(table.name)
        plain = tuple(w.rstrip("0123456789") for w in t_words)
        counted = {identifier_words(c.name) for c in table.columns if is_numeric(c.type)}
        figure = bool({t_words, plain} & counted)
        # `population` of the table `population`: the word is the figure, never a count of
        # its rows (the table is reached through its columns)
        ends_in_figure = len(plain) > 1 and plain[-1:] in counted
        # `CholeraDeaths1849` with a `deaths` column: "cholera deaths" are that column's sum
        # where cause is cholera, never a count of the rows (each row is a day's deaths). The
        # name is left out; the table is reached through its columns and values.
        if not ends_in_figure:
            lex.add(t_words, Target("table", table.name), synonym=figure)
        if plain != t_words and all(plain) and not ends_in_figure:
            lex.add(plain, Target("table", table.name))  # "cars" for Cars93
        if len(t_words) > 1:
            # "the Titanic" for TitanicSurvival, "polls" for brexit_polls: weak names, any
            # exact one wins
            lex.add(plain[:1], Target("table", table.name), synonym=True)
            if plain[-1] and stem(plain[-1]) != plain[-1] and not ends_in_figure:
                # a plural noun names the rows
                lex.add(plain[-1:], Target("table", table.name), synonym=True)
                lex.row_nouns.setdefault(stem(plain[-1]), table.name)
            elif (
                len(plain[-1]) > 3
                and is_noun(plain[-1])
                and not ends_in_figure
                and not any(plain[-1] in identifier_words(c.name) for c in table.columns)
            ):  # `blizzard_salary` holds `current_salary`: its rows are no salaries
                singular_names.append((plain[-1], table.name))
            # "uses of force" for mn_police_use_of_force: the name's last words without the
            # place or source in front of them (weak names)
            for start in range(1, len(plain) - 1):
                ending = tuple(w for w in plain[start:] if len(w) > 1)
                if len(ending) > 1 and ending[0] not in _JOINING:
                    lex.add(ending, Target("table", table.name), synonym=True)
        for other in synonyms().get(stem(t_words[-1]), ()):
            # "deaths" for Fatalities, "accidents" for crashes: the rows by another word
            lex.add((*t_words[:-1], *other.split()), Target("table", table.name), synonym=True)
        tail = english_tail(t_words)
        if tail:
            # "pets" for seattlepets, "flights" for nycflights: a one-word name whose end
            # is a noun after a place or source people leave out (a weak name)
            lex.add((tail,), Target("table", table.name), synonym=True)
            if stem(tail) != tail:
                lex.row_nouns.setdefault(stem(tail), table.name)
        name_columns = [c for c in table.columns if identifier_words(c.name)[-1:] == ("name",)]
        if len(name_columns) == 1 and not is_numeric(name_columns[0].type):
            # "the most popular name" for `animal_name`: a table's one name (a weak name)
            column = name_columns[0]
            lex.add(
                ("name",), Target("column", table.name, column.name, type=column.type), synonym=True
            )
        for thing in _things_the_rows_are(table):
            # "licences" for a table with `license_number` and `license_issue_date`: what
            # is numbered and dated on every row is what the rows are (a weak name)
            lex.add((thing,), Target("table", table.name), synonym=True)
        singular = tuple(stem(w) for w in t_words)
        if len(singular) == 1 and len(singular[0]) >= 5:
            lex.table_endings.setdefault(singular[0], []).append(Target("table", table.name))
        paired = _paired_suffixes(table)
        persons = [
            c.name
            for c in table.columns
            if is_key(c.name)
            and len(identifier_words(c.name)) == 2
            and f"{stem(identifier_words(c.name)[0])}s" in people()
        ]
        people_keys = {table.name: persons[0]} if len(persons) == 1 else {}
        for col in table.columns:
            base, unit = split_unit(col.name)
            if col.name in paired:
                base, unit = identifier_words(col.name), None
                # "the price" is either of the pair: asked which
                lex.add(
                    base[:-1], Target("column", table.name, col.name, type=col.type), synonym=True
                )
            target = Target("column", table.name, col.name, type=col.type, unit=unit or "")
            words = identifier_words(col.name)
            lex.add(words, target)
            for alias in abbreviation_aliases().get(col.name.lower(), ()):
                lex.add(alias, target, synonym=True)  # "savings rate" for `psavert`
            apart = _digits_apart(words)
            if apart != words:
                lex.add(apart, target)  # "28-day viewers" for viewers_28day
            joined = raw_words(col.name)
            if joined != words:
                lex.add(joined, target, loose=False)  # "homeworld" as written, not only split
            if len(words) > 1 and all(w.isalpha() for w in words):
                # "airbags" for AirBags, "samplesize" for sample_size: one word, run together
                lex.add(("".join(words),), target, loose=False)
            if base != words:
                lex.add(base, target)  # "weight" names weight_kg; the unit is shown apart
            years = [w for w in words if re.fullmatch(r"(18|19|20)\d\d", w)]
            if len(years) == 1 and len(words) > 1:
                # "births" for births_2018, "life expectancy" for life_expectancy_1970 and
                # _2018: the year a question says (or the latest) picks among them
                yearless = tuple(w for w in words if w != years[0])
                lex.add(yearless, target, synonym=True)
                whole = tuple(w for w in yearless if w not in _TOTAL_WORDS)
                if whole and whole != yearless:
                    lex.add(whole, target, synonym=True)  # "population" for total_pop_2018
                lex.column_years[target] = int(years[0])
            digitless = tuple(w for w in words if not any(ch.isdigit() for ch in w))
            if not years and digitless and len(digitless) < len(words):
                # "viewers" for viewers_7day and viewers_28day: a weak name, and where several
                # columns share it the person picks
                lex.add(digitless, target, synonym=True)
                lex.numbered_variants.add(target)
                window = window_days(words)
                if window is not None:
                    lex.variant_windows[target] = window
            for adjective in _adjectives_of(words) if not is_numeric(col.type) else ():
                # "which racial group" for `race`, "regional" for `region`: a weak name
                lex.add((adjective,), target, synonym=True)
                lex.add((adjective, "group"), target, synonym=True)
            if len(words) > 1 and words[-1] == "id" and not is_numeric(col.type):
                # `league_id` holding AL / NL: "by league" (a number id names its rows' key)
                lex.add(words[:-1], target, synonym=True)
            elif len(words) == 2 and words[-1] == "id" and stem(words[0]) not in table_words:
                # `userId` on ratings: "which user", "how many users" are told apart by the id
                # alone (no table holds users); `movieId` beside the table movielens is not
                lex.add(words[:1], target, synonym=True)
                if f"{stem(words[0])}s" in people() and people_keys.get(table.name) == col.name:
                    # "how many people rated …": the one id of persons on the table
                    lex.add(("people",), target, synonym=True)
                    lex.add(("persons",), target, synonym=True)
            described = words[-1] in ("desc", "description", "name", "title")
            if len(words) > 1 and described and not is_numeric(col.type):
                # "drive" for `drive_desc` beside the code `drive_sys`, "manufacturer" for
                # `mfr_name`: the attribute said in words (a weak name; "drive" alone wins)
                lex.add(words[:-1], target, synonym=True)
                if len(words) == 2:  # "college" for `inst_name` (an institution's name)
                    for kind in kinds_named().get(words[0], ()):
                        lex.add(tuple(kind.split()), target, synonym=True)
            if len(words) == 2 and words[1] in _MEASURE_NOUNS and is_numeric(col.type):
                # "math" and "math score" for `MathAch` (math achievement): the subject
                # measured, with or without the measure's generic noun (weak names)
                lex.add(words[:1], target, synonym=True)
                lex.add((words[0], "score"), target, synonym=True)
            if len(words) > 1 and words[0] in _TIME_QUALIFIERS:
                # "salary" for `current_salary`, "title" for `current_title`: the thing, as
                # held now (a weak name; a `previous_salary` beside it makes it ambiguous)
                lex.add(words[1:], target, synonym=True)
            if len(words) == 2 and words[1] == "count" and is_numeric(col.type):
                # "retweets" for `retweet_count`: the column counts them (a weak name)
                lex.add(words[:1], target, synonym=True)
            if len(words) == 3 and words[1] == "and":
                # `countries_and_areas`: either noun names the column (weakly)
                lex.add(words[:1], target, synonym=True)
                lex.add(words[2:], target, synonym=True)
            if (
                len(words) == 3
                and words[1] == "of"
                and words[0] not in _COUNTING_HEADS
                and words[2] not in _CALENDAR_PARTS
            ):
                # `WeekofPurchase`: "week" names it (weakly); "number of …" is a count, and
                # `day_of_month` a part of the calendar ("days" are still the rows)
                lex.add(words[:1], target, synonym=True)
            totalled = tuple(w for w in words if w not in _TOTAL_WORDS)
            if totalled and totalled != words:
                # "sleep" for sleep_total (and not sleep_rem): the whole, when only a name
                # for the whole is missing; a weak phrase, so any exact name wins.
                lex.add(totalled, target, synonym=True)
            content = tuple(w for w in words if w not in _NAME_FILLERS)
            if content and content != words and content != totalled:
                # "room price", "price per room" for avg_price_per_room: the name's own
                # words without the aggregate and joining words around them (weak)
                lex.add(content, target, synonym=True)
            letters = tuple(w for w in words if len(w) > 1)
            if letters and letters != words:
                lex.add(letters, target)  # "Solar.R" is what people call "solar"
            measured = quantities().get(unit or units().get(col.name.lower(), ""))
            if measured and measured not in words:
                # `carat` is a weight, `fare_usd` a price: the quantity names the column
                quantity: tuple[str, ...] = (measured,)
                lex.add(quantity, target, synonym=True)
            else:
                quantity = words
            # "fast" for speed_kn as for speed; "daytime minutes" for total_day_minutes
            whole_body = words[:1] == ("body",) and len(words) == 2  # `bodywt`, `body_mass`
            for named in {words, base, quantity, totalled or words}:
                for i, word in enumerate(named):
                    # `Fatalities` as `fatality`: "deaths" (the group's words are singular)
                    others = synonyms().get(word) or synonyms().get(stem(word), ())
                    for other in others:
                        said = (*named[:i], *other.split(), *named[i + 1 :])
                        lex.add(said, target, synonym=True)
                        if whole_body and i == 1:
                            # "weigh", "the heaviest" said of the rows: the whole body's
                            # weight, never a part's (`brainwt`); a weak name
                            lex.add(tuple(other.split()), target, synonym=True)
            if whole_body:
                lex.add(words[1:], target, synonym=True)
            # "airline name", "plane model": the table's name qualifies its column.
            lex.add(singular + words, target, loose=False)  # "cut diamonds" is not `cut`
            lex.qualified.add(stems(singular + words))
            if plain != t_words:  # "car model" on Cars93
                lex.add(tuple(stem(w) for w in plain) + words, target, loose=False)
                lex.qualified.add(stems(tuple(stem(w) for w in plain) + words))
            if words[: len(singular)] == singular and len(words) > len(singular):
                lex.add(words[len(singular) :], target)  # customer_name -> "name" on customers
    for word, name in singular_names:
        if not lex.lookup([word]):
            # `AirCrash`: a table named in the singular, each row one crash; only where the
            # word names nothing else ("survival" of `TitanicSurvival` is `survived`)
            lex.add((word,), Target("table", name), synonym=True)
            lex.row_nouns.setdefault(word, name)
    if semantic is not None:
        for metric in semantic.metrics:
            target = Target("metric", metric.table, metric.sql, name=metric.name, type=metric.type)
            for phrase in (metric.name.replace("_", " "), metric.label, *metric.synonyms):
                if phrase:
                    lex.add(question_tokens(phrase), target)
        for dim in semantic.dimensions:
            target = Target("dimension", dim.table, dim.sql, name=dim.name, type=dim.type)
            for phrase in (dim.name.replace("_", " "), dim.label, *dim.synonyms):
                if phrase:
                    lex.add(question_tokens(phrase), target)
    return lex


def _paired_suffixes(table: TableInfo) -> set[str]:
    """Columns told apart by a short code at the end of their names: `PriceMM` beside
    `PriceCH` (Minute Maid and Citrus Hill, not millimetres). Two columns or more with the
    same words and a last word of three letters or fewer, one of them neither a unit nor
    English, say the last word is a code, never a unit (`sleep_rem` beside `sleep_total` is
    no pair)."""
    by_head: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for col in table.columns:
        words = identifier_words(col.name)
        if len(words) > 1:
            by_head.setdefault(words[:-1], []).append((col.name, words[-1]))
    return {
        name
        for siblings in by_head.values()
        if sum(_code_like(w) for _, w in siblings) > 1
        and any(split_unit(n)[1] is None and _code_like(w) for n, w in siblings)
        for name, word in siblings
        if _code_like(word) or split_unit(name)[1] is not None
    }


def _code_like(word: str) -> bool:
    return len(word) <= 3 and word.isalpha() and not is_english(word)


def _things_the_rows_are(table: TableInfo) -> set[str]:
    """The first word of a key column (`license_number`, `case_id`) that also begins a date
    column of the same table (`license_issue_date`): each row is one such thing, given its
    number on its date. A foreign key (`customer_id`) has no date of its own there."""
    keyed = {identifier_words(c.name)[0] for c in table.columns if is_key(c.name)}
    dated = {
        identifier_words(c.name)[0]
        for c in table.columns
        if is_temporal(c.type) and len(identifier_words(c.name)) > 1
    }
    return {w for w in keyed & dated if len(w) > 2 and w.isalpha()}


def _adjectives_of(words: tuple[str, ...]) -> list[str]:
    """English adjectives made from a one-word name: race -> racial, region -> regional,
    education -> educational. Only words the English tables know as adjectives."""
    if len(words) != 1 or not words[0].isalpha() or len(words[0]) < 4:
        return []
    word = words[0]
    made = [f"{word}al", f"{word[:-1]}ial" if word.endswith("e") else f"{word}ial"]
    if word.endswith("ity"):
        made.append(word[:-3])  # ethnicity -> ethnic, nationality -> national
    found = [w for w in made if is_english(w) and is_adjective(w)]
    if word.endswith(("ance", "ence", "ment")):
        # insurance -> insured, employment -> employed: the participle of the verb the noun
        # is made from, as people say who has it
        verb = next((v for v in (word[:-4], word[:-4] + "e") if is_verb(v)), None)
        if verb is not None and len(verb) > 3:
            found.append(verb + ("d" if verb.endswith("e") else "ed"))
    return found


def english_tail(words: tuple[str, ...]) -> str:
    """The longest English noun of four letters or more that ends a one-word name not
    itself a word, after two letters or more: "pets" of seattlepets, "" for "diamonds"."""
    if len(words) != 1 or not words[0].isalpha() or is_english(words[0]):
        return ""
    name = words[0]
    for cut in range(2, len(name) - 3):
        if is_english(name[cut:]) and is_noun(name[cut:]):
            return name[cut:]
    return ""


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    targets: tuple[Target, ...]
    # Read from part of a run-together name ("state" in `Outstate`): a guess to be said.
    guessed: bool = False

    @property
    def words(self) -> int:
        return self.end - self.start


def find_spans(tokens: list[str], lex: Lexicon, taken: set[int]) -> list[Span]:
    """Greedy longest-first phrase matches over tokens not already explained by something else."""
    spans = []
    i = 0
    while i < len(tokens):
        if i in taken:
            i += 1
            continue
        for size in range(min(lex.longest, len(tokens) - i), 0, -1):
            window = list(range(i, i + size))
            if any(j in taken for j in window):
                continue
            targets = lex.lookup(tokens[i : i + size])
            inner = [w for w in tokens[i : i + size] if w not in _INNER_GLUE]
            if (
                not targets
                and size > 2
                and tokens[i] not in _INNER_GLUE
                and len(inner) > 1
                and stems(tuple(inner)) not in lex.qualified
            ):
                targets = lex.lookup(inner)  # "years of service" names yrs.service
            if targets:
                spans.append(Span(i, i + size, tuple(targets)))
                i += size
                break
        else:
            i += 1
    return spans


_NEGATIONS = frozenset({"not", "non", "no", "un"})


def negation_told_apart(tokens: list[str], at: int, found: list[Target]) -> Target | None:
    """Of two columns one of which negates the other (`count_working`, `count_not_working`),
    the negated one when "not" is said right before the word at `at`, else the other."""
    negated = [t for t in found if _NEGATIONS & set(identifier_words(t.column or ""))]
    if len(found) != 2 or len(negated) != 1:
        return None
    said_not = at > 0 and tokens[at - 1] in _NEGATIONS
    return negated[0] if said_not else next(t for t in found if t not in negated)


def find_abbreviated(
    tokens: list[str],
    lex: Lexicon,
    taken: set[int],
    ignore: frozenset[str],
    parent: str | None = None,
) -> list[Span] | tuple[str, list[str]]:
    """Columns named by a shortened form of a question's word that nothing else explained:
    a prefix ("unemploy" for "unemployed", "displ" for "displacement") or a consonant
    skeleton ("hwy" for "highway", "cty" for "city"). One column per word, or (word, the
    candidate columns) when several fit: then the person picks.

    Only identifier words of three letters or more, sharing the first letter, and never
    vowels after it for a skeleton, so "age" is not read into "average".
    """
    spans: list[Span] = []
    spans += _initialisms(tokens, lex, taken, ignore)
    spans += _shortened_names(tokens, lex, taken)
    spans += run_together(tokens, lex, taken)
    spans += _scattered_names(tokens, lex, taken, ignore)
    told: set[int] = set()  # words that told candidates apart (may tell others apart too)
    for i, token in enumerate(tokens):
        if i in taken or token in ignore or len(token) < 4 or not token.isalpha():
            continue
        found: list[Target] = []
        for key, targets in lex.phrases.items():
            # "processors" is the doer of `process`, never that name cut short
            if len(key) == 1 and _shortens(key[0], token) and doer_of(token) != key[0]:
                found += [t for t in targets if t.kind == "column" and t not in found]
        guessed = not found
        if not found:
            found = _ending_with(token, lex)
        if not found:
            found = _beginning_with(token, lex)
        if not found:
            found = _word_of_one_number(token, lex)
        if parent is not None and len({(t.column or "").lower() for t in found}) == 1:
            # `chol` in pbc (one row per patient) and in pbcseq (their visits): the parent's
            found = [t for t in found if t.table == parent] or found
            guessed = guessed or len(found) == 1
        plain = negation_told_apart(tokens, i, found)
        if plain is not None:  # "working" over count_working and count_not_working
            start = i - 1 if i > 0 and tokens[i - 1] in _NEGATIONS and i - 1 not in taken else i
            if _NEGATIONS & set(identifier_words(plain.column or "")) and start < i:
                spans.append(Span(start, i + 1, (plain,), guessed=guessed))  # "not working"
                taken.update(range(start, i + 1))
                continue
            found = [plain]
        if len(found) > 1:
            before = set(told)
            found = _told_apart(tokens, i, found, taken, told) or found
            by = next(iter(told - before), None)
            if len(found) == 1 and by is not None and by < i <= by + 4:
                named = "".join(identifier_words(found[0].column or ""))
                if not any(k in taken and stem(tokens[k]) not in named for k in range(by + 1, i)):
                    # "the average raw poll figure for Clinton": one name, from the word
                    # that told it apart to the one it ends with
                    spans.append(Span(by, i + 1, (found[0],), guessed=guessed))
                    taken.update(range(by, i + 1))
                    continue
        if len(found) == 1:
            spans.append(Span(i, i + 1, (found[0],), guessed=guessed))
        elif len(found) > 1 and not _kind_of_many(token, found):
            return token, sorted(f"{t.table}.{t.column}" for t in found)
    return spans


def _told_apart(
    tokens: list[str], at: int, found: list[Target], taken: set[int], told: set[int]
) -> list[Target]:
    """ "Clinton's average raw share" over `rawpoll_clinton` and `adjpoll_clinton`: the
    word at `at` ends both names; another unexplained word of the question begins what is
    left of exactly one of them ("raw" of `rawpoll`, "adjusted" of `adjpoll`, sharing three
    letters or more). That word is taken as read; without one, nothing is chosen (asked).
    A word that merely contains the rest ("unadjusted") begins neither, so it is asked."""
    word = tokens[at]
    rests: dict[Target, str] = {}
    for target in found:
        name = "".join(identifier_words(target.column or ""))
        cut = name.rfind(stem(word)) if stem(word) in name else name.rfind(word)
        rests[target] = name[:cut] if cut > 0 else ""
    chosen: dict[Target, int] = {}
    for i, other in enumerate(tokens):
        if i == at or (i in taken and i not in told) or len(other) < 3 or not other.isalpha():
            continue
        said = (other, *synonyms().get(other, ()))  # "unadjusted" for `rawpoll`
        fits = [
            t
            for t, rest in rests.items()
            if len(rest) >= 3 and any(_common_start(rest, w) >= 3 for w in said)
        ]
        if len(fits) == 1 and fits[0] not in chosen:
            chosen[fits[0]] = i
    if len(chosen) != 1:
        return []
    target, i = next(iter(chosen.items()))
    taken.add(i)
    told.add(i)
    return [target]


def _common_start(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _kind_of_many(token: str, found: list[Target]) -> bool:
    """ "developers" over `Web_developer`, `Mobile_developer`, `Embedded_developer`: a word
    ending three names or more of one table is the kind they share, what its rows are, and
    names none of them."""
    word = stem(token)
    return (
        len(found) > 2
        and len({t.table for t in found}) == 1
        and all(identifier_words(t.column or "")[-1:] == (word,) for t in found)
    )


def _shortened_names(tokens: list[str], lex: Lexicon, taken: set[int]) -> list[Span]:
    """ "available with a manual transmission" for `Man.trans.avail`: a name of two to four
    words, some cut short, each the beginning of a different unexplained word within six
    words of the others, in any order. One column only; marks the words it uses taken."""
    if "shortened" not in lex.derived:
        lex.derived["shortened"] = [
            (key, [t for t in targets if t.kind == "column"])
            for key, targets in lex.phrases.items()
            if 2 <= len(key) <= 4
            and all(len(w) >= 3 and w.isalpha() for w in key)
            and len(set(key)) == len(key)
        ]
    found: dict[Target, list[int]] = {}
    for key, columns in lex.derived["shortened"]:
        if len(columns) != 1:
            continue
        for start in range(len(tokens)):
            used: list[int] = []
            for word in key:
                at = next(
                    (
                        i
                        for i in range(start, min(start + 6, len(tokens)))
                        if i not in taken and i not in used and tokens[i].startswith(word)
                    ),
                    None,
                )
                if at is None:
                    break
                used.append(at)
            # some word cut short ("man" of manual; a plural is no cut), and only small words
            # between ("available with a manual transmission"; never "passengers by class")
            cut = any(stem(tokens[i]) != w for i, w in zip(used, key, strict=False))
            between = set(range(min(used, default=0), max(used, default=0) + 1)) - set(used)
            small = all(tokens[i] in ("with", "a", "an", "the", "of", "and") for i in between)
            if len(used) == len(key) and cut and small:
                found.setdefault(columns[0], used)
                break
    spans: list[Span] = []
    if len(found) == 1:
        column, used = next(iter(found.items()))
        spans.append(Span(min(used), max(used) + 1, (column,), guessed=True))
        taken.update(range(min(used), max(used) + 1))
    return spans


_SCATTER_STOPS = frozenset({"by", "per", "each", "every", "than", "versus", "vs"})


def _scattered_names(
    tokens: list[str], lex: Lexicon, taken: set[int], ignore: frozenset[str]
) -> list[Span]:
    """ "sleep less than five hours on a school night" for `school_night_hours_sleep`, "a new
    textbook at the bookstore" for `bookstore_new`: every word of a column's name of two to
    five words said, in any order, within eight words, among words nothing else explained.
    One column only (none when two fit); its words are taken, the span runs from the
    first to the last (a comparison between keeps its own words). Said as a guess."""
    # a unit taken after a comparison's number ("five hours") may be a word of the name too
    known = units()
    unexplained = {
        stem(t): i
        for i, t in enumerate(tokens)
        if (i not in taken or t in known) and t not in ignore
    }
    found: dict[Target, list[int]] = {}
    for key, targets in lex.phrases.items():
        words = [w for w in key if w not in ignore]
        if not 2 <= len(words) <= 5 or len(set(words)) != len(words):
            continue
        at = [unexplained.get(w) for w in words]
        if any(i is None for i in at):
            continue
        used = sorted(i for i in at if i is not None)
        if used[-1] - used[0] > 8 or used[-1] - used[0] + 1 == len(used):
            continue  # too far apart, or side by side (the plain lookups' part)
        between = [tokens[k] for k in range(used[0], used[-1]) if k not in used]
        if any(t in _SCATTER_STOPS or _a_verb_between(t) for t in between):
            continue  # "ships by type", "the team has won the most home games": no one name
        for target in targets:
            if target.kind == "column":
                found.setdefault(target, used)
    if len(found) != 1:
        return []
    column, used = next(iter(found.items()))
    said = {stem(t) for t in tokens}
    mine = {stem(tokens[i]) for i in used}
    for key, targets in lex.phrases.items():
        # "new and used textbook prices at the bookstore": `bookstore_used` differs from
        # `bookstore_new` by a word said too; which is meant is asked, never half answered
        rest = set(key) - mine
        sibling = column not in targets and any(t.kind == "column" for t in targets)
        if len(key) >= 2 and len(rest) == 1 and rest <= said and sibling:
            return []
    taken.update(used)
    return [Span(used[0], used[-1] + 1, (column,), guessed=True)]


_AUXILIARIES = frozenset(
    {"has", "have", "had", "is", "are", "was", "were", "did", "does", "do", "been", "be"}
)


def _a_verb_between(word: str) -> bool:
    """A verb that says something happened ("won"), or a ranking word ("most"): the words
    either side belong to different parts of the question. Helpers ("have been") do not."""
    if word in _AUXILIARIES:
        return False
    return word in ("most", "least") or (verb_root(word) is not None and not is_noun(word))


def _ending_with(token: str, lex: Lexicon) -> list[Target]:
    """ "college" for `percollege`, "poverty" for `percbelowpoverty`: a word of five letters or
    more that ends a run-together column name after a prefix of two letters or more. The end,
    because an English compound's head comes last ("below poverty" is about poverty; in
    `percpovertyknown` poverty qualifies "known"). The caller says what it read."""
    word = stem(token)
    if len(word) < 5 or word in _TOTAL_WORDS:
        return []
    found: dict[Target, None] = {}
    for key, targets in lex.phrases.items():
        if len(key) != 1 or len(key[0]) < len(word) + 2 or not key[0].isalpha():
            continue
        if key[0].endswith(word) or key[0].endswith(token):
            found.update((t, None) for t in targets if t.kind == "column")
    if len(found) > 1:
        # "poverty" over `percbelowpoverty`, `percadultpoverty`, `percelderlypoverty`: the
        # one whose other letters name no group (a prefix like perc, a word like "below")
        # is the plain figure; the others are a group's own. Still a guess, said.
        plain = [t for t in found if _unqualified((t.column or "").lower(), word, token)]
        if len(plain) == 1:
            return plain
    return list(found)


# Words a run-together name may hold besides what it measures without naming a group.
_PLAIN_PARTS = frozenset({"below", "above", "under", "over", "in", "at", "of", "total", "all"})


def _unqualified(name: str, word: str, token: str) -> bool:
    """Whether a run-together name is the word it ends with plus only a known abbreviation
    (`perc`, `pct`, `num`) and words that name no group ("below")."""
    rest = name[: -len(word)] if name.endswith(word) else name[: -len(token)]
    for short in sorted(abbreviations(), key=len, reverse=True):
        if rest.startswith(short):
            rest = rest[len(short) :]
            break
    return rest == "" or rest in _PLAIN_PARTS


# What a run-together name may add after the thing it measures: `samplesize` is the size of
# the sample, `paycount` a count of pay, so "the largest sample" ranks it.
_MEASURE_HEADS = ("size", "count", "total", "number", "amount", "level", "score")


def _beginning_with(token: str, lex: Lexicon) -> list[Target]:
    """ "sample" for `samplesize`: a word of five letters or more that begins a run-together
    column name whose rest is only a word saying it is measured (size, count, amount ...)."""
    word = token if len(token) >= 5 and token.isalpha() else ""
    found: dict[Target, None] = {}
    for key, targets in lex.phrases.items() if word else ():
        name = key[0] if len(key) == 1 else ""
        for root in {word, stem(word)}:
            if name.startswith(root) and name[len(root) :] in _MEASURE_HEADS:
                found.update(
                    (t, None) for t in targets if t.kind == "column" and not is_key(t.column or "")
                )
    return list(found)


def _word_of_one_number(token: str, lex: Lexicon) -> list[Target]:
    """ "affected" for `Individuals_Affected`: a participle that is a whole word of the name
    of exactly one numeric column with a longer name (none when several share it). A guess,
    said by the caller."""
    if not token.endswith("ed") or verb_root(token) is None:
        return []  # a participle only: a noun ("customers", "price") names other things too
    word = stem(token)
    found: dict[tuple[str, str], Target] = {}
    for key, targets in lex.phrases.items():
        if len(key) < 2 or word not in key:
            continue
        for t in targets:
            if t.kind == "column" and is_numeric(t.type):
                found.setdefault((t.table, t.column or ""), t)
    return list(found.values()) if len(found) == 1 else []


def _shortens(short: str, word: str) -> bool:
    if len(short) < 3 or short == word or short[0] != word[0] or len(short) >= len(word):
        return False
    if word.startswith(short) and (len(short) >= 4 or len(short) / len(word) >= 0.5):
        return True
    if any(c in "aeiou" for c in short[1:]):
        return False
    rest = iter(word[1:])
    return all(c in rest for c in short[1:])


def _initialisms(
    tokens: list[str], lex: Lexicon, taken: set[int], ignore: frozenset[str]
) -> list[Span]:
    """ "personal consumption expenditures" for `pce`: consecutive unexplained words whose
    initials spell a column's whole (2 to 5 letter) name. Marks the words it uses taken."""
    spans: list[Span] = []
    singles = {
        key[0]: targets
        for key, targets in lex.phrases.items()
        if len(key) == 1 and 2 <= len(key[0]) <= 5 and key[0].isalpha()
    }
    i = 0
    while i < len(tokens):
        for size in range(5, 1, -1):
            window = range(i, i + size)
            if i + size > len(tokens) or any(
                j in taken or (tokens[j] in ignore and not _joins(tokens, j, window))
                for j in window
            ):
                continue
            initials = "".join(tokens[j][0] for j in window)
            columns = [t for t in singles.get(initials, []) if t.kind == "column"]
            if len(columns) == 1:
                spans.append(Span(i, i + size, (columns[0],)))
                taken.update(window)
                i += size - 1
                break
        i += 1
    return spans


def initialisms_of_names(
    tokens: list[str], lex: Lexicon, taken: set[int], ignore: frozenset[str]
) -> list[Span]:
    """ "ERA" for `earned_run_average`: a word of three to five letters, naming nothing itself
    and no small word ("by" is never `birth_year`), spelled by the initials of exactly one
    column's name of as many words. Marks it taken."""
    spans: list[Span] = []
    for i, token in enumerate(tokens):
        if i in taken or not 3 <= len(token) <= 5 or not token.isalpha() or token in ignore:
            continue
        if lex.lookup([token]):
            continue
        found = set(_initials_index(lex).get(token, ()))
        if len(found) == 1:
            spans.append(Span(i, i + 1, (found.pop(),)))
            taken.add(i)
        elif found:
            # "ERA" over earned_run_average and earned_runs_allowed: the person picks
            names = sorted(f"{t.table}.{t.column}" for t in found)
            raise AmbiguousName(token, names)
    return spans


def _initials_index(lex: Lexicon) -> dict[str, set[Target]]:
    """{"era": {earned_run_average, earned_runs_allowed}}: the initials of every column name
    of three to five alphabetic words, built once per lexicon."""
    if "initials" not in lex.derived:
        index: dict[str, set[Target]] = {}
        for key, targets in lex.phrases.items():
            if not 3 <= len(key) <= 5 or not all(key):
                continue
            initials = "".join(w[0] for w in key)
            for t in targets:
                words = identifier_words(t.column or "") if t.kind == "column" else ()
                if len(words) == len(key) and all(w.isalpha() for w in words):
                    index.setdefault(initials, set()).add(t)
        lex.derived["initials"] = index
    found: dict[str, set[Target]] = lex.derived["initials"]
    return found


class AmbiguousName(Exception):
    """A word that spells several columns' names (their initials): which one is asked."""

    def __init__(self, word: str, names: list[str]) -> None:
        super().__init__(f"'{word}' could be {', '.join(names)}")
        self.word, self.names = word, names


_COPULAS = frozenset({"was", "were", "is", "are", "been", "be", "got", "get"})


def split_names(tokens: list[str], lex: Lexicon, taken: set[int]) -> list[Span]:
    """ "individuals were affected" for `Individuals_Affected`: a two-word name said with a
    form of "be" between its words. Marks the words it uses taken; one column only."""
    spans: list[Span] = []
    for i in range(len(tokens) - 2):
        window = range(i, i + 3)
        if tokens[i + 1] not in _COPULAS or any(j in taken for j in window):
            continue
        key = stems((tokens[i], tokens[i + 2]))
        columns = [
            t
            for t in lex.phrases.get(key, [])
            # the column's own two words, never its table's name before one ("diamonds are
            # color E" is no column `color` of diamonds named twice)
            if t.kind == "column" and stems(identifier_words(t.column or "")) == key
        ]
        if len(columns) == 1:
            spans.append(Span(i, i + 3, (columns[0],)))
            taken.update(window)
    return spans


def lettered_names(
    tokens: list[str], lex: Lexicon, taken: set[int], ignore: frozenset[str]
) -> list[Span]:
    """ "student faculty ratio" for `S.F.Ratio`: a name of single letters and words, said with
    a word for each letter (its initial) and the words as they are. At least two letters, so
    one word's initial alone never stands for a name. Marks the words it uses taken."""
    spans: list[Span] = []
    if "lettered" not in lex.derived:
        lex.derived["lettered"] = [
            (key, targets)
            for key, targets in lex.phrases.items()
            if len(key) >= 3
            and sum(len(w) == 1 for w in key) >= 2
            and any(len(w) > 1 for w in key)
            and all(w.isalpha() for w in key)
        ]
    for key, targets in lex.derived["lettered"]:
        columns = [t for t in targets if t.kind == "column"]
        if len(columns) != 1:
            continue
        for i in range(len(tokens) - len(key) + 1):
            window = range(i, i + len(key))
            if any(j in taken or tokens[j] in ignore for j in window):
                continue
            said = [tokens[j] for j in window]
            if all(
                (len(w) == 1 and len(t) > 2 and t[0] == w) or (len(w) > 1 and stems((t,)) == (w,))
                for w, t in zip(key, said, strict=True)
            ):
                spans.append(Span(i, i + len(key), (columns[0],)))
                taken.update(window)
                break
    return spans


# Small words inside an initialism keep their letter: "miles per gallon" is `mpg`, "return on
# investment" `roi`, "earnings per share" `eps`.
_INITIAL_JOINS = frozenset({"per", "of", "on", "and", "to"})


def _joins(tokens: list[str], j: int, window: range) -> bool:
    return tokens[j] in _INITIAL_JOINS and window.start < j < window.stop - 1


_OPTIONAL = frozenset({"of", "the", "a", "an", "in", "per", "and"})


def run_together(tokens: list[str], lex: Lexicon, taken: set[int]) -> list[Span]:
    """ "life expectancy" for `lifeExp`, "GDP per capita" for `gdpPercap`, "Asian population"
    for `popasian`: two to four consecutive unexplained words whose beginnings, in order (or
    reversed, for two), spell a column's whole name. Every word but a small one ("of",
    "per") gives at least two letters. Marks the words it uses taken; one column per phrase."""
    columns: dict[str, dict[Target, None]] = {}  # insertion-ordered sets: 5,000 tables can
    for targets in lex.phrases.values():  # share a column name, and list lookups were O(n^2)
        for t in targets:
            letters = "".join(c for c in (t.column or "").lower() if c.isalpha())
            if t.kind == "column" and len(letters) >= 5:
                columns.setdefault(letters, {})[t] = None
    spans: list[Span] = []
    for size in (4, 3, 2):
        for i in range(len(tokens) - size + 1):
            window = list(range(i, i + size))
            words = [tokens[j] for j in window]
            if any(j in taken for j in window) or {words[0], words[-1]} & _OPTIONAL:
                continue  # a small word only between two that spell
            orders = [words, words[::-1]] if size == 2 else [words]
            found = {
                id(t): t
                for letters, targets in columns.items()
                for order in orders
                if _spells(letters, order)
                for t in targets
            }
            if len(found) == 1:
                spans.append(Span(i, i + size, tuple(found.values())))
                taken.update(window)
    return spans


def _spells(letters: str, words: list[str]) -> bool:
    if not words:
        return not letters
    word, rest = words[0], words[1:]
    if word in _OPTIONAL and _spells(letters, rest):
        return True
    shortest = min(2, len(word))
    for cut in range(len(word), shortest - 1, -1):
        if letters.startswith(word[:cut]) and _spells(letters[cut:], rest):
            return True
    return False
