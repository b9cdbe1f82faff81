"""Words: tokenizing questions and identifiers the same way, so they can meet.

Deterministic and small on purpose: the offline parser must give the same answer every time,
and a question it cannot read confidently is better clarified than guessed.
"""

from __future__ import annotations

import re
from functools import cache

from ..vocabulary import abbreviations, units
from ..wordforms import american, is_english, stem

# Words that carry no meaning for grounding a question in data.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "per",
        "with",
        "without",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "how",
        "when",
        "where",
        "why",
        "there",
        "their",
        "them",
        "they",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "me",
        "my",
        "we",
        "our",
        "us",
        "you",
        "your",
        "i",
        "show",
        "tell",
        "give",
        "list",
        "find",
        "get",
        "display",
        "return",
        "please",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "may",
        "might",
        "much",
        "many",
        "number",
        "count",
        "total",
        "all",
        "any",
        "each",
        "every",
        "some",
        "overall",
        "value",
        "values",
        "data",
        "dataset",
        "table",
        "tables",
        "record",
        "observation",
        "observations",
        "measurement",
        "measurements",
        "reading",
        "readings",
        "records",
        "row",
        "rows",
        "entry",
        "entries",
        "have",
        "has",
        "had",
        "than",
        "then",
        "as",
        "into",
        "over",
        "under",
        "about",
        "across",
        "between",
        "during",
        "number",
        "amount",
        "figure",
        "figures",
        "please",
        "kindly",
        "also",
        "just",
        "only",
        "s",
        "whats",
        "vs",
        "versus",
    ]
)

MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twenty": 20,
    "fifty": 50,
    "hundred": 100,
}

