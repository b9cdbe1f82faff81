"""Questions reworded before they are parsed: phrasings whose words the data names in
another way ("the savings rate at its lowest" asks when; "homes sold" is the `sales`
figure; "the average close in 2000 with the average close in 2010" is one figure for two
years). Each takes the question's tokens and returns them reworded, with what it read when
the answer should say so. Pure functions of the tokens, the lexicon and the catalog.
"""

from __future__ import annotations

import re
from itertools import pairwise

from ..vocabulary import counted_by_verb, negatives, synonyms
from ..warehouse import Catalog, ValueMatch
from ..wordforms import adjective_base, is_noun, is_verb, verb_root
from .lexicon import Lexicon, Target, find_spans, is_key, is_numeric, is_temporal
from .phrasing import is_year, superlative_direction
from .words import GLUE_WORDS, identifier_words, stem, to_number


def has_dates(catalog: Catalog) -> bool:
    return any(is_temporal(c.type) for t in catalog.tables.values() for c in t.columns)


def rows_are_days(catalog: Catalog, table: str) -> bool:
    """A table kept by month and day (airquality's `Month`, `Day`) with no finer time: each
    row is one day."""
    info = catalog.table(table)
    if info is None:
        return False
    names = {c.name.lower() for c in info.columns}
    timed = any(is_temporal(c.type) for c in info.columns) or names & {"hour", "minute", "time"}
    return {"month", "day"} <= names and not timed


