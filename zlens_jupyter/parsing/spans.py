"""The words around a name: adjectives that name a column ("the heaviest"), verbs that
are figures' verbs ("home runs hit"), units, ranges and superlatives left after a name."""

from __future__ import annotations

import re
from dataclasses import replace

from ..vocabulary import figure_verbs, high_is_bad, quantities, quantity_words, scale_ends, units
from ..warehouse import Catalog
from ..wordforms import adjective_base, is_adjective, is_noun, is_verb, value_forms, verb_root
from .calendar_reading import calendar_span_at
from .lexicon import Lexicon, Span, Target, is_key, is_numeric
from .phrasing import CALENDAR_WORDS, GRAINS, SUPERLATIVES, Comparison, superlative_direction
from .reading import HAVING, is_integer, names_number, span_text
from .spec import Filter, Measure, QuestionSpec
from .words import GLUE_WORDS, identifier_words, question_tokens, split_unit, stem, stems, to_number

# Superlatives that rank without naming what by ("the highest"), unlike "the longest".
_RANK_ONLY = frozenset(w for w in SUPERLATIVES if w not in ("longest", "shortest", "busiest"))
_HOW_WORDS = frozenset({"long", "tall", "big", "heavy", "old", "far", "large", "high", "fast"})
# Words people put after a measure's name that add nothing to it: "wind speed" is `Wind`,
# "ozone level" is `Ozone`, "clarity grade" is `clarity`.
_HEAD_NOUNS = frozenset(
    {"level", "speed", "rate", "amount", "value", "figure", "reading", "grade", "type", "score"}
    | {"kind", "size", "weight", "time", "measurement", "category", "class", "mileage"}
    | {"people", "person"}  # "unemployed people"
    | {"plan", "group", "status", "mode", "method", "option"}  # "meal plan" for `meal`
    | {"cost", "fee", "tuition"}  # "room and board cost" for `Room.Board`
    | {"content", "system"}  # "sodium content", "sewer system"
    | {"rating", "assessment", "concentration"}  # "Blair rating" for `Blair`
    | {"challenge"}  # "technical challenges won" for `technical_winner`
)
# Verbs that say a comparison's column without naming it: "diamonds that weigh over 2 carats".
_MEASURE_VERBS = frozenset(
    {"weigh", "cost", "earn", "measure", "last", "take", "get", "pay", "charge", "spend"}
)


def absorb_head_nouns(tokens: list[str], spans: list[Span], taken: set[int], lex: Lexicon) -> None:
    """Marks taken a generic noun right after a column's name ("wind speed" for `Wind`), and
    a word whose initial is the column's one-letter part ("solar radiation" for `Solar.R`),
    when that word names nothing in the data itself."""
    for span in spans:
        at = span.end
        columns = [t for t in span.targets if t.kind == "column"]
        if at >= len(tokens) or at in taken or not columns or lex.lookup([tokens[at]]):
            continue
        word = tokens[at]
        if stem(word) in ("rate", "ratio") and all(is_integer(c.type) for c in columns):
            continue  # "acceptance rate" over a count of acceptances is no rate: asked
        initials = {w for c in columns for w in identifier_words(c.column or "") if len(w) == 1}
        if stem(word) in _HEAD_NOUNS or (word[:1] in initials and len(word) > 3):
            taken.add(at)


