"""Does a certified block answer this question? Compare what the question asks with what the
block computes, by meaning rather than by shared words.

The question side is a `QuestionFrame` (`parsing.frame`): the phrasing the offline parser
reads, read once per question without the catalog.

The block side is a `BlockShape`: read from the block's compiled SQL (its measure's aggregate,
GROUP BY, WHERE literals, ORDER BY direction, LIMIT) and its declared grain.

A block answers only when the two agree. Every disagreement is a sentence for the trace, and
when in doubt the block does not answer: a lower label beats a wrong certified one.
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass
from typing import Any

from .. import disk_memo
from ..parsing import GRAIN_WORDS, QuestionFrame, question_tokens, stem

# sqlglot's aggregate classes by name: sqlglot is imported when a block is first read.
_AGG_NAMES = {
    "Sum": "sum",
    "Avg": "avg",
    "Count": "count",
    "Max": "max",
    "Min": "min",
    "Median": "median",
}


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
    """Read a compiled block's SQL; None when sqlglot cannot read it (then it never fits).

    Kept on disk as well (`disk_memo`): every `zlens ask` process reads the same certified
    blocks, and sqlglot alone takes ~0.2 s to import."""
    code, key = _shape_code(), disk_memo.input_key(sql, measure)
    known = disk_memo.recall("block-shape", code, key)
    if known is not None:
        data = json.loads(known)
        if data is None:
            return None
        data["filters"] = tuple(data["filters"])
        return BlockShape(**data)
    shape = _read_shape(sql, measure)
    disk_memo.remember(
        "block-shape", code, key, json.dumps(asdict(shape) if shape is not None else None)
    )
    return shape


@functools.cache
def _shape_code() -> str:
    import importlib.util

    spec = importlib.util.find_spec("sqlglot")
    return disk_memo.code_key(files=(__file__, spec.origin if spec else None))


def _read_shape(sql: str, measure: str | None) -> BlockShape | None:
    import sqlglot
    from sqlglot import exp

    aggregates: dict[Any, str] = {getattr(exp, n): name for n, name in _AGG_NAMES.items()}
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.SqlglotError:
        try:  # a block written in Spark SQL (`dialect = "spark"`, backticks)
            tree = sqlglot.parse_one(sql, read="spark")
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
            kind = next((name for cls, name in aggregates.items() if isinstance(node, cls)), None)
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
    # A period the block already keeps, bound for bound ("in 1994" and a block filtering
    # o_orderdate >= '1994-01-01' AND < '1995-01-01'), is the block's own; any other is not.
    bounds = set(frame.period_bounds or ())
    if frame.period and not (bounds and bounds <= set(shape.filters)):
        return f"the question names a period ({frame.period}) the block cannot filter"
    for value in shape.filters:
        if value in bounds:
            continue
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


def fit_measures(asked: list[list[str]], outputs: list[str]) -> tuple[list[str], str | None]:
    """The block's columns for the several measures a question asks for, in the order asked,
    or why the block does not compute them all.

    `asked`: each measure the question asks for, as the names it goes by ("revenue";
    "average_order_value"); empty when it asks for one (the other checks cover that), and
    then so is the answer. `outputs`: the block's measure columns. Each measure asked needs a
    column of its own whose words, aggregate words aside, are the measure's ("total_revenue"
    is "revenue"; "avg_order_value" is not "orders"). A block that computes fewer never
    answers: its rows would answer half the question under a certified label."""
    if len(asked) < 2:
        return [], None
    said = ", ".join(names[0].replace("_", " ") for names in asked)
    if len(outputs) < len(asked):
        computes = ", ".join(o.replace("_", " ") for o in outputs) or "no measure"
        return (
            [],
            f"the question asks for {len(asked)} measures ({said}); the block computes {computes}",
        )
    free = {o: _content_stems(o) for o in outputs}
    columns: list[str] = []
    for names in asked:
        wanted = [_content_stems(n) for n in names]
        found = next((o for o, words in free.items() if words and words in wanted), None)
        if found is None:
            named = names[0].replace("_", " ")
            return [], f"the question asks for {named}, which the block does not compute"
        columns.append(found)
        del free[found]  # one column answers one measure
    return columns, None


# Words that say how a measure is aggregated, not what it measures.
_AGGREGATE_STEMS = frozenset(
    stem(w)
    for w in ("total", "sum", "average", "avg", "mean", "count", "number", "num", "cnt")
    + ("median", "min", "max", "minimum", "maximum", "distinct", "unique", "of")
)


def _content_stems(name: str) -> frozenset[str]:
    return frozenset(stem(t) for t in question_tokens(name.replace("_", " "))) - _AGGREGATE_STEMS


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
