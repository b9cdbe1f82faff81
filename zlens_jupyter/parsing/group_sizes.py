"""Groups kept by how many rows they have: "movies with at least 100 ratings", "artists with
10 or more works", "restaurants inspected at least 50 times".

The count said is of the rows (each rating, work or inspection is one), never a number a row
holds: the phrase is read only when the noun after the number names no number column, or
names the rows of a column said in the singular (`rating` holds one rating per row), or is
"times" after a verb. The phrase is taken out of the question before it is parsed; what is
left groups by the owner ("movies"), and the groups are kept by their row count (SQL
HAVING). Asked about when nothing is grouped.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..vocabulary import units
from ..wordforms import is_noun, is_verb
from .lexicon import Lexicon, is_numeric
from .phrasing import CALENDAR_WORDS, superlative_direction
from .words import stem, to_number

# (words, op) before the number; "N or more" is read after it.
_BEFORE: tuple[tuple[tuple[str, ...], str], ...] = (
    (("at", "least"), ">="),
    (("more", "than"), ">"),
    (("over",), ">"),
    (("fewer", "than"), "<"),
    (("less", "than"), "<"),
    (("under",), "<"),
    (("at", "most"), "<="),
    (("no", "more", "than"), "<="),
)
_AFTER: dict[tuple[str, ...], str] = {
    ("or", "more"): ">=",
    ("or", "fewer"): "<=",
    ("or", "less"): "<=",
    ("plus",): ">=",
}
_HAVING = frozenset({"with", "having", "have", "has", "had"})
# Words a relative clause starts with: "restaurants that were inspected …" loses them too.
_SAID_BY = frozenset({"that", "who", "which"})
# Nouns of a population's size: "towns with more than 100,000 residents" is a figure.
_POPULATION = frozenset({"people", "persons", "residents", "inhabitants", "individuals"})


@dataclass(frozen=True)
class GroupSize:
    """Keep the groups whose row count `op` `count` ("at least 100 ratings": >= 100)."""

    op: str
    count: int
    said: str  # the words, as the answer says them


def group_size_said(tokens: list[str], lexicon: Lexicon) -> tuple[list[str], GroupSize | None]:
    """The tokens without the group-size phrase, and what it says; unchanged and None where
    the question has none."""
    for i in range(1, len(tokens) - 2):
        verb = tokens[i]
        participle = verb.endswith("ed") and is_verb(verb) and verb not in _HAVING
        if verb not in _HAVING and not participle:
            continue
        found = _count_said(tokens, i + 1)
        if found is None:
            continue
        op, count, end = found
        noun = tokens[end] if end < len(tokens) else ""
        if not (participle and noun == "times") and not (
            not participle and _names_rows(noun, lexicon)
        ):
            continue
        start = i - 1 if i > 1 and tokens[i - 1] in _SAID_BY else i
        said = " ".join(tokens[i : end + 1])
        owner, after = tokens[1:start], tokens[end + 1 :]
        if tokens[0] in ("which", "what") and 0 < len(owner) <= 3 and not _ranked(after):
            # "which manufacturers have at least 20 cars": each one's count, the kept ones
            counted = noun if noun != "times" else "rows"
            return ["number", "of", counted, "per", *owner, *after], GroupSize(op, count, said)
        return [*tokens[:start], *tokens[end + 1 :]], GroupSize(op, count, said)
    return tokens, None


def _ranked(tokens: list[str]) -> bool:
    """Whether the words rank something ("… has the highest rating")."""
    return any(superlative_direction(t) is not None for t in tokens)


def _count_said(tokens: list[str], at: int) -> tuple[str, int, int] | None:
    """(op, count, where the noun after it is) for "at least 100", "10 or more"."""
    for words, op in _BEFORE:
        if tuple(tokens[at : at + len(words)]) == words:
            number = _whole(tokens, at + len(words))
            return (op, number, at + len(words) + 1) if number is not None else None
    number = _whole(tokens, at)
    if number is None:
        return None
    for after, op_after in _AFTER.items():
        if tuple(tokens[at + 1 : at + 1 + len(after)]) == after:
            return op_after, number, at + 1 + len(after)
    return None


def _whole(tokens: list[str], at: int) -> int | None:
    value = to_number(tokens[at]) if at < len(tokens) else None
    return int(value) if isinstance(value, int | float) and value == int(value) else None


def _names_rows(noun: str, lexicon: Lexicon) -> bool:
    """A plural noun that names no number column ("runners", "works"), or names one said in
    the singular, each row holding one ("ratings" of `rating`)."""
    if not noun or stem(noun) == noun or not is_noun(noun):
        return False
    if stem(noun) in CALENDAR_WORDS or noun in units() or noun in _POPULATION:
        return False  # "10 years of experience", "100,000 residents": a figure, not rows
    numbers = [t for t in lexicon.lookup([noun]) if t.kind == "column" and is_numeric(t.type)]
    return all((t.column or "").lower() == stem(noun) for t in numbers)


__all__ = ["GroupSize", "group_size_said"]
