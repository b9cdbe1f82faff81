"""Deterministic phrase matching of questions against metric and dimension vocabulary.

Words are compared whole, lower-cased and singularised ("Categories" matches "category"),
so matching needs no model and gives the same answer every time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Generic, TypeVar

_WORD = re.compile(r"[a-z0-9]+")
# Words too common to count as evidence on their own in a partial match.
_FILLER_WORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "is",
        "of",
        "on",
        "or",
        "per",
        "the",
        "to",
        "what",
        "which",
        "with",
        # Counting words say "how", not "what": they must not pull in a measure by themselves.
        "count",
        "how",
        "many",
        "number",
        "total",
    }
)
# Words ending in -s that are not plurals (singularising them would break matching).
_NOT_PLURAL = frozenset({"news", "series", "species"})
_POSSESSIVE = re.compile(r"['’]s\b")

FULL_MATCH_SCORE = 1.0
SYNONYM_MATCH_SCORE = 0.9
# A partial match (some words of a multi-word phrase) never reaches the 0.5 "confident" bar.
PARTIAL_MATCH_CEILING = 0.45

T = TypeVar("T")


def singular(word: str) -> str:
    """A crude English singular: `categories`→`category`, `boxes`→`box`, `orders`→`order`.

    >>> [singular(w) for w in ["categories", "classes", "orders", "status", "news"]]
    ['category', 'class', 'order', 'status', 'news']
    """
    if len(word) <= 3 or word in _NOT_PLURAL or word.isdigit():
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Lower-cased, singularised words of a text; `_` and punctuation separate words."""
    cleaned = _POSSESSIVE.sub("", text.lower().replace("_", " "))
    return [singular(w) for w in _WORD.findall(cleaned)]


def normalize_phrase(phrase: str | None) -> tuple[str, ...]:
    """The key two phrases share when they name the same thing (`Order_Dates` == `order date`)."""
    return tuple(tokenize(phrase or ""))


@dataclass(frozen=True)
class _Entry(Generic[T]):
    item: T
    words: tuple[str, ...]
    weight: float


@dataclass(frozen=True)
class _Hit(Generic[T]):
    entry: _Entry[T]
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.entry.words)

    def inside(self, other: _Hit[T]) -> bool:
        """True when another item's hit covers this hit's words and is strictly longer."""
        return (
            other.entry.item is not self.entry.item
            and other.start <= self.start
            and self.end <= other.end
            and other.end - other.start > self.end - self.start
        )


class PhraseIndex(Generic[T]):
    """Phrases (name, label, synonyms) of items; `match` finds which a question mentions."""

    def __init__(self) -> None:
        self._entries: list[_Entry[T]] = []
        self._order: dict[int, int] = {}

    def add(self, item: T, phrase: str, *, weight: float) -> None:
        """Register a phrase for an item with the score a full mention earns."""
        words = normalize_phrase(phrase)
        if words:
            self._order.setdefault(id(item), len(self._order))
            self._entries.append(_Entry(item, words, weight))

    def match(self, question: str) -> list[tuple[T, float]]:
        """Items the question mentions, best score first, then earliest mention, then the
        order items were added. Each item appears once with its best score."""
        words = tokenize(question)
        hits = [
            _Hit(entry, start)
            for entry in self._entries
            for start in _occurrences(entry.words, words)
        ]
        # A phrase inside a longer matched phrase is not a mention of its own.
        kept = [hit for hit in hits if not any(hit.inside(other) for other in hits)]
        best: dict[int, tuple[T, float, int]] = {}
        for hit in kept:
            _keep_best(best, hit.entry.item, hit.entry.weight, hit.start)
        covered = {i for hit in kept for i in range(hit.start, hit.end)}
        for entry in self._entries:
            if id(entry.item) not in best:
                partial = _partial_score(entry.words, words, covered)
                if partial is not None:
                    _keep_best(best, entry.item, *partial)
        ranked = sorted(best.values(), key=lambda v: (-v[1], v[2], self._order[id(v[0])]))
        return [(item, round(score, 3)) for item, score, _ in ranked]


def _occurrences(phrase: tuple[str, ...], words: list[str]) -> list[int]:
    n = len(phrase)
    return [i for i in range(len(words) - n + 1) if tuple(words[i : i + n]) == phrase]


def _partial_score(
    phrase: tuple[str, ...], words: list[str], covered: set[int]
) -> tuple[float, int] | None:
    """Score and position when some content words of a multi-word phrase appear in the
    question outside other matches; single-word phrases match fully or not at all."""
    content = [w for w in phrase if w not in _FILLER_WORDS]
    if len(content) < 2:
        return None
    positions = [i for i, w in enumerate(words) if i not in covered and w in content]
    found = {words[i] for i in positions}
    if not found:
        return None
    return PARTIAL_MATCH_CEILING * len(found) / len(set(content)), positions[0]


def _keep_best(best: dict[int, tuple[T, float, int]], item: T, score: float, pos: int) -> None:
    current = best.get(id(item))
    if current is None or (score, -pos) > (current[1], -current[2]):
        best[id(item)] = (item, score, pos)
