"""The scope of a question: words that only say "all of it" ("in the data", "on the menu",
"in London" of `london_murders`), table names said as places, and verbs that only say the
rows took place ("how many matches were played")."""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from ..vocabulary import happenings, value_synonyms
from ..warehouse import Catalog, ValueMatch
from ..wordforms import doer_of, is_noun, is_plural, is_verb, verb_root
from .lexicon import Lexicon, Span, english_tail, is_numeric
from .reading import SHOW_WORDS
from .words import GLUE_WORDS, identifier_words, stem


def listed_table(
    tokens: list[str],
    spans: list[Span],
    aggs: list[tuple[int, int, str]],
    group_spans: list[Span],
    superlative: bool | None,
    limit: int | None,
) -> str | None:
    """The table whose rows "show me the orders (table)" asks for, or None.

    Only a show/list verb before exactly one named table, with nothing to aggregate, group or
    rank: "show orders by region" or "list the top 5 orders" stay aggregates or rankings."""
    if aggs or group_spans or superlative is not None or limit is not None:
        return None
    if not any(t in SHOW_WORDS for t in tokens[:3]) or not spans:
        return None
    # "show the compact cars that get more than 30 highway mpg" over `mpg`: the table named
    # twice is still one table
    tables = {next((t.table for t in s.targets if t.kind == "table"), None) for s in spans}
    return tables.pop() if len(tables) == 1 else None


def starts_a_name(tokens: list[str], at: int, lex: Lexicon) -> bool:
    """Whether the words from `at` on name something in the data ("years of service")."""
    for size in range(2, min(lex.longest + 2, len(tokens) - at) + 1):
        words = [w for w in tokens[at : at + size] if w not in ("of", "the", "in", "their")]
        if len(words) > 1 and lex.lookup(words):
            return True
    return False


# After a determiner a word is a noun ("his pitches"), never a happening verb ("pitched").
DETERMINERS = frozenset(
    {"the", "a", "an", "his", "her", "its", "their", "our", "my", "your", "these", "those"}
    | {"many", "of", "all", "each", "every", "some", "any", "no"}
)


def a_happening(token: str, lexicon: Lexicon) -> bool:
    """ "played", and "offers", "offer" as "offered" is (vocabulary `happenings`): another
    form of the verb counts when the data names nothing by it ("score" may be a column).
    So does the verb a table's rows are named after: "inspected" of `restaurant_inspections`."""
    if token in happenings():
        return True
    if doer_of(token) is not None and not is_verb(token):
        return False  # "runners", "testers": who did it, the rows perhaps, never the deed
    root = verb_root(token) or (token if is_verb(token) else None)
    if root is None or (lexicon.lookup([token]) and not _names_the_rows(token, lexicon)):
        return False
    return root in _happening_roots() or any(
        stem(word) in (f"{root}ion", f"{root}ation", f"{root}ment")
        for word in _table_words(lexicon)
    )


def _names_the_rows(token: str, lexicon: Lexicon) -> bool:
    return all(t.kind == "table" for t in lexicon.lookup([token]))


@cache
def _happening_roots() -> frozenset[str]:
    return frozenset(r for h in happenings() if (r := verb_root(h)))


def _table_words(lexicon: Lexicon) -> set[str]:
    """Every word of every table's name (kept with the lexicon, which is per catalog)."""
    if "table_words" not in lexicon.derived:
        lexicon.derived["table_words"] = {
            w
            for key, targets in lexicon.phrases.items()
            if any(t.kind == "table" for t in targets)
            for w in key
        }
    words: set[str] = lexicon.derived["table_words"]
    return words


def table_name_words(catalog: Catalog) -> frozenset[str]:
    """The content words of tables' names of several words, as stems ("police", "use",
    "force" for mn_police_use_of_force): said in a question, they say what the rows are."""
    return frozenset(
        stem(w)
        for name in catalog.tables
        if len(words := identifier_words(name)) > 2
        for w in words
        if len(w) > 2 and w.isalpha() and w not in GLUE_WORDS
    )


def inside_a_table_name(tokens: list[str], at: int, words: list[str], lex: Lexicon) -> bool:
    """Whether the words at `at` end a longer phrase naming a table: "uses of force" names
    mn_police_use_of_force, so its "force" is never the offence code 'FORCE'."""
    end = at + len(words)
    for start in range(max(0, at - lex.longest), at):
        if any(t.kind == "table" for t in lex.lookup(tokens[start:end])):
            return True
    return False


_SCOPE_NOUNS = frozenset(
    {"country", "nation", "world", "data", "dataset", "table", "board", "collection"}
    | {"database", "sample", "survey", "records", "file"}
    # the list the rows are entries of: "songs on the chart", "items on the menu"
    | {"chart", "study", "list", "menu", "register", "registry", "catalog", "catalogue"}
)


_EACH_APART = frozenset(
    {"compare", "compared", "vary", "varies", "differ", "differs", "each", "per", "every"}
    | {"breakdown", "distribution", "which", "who"}
)


