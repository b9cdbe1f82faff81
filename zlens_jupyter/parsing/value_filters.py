"""Values in a question turned into filters: which of several columns a value is of,
codes said by their initials ("left-handed"), numbered columns, columns compared with each
other, and the modifiers and nouns a value leaves behind."""

from __future__ import annotations

import re
from collections.abc import Collection
from itertools import pairwise

from ..warehouse import Catalog, ColumnInfo, ValueMatch
from ..wordforms import doer_of, is_english, is_noun
from .counts_and_rates import tally_of
from .entities import names_rows
from .lexicon import Lexicon, Span, Target, is_key, is_numeric
from .phrasing import CALENDAR_WORDS
from .reading import HAVING, ParseState, clarify
from .scope import inside_a_table_name, starts_a_name, table_name_words
from .spec import LIST_SEPARATORS, ColumnRef, Filter, ParseResult, QuestionSpec
from .words import GLUE_WORDS, NUMBER_WORDS, identifier_words, question_tokens, stem, to_number

_FROM_WORDS = {"from", "departing", "leaving", "out", "origin"}
_TO_WORDS = {"to", "arriving", "into", "bound", "destination", "toward", "towards"}


def filters_of_values(
    p: ParseState, values: list[ValueMatch], lex: Lexicon
) -> list[tuple[ValueMatch, str | None]]:
    """Values found in the data ("JFK", "Enterprise"), with the direction word before them.
    A value that begins a column's name is the name ("hurricane force diameter" is the
    column `hurricane_force_diameter`, not hurricanes)."""
    out: list[tuple[ValueMatch, str | None]] = []
    for match in values:
        words = question_tokens(match.word)
        if not words or not match.table:
            continue  # a bare month name with no month column: the time parser handles it
        info = p.catalog.table(match.table)
        stored = info.column(match.column) if info is not None else None
        if stored is not None and stored.date_format:
            continue  # '2010 Q1' of a text column read as dates: "2010" is a time range
        for i in range(len(p.tokens) - len(words) + 1):
            if (
                p.tokens[i : i + len(words)] == words
                and len(words) == 1
                and words[0] in NUMBER_WORDS
                and i > 0
                and p.tokens[i - 1] in ("which", "top", "bottom", "first", "last", "the")
            ):
                continue  # "which five storms": how many to show, never the storm named Five
            if p.tokens[i : i + len(words)] == words and (
                starts_a_name(p.tokens, i, lex)
                or inside_a_table_name(p.tokens, i, words, lex)
                # "did police use force": a word of the table's own name, never its code 'FORCE'
                or {stem(w) for w in words} <= table_name_words(p.catalog)
            ):
                continue
            if (
                p.tokens[i : i + len(words)] == words
                and _grouped_by(p.tokens, i, lex)
                and any(
                    (t.table, t.column) == (match.table, match.column) for t in lex.lookup(words)
                )
            ):
                # "the death rate by airbag", "which job title": the column `airbag`, not
                # its value 'airbag'
                continue
            if (
                p.tokens[i : i + len(words)] == words
                and i > 0
                and p.tokens[i - 1] in ("a", "an", "any", "every")
                and names_rows(p.catalog, match)
                # "a Big Mac" is the item of that name: a capitalized name of several words
                and not (match.word[:1].isupper() and len(words) > 1)
            ):
                # "the sales of a bank": a kind of company, not the one named Bank (nor
                # every company: the rows are not read as banks)
                p.kinds.update(range(i, i + len(words)))
                continue
            if p.tokens[i : i + len(words)] == words:
                if p.taken & set(range(i, i + len(words))) and not any(
                    m.word == match.word for m, _ in out
                ):
                    continue  # already explained, e.g. "July" as a time range
                p.taken.update(range(i, i + len(words)))
                before = p.tokens[i - 1] if i > 0 else None
                if before in ("a", "an") and i > 1 and p.tokens[i - 2] in NEGATIONS:
                    p.taken.update({i - 2, i - 1})  # "a crash that was not a criminal act"
                    before = p.tokens[i - 2]
                elif before in NEGATIONS:  # "respondents who are not US citizens"
                    p.taken.add(i - 1)
                out.append((match, before))
                break
    return out


