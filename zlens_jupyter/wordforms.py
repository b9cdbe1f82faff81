"""Word forms: the dictionary form of an English word, so inflections meet ("companies" and
"company", "grew" and "grow"), and the noun behind an adjective a value may be named by
("frosty" nights are `frost`). Shared by schema linking, value probing and the parser.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import re
from functools import cache
from pathlib import Path

from zlens_jupyter import disk_memo


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


# British spellings and the American ones they meet at ("licence" and `license_number`),
# each kept only where the American word is English too ("tour" is never "tor").
_AMERICAN = (
    ("isation", "ization"),
    ("ourhood", "orhood"),
    ("ourite", "orite"),
    ("ence", "ense"),
    ("our", "or"),
    ("tre", "ter"),
    ("ise", "ize"),
    ("yse", "yze"),
    ("ogue", "og"),
)


@cache
def american(lemma: str) -> str:
    """The American spelling of a dictionary form ("licence" -> license, "colour" -> color),
    or the form itself. Names are looked up by it, so either spelling finds a column."""
    for british, us in _AMERICAN:
        if lemma.endswith(british) and len(lemma) >= (5 if british == "tre" else 6):
            said = lemma[: -len(british)] + us
            if _lemmas(said):
                return said
    return lemma


# Lemmas that would merge a word people use for data with another ("data" is not "datum").
_NOT_LEMMAS = frozenset({"datum", "medium", "criterion"})


def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """`_read_lemmas(word)`, kept on disk between processes (`disk_memo`): a `zlens ask`
    process then reads the few hundred words it looks up instead of the tables (~60 ms)."""
    code = lemma_code()
    known = disk_memo.recall("lemmas", code, word)
    if known is not None:
        return {pos: tuple(forms) for pos, forms in json.loads(known).items()}
    found = _read_lemmas(word)
    disk_memo.remember("lemmas", code, word, json.dumps(found))
    return found


@cache
def lemma_code() -> str:
    """The memo key of what `stem` answers from: this file and lemminflect's table."""
    package = importlib.util.find_spec("lemminflect")
    folders = list(package.submodule_search_locations or []) if package else []
    table = str(Path(folders[0]) / "resources" / "lemma_lu.csv.gz") if folders else None
    return disk_memo.code_key(files=(__file__, table))


def _read_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """lemminflect's `getAllLemmas(word)`, read from its own tables without importing it:
    the package's import pulls in numpy and its loader decodes 80,000 gzip lines one by
    one (~0.3-0.7 s on the first question of every process); the same tables read here
    in ~0.1 s, with the same answers (lower-case lookup, overrides, the word's caps)."""
    tables = _lemma_tables()
    if tables is None:  # an unusual install: the ordinary way
        from lemminflect import getAllLemmas

        return dict(getAllLemmas(word))
    lookup, overrides = tables
    key = word.lower()
    found: dict[str, tuple[str, ...]] = {}
    for entry in lookup.get(key, "").split("\n"):
        if entry:
            category, forms = entry.split(",", 1)
            upos = category.upper()
            found["AUX" if upos == "MODAL" else upos] = tuple(forms.split("/"))
    found.update(overrides.get(key, {}))
    if word.isupper():
        return {k: tuple(f.upper() for f in v) for k, v in found.items()}
    if word[:1].isupper():
        return {k: tuple(f.capitalize() for f in v) for k, v in found.items()}
    return {k: tuple(f.lower() for f in v) for k, v in found.items()}


@cache
def _lemma_tables() -> tuple[dict[str, str], dict[str, dict[str, tuple[str, ...]]]] | None:
    """lemminflect's lemma lookup ({word: "category,forms" lines}) and its overrides."""
    package = importlib.util.find_spec("lemminflect")  # finds it without importing it
    folders = list(package.submodule_search_locations or []) if package else []
    if not folders:
        return None
    resources = Path(folders[0]) / "resources"
    try:
        text = gzip.decompress((resources / "lemma_lu.csv.gz").read_bytes()).decode()
        override_lines = (resources / "lemma_overrides.csv").read_text().splitlines()
    except OSError:
        return None
    lookup: dict[str, str] = {}
    for key, rest in re.findall(r"^([^,\n]*),([^\n]*)", text, re.M):
        held = lookup.get(key)
        lookup[key] = rest if held is None else f"{held}\n{rest}"
    overrides: dict[str, dict[str, tuple[str, ...]]] = {}
    for line in override_lines:
        line = line.strip()
        if line and not line.startswith("#"):
            word_in, pos, word_out = line.split(",")
            overrides.setdefault(word_in, {})[pos] = (word_out,)
    return lookup, overrides


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