_TOKEN = re.compile(r"\d{3}0s\b|\d+(?:[.,]\d+)*%?|[A-Za-z][A-Za-z0-9'\u2019]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def question_tokens(text: str) -> list[str]:
    """Lower-cased tokens of a question, keeping numbers (commas dropped) as they are."""
    tokens = []
    for raw in _TOKEN.findall(text):
        tok = raw.lower().replace(",", "").replace("\u2019", "'")
        if tok in _CONTRACTED:  # "what's" is "what is", never a possessive
            tokens += [tok[:-2], "is"]
            continue
        if tok.endswith("'s"):
            tok = tok[:-2]
        tokens.append(tok)
    return tokens


_CONTRACTED = frozenset({"what's", "who's", "where's", "when's", "how's", "that's", "it's"})


@cache
def identifier_words(identifier: str) -> tuple[str, ...]:
    """Split an identifier into words, expanding known abbreviations.

    >>> identifier_words("dep_delay")
    ('departure', 'delay')
    >>> identifier_words("orderDate")
    ('order', 'date')
    """
    expansions = abbreviations()
    if identifier.lower() in expansions:
        return expansions[identifier.lower()]
    words: list[str] = []
    for part in re.split(r"[_\W]+", _CAMEL.sub("_", identifier)):
        if not part:
            continue
        low = part.lower()
        words.extend(expansions.get(low) or _compound(low) or (low,))
    return tuple(words)


def raw_words(identifier: str) -> tuple[str, ...]:
    """An identifier's parts as written, lower case, nothing expanded or split further:
    people type `homeworld` as one word as often as "home world".

    >>> raw_words("homeworld"), raw_words("tropicalstorm_force_diameter")
    (('homeworld',), ('tropicalstorm', 'force', 'diameter'))
    """
    return tuple(p.lower() for p in re.split(r"[_\W]+", _CAMEL.sub("_", identifier)) if p)


# Small words people leave in lower case inside a camelCase name (`WeekofPurchase`).
_JOINERS = ("and", "of", "per", "for")


def _compound(part: str) -> tuple[str, ...] | None:
    """Two words run together, each an English word or a known abbreviation: "bodywt" ->
    body weight, "brainwt" -> brain weight. None when the part is a word itself."""
    if len(part) < 5 or not part.isalpha() or is_english(part):
        return None
    for joiner in _JOINERS:
        head = part[: -len(joiner)]
        if part.endswith(joiner) and len(head) > 3 and is_english(head):
            # `WeekofPurchase`, `NumberofLocations`: camelCase with its joining word left in
            # lower case, so the word before it comes out glued to it ("weekof")
            return (head, joiner)
    expansions = abbreviations()
    for cut in range(len(part) - 2, 2, -1):
        left, right = part[:cut], part[cut:]
        left_words = expansions.get(left) or ((left,) if is_english(left) else None)
        right_words = expansions.get(right) or ((right,) if is_english(right) else None)
        if left_words and right_words and len(left) > 2:
            # An abbreviation beside a short word is how a name is cut, not a compound:
            # "london" is not lon(gitude) + "don"; "bodywt" is body + w(eigh)t.
            short = [w for w, n in ((left, left_words), (right, right_words)) if n == (w,)]
            if any(len(w) < 4 for w in short) and len(short) == 1:
                continue
            return (*left_words, *right_words)
    return None


@cache
def split_unit(identifier: str) -> tuple[tuple[str, ...], str | None]:
    """An identifier's words without its unit, and the unit as answers show it.

    >>> split_unit("weight_kg"), split_unit("Price_In_USD"), split_unit("pct_female")
    ((('weight',), 'kg'), (('price',), 'USD'), (('female',), '%'))
    >>> split_unit("dep_delay")
    (('departure', 'delay'), None)
    """
    parts = [p.lower() for p in re.split(r"[_\W]+", _CAMEL.sub("_", identifier)) if p]
    known = units()
    unit = None
    if len(parts) > 1 and parts[-1] in known:
        unit = known[parts.pop()]
        if len(parts) > 1 and parts[-1] in ("in", "per"):
            parts.pop()  # "Price_In_USD", "speed_in_kmh"
    elif len(parts) > 1 and parts[0] in known and known[parts[0]] == "%":
        unit = known[parts.pop(0)]  # "pct_female": the share of something
    if unit is None:
        return identifier_words(identifier), None
    expansions = abbreviations()
    words = [w for p in parts for w in expansions.get(p, (p,))]
    return tuple(words), unit


def stems(words: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The words' dictionary forms in American spelling: how names are looked up."""
    return tuple(american(stem(w)) for w in words)


def is_number(token: str) -> bool:
    return bool(re.fullmatch(r"\d+(?:\.\d+)?", token))


def to_number(token: str) -> float | int | None:
    if token in NUMBER_WORDS:
        return NUMBER_WORDS[token]
    if not is_number(token):
        return None
    value = float(token)
    return int(value) if value.is_integer() else value


# Words that glue a question together without naming data.
GLUE_WORDS = STOPWORDS | {
    "which",
    "has",
    "have",
    "had",
    "most",
    "common",
    "popular",
    "frequent",
    "flown",
    "did",
    "happened",
    "made",
    "placed",
    "sold",
    "trend",
    "time",
    "breakdown",
    "compare",
    "comparison",
    "biggest",
    "it",
    "whole",
    "depart",
    "departed",
    "arrive",
    "arrived",
    "fly",
    "flew",
    "leave",
    "left",
    "reach",  # "did the temperature reach 95 degrees or more"
    "reached",
    "reaches",
    "go",
    "went",
    "operate",
    "operated",
    "make",
    "buy",
    "bought",
    "ordered",
    "place",
    "shipped",
    "sell",
    "spend",
    "spent",
    "happen",
    "appear",
    "exist",
    "recorded",
    "report",
    "reported",
    "used",
    "live",
    "lived",
    "living",
    "her",
    "his",
    "she",
    "he",
    "surveyed",
    "registered",
    "observed",
    "logged",
    "got",
    "get",
    "conduct",
    "conducted",
    "among",
    "amongst",
    "carried",
    "given",
    "gave",
    "received",
    "earned",
    "generated",
    "brought",
    "currently",
    "ever",
    "so",
    "far",
    "altogether",
    "ran",
    "run",
    "together",
    "right",
    "now",
    "write",
    "sql",
    "query",
    "draft",
    "dql",
    "block",
    "code",
    "generate",
    "cell",
    "snippet",
    "reusable",
    "need",
    "want",
    "like",
    "know",
    "paid",
    "aired",
    "come",
    "comes",
    "came",
    "account",
    "goes",
    "belongs",  # "what share of market value belongs to US companies"
    "belong",
    "aboard",
    "onboard",
    "available",
    "involved",  # "strikes that involved a Canada goose": the value after it picks the rows
    "involving",
    "involve",
}
