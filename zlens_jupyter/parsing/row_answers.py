"""Questions a figure alone cannot answer: "when was …", "which primate is the heaviest",
"the latest savings rate". Their answer is a time, or the ranked row itself (which says
which, and when); never the bare maximum, which answers another question."""

from __future__ import annotations

from ..warehouse import Catalog, ValueMatch
from .lexicon import Target, is_numeric, is_temporal
from .phrasing import CALENDAR_WORDS as _CALENDAR_WORDS
from .spec import Measure, ParseResult, QuestionSpec
from .words import question_tokens


def asks_when(tokens: list[str]) -> bool:
    """ "When was …", "on which day …", "what year …": the answer is a time."""
    if tokens[:1] == ["when"]:
        return True
    lead = tokens[1:3] if tokens[:1] in (["on"], ["in"], ["during"]) else tokens[:2]
    return len(lead) == 2 and lead[0] in ("which", "what") and lead[1] in _CALENDAR_WORDS


def says_when(spec: QuestionSpec) -> bool:
    """Whether an answer shows a time: a grouping, a grain, the rows themselves, or a date
    (or a year) as the figure ("when was the 8700K released": its `released`)."""
    timed = any(
        m.target is not None
        and (
            is_temporal(m.target.type)
            or (m.target.column or "").lower() in _CALENDAR_WORDS
            or (m.target.column or "").lower().startswith("year(")  # a date's year
        )
        for m in spec.measures
    )
    return bool(spec.group_by or spec.time_grain or spec.listing or timed)


def one_of_a_kind_ranked(
    tokens: list[str],
    spec: QuestionSpec,
    superlative_at: int | None,
    value_filters: list[tuple[ValueMatch, str | None]],
) -> None:
    """ "Which primate is the heaviest?", "What is the heaviest primate?" over msleep's
    `order` holding Primates: the primates' rows ranked and the first listed (its row says
    which), never the weight alone, which would not answer "which"."""
    if superlative_at is None or spec.group_by or spec.listing or spec.time_grain:
        return
    m = spec.measures[0] if len(spec.measures) == 1 else None
    if m is None or m.agg not in ("max", "min") or m.target is None:
        return
    if m.target.kind != "column" or not is_numeric(m.target.type):
        return
    kinds = {w for match, _ in value_filters for w in question_tokens(match.word)}
    which = tokens[:1] == ["which"] and tokens[1:2] and tokens[1] in kinds
    what = tokens[:1] == ["what"] and tokens[superlative_at + 1 : superlative_at + 2]
    if not which and not (what and tokens[superlative_at + 1] in kinds):
        return
    spec.listing = True
    spec.order_desc = m.agg == "max"
    spec.limit = spec.limit or 1


_TIME_END_WORDS = {"latest": True, "last": True, "newest": True, "earliest": False}


def value_at_a_time_end(
    tokens: list[str], catalog: Catalog, spec: QuestionSpec, superlative_at: int | None
) -> ParseResult | None:
    """ "the latest unemployment figure", "the earliest savings rate": the figure on the
    last (or first) date, never the largest (or smallest) one. The row on that date is
    listed; with no date to say which is latest, asked. None when the question is not
    that."""
    if superlative_at is None:
        return None
    word = tokens[superlative_at]
    if word == "first" and tokens[superlative_at + 1 : superlative_at + 2] == [spec.time_grain]:
        word = "earliest"  # "the first month of the data": its earliest row
    if word not in _TIME_END_WORDS:
        return None
    grain_said = tokens[superlative_at + 1 : superlative_at + 2] == [spec.time_grain]
    if grain_said and tokens[0] not in ("which", "when", "what") and "which" not in tokens[:3]:
        # "the unemployment in the first month of the data": that month's own figure, the
        # first row by date; never a figure for every month
        spec.time_grain = None
    elif grain_said and tokens[:2] in (["what", "was"], ["what", "is"], ["what", "were"]):
        spec.time_grain = None  # "what was the unemployment in the first month"
    if spec.group_by or spec.time_grain or spec.listing or len(spec.measures) != 1:
        return None
    m = spec.measures[0]
    target = m.target
    if m.agg not in ("max", "min") or target is None or target.kind != "column":
        return None
    if is_temporal(target.type) or (target.column or "").lower() in _CALENDAR_WORDS:
        return None  # "the latest date", "the first year": the time itself, its extreme
    info = catalog.table(m.table)
    dates = [c for c in (info.columns if info else ()) if is_temporal(c.type) and not c.date_format]
    if len(dates) != 1:
        return ParseResult(
            clarification=f"'{word} {target.column}' needs a date to say which is {word}: "
            "name the column that says when."
        )
    date = Target("column", m.table, dates[0].name, type=dates[0].type)
    spec.measures = [Measure("max", m.table, date, alias=dates[0].name)]
    spec.listing = True
    spec.order_desc = _TIME_END_WORDS[word]
    spec.limit = 1
    spec.notes.append(f"the {word} row by {dates[0].name}, for its {target.column}")
    return None
