"""Yes/no columns in a question: "who survived", "not employed", "the churn rate", flags
said by their opposite, and values said to be missing or known."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from ..vocabulary import opposites
from ..warehouse import Catalog, ColumnInfo
from ..wordforms import doer_of, is_english, is_plural, verb_root
from .lexicon import Lexicon, Span, Target, is_key, is_numeric
from .phrasing import CALENDAR_WORDS
from .reading import ParseState
from .rewording import HAVE_VERBS
from .spec import Filter
from .words import identifier_words, stem, to_number


def _doer(word: str, column: str) -> bool:
    """ "smokers" for `smoke`: the -er/-or noun of the verb a column is named by."""
    name = column.lower()
    verb = doer_of(word)
    return verb is not None and stem(word) != name and verb in (name, verb_root(name))


_RECORDED = frozenset({"recorded", "listed", "given", "known", "reported", "entered", "available"})


def no_value_recorded(tokens: list[str]) -> list[str]:
    """ "players with no salary recorded": "no" then at most two words then a word saying it
    was not written down is a missing value ("missing salary"), not an exclusion."""
    for i, token in enumerate(tokens):
        if token != "no":
            continue
        end = next((j for j in range(i + 2, min(i + 4, len(tokens))) if tokens[j] in _RECORDED), 0)
        if end:
            return [*tokens[:i], "missing", *tokens[i + 1 : end], *tokens[end + 1 :]]
    return tokens


def no_value_held(tokens: list[str], lexicon: Lexicon, catalog: Catalog) -> list[str]:
    """ "pets that have no name" -> "pets that have missing name": "no" right before the whole
    name of a text column (never a number, whose "no" is zero, nor a yes/no column, whose
    "no" is a value) is a value not recorded."""
    for i, token in enumerate(tokens[:-1]):
        if token != "no" or i == 0 or tokens[i - 1] not in ("have", "has", "had", "with"):
            continue
        for size in (2, 1):
            if i + 1 + size < len(tokens) and tokens[i + 1 + size] not in _AFTER_A_THING:
                continue  # "no health insurance": the name is only part of what is said
            named = lexicon.lookup(tokens[i + 1 : i + 1 + size])
            columns = [t for t in named if t.kind == "column"]
            text = not any(is_numeric(t.type) or yes_no_column(t, catalog) for t in columns)
            if columns and len(columns) == len(named) and text:
                return [*tokens[:i], "missing", *tokens[i + 1 :]]
    return tokens


def is_missing(tokens: list[str], span: Span, taken: set[int]) -> bool:
    """ "missing an ozone reading", "with a missing price": a column whose value is absent.
    Takes the word "missing"."""
    before = span.start - 1
    while before >= 0 and tokens[before] in ("a", "an", "the", "its", "their"):
        before -= 1
    at = before if before >= 0 and tokens[before] == "missing" else -1
    if at < 0 and span.end < len(tokens) and tokens[span.end] == "missing":
        at = span.end  # "ozone missing"
    if at < 0 or at in taken:
        return False
    taken.add(at)
    return True


def is_known(tokens: list[str], span: Span, taken: set[int]) -> bool:
    """ "characters with a known birth year": a column whose value is there. Takes the word
    "known"."""
    before = span.start - 1
    while before >= 0 and tokens[before] in ("a", "an", "the", "its", "their"):
        before -= 1
    at = before if before >= 0 and tokens[before] in ("known", "recorded") else -1
    if at < 0 or at in taken:
        return False
    taken.add(at)
    return True


_YES_NO = {"yes": "no", "y": "n", "true": "false"}  # stored pairs, the yes first
_ENUMERATED = re.compile(r"^\s*\d{1,2}\s*[.)]\s+(?=\D)")  # "1. Yes": a survey label's order


# Answers that say nothing either way: a yes/no column may hold them too ('y', 'n', 'nk').
_NOT_KNOWN = frozenset({"nk", "unknown", "not known", "dk", "don't know", "na", "n/a"})


def _answers(stored: ColumnInfo) -> dict[str, str]:
    """A column's values by their lower-case answer word: {"yes": "1. Yes", "no": "2. No"};
    an answer that is not known ('nk') is neither, and left out when yes and no are there."""
    answers = {_ENUMERATED.sub("", v).lower(): v for v in stored.distinct_values}
    known = {k: v for k, v in answers.items() if k not in _NOT_KNOWN}
    return known if len(known) == 2 and len(known) < len(answers) else answers


# The no of a column that records whether a thing was there: `airbag` 'airbag'/'none',
# `seatbelt` 'belted'/'none', `hispanic` 'hispanic'/'not'.
_ABSENT = frozenset({"none", "not", "without", "neither"})


def _stored_pair(stored: ColumnInfo) -> tuple[str, str] | None:
    """The stored (yes, no) values of a two-valued text column read as yes/no: the usual
    answer words, or one value and a word saying the thing is absent."""
    values = _answers(stored)
    for y, n in _YES_NO.items():
        if set(values) == {y, n}:
            return values[y], values[n]
    absent = [v for v in values if v in _ABSENT]
    if len(values) == 2 and len(absent) == 1:
        (present,) = set(values) - set(absent)
        return values[present], values[absent[0]]
    return None


def yes_no_column(target: Target, catalog: Catalog) -> bool:
    info = catalog.table(target.table) if target.kind == "column" else None
    stored = info.column(target.column or "") if info is not None else None
    if stored is None:
        return False
    return stored.type.upper() == "BOOLEAN" or _stored_pair(stored) is not None or _is_flag(stored)


# Participles after which "by" still groups: "revenue broken down by region".
_GROUPING_PARTICIPLES = frozenset(
    {"grouped", "broken", "split", "sorted", "ordered", "ranked", "segmented", "divided"}
    | {"categorized", "categorised", "classified", "aggregated", "bucketed", "listed"}
    | {"separated", "shown", "summarized", "summarised", "totaled", "totalled", "averaged"}
)


def agent_of_participle(tokens: list[str], span: Span, catalog: Catalog) -> bool:
    at = span.start
    while at > 2 and tokens[at - 1] != "by" and is_english(tokens[at - 1]) and at > span.start - 2:
        at -= 1  # "by repeat guests": past the words qualifying the name
    if at < 2 or tokens[at - 1] != "by" or tokens[at - 2] in _GROUPING_PARTICIPLES:
        return False
    before = tokens[at - 2]
    participle = verb_root(before) is not None and (
        before.endswith(("ed", "en")) or before in _IRREGULAR
    )
    return participle and any(yes_no_column(t, catalog) for t in span.targets)


_IRREGULAR = frozenset({"made", "done", "sold", "paid", "won", "held", "run", "bought", "kept"})


_FLAG_LEADS = frozenset({"is", "has", "was", "had"})


def _is_flag(stored: ColumnInfo) -> bool:
    """`is_repeated_guest`, `HasCrCard`: a number column named as a yes/no question holds
    1 for yes and 0 for no (the usual coding; the answer says which value it kept)."""
    words = identifier_words(stored.name)
    if stored.zero_one:  # profiled: every value is 0 or 1, whatever the name says
        return True
    return len(words) > 1 and words[0] in _FLAG_LEADS and is_numeric(stored.type)


def negated_yes_no(
    tokens: list[str], lexicon: Lexicon, catalog: Catalog
) -> tuple[list[str], set[tuple[str, str, int]]]:
    """ "not"/"non" right before the name of a yes/no column is its no ("how many were not
    citizens" counts citizen = No): the word goes, the column is remembered. Any other
    "not" stays an exclusion, asked about."""
    negated: set[tuple[str, str, int]] = set()
    kept: list[str] = []
    tokens = _without_it(tokens, lexicon, catalog)
    skip = 0
    for i, token in enumerate(tokens):
        if skip:
            skip -= 1
            continue
        lacked = _lacked_yes_no(tokens, i, lexicon, catalog)
        if lacked is not None:
            # "rides without a tip", "had no tip": the no of `tip`; the words go, the name stays
            column, words_dropped, name_after = lacked
            negated.add((column.table, column.column or "", len(kept) + name_after))
            skip = words_dropped - 1
            continue
        plain = _without_negative_prefix(token, lexicon, catalog)
        if plain is not None:
            # "uninsured", "unemployed": the no of `insurance`, `employed`
            column, word = plain
            negated.add((column.table, column.column or "", len(kept)))
            kept.append(word)
            continue
        opposite = None if lexicon.lookup([token]) else _opposite_yes_no(token, lexicon, catalog)
        if opposite is not None:
            # "how many passengers died": the no of `survived` (vocabulary `opposites`)
            word, column = opposite
            negated.add((column.table, column.column or "", len(kept)))
            kept.append(word)
            continue
        kept.append(token)
    return kept, negated


_LACKING_ARTICLES = ("a", "an", "any", "one")


def _lacked_name(
    tokens: list[str], at: int, lexicon: Lexicon, catalog: Catalog, whole: bool = True
) -> tuple[Target, int, int, int] | None:
    """(the yes/no column, where its name starts, its length, where the kept words start)
    when what starts at `at` is an optional article, an optional word the data does not know
    ("US citizens", kept for the reading of modifiers to say), then the name of exactly one
    yes/no column: "a tip", "an airbag". With `whole`, the name must end the thing said (not
    "a tip jar")."""
    kept = at + 1 if at < len(tokens) and tokens[at] in _LACKING_ARTICLES else at
    if kept < len(tokens) and tokens[kept] == "single":
        kept += 1
    unknown = kept + 1 < len(tokens) and not lexicon.lookup(tokens[kept : kept + 1])
    for start, size in ((kept, 2), (kept, 1), *([(kept + 1, 1)] if unknown else [])):
        words = tokens[start : start + size]
        after = tokens[start + size] if start + size < len(tokens) else ""
        if len(words) < size or (whole and after and after not in _AFTER_A_THING):
            continue
        named = [t for t in lexicon.lookup(words) if t.kind == "column"]
        if len(named) == 1 and yes_no_column(named[0], catalog):
            return named[0], start, size, kept
    return None


def _lacked_yes_no(
    tokens: list[str], i: int, lexicon: Lexicon, catalog: Catalog
) -> tuple[Target, int, int] | None:
    """ "without a tip", "had no tip", "not US citizens": lacking the thing a yes/no column
    records is its no. Returns the column, how many words go (the negation and its
    article), and how far after them its name starts."""
    token = tokens[i]
    if token == "no" and (i == 0 or tokens[i - 1] not in HAVE_VERBS):
        return None  # "no" alone may be the stored answer itself ("smoke = no")
    if token not in ("without", "no", "not", "non"):
        return None
    found = _lacked_name(tokens, i + 1, lexicon, catalog, whole=token in ("without", "no"))
    if found is None:
        return None
    column, start, _, kept = found
    if token in ("not", "non") and kept != i + 1:
        return None  # "not a citizen" reads oddly as a negation of the yes; asked
    return column, kept - i, start - kept


def _without_it(tokens: list[str], lexicon: Lexicon, catalog: Catalog) -> list[str]:
    """ "rides with a tip compared with those without one" -> "… without a tip": "without
    one/it/them" names again the yes/no thing said with "with" before it."""
    for i in range(1, len(tokens)):
        if tokens[i] not in ("one", "it", "them") or tokens[i - 1] != "without":
            continue
        for j in range(i - 2, -1, -1):
            if tokens[j] not in HAVE_VERBS:
                continue
            found = _lacked_name(tokens, j + 1, lexicon, catalog, whole=False)
            if found is not None:
                _, start, size, _ = found
                return [*tokens[:i], *tokens[start : start + size], *tokens[i + 1 :]]
    return tokens


def moved_positions(
    negated: set[tuple[str, str, int]], before: list[str], after: list[str]
) -> set[tuple[str, str, int]]:
    """The negated columns' positions carried from the words they were found in to the words
    after later rewordings ("aged between 30 and 40" becomes longer): each word kept as it
    was is followed to where it is now; a word no longer there is left out."""
    moved: dict[int, int] = {}
    for block in SequenceMatcher(None, before, after, autojunk=False).get_matching_blocks():
        moved.update({block.a + k: block.b + k for k in range(block.size)})
    return {(table, column, moved[at]) for table, column, at in negated if at in moved}


def _without_negative_prefix(
    token: str, lexicon: Lexicon, catalog: Catalog
) -> tuple[Target, str] | None:
    """ "uninsured" -> (`insurance`, "insured"): a word the data names nothing by, made of
    "un"/"non" and a word naming one yes/no column."""
    for prefix in ("un", "non"):
        rest = token.removeprefix(prefix)
        if rest == token or len(rest) < 4 or lexicon.lookup([token]):
            continue
        named = [t for t in lexicon.lookup([rest]) if t.kind == "column"]
        if len(named) == 1 and yes_no_column(named[0], catalog):
            return named[0], rest
    return None


# Words that may follow the thing had: "houses with a fireplace in 2006", "… and a pool".
_AFTER_A_THING = frozenset(
    {"in", "on", "at", "and", "or", "for", "from", "by", "during", "since", "before", "after"}
    | {"per", "than", "that", "who", "which", "were", "was", "are", "is"}
)


# Verbs of getting a thing: "got no raise" is having none of it
_GETTING = frozenset({"got", "get", "gets", "received", "receive", "receives"})
# "vary with", "change with": what follows is what the figure is grouped by
_VARY_VERBS = frozenset({"vary", "varies", "differ", "differs", "change", "changes", "increase"})


def having_a_number(tokens: list[str], lexicon: Lexicon, catalog: Catalog) -> tuple[list[str], str]:
    """ "houses that have a fireplace" -> "… have more than 0 fireplace", "have no fireplace"
    -> "have exactly 0 fireplace": having something a number column counts or measures
    (`fireplaces`, `trans_fat`), with no number said, is that number above zero (or zero).
    Only a column of whole or decimal numbers that is no key, calendar part or yes/no flag;
    the reading is returned to be said."""
    for i, verb in enumerate(tokens[:-1]):
        lacking = verb == "without" and tokens[i + 1] in ("a", "an", "any")
        got = verb in _GETTING and tokens[i + 1] == "no"  # "people who got no raise"
        if verb not in HAVE_VERBS and not lacking and not got:
            continue  # "days without a single death": "revenue without returns" is asked
        if verb == "with" and i > 0 and tokens[i - 1] in _VARY_VERBS:
            continue  # "how does salary change with years since PhD": a grouping, no having
        j, none = i + 1, tokens[i + 1] == "no" or lacking
        if none or tokens[j] in ("a", "an", "any", "some"):
            j += 1
        if lacking and tokens[j : j + 1] == ["single"]:
            j += 1
        for size in (3, 2, 1):
            words = tokens[j : j + size]
            if len(words) < size or to_number(words[0]) is not None:
                continue
            after = tokens[j + size] if j + size < len(tokens) else ""
            if after and after not in _AFTER_A_THING:
                continue  # "had a winning record": the column names only part of the thing
            found = {
                (t.table, t.column)
                for t in lexicon.lookup(words)
                if t.kind == "column"
                and is_numeric(t.type)
                and not is_key(t.column or "")
                and (t.column or "").lower() not in CALENDAR_WORDS
                and not yes_no_column(t, catalog)
            }
            if len(found) != 1:
                continue
            (_, column), said = next(iter(found)), " ".join(tokens[i : j + size])
            have = "have" if verb in ("contain", "contains", "include", "includes") else verb
            have = "with" if lacking else "have" if got else have
            compared = ["exactly", "0"] if none else ["more", "than", "0"]
            out = [*tokens[:i], have, *compared, *words, *tokens[j + size :]]
            return out, f"'{said}' read as {column} {'= 0' if none else '> 0'}"
    return tokens, ""


def _opposite_yes_no(token: str, lexicon: Lexicon, catalog: Catalog) -> tuple[str, Target] | None:
    """(the opposite word, its column) when a word the data does not name is the opposite
    of the name of exactly one yes/no column: "died" or "deaths" for `survived`."""
    forms = {token, stem(token), verb_root(token) or ""} - {""}
    found: dict[Target, str] = {}
    for form in forms:
        for other in opposites().get(form, ()):
            for target in lexicon.lookup([other]):
                if target.kind == "column" and yes_no_column(target, catalog):
                    found.setdefault(target, other)
    if len(found) != 1:
        return None
    target, word = next(iter(found.items()))
    return word, target


def rates_of_yes(tokens: list[str], lexicon: Lexicon, catalog: Catalog) -> list[tuple[int, str]]:
    """Where "rate" follows the name of a yes/no column: "survival rate" is the share of the
    rows where `survived` is yes, as "what percentage survived" is."""
    found = []
    for i in range(1, len(tokens)):
        if tokens[i] not in ("rate", "rates"):  # "compare survival rates of …"
            continue
        word = tokens[i - 1]
        named = lexicon.lookup([word]) or [
            # "callback rate" over `received_callback`: the one yes/no column the word ends
            Target("column", t.name, c.name, type=c.type)
            for t in catalog.tables.values()
            for c in t.columns
            if _ends_name(c.name, word)
        ]
        for target in named:
            info = catalog.table(target.table) if target.kind == "column" else None
            stored = info.column(target.column or "") if info is not None else None
            if stored is not None and (
                _stored_pair(stored) is not None
                or stored.type.upper() == "BOOLEAN"
                or stored.zero_one
            ):
                found.append((i, target.table))
                break
    return found


def _ends_name(name: str, word: str) -> bool:
    """Whether a word ends a column's name: "callback" for `received_callback` (split as
    received, call, back), "winner" for `series_winner`."""
    words = identifier_words(name)
    return any("".join(words[-k:]) in (word, stem(word)) for k in (1, 2, 3))


def yes_no_filters(
    p: ParseState, spans: list[Span], aggs: list[tuple[int, int, str]]
) -> dict[Span, Filter]:
    """A column of yes/no values named as a verb or adjective is a condition, not a measure:
    "how many women survived" counts the rows where `survived` is yes. Not when the count
    phrase names the column itself ("how many survived values")."""
    found: dict[Span, Filter] = {}
    for span in spans:
        column = next((t for t in span.targets if t.kind == "column"), None)
        info = p.catalog.table(column.table) if column is not None else None
        stored = info.column(column.column or "") if info is not None and column else None
        if column is None or stored is None:
            continue
        pair = _stored_pair(stored)
        yes: str | bool | int | None = pair[0] if pair is not None else None
        if yes is None and stored.type.upper() == "BOOLEAN":
            yes = True
        flag = yes is None and _is_flag(stored)
        if flag:
            yes = 1
        right_after = any(e == span.start and a == "count" for _, e, a in aggs)
        if right_after and span.end < len(p.tokens):
            # "how many private colleges": the column qualifies the plural noun after it
            after = p.tokens[span.end]
            right_after = not (is_plural(after) and after != "values")
        said = p.tokens[span.start]
        if right_after and span.end - span.start == 1 and _doer(said, column.column or ""):
            right_after = False  # "the number of smokers": the rows whose `smoke` is yes
        if yes is not None and not right_after:
            name = column.column or ""
            if (column.table, name, span.start) in p.negated:  # "were not citizens": the no
                no = pair[1] if pair is not None else 0 if flag else not yes
                yes = no
            found[span] = Filter(column.table, name, "=", yes, label=name)
    return found


def both_answers(filters: list[Filter]) -> list[Filter]:
    """ "private and public colleges": a yes/no column said once as its yes and once as its
    no asks for both, side by side (one "in" filter, grouped by below), not for neither."""
    kept: list[Filter] = []
    for f in filters:
        same = next((k for k in kept if (k.table, k.column) == (f.table, f.column)), None)
        if same is None:
            kept.append(f)
        elif same.value != f.value:
            same.op, same.value = "in", [same.value, f.value]
    return kept