def adjective_spans(
    tokens: list[str],
    spans: list[Span],
    taken: set[int],
    lex: Lexicon,
    comparisons: list[Comparison],
    superlative_at: int | None,
) -> list[Span]:
    """Columns named by an adjective or verb through the vocabulary: "hotter than 90" is the
    temperature, "weigh more than 100" the weight, "the oldest baker" ranks by age. A
    superlative names its column only when nothing else in the question is a number to rank
    by ("the longest total sleep" ranks by the sleep named)."""
    found: list[Span] = []
    for comparison in comparisons:
        at = comparison.op_start - 1
        named = _named_by_adjective(tokens, at, lex) if at >= 0 and at not in taken else []
        found += named
        if not named and tokens[comparison.op_start] not in ("more", "less", "fewer", "greater"):
            # "longer than 5000": the operator's own adjective names the length
            found += _named_by_adjective(tokens, comparison.op_start, lex)
    for at in range(1, len(tokens)):
        if tokens[at - 1] == "how" and tokens[at] in _HOW_WORDS and at not in taken:
            # "how tall is Luke" names the height; "how long does the cow sleep" only asks
            # for the sleep it names.
            named = _named_by_adjective(tokens, at, lex)
            if named or any(names_number(s) for s in spans):
                taken.add(at)
            found += named
    numbers = [  # "which month was the hottest": `Month` is what is ranked, not a measure
        s
        for s in spans
        if names_number(s)
        and not all((t.column or "").lower() in CALENDAR_WORDS for t in s.targets)
        # "which series had the oldest bakers": the series (a number) is what is ranked
        and not (s.start == 1 and tokens[0] in ("which", "what"))
    ]
    after = superlative_at + 1 if superlative_at is not None else len(tokens)
    ranks_time = after < len(tokens) and tokens[after] in GRAINS
    if (
        superlative_at is not None
        and not numbers
        and tokens[superlative_at] not in _RANK_ONLY
        # "the hottest day": which day, not the highest temperature; the temperature is
        # what ranks the days only where each row is one (`Month`, `Day` columns)
        and (not ranks_time or calendar_span_at(spans, after))
    ):
        found += _named_by_adjective(tokens, superlative_at, lex)
    for span in found:
        taken.update(range(span.start, span.end))
    return found


def ranked_by_a_participle(tokens: list[str], spec: QuestionSpec, lex: Lexicon) -> None:
    """ "How much service does the highest paid professor have?": "highest paid" ranks the
    rows by the pay the participle names, and the figure asked is that row's; never the
    highest service. Read as that row, shown whole; said."""
    if len(spec.measures) != 1 or spec.group_by or spec.listing or spec.limit is not None:
        return
    m = spec.measures[0]
    if m.agg not in ("max", "min") or m.target is None or spec.time_grain or spec.share_of:
        return
    for i in range(len(tokens) - 1):
        if superlative_direction(tokens[i]) is None or not (
            is_verb(tokens[i + 1]) or is_adjective(tokens[i + 1])
        ):
            continue
        named = [
            t
            for t in lex.lookup(tokens[i + 1 : i + 2]) or _nominalized(tokens[i + 1], lex)
            if t.kind == "column" and is_numeric(t.type)
        ]
        if len(named) != 1 or named[0].column == m.target.column:
            continue
        by = named[0]
        desc = bool(superlative_direction(tokens[i]))
        spec.measures = [Measure("max" if desc else "min", by.table, by, alias=by.column or "")]
        spec.listing, spec.limit, spec.order_desc = True, 1, desc
        spec.notes.append(
            f"read as the row with the {'highest' if desc else 'lowest'} {by.column}, its "
            f"{m.target.column} among its columns"
        )
        return


_NOUN_ENDINGS = ("ice", "ion", "ment", "ance", "ence", "ure", "al", "ing")


def _nominalized(word: str, lex: Lexicon) -> list[Target]:
    """ "serving" for `yrs.service`, "producing" for `production`: the columns named by
    the noun made from the word's verb (its root, less a final e, and a noun ending)."""
    root = verb_root(word)
    if root is None:
        return []
    root = root[:-1] if root.endswith("e") else root
    if len(root) < 4:
        return []
    found = {
        (t.table, t.column): t
        for key, targets in lex.phrases.items()
        for w in key
        if w.startswith(root) and w[len(root) :] in _NOUN_ENDINGS
        for t in targets
    }
    return list(found.values())


def verb_of_a_name(
    tokens: list[str], spans: list[Span], taken: set[int], lex: Lexicon
) -> list[Span]:
    """ "won the most technical challenges": a verb nothing else read, said before a name
    whose column it completes (`technical_winner`: technical, and who won), narrows that name
    to the column and is taken."""
    out = list(spans)
    for i, word in enumerate(tokens):
        if i in taken or verb_root(word) is None:
            continue
        for k, span in enumerate(out):
            between = range(i + 1, span.start)
            if span.start <= i or span.start - i > 4:
                continue
            if any(j not in taken and tokens[j] not in GLUE_WORDS for j in between):
                continue
            said = tokens[span.start : span.end]
            for words in ([*said, word], [word, *said]):
                named = tuple(t for t in lex.lookup(words) if t.kind == "column")
                if named and set(named) != set(span.targets):
                    out[k] = replace(span, targets=named)
                    taken.add(i)
                    break
            if i in taken:
                break
    return out


