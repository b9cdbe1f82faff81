"""Does a certified block answer this question? Compare what the question asks with what the
block computes, by meaning rather than by shared words.

The question side is a `QuestionFrame`: the phrasing the offline parser reads (aggregate,
groupings including those implied by "which X", "each X" and superlatives, direction and N,
filters, exclusions, periods), read once per question without the catalog, so that a block
written over words the catalog does not know ("revenue") can still be compared.

The block side is a `BlockShape`: read from the block's compiled SQL (its measure's aggregate,
GROUP BY, WHERE literals, ORDER BY direction, LIMIT) and its declared grain.

A block answers only when the two agree. Every disagreement is a sentence for the trace, and
when in doubt the block does not answer: a lower label beats a wrong certified one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp

from .language import STOPWORDS, question_tokens, stem, to_number
from .phrasing import (
    GRAIN_WORDS,
    GROUP_MARKERS,
    SUPERLATIVES,
    find_aggregates,
    find_comparisons,
    find_time_range,
    find_top_n,
    match_at,
)
from .question import EXCLUSIONS

# Words after which a grouping phrase ends: "by segment in 2024" groups by segment only.
_END_OF_GROUPING = frozenset(
    {
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
_AGG_NAMES = {
    exp.Sum: "sum",
    exp.Avg: "avg",
    exp.Count: "count",
    exp.Max: "max",
    exp.Min: "min",
    exp.Median: "median",
}


@dataclass
class QuestionFrame:
    """The structure of a question, read from its words alone (no catalog)."""

    tokens: list[str]
    aggregates: list[str] = field(default_factory=list)  # sum | avg | count | ... as asked
    groupings: list[list[str]] = field(default_factory=list)  # each a phrase's words
    time_grain: str | None = None
    limit: int | None = None  # "top 5" -> 5; a singular superlative -> 1
    descending: bool | None = None  # True for top/most/highest, False for least/bottom
    ranked: bool = False  # any top/bottom/superlative wording
    excludes: bool = False
    whole: bool = False  # "in all", "overall"
    period: str | None = None  # a date range the question names
    compares: bool = False  # "more than 500"

    @property
    def grouped(self) -> bool:
        return bool(self.groupings or self.time_grain)


def read_frame(question: str) -> QuestionFrame:
    """The question's structure; the same phrasing rules the generator's parser uses."""
    tokens = question_tokens(question)
    frame = QuestionFrame(tokens)
    taken: set[int] = set()
    period = find_time_range(tokens, taken)
    frame.period = period.said if period else None
    limit, desc, after_top = find_top_n(tokens, taken)
    frame.compares = bool(find_comparisons(tokens, taken))
    frame.aggregates = [agg for _, _, agg in find_aggregates(tokens, taken)]
    frame.excludes = any(t in EXCLUSIONS for t in tokens)
    frame.whole = any(match_at(tokens, i, p) for i in range(len(tokens)) for p in _WHOLE)
    for token in tokens:
        if token in GRAIN_WORDS:
            frame.time_grain = GRAIN_WORDS[token]
    for i in range(len(tokens)):
        for phrase in GROUP_MARKERS:
            if match_at(tokens, i, phrase):
                frame.groupings += _phrases(tokens[i + len(phrase) :])
                break
    superlative = next((SUPERLATIVES[t] for t in tokens if t in SUPERLATIVES), None)
    if limit is None and superlative is not None:
        # "worst 10 products", "highest 3": a count right after any superlative is its N.
        at = next(i for i, t in enumerate(tokens) if t in SUPERLATIVES)
        following = to_number(tokens[at + 1]) if at + 1 < len(tokens) else None
        if isinstance(following, int) and following > 0:
            limit, desc, after_top = following, superlative, at + 2
    if limit is not None:
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
        at = next(i for i, t in enumerate(tokens) if t in SUPERLATIVES)
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


@dataclass(frozen=True)
class BlockShape:
    """What a block's SQL computes, as far as matching needs to know."""

    aggregate: str | None  # the measure's outermost aggregate: sum | avg | count | ...
    grouped: bool  # GROUP BY (or DISTINCT) at the top level
    filters: tuple[str, ...]  # literal values its WHERE/HAVING keep (lower-cased)
    descending: bool | None  # the first ORDER BY key's direction, None when unordered
    limit: int | None


