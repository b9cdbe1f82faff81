"""Columns told apart by a code, and the question naming the code's owner.

Wide tables keep one figure per competitor in sibling columns: `PriceCH` and `PriceMM`
(Citrus Hill and Minute Maid), `sales_us` and `sales_eu`. "The average price of Citrus Hill"
names the column whose code the brand's initials spell, not a filter on rows: every row
holds both prices.
"""

from __future__ import annotations

from .lexicon import Target
from .words import GLUE_WORDS, identifier_words


def column_codes(variants: list[Target]) -> dict[str, Target] | None:
    """{"ch": PriceCH, "mm": PriceMM}: the one word position where the variants' names differ,
    when each holds a short code there; None when the names differ in more than that."""
    names = [identifier_words(t.column or "") for t in variants]
    if len({len(n) for n in names}) != 1 or len(names[0]) < 2:
        return None
    differing = [i for i in range(len(names[0])) if len({n[i] for n in names}) > 1]
    if len(differing) != 1:
        return None
    at = differing[0]
    codes = {n[at]: t for n, t in zip(names, variants, strict=True)}
    if len(codes) != len(variants) or not all(_is_code(c) for c in codes):
        return None
    return codes


def code_said(
    tokens: list[str], taken: set[int], codes: dict[str, Target]
) -> tuple[Target, range] | None:
    """The variant whose code the question says, as the code itself ("MM") or as the
    initials of two or three words in a row ("Minute Maid"), and where; None unless exactly
    one variant is said."""
    found: dict[Target, range] = {}
    for start in range(len(tokens)):
        for size in (1, 2, 3):
            window = range(start, start + size)
            if window.stop > len(tokens) or any(i in taken for i in window):
                break
            words = [tokens[i] for i in window]
            if any(not w.isalpha() or w in GLUE_WORDS for w in words):
                break
            said = words[0] if size == 1 else "".join(w[0] for w in words)
            if said in codes and (size > 1 or len(said) > 1):
                found.setdefault(codes[said], window)
    return next(iter(found.items())) if len(found) == 1 else None


def _is_code(word: str) -> bool:
    return 1 < len(word) <= 3 and word.isalpha()
