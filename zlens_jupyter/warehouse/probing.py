"""Value probing: which words of a question are values stored in the data?

"delays out of JFK for United Air Lines Inc." names two filters: JFK is a value of
`flights.origin` and "United Air Lines Inc." one of `airlines.name`. Matching is on whole
words, case-insensitive, punctuation ignored, longest phrase first, so a phrase is never
also matched by its own pieces.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from zlens_jupyter import disk_memo, vocabulary
from zlens_jupyter.vocabulary import abbreviations, country_codes, value_synonyms
from zlens_jupyter.warehouse.catalog import ColumnValues
from zlens_jupyter.warehouse.models import LIST_SEPARATORS, Catalog, ValueMatch
from zlens_jupyter.warehouse.stopwords import stopwords
from zlens_jupyter.wordforms import (
    adjective_base,
    is_english,
    is_noun,
    is_verb,
    lemma_code,
    stem,
    value_forms,
)

MAX_PHRASE_WORDS = 6
# A column of at most this many values holds codes ("herbi", "carni"), which a whole word of
# the question may spell out ("herbivores").
_CODE_COLUMN_LIMIT = 20

_WORD = re.compile(r"\w+")
_MONTHS = {
    name: number
    for number, name in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}
# Three-letter forms count only when capitalized ("Mar" yes, "mar" no).
_MONTH_ABBREVIATIONS = {name[:3].title(): n for name, n in _MONTHS.items() if name != "may"}
_MONTH_ABBREVIATIONS["Sept"] = 9
# Words too common to be a value unless written exactly as stored ("US" is a carrier code,
# "us" is not; "SEE" is an airport, "see" is a verb).
_COMMON_WORDS = stopwords("STOPWORDS_EN_PLUS") | {
    "see",
    "show",
    "get",
    "give",
    "tell",
    "find",
    "list",
    "want",
    "need",
    "know",
    "let",
    "make",
    "please",
    "like",
    "compare",
    "versus",
    "vs",
    "top",
    "total",
    "average",
    "avg",
    "mean",
    "sum",
    "count",
    "number",
    "many",
    "much",
    "per",
    "max",
    "min",
    "rate",
    "share",
    "trend",
    "year",
    "month",
    "day",
    "week",
    "time",
    "last",
    "first",
    "next",
    "best",
    "worst",
    "high",
    "low",
    "late",
    "early",
    "new",
    "old",
    "long",
    "short",
    "big",
    "small",
    "one",
    "two",
    "ten",
    "all",
    "any",
    "most",
    "least",
    "more",
    "less",
    "people",
    "person",
    "persons",
}


_WITH_WITHOUT = ((re.compile(r"\bw/o\b"), " without "), (re.compile(r"\bw/"), " with "))


def _normalize(text: str) -> str:
    # "Driver & Passenger" is what people write "driver and passenger"; a snake-case label
    # (`online_travel_agent`) is the words people say ("online travel agents"); a menu's
    # "WHOPPER w/ Cheese" is "Whopper with cheese"
    low = text.lower().replace("&", " and ").replace("_", " ")
    for shorthand, said in _WITH_WITHOUT:
        low = shorthand.sub(said, low)
    return " ".join(_WORD.findall(low))


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    words: tuple[str, ...]


class ValueIndex:
    """Sampled distinct values of text columns, keyed by their normalized words."""

    def __init__(self, columns: Iterable[ColumnValues]) -> None:
        self._by_phrase: dict[str, list[tuple[str, str, str]]] = {}
        # The same values by their words' dictionary forms: "humans" finds "Human".
        self._by_form: dict[str, list[tuple[str, str, str]]] = {}
        # Values of columns with a handful of values: the only ones a cut-short word may name.
        self._codes: dict[str, list[tuple[str, str, str]]] = {}
        # Indexed on the first probe, not here: a process that only runs certified blocks
        # (`zlens ask` on a certified question) never reads values, and indexing them costs
        # tens of milliseconds (every value's dictionary forms).
        self._pending: list[ColumnValues] = list(columns)
        self._by_first: dict[str, list[tuple[str, str, str]]] | None = None  # first words
        self._counts: dict[tuple[str, str], int] | None = None  # values per column
        self._firsts: dict[tuple[str, str], set[str]] | None = None  # their first words
        self._schema_words: tuple[str, set[str]] | None = None  # (fingerprint, words)
        self._code_columns: set[tuple[str, str]] | None = None  # columns of 2-3 letter codes
        # each column of few values -> its values (built on first use)
        self._column_values: dict[tuple[str, str], set[str]] | None = None
        self._parts: dict[tuple[str, str], set[str]] | None = None  # see `_joined_parts`
        self._indexing = threading.Lock()

    def extend(self, columns: Iterable[ColumnValues]) -> None:
        """Add the values of more columns (tables sampled later, see Warehouse)."""
        self._pending.extend(columns)

    def _index(self) -> None:
        with self._indexing:  # emptied only once indexed: a second prober waits here
            pending = self._pending[:]
            for table, found in zip(
                (self._by_phrase, self._by_form, self._codes), _indexed(pending), strict=True
            ):
                for phrase, hits in found.items():
                    table.setdefault(phrase, []).extend(hits)
            del self._pending[: len(pending)]
            self._by_first = self._counts = self._firsts = None  # built again, grown
            self._code_columns = None
            self._column_values = None
            self._parts = None

    def probe(self, question: str, catalog: Catalog) -> list[ValueMatch]:
        """Value matches in question order; within one phrase, by table then column."""
        if self._pending:
            self._index()
        tokens = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(question)]
        taken = [False] * len(tokens)
        matches: list[tuple[int, ValueMatch]] = []
        for size in range(min(MAX_PHRASE_WORDS, len(tokens)), 0, -1):
            for first in range(len(tokens) - size + 1):
                if any(taken[first : first + size]):
                    continue
                span = tokens[first : first + size]
                word = question[span[0][0] : span[-1][1]]
                found = self._lookup(word, size)
                if not found and size == 1:
                    found = _month(word, first, catalog)
                if not found and size == 1 and not self._names_schema(word, catalog):
                    found = self._first_word_match(word)
                if not found and size == 1:
                    found = self._said_by_initials(word)
                if found:
                    taken[first : first + size] = [True] * size
                    matches.extend((span[0][0], m) for m in found)
        matches.extend(self._letters_beside_names(tokens, taken))
        for first in range(len(tokens) - 1):
            # "first class passengers": a common word stored under another form (`1st`) is a
            # value only right before a word of its column's name (passengerClass)
            word = tokens[first][2].lower()
            if taken[first] or word not in _COMMON_WORDS:
                continue
            ahead = first + 1
            while ahead < len(tokens) - 1 and (
                tokens[ahead][2].lower() in ("and", "or", "vs", "versus")
                or tokens[ahead][2].lower() in value_synonyms()
            ):
                ahead += 1  # "first and third class": the column word after the list
            after = tokens[ahead][2].lower()
            hits = [
                hit
                for form in value_synonyms().get(word, ())
                for hit in self._by_phrase.get(form, [])
                if stem(after) in {stem(w) for w in _column_words(hit[1])}
            ]
            if len({(t, c) for t, c, _ in hits}) == 1:
                taken[first] = True
                said = tokens[first][2]
                matches.extend((tokens[first][0], ValueMatch(said, t, c, v)) for t, c, v in hits)
        for size in (4, 3, 2):  # two letters only hyphened: "number of" is not the value "no"
            # "four-wheel drive" for the code `4WD`: the initials of consecutive words (a
            # number word as its digit) spelling a short code of a column of few values;
            # "blue-collar" for `bc`
            for first in range(len(tokens) - size + 1):
                if any(taken[first : first + size]):
                    continue
                span = tokens[first : first + size]
                if size == 2 and question[span[0][1] : span[1][0]] != "-":
                    continue
                code = "".join(_initial(text) for _, _, text in span)
                hits = [hit for hit in self._codes.get(code, []) if len(hit[2]) == size]
                if len({(t, c) for t, c, _ in hits}) == 1:
                    taken[first : first + size] = [True] * size
                    said = question[span[0][0] : span[-1][1]]
                    matches.extend((span[0][0], ValueMatch(said, t, c, v)) for t, c, v in hits)
        matches.sort(key=lambda pair: (pair[0], pair[1].table, pair[1].column))
        return [self._marked_if_listed(m) for _, m in matches]

    def _letters_beside_names(
        self, tokens: list[tuple[int, int, str]], taken: list[bool]
    ) -> list[tuple[int, ValueMatch]]:
        """ "J color diamonds", "grade A loans": one capital letter is a value only beside a
        word of its column's name; the letters listed after it ("D, E or F") with it."""
        matches: list[tuple[int, ValueMatch]] = []
        for first in range(len(tokens)):
            letter = tokens[first][2]
            if taken[first] or len(letter) != 1 or not letter.isupper():
                continue
            beside = {
                stem(tokens[k][2].lower()) for k in (first - 1, first + 1) if 0 <= k < len(tokens)
            }
            hits = [
                hit
                for hit in self._by_phrase.get(letter.lower(), [])
                if beside & {stem(w) for w in _column_words(hit[1])}
            ]
            if len({(t, c) for t, c, _ in hits}) != 1:
                continue
            taken[first] = True
            matches.extend((tokens[first][0], ValueMatch(letter, t, c, v)) for t, c, v in hits)
            listed = first + 1
            while listed < len(tokens) and not taken[listed]:
                other = tokens[listed][2]
                if other.lower() in ("and", "or"):
                    listed += 1
                    continue
                more = [h for h in self._by_phrase.get(other.lower(), []) if h[:2] == hits[0][:2]]
                if len(other) != 1 or not other.isupper() or not more:
                    break
                taken[listed] = True
                matches.extend((tokens[listed][0], ValueMatch(other, *h)) for h in more)
                listed += 1
        return matches

    def _marked_if_listed(self, match: ValueMatch) -> ValueMatch:
        """The match, `listed` when other values of its column hold it among several
        ('Comedy|Drama' beside 'Drama')."""
        if self._parts is None:
            self._parts = _joined_parts(self._by_phrase)
        parts = self._parts.get((match.table, match.column))
        if parts and match.value.strip().lower() in parts:
            return replace(match, listed=True)
        return match

    def _first_word_match(self, word: str) -> list[ValueMatch]:
        phrase = _normalize(word)
        if len(phrase) < 3 or " " in phrase or phrase in _COMMON_WORDS:
            return []
        if adjective_base(phrase) is not None:
            return []  # "the longest sleep" ranks; it is not the Long-nosed armadillo
        if is_verb(phrase) and not is_noun(phrase):
            return []  # "works made in 2005" says they were made, not titled "Made in …"
        first = self._first_word(phrase)
        if first is None:
            return []
        if is_noun(phrase) and stem(phrase) != phrase and first[2].lower() == stem(phrase):
            return []  # "how many works": the things counted, not the titles "Work No. 227"
        # "screenprints" begins 'Screenprint, etching …' and ends 'Etching and screenprint':
        # where the word is said later in the column's other values too, the rows it begins
        # are a reading the answer says, never the whole of what was asked
        inside = self._said_inside(first[0], first[1], {phrase, stem(phrase)})
        return [ValueMatch(word, *first, prefix=True, guessed=inside)]

    def _said_inside(self, table: str, column: str, forms: set[str]) -> bool:
        return any(
            (t, c) == (table, column)
            for phrase, found in self._by_phrase.items()
            if " " in phrase and set(phrase.split()[1:]) & forms
            for t, c, _ in found
        )

    def _first_word(self, word: str) -> tuple[str, str, str] | None:
        """(table, column, the first word as stored) when `word` begins values of one column
        of longer values: "Toyota" for "Toyota Corolla", "manual" for "manual(m5)", and cut
        short as stored, "Mercedes" for "Merc 240D" (four letters at least, half the word)."""
        if self._by_first is None:
            self._by_first = {}
            for phrase, found in self._by_phrase.items():
                head, _, rest = phrase.partition(" ")
                if rest:
                    self._by_first.setdefault(head, []).extend(found)
        hits = self._by_first.get(word) or self._by_first.get(stem(word), [])
        if not hits:
            cut = [
                head
                for head in self._by_first
                if len(head) >= 4
                and word.startswith(head)
                and len(head) * 2 + 1 >= len(word)  # "auto" of automatic, "Merc" of Mercedes
                # "ranking" is rank and an English ending, not a name cut short ("Merc")
                and word[len(head) :] not in _ENDINGS
                # "wildlife" is wild and life, a compound, not WILD… cut short
                and not (len(word) - len(head) >= 3 and is_english(word[len(head) :]))
            ]
            hits = self._by_first[cut[0]] if len(cut) == 1 else []
        if len({(t, c) for t, c, _ in hits}) != 1:
            return None
        table, column, value = hits[0]
        values = self._values_of(table, column)
        # "Customer#000000001": a word most values begin with picks nothing; unless the
        # column's values begin with only a few words, each a kind ('auto' begins 8 of mpg's
        # 10 transmissions, 'manual' the other 2; 'Paris' most of many places)
        kinds = self._first_words_of(table, column)
        if len(hits) * 2 > values and not (kinds <= 3 and len(hits) < values):
            return None
        # an order number in front ("4. College Grad") stays with the word it numbers
        stored = re.match(r"(?:\s*\d{1,2}\s*[.)]\s+)?\w+", value)
        return (table, column, stored.group()) if stored else None

    def _names_schema(self, word: str, catalog: Catalog) -> bool:
        """Whether a word is a word of a table's or a column's name ("customers" for the
        table customer): never read as the beginning of values. The words are gathered once
        per catalog shape."""
        if self._schema_words is None or self._schema_words[0] != catalog.fingerprint:
            short = abbreviations()
            words = {
                stem(said)
                for table in catalog.tables.values()
                for name in (table.name, *(c.name for c in table.columns))
                for w in _column_words(name)
                # `phase_of_flt`: "flight" names the column as "flt" does
                for said in (w, *short.get(w, ()))
            }
            self._schema_words = (catalog.fingerprint, words)
        return stem(_normalize(word)) in self._schema_words[1]

    def _first_words_of(self, table: str, column: str) -> int:
        """How many different first words the column's values begin with."""
        if self._firsts is None:
            self._firsts = {}
            for phrase, found in self._by_phrase.items():
                for t, c, _ in found:
                    self._firsts.setdefault((t, c), set()).add(phrase.partition(" ")[0])
        return len(self._firsts.get((table, column), ()))

    def _values_of(self, table: str, column: str) -> int:
        if self._counts is None:
            self._counts = {}
            for found in self._by_phrase.values():
                for t, c, _ in found:
                    self._counts[(t, c)] = self._counts.get((t, c), 0) + 1
        return self._counts.get((table, column), 0)

    def _truncated(self, word: str) -> list[tuple[str, str, str]]:
        """A value stored cut short: "herbivores" for `herbi`, "insectivores" for `insecti`.
        One-word values of four letters or more that begin the word and are at least a third of
        it, from one column only (several columns: no guess)."""
        hits = [
            hit
            for phrase, found in self._codes.items()
            if " " not in phrase
            and len(phrase) >= 4
            and word.startswith(phrase)
            and len(phrase) * 3 >= len(word)
            for hit in found
        ]
        return hits if len({(t, c) for t, c, _ in hits}) == 1 and len(hits) == 1 else []

    def _extended(self, word: str) -> list[tuple[str, str, str]]:
        """A value that is the word's stem and a short ending, as Latin names of kinds are:
        "rodents" for `Rodentia`, "carnivores" for `Carnivora`. Stems of five letters at
        least, one-word values of a column of few values, one value only (else no guess)."""
        root = stem(word)
        if len(root) < 5 or not root.isalpha():
            return []
        hits = [
            hit
            for phrase, found in self._codes.items()
            if " " not in phrase and phrase.startswith(root) and 0 < len(phrase) - len(root) <= 3
            for hit in found
        ]
        return hits if len(hits) == 1 else []

    def _spelt_otherwise(self, word: str) -> list[tuple[str, str, str]]:
        """A one-word value of a column of few values spelt one letter apart (a letter
        changed, added, dropped or two swapped): British and American spellings, a typo in the
        data or the question. Words of six letters or more, their first letter kept, one
        value only (else no guess)."""
        from rapidfuzz.distance import OSA  # only on a miss: start-up does not pay for it

        hits = [
            hit
            for phrase, found in self._codes.items()
            if " " not in phrase
            and phrase[:1] == word[:1]
            and abs(len(phrase) - len(word)) <= 1
            and phrase != word
            and OSA.distance(phrase, word, score_cutoff=1) <= 1
            for hit in found
        ]
        return hits if len(hits) == 1 else []

    def _said_by_initials(self, word: str) -> list[ValueMatch]:
        """ "NSW" for 'New South Wales', "ACT" for 'Australian Capital Territory': a word
        written in capitals that spells the initials of one value of several words in a
        column of few values (the words "of", "and", "the" left out). One value only."""
        if not (2 <= len(word) <= 4 and word.isalpha() and word.isupper()):
            return []
        hits = [
            hit
            for phrase, found in self._codes.items()
            if len(words := [w for w in phrase.split() if w not in _SMALL_WORDS]) > 1
            and "".join(w[0] for w in words) == word.lower()
            for hit in found
        ]
        if len({hit for hit in hits}) != 1:
            return []
        return [ValueMatch(word, *hits[0], guessed=True)]

    def _initials(self, names: list[str]) -> list[tuple[str, str, str]]:
        """ "Minute Maid" for `MM`, "Citrus Hill" for `CH`: a capitalised name whose
        initials are a value of a column of short codes (every value three letters at most).
        One column only (else no guess)."""
        initials = "".join(n[0] for n in names)
        hits = [
            hit
            for hit in self._codes.get(initials, [])
            if all(len(v) <= 3 for v in self._values_in(hit[:2]))
        ]
        return hits if len({(t, c) for t, c, _ in hits}) == 1 else []

    def _other_of_two(self, word: str) -> list[tuple[str, str, str]]:
        """ "unbelted" -> seatbelt's `none`, where `belted` is one of its two values: the
        word without "un"/"non" names one value of a two-valued column, and means the other."""
        for prefix in ("non", "un"):
            rest = word.removeprefix(prefix)
            found = self._codes.get(rest, []) if rest != word and len(rest) > 3 else []
            columns = {(t, c) for t, c, _ in found}
            if len(columns) != 1:
                continue
            values = {hit for hits in self._codes.values() for hit in hits if hit[:2] in columns}
            if len(values) == 2:
                return [hit for hit in values if hit[2].lower() != rest]
        return []

    def _lookup(self, word: str, size: int) -> list[ValueMatch]:
        phrase = _normalize(word)
        hits = self._by_phrase.get(phrase, [])
        if not hits and size == 1 and adjective_base(phrase) is not None:
            return []  # "the lightest character" ranks; it is not the skin colour `light`
        if not hits and phrase not in _COMMON_WORDS:
            hits = self._by_form.get(_form(phrase)) or self._by_phrase.get(_form(phrase), [])
        if not hits and size == 1 and phrase not in _COMMON_WORDS:
            for form in (*value_forms(phrase), *value_synonyms().get(phrase, ())):
                # "frosty" nights are `frost`, "women" are `Female`
                hits = self._by_phrase.get(form) or self._by_form.get(form, [])
                if hits:
                    break
        if not hits and size > 1:
            for form in value_synonyms().get(phrase, ()):
                hits = self._by_phrase.get(form, [])  # "New York" stored as its code `NY`
                if hits:
                    break
        if hits and size == 1 and phrase not in _COMMON_WORDS:
            # "Ohio" is a county's name and, as `OH`, a state: both, for the parser to weigh
            # ("how many counties are in Ohio" is not the one county called Ohio)
            held = {(t, c) for t, c, _ in hits}
            for form in value_synonyms().get(phrase, ()):
                hits = hits + [h for h in self._by_phrase.get(form, []) if h[:2] not in held]
        if not hits:
            hits = self._country_code(phrase)
        if not hits and size == 1 and len(phrase) >= 6 and phrase not in _COMMON_WORDS:
            hits = self._truncated(phrase)
        names = phrase.split()
        if not hits and len(names) == 2 and all(w[:1].isupper() for w in word.split()):
            given, family = names
            # "Damien Hirst" stored as `Hirst, Damien`; "Mike Trout" as `Trout, M` (the
            # initial a guess, said)
            hits = self._by_phrase.get(f"{family} {given}", [])
            initial = [] if hits else self._by_phrase.get(f"{family} {given[0]}", [])
            if initial:
                return [ValueMatch(word, t, c, v, guessed=True) for t, c, v in initial]
        if not hits and 1 < len(names) <= 3 and all(w[:1].isupper() for w in word.split()):
            initials = self._initials(names)
            if initials:  # "Minute Maid" stored as the code `MM` (said)
                return [ValueMatch(word, t, c, v, guessed=True) for t, c, v in initials]
        if not hits and size == 1 and len(phrase) >= 6 and phrase not in _COMMON_WORDS:
            spelt = self._spelt_otherwise(phrase)
            if spelt:  # "diarrhoea" stored as `Diarrhaea`, "Adidas" as `Addidas` (said)
                return [ValueMatch(word, t, c, v, guessed=True) for t, c, v in spelt]
        if not hits and size == 1 and phrase.startswith(("un", "non")):
            other = self._other_of_two(phrase)
            if other:  # "unbelted" occupants: seatbelt's other value, `none` (said)
                return [ValueMatch(word, t, c, v, guessed=True) for t, c, v in other]
        if not hits and size == 1 and phrase not in _COMMON_WORDS:
            extended = self._extended(phrase)
            if extended:
                return [ValueMatch(word, t, c, v, guessed=True) for t, c, v in extended]

        if size == 1:
            hits = [hit for hit in hits if _could_be_value(word, hit[2])]
        if size == 1 and hits and all(self._heads_a_family(hit) for hit in hits):
            # "professors" for rank `Prof` beside `AsstProf` and `AssocProf`: the word names
            # every one of them, the one value only as a guess (said)
            return [ValueMatch(word, t, c, v, guessed=True) for t, c, v in hits]
        return [ValueMatch(word, table, column, value) for table, column, value in hits]

    def _heads_a_family(self, hit: tuple[str, str, str]) -> bool:
        """Whether another value of the hit's column ends with the hit's words after words
        of its own (`Prof` of `AsstProf`: assistant professor is a professor too)."""
        words = _value_words(hit[2])
        return any(
            len(other) > len(words)
            and other[-len(words) :] == words
            and not set(other[: -len(words)]) & _NEGATIONS  # `non-USA` is no kind of `USA`
            for other in map(_value_words, self._values_in(hit[:2]))
        )

    def _values_in(self, column: tuple[str, str]) -> set[str]:
        """The values of one column of few values (`_codes`, indexed by column once)."""
        if self._column_values is None:
            values: dict[tuple[str, str], set[str]] = {}
            for found in self._codes.values():
                for t, c, v in found:
                    values.setdefault((t, c), set()).add(v)
            self._column_values = values
        return self._column_values.get(column, set())

    def _country_code(self, phrase: str) -> list[tuple[str, str, str]]:
        """ "Vietnam" stored as 'Viet Nam', "United States" as 'United States of America':
        another name the country goes by; else "Portugal" stored as `prt` or `PT`: its ISO
        code, in a column of codes (every value two or three letters, and many of them: a
        yes/no column's `no` is never Norway)."""
        codes = _country_codes().get(phrase, ())
        named = [
            hit
            for name in codes
            if len(name) > 3 and _normalize(name) != phrase
            for hit in self._by_phrase.get(_normalize(name), [])
        ]
        if named:
            return named  # "United States" stored as 'United States of America'
        hits = [hit for code in codes if len(code) <= 3 for hit in self._by_phrase.get(code, [])]
        return [hit for hit in hits if self._holds_codes(hit[0], hit[1])]

    def _holds_codes(self, table: str, column: str) -> bool:
        if self._code_columns is None:
            lengths: dict[tuple[str, str], set[int]] = {}
            for found in self._by_phrase.values():
                for t, c, v in found:
                    lengths.setdefault((t, c), set()).add(len(v))
            self._code_columns = {key for key, sizes in lengths.items() if sizes <= {2, 3}}
        return (table, column) in self._code_columns and self._values_of(table, column) >= 10