def across_all(tokens: list[str], taken: set[int], lexicon: Lexicon, notes: list[str]) -> list[int]:
    """ "the average beer tax across the states", "across all colleges": one figure over
    every state, never one per state (that is "by state"). Said, since "across" alone can
    mean each."""
    # "how does pay vary across departments": across the groups, each apart
    apart = bool(_EACH_APART & set(tokens))
    for i, token in enumerate(tokens[:-1]):
        at = i + 1
        while at < len(tokens) and tokens[at] in ("the", "all"):
            at += 1
        bare = at == i + 1  # "the average life expectancy across countries": one figure too
        if token != "across" or i in taken or (bare and apart) or at >= len(tokens):
            continue
        if at in taken:  # "across 2019": a time, read as one
            continue
        named = lexicon.lookup([tokens[at]])
        rows = is_plural(tokens[at]) and any(t.kind == "table" for t in named)
        # "across all series" over the number `series`: "all" says every one, together
        every = "all" in tokens[i + 1 : at]
        # "across all episodes": the rows of `episodes`, though `episode` numbers them
        kinds = all(t.kind == "table" or not is_numeric(t.type) for t in named)
        if named and (rows or every or kinds):
            notes.append(f"'{' '.join(tokens[i : at + 1])}' read as one figure over all of them")
            return list(range(i, at + 1))
    return []


def places_named(catalog: Catalog, lexicon: Lexicon) -> set[str]:
    """ "seattle" of `seattlepets`: what a one-word table name holds before the noun it
    ends with, the place or source every row is of. Kept with the lexicon (one per catalog),
    so a question does not walk every table's name again."""
    if "places" not in lexicon.derived:
        fronts = {
            table.name.lower()[: -len(tail)]
            for table in catalog.tables.values()
            if (tail := english_tail(identifier_words(table.name)))
        }
        # "in Texas" of `txhousing`: a two-letter front that is a place's code
        coded = {
            name
            for name, codes in value_synonyms().items()
            if name.isalpha() and len(name) > 3 and fronts & set(codes)
        }
        lexicon.derived["places"] = (
            {front for front in fronts if len(front) > 2}
            | coded
            | {
                # "london" of `london_murders`: a name of two words, a noun last
                words[0]
                for table in catalog.tables.values()
                if len(words := identifier_words(table.name)) == 2
                and words[0].isalpha()
                and len(words[0]) > 2
                and is_noun(words[1])
            }
        )
    places: set[str] = lexicon.derived["places"]
    return places


_DATA_NOUNS = frozenset({"data", "dataset", "database", "table", "file", "records"})


def without_the_data(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "how many pollsters are in the data": the data is where to look, never a value
    (a pollster called 'Data Orbital'), unless something in the data is called so."""
    for i in range(len(tokens) - 2):
        if (
            tokens[i] in ("in", "within")
            and tokens[i + 1] in ("the", "this", "these", "our", "my")
            and tokens[i + 2] in _DATA_NOUNS
            and not lexicon.lookup(tokens[i + 2 : i + 3])
        ):
            return [*tokens[:i], *tokens[i + 3 :]]
    return tokens


def counted_in_total(tokens: list[str], taken: set[int]) -> list[int]:
    """ "how many tests were run in total", "how many in all": after "how many", a closing
    "in total" says the whole count is wanted, never a sum of some figure."""
    if tokens[:2] != ["how", "many"] or len(tokens) < 4:
        return []
    if tokens[-2:] in (["in", "total"], ["in", "all"]) and not taken & {len(tokens) - 2}:
        return [len(tokens) - 2, len(tokens) - 1]
    return []


def whole_scope(
    tokens: list[str], taken: set[int], lexicon: Lexicon, places: Collection[str] = ()
) -> list[int]:
    """ "across the country", "in the whole dataset", "in Seattle" of `seattlepets`: the
    scope of the whole table, said in words the data does not hold (a `country` column
    makes "country" a name, not a scope)."""
    for i, token in enumerate(tokens):
        # "answered the survey": what every row did, of the whole table
        if token not in ("across", "throughout", "in", "over", "on") and not a_happening(
            token, lexicon
        ):
            continue  # ("across" may be taken already, as the start of a grouping)
        at = i + 1
        while at < len(tokens) and tokens[at] in ("the", "whole", "entire", "all"):
            at += 1
        if (
            at < len(tokens)
            and at not in taken
            and (tokens[at] in _SCOPE_NOUNS or tokens[at] in places)
            and not any(t.kind != "table" for t in lexicon.lookup([tokens[at]]))
        ):
            return list(range(i, at + 1))
    return []


def said_in_table(tokens: list[str], spans: list[Span]) -> str | None:
    """ "how many countries are in the gapminder data": the table named after "in" (or
    "of"), which a column in several tables is then read from."""
    for span in spans:
        tables = [t.table for t in span.targets if t.kind == "table"]
        if len(tables) == 1 and span.start > 0 and tokens[span.start - 1] in ("in", "of", "the"):
            return tables[0]
    return None


def filtered_table(found: list[tuple[ValueMatch, str | None]], compared: list[Span]) -> str | None:
    """The table most of the question's filters are on, if any."""
    tables = [m.table for m, _ in found] + [
        t.table for s in compared for t in s.targets if t.kind == "column"
    ]
    return max(set(tables), key=tables.count) if tables else None
