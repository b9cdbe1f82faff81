"""The parse in progress, and the small helpers every reading of a question shares."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..semantic import SemanticModel
from ..warehouse import Catalog
from .lexicon import Span, Target, is_numeric
from .spec import ParseResult


@dataclass
class ParseState:
    """One question's parse in progress: its words, which of them are read, and what the
    readings so far decided that later ones must respect."""

    tokens: list[str]
    taken: set[int]
    catalog: Catalog
    semantic: SemanticModel | None
    # How a word was read where the data could not say ("sales added up"): the answer shows
    # them and is labelled review required.
    notes: list[str] = field(default_factory=list)
    adjectives: set[int] = field(default_factory=set)  # positions naming a column as adjectives
    named_rows: dict[str, str] = field(default_factory=dict)  # table -> a label value asked of
    shared: bool = False  # "what share / percentage of …"
    compared: list[Target] = field(default_factory=list)  # numeric columns compared
    guessed_rows: int | None = None  # where a noun the data lacks was read as the rows
    rate_of: list[str] = field(default_factory=list)  # tables of a yes/no "… rate"
    one_period: str | None = None  # "in January 2000": a month or a day, as it was said
    one_year: str | None = None  # "in 1900": one whole year, as it was said
    shared_at: int | None = None  # where the number a share is taken of was named
    # yes/no columns said with "not" or by their opposite, with the word's position
    negated: set[tuple[str, str, int]] = field(default_factory=set)
    pinned: set[tuple[str, str]] = field(default_factory=set)  # (table, column) values name
    one_row_groups: bool = False  # every group named is one row (a state of USArrests)
    one_row_labels: bool = False  # so are the groups' columns, the table named beside them
    rows_are_things: bool = False  # the groups are names of rows, a few shared (midwest)
    row_ranked: bool = False  # "the poll with the largest sample": rows ranked, not groups
    groups_are_labels: bool = False  # grouped by what names the rows (`model`, `name`)
    tallied: dict[tuple[str, str], str] = field(default_factory=dict)  # tally -> its name
    kinds: set[int] = field(default_factory=set)  # "a bank": a row's name said as a kind
    group_tables: set[str] = field(default_factory=set)  # the tables the groups' columns are of
    # "per 100,000 people": (100000, how it was said, where it starts)
    per_people: tuple[int, str, int] | None = None
    all_spans: list[Span] = field(default_factory=list)  # every name found, whatever its role
    once_per: Target | None = None  # "the average age of the professors": each prof_id once


SHOW_WORDS = ("show", "list", "display", "preview", "see", "browse")
HAVING = frozenset({"have", "has", "had", "having", "with"})


def is_integer(column_type: str | None) -> bool:
    """Whole-number types: such a column counts things (a rate would need decimals)."""
    return (column_type or "").upper().rstrip("0123456789") in (
        "BIGINT",
        "INTEGER",
        "INT",
        "SMALLINT",
        "TINYINT",
        "HUGEINT",
        "UBIGINT",
        "UINTEGER",
        "USMALLINT",
        "UTINYINT",
    )


LABELS = ("name", "title", "label")
# What names a row when rows are ranked ("which car is the heaviest" by its model).
ROW_LABELS = (*LABELS, "model", "make")


def pick_column(
    span: Span | None, fact_table: str | None, *, numeric: bool, prefer_non_numeric: bool = False
) -> Target | None:
    """The column a span names, preferring the fact table's (join keys name both sides)."""
    if span is None:
        return None
    columns = [t for t in span.targets if t.kind in ("column", "dimension")]
    if numeric:
        columns = [c for c in columns if is_numeric(c.type) or c.kind == "dimension"]
    if prefer_non_numeric and any(not is_numeric(c.type) for c in columns):
        columns = sorted(columns, key=lambda c: is_numeric(c.type))
    if fact_table:
        columns.sort(key=lambda c: c.table.lower() != fact_table.lower())
    return columns[0] if columns else None


def names_number(span: Span | None) -> bool:
    return span is not None and any(t.kind == "column" and is_numeric(t.type) for t in span.targets)


def span_text(tokens: list[str], span: Span) -> str:
    return " ".join(tokens[span.start : span.end])


def clarify(question: str, candidates: list[str]) -> ParseResult:
    return ParseResult(clarification=question, candidates=candidates)


def clarify_unresolved(words: list[str]) -> ParseResult:
    quoted = ", ".join(f"'{w}'" for w in words[:4])
    return ParseResult(
        clarification=f"I couldn't find {quoted} in this database.",
        unresolved=words,
    )