def one_ranked_row(tokens: list[str], spec: QuestionSpec, lex: Lexicon) -> None:
    """ "How many years of service does the highest paid professor have?": one figure asked
    of the row a superlative picks, never the largest salary beside a count of service
    lengths. Read as that row, shown whole, ranked by the superlative's column; said."""
    if len(spec.measures) != 2 or spec.group_by or spec.listing or spec.limit is not None:
        return
    if "and" in tokens or spec.time_grain or spec.share_of:
        return
    ranked = [m for m in spec.measures if m.agg in ("max", "min") and m.target is not None]
    if len(ranked) == 2:  # "the highest paid professor's service": the pay ranks
        for i in range(len(tokens) - 1):
            if superlative_direction(tokens[i]) is None:
                continue
            named = {t.column for t in lex.lookup(tokens[i + 1 : i + 2]) if t.kind == "column"}
            picked = [m for m in ranked if m.target is not None and m.target.column in named]
            if len(picked) == 1:
                ranked = picked
                break
    if len(ranked) != 1:
        return
    by = ranked[0]
    other = next(m for m in spec.measures if m is not by)
    if other.target is None or other.target.column == (by.target.column if by.target else None):
        return
    if not any(superlative_direction(t) is not None for t in tokens):
        return
    column = by.target.column if by.target else ""
    spec.measures = [by]
    spec.listing, spec.limit, spec.order_desc = True, 1, by.agg == "max"
    spec.notes = [n for n in spec.notes if not n.startswith("counted the distinct values of")]
    spec.notes.append(
        f"read as the row with the {'highest' if by.agg == 'max' else 'lowest'} {column},"
        f" its {other.target.column} among its columns"
    )


def superlative_left_out(
    tokens: list[str], spec: QuestionSpec, lex: Lexicon
) -> tuple[str, str] | None:
    """A superlative adjective that names a column of its own ("heaviest" the weight, "most
    expensive" the price) where the answer used neither it nor anything it names: the rows
    were ranked by another figure. (The adjective's word, its column), else None."""
    figures = [m for m in spec.measures if m.target is not None and m.target.column]
    if not figures:
        return None
    used = {(m.table.lower(), (m.target.column or "").lower()) for m in figures if m.target}
    used |= {(g.table.lower(), (g.column or "").lower()) for g in spec.group_by}
    used |= {(f.table.lower(), f.column.lower()) for f in spec.filters + spec.share_of}
    for i, word in enumerate(tokens):
        ranks_only = word in _RANK_ONLY and word not in ("most", "least")
        if superlative_direction(word) is None or ranks_only:
            continue
        at = i + 1 if word in ("most", "least") else i
        if at >= len(tokens) or (at != i and not is_adjective(tokens[at])):
            continue  # "the most sales": a noun, named as itself
        base = adjective_base(tokens[at]) or stem(tokens[at])
        following = tokens[at + 1 : at + 2]
        modified = [
            t
            for words in (following, [base, *following], [*following, base])
            if following
            for t in lex.lookup(words)
        ]
        if {(t.table.lower(), (t.column or "").lower()) for t in modified} & used:
            continue  # "the heaviest brain": the brain weight the answer ranked by
        if any(stem(tokens[at]) in identifier_words(column) for _, column in used):
            continue  # "the most technical challenges won": `technical_winner`, used
        named = {
            (t.table.lower(), (t.column or "").lower()): t.column or ""
            for s in _named_by_adjective(tokens, at, lex)
            for t in s.targets
        }
        if named and not set(named) & used:
            return tokens[at], next(iter(named.values()))
    return None