_Tables = tuple[dict[str, list[int]], dict[str, list[int]], dict[str, list[int]]]


def _joined_parts(
    by_phrase: dict[str, list[tuple[str, str, str]]],
) -> dict[tuple[str, str], set[str]]:
    """{(table, column): the values that column's joined values list}: the parts of values
    holding several joined by a separator ('Comedy|Drama' -> comedy, drama), each listed by
    two such values at least (one 'N/A' makes no list of 'a')."""
    seen: dict[tuple[str, str, str], set[str]] = {}
    for found in by_phrase.values():
        for table, column, value in found:
            for separator in LIST_SEPARATORS:
                if separator in value:
                    for part in {p.strip().lower() for p in value.split(separator)} - {""}:
                        seen.setdefault((table, column, part), set()).add(value)
    parts: dict[tuple[str, str], set[str]] = {}
    for (table, column, part), values in seen.items():
        if len(values) > 1:
            parts.setdefault((table, column), set()).add(part)
    return parts


def _indexed(columns: list[ColumnValues]) -> tuple[dict[str, list[tuple[str, str, str]]], ...]:
    """The index of `columns` (by phrase, by form, codes), each hit (table, column, value).

    Built once and then read back by later processes (`disk_memo`): every `zlens ask` that
    probes (a certified question does too) would otherwise find every value's dictionary
    forms again (~15-20 ms on the sample's 3,000 values; JSON reads back in ~3 ms). The memo
    is keyed by the values themselves and by the code and word lists that index them, so a
    changed database, vocabulary or version indexes afresh; one file per set of values (they
    can be megabytes, and no process should read another database's)."""
    flat = [(c.table, c.column, v) for c in columns for v in c.values]
    values = disk_memo.input_key([[c.table, c.column, c.values] for c in columns])
    kind, code = f"value-index-{values[:20]}", _index_code()
    known = disk_memo.recall(kind, code, values)
    if known is not None:
        try:
            return _hits(json.loads(known), flat)
        except (ValueError, TypeError, IndexError, AttributeError):
            pass  # not what this code writes: index afresh
    tables = _build(columns)
    disk_memo.remember(kind, code, values, json.dumps(tables))
    return _hits(tables, flat)


