"""The structure of a question, read from its words alone: what it aggregates, groups by
(including "which X", "each X" and the noun after a superlative), ranks (direction and N),
excludes, and which period or comparison it names.

Read once per question and shared: routing and the certified matcher compare it with what a
block computes (a block written over words the catalog does not know, like "revenue", can
still be compared), and the generator's `ParseResult` carries the same frame.
"""

from __future__ import annotations

from .phrasing import (
    GRAIN_WORDS,
    GROUP_MARKERS,
    SUPERLATIVES,
    describes_rows,
    find_aggregates,
    find_comparisons,
    find_time_range,
    find_top_n,
    match_at,
    superlative_direction,
)
from .spec import QuestionFrame
from .words import STOPWORDS, question_tokens, stem, to_number

# Words that exclude part of the data ("revenue without returns", "not counting web").
EXCLUSIONS = frozenset(
    {"without", "excluding", "exclude", "excludes", "except", "not", "no", "non", "minus"}
)
# Words after which a grouping phrase ends: "by segment in 2024" groups by segment only.
_END_OF_GROUPING = frozenset(
    {
        # Another grouping begins: "revenue per customer by segment" is two, never one
        # phrase "customer segment" (which a block of revenue by segment would answer).
        "by",
        "per",
        "in",
        "for",
        "from",
        "during",
        "where",
        "with",
        "since",
        "before",
        "after",
        "top",
        "over",
        "between",
        "when",
        "whose",
        "that",
        "which",
        "has",
        "have",
        "had",
        "is",
        "are",
        "was",
        "were",
        "sold",
        "made",
    }
)
# Words that say the whole is wanted, not a breakdown: "how many orders in all?".
_WHOLE = (("in", "all"), ("in", "total"), ("overall",), ("altogether",), ("all", "time"))
_RANK_FILLER = STOPWORDS | {"selling", "performing", "sold", "rated", "ranked", "most", "least"}


def read_frame(question: str) -> QuestionFrame:
    """The question's structure; the same phrasing rules the generator's parser uses."""
    tokens = question_tokens(question)
    frame = QuestionFrame(tokens)
    taken: set[int] = set()
    period = find_time_range(tokens, taken)
    frame.period = period.said if period else None
    if period is not None and period.start and period.end:
        frame.period_bounds = (period.start, period.end)
    limit, desc, after_top = find_top_n(tokens, taken)
    frame.compares = bool(find_comparisons(tokens, taken))
    frame.aggregates = [agg for _, _, agg in find_aggregates(tokens, taken)]
    frame.excludes = any(t in EXCLUSIONS for t in tokens)
    frame.whole = any(match_at(tokens, i, p) for i in range(len(tokens)) for p in _WHOLE)
    for i, token in enumerate(tokens):
        if token in GRAIN_WORDS and not describes_rows(tokens, i):
            frame.time_grain = GRAIN_WORDS[token]
    for i in range(len(tokens)):
        for phrase in GROUP_MARKERS:
            if match_at(tokens, i, phrase):
                phrases = _phrases(tokens[i + len(phrase) :])
                frame.groupings += phrases
                # "by how much did it grow": a measure of change asked, never a grouping
                if phrase == ("by",) and tokens[i + 1 : i + 2] != ["how"]:
                    frame.by_groupings += phrases
                break
    directions = [superlative_direction(t) for t in tokens]
    superlative = next((d for d in directions if d is not None), None)
    if limit is None and superlative is not None:
        # "worst 10 products", "highest 3": a count right after any superlative is its N.
        at = next(i for i, d in enumerate(directions) if d is not None)
        following = to_number(tokens[at + 1]) if at + 1 < len(tokens) else None
        if isinstance(following, int) and following > 0:
            limit, desc, after_top = following, superlative, at + 2
    if limit is not None or after_top is not None:  # "top 5 products", "top products"
        frame.limit, frame.descending, frame.ranked = limit, desc, True
        frame.groupings += _phrases(tokens[after_top : after_top + 1]) if after_top else []
    elif superlative is not None:
        frame.descending, frame.ranked = superlative, True
    # "which quarter sold the most", "what product has the lowest ...": the noun after
    # which/what is what is ranked or grouped; singular asks for one.
    if tokens[:1] in (["which"], ["what"]) and len(tokens) > 1:
        head = tokens[1]
        if head not in STOPWORDS and head not in ("is", "are", "was", "were", "s"):
            frame.groupings.append([head])
            if frame.ranked and frame.limit is None and stem(head) == head:
                frame.limit = 1
    if frame.ranked and frame.limit is None and not frame.groupings:
        # "the best-selling products": the noun after the superlative is what is ranked,
        # and a plural one asks for several, a singular one for the first.
        at = next(i for i, d in enumerate(directions) if d is not None)
        noun = next((t for t in tokens[at + 1 :] if t not in _RANK_FILLER), None)
        if noun is not None:
            frame.groupings.append([noun])
        if noun is None or stem(noun) == noun:
            frame.limit = 1
    return frame


def _phrases(after: list[str]) -> list[list[str]]:
    """What a grouping asks for: "segment and region in 2024" -> [segment], [region]."""
    phrases: list[list[str]] = [[]]
    for token in after:
        if token in _END_OF_GROUPING:
            break
        if token in ("and", ","):
            phrases.append([])
        elif token not in STOPWORDS and not token.isdigit() and token not in SUPERLATIVES:
            phrases[-1].append(token)
    return [p for p in phrases if p]