def _named_by_adjective(tokens: list[str], at: int, lex: Lexicon) -> list[Span]:
    word = tokens[at]
    base = adjective_base(word) or stem(word)
    for form in (base, *value_forms(base)):  # "windiest" -> windy -> wind
        targets = tuple(t for t in lex.lookup([form]) if t.kind == "column" and is_numeric(t.type))
        if len(targets) == 1:
            return [Span(at, at + 1, targets)]
    # "the shortest character": what the scale's high end names (tall -> height), when
    # exactly one column answers to it
    ends = [
        t
        for high in scale_ends().get(base, ())
        for form in (high, *value_forms(high))
        for t in lex.lookup([form])
        if t.kind == "column" and is_numeric(t.type)
    ]
    if len(set(ends)) == 1:
        return [Span(at, at + 1, (ends[0],))]
    if at + 1 < len(tokens):
        # "the heaviest brain": with the next word, the adjective names brain weight
        following = tokens[at + 1]
        for words in ([base, following], [following, base]):
            named = [t for t in lex.lookup(words) if t.kind == "column" and is_numeric(t.type)]
            if len(named) == 1:
                return [Span(at, at + 2, tuple(named))]
    return []


def drop_comparison_words(
    tokens: list[str],
    unresolved: list[str],
    taken: set[int],
    spans: list[Span],
    comparisons: list[Comparison],
) -> list[str]:
    """ "diamonds bigger than 1 carat", "weigh over 2 carats": when the word after the number
    names the compared column, the adjective or verb before the operator only says how it is
    compared."""
    for comparison in comparisons:
        at = comparison.op_start - 1
        word = tokens[at] if at >= 0 else ""
        if (
            at in taken
            or word not in unresolved
            or not names_number(unit_span(spans, comparison, tokens))
        ):
            continue
        if adjective_base(word) is not None or stem(word) in _MEASURE_VERBS:
            taken.add(at)
            unresolved = [t for i, t in enumerate(tokens) if i not in taken and t in unresolved]
    return unresolved


_RANGE_PREFIXES = frozenset({"high", "low", "max", "min", "maximum", "minimum"})


def average_of_a_range(tokens: list[str], spans: list[Span], catalog: Catalog) -> list[str]:
    """ "the temperature" read as `avg_temp` beside `high_temp` and `low_temp`: the day's
    average is one reading of it, the high another ("did the temperature reach 95"). Said,
    so the answer is reviewed, with the others named."""
    notes = []
    for span in spans:
        for target in span.targets:
            words = identifier_words(target.column or "") if target.kind == "column" else ()
            if len(words) < 2 or words[0] not in ("avg", "average", "mean"):
                continue
            said = [stem(t) for t in tokens[max(0, span.start - 1) : span.end]]
            if words[0] in said or "average" in said or "mean" in said:
                continue  # "the average temperature": the average, as named
            info = catalog.table(target.table)
            rest = tuple(words[1:])
            siblings = [
                c.name
                for c in (info.columns if info is not None else [])
                if (w := identifier_words(c.name))
                and w[0] in _RANGE_PREFIXES
                and tuple(w[1:]) == rest
            ]
            if siblings:
                named = span_text(tokens, span)
                notes.append(f"'{named}' read as {target.column} (also {', '.join(siblings)})")
    return notes


def head_of_compound(span: Span, spans: list[Span]) -> Span:
    """ "by occupation type": two columns named back to back are one compound noun, and the
    last is its head (the type, of each occupation), as in English compounds."""
    after = next((s for s in spans if s.start == span.end), None)
    text_columns = lambda s: [  # noqa: E731
        t for t in s.targets if t.kind in ("column", "dimension") and not is_numeric(t.type)
    ]
    if after is not None and text_columns(span) and text_columns(after):
        return Span(span.start, after.end, tuple(text_columns(after)))
    return span


def follows(
    span: Span, starts: list[int], tokens: list[str], spans: list[Span] | None = None
) -> bool:
    for start in starts:
        j = start
        while j < span.start and tokens[j] in ("the", "a", "an", "and", "their", "its", ","):
            j += 1
        if j == span.start:
            return True
        if (
            spans is not None
            and j == span.start - 1
            and is_noun(tokens[j])
            and not any(s.start <= j < s.end for s in spans)
        ):
            return True  # "for each skin colour": a noun the data lacks, then the name
    # "by carrier and origin": the second name after "and" groups too.
    return (
        span.start >= 2
        and tokens[span.start - 1] == "and"
        and any(s <= span.start - 2 for s in starts)
    )


def names_measure(span: Span, aggs: list[tuple[int, int, str]]) -> bool:
    if any(0 <= span.start - end <= 1 for _, end, _ in aggs):
        return True
    kinds = {t.kind for t in span.targets}
    return "metric" in kinds and not kinds & {"dimension", "table"}