def _hits(
    tables: _Tables, flat: list[tuple[str, str, str]]
) -> tuple[dict[str, list[tuple[str, str, str]]], ...]:
    by_phrase, by_form, codes = tables
    return tuple(
        {str(k): [flat[n] for n in ns] for k, ns in found.items()}
        for found in (by_phrase, by_form, codes)
    )


@cache
def _country_codes() -> dict[str, tuple[str, ...]]:
    """`vocabulary.country_codes()`, kept on disk between processes (`disk_memo`): building
    it imports pycountry and reads its ISO 3166 tables (~25 ms of every `zlens ask` whose
    question has a word no stored value matches); its JSON reads back in ~0.2 ms. Keyed by
    the files it comes from, so an upgraded pycountry or an edited vocabulary builds afresh."""
    code = _country_code_key()
    known = disk_memo.recall("country-codes", code, "countries")
    if known is not None:
        try:
            return {str(name): tuple(codes) for name, codes in json.loads(known).items()}
        except (ValueError, TypeError, AttributeError):
            pass  # not what this code writes: build afresh
    found = country_codes()
    disk_memo.remember("country-codes", code, "countries", json.dumps(found))
    return found


def _country_code_key() -> str:
    spec = importlib.util.find_spec("pycountry")  # located, not imported
    folders = list(spec.submodule_search_locations or []) if spec else []
    names = ("__init__.py", "databases/iso3166-1.json")
    tables = tuple(str(Path(folders[0]) / name) for name in names) if folders else ()
    return disk_memo.code_key(sys.version, files=(__file__, vocabulary.__file__, *tables))