_GROUPING_WORDS = ("by", "each", "per", "which", "what")


def _grouped_by(tokens: list[str], at: int, lex: Lexicon) -> bool:
    """Whether the word at `at` follows a grouping word, maybe past one word the data does
    not know ("which job title")."""
    if at > 0 and tokens[at - 1] in _GROUPING_WORDS:
        return True
    return at > 1 and tokens[at - 2] in _GROUPING_WORDS and not lex.lookup(tokens[at - 1 : at])


# Words before a value that keep the rows without it ("not US citizens", "non-smokers")
NEGATIONS = frozenset({"not", "non"})


def choose_value_filters(
    found: list[tuple[ValueMatch, str | None]],
    fact_table: str,
    catalog: Catalog,
    counted: Collection[tuple[str, str]] = (),
    said: Collection[tuple[str, str]] = (),
) -> list[Filter] | ParseResult:
    """One filter per value word; a word found in several columns is asked about, unless
    all but one are the column being counted or grouped ("how many counties are in Ohio":
    not the county called Ohio, whose count is 1, but the state)."""
    by_word: dict[str, list[tuple[ValueMatch, str | None]]] = {}
    for match, before in found:
        by_word.setdefault(match.word.lower(), []).append((match, before))
    filters: list[Filter] = []
    for word, options in by_word.items():
        before = options[0][1]
        on_fact = [m for m, _ in options if m.table.lower() == fact_table.lower()] or [
            m for m, _ in options
        ]
        if len(on_fact) > 1 and before in _FROM_WORDS | _TO_WORDS:
            wanted = (
                ("origin", "from", "source", "dep")
                if before in _FROM_WORDS
                else ("dest", "to", "arr", "target")
            )
            directed = [m for m in on_fact if m.column.lower().startswith(wanted)]
            on_fact = directed or on_fact
        if len({(m.table, m.column) for m in on_fact}) > 1:
            others = [m for m in on_fact if (m.table.lower(), m.column.lower()) not in counted]
            on_fact = others if len({(m.table, m.column) for m in others}) == 1 else on_fact
        if len({(m.table, m.column) for m in on_fact}) > 1:
            named = [m for m in on_fact if (m.table.lower(), m.column.lower()) in said]
            on_fact = named if len({(m.table, m.column) for m in named}) == 1 else on_fact
        if len({(m.table, m.column) for m in on_fact}) > 1 and _one_attribute(catalog, on_fact):
            # "Texas" in `state` and, as TX, in `abb`: two spellings of one attribute (as
            # many values each, one table); the one written as asked
            on_fact = [m for m in on_fact if m.value.lower() == m.word.lower()] or on_fact[:1]
        if len({(m.table, m.column) for m in on_fact}) > 1:
            names = [f"{m.table}.{m.column}" for m in on_fact]
            return clarify(f"'{word}' appears in {', '.join(names)}: which one do you mean?", names)
        m = on_fact[0]
        spellings = sorted({o.value for o in on_fact if not o.prefix})
        if len(spellings) > 1 and len({_spelled(v) for v in spellings}) == 1:
            # 'Fled on Foot' stored bare and padded with spaces, 'Pot-Bellied' and 'Pot
            # Bellied', 'LUNA' and 'Luna': one value, every spelling
            filters.append(
                Filter(m.table, m.column, "spellings", spellings, label=m.column, said=m.word)
            )
            continue
        if m.prefix:  # "Toyota cars": the rows whose model begins with the word Toyota
            filters.append(
                Filter(m.table, m.column, "starts", m.value, label=m.column, said=m.word)
            )
            continue
        if before in NEGATIONS and not m.prefix:
            # "not US citizens": every row whose value is another (a row with none recorded
            # is none of them either, and is left out, as SQL's NOT IN leaves it)
            filters.append(
                Filter(m.table, m.column, "not in", [m.value], label=m.column, said=f"not {m.word}")
            )
            continue
        if _listed_among_others(catalog, m):
            # "days with a thunderstorm" over `events` holding 'Rain , Thunderstorm': every
            # row listing it, never only the rows where it is alone
            filters.append(Filter(m.table, m.column, "has", m.value, label=m.column, said=m.word))
            continue
        same = next(
            (
                f
                for f in filters
                if (f.table, f.column) == (m.table, m.column) and f.op in ("=", "in")
            ),
            None,
        )
        if same is not None:  # "Ideal and Fair diamonds", "Austin or Dallas": either value
            same.value = [*(same.value if same.op == "in" else [same.value]), m.value]
            same.op = "in"
            continue
        filters.append(Filter(m.table, m.column, "=", m.value, label=m.column, said=m.word))
    exact = {(f.table, f.column) for f in filters if f.op in ("=", "in")}
    # "work in the Austin office": a word read as the start of other values of a column a
    # value is said whole in ('Work from home' beside 'Austin') is no second condition on it
    return [f for f in filters if not (f.op == "starts" and (f.table, f.column) in exact)]