def names_a_metric(span: Span) -> bool:
    """Whether one of the span's readings is a semantic metric ("orders": the table and the
    metric counting its rows)."""
    return any(t.kind == "metric" for t in span.targets)


def compared_span(spans: list[Span], comparison: Comparison, tokens: list[str]) -> Span | None:
    """The column a comparison applies to: a numeric column just before the operator ("seats
    above 300", "a delay of more than 60"), else one right after the number ("more than 300
    seats"), else whatever phrase precedes the operator."""
    inside = next((s for s in spans if s.start == comparison.op_start), None)
    if names_number(inside):
        return inside  # "longer than 5000" on length_m
    before = _span_ending_at(spans, comparison.op_start)
    after = unit_span(spans, comparison, tokens)
    if (
        names_number(after)
        and before is not None
        and before.end < comparison.op_start
        and tokens[before.end] in HAVING
    ):
        # "episodes had more than 10 million viewers": what they had is compared, though
        # `episode` is a number too
        return after
    if names_number(before) or not names_number(after):
        return before
    return after


def unit_span(spans: list[Span], comparison: Comparison, tokens: list[str]) -> Span | None:
    """The phrase right after a comparison's number ("300 seats", "60 minutes"), or a number
    said after "in" ("more than $15,000 in out-of-state tuition")."""
    at = comparison.value_end
    found = next((s for s in spans if s.start == at), None)
    if found is None and at < len(tokens) and tokens[at] == "in":
        found = next((s for s in spans if s.start == at + 1 and names_number(s)), None)
    return found


# Superlatives of one thing's size: "the largest poll" is one poll, "the most polls" a count.
_SIZE_SUPERLATIVES = frozenset(
    {"smallest", "largest", "biggest", "longest", "shortest", "heaviest", "lightest", "tallest"}
)


def one_measured(tokens: list[str], span: Span) -> bool:
    """ "the largest poll": a size superlative right before one (singular) row noun."""
    noun = tokens[span.end - 1]
    before = tokens[span.start - 1] if span.start > 0 else ""
    return before in _SIZE_SUPERLATIVES and stem(noun) == noun and not noun.endswith("s")


# Words that may stand between a verb and the figure it does: "hit the most home runs",
# "scored more than 20 goals", "won at least 3 titles".
_BEFORE_A_FIGURE = frozenset(
    {
        "the",
        "a",
        "an",
        "most",
        "least",
        "fewest",
        "more",
        "less",
        "fewer",
        "than",
        "at",
        "over",
        "under",
        "exactly",
        "highest",
        "lowest",
        "greatest",
        "many",
        "or",
        "no",
    }
)
# Words after which a word names a figure, never an action: "the hit count", "average hits".
FIGURE_NOUNS = frozenset({"price", "cost", "amount", "value", "figure", "level"})

_BEFORE_A_NOUN = frozenset(
    {
        "the",
        "a",
        "an",
        "of",
        "average",
        "total",
        "mean",
        "median",
        "their",
        "its",
        "per",
        "by",
        "and",
        "in",
        "with",
        "for",
        "most",
        "many",
        "number",
        "sum",
        "max",
        "min",
    }
)


def verb_before_its_figure(tokens: list[str], span: Span, spans: list[Span]) -> bool:
    """Whether a one-word span is a verb in its bare form (not a plural noun) whose object is
    another figure: named after it with only quantity words between, right before it ("home
    runs hit"), or asked about with "did" ("how many home runs did he hit")."""
    word = tokens[span.start]
    if span.end - span.start != 1 or span.start == 0 or stem(word) != word:
        return False
    if not is_verb(word) or any(
        word in identifier_words(t.column or "") for t in span.targets if t.kind == "column"
    ):
        return False  # `volume` named as it is ("sales volume") is a figure, never a verb
    figures = [o for o in spans if o is not span and names_number(o)]
    if any(o.end == span.start for o in figures):
        return True  # "home runs hit in 1986": the verb after the figure it did
    asked = {"did", "does", "do"} & set(tokens[: span.start])
    if asked and any(o.end <= span.start for o in figures):
        return True  # "how many home runs did Mattingly hit"
    if tokens[span.start - 1] in _BEFORE_A_NOUN:
        return False
    for other in spans:
        if other.start < span.end or not names_number(other):
            continue
        between = tokens[span.end : other.start]
        if all(t in _BEFORE_A_FIGURE or to_number(t) is not None for t in between):
            return True
    return False