@cache
def _index_code() -> str:
    # Python's version too: `\w` and lower() follow its Unicode tables.
    return disk_memo.code_key(
        sys.version,
        lemma_code(),
        files=(
            __file__,
            vocabulary.__file__,
            str(Path(vocabulary.__file__).with_name("vocabulary.yml")),
        ),
    )


def _build(columns: list[ColumnValues]) -> _Tables:
    """The index with each hit as its position among all the columns' values."""
    by_phrase: dict[str, list[int]] = {}
    by_form: dict[str, list[int]] = {}
    codes: dict[str, list[int]] = {}
    n = -1
    for column in columns:
        for value in column.values:
            n += 1
            phrase = _normalize(value)
            if phrase and len(phrase.split()) <= MAX_PHRASE_WORDS:
                by_phrase.setdefault(phrase, []).append(n)
                if len(column.values) <= _CODE_COLUMN_LIMIT:
                    codes.setdefault(phrase, []).append(n)
                form = _form(phrase)
                if form != phrase:
                    by_form.setdefault(form, []).append(n)
                bare = _normalize(_ENUMERATED.sub("", value))
                if bare and bare != phrase:
                    # "2. Married", "4. College Grad": survey labels keep their order as a
                    # number in front; people say "married"
                    by_phrase.setdefault(bare, []).append(n)
                    by_form.setdefault(_form(bare), []).append(n)
                spelled = _spelled_out(value)
                if spelled and spelled != phrase:
                    # "AsstProf" is what people call an "assistant professor"
                    by_form.setdefault(_form(spelled), []).append(n)
                turned = _name_turned(value)
                if turned:
                    # "Hirst, Damien", as catalogues file people, is "Damien Hirst" said
                    by_phrase.setdefault(turned, []).append(n)
    return by_phrase, by_form, codes