def named_values(
    tokens: list[str], spans: list[Span], taken: set[int], catalog: Catalog
) -> list[ValueMatch]:
    found = []
    for span in spans:
        at = span.end
        if at >= len(tokens) or at in taken:
            continue
        for target in span.targets:
            info = catalog.table(target.table) if target.kind == "column" else None
            column = info.column(target.column or "") if info is not None else None
            value = _stored(column, tokens[at]) if column is not None else None
            if column is not None and value is not None:
                found.append(ValueMatch(tokens[at], target.table, column.name, value))
                taken.add(at)
                # "discipline A and B": a value after "and"/"or" is of the same column
                nxt = at + 2
                other = _stored(column, tokens[nxt]) if nxt < len(tokens) else None
                if tokens[at + 1 : at + 2] in (["and"], ["or"]) and other and nxt not in taken:
                    found.append(ValueMatch(tokens[nxt], target.table, column.name, other))
                    taken.add(nxt)
                break
    return found


def _stored(column: ColumnInfo, word: str) -> str | None:
    return next((v for v in column.distinct_values if v.lower() == word), None)


_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}


def initial_codes(
    tokens: list[str], spans: list[Span], taken: set[int], catalog: Catalog
) -> list[ValueMatch]:
    """ "front-wheel drive" for `drv = 'f'`, "four-wheel drive" for `'4'`: the words before
    a column's name, when its values are one-letter codes and the first word's initial (a
    number word's digit) is one of them. One word may come between ("-wheel"). Said: the
    data cannot confirm that `f` stands for front."""
    found = []
    for span in spans:
        columns = [t for t in span.targets if t.kind == "column"]
        info = catalog.table(columns[0].table) if len(columns) == 1 else None
        column = info.column(columns[0].column or "") if info is not None else None
        codes = column.distinct_values if column is not None else ()
        if column is None or not codes or any(len(v) != 1 for v in codes):
            continue
        for first in (span.start - 1, span.start - 2):
            words = range(first, span.start)
            if first < 0 or any(i in taken for i in words) or not tokens[first].isalpha():
                continue
            if any(tokens[i] in GLUE_WORDS and tokens[i] not in _SIDES for i in words):
                continue  # "by drive", "the drive": no code is said (but "left-handed" is)
            initial = _NUMBER_WORDS.get(tokens[first], tokens[first][:1])
            value = next((v for v in codes if v.lower() == initial), None)
            if value is None or len(tokens[first]) < 3:
                continue
            said = " ".join(tokens[first : span.end])
            found.append(ValueMatch(said, columns[0].table, column.name, value, guessed=True))
            taken.update(range(first, span.end))
            other = first - 2  # "East and West division": the code of the word before too
            if other >= 0 and tokens[first - 1] in ("and", "or") and other not in taken:
                word = tokens[other]
                paired = next((v for v in codes if v.lower() == word[:1]), None)
                if paired is not None and paired != value and word.isalpha() and len(word) >= 3:
                    said = f"{word} {tokens[span.start]}"
                    found.append(
                        ValueMatch(said, columns[0].table, column.name, paired, guessed=True)
                    )
                    taken.update(range(other, first))
            break
    return found


# Sides, glue words elsewhere ("who left"), that name a code before its column's name:
# "left-handed batters" for `BatterHand = 'L'`.
_SIDES = frozenset({"left", "right"})

