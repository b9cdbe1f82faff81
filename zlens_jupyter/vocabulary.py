"""The shared vocabulary (`vocabulary.yml`): abbreviations, units and synonyms that schema
linking and the question parser read real schemas with. Data, not code, so it grows by
editing one file; loaded once."""

from __future__ import annotations

from functools import cache
from importlib import resources

from zlens_jupyter.yaml_text import load_yaml


@cache
def _data() -> dict[str, object]:
    text = (resources.files("zlens_jupyter") / "vocabulary.yml").read_text(encoding="utf-8")
    data = load_yaml(text)  # parsed once, then read back as JSON (see yaml_text)
    assert isinstance(data, dict)
    return data


@cache
def abbreviations() -> dict[str, tuple[str, ...]]:
    """{"dep": ("departure",), "dewp": ("dew", "point"), ...}"""
    return {short: said[0] for short, said in _abbreviated().items()}


@cache
def abbreviation_aliases() -> dict[str, tuple[tuple[str, ...], ...]]:
    """{"psavert": (("savings", "rate"), ...)}: the shorter ways people say what a whole
    identifier stands for, after its full name (a list in the file). Weak names."""
    return {short: said[1:] for short, said in _abbreviated().items() if len(said) > 1}


def _abbreviated() -> dict[str, tuple[tuple[str, ...], ...]]:
    raw = _data().get("abbreviations") or {}
    assert isinstance(raw, dict)
    return {
        str(k).lower(): tuple(
            tuple(str(v).split()) for v in (said if isinstance(said, list) else [said])
        )
        for k, said in raw.items()
    }


@cache
def units() -> dict[str, str]:
    """{"kg": "kg", "pct": "%", "usd": "USD", ...}: identifier suffix -> how it is shown."""
    raw = _data().get("units") or {}
    assert isinstance(raw, dict)
    return {str(k).lower(): str(v) for k, v in raw.items()}


@cache
def quantities() -> dict[str, str]:
    """{"kg": "weight", "USD": "price", ...}: a unit as shown -> the quantity it measures."""
    raw = _data().get("quantities") or {}
    assert isinstance(raw, dict)
    return {str(u): str(q).lower() for q, us in raw.items() for u in us}


@cache
def quantity_words() -> dict[str, frozenset[str]]:
    """{"length": {"distance", "height", ...}}: words naming a column that measures a
    quantity without saying its unit."""
    raw = _data().get("quantity_words") or {}
    assert isinstance(raw, dict)
    return {str(q).lower(): frozenset(str(w).lower() for w in ws) for q, ws in raw.items()}


@cache
def synonyms() -> dict[str, tuple[str, ...]]:
    """Each word of a synonym group -> the other words of its group."""
    groups = _data().get("synonyms") or []
    assert isinstance(groups, list)
    out: dict[str, tuple[str, ...]] = {}
    for group in groups:
        words = [str(w).lower() for w in group]
        for word in words:
            out[word] = tuple(w for w in words if w != word)
    return out


@cache
def value_synonyms() -> dict[str, tuple[str, ...]]:
    """{"women": ("female", "f"), ...}: other words a stored value may be under."""
    raw = _data().get("value_synonyms") or {}
    assert isinstance(raw, dict)
    return {str(k).lower(): tuple(str(v).lower() for v in vs) for k, vs in raw.items()}


@cache
def opposites() -> dict[str, tuple[str, ...]]:
    """{"died": ("survived",), "survived": ("died",), ...}: each word -> its opposites (the
    pairs are read both ways)."""
    pairs = _data().get("opposites") or []
    assert isinstance(pairs, list)
    out: dict[str, tuple[str, ...]] = {}
    for a, b in pairs:
        a, b = str(a).lower(), str(b).lower()
        out[a] = (*out.get(a, ()), b)
        out[b] = (*out.get(b, ()), a)
    return out


@cache
def scale_ends() -> dict[str, tuple[str, ...]]:
    """{"short": ("tall", "long"), ...}: a scale's low-end adjective -> its high-end ones."""
    data = _data().get("scale_ends") or {}
    assert isinstance(data, dict)
    return {str(k).lower(): tuple(str(v).lower() for v in vs) for k, vs in data.items()}


@cache
def negatives() -> dict[str, tuple[str, ...]]:
    """{"loss": ("profits", "profit", ...), ...}: a word for a figure below zero -> the words
    naming the figure it is the negative of."""
    raw = _data().get("negatives") or {}
    assert isinstance(raw, dict)
    return {str(k).lower(): tuple(str(v).lower() for v in vs) for k, vs in raw.items()}


def _word_set(key: str) -> frozenset[str]:
    """A list of words in the vocabulary file, lower-cased."""
    words = _data().get(key) or []
    assert isinstance(words, list)
    return frozenset(str(w).lower() for w in words)


@cache
def kinds_named() -> dict[str, tuple[str, ...]]:
    """{"institution": ("college", "school", "university")}: a general word -> its kinds."""
    raw = _data().get("kinds_named") or {}
    assert isinstance(raw, dict)
    return {str(k).lower(): tuple(str(v).lower() for v in vs) for k, vs in raw.items()}


@cache
def happenings() -> frozenset[str]:
    """Verbs saying only that counted things took place ("matches were played")."""
    return _word_set("happenings")


@cache
def high_is_bad() -> frozenset[str]:
    """Words naming figures where more is worse ("delay", "cost", "deaths")."""
    return _word_set("high_is_bad")


@cache
def figure_verbs() -> frozenset[str]:
    """Verbs whose object is the figure beside them ("hit the most home runs")."""
    return _word_set("figure_verbs")


@cache
def awards() -> frozenset[str]:
    """Prizes whose table holds one row per win ("oscars"), in the singular."""
    return _word_set("awards")


@cache
def counted_by_verb() -> dict[str, str]:
    """{"died": "deaths", …}: a verb said of people -> the noun of a column counting it."""
    pairs = _data().get("counted_by_verb") or {}
    assert isinstance(pairs, dict)
    return {str(k).lower(): str(v).lower() for k, v in pairs.items()}


@cache
def people() -> frozenset[str]:
    """Nouns for persons ("passengers", "children"): their comparisons are about age."""
    return _word_set("people")


@cache
def country_codes() -> dict[str, tuple[str, ...]]:
    """{"portugal": ("pt", "prt"), "united kingdom": ("gb", "gbr"), ...}: a country's names
    (ISO 3166 short, common and official, from pycountry's bundled data) -> its two- and
    three-letter codes, which is how many tables store countries."""
    import pycountry  # loaded on the first value probe that needs it, not at import

    out: dict[str, tuple[str, ...]] = {}
    for country in pycountry.countries:
        names = [
            name.lower()
            for attr in ("name", "common_name", "official_name")
            if (name := getattr(country, attr, None))
        ]
        # After the codes, every name the country goes by: the UN's 'United States of
        # America', 'Viet Nam', 'Iran (Islamic Republic of)' for "United States", "Vietnam",
        # "Iran" (told apart from the codes by their length)
        codes = (country.alpha_2.lower(), country.alpha_3.lower(), *names)
        for name in names:
            out.setdefault(name, codes)
            out.setdefault(name.split(",")[0], codes)  # "Korea, Republic of"
    return out