def kind_of_a_column(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "for each type of sewer" -> "for each sewer": "type of", "kind of" before a column's
    name only say its values are kinds."""
    for i in range(len(tokens) - 2):
        if tokens[i] in ("type", "kind", "sort") and tokens[i + 1] == "of":
            named = [t for t in lexicon.lookup(tokens[i + 2 : i + 3]) if t.kind == "column"]
            if named and not lexicon.lookup(tokens[i : i + 1]):
                return [*tokens[:i], *tokens[i + 2 :]]
    return tokens


_NAMES_OF = (
    ["what", "are", "the", "names", "of"],
    ["what", "were", "the", "names", "of"],
    ["list", "the", "names", "of"],
    ["show", "the", "names", "of"],
    ["show", "me", "the", "names", "of"],
    ["give", "me", "the", "names", "of"],
    ["name", "the"],
)


_COMPARED = frozenset(
    {"more", "less", "fewer", "higher", "lower", "better", "worse", "larger", "smaller"}
    | {"bigger", "longer", "shorter", "older", "younger", "heavier", "lighter"}
)


def either_of_two(tokens: list[str], lexicon: Lexicon, values: list[ValueMatch]) -> list[str]:
    """ "Who earns more on average, men or women?" -> "which sex earns more …, men or
    women": two values of one column after a comparative pick between them, and that column
    says which. Unchanged when the question already names what to rank ("which sex …")."""
    if len(tokens) < 5 or tokens[-2] != "or" or tokens[0] not in ("who", "which"):
        return tokens
    if not set(tokens) & _COMPARED or (tokens[0] == "which" and lexicon.lookup(tokens[1:2])):
        return tokens
    columns = [
        {(v.table, v.column) for v in values if v.word.lower() == word}
        for word in (tokens[-3], tokens[-1])
    ]
    shared = columns[0] & columns[1]
    if len(shared) != 1:
        return tokens
    _, column = next(iter(shared))
    return ["which", *identifier_words(column), *tokens[1:]]


def one_grouping_two_names(
    tokens: list[str], lexicon: Lexicon, values: list[ValueMatch]
) -> list[str]:
    """ "which state or territory had …" -> "which state had …": after "which", a column's
    name, "or", and a noun the data names nothing by are one grouping said two ways."""
    if tokens[:1] != ["which"] or tokens[2:3] != ["or"] or len(tokens) < 5:
        return tokens
    said = {w for v in values for w in v.word.lower().split()}
    known = [t for t in lexicon.lookup(tokens[1:2]) if t.kind == "column"]
    if known and not lexicon.lookup(tokens[3:4]) and tokens[3] not in said:
        return [*tokens[:2], *tokens[4:]]
    return tokens


def names_asked(tokens: list[str]) -> list[str]:
    """ "What are the names of the licensed pigs?" asks who they are: the rows the
    conditions keep, each said by its name ("who are the licensed pigs")."""
    for lead in _NAMES_OF:
        if tokens[: len(lead)] == lead and len(tokens) > len(lead):
            return ["who", "are", *tokens[len(lead) :]]
    return tokens


def stored_as_none(
    tokens: list[str], lexicon: Lexicon, catalog: Catalog, values: list[ValueMatch]
) -> tuple[list[str], list[ValueMatch]]:
    """ "characters with no hair" where `hair_color` stores 'none': that value, never an
    exclusion. Only a text column the word names alone, holding a value spelled none."""
    for i in range(len(tokens) - 1):
        if tokens[i] != "no" or (i > 0 and tokens[i - 1] not in HAVE_VERBS):
            continue
        word = tokens[i + 1]
        named = [(t.table, t.column or "") for t in lexicon.lookup([word]) if t.kind == "column"]
        # ... or begins its name: `hair_color` for "hair"
        named = named or [
            (table.name, c.name)
            for table in catalog.tables.values()
            for c in table.columns
            if identifier_words(c.name)[:1] == (stem(word),) and not is_numeric(c.type)
        ]
        info = catalog.table(named[0][0]) if len(named) == 1 else None
        stored = info.column(named[0][1]) if info is not None else None
        none = [v for v in (stored.distinct_values if stored else ()) if v.lower() == "none"]
        if info is not None and stored is not None and len(none) == 1:
            match = ValueMatch(word, info.name, stored.name, none[0])
            return [*tokens[:i], *tokens[i + 1 :]], [*values, match]
    return tokens, values


def measure_of_a_part(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "the heaviest brain" -> "the heaviest brain weight" where `brainwt` is the brain's
    weight: a superlative's quantity said after the part it measures, when the part alone
    names nothing and the two together name one column."""
    for i, token in enumerate(tokens[:-1]):
        plain = adjective_base(token) or token
        part = tokens[i + 1]
        if plain == token or lexicon.lookup([part]):
            continue
        for quantity in synonyms().get(plain, ()):
            named = [t for t in lexicon.lookup([part, quantity]) if t.kind == "column"]
            if len(named) == 1 and is_numeric(named[0].type):
                return [*tokens[: i + 2], quantity, *tokens[i + 2 :]]
    return tokens


_COUNTED_AFTER = frozenset({"many", "most", "more", "fewest", "fewer", "least"})


def things_sold(tokens: list[str], lexicon: Lexicon) -> tuple[list[str], str]:
    """ "how many homes were sold", "which city sold the most homes" over a table whose
    `sales` counts the things sold: that figure, whatever the things are called (a word the
    data does not know). Said."""
    sold = next((i for i, t in enumerate(tokens) if t in ("sold", "sell")), None)
    named = [t for t in lexicon.lookup(["sales"]) if t.kind == "column" and is_numeric(t.type)]
    if sold is None or len(named) != 1 or lexicon.lookup([tokens[sold]]):
        return tokens, ""
    counted = next(
        (
            j
            for j in range(1, len(tokens))
            if tokens[j - 1] in _COUNTED_AFTER
            and not lexicon.lookup([tokens[j]])
            and is_noun(tokens[j])
            and stem(tokens[j]) != tokens[j]  # a plural: the things
        ),
        None,
    )
    if counted is None:
        return tokens, ""
    drop = {sold} | ({sold - 1} if tokens[sold - 1] in ("were", "was", "are", "is") else set())
    read = [("sales" if j == counted else t) for j, t in enumerate(tokens) if j not in drop]
    return read, f"'{tokens[counted]} sold' read as {named[0].column}"


def combined_as_total(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "the combined 2021 population of …" -> "the total 2021 population …": "combined"
    before a figure adds it up, unless the data names something by it ("combined mpg" of
    `comb_mpg` stays a column's name)."""
    for i, word in enumerate(tokens[:-1]):
        if word != "combined" or i == 0 or tokens[i - 1] not in ("the", "their", "its", "a"):
            continue
        if lexicon.lookup(["combined"]) or lexicon.lookup(tokens[i : i + 2]):
            continue
        if any(lexicon.lookup(tokens[i : i + n]) for n in (3, 4)):
            continue
        return [*tokens[:i], "total", *tokens[i + 1 :]]
    return tokens


def number_range(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "a price between 1000 and 2000" -> "a price at least 1000 and price at most 2000",
    "aged 13 to 19" -> "aged at least 13 and aged at most 19": a range of a number, both
    ends kept, as two comparisons of the same words. Years are left to the calendar
    ("between 2010 and 2015" is a period); so is "from A to B"."""
    for i in range(1, len(tokens) - 3):
        word = tokens[i]
        if word == "between" and tokens[i + 2] == "and":
            low, high, said = tokens[i + 1], tokens[i + 3], i + 4
        elif word.isdigit() and tokens[i - 1] in _AGED and tokens[i + 1] == "to":
            low, high, said = word, tokens[i + 2], i + 3
            i -= 1  # "aged" itself is the name repeated
        else:
            continue
        a, b = to_number(low), to_number(high)
        if a is None or b is None or a > b or (is_year(low) and is_year(high)):
            continue
        if word == "between" and tokens[i - 1] in _AGED:
            name = [tokens[i - 1]]  # "aged between 13 and 19"
        else:
            before = tokens[max(0, i - 2) : i] if word == "between" else [tokens[i]]
            two = len(before) == 2 and bool(lexicon.lookup(before))
            name = before if two else before[-1:]
        start = i + (0 if word == "between" else 1)
        unit = _words_after(tokens, said)
        if (
            not name
            or (name[-1] in GLUE_WORDS and name[-1] not in _AGED)
            # "hit between 20 and 30 home runs": a verb naming nothing, the figure after
            or (unit and is_verb(name[-1]) and not lexicon.lookup(name))
            # "diamonds between 1 and 2 carats": the things, no column; the unit names it
            or (unit and not any(t.kind == "column" for t in lexicon.lookup(name)))
        ):
            # "have between 4 and 6 cylinders", "with between 10 and 20 years of service":
            # the words after the range name what it is of; said after each end
            if not unit:
                continue
            lower = ["at", "least", low, *unit]
            return [*tokens[:start], *lower, "and", "at", "most", high, *tokens[said:]]
        lower = ["at", "least", low, "and", *name]
        return [*tokens[:start], *lower, "at", "most", high, *tokens[said:]]
    return tokens


def _words_after(tokens: list[str], at: int) -> list[str]:
    """Up to three words from `at` that may name a column ("years of service", "cm tall"),
    stopping at a small word other than "of"."""
    words: list[str] = []
    for word in tokens[at : at + 3]:
        if not word.isalpha() or (word in GLUE_WORDS and word != "of"):
            break
        words.append(word)
    while words and words[-1] == "of":
        words.pop()
    return words


_AGED = frozenset({"aged", "ages", "age"})


def with_at_least_one_row(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "how many different boroughs recorded at least one murder" -> "how many different
    boroughs": over a table of murders, every borough that appears has one; the count of
    the boroughs that appear is asked. Only when the thing after "at least one" is what the
    table's rows are (its name), and "different" or "distinct" says values are counted."""
    if tokens[:2] != ["how", "many"] or tokens[2:3] not in (["different"], ["distinct"]):
        return tokens
    for i in range(4, len(tokens) - 3):
        if tokens[i : i + 3] != ["at", "least", "one"]:
            continue
        named = lexicon.lookup(tokens[i + 3 : i + 4])
        if not named or any(t.kind != "table" for t in named):
            return tokens
        verb = i - 1 if i - 1 > 3 and tokens[i - 1] not in ("with", "and") else i
        return [*tokens[:verb], *tokens[i + 4 :]]
    return tokens


def which_single(tokens: list[str]) -> list[str]:
    """ "which single month saw the most murders" -> "which month …": "single" after
    "which" only says one is wanted, as "which" already does; "which month and year" is
    one month of one year, as "which month" is read."""
    if tokens[1:2] == ["single"] and tokens[:1] in (["which"], ["what"]) and len(tokens) > 3:
        return [tokens[0], *tokens[2:]]
    if tokens[:1] in (["which"], ["what"]) and tokens[1:4] in (
        ["month", "and", "year"],
        ["year", "and", "month"],
    ):
        return [tokens[0], "month", *tokens[4:]]  # "which month and year": a month of a year
    return tokens


_LEADING_SCOPE = re.compile(
    r"^\s*(among|amongst|of|for|within|in)\s+([^,?]+?),\s*"
    r"((?:which|what|who|how|when|where)\b[^?]*?)\s*(\?*)\s*$",
    re.IGNORECASE,
)


def scope_said_first(question: str) -> str:
    """ "Among women, which rank has the highest average salary?" -> "which rank has the
    highest average salary among women?": the rows a question is about, said before the
    question, read where the question's own filters are read (after it)."""
    found = _LEADING_SCOPE.match(question)
    if found is None:
        return question
    lead, scope, asked, mark = found.groups()
    lead = "among" if lead.lower() in ("of", "amongst") else lead
    return f"{asked} {lead} {scope}{mark}"


_YES_NO_LEADS = frozenset({"is", "are", "was", "were", "do", "does", "did"})


def compared_either_way(tokens: list[str]) -> list[str]:
    """ "Is the average salary higher in discipline A or B?" -> "compare the average salary in
    discipline A or B": a yes/no question between two is answered by both figures, side by
    side (which is higher is then plain); never a yes or no alone."""
    if tokens[:1] == [] or tokens[0] not in _YES_NO_LEADS or "or" not in tokens:
        return tokens
    at = next((i for i, t in enumerate(tokens) if t in _COMPARED), None)
    if at is None or at < 2 or "than" in tokens:
        return tokens
    if not set(tokens) & _FIGURE_NAMED:
        return tokens  # "are salaries higher for men or women": which figure is not said
    return ["compare", *tokens[1:at], *tokens[at + 1 :]]


# An aggregate said: the figure a comparison between two is made of
_FIGURE_NAMED = frozenset(
    {"average", "mean", "median", "total", "typical", "maximum", "minimum"}
    | {"rate", "share", "percentage", "proportion"}  # "is the death rate higher for men …"
)


def breakdown_of(tokens: list[str], lex: Lexicon) -> list[str]:
    """ "What is the gender breakdown of full professors?" -> "how many full professors by
    gender": a breakdown named by a column is a count of the rows in each of its values."""
    for i in range(1, len(tokens) - 2):
        if tokens[i] not in ("breakdown", "split", "distribution") or tokens[i + 1] != "of":
            continue
        named = [t for t in lex.lookup(tokens[i - 1 : i]) if t.kind == "column"]
        if named and not any(is_numeric(t.type) for t in named):
            return ["how", "many", *tokens[i + 2 :], "by", tokens[i - 1]]
    return tokens


def on_average_last(tokens: list[str]) -> list[str]:
    """ "the price per carat on average by cut" -> "the price per carat by cut on average":
    "on average" said of the figure before a grouping or a filter, read where it ends the
    question."""
    for i in range(1, len(tokens) - 2):
        if tokens[i : i + 2] == ["on", "average"] and tokens[i + 2] in (
            "by",
            "for",
            "in",
            "across",
        ):
            return [*tokens[:i], *tokens[i + 2 :], "on", "average"]
    return tokens


def among_the_groups(tokens: list[str]) -> list[str]:
    """ "among movies, which five have the highest rating" -> "which five movies have the
    highest rating": the things named after "among" are what "which" picks from (said first,
    or last where the scope was moved to the end)."""
    if tokens[:1] == ["among"] and "which" in tokens:
        cut = tokens.index("which")
        things, rest = tokens[1:cut], tokens[cut:]
    elif tokens[:1] == ["which"] and "among" in tokens:
        cut = tokens.index("among")
        things, rest = tokens[cut + 1 :], tokens[:cut]
    else:
        return tokens
    things = [t for t in things if t not in ("the", "all")]
    if not things or len(things) > 3:
        return tokens
    after = 2 if len(rest) > 1 and to_number(rest[1]) is not None else 1  # "which five"
    return [*rest[:after], *things, *rest[after:]]


# Nouns of a group of people said in the singular: "more female faculty" counts them.
_COLLECTIVES = frozenset({"faculty", "staff", "personnel", "crew", "people", "workforce"})


def _counted_noun(word: str) -> bool:
    """A plural noun, or a noun for a group of people ("faculty"): what "more" counts."""
    return is_noun(word) and (stem(word) != word or word in _COLLECTIVES)


def for_the_groups(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "for publishers, what's the average price" -> "for each publishers, …": a plural
    naming a text column after a leading "for" asks for each of them ("for women", a
    value, keeps only them and is no grouping)."""
    for i in range(len(tokens) - 1):
        if tokens[i] != "for" or stem(tokens[i + 1]) == tokens[i + 1]:
            continue
        if i not in (0, len(tokens) - 2):
            continue  # said first, or last where the scope was moved to the end
        named = [t for t in lexicon.lookup(tokens[i + 1 : i + 2]) if t.kind == "column"]
        if named and all(not is_numeric(t.type) for t in named):
            return [*tokens[: i + 1], "each", *tokens[i + 1 :]]
    return tokens


def which_has_more(tokens: list[str]) -> list[str]:
    """ "which discipline has more professors" -> "… has the most professors": of the groups,
    the one with the most; "more … than" stays a comparison."""
    if tokens[:1] not in (["which"], ["who"]) or "than" in tokens:
        return tokens
    for i in range(2, len(tokens) - 1):
        word, after = tokens[i], tokens[i + 1]
        # "more female faculty": the things counted may come after a word qualifying them
        counted = [w for w in tokens[i + 1 : i + 3] if _counted_noun(w)]
        if word in ("more", "fewer") and counted and (_counted_noun(after) or len(counted) == 1):
            ranked = "most" if word == "more" else "fewest"
            lead = [] if tokens[i - 1] == "the" else ["the"]
            return [*tokens[:i], *lead, ranked, *tokens[i + 1 :]]
    return tokens


def said_twice(tokens: list[str]) -> list[str]:
    """ "the average close in 2000 with the average close in 2010" -> "the average close in
    2000 and 2010": a figure named again for a second year is one figure for both years."""
    years = [i for i, t in enumerate(tokens) if is_year(t)]
    for first, second in pairwise(years):
        joint = next(
            (
                j
                for j in range(first + 1, second)
                if tokens[j] in ("with", "and", "to", "vs", "versus")
            ),
            None,
        )
        if joint is None or tokens[first - 1] != "in" or tokens[second - 1] != "in":
            continue
        again = [t for t in tokens[joint + 1 : second - 1] if t != "the"]
        before = [t for t in tokens[: first - 1] if t != "the"]
        if again and before[-len(again) :] == again:
            return [*tokens[: first + 1], "and", *tokens[second:]]
    return tokens


_SAYS_MISSING = frozenset({"missing", "lacking", "pending", "outstanding", "remaining"})


def qualifier_of_a_number(
    tokens: list[str], lexicon: Lexicon, values: list[ValueMatch]
) -> tuple[list[str], str]:
    """ "the total trading volume" over `volume`: an -ing word the data names nothing with
    (no column, table or value), right before the name of one numeric column, only says what
    kind of figure it is. Dropped, and said."""
    for i, token in enumerate(tokens[:-1]):
        if not token.endswith("ing") or len(token) < 6 or lexicon.lookup([token]):
            continue
        if token in GLUE_WORDS | _SAYS_MISSING or verb_root(token) is None:
            continue  # "missing salary" is said of the value, never a kind of salary
        if any(token in v.word.lower().split() for v in values):
            continue
        named = [t for t in lexicon.lookup(tokens[i + 1 : i + 2]) if t.kind == "column"]
        if len(named) == 1 and is_numeric(named[0].type) and not lexicon.lookup(tokens[i : i + 2]):
            return [
                *tokens[:i],
                *tokens[i + 1 :],
            ], f"'{token} {tokens[i + 1]}' read as {named[0].column}"
    return tokens, ""


# Verbs of having a thing counted or measured by a column: "houses that have a fireplace".
HAVE_VERBS = frozenset(
    {"have", "has", "had", "with", "contain", "contains", "include", "includes", "included"}
)


# Superlatives of a loss, which rank its figure the other way: "the largest loss".
_LARGEST = frozenset({"largest", "biggest", "greatest", "highest", "worst", "most"})


# How a candidate's share of the votes is said, the words dropped where a column named for
# the candidate holds it ("Trump's vote share", "60 percent of the vote"): longest first.
_VOTE_SHARES = (
    ("percent", "of", "the", "vote"),  # the column's own unit: "more than 60 percent …"
    ("percentage", "of", "the", "vote"),
    ("share", "of", "the", "vote"),
    ("share", "of", "the", "votes"),
    ("vote", "share"),
    ("of", "the", "vote"),  # "more than 60 percent of the vote": the unit stays
)


_SAID_AFTER_NAME = frozenset(
    {"average", "mean", "median", "total", "highest", "lowest", "maximum", "minimum"}
)


def shares_of_the_vote(tokens: list[str], lexicon: Lexicon) -> tuple[list[str], str]:
    """ "Trump's vote share", "more than 60 percent of the vote": where the question names
    one numeric column (the candidate's `trump`), the share of the vote is that column's
    own figure; the words say only what it is. Said."""
    named = [
        t
        for t in tokens
        if any(c.kind == "column" and is_numeric(c.type) for c in lexicon.lookup([t]))
    ]
    if len(set(named)) != 1:
        return tokens, ""
    for phrase in _VOTE_SHARES:
        for i in range(len(tokens) - len(phrase) + 1):
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                read = [*tokens[:i], *tokens[i + len(phrase) :]]
                if i >= 2 and read[i - 2] == named[0] and read[i - 1] in _SAID_AFTER_NAME:
                    # "Trump's average vote share": the average of Trump's figure
                    read[i - 2], read[i - 1] = read[i - 1], read[i - 2]
                return read, f"'{' '.join(phrase)}' read as {named[0]}'s own figure"
    return tokens, ""


# Superlatives of time itself: "when was the latest tweet" asks for a date, not a ranking
_MOMENTS = frozenset({"first", "earliest", "last", "latest", "newest", "recent"})


def moment_of_rows(tokens: list[str], lexicon: Lexicon, catalog: Catalog) -> tuple[list[str], str]:
    """ "the earliest tweet" -> "the earliest created at" over a table whose one date column
    is `created_at`: the first (or last) of the rows is when they were made. Said."""
    for i, word in enumerate(tokens[:-1]):
        if word not in _MOMENTS or (word == "first" and tokens[i + 1].isdigit()):
            continue
        named = lexicon.lookup(tokens[i + 1 : i + 2])
        if not named or any(t.kind != "table" for t in named) or len(named) != 1:
            continue
        info = catalog.table(named[0].table)
        dates = [c for c in info.columns if is_temporal(c.type)] if info is not None else []
        if len(dates) == 1:
            said = f"'{word} {tokens[i + 1]}' read as the {word} {dates[0].name}"
            return [*tokens[: i + 1], *identifier_words(dates[0].name), *tokens[i + 2 :]], said
    return tokens, ""


_PEAKS = {"peak": "highest", "peaked": "highest", "top": "highest", "bottom": "lowest"}
_EXTREMES = {
    "peak": "highest",
    "high": "highest",
    "maximum": "highest",
    "max": "highest",
    "low": "lowest",
    "minimum": "lowest",
    "min": "lowest",
}


def the_peak(tokens: list[str]) -> list[str]:
    """ "the peak number of unemployed people" -> "the highest number of unemployed
    people": "peak" as an adjective before the figure is its highest."""
    for i in range(1, len(tokens) - 1):
        if tokens[i] == "peak" and tokens[i - 1] in ("the", "its", "their", "a"):
            after = tokens[i + 1 : i + 3]
            rest = tokens[i + 3 :] if after in (["number", "of"], ["level", "of"]) else None
            if rest is not None:
                return [*tokens[:i], "highest", *rest]
            return [*tokens[:i], "highest", *tokens[i + 1 :]]
    return tokens


def peaked(tokens: list[str]) -> list[str]:
    """ "When did unemployment peak?" -> "when was unemployment highest"; "when did the
    savings rate reach its lowest point" -> "… was the savings rate lowest": a verb of
    reaching an extreme asks when the figure was at it."""
    did = _when_did(tokens)
    if did is None or len(tokens) < did + 3:
        return tokens
    when = tokens[:did]  # "when", or "in which month" (the question's own time)
    if tokens[-1] in _PEAKS:  # "when did unemployment peak"
        return [*when, "was", *tokens[did + 1 : -1], _PEAKS[tokens[-1]]]
    if tokens[-2:] == ["bottom", "out"]:
        return [*when, "was", *tokens[did + 1 : -2], "lowest"]
    for i in range(did + 2, len(tokens) - 1):
        if tokens[i] not in ("reach", "hit"):
            continue
        rest = tokens[i + 1 :]
        rest = rest[1:] if rest[:1] in (["its"], ["a"], ["an"], ["the"], ["their"]) else rest
        if rest[-1:] in (["point"], ["level"], ["value"]):
            rest = rest[:-1]
        if len(rest) == 1 and (rest[0] in _EXTREMES or superlative_direction(rest[0]) is not None):
            extreme = _EXTREMES.get(rest[0], rest[0])
            return [*when, "was", *tokens[did + 1 : i], extreme]
        if len(rest) > 1 and rest[0] in _EXTREMES:
            # "when did Katrina reach its peak wind speed": when its wind speed was highest
            return [*when, "was", *tokens[did + 1 : i], *rest[1:], _EXTREMES[rest[0]]]
    return tokens


# Verbs of a figure passing a level, and the comparison each makes
_CROSSINGS: dict[tuple[str, ...], str] = {
    **{(v,): "above" for v in ("exceed", "pass", "surpass", "top", "cross", "break")},
    **{(v, w): "above" for v in ("go", "rise", "climb", "jump") for w in ("over", "above")},
    **{(v, w): "below" for v in ("fall", "drop", "go", "dip", "sink") for w in ("below", "under")},
    ("reach",): "at least",
    ("hit",): "at least",
}


def first_crossing(tokens: list[str]) -> list[str]:
    """ "In what year did the population first go over 100 million?" -> "what was the first
    year with the population above 100 million"; "when did deaths first exceed 500" -> "…
    the first date with deaths above 500": the earliest time the figure passed the level."""
    did = _when_did(tokens)
    if did is None:
        return _first_at_a_level(tokens)
    if "first" not in tokens[did:]:
        return tokens
    first = tokens.index("first", did)
    for verb, op in _CROSSINGS.items():
        said = tokens[first + 1 : first + 1 + len(verb)]
        if [verb_root(w) or w for w in said] != list(verb):
            continue
        when = tokens[did - 1] if tokens[:1] != ["when"] else "date"
        subject, rest = tokens[did + 1 : first], tokens[first + 1 + len(verb) :]
        if set(subject) & _PERIODIC:
            return tokens  # "daily deaths": each row's, or each day's total? Left as asked
        return ["what", "was", "the", "first", when, "with", *subject, *op.split(), *rest]
    return tokens


_PERIODIC = frozenset({"daily", "weekly", "monthly", "yearly", "annual", "quarterly"})


# Levels said right after "first" with no verb: "first above 10,000"
_LEVELS: dict[tuple[str, ...], str] = {
    ("above",): "above",
    ("over",): "above",
    ("below",): "below",
    ("under",): "below",
    ("more", "than"): "above",
    ("less", "than"): "below",
}


def _first_at_a_level(tokens: list[str]) -> list[str]:
    """ "in which year was spending first above 10,000" -> "what was the first year with
    spending above 10,000": the level said with no verb of crossing it."""
    was = _when_did(tokens, verbs=("was", "were"))
    if was is None or "first" not in tokens[was:]:
        return tokens
    first = tokens.index("first", was)
    for words, op in _LEVELS.items():
        if tuple(tokens[first + 1 : first + 1 + len(words)]) != words:
            continue
        when = tokens[was - 1] if tokens[:1] != ["when"] else "date"
        subject, rest = tokens[was + 1 : first], tokens[first + 1 + len(words) :]
        if set(subject) & _PERIODIC:
            return tokens  # "daily deaths": each row's, or each day's total? Left as asked
        return ["what", "was", "the", "first", when, "with", *subject, op, *rest]
    return tokens


def _when_did(tokens: list[str], verbs: tuple[str, ...] = ("did",)) -> int | None:
    """Where "did" (or one of `verbs`) stands after "when", "in which month", "what year"
    (a question asking for a time), or None."""
    for when in (["when"], ["in", "which"], ["in", "what"], ["which"], ["what"]):
        at = len(when)
        if tokens[:at] != when:
            continue
        if when != ["when"]:
            if tokens[at : at + 1] not in (["month"], ["year"], ["decade"], ["day"], ["week"]):
                continue
            at += 1
        return at if tokens[at : at + 1] and tokens[at] in verbs else None
    return None


_PAIRED_ENDS = {
    "minimum": "minimum",
    "min": "minimum",
    "lowest": "minimum",
    "smallest": "minimum",
    "maximum": "maximum",
    "max": "maximum",
    "highest": "maximum",
    "largest": "maximum",
    "average": "average",
    "mean": "average",
    "median": "median",
    "total": "total",
}


def paired_figures(tokens: list[str], lexicon: Lexicon) -> tuple[list[str], str]:
    """ "the minimum and maximum salary" -> "the minimum salary and maximum salary": two
    figures of one column said together, each its own; "the salary range", "the range of
    salaries" -> the lowest and the highest, said."""
    for i in range(len(tokens) - 3):
        first, join, second = tokens[i : i + 3]
        if join not in ("and", "or") or first not in _PAIRED_ENDS or second not in _PAIRED_ENDS:
            continue
        if _PAIRED_ENDS[first] == _PAIRED_ENDS[second]:
            continue
        size = _column_said(tokens, i + 3, lexicon)
        if size:
            named = tokens[i + 3 : i + 3 + size]
            pair = [_PAIRED_ENDS[first], *named, "and", _PAIRED_ENDS[second], *named]
            return [*tokens[:i], *pair, *tokens[i + 3 + size :]], ""
    for i, word in enumerate(tokens):
        if word != "range" or (i > 0 and tokens[i - 1] in ("interquartile", "age")):
            continue
        after = i + 2 if tokens[i + 1 : i + 2] == ["of"] else 0
        size = _column_said(tokens, after, lexicon) if after else 0
        start, end = (after, after + size) if size else (0, 0)
        if not size:  # "the salary range": the column's name before the word
            size = next(
                (n for n in (3, 2, 1) if i - n >= 0 and _column_said(tokens, i - n, lexicon) == n),
                0,
            )
            start, end = i - size, i
        if size:
            named = tokens[start:end]
            pair = ["minimum", *named, "and", "maximum", *named]
            head, tail = min(start, i), max(end, i + 1)
            said = f"'{' '.join(tokens[head:tail])}' read as the lowest and the highest"
            return [*tokens[:head], *pair, *tokens[tail:]], said
    return tokens, ""


def _column_said(tokens: list[str], at: int, lexicon: Lexicon) -> int:
    """How many words from `at` name one numeric column (3, 2 or 1), else 0."""
    for size in (3, 2, 1):
        named = lexicon.lookup(tokens[at : at + size]) if at + size <= len(tokens) else []
        if any(t.kind in ("column", "metric") and is_numeric(t.type or "") for t in named):
            return size
    return 0


_VARIES = frozenset({"vary", "varies", "differ", "differs", "change", "changes"})


def varies_with(tokens: list[str]) -> tuple[list[str], str]:
    """ "How does average salary vary with years of service?" -> "average salary by years of
    service": a figure said to vary with, by or across something is grouped by it."""
    if tokens[:2] not in (["how", "does"], ["how", "do"], ["how", "did"]):
        return tokens, ""
    for i in range(3, len(tokens) - 2):
        if tokens[i] in _VARIES and tokens[i + 1] in ("with", "by", "across", "between"):
            rest = tokens[i + 2 :]
            if tokens[i + 1] == "between" and not any(w.isalpha() for w in rest[:1]):
                return tokens, ""  # "change between 1970 and 2010": two times, no grouping
            figure = tokens[2:i]
            if set(figure) & FIGURE_WORDS:
                return [*figure, "by", *rest], ""
            # "how does salary vary by rank": how it varies is told by its mean, said
            said = f"'{' '.join(figure)} {tokens[i]}' read as the average {' '.join(figure)}"
            return ["average", *figure, "by", *rest], said
    return tokens, ""


# Words that say which figure is meant ("the average salary", "the gap in average salary")
FIGURE_WORDS = frozenset(
    {"average", "mean", "median", "total", "sum", "number", "count", "maximum", "minimum"}
    | {"share", "percentage", "proportion", "rate", "many", "much"}
)


_TIME_UNITS = frozenset({"hours", "hour", "minutes", "minute", "hrs", "hr", "mins"})


def per_day_said(tokens: list[str]) -> list[str]:
    """ "sleep more than 15 hours a day" -> "… 15 hours": hours said per day of a figure
    already kept per day; the "a day" adds no condition."""
    for i in range(1, len(tokens) - 2):
        if (
            to_number(tokens[i - 1]) is not None
            and tokens[i] in _TIME_UNITS
            and tokens[i + 1 : i + 3] in (["a", "day"], ["per", "day"], ["each", "day"])
        ):
            return [*tokens[: i + 1], *tokens[i + 3 :]]
    return tokens


_CHANGE_VERBS = frozenset(
    {"change", "changed", "grow", "grew", "rise", "rose", "fall", "fell", "increase"}
    | {"increased", "decrease", "decreased", "evolve", "evolved", "develop", "developed"}
)


def change_between(tokens: list[str]) -> tuple[list[str], str, bool]:
    """ "How did unemployment change from 2007 to 2010?" -> "compare unemployment in 2007
    and 2010": the figure at each end, side by side, said (how it changed is read from the
    two). "How much did it grow …", "by how much …" ask the change itself: the later end is
    said first, and True says the difference of the two is asked."""
    if tokens[:3] == ["by", "how", "much"]:
        tokens = tokens[1:]

    if tokens[:1] != ["how"] or len(tokens) < 7:
        return tokens, "", False
    lead = 3 if tokens[1] == "much" and tokens[2] in ("did", "has", "have") else 2
    if tokens[lead - 1] not in ("did", "has", "have", "does"):
        return tokens, "", False
    verb = next((i for i in range(lead, len(tokens)) if tokens[i] in _CHANGE_VERBS), None)
    if verb is None or verb == lead or verb + 4 > len(tokens):
        return tokens, "", False
    start, join = tokens[verb + 1], tokens[verb + 3]
    first, second = tokens[verb + 2], tokens[verb + 4] if verb + 4 < len(tokens) else ""
    ends = (("from", "to"), ("between", "and"))
    if (start, join) not in ends or not (_a_year(first) and _a_year(second)):
        return tokens, "", False
    subject, rest = tokens[lead:verb], tokens[verb + 5 :]
    named = " ".join(subject).removeprefix("the ")
    said = f"'{tokens[verb]}' read as the {named} in {first} and in {second}"
    if lead == 3:  # "how much": the later end first, so the difference is later minus earlier
        said = f"'{tokens[verb]}' read as the {named} in {second} minus in {first}"
        return ["compare", *subject, "in", second, "and", first, *rest], said, True
    return ["compare", *subject, "in", first, "and", second, *rest], said, False


def percent_change_asked(tokens: list[str]) -> bool:
    """ "By what percentage did …", "by what percent has …": a change asked as a percentage."""
    return tokens[:3] in (["by", "what", "percentage"], ["by", "what", "percent"]) and tokens[
        3:4
    ] in (["did"], ["has"], ["have"])


_TIMES_WORDS = frozenset({"larger", "bigger", "higher", "greater", "more"})


def times_as_many(tokens: list[str]) -> list[str] | None:
    """ "How many times more men than women are there?" -> "how many men and women" (the
    caller divides the first count by the second); None for any other wording."""
    if tokens[:4] not in (["how", "many", "times", "more"], ["how", "many", "times", "as"]):
        return None
    rest = tokens[4:]
    if rest[:1] == ["many"]:  # "how many times as many men as women"
        rest = rest[1:]
    joint = "than" if "than" in rest else "as" if "as" in rest else None
    if joint is None:
        return None
    at = rest.index(joint)
    first, second = rest[:at], rest[at + 1 :]
    while second[-2:] in (["are", "there"], ["were", "there"], ["is", "there"]):
        second = second[:-2]
    if not first or not second:
        return None
    return ["how", "many", *first, "and", *second]


def but_between_limits(tokens: list[str]) -> list[str]:
    """ "at least 10 but fewer than 20 years" -> "… at least 10 and fewer than 20 years": a
    "but" joining two limits of one range joins them as "and" does."""
    limits = ("fewer", "less", "more", "under", "over", "below", "above", "at", "no")
    tokens = [
        "and" if t == "but" and 0 < i < len(tokens) - 1 and tokens[i + 1] in limits else t
        for i, t in enumerate(tokens)
    ]
    # "at least 10 and fewer than 20 years of service": the unit and name said once, after
    # the second number, are the first number's too
    for i in range(1, len(tokens) - 3):
        if tokens[i] != "and" or to_number(tokens[i - 1]) is None or tokens[i + 1] not in limits:
            continue
        second = next(
            (j for j in range(i + 2, min(i + 5, len(tokens))) if to_number(tokens[j]) is not None),
            None,
        )
        if second is None:
            continue
        named = []
        for word in tokens[second + 1 :]:
            if word in ("in", "for", "by", "and", "or", "who", "that", "with"):
                break
            named.append(word)
        if named:
            return [*tokens[:i], *named, *tokens[i:]]
    return tokens


def rank_by(tokens: list[str]) -> list[str]:
    """ "Rank the disciplines by median salary" -> "median salary by the disciplines": the
    figure for each, ranked (a breakdown shows the highest first)."""
    if tokens[:1] not in (["rank"], ["order"], ["sort"]) or "by" not in tokens[2:]:
        return tokens
    at = tokens.index("by", 2)
    things, figure = tokens[1:at], tokens[at + 1 :]
    return [*figure, "by", *things] if things and figure else tokens


def times_larger(tokens: list[str]) -> list[str] | None:
    """ "How many times larger was real GDP in 2000 than in 1950?" -> "by how much did real
    GDP change from 1950 to 2000" (the caller divides instead): None for any other wording."""
    if tokens[:3] != ["how", "many", "times"] or tokens[3:4] == [] or tokens[3] not in _TIMES_WORDS:
        return None
    if tokens[4:5] not in (["was"], ["is"], ["were"], ["are"]):
        return None
    rest = tokens[5:]
    years = [i for i, t in enumerate(rest) if _a_year(t)]
    if len(years) != 2 or "than" not in rest[years[0] : years[1]]:
        return None
    later, earlier = rest[years[0]], rest[years[1]]
    subject = rest[: years[0]]
    if subject[-1:] == ["in"]:  # "GDP per capita in 2000": the year's own "in"
        subject = subject[:-1]
    return ["by", "how", "much", "did", *subject, "change", "from", earlier, "to", later]


def _a_year(token: str) -> bool:
    return bool(re.fullmatch(r"(1[89]|20)\d\d", token))


def the_number_of_them(tokens: list[str]) -> list[str]:
    """ "which of the three party leaders …" -> "which party leaders …", "compare the three
    tea prices" -> "compare the tea prices": a number saying how many there are, never how
    many to keep (that is "the top three")."""
    if tokens[:3] == ["which", "of", "the"] and _a_few(tokens[3:4]):
        return ["which", *tokens[4:]]
    if tokens[:2] == ["compare", "the"] and _a_few(tokens[2:3]):
        return ["compare", "the", *tokens[3:]]
    return tokens


def _a_few(words: list[str]) -> bool:
    n = to_number(words[0]) if words else None
    return isinstance(n, int) and 1 < n <= 12


_REPEATED_PREPOSITIONS = frozenset({"in", "on", "at", "for", "during", "from"})


def preposition_said_once(tokens: list[str]) -> list[str]:
    """ "in May or in September" -> "in May or September": one preposition for both values,
    so they read as one choice of two, never two conditions every row must meet."""
    kept = list(tokens)
    i = 2
    while i + 2 < len(kept):
        if (
            kept[i] in ("or", "and")
            and kept[i + 1] in _REPEATED_PREPOSITIONS
            and kept[i - 2] == kept[i + 1]
        ):
            del kept[i + 1]
        i += 1
    return kept


_AFTER_THE_SECOND = frozenset({"on", "in", "during", "per", "for", "at", "from"})


def how_much_more(tokens: list[str]) -> list[str]:
    """ "how much more do male professors earn than female professors on average" -> "what
    is the difference between what male professors and female professors earn on average":
    the first one's figure minus the second's, named so ("how much less" reads the same:
    the first one's figure minus the second's, below zero when it is less)."""
    if tokens[:2] != ["how", "much"] or tokens[2:3] not in (["more"], ["less"]):
        return tokens
    if tokens[3:4] not in (["do"], ["does"], ["did"]) or "than" not in tokens[5:]:
        return tokens
    than = tokens.index("than", 5)
    first, verb = tokens[4 : than - 1], tokens[than - 1]
    end = next((i for i in range(than + 1, len(tokens)) if tokens[i] in _AFTER_THE_SECOND), None)
    second = tokens[than + 1 : end]
    rest = tokens[end:] if end is not None else []
    if not first or not second:
        return tokens
    if second[:1] == ["those"] and len(first) > 1:
        # "professors in B … than those in A": the same things, another value
        head = next((w for w in first if stem(w) != w), first[0])
        second = [head, *second[1:]]
    if not set(tokens) & _FIGURE_NAMED:
        # no figure said: each one's average, the only one two groups of any size share
        rest = [*rest, "on", "average"]
    between = ["what", "is", "the", "difference", "between", "what"]
    return [*between, *first, "and", *second, verb, *rest]


def each_combination(tokens: list[str]) -> list[str]:
    """ "for each combination of rank and sex" -> "for each rank and sex"; "which combination
    of cut and color has …" -> "which cut and color has …"."""
    if tokens[:3] in (["which", "combination", "of"], ["what", "combination", "of"]):
        return [tokens[0], *tokens[3:]]
    for i in range(len(tokens) - 2):
        kind = tokens[i] in ("combination", "combinations", "pair") and tokens[i + 1] == "of"
        if kind and i > 0 and tokens[i - 1] in ("each", "every", "per", "by"):
            return [*tokens[:i], *tokens[i + 2 :]]
    return tokens


# How wide a range is said: True for the widest, False for the narrowest
_RANGE_SIZES = {
    **dict.fromkeys(("widest", "broadest", "largest", "biggest", "greatest"), True),
    **dict.fromkeys(("narrowest", "smallest"), False),
}


def widest_range(tokens: list[str], lex: Lexicon) -> list[str]:
    """ "which rank has the widest range of salaries" -> "… the highest spread of salaries"
    (the largest minus the smallest); "which maker has the widest range of models" -> "… the
    most distinct models" (how many kinds it has)."""
    for i in range(len(tokens) - 3):
        wide = _RANGE_SIZES.get(tokens[i])
        if (
            wide is None
            or tokens[i + 1] not in ("range", "variety", "spread")
            or tokens[i + 2] != "of"
        ):
            continue
        named = [t for t in lex.lookup(tokens[i + 3 : i + 4]) if t.kind == "column"]
        if named and all(is_numeric(t.type) for t in named) and tokens[i + 1] != "variety":
            return [*tokens[:i], "highest" if wide else "lowest", "spread", "of", *tokens[i + 3 :]]
        if named and not any(is_numeric(t.type) for t in named):
            return [*tokens[:i], "most" if wide else "fewest", "distinct", *tokens[i + 3 :]]
    return tokens


def done_to_the_most(tokens: list[str], lex: Lexicon) -> list[str]:
    """ "which user has rated the most movies" -> "… has the most movies": the things ranked
    by how many there are are the rows; the verb (`rated`) says what was done to each, never
    the figure (`rating`) it shares a root with."""
    if tokens[:2] == ["how", "many"]:
        # "how many people have rated movies": what every counted one did to the rows
        # (`rated` is no figure here, the `rating`s are not counted)
        for i in range(3, len(tokens) - 1):
            if not is_verb(tokens[i]) or tokens[i] in _AUXILIARIES or i + 2 != len(tokens):
                continue
            if verb_root(tokens[i]) in (None, tokens[i]):
                continue  # "were traffic stops": a bare word that is also a verb is no deed
            named = lex.lookup(tokens[i + 1 : i + 2])
            rows = stem(tokens[i + 1]) != tokens[i + 1]
            # the rows, or the things the rows are about, told by their id (`movieId`)
            things = all(t.kind == "table" or is_key(t.column or "") for t in named)
            if named and things and rows:
                return tokens[:i]
    for i in range(1, len(tokens) - 3):
        ranked = tokens[i + 1 : i + 3] in (["the", "most"], ["the", "fewest"])
        if not ranked or not is_verb(tokens[i]) or tokens[i] in _AUXILIARIES:
            continue
        if not any(t.kind == "column" for t in lex.lookup(tokens[i : i + 1])):
            continue  # "approved the most loans": a verb naming nothing stays, and is asked
        named = lex.lookup(tokens[i + 3 : i + 4])
        things = all(t.kind == "table" or is_key(t.column or "") for t in named)
        if named and things and stem(tokens[i + 3]) != tokens[i + 3]:
            return [*tokens[:i], *tokens[i + 1 :]]
    return tokens


def done_the_most_times(tokens: list[str], lex: Lexicon) -> list[str]:
    """ "which journal has been cited the most" -> "which journal has the most citations":
    a verb whose deeds a number column counts (vocabulary `counted_by_verb`), ranked."""
    for i in range(1, len(tokens) - 2):
        noun = counted_by_verb().get(tokens[i])
        ranked = tokens[i + 1 : i + 3] in (["the", "most"], ["the", "fewest"], ["the", "least"])
        if noun is None or not ranked or i + 3 != len(tokens) or lex.lookup(tokens[i : i + 1]):
            continue
        if any(t.kind == "column" and is_numeric(t.type) for t in lex.lookup([noun])):
            head = tokens[:i]
            while head and head[-1] in ("been", "was", "were", "is", "are", "being"):
                head = head[:-1]
            return [*head, *tokens[i + 1 : i + 3], noun]
    return tokens


def the_average_one(tokens: list[str]) -> list[str]:
    """ "How many years of service does the average professor have?" -> "average years of
    service of professor": the typical one's figure is the figure averaged over them."""
    if tokens[:2] != ["how", "many"]:
        return tokens
    for i in range(3, len(tokens) - 3):
        if tokens[i] in ("does", "do", "did") and tokens[i + 1 : i + 3] in (
            ["the", "average"],
            ["an", "average"],
            ["a", "typical"],
            ["the", "typical"],
        ):
            tail = [t for t in tokens[i + 3 :] if t not in ("have", "has", "had", "get", "got")]
            return ["average", *tokens[2:i], "of", *tail]
    return tokens


_WHOLE_SPANS = frozenset({"period", "time", "data", "dataset", "series", "sample", "range"})


_BEFORE_A_YEAR = frozenset(
    {"compare", "the", "total", "show", "list", "their", "its", "his", "her", "what", "were"}
)


def total_number_of(tokens: list[str]) -> list[str]:
    """ "the total number of episodes" -> "the number of episodes": "number of" already
    asks for the whole count; "total" would add up the episodes' numbers instead."""
    for i in range(len(tokens) - 2):
        if tokens[i] in ("total", "overall") and tokens[i + 1 : i + 3] in (
            ["number", "of"],
            ["count", "of"],
        ):
            return [*tokens[:i], *tokens[i + 1 :]]
    return tokens


def year_before_a_figure(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "compare 2010 takings in NT and Tasmania" -> "compare takings in NT and Tasmania in
    2010": a year said as the figure's adjective, right before a number column's name, is
    the period of the figure."""
    for i in range(1, len(tokens) - 1):
        year = tokens[i]
        if not (len(year) == 4 and year.isdigit() and 1800 <= int(year) <= 2100):
            continue
        named = [t for t in lexicon.lookup(tokens[i + 1 : i + 2]) if t.kind == "column"]
        if tokens[i - 1] in _BEFORE_A_YEAR and named and all(is_numeric(t.type) for t in named):
            return [*tokens[:i], *tokens[i + 1 :], "in", year]
    return tokens


def over_the_whole_period(tokens: list[str]) -> list[str]:
    """ "the most takings over the whole period" -> "the most takings": every row the data
    holds is what is read anyway. "over/across/during/for (the) whole/entire period"."""
    for i in range(len(tokens) - 3):
        if tokens[i] not in ("over", "across", "during", "for", "in", "throughout"):
            continue
        at = i + 1 + (tokens[i + 1] == "the")
        whole = tokens[at : at + 1] in (["whole"], ["entire"], ["full"])
        if whole and tokens[at + 1 : at + 2] and tokens[at + 1] in _WHOLE_SPANS:
            return [*tokens[:i], *tokens[at + 2 :]]
    return tokens


def end_of_the_data(tokens: list[str]) -> list[str]:
    """ "the population in the last month of the data" -> "… in the latest month": the
    data's own last period, never the month before today."""
    for i in range(len(tokens) - 3):
        if (
            tokens[i] == "last"
            and tokens[i + 1] in ("month", "year", "day", "week", "quarter", "date")
            and tokens[i + 2] in ("of", "in")
            and tokens[i + 3 : i + 5] in (["the", "data"], ["the", "dataset"], ["the", "table"])
        ):
            return [*tokens[:i], "latest", tokens[i + 1], *tokens[i + 5 :]]
    return tokens


_PERIOD_EDGES = {"start": "earliest", "beginning": "earliest", "end": "latest"}


def edge_of_a_period(tokens: list[str]) -> list[str]:
    """ "What was the savings rate at the start of 2000?" -> "what was the earliest savings
    rate in 2000"; "… at the end of the data" -> "what was the latest …": the first (or last)
    reading of a period, never its extreme."""
    lead = tokens[:3]
    if lead not in (["what", "was", "the"], ["what", "is", "the"], ["what", "were", "the"]):
        return tokens
    for i in range(4, len(tokens) - 3):
        edge = _PERIOD_EDGES.get(tokens[i + 2]) if tokens[i : i + 2] == ["at", "the"] else None
        if edge is None or tokens[i + 3] != "of":
            continue
        period = tokens[i + 4 :]
        if period[:2] in (["the", "data"], ["the", "dataset"], ["the", "table"]):
            return [*lead, edge, *tokens[3:i], *period[2:]]
        return [*lead, edge, *tokens[3:i], "in", *period]
    return tokens


def first_period_dated(tokens: list[str], catalog: Catalog) -> list[str]:
    """ "the first month with unemployment above 15,000" over dated rows (no `month` column)
    -> "the first date with …": the earliest (or latest) date whose row meets it."""
    if not has_dates(catalog):
        return tokens
    own = {c.name.lower() for t in catalog.tables.values() for c in t.columns}
    for i in range(len(tokens) - 2):
        if tokens[i] not in ("first", "earliest", "last", "latest"):
            continue
        grain, after = tokens[i + 1], tokens[i + 2]
        if grain in ("month", "week", "day", "year") and grain not in own and after == "with":
            return [*tokens[: i + 1], "date", *tokens[i + 2 :]]
    return tokens


_CHANGE_NOUNS = frozenset({"growth", "increase", "change", "decline", "drop", "rise", "fall"})


def change_named(tokens: list[str]) -> list[str]:
    """ "What was the total population growth from 1967 to 2015?" -> "by how much did the
    population change from 1967 to 2015": a change named by its noun is the change asked."""
    for i in range(2, len(tokens) - 4):
        if tokens[i] not in _CHANGE_NOUNS:
            continue
        if (tokens[i + 1], tokens[i + 3]) not in (("from", "to"), ("between", "and")):
            continue
        if not (_a_year(tokens[i + 2]) and _a_year(tokens[i + 4])):
            continue
        start = next((j + 1 for j in range(i - 1, -1, -1) if tokens[j] in ("the", "of", "in")), 0)
        subject = [t for t in tokens[start:i] if t != "total"]
        if not subject or tokens[:1] != ["what"]:
            continue  # "how did unemployment change from …" is the verb: both ends shown
        verb = {"growth": "grow", "decline": "fall", "drop": "fall"}.get(tokens[i], tokens[i])
        return ["by", "how", "much", "did", *subject, verb, *tokens[i + 1 :]]
    return tokens


def common_number_of(tokens: list[str]) -> list[str]:
    """ "the most common number of cylinders" -> "the most common cylinders": how many is
    the column's own value, and the most common of its values is asked, not a count."""
    for i in range(1, len(tokens) - 2):
        if tokens[i] in ("common", "frequent", "usual", "typical") and tokens[i + 1 : i + 3] == [
            "number",
            "of",
        ]:
            return [*tokens[: i + 1], *tokens[i + 3 :]]
    return tokens


_CORRELATION_WORDS = frozenset({"correlation", "correlated", "correlate", "relationship"})


def correlation_asked(
    tokens: list[str], lexicon: Lexicon
) -> tuple[list[str], tuple[Target, Target] | None]:
    """ "What is the correlation between temperature and ozone in July?" -> "what is the
    average temperature in July?", with the pair (temperature, ozone) remembered: the rest of
    the question (its filters, its groups) parses as ever, and the figure becomes the two
    columns' correlation. None when the two words do not each name one number column."""
    at = next((i for i, t in enumerate(tokens) if t in _CORRELATION_WORDS), None)
    if at is None:
        return tokens, None
    start = at + 1 + (tokens[at + 1 : at + 2] in (["between"], ["of"], ["with"]))
    if tokens[start : start + 1] == ["the"]:
        start += 1
    ahead = range(start + 1, min(start + 5, len(tokens)))
    joined = next((j for j in ahead if tokens[j] == "and"), None)
    if joined is None and tokens[at] in ("correlated", "related") and at >= 2:
        # "is ozone correlated with temperature": the first before, the second after
        first = _one_number(tokens[1:at], lexicon)
        second = _one_number(tokens[start:], lexicon)
        if first is not None and second is not None and first != second:
            return ["what", "is", "the", "average", *tokens[1:at]], (first, second)
    if joined is None:
        return tokens, None
    first = _one_number(tokens[start:joined], lexicon)
    for size in (3, 2, 1):
        second = _one_number(tokens[joined + 1 : joined + 1 + size], lexicon)
        if second is not None and first is not None and second != first:
            rest = tokens[joined + 1 + size :]
            head = [t for t in tokens[:at] if t not in ("the", "a")]
            said = ["average", *tokens[start:joined]]
            return [*head, "the", *said, *rest], (first, second)
    return tokens, None


def _one_number(words: list[str], lexicon: Lexicon) -> Target | None:
    found = lexicon.lookup(words) if words else []
    if not found and words:
        # "years of service" for `yrs.service`: a name found by its abbreviation, once
        spans = find_spans(list(words), lexicon, set())
        whole = len(spans) == 1 and (spans[0].start, spans[0].end) == (0, len(words))
        found = list(spans[0].targets) if whole else []
    named = {t for t in found if t.kind == "column" and is_numeric(t.type)}
    return next(iter(named)) if len(named) == 1 else None


def when_ranked(tokens: list[str], catalog: Catalog) -> list[str]:
    """ "When was the savings rate at its lowest?" asks for the time of the extreme, never
    the extreme alone: read as "on which day …" where the data has dates, "in which year …"
    where it keeps years as numbers only."""
    if all(superlative_direction(t) is None for t in tokens[1:]):
        return tokens
    if (
        tokens[:2] in (["in", "which"], ["in", "what"])
        and tokens[2:3] in (["year"], ["month"], ["decade"])
        and tokens[3:4] in (["was"], ["were"], ["is"], ["are"])
        and len(tokens) > 5
        and superlative_direction(tokens[-1]) is not None
        and not has_dates(catalog)
    ):
        # "in which year were sales in Austin highest" over year and month numbers: the
        # year with the highest sales, as "which year had the highest sales in Austin" reads
        return ["which", tokens[2], "had", "the", tokens[-1], *tokens[4:-1]]
    days = any(rows_are_days(catalog, name) for name in catalog.tables)
    if days and tokens[:3] in (["on", "which", "day"], ["on", "what", "day"]):
        return tokens[1:]  # "on which day was ozone highest": the day rows, ranked
    if tokens[:1] != ["when"]:
        return tokens
    if set(tokens) & _MOMENTS:
        return ["what", *tokens[1:]]  # "when was the latest tweet": the latest date itself
    if days and not has_dates(catalog):
        # "when was the hottest day" over rows of Month and Day: the day, a row
        return ["which", "day", *tokens[1:]]
    if has_dates(catalog):
        return ["on", "which", "day", *tokens[1:]]
    years = any(
        c.name.lower() == "year" and is_numeric(c.type)
        for t in catalog.tables.values()
        for c in t.columns
    )
    return ["in", "which", "year", *tokens[1:]] if years else tokens


def seasons(tokens: list[str], catalog: Catalog) -> tuple[list[str], str]:
    """ "in the 1990/91 season" -> "in 1990": a season across two years is kept under the
    year it began, where the data keeps years as numbers only (no date column to say when a
    season ran). Said, so the answer is reviewed."""
    if has_dates(catalog):
        return tokens, ""
    for i in range(len(tokens) - 1):
        year, then = to_number(tokens[i]), tokens[i + 1]
        if not (isinstance(year, int) and 1800 <= year <= 2100 and then.isdigit()):
            continue
        if len(then) != 2 or int(then) != (year + 1) % 100:
            continue
        start = i - 1 if i > 0 and tokens[i - 1] == "the" else i
        end = i + 3 if i + 2 < len(tokens) and stem(tokens[i + 2]) == "season" else i + 2
        said = f"{year}/{then}"
        read = [*tokens[:start], str(year), *tokens[end:]]
        return read, f"the {said} season read as the year {year} (the year it began)"
    return tokens, ""


def losses_as_figures(tokens: list[str], lexicon: Lexicon) -> tuple[list[str], str]:
    """ "companies that made a loss" -> "… made profits below 0", "the largest loss" -> "the
    lowest profits": a word for a figure below zero (vocabulary `negatives`) where the data
    has no such column but exactly one numeric column named by what it negates. The reading
    is returned to be said; ("", tokens unchanged) otherwise. "The smallest loss" is left
    alone: the lowest figure above all the others below zero is not one superlative."""
    at = next((i for i, t in enumerate(tokens) if t in negatives()), None)
    if at is None or lexicon.lookup([tokens[at]]):
        return tokens, ""
    named: dict[tuple[str, str], str] = {}
    for word in negatives()[tokens[at]]:
        for t in lexicon.lookup([word]):
            if t.kind == "column" and is_numeric(t.type):
                named.setdefault((t.table, t.column or ""), word)
    if len(named) != 1:
        return tokens, ""
    (_, column), word = next(iter(named.items()))
    before = tokens[at - 1] if at > 0 else ""
    if before in _LARGEST:
        out = [*tokens[: at - 1], "lowest", word, *tokens[at + 1 :]]
        return out, f"'{before} {tokens[at]}' read as the lowest {column}"
    if before in ("smallest", "least", "lowest", "fewest"):
        return tokens, ""
    start = at - 1 if before in ("a", "an") else at
    out = [*tokens[:start], word, "below", "0", *tokens[at + 1 :]]
    return out, f"'{tokens[at]}' read as {column} below 0"


# Verbs said in two words that only say the rows took place (vocabulary `happenings` holds
# the one-word ones): "inspections carried out in 2016", "matches that took place".
_TWO_WORD_HAPPENINGS = {
    ("carried", "out"): "conducted",
    ("took", "place"): "occurred",
    ("take", "place"): "occurred",
    ("took", "part"): "participated",
    ("take", "part"): "participated",
}


def two_word_happenings(tokens: list[str]) -> list[str]:
    """ "carried out" -> "conducted", "took place" -> "occurred": one word, so the parser
    reads it as every other verb of the rows taking place."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        said = _TWO_WORD_HAPPENINGS.get((tokens[i], tokens[i + 1])) if i + 1 < len(tokens) else None
        out.append(said or tokens[i])
        i += 2 if said else 1
    return out


_HOW_OFTEN = frozenset({"often", "frequently", "commonly"})


def how_often(tokens: list[str], lex: Lexicon) -> list[str]:
    """ "which state was polled most often", "tip least often" -> "… the most", "… the
    fewest": how often a thing happened is how many rows it has."""
    out: list[str] = []
    for i, token in enumerate(tokens):
        often = token in _HOW_OFTEN or (token == "times" and tokens[i - 1 : i] != ["many"])
        if often and i > 0 and tokens[i - 1] in ("most", "least", "fewest"):
            ranked = "most" if tokens[i - 1] == "most" else "fewest"
            out[-2 if out[-2:-1] == ["the"] else -1 :] = []
            occurs = False
            while out and out[-1] in _OCCURS:
                out.pop()  # "which model year shows up most often": it is in the most rows
                occurs = True
            if occurs:
                out += ["has", "the", ranked, "rows"]
                continue
            verb = out[-1:]
            if verb and is_verb(verb[0]) and any(t.kind == "column" for t in lex.lookup(verb)):
                # "rated the most times": how often it happened, never the `rating` the
                # verb names (a verb naming nothing stays, to be read or asked about)
                out.pop()
            out += ["the", ranked]
            continue
        out.append(token)
    return out


# Verbs of a thing being in the data at all: "appears most often" is "has the most rows"
_OCCURS = frozenset({"appears", "appear", "occurs", "occur", "shows", "show", "up", "comes"})

_AUXILIARIES = frozenset({"been", "was", "were", "is", "are", "be", "has", "have", "had"})


def ended_with(tokens: list[str]) -> list[str]:
    """ "rides that ended with a tip" -> "rides that with a tip": what a row ended with, it
    has (the verb picks nothing the "with" does not)."""
    return [
        t
        for i, t in enumerate(tokens)
        if not (t in ("ended", "ending", "ends", "end") and tokens[i + 1 : i + 2] == ["with"])
    ]


def new_as_issued(tokens: list[str], catalog: Catalog) -> list[str]:
    """ "new licences", "new students" -> "licences", "students" where nothing in the data
    is called new (a licence counted is new when it was issued); only before a plural, so
    never "New York", and never where a column is (`newConstruction`)."""
    if "new" not in tokens or any(
        "new" in identifier_words(c.name) for t in catalog.tables.values() for c in t.columns
    ):
        return tokens
    return [
        t
        for i, t in enumerate(tokens)
        if not (t == "new" and i + 1 < len(tokens) and stem(tokens[i + 1]) != tokens[i + 1])
    ]


_ONE_PERIOD_LEADS = (("in", "a", "single"), ("in", "a", "given"), ("in", "a"), ("in", "one"))


def in_one_period(tokens: list[str], catalog: Catalog) -> tuple[list[str], str]:
    """ "the highest attendance a team had in a season", "more than 10,000 cases in a
    single year" over rows of one team (state) and year: "in a season" says what a row is,
    one team's season; no filter, no grouping. Only where a table keeps years (a `year`
    column or dates); said."""
    years = has_dates(catalog) or any(
        c.name.lower() in ("year", "season") for t in catalog.tables.values() for c in t.columns
    )
    if not years:
        return tokens, ""
    for lead in _ONE_PERIOD_LEADS:
        for i in range(len(tokens) - len(lead)):
            end = i + len(lead)
            if tuple(tokens[i:end]) == lead and tokens[end] in ("season", "year"):
                said = " ".join(tokens[i : end + 1])
                return [*tokens[:i], *tokens[end + 1 :]], f"'{said}' read as each row's own"
    return tokens, ""


def ages_said(tokens: list[str]) -> list[str]:
    """ "14-year-olds", "students who are 14 years old" -> "… aged 14": an age said as a
    noun or after the number, read as the "aged N" the parser knows."""
    out = list(tokens)
    for i in range(len(out) - 2):
        if out[i].isdigit() and out[i + 1] in ("year", "years") and out[i + 2] in ("old", "olds"):
            before = out[i - 1] if i > 0 else ""
            if before not in ("are", "is", "was", "were") and out[i + 2] != "olds":
                continue  # "less than 10 years old" stays a comparison
            lead = i - 1 if before in ("are", "is", "was", "were") else i
            kept = ["people"] if out[i + 2] == "olds" else []  # the noun the age was said as
            return [*out[:lead], *kept, "aged", out[i], *out[i + 3 :]]
    return out