# Words that set one column against another of the same row: "leave ahead of remain".
_COLUMN_COMPARE = {
    ("more", "than"): ">",
    ("greater", "than"): ">",
    ("higher", "than"): ">",
    ("larger", "than"): ">",
    ("bigger", "than"): ">",
    ("above",): ">",
    ("ahead", "of"): ">",
    ("exceeded",): ">",
    ("exceeds",): ">",
    ("exceed",): ">",
    ("less", "than"): "<",
    ("lower", "than"): "<",
    ("smaller", "than"): "<",
    ("fewer", "than"): "<",
    ("below",): "<",
    ("behind",): "<",
}
_COMPARE_FILLER = frozenset({"was", "were", "is", "are", "be", "been", "did", "got", "the"})


def column_comparisons(
    tokens: list[str], spans: list[Span], taken: set[int]
) -> tuple[list[Filter], list[Span]]:
    """ "polls with leave ahead of remain", "months where exports exceeded imports": two
    numeric columns of one table, set against each other by a comparison word, keep the rows
    where the first beats the second. Both spans and the words between are taken; the spans
    used come back beside the filters."""
    found: list[Filter] = []
    used: list[Span] = []
    for a, b in pairwise(spans):
        if len(a.targets) != 1 or len(b.targets) != 1:
            continue
        left, right = a.targets[0], b.targets[0]
        if not all(
            t.kind == "column" and is_numeric(t.type) and not is_key(t.column or "")
            for t in (left, right)
        ):
            continue
        if left.table != right.table or left.column == right.column:
            continue
        between = tuple(t for t in tokens[a.end : b.start] if t not in _COMPARE_FILLER)
        op = _COLUMN_COMPARE.get(between)
        if op is None or any(i in taken for i in range(a.end, b.start)):
            continue
        found.append(
            Filter(left.table, left.column or "", op, ColumnRef(right.column or ""), left.label)
        )
        taken.update(range(a.start, b.end))
        used += [a, b]
    return found, used


def coded_numbers(catalog: Catalog, target: Target) -> dict[int, str]:
    """A text column's values that are one prefix and a number ('S01' … 'S14'): number ->
    value, so "season 9" finds 'S09'. Empty unless every listed value has that form."""
    info = catalog.table(target.table)
    stored = info.column(target.column or "") if info is not None else None
    values = stored.distinct_values if stored is not None else ()
    forms = [re.fullmatch(r"([A-Za-z]{1,3})0*(\d+)", str(v)) for v in values]
    if not values or not all(forms) or len({f.group(1) for f in forms if f}) != 1:
        return {}
    return {int(f.group(2)): str(v) for f, v in zip(forms, values, strict=True) if f}


def numbered_columns(
    tokens: list[str], spans: list[Span], taken: set[int], catalog: Catalog
) -> list[tuple[Span, int]]:
    """ "series 5", "category 5", "episode 3": a whole number right after a phrase naming a
    whole-number column is that column's value; so is one before it after a verb of having
    ("cars with 4 cylinders", "ships that have 3 masts")."""
    found = []
    for span in spans:
        if not any(
            t.kind == "column"
            and (is_numeric(t.type) or _holds_numbers(catalog, t) or coded_numbers(catalog, t))
            for t in span.targets
        ):
            continue  # "category 5" on a DOUBLE column of whole numbers too
        at = span.end
        before = span.start - 1
        if at < len(tokens) and at not in taken and tokens[at].isdigit():
            found.append((span, int(tokens[at])))
            taken.add(at)
        elif (
            before >= 1
            and before not in taken
            and isinstance(to_number(tokens[before]), int)
            # "a four-year school", "5-day trips": a length of time, never year 4
            and stem(tokens[span.start]) not in CALENDAR_WORDS
            and (
                tokens[before - 1] in HAVING
                # "six-cylinder cars": a number and a singular noun before what is counted
                or (stem(tokens[span.start]) == tokens[span.start] and span.end < len(tokens))
            )
        ):
            found.append((span, int(to_number(tokens[before]) or 0)))
            taken.add(before)
    return found