_FILED_NAME = re.compile(
    r"([A-Z][\w'\-]+(?: [A-Z][\w'\-]+)?), ([A-Z][\w'.\-]*[a-z][\w'.\-]*(?: [A-Z][\w'.\-]*)*)"
)


def _name_turned(value: str) -> str:
    """ "damien hirst" for "Hirst, Damien": a person's name filed surname first, said the
    other way round; "" for anything else ("Screenprint, etching and oil on paper")."""
    filed = _FILED_NAME.fullmatch(value.strip())
    if filed is None or len(filed.group(2).split()) > 3:
        return ""
    return _normalize(f"{filed.group(2)} {filed.group(1)}")


# Endings that make another English word of a stem: never the rest of a name cut short.
_ENDINGS = frozenset({"s", "es", "ed", "er", "ers", "ing", "ings", "ly", "ion", "ions", "y"})

_SMALL_WORDS = frozenset({"of", "and", "the", "for", "&"})
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A label's order number in front of it: "2. Married", "1) Yes"
_ENUMERATED = re.compile(r"^\s*\d{1,2}\s*[.)]\s+(?=\D)")


def _spelled_out(value: str) -> str:
    """A code-like value in words: CamelCase split and abbreviations expanded ("AsstProf" ->
    "assistant professor"); "" when the value has nothing to spell out."""
    parts = _normalize(_CAMEL.sub(" ", value)).split()
    if len(parts) < 2 or len(parts) > MAX_PHRASE_WORDS:
        return ""  # one part ("MFR", an airport code) is a code, never spelled out
    expansions = abbreviations()
    return " ".join(w for part in parts for w in expansions.get(part, (part,)))