@cache
def value_forms(word: str) -> tuple[str, ...]:
    """Other forms a stored value may take for a word of a question, most likely first:
    its lemma ("Humans" -> human), and for an adjective the noun it comes from ("frosty" ->
    frost, "rainy" -> rain, "sunny" -> sun, "northern" -> north).

    >>> value_forms("droids"), value_forms("frosty"), value_forms("northern")
    (('droid',), ('frost',), ('north',))
    """
    w = word.lower()
    forms: list[str] = []
    base = stem(w)
    if base != w:
        forms.append(base)
    if w.endswith("y") and len(w) > 4:
        forms.append(w[:-1])
        if len(w) > 5 and w[-2] == w[-3]:
            forms.append(w[:-2])  # sunny -> sun
    if w.endswith("ern") and len(w) > 5:
        forms.append(w[:-3])  # northern -> north
    if w.endswith("ean") and len(w) > 6:
        forms.append(w[:-2])  # european -> europe
    elif w.endswith(("ian", "can")) and len(w) > 4 and w not in ("median", "civilian"):
        forms.append(w[:-1])  # african -> africa, asian -> asia
    return tuple(dict.fromkeys(f for f in forms if len(f) > 2 and f != w))


@cache
def adjective_base(word: str) -> str | None:
    """The plain adjective of a comparative or superlative ("warmer" -> warm, "heaviest" ->
    heavy, "older" -> old), or None when the word is neither.

    >>> adjective_base("warmer"), adjective_base("heaviest"), adjective_base("water")
    ('warm', 'heavy', None)
    """
    w = word.lower()
    if not w.endswith(("er", "est")) or len(w) < 4:
        return None
    found = _lemmas(w).get("ADJ") or _lemmas(w).get("ADV")
    if found and found[0] != w:
        return str(found[0])
    return None


@cache
def is_english(word: str) -> bool:
    """Whether the English tables know the word (any part of speech)."""
    return len(word) > 1 and bool(_lemmas(word.lower()))


@cache
def is_adjective(word: str) -> bool:
    """A word English uses as an adjective ("automatic", "home"), whatever else it is."""
    return "ADJ" in _lemmas(word.lower())


def is_noun(word: str) -> bool:
    """Whether the English tables read the word as a noun."""
    return "NOUN" in _lemmas(word.lower())


# Plurals whose dictionary form the English tables give as the word itself.
_IRREGULAR_PLURALS = frozenset(
    {"men", "people", "children", "police", "cattle", "staff", "feet", "teeth", "mice"}
)


def is_plural(word: str) -> bool:
    """Whether a noun is said in the plural ("colleges", "men", "people").

    >>> is_plural("colleges"), is_plural("men"), is_plural("people"), is_plural("college")
    (True, True, True, False)
    """
    w = word.lower()
    return w in _IRREGULAR_PLURALS or (is_noun(w) and stem(w) != w)


def doer_of(word: str) -> str | None:
    """The verb an -er/-or noun names the doer of ("processors" -> process, "smokers" ->
    smoke, "winner" -> win), None for any other word."""
    return verb_root(word) if stem(word).endswith(("er", "or")) else None


def is_unknown(word: str) -> bool:
    """Whether the English tables know no form of the word: a domain's own noun
    ("processors", "pitchers" are not all there), never a glue word."""
    return word.isalpha() and len(word) > 3 and not _lemmas(word.lower())


@cache
def is_verb(word: str) -> bool:
    """Whether the English tables read the word as a verb ("hit", "scored")."""
    return "VERB" in _lemmas(word.lower())


@cache
def verb_root(word: str) -> str | None:
    """The verb behind a verb form or an agent noun, so "won", "wins" and `winner` meet, and
    "viewing" and `viewers`: the verb's lemma ("won" -> win, "sold" -> sell), or the verb an
    -er/-or noun is made from ("winners" -> win, "drivers" -> drive, "visitor" -> visit).
    None when the word is neither; a noun that is a verb itself ("number", "order") keeps
    its own meaning.

    >>> verb_root("won"), verb_root("winners"), verb_root("viewing"), verb_root("number")
    ('win', 'win', 'view', None)
    """
    w = word.lower()
    if len(w) < 3 or not w.isalpha():
        return None
    lemmas = _lemmas(w)
    verb = lemmas.get("VERB")
    if verb and verb[0] != w and "NOUN" not in lemmas:
        return str(verb[0])
    noun = stem(w)
    if noun.endswith("ee") and len(noun) > 5 and "VERB" not in _lemmas(noun):
        base = noun[:-2]  # "arrestees" -> arrest, "employee" -> employ, "trainee" -> train
        return base if "VERB" in _lemmas(base) else None
    if noun.endswith("al") and len(noun) > 6 and not {"VERB", "ADJ"} & set(_lemmas(noun)):
        base = noun[:-2]  # "survival" -> survive, "arrival" -> arrive, "rental" -> rent
        return next((c for c in (f"{base}e", base) if "VERB" in _lemmas(c)), None)
    if not noun.endswith(("er", "or")) or len(noun) < 5 or "VERB" in _lemmas(noun):
        return str(verb[0]) if verb and verb[0] != w else None
    base = noun[:-2]
    doubled = base[:-1] if len(base) > 2 and base[-1] == base[-2] else None
    for candidate in (base, f"{base}e", doubled):
        if candidate and len(candidate) > 2 and "VERB" in _lemmas(candidate):
            return candidate
    return None