def _listed_among_others(catalog: Catalog, match: ValueMatch) -> bool:
    """Whether the value's column keeps lists of values in one field, this value among them
    in some row ('Fog , Thunderstorm' beside 'Thunderstorm')."""
    if match.listed:  # found so among every value of the column (too many to list here)
        return True
    info = catalog.table(match.table)
    stored = info.column(match.column) if info is not None else None
    if stored is None or is_numeric(stored.type):
        return False
    wanted = match.value.strip().lower()
    for value in stored.distinct_values:
        text = str(value)
        for separator in LIST_SEPARATORS:
            parts = [p.strip().lower() for p in text.split(separator)]
            if len(parts) > 1 and wanted in parts and text.strip().lower() != wanted:
                return True
    return False


def _one_attribute(catalog: Catalog, matches: list[ValueMatch]) -> bool:
    """Whether the columns a word was found in are one attribute spelled two ways: one
    table, the word as written in one column and by a synonym in the others, each column
    listing as many distinct values (or each too many to list): state names and codes,
    where a county's name and a state's code list differently."""
    exact = [m for m in matches if m.value.lower() == m.word.lower()]
    if len({m.table for m in matches}) != 1 or len(exact) != 1:
        return False  # one written as asked, the others other spellings of it
    info = catalog.table(matches[0].table)
    counts = {
        len(c.distinct_values)
        for m in matches
        if info is not None and (c := info.column(m.column)) is not None
    }
    return len(counts) == 1


def _spelled(value: str) -> str:
    """A value's words, whatever their case, spaces and punctuation between them."""
    return " ".join(re.findall(r"\w+", value.lower()))


_PART_STARTS = frozenset({"were", "was", "are", "is", "in", "from", "that", "which", "who"})


def whole_and_part_of_one_column(
    tokens: list[str], share_at: int, spec: QuestionSpec
) -> tuple[str, Filter] | None:
    """A share whose whole and part are two values of one column, the whole said right
    after the share word: (the whole's value, the part as a filter), else None."""
    both = [f for f in spec.filters if f.op == "in" and isinstance(f.value, list)]
    if len(both) != 1 or len(both[0].value) != 2 or tokens[:1] == ["compare"]:
        return None  # "compare the death rate of belted and unbelted": side by side
    end = next(
        (i for i in range(share_at + 1, len(tokens)) if tokens[i] in _PART_STARTS), len(tokens)
    )
    window = {stem(t) for t in tokens[share_at + 1 : end]}
    said = [v for v in both[0].value if {stem(w) for w in question_tokens(str(v))} <= window]
    if len(said) != 1:
        return None
    part = next(v for v in both[0].value if v != said[0])
    f = both[0]
    return str(said[0]), Filter(f.table, f.column, "=", part, label=f.label)


def of_the_whole(tokens: list[str], share_at: int, filters: list[Filter]) -> list[Filter]:
    """The filters said inside "of all …" right after a share word ("what share of all measles
    cases were in California": measles is the whole, California the part). None when that
    would leave no part."""
    end = next(
        (i for i in range(share_at + 1, len(tokens)) if tokens[i] in _PART_STARTS), len(tokens)
    )
    window = tokens[share_at + 1 : end]
    if window[:2] not in (["of", "all"], ["of", "the"]) and window[:1] != ["of"]:
        return []
    whole = [
        f
        for f in filters
        if f.op == "="
        and any(
            (words := question_tokens(said))
            and any(window[i : i + len(words)] == words for i in range(len(window)))
            for said in {str(f.value), f.said}
        )
    ]
    return whole if len(whole) < len(filters) else []


def _holds_numbers(catalog: Catalog, target: Target) -> bool:
    """A text column whose listed values are mostly whole numbers ("4", "6", "rotary")."""
    info = catalog.table(target.table)
    column = info.column(target.column or "") if info is not None else None
    values = column.distinct_values if column is not None else ()
    return bool(values) and sum(v.isdigit() for v in values) * 2 > len(values)


# Words that pick some of what they qualify, where no column holds them: never dropped.
_SEXES = frozenset({"female", "male", "women", "men", "woman", "man", "girl", "boy"})
_SEXES |= {"girls", "boys", "females", "males"}