@functools.lru_cache(maxsize=512)
def block_shape(sql: str, measure: str | None) -> BlockShape | None:
    """Read a compiled block's SQL; None when sqlglot cannot read it (then it never fits)."""
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.SqlglotError:
        return None
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if select is None:
        return None
    outputs = {e.alias_or_name.lower(): e for e in select.expressions}
    target = outputs.get((measure or "").lower()) or (
        select.expressions[-1] if select.expressions else None
    )
    aggregate = None
    if target is not None:
        for node in target.walk():
            kind = next((name for cls, name in _AGG_NAMES.items() if isinstance(node, cls)), None)
            if kind is not None:
                distinct = kind == "count" and node.find(exp.Distinct) is not None
                aggregate = "count_distinct" if distinct else kind
                break
    filters = tuple(
        sorted(
            {
                str(literal.this).lower()
                for clause in tree.find_all(exp.Where, exp.Having)
                for literal in clause.find_all(exp.Literal)
            }
        )
    )
    order = select.args.get("order")
    descending = None
    if order is not None and order.expressions:
        descending = bool(order.expressions[0].args.get("desc"))
    limit_node = select.args.get("limit")
    limit = None
    if limit_node is not None:
        value = limit_node.expression
        limit = int(value.this) if isinstance(value, exp.Literal) and value.is_int else None
    grouped = select.args.get("group") is not None or bool(select.args.get("distinct"))
    if not grouped and not any(select.find_all(exp.AggFunc)):
        # A composed block (`SELECT * FROM "block:Busy carriers" WHERE ...`) is as grouped as
        # the query it reads from.
        grouped = tree.find(exp.Group) is not None
    return BlockShape(aggregate, grouped, filters, descending, limit)


def shape_misfit(
    frame: QuestionFrame,
    shape: BlockShape,
    grain_items: list[frozenset[str]],
    name_words: frozenset[str],
) -> str | None:
    """Why the block's rows are not the answer to the question, or None when they are.

    `grain_items`: the stems of each item of the block's grain ("month, region" -> two);
    `name_words`: the stems of the block's name (an aggregate word in the name is the
    block's own measure, e.g. "Average order value", not an aggregate asked of it).
    """
    asked = {stem(t) for t in frame.tokens} | {
        GRAIN_WORDS[t] for t in frame.tokens if t in GRAIN_WORDS
    }
    if frame.excludes:
        return "the question excludes something, and the block declares no such filter"
    if frame.compares:
        return "the question compares a value with a number; the block's rows are fixed"
    if frame.period:
        return f"the question names a period ({frame.period}) the block cannot filter"
    for value in shape.filters:
        words = question_tokens(value)
        if words and not all(stem(w) in asked for w in words):
            return f"the block keeps only rows matching '{value}'; the question does not ask that"
    wanted = [a for a in frame.aggregates if not _in_name(a, name_words)]
    if wanted and shape.aggregate and not _same_aggregate(wanted[0], shape.aggregate):
        asked_for, computed = _AGG_TEXT[wanted[0]], _AGG_TEXT[shape.aggregate]
        return f"the question asks for {asked_for}; the block computes {computed}"
    missing = [item for item in grain_items if not item & asked]
    if missing:
        item = " ".join(sorted(missing[0]))
        return f"the block is broken down by {item}, which the question does not ask for"
    if shape.grouped and not frame.grouped and not frame.ranked and not grain_items:
        return "the question asks for one number; the block returns a breakdown"
    if frame.whole and shape.grouped:
        return "the question asks for the whole; the block returns a breakdown"
    if (frame.grouped or frame.ranked) and not shape.grouped and not grain_items:
        return "the question asks for a breakdown or a ranking; the block returns one number"
    if shape.limit is not None and not frame.ranked:
        return f"the block keeps only {shape.limit} rows; the question asks for all of them"
    if frame.ranked:
        if shape.limit is None:
            return "the question asks for a ranking; the block's rows are not a ranking"
        if frame.descending is not None and shape.descending is not frame.descending:
            way = "highest" if frame.descending else "lowest"
            return f"the question asks for the {way}; the block is ordered the other way"
        if frame.limit is not None and frame.limit != shape.limit:
            return f"the question asks for {frame.limit}; the block keeps {shape.limit}"
    return None


_AGG_TEXT = {
    "sum": "a total",
    "avg": "an average",
    "count": "a count",
    "count_distinct": "a distinct count",
    "max": "a maximum",
    "min": "a minimum",
    "median": "a median",
}


def _same_aggregate(asked: str, computed: str) -> bool:
    # "How many units sold" is a total of quantities as often as a count of rows.
    counts = {"count", "count_distinct", "sum"}
    return asked == computed or (asked in counts and computed in counts)


def _in_name(aggregate: str, name_words: frozenset[str]) -> bool:
    spelled = {"avg": {"average", "avg", "mean"}, "sum": {"total", "sum"}, "median": {"median"}}
    return bool(spelled.get(aggregate, set()) & name_words)