_DIGITS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}


def _initial(word: str) -> str:
    low = word.lower()
    return _DIGITS.get(low) or low[:1]


def _column_words(column: str) -> list[str]:
    """A column's name as lower-case words: passengerClass -> passenger, class."""
    return [w.lower() for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", column) if w]


def _form(phrase: str) -> str:
    return " ".join(stem(w) for w in phrase.split())


def _could_be_value(word: str, value: str) -> bool:
    """Single words: never numbers or one letter; common words only when written exactly
    as stored and not in plain lower case ("US" the country; "and" is never Andorra's code
    `and`, nor "are" the Emirates' `are`)."""
    if word.isdigit() or len(word) < 2:
        return False
    if word.lower() in _COMMON_WORDS:
        return word == value and not word.islower()
    return True


def _month(word: str, position: int, catalog: Catalog) -> list[ValueMatch]:
    """A month name -> matches on integer `month` columns, or one table-less match.

    "May" counts only capitalized and not as the first word ("May I see..." is no month).
    """
    number = _MONTH_ABBREVIATIONS.get(word) or _MONTHS.get(word.lower())
    if number is None or (word.lower() == "may" and (word != "May" or position == 0)):
        return []
    hits = [
        ValueMatch(word, table.name, column.name, str(number))
        for table in catalog.tables.values()
        for column in table.columns
        if column.name.lower() == "month" and "INT" in column.type.upper()
    ]
    return hits or [ValueMatch(word, "", "", str(number))]


_NEGATIONS = frozenset({"non", "not", "no", "un", "without"})


@cache
def _value_words(value: str) -> tuple[str, ...]:
    """A stored value's words, lower case, abbreviations spelt out: `AsstProf` -> assistant
    professor, `Full Prof` -> full professor."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", value)
    expansions = abbreviations()
    return tuple(
        w
        for part in re.split(r"[_\W]+", spaced.lower())
        if part
        for w in expansions.get(part, (part,))
    )
