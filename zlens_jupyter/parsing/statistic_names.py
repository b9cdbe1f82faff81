"""Aggregate words that are part of a column's own name: a column named `median` (each row's
own median) or `uempmed` (FRED's median duration of unemployment). Read as the name, never
as a statistic taken of what the rest of the words say. Each reading is said."""

from __future__ import annotations

from ..wordforms import is_noun, is_unknown
from .lexicon import Lexicon, Span, is_numeric
from .phrasing import superlative_direction
from .words import GLUE_WORDS, stems, to_number

_STATISTIC_NAMES = frozenset({"median", "mean", "average", "avg"})  # a column so named


def statistic_columns(
    tokens: list[str],
    lexicon: Lexicon,
    taken: set[int],
    aggs: list[tuple[int, int, str]],
    notes: list[str],
) -> list[Span]:
    """ "the median sale price" over a column named `median` (each row's own median, kept
    by the data): the statistic's word with the noun it is of, when that noun names nothing
    in the data, is the column, never a median of something the data lacks. Said."""
    spans = []
    for i, word in enumerate(tokens):
        named = [
            t
            for t in lexicon.lookup([word])
            if t.kind == "column" and is_numeric(t.type) and (t.column or "").lower() == word
        ]
        counted = any(a[0] == i and a[1] == i + 1 for a in aggs)  # read as an aggregate
        if word not in _STATISTIC_NAMES or (i in taken and not counted) or len(named) != 1:
            continue
        end = i + 1
        while end < len(tokens) and end - i <= 2 and end not in taken:
            if tokens[end] in GLUE_WORDS or to_number(tokens[end]) is not None:
                break
            end += 1
        head = tokens[end - 1]
        if end == i + 1 or lexicon.lookup([head]) or not (is_noun(head) or is_unknown(head)):
            continue
        aggs[:] = [a for a in aggs if a[0] != i]
        taken.update(range(i, end))
        spans.append(Span(i, end, (named[0],)))
        notes.append(f"'{' '.join(tokens[i:end])}' read as {named[0].column}")
    return spans


def aggregates_in_names(
    tokens: list[str],
    lexicon: Lexicon,
    taken: set[int],
    aggs: list[tuple[int, int, str]],
    notes: list[str],
) -> list[Span]:
    """ "the longest median unemployment duration" over `uempmed`: an aggregate word that
    begins the full name of one numeric column, where the question already ranks or takes
    another statistic, is the name's first word. Without that other word the aggregate is
    the question's own ("the average price per room" averages `avg_price_per_room`)."""
    spans = []
    for start, end, _agg in list(aggs):
        others = [a for a in aggs if a[0] != start]
        ranked = any(superlative_direction(t) is not None for t in tokens)
        if end != start + 1 or not (others or ranked):
            continue
        for stop in range(min(len(tokens), start + lexicon.longest), end, -1):
            if taken & set(range(end, stop)):
                continue
            key = stems(tokens[start:stop])
            found = lexicon.phrases.get(key, [])
            if not found and tokens[start] in _STATISTIC_NAMES:
                # "median earnings" for `earnings_med`: the name's words in another order
                found = lexicon.unordered.get(frozenset(key), [])
            named = [t for t in found if t.kind == "column" and is_numeric(t.type)]
            if len(named) == 1:
                aggs.remove((start, end, _agg))
                taken.update(range(start, stop))
                spans.append(Span(start, stop, (named[0],)))
                notes.append(f"'{' '.join(tokens[start:stop])}' read as {named[0].column}")
                break
    return spans