def _span_ending_at(spans: list[Span], position: int) -> Span | None:
    best = None
    for span in spans:
        if span.end <= position and position - span.end <= 2:
            best = span
    return best


def names_with_aggregate_words(
    tokens: list[str],
    spans: list[Span],
    aggs: list[tuple[int, int, str]],
    lex: Lexicon,
) -> tuple[list[Span], list[tuple[int, int, str]]]:
    """An aggregation word that is part of a column's name names the column: "the longest
    total sleep" is the maximum of `sleep_total`, not a sum. Also "the highest number of
    unemployed", "the average number of viewers": a count of a column that is itself a
    count is that column's values, so the count is dropped and the other word aggregates."""
    kept = list(aggs)
    out = []
    for span in spans:
        agg = next((a for a in kept if a[1] == span.start), None)
        # Only after another word that aggregates: "the longest total sleep", "average
        # total sleep"; "total population by state" stays a sum of `poptotal`.
        led = (
            agg is not None
            and agg[0] > 0
            and (
                superlative_direction(tokens[agg[0] - 1]) is not None
                or any(a[1] == agg[0] for a in kept)
            )
        )
        if agg is not None and agg[1] - agg[0] == 1 and led:
            joined = [t for t in lex.lookup(tokens[agg[0] : span.end]) if t.kind == "column"]
            if joined:
                kept.remove(agg)
                out.append(Span(agg[0], span.end, tuple(joined)))
                continue
        after = next((a for a in kept if a[0] == span.end and a[1] - a[0] == 1), None)
        if after is not None:
            # "the lowest earned run average": the word ends the column's own whole name
            # (`earned_run_average`), never an average of a column named "earned run"
            whole = stems(tuple(tokens[span.start : after[1]]))
            joined = [t for t in lex.phrases.get(whole, []) if t.kind == "column"]
            if joined:
                kept.remove(after)
                out.append(Span(span.start, after[1], tuple(joined)))
                continue
        if agg is not None and agg[2] == "count" and tokens[agg[0] : agg[1]] == ["number", "of"]:
            numeric = [
                t
                for t in span.targets
                if t.kind == "column" and is_numeric(t.type) and not is_key(t.column or "")
            ]
            before = agg[0] - 1 if agg[0] > 0 and tokens[agg[0] - 1] == "the" else agg[0]
            ranked = before > 0 and (
                superlative_direction(tokens[before - 1]) is not None
                or any(a[1] == before for a in kept if a[2] != "count")
            )
            if numeric and ranked:
                kept.remove(agg)
        out.append(span)
    return out, kept


def measured_by_unit(tokens: list[str], comparison: Comparison, catalog: Catalog) -> Target | None:
    """The one numeric column measuring the quantity of the unit after a comparison's number
    ("over 1,000 miles": `distance`), named by a word for that quantity and stating no unit
    of its own; None when none or several are."""
    quantity = quantities().get(unit_after(tokens, comparison) or "", "")
    words = quantity_words().get(quantity, frozenset())
    found = [
        Target("column", table.name, c.name, type=c.type)
        for table in catalog.tables.values()
        for c in table.columns
        if is_numeric(c.type)
        and not split_unit(c.name)[1]
        and words & set(identifier_words(c.name))
    ]
    return found[0] if len(found) == 1 else None


def unit_after(tokens: list[str], comparison: Comparison) -> str | None:
    """The unit right after a comparison's number, as answers show it ("degrees" -> °)."""
    at = comparison.value_end
    return units().get(tokens[at]) if 0 <= at < len(tokens) else None


AVERAGE_WORDS = frozenset({"average", "avg", "mean", "median", "typical"})


# "Clinton's average raw share" -> "average Clinton's raw share": the average said after
# whose figure it is (the tokens lose the 's that told the two apart)
POSSESSED_AVERAGE = re.compile(r"\b([A-Za-z][\w.-]*)'s\s+(average|mean|median|typical)\b")


def figure_called_a_share(tokens: list[str], at: int) -> bool:
    """ "Clinton's average raw share": a share right after an average (an adjective or two
    between) is a figure the rows hold, averaged; never a part of the rows asked for."""
    if tokens[at] != "share" or tokens[at + 1 : at + 2] == ["of"]:
        return False
    return any(t in AVERAGE_WORDS for t in tokens[max(0, at - 3) : at])


