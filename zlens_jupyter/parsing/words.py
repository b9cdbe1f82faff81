"""Words: tokenizing questions and identifiers the same way, so they can meet.

Deterministic and small on purpose: the offline parser must give the same answer every time,
and a question it cannot read confidently is better clarified than guessed.
"""

from __future__ import annotations

import re
from functools import cache

# Identifier abbreviations common in warehouses, expanded so "departure delay" meets dep_delay.
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "dep": ("departure",),
    "arr": ("arrival",),
    "dest": ("destination",),
    "sched": ("scheduled",),
    "qty": ("quantity",),
    "amt": ("amount",),
    "num": ("number",),
    "cnt": ("count",),
    "avg": ("average",),
    "desc": ("description",),
    "dt": ("date",),
    "temp": ("temperature",),
    "visib": ("visibility",),
    "precip": ("precipitation",),
    "humid": ("humidity",),
    "dewp": ("dew", "point"),
    "alt": ("altitude",),
    "lat": ("latitude",),
    "lon": ("longitude",),
    "lng": ("longitude",),
    "tz": ("timezone",),
    "tailnum": ("tail", "number"),
    "cust": ("customer",),
    "prod": ("product",),
    "addr": ("address",),
    "pct": ("percent",),
    "yr": ("year",),
    "mo": ("month",),
    "wind_dir": ("wind", "direction"),
    "dir": ("direction",),
    "faa": ("faa", "code"),
}

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

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*%?|[A-Za-z][A-Za-z0-9']*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@cache
def stem(word: str) -> str:
    """A word's dictionary form, so inflections meet: plurals, past tenses, comparatives.

    The lemma comes from lemminflect's English tables (shipped in the package, no download),
    a noun reading first ("sales" -> "sale", "companies" -> "company", "women" -> "woman"),
    then a verb ("departed" -> "depart", "grew" -> "grow"), then an adjective ("longest" ->
    "long"). Unknown words ("tailnum", "dep") fall back to light suffix rules.

    >>> [stem(w) for w in ["flights", "categories", "delays", "departed", "boxes", "status"]]
    ['flight', 'category', 'delay', 'depart', 'box', 'status']
    >>> [stem(w) for w in ["companies", "women", "grew", "salaries", "tailnums"]]
    ['company', 'woman', 'grow', 'salary', 'tailnum']
    """
    w = word.lower()
    if len(w) <= 3 or not w.isalpha():
        return w
    lemmas = _lemmas(w)
    for pos in ("NOUN", "VERB", "ADJ", "ADV"):
        found = lemmas.get(pos)
        if found and found[0] not in _NOT_LEMMAS:
            return str(found[0])
    return _suffix_stem(w)


# Lemmas that would merge a word people use for data with another ("data" is not "datum").
_NOT_LEMMAS = frozenset({"datum", "medium", "criterion"})


def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    from lemminflect import getAllLemmas  # 0.1 s of tables: loaded on the first question

    return dict(getAllLemmas(word))


def _suffix_stem(w: str) -> str:
    for suffix, repl in (
        ("ies", "y"),
        ("sses", "ss"),
        ("xes", "x"),
        ("ches", "ch"),
        ("shes", "sh"),
    ):
        if w.endswith(suffix):
            return w[: -len(suffix)] + repl
    if w.endswith("ed") and len(w) > 5 and not w.endswith("eed"):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def question_tokens(text: str) -> list[str]:
    """Lower-cased tokens of a question, keeping numbers (commas dropped) as they are."""
    tokens = []
    for raw in _TOKEN.findall(text):
        tok = raw.lower().replace(",", "")
        if tok.endswith("'s"):
            tok = tok[:-2]
        tokens.append(tok)
    return tokens


@cache
def identifier_words(identifier: str) -> tuple[str, ...]:
    """Split an identifier into words, expanding known abbreviations.

    >>> identifier_words("dep_delay")
    ('departure', 'delay')
    >>> identifier_words("orderDate")
    ('order', 'date')
    """
    if identifier.lower() in ABBREVIATIONS:
        return ABBREVIATIONS[identifier.lower()]
    words: list[str] = []
    for part in re.split(r"[_\W]+", _CAMEL.sub("_", identifier)):
        if not part:
            continue
        low = part.lower()
        words.extend(ABBREVIATIONS.get(low, (low,)))
    return tuple(words)


def stems(words: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(stem(w) for w in words)


def is_number(token: str) -> bool:
    return bool(re.fullmatch(r"\d+(?:\.\d+)?", token))


def to_number(token: str) -> float | int | None:
    if token in NUMBER_WORDS:
        return NUMBER_WORDS[token]
    if not is_number(token):
        return None
    value = float(token)
    return int(value) if value.is_integer() else value
