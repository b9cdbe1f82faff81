"""Titles won: "How many World Series have the Yankees won?", "Who won series 5?".

Competition data keeps a title as a yes/no column named after it (`world_series_winner`
Y/N, `series_winner` 0/1), and people say the verb ("won the World Series"), never the
column. The verb, said with the title's own words, is the condition that the column holds
yes. Nothing here guesses a title the data does not name: a win with no such column is left
for the parser to ask about.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..vocabulary import awards
from ..warehouse import Catalog, ColumnInfo, ValueMatch
from .lexicon import is_numeric
from .words import identifier_words, stem

_WIN_VERBS = frozenset({"win", "won", "winning"})  # "technical wins" names a column
# Words that count or rank by a column: a number column named `technical_winner` may count
# each row's wins (3 for a baker who won three), so it is read as 0/1 only when nothing is.
_COUNTING = frozenset({"most", "many", "fewest", "least", "total", "number", "average", "more"})
# Words a column's name ends with when each row says whether that title was won.
_WINNER_WORDS = frozenset({"winner", "winners", "win", "won", "champion", "champions"})
# Nouns people put after a title's name that add nothing to it: "division titles".
_TITLE_NOUNS = frozenset({"title", "titles", "championship", "championships", "crown", "crowns"})
_YES_VALUES = {"y": "n", "yes": "no", "true": "false"}


@dataclass(frozen=True)
class TitleWon:
    """The verb's reading: `tokens` without the title's own words (kept when a number
    follows them, "series 5", which is another column's value), and `match`, the condition,
    said as the verb."""

    tokens: list[str]
    match: ValueMatch
    at: int  # the verb's position in `tokens`
    note: str


def titles_won(tokens: list[str], catalog: Catalog) -> TitleWon | None:
    """The one title column a win verb names with the title's words, or None."""
    verbs = [i for i, t in enumerate(tokens) if t in _WIN_VERBS]
    if len(verbs) != 1:
        return None
    verb = verbs[0]
    said = [stem(t) for t in tokens]
    found: dict[tuple[str, str], tuple[int, int, str]] = {}
    for table in catalog.tables.values():
        for column in table.columns:
            words = identifier_words(column.name)
            if len(words) < 2 or words[-1] not in _WINNER_WORDS:
                continue
            yes = _yes_value(column)
            if yes is None or (is_numeric(column.type) and _COUNTING & set(tokens)):
                continue
            title = [stem(w) for w in words[:-1]]
            for start in range(len(said) - len(title) + 1):
                if start <= verb < start + len(title) or said[start : start + len(title)] != title:
                    continue
                found[(table.name, column.name)] = (start, start + len(title), yes)
    if not found:
        return None
    longest = max(end - start for start, end, _ in found.values())
    best = {k: v for k, v in found.items() if v[1] - v[0] == longest}
    if len(best) != 1:
        return None  # "won the series" where two titles end in "series": asked
    (held, title_column), (start, end, yes) = next(iter(best.items()))
    end_noun = end + 1 if end < len(tokens) and tokens[end] in _TITLE_NOUNS else end
    numbered = end < len(tokens) and tokens[end].isdigit()
    out = list(tokens)
    if not numbered:
        out[start:end_noun] = []  # the title's words are the condition the verb carries
    verb_at = out.index(tokens[verb])
    note = f"'{tokens[verb]}' read as {title_column} = {yes}"
    return TitleWon(out, ValueMatch(out[verb_at], held, title_column, yes), verb_at, note)


def _yes_value(column: ColumnInfo) -> str | None:
    """The stored yes of a yes/no column; "1" for a number column, which competition data
    codes 1 for the winner (said in the answer's note, as the data cannot confirm it)."""
    values = {str(v).lower(): str(v) for v in column.distinct_values}
    for yes, no in _YES_VALUES.items():
        if set(values) == {yes, no}:
            return values[yes]
    if column.type.upper() == "BOOLEAN":
        return "true"
    if is_numeric(column.type) and not column.distinct_values:
        return "1"
    return None


def wins_as_rows(tokens: list[str], catalog: Catalog) -> tuple[list[str], str]:
    """ "Who has won the most Oscars?" over a table of awards (`oscars`, one row per win):
    the verb picks no rows, every row is a win; it is read as glue, and said. Only where
    one table is named for a prize (vocabulary `awards`) and no title column is named."""
    at = [i for i, t in enumerate(tokens) if t in _WIN_VERBS or t == "wins"]
    prized = [
        t.name
        for t in catalog.tables.values()
        if {stem(w) for w in identifier_words(t.name)} & awards()
        # `boston_marathon` with its `Champion`: each row names who won, so it is one win
        or any(
            identifier_words(c.name) in (("champion",), ("winner",)) and not is_numeric(c.type)
            for c in t.columns
        )
    ]
    if not at or len(prized) != 1:
        return tokens, ""
    said = tokens[at[0]]
    out = [t for i, t in enumerate(tokens) if i not in at]
    return out, f"'{said}' read as every row of {prized[0]} (one row per award)"