def joined_initialisms(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "miles per gallon" for `mpg`, "earnings per share" for `eps`: three words around "per"
    whose initials spell one column's whole name; "price per room" for avg_price_per_room.
    Read as the column's name before "per" is taken for a grouping (other joining words,
    "return on investment", are left to the lexicon's initialisms)."""
    for i in range(len(tokens) - 2):
        first, join, last = tokens[i : i + 3]
        if join != "per" or not (first.isalpha() and last.isalpha()):
            continue
        named = {(t.table, t.column) for t in lexicon.lookup([first, last]) if t.kind == "column"}
        if len(named) == 1 and "per" in identifier_words(next(iter(named))[1] or ""):
            # "price per room" for avg_price_per_room: the column's name, not a grouping
            return [*tokens[: i + 1], *tokens[i + 2 :]]
        name = first[0] + join[0] + last[0]
        if lexicon.lookup([first]) or lexicon.lookup([last]):
            continue  # "sales per region": words the data knows keep their own meaning
        columns = [t for t in lexicon.lookup([name]) if t.kind == "column"]
        if (
            len({(t.table, t.column) for t in columns}) == 1
            and (columns[0].column or "").lower() == name
        ):
            return [*tokens[:i], name, *tokens[i + 3 :]]
    return tokens


def units_of_columns(tokens: list[str], spans: list[Span], taken: set[int]) -> list[int]:
    """Unit words said before the number they measure: "years of education", "hours of
    sleep", "dollars of revenue". The unit is how the column is counted, never a thing of
    its own (read alone, "years" would be taken for the rows)."""
    numeric_at = {
        s.start for s in spans if any(t.kind == "column" and is_numeric(t.type) for t in s.targets)
    }
    return [
        i
        for i in range(len(tokens) - 2)
        if i not in taken and tokens[i] in units() and tokens[i + 1] == "of" and i + 2 in numeric_at
    ]


_TIME_UNITS = frozenset({"s", "min", "h", "days", "weeks", "months", "years"})


def durations_named(tokens: list[str], spans: list[Span], taken: set[int], lex: Lexicon) -> None:
    """ "weeks of unemployment" beside `unemploy` (people) and `uempmed` (the median
    duration of unemployment): time said before a name is that thing's duration, when the
    data names one ("unemployment duration"); the count of the thing would answer another
    question. The span is widened over the unit and read as the duration's column."""
    for k, span in enumerate(spans):
        at = span.start - 2
        if at < 0 or at in taken or tokens[at + 1] != "of" or units().get(tokens[at]) is None:
            continue
        if units()[tokens[at]] not in _TIME_UNITS:
            continue
        words = tokens[span.start : span.end]
        found = [
            t
            for said in ([*words, "duration"], ["duration", "of", *words])
            for t in lex.lookup(said)
            if t.kind == "column" and is_numeric(t.type) and t not in span.targets
        ]
        if len(set(found)) == 1:
            spans[k] = replace(span, start=at, targets=(found[0],))
            taken.update((at, at + 1))


def columns_of(span: Span) -> tuple[Target, ...]:
    return tuple(t for t in span.targets if t.kind == "column")


def column_span(f: Filter, catalog: Catalog) -> Span:
    """A filter's column as a span (for the span-based checks)."""
    info = catalog.table(f.table)
    stored = info.column(f.column) if info is not None else None
    kind = stored.type if stored is not None else ""
    return Span(0, 0, (Target("column", f.table, f.column, type=kind),))


def said_before(tokens: list[str], f: Filter, at: int | None) -> bool:
    """Whether a filter's value was said before position `at` (as stored or as asked)."""
    return at is not None and any(
        (words := question_tokens(said))
        and any(tokens[i : i + len(words)] == words for i in range(0, max(at - len(words) + 1, 0)))
        for said in {str(f.value), f.said}
    )


_DID = frozenset({"did", "does", "do"})
_RANGE_WORDS = frozenset({"between", "and", "to", "from"})


def verbs_of_figures(tokens: list[str], spans: list[Span], taken: set[int]) -> set[int]:
    """Positions of figure verbs said of a figure ("who hit the most home runs", "how many
    home runs did the Yankees hit", "home runs hit in 2018"), where no name covers the word:
    they say how the figure was made, so the words are read."""
    verbs = figure_verbs()
    named = {i for s in spans for i in range(s.start, s.end)}
    figures = [s for s in spans if names_number(s)]
    found = set()
    for i, word in enumerate(tokens):
        if word not in verbs or i in taken or i in named:
            continue
        after = next((s for s in figures if s.start > i), None)
        if after is not None and all(
            j in taken
            or tokens[j] in _BEFORE_A_FIGURE
            or tokens[j] in _RANGE_WORDS
            or tokens[j] in verbs  # "hit at least 20 and hit at most 30 home runs"
            or to_number(tokens[j]) is not None
            for j in range(i + 1, after.start)
        ):
            found.add(i)  # "hit the most home runs", "hit between 20 and 30 home runs"
        elif any(s.end == i for s in figures):
            found.add(i)  # "home runs hit in 2018"
        elif _DID & set(tokens[:i]) and any(s.end <= i for s in figures):
            found.add(i)  # "how many home runs did the Yankees hit"
    return found


def best_or_worst(tokens: list[str], at: int | None, spec: QuestionSpec) -> tuple[bool, str] | None:
    """ "the worst average departure delay": the highest, where the figure ranked is one
    more of which is worse (`dep_delay`; vocabulary `high_is_bad`), else the lowest. The
    reading is a judgement the data cannot confirm, so it is said: (direction, note). None
    where the superlative is neither word, or ranks no column."""
    if at is None or tokens[at] not in ("best", "worst"):
        return None
    ranked = [m.target for m in spec.measures if m.target is not None and m.target.column]
    if not ranked:
        return None
    bad = any(
        _more_is_worse(w) for t in ranked for w in (*identifier_words(t.column or ""), t.column)
    )
    high = (tokens[at] == "worst") == bad
    if tokens[at] == "best" and not bad:
        return None  # the best of a figure more of which is better: as said, no note
    names = ", ".join(dict.fromkeys(t.column or "" for t in ranked))
    return high, f"'{tokens[at]}' read as the {'highest' if high else 'lowest'} {names}"


# Words of a column's name saying it holds how long something took, or how fast it went:
# the fastest of a time is its lowest, of a speed its highest.
_DURATION_WORDS = frozenset(
    {"time", "times", "duration", "seconds", "secs", "sec", "minutes", "mins", "min", "hours"}
    | {"hrs", "elapsed", "pace", "lap", "net", "gun", "tat", "turnaround", "chip"}
)
_SPEED_WORDS = frozenset({"speed", "mph", "kph", "kmh", "velocity", "airspeed"})
_FAST = {"fastest": True, "quickest": True, "slowest": False}


def fastest_or_slowest(
    tokens: list[str], at: int | None, spec: QuestionSpec
) -> tuple[bool, str] | None:
    """ "the fastest average net time": the lowest of a time, the highest of a speed, said.
    A figure neither names is asked about by the caller's reading as it stands (the highest
    for "fastest"), with the reading said. (direction, note), or None where the superlative
    is no word of speed or ranks no column."""
    if at is None or tokens[at] not in _FAST:
        return None
    ranked = [m.target for m in spec.measures if m.target is not None and m.target.column]
    if not ranked:
        return None
    words = {
        w for t in ranked for w in (*identifier_words(t.column or ""), (t.column or "").lower())
    }
    fast = _FAST[tokens[at]]
    names = ", ".join(dict.fromkeys(t.column or "" for t in ranked))
    if words & _SPEED_WORDS and not words & _DURATION_WORDS:
        return fast, f"'{tokens[at]}' read as the {'highest' if fast else 'lowest'} {names}"
    high = not fast if words & _DURATION_WORDS else fast
    how = "" if words & _DURATION_WORDS else " (nothing in its name says time or speed)"
    return high, f"'{tokens[at]}' read as the {'highest' if high else 'lowest'} {names}{how}"


def _more_is_worse(word: str | None) -> bool:
    """A column word naming a figure more of which is worse: a vocabulary word, or one cut
    short as names are (`unemploy` of unemployment, five letters at least)."""
    if not word:
        return False
    words = high_is_bad()
    return word in words or (len(word) >= 5 and any(w.startswith(word) for w in words))