def drop_modifiers(
    tokens: list[str], unresolved: list[str], p: ParseState, spans: list[Span]
) -> list[str]:
    """ "skin colour", "police checks", "gun murders" (a table counted by its tally column): a
    noun the data does not know, right before a column's name, qualifies it. Read as the
    column, and said (the answer is reviewed): the person sees which column stood for the
    two words."""
    for span in spans:
        at = span.start - 1
        columns = [t for t in span.targets if t.kind == "column"]
        tally = tally_of(p.catalog, span)  # "gun murders": murders read as its `total`
        columns = [tally] if tally is not None and not columns else columns
        if at < 0 or at in p.taken or tokens[at] not in unresolved or len(columns) != 1:
            continue
        if not is_noun(tokens[at]) or tokens[at].isdigit() or tokens[at] in _SEXES:
            continue
        p.taken.add(at)
        said = " ".join(tokens[at : span.end])
        read = f"{tally.table}.{tally.column}" if tally is not None else columns[0].column
        p.notes.append(f"'{said}' read as {read}")
    return [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]


def drop_value_modifiers(
    tokens: list[str],
    unresolved: list[str],
    p: ParseState,
    found: list[tuple[ValueMatch, str | None]],
) -> list[str]:
    """ "full professors" (rank `Prof`): a word the data does not know, right before a value,
    qualifies it. Read as the value, and said, so the person sees the word was not used."""
    for match, _ in found:
        words = question_tokens(match.word)
        for i in range(1, len(tokens) - len(words) + 1):
            at = i - 1
            if tokens[i : i + len(words)] != words or at in p.taken:
                continue
            if tokens[at] not in unresolved or tokens[at].isdigit() or not is_english(tokens[at]):
                continue
            if tokens[at] in _SEXES:
                continue  # "female dogs" are some of the dogs: never all of them
            p.taken.add(at)
            p.notes.append(f"'{tokens[at]} {match.word}' read as {match.column} = {match.value}")
    return [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]


def drop_value_nouns(
    tokens: list[str],
    unresolved: list[str],
    taken: set[int],
    found: list[tuple[ValueMatch, str | None]],
) -> list[str]:
    """ "characters with blue eyes", "cars with red paint": a noun right after a value that
    says which column the value is in (`eye_color`) adds nothing to it; nor do the two words
    of "rear wheel drive" (Rear of `DriveTrain`) when the second is the column's."""
    for match, _ in found:
        words = question_tokens(match.word)
        named = {stem(w) for w in identifier_words(match.column)}
        for i in range(len(tokens) - len(words)):
            at = i + len(words)
            if tokens[i:at] != words or at in taken or tokens[at] not in unresolved:
                continue
            if stem(tokens[at]) in named:
                taken.add(at)
            elif doer_of(tokens[at]) is not None and (
                at + 1 == len(tokens) or tokens[at + 1] in GLUE_WORDS
            ):
                taken.add(at)  # "the youngest Best Actor winner": the rows holding the value
            elif (
                at + 1 < len(tokens)
                and at + 1 not in taken
                and tokens[at + 1] in unresolved
                and stem(tokens[at + 1]) in named
            ):
                taken.update((at, at + 1))
    return [t for i, t in enumerate(tokens) if i not in taken and t in unresolved]


def narrowed_by_noun(
    tokens: list[str], found: list[tuple[ValueMatch, str | None]]
) -> list[tuple[ValueMatch, str | None]]:
    """ "blue eyes" where blue is an eye colour and a skin colour: the noun after the value
    names the column it is in."""
    kept = []
    for match, before in found:
        words = question_tokens(match.word)
        at = next(
            (i + len(words) for i in range(len(tokens)) if tokens[i : i + len(words)] == words),
            len(tokens),
        )
        noun = stem(tokens[at]) if at < len(tokens) else ""
        same = [m for m, _ in found if m.word == match.word]
        named = [m for m in same if noun in {stem(w) for w in identifier_words(m.column)}]
        if len(same) > 1 and len(named) == 1 and named[0] is not match:
            continue  # another column of the same word is the one the noun names
        kept.append((match, before))
    return kept
