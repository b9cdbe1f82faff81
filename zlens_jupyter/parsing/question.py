"""The deterministic question parser: a question plus the catalog -> a QuestionSpec, or one
clarifying question naming the closest candidates.

Order of work: values found in the data, then time, top-N, comparisons, aggregation and
grouping words, then the names of tables/columns/metrics in what is left. Anything left
after that which is not a stopword is unresolved, and an unresolved word means we ask rather
than guess.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import pairwise

from ..semantic import SemanticModel
from ..vocabulary import (
    happenings,
    opposites,
    people,
    quantities,
    scale_ends,
    units,
    value_synonyms,
)
from ..warehouse import Catalog, ColumnInfo, TableInfo, ValueMatch
from ..wordforms import (
    adjective_base,
    doer_of,
    is_adjective,
    is_english,
    is_noun,
    is_unknown,
    is_verb,
    value_forms,
    verb_root,
)
from .frame import EXCLUSIONS, read_frame
from .lexicon import (
    AmbiguousName,
    Lexicon,
    Span,
    Target,
    english_tail,
    find_abbreviated,
    find_spans,
    initialisms_of_names,
    is_key,
    is_numeric,
    is_temporal,
    lettered_names,
    run_together,
    split_names,
)
from .lumped import lumps_many
from .phrasing import (
    CALENDAR_WORDS,
    GRAINS,
    ROW_WORDS,
    SUPERLATIVES,
    Comparison,
    find_aggregates,
    find_comparisons,
    find_group_markers,
    find_period_list,
    find_superlative,
    find_time_grain,
    find_time_range,
    find_top_n,
    superlative_direction,
)
from .rewording import (
    HAVE_VERBS,
    ages_said,
    change_between,
    combined_as_total,
    common_number_of,
    correlation_asked,
    each_combination,
    either_of_two,
    end_of_the_data,
    ended_with,
    has_dates,
    how_often,
    in_one_period,
    kind_of_a_column,
    losses_as_figures,
    measure_of_a_part,
    moment_of_rows,
    names_asked,
    new_as_issued,
    number_range,
    paired_figures,
    peaked,
    per_day_said,
    qualifier_of_a_number,
    rows_are_days,
    said_twice,
    seasons,
    shares_of_the_vote,
    stored_as_none,
    the_average_one,
    things_sold,
    two_word_happenings,
    varies_with,
    when_ranked,
    which_single,
    with_at_least_one_row,
)
from .row_answers import asks_when, one_of_a_kind_ranked, says_when, value_at_a_time_end
from .spec import (
    LIST_SEPARATORS,
    ColumnRef,
    Filter,
    GroupBy,
    Measure,
    ParseResult,
    QuestionFrame,
    QuestionSpec,
    TimeRange,
)
from .statistic_names import aggregates_in_names, statistic_columns
from .titles import titles_won, wins_as_rows
from .words import (
    GLUE_WORDS,
    identifier_words,
    question_tokens,
    split_unit,
    stem,
    stems,
    to_number,
)

_TREND_VERBS = frozenset({"change", "changed", "evolve", "evolved", "develop", "developed"})
_FROM_WORDS = {"from", "departing", "leaving", "out", "origin"}
_TO_WORDS = {"to", "arriving", "into", "bound", "destination", "toward", "towards"}


@dataclass
class _Parse:
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


def parse_question(
    question: str,
    catalog: Catalog,
    lexicon: Lexicon,
    semantic: SemanticModel | None = None,
    values: list[ValueMatch] | None = None,
    frame: QuestionFrame | None = None,
) -> ParseResult:
    """Resolve a question against the catalog. `frame` is its structural read when the caller
    already has it (routing does): the result carries it, so one read serves every route."""
    frame = frame if frame is not None else read_frame(question)
    result = _parse(question, catalog, lexicon, semantic, values)
    spec = result.spec
    valued = {
        stem(w)
        for f in (spec.filters + spec.share_of if spec is not None else [])
        for v in (f.value if isinstance(f.value, list) else [f.value])
        for w in question_tokens(str(v).replace("_", " "))  # `online_travel_agent`
    } | {  # "made by repeat guests": the yes of `is_repeated_guest`
        stem(w)
        for f in (spec.filters if spec is not None else [])
        if isinstance(f.value, bool | int) and f.value in (0, 1)
        for w in identifier_words(f.column)
    }
    if (
        spec is not None
        and frame.by_groupings
        and not (spec.group_by or spec.time_grain or spec.limit or spec.listing)
        # "flown by United Air Lines", "made by online travel agents": a value
        and not {stem(w) for w in frame.by_groupings[0]} <= valued
    ):
        # "average mpg by number of cylinders" answered with no grouping would be a number
        # for another question: a "by" that found no column is asked about
        said = " ".join(frame.by_groupings[0])
        result = _clarify(f"I couldn't group by '{said}': which column is it?", [])
    spec = result.spec
    if spec is not None:
        _one_ranked_row(question_tokens(question), spec, lexicon)
        _ranked_by_a_participle(question_tokens(question), spec, lexicon)
    ranked_elsewhere = (
        _superlative_left_out(question_tokens(question), spec, lexicon) if spec else None
    )
    if ranked_elsewhere is not None:
        # "the heaviest diamond's price" answered with the highest price ranked by price,
        # not weight: a superlative naming a column the answer never used is asked about
        result = _clarify(
            f"'{ranked_elsewhere[0]}' ranks by {ranked_elsewhere[1]}, which this answer did not "
            f"use: ask for the {ranked_elsewhere[1]} and the other figure by name, e.g. 'the "
            "row with the highest …'.",
            [],
        )
    spec = result.spec
    if spec is not None and asks_when(frame.tokens) and not says_when(spec):
        # "when was the hottest day" answered with the temperature alone would be a figure
        # for another question: a time the data cannot give is asked about
        result = _clarify("I couldn't find when in this data: which column says when?", [])
    result.frame = frame
    return result


def _parse(
    question: str,
    catalog: Catalog,
    lexicon: Lexicon,
    semantic: SemanticModel | None,
    values: list[ValueMatch] | None,
) -> ParseResult:
    question = _POSSESSED_AVERAGE.sub(r"\2 \1's", question)
    tokens, gap_asked = _difference_asked(question_tokens(question), catalog)
    tokens, correlated = correlation_asked(tokens, lexicon)
    converted = _unit_to_convert(tokens, catalog)
    if converted is not None:
        return converted
    tokens, negated = _negated_yes_no(tokens, lexicon, catalog)
    tokens = _no_value_recorded(tokens)
    tokens, values = stored_as_none(tokens, lexicon, catalog, values or [])
    tokens = _joined_initialisms(tokens, lexicon)
    # "American-made cars": made where the nationality says, never the column `Make`
    tokens = [
        t
        for i, t in enumerate(tokens)
        if not (t == "made" and i > 0 and tokens[i - 1] in value_synonyms())
    ]
    tokens, season_read = seasons(tokens, catalog)
    tokens = when_ranked(peaked(tokens), catalog)
    tokens, moment_read = moment_of_rows(tokens, lexicon, catalog)
    tokens, vote_read = shares_of_the_vote(tokens, lexicon)
    tokens, loss_read = losses_as_figures(tokens, lexicon)
    tokens, having_read = _having_a_number(tokens, lexicon, catalog)
    tokens = kind_of_a_column(tokens, lexicon)
    tokens = two_word_happenings(tokens)
    tokens = ended_with(how_often(tokens))
    tokens = new_as_issued(tokens, catalog)
    tokens, period_read = in_one_period(tokens, catalog)
    tokens = common_number_of(per_day_said(ages_said(tokens)))
    tokens = the_average_one(each_combination(end_of_the_data(tokens)))
    tokens, change_read = change_between(tokens)
    tokens, vary_read = varies_with(tokens)
    tokens, range_read = paired_figures(tokens, lexicon)
    tokens = which_single(combined_as_total(said_twice(tokens), lexicon))
    tokens = with_at_least_one_row(number_range(tokens, lexicon), lexicon)
    tokens = measure_of_a_part(tokens, lexicon)
    tokens, sold_read = things_sold(tokens, lexicon)
    tokens = names_asked(tokens)
    tokens = either_of_two(tokens, lexicon, values or [])
    tokens, qualifier_read = qualifier_of_a_number(tokens, lexicon, values or [])
    won = titles_won(tokens, catalog)  # "how many World Series have the Yankees won"
    if won is not None:
        tokens = won.tokens
    tokens, prize_read = (tokens, "") if won is not None else wins_as_rows(tokens, catalog)
    tokens = _without_the_data(tokens, lexicon)
    excluded = next((t for t in tokens if t in EXCLUSIONS), None)
    if excluded is not None:
        # "revenue without returns" must never become "revenue of returns": until exclusions
        # are parsed, say so and let the person name what to keep.
        return _clarify(
            f"I can't answer questions that exclude something ('{excluded}') yet. "
            "Say which values to keep instead, e.g. 'revenue of completed orders'.",
            [],
        )
    p = _Parse(tokens, set(), catalog, semantic)
    p.negated = negated
    readings = (
        *(season_read, vote_read, loss_read, having_read, qualifier_read, sold_read),
        moment_read,
        period_read,
        range_read,
        vary_read,
        change_read,
    )
    p.notes += [n for n in readings if n]
    p.notes += [won.note] if won is not None else [prize_read] if prize_read else []
    p.per_people = _per_people(tokens, p.taken, lexicon)  # "murder rate per 100,000 people"
    # "what percentage / share / proportion of …": the filters pick a part of the whole.
    shared = [
        i
        for i, t in enumerate(tokens)
        if t in _SHARE_WORDS
        # "above 10 percent": the number's unit, a comparison's, never a share asked
        and not (t == "percent" and i > 0 and to_number(tokens[i - 1]) is not None)
        and not _figure_called_a_share(tokens, i)
    ]
    p.taken.update(i for i in range(len(tokens)) if _figure_called_a_share(tokens, i))
    # "survival rate": the share of the rows where `survived` is yes, of its table's rows
    rates = _rates_of_yes(tokens, lexicon, catalog)
    shared += [i for i, _ in rates]
    # "the death rate" over `outcome` holding 'dead': the share of the rows with the value
    said_values = {v.word.lower() for v in values or () if v.table}
    shared += [
        i
        for i in range(1, len(tokens))
        if tokens[i] in ("rate", "rates")
        and tokens[i - 1] in said_values
        and i not in shared
        and tokens[i + 1 : i + 2] != ["per"]  # "the measles rate per 100,000 people"
    ]
    p.taken.update(shared)
    p.rate_of = [table for _, table in rates]
    p.shared = bool(shared)
    spec = QuestionSpec()
    spec.time_range = find_period_list(tokens, p.taken) or find_time_range(tokens, p.taken)
    p.one_period = _one_period(spec.time_range)
    value_filters = _value_filters(p, values or [], lexicon)
    if won is not None:  # the verb carries the title's condition
        p.taken.add(won.at)
        value_filters.append((won.match, tokens[won.at - 1] if won.at else None))
    limit, desc, after_top = find_top_n(tokens, p.taken)
    if limit is None and len(tokens) > 2 and tokens[0] == "which":
        # "which 5 cities had the fewest sales": the count after "which" is the ranking's N.
        n = to_number(tokens[1])
        if isinstance(n, int) and 0 < n <= 1000:
            limit, after_top = n, 2
            p.taken.update({1})
    comparisons = find_comparisons(tokens, p.taken)
    for comparison in comparisons:
        # "more than 12 hours", "over 100 kg": the unit after the number is the number's.
        at = comparison.value_end
        if (
            at < len(tokens)
            and at not in p.taken
            and tokens[at] in units()
            and not _starts_a_name(tokens, at, lexicon)  # "30 years of service"
            and not lexicon.lookup(tokens[at : at + 1])  # "over 1 carat": the column `carat`
        ):
            p.taken.add(at)
    p.taken.update(_counted_in_total(tokens, p.taken))
    aggs = find_aggregates(tokens, p.taken)
    statistics = statistic_columns(tokens, lexicon, p.taken, aggs, p.notes)
    statistics += aggregates_in_names(tokens, lexicon, p.taken, aggs, p.notes)
    # Before "per" is read as a grouping: "GDP per capita" may spell `gdpPercap`.
    spelled = run_together(tokens, lexicon, p.taken)
    spelled += lettered_names(tokens, lexicon, p.taken, GLUE_WORDS)  # "student faculty ratio"
    spelled += statistics  # "median sale price" for the column `median`
    spelled += split_names(tokens, lexicon, p.taken)  # "individuals were affected"
    try:
        spelled += initialisms_of_names(tokens, lexicon, p.taken, GLUE_WORDS)  # "ERA"
    except AmbiguousName as several:
        return _clarify(
            f"'{several.word.upper()}' could be {', '.join(several.names)}: which one?",
            several.names,
        )
    p.taken.update(_across_all(tokens, p.taken, lexicon, p.notes))
    group_starts = find_group_markers(tokens, p.taken)
    if tokens[:3] == ["which", "number", "of"]:
        # "which number of gears has the highest horsepower": the gears are the grouping
        aggs[:] = [a for a in aggs if a[0] != 1]
        group_starts.append(3)
    for at, start in enumerate(group_starts):
        counted = next((a for a in aggs if a[0] == start and a[2] == "count"), None)
        each = start > 0 and tokens[start - 1] in ("each", "every")  # "by number of" ranks
        # ... unless what is numbered is a column's own number: "by number of cylinders"
        each = each or _numbers_a_column(tokens, start + 2, lexicon)
        if counted is not None and each and tokens[start : start + 2] == ["number", "of"]:
            # "cars for each number of cylinders": the cylinders are the grouping.
            aggs.remove(counted)
            group_starts[at] = counted[1]
    spec.time_grain = find_time_grain(tokens, p.taken, group_starts)
    if spec.time_range is not None and spec.time_range.grain and spec.time_grain is None:
        spec.time_grain = spec.time_range.grain  # "the 1970s and the 1990s": one row each
    daily_at = next(
        (
            i
            for i in range(1, len(tokens))
            if tokens[i] == "daily" and tokens[i - 1] in _AVERAGE_WORDS and i in p.taken
        ),
        None,
    )
    if spec.time_grain == "day" and daily_at is not None and _dated_by_day(catalog):
        # "the average daily temperature" over rows dated by the day: each row's own figure
        # averaged, never a row for each day
        spec.time_grain = None
        p.notes.append("'daily' read as each row's own figure (one row a day)")
    superlative, superlative_at = find_superlative(tokens, p.taken)
    of_year = _part_of_year(tokens, p.taken, spec.time_grain)

    spans = sorted(find_spans(tokens, lexicon, p.taken) + spelled, key=lambda s: s.start)
    p.all_spans = list(spans)
    spans = [_year_of_name(p, spec, lexicon, s) for s in spans]
    for k, span in enumerate(spans):
        variants = [t for t in span.targets if t in lexicon.numbered_variants]
        same_table = [t for t in span.targets if t.kind == "column" and is_numeric(t.type)]
        if len(same_table) > 1 and len({t.table for t in same_table}) == 1:
            variants = same_table  # two numbers of one table under one name: never the first
        if len(variants) > 1 and len(variants) == len(span.targets):
            headline = _shortest_window(variants, lexicon)
            if headline is not None:
                # "viewers" over viewers_7day and viewers_28day: one measure kept over
                # windows of time; the shortest is the one reported first (the headline
                # figure). Said, and reviewed, with the others named
                also = ", ".join(t.column or "" for t in variants if t != headline)
                p.notes.append(
                    f"'{_text(tokens, span)}' read as {headline.column}, the shortest window"
                    f" ({also} also in the data)"
                )
                spans[k] = replace(span, targets=(headline,))
                continue
            # "score" over score1 and score2: which number is meant is asked
            names = [f"{t.table}.{t.column}" for t in variants]
            said = _text(tokens, span)
            return _clarify(f"'{said}' could be {' or '.join(names)}: which one?", names)
    for span in spans:
        p.taken.update(range(span.start, span.end))
    p.notes += _average_of_a_range(tokens, spans, catalog)
    named_share = [
        i
        for i in shared
        if any(
            s.end == i
            and _names_number(s)
            # "the callback rate" over a 0/1 `received_callback`: a share of its 1s
            and not any(_yes_no_column(t, catalog) for t in s.targets)
            for s in spans
        )
    ]
    if named_share:
        # "the average remain share of online polls": a column's own noun (`remain` holds
        # shares), not a share of a total
        shared = [i for i in shared if i not in named_share]
        p.shared = bool(shared)
    ranked_grain = False  # "in which month was …": one month, ranked
    if spec.time_grain is None:
        for i, token in enumerate(tokens):
            if i not in p.taken and token in GRAINS and has_dates(catalog):
                # "in which month was unemployment highest": no column is called month,
                # so it is the month of the table's date.
                spec.time_grain = token
                p.taken.add(i)
                ranked_grain = i > 0 and tokens[i - 1] in ("which", "what")
                break
    abbreviated = find_abbreviated(tokens, lexicon, p.taken, GLUE_WORDS)
    if isinstance(abbreviated, list):
        for span in abbreviated:
            p.taken.update(range(span.start, span.end))
            if span.guessed:  # "state" for `Outstate` may be out-of-state: said, reviewed
                p.notes.append(f"'{tokens[span.start]}' read as {span.targets[0].column}")
        spans = sorted(spans + abbreviated, key=lambda s: s.start)
    else:
        word, names = abbreviated
        return _clarify(f"'{word}' could be {', '.join(names)}: which one?", names)

    spans, aggs = _names_with_aggregate_words(tokens, spans, aggs, lexicon)
    spans = _verb_of_a_name(tokens, spans, p.taken, lexicon)
    numbered = _numbered_columns(tokens, spans, p.taken, catalog)
    _absorb_head_nouns(tokens, spans, p.taken, lexicon)
    by_adjective = _adjective_spans(tokens, spans, p.taken, lexicon, comparisons, superlative_at)
    p.adjectives = {s.start for s in by_adjective}
    spans = sorted(spans + by_adjective, key=lambda s: s.start)
    # "players who hit more than 20 home runs": a verb said before the figure it does is the
    # action, never a column of its own (`Hits` beside `HmRun`) to compare or rank by
    spans = [s for s in spans if not _verb_before_its_figure(tokens, s, spans)]
    column_filters, compared_spans = _column_comparisons(tokens, spans, p.taken)
    spans = [s for s in spans if s not in compared_spans]
    # "discipline A", "class B": a column's name, then one of its values, however short.
    value_filters += [(m, None) for m in _named_values(tokens, spans, p.taken, catalog)]
    value_filters += [(m, None) for m in _initial_codes(tokens, spans, p.taken, catalog)]
    missing = [s for s in spans if _is_missing(tokens, s, p.taken)]
    known = [s for s in spans if s not in missing and _is_known(tokens, s, p.taken)]
    dated_by = _date_verb(tokens, p.taken, catalog) if spec.time_range or spec.time_grain else None
    if spec.time_range is not None and dated_by is None:
        # "processors released in 2018": a verb naming a date column dates the rows by it
        verbed = [s for s in spans if _verb_of_a_date(tokens, s)]
        if len(verbed) == 1:
            dated = verbed[0].targets[0]
            dated_by = (dated.table, dated.column or "")
            spans.remove(verbed[0])
    p.taken.update(_units_of_columns(tokens, spans, p.taken))
    p.taken.update(_whole_scope(tokens, p.taken, lexicon, _places_named(catalog, lexicon)))
    # A number nothing explained (a year range, a count) is never dropped: "between 2010
    # and 2015" read without its years would answer for every year.
    # "affected more than 100,000 people": people counted by the number, not a column
    p.taken.update(
        i
        for i in range(1, len(tokens))
        if tokens[i] in people()
        and (to_number(tokens[i - 1]) is not None or tokens[i - 1] in _NUMBER_SCALES)
    )
    if any(tokens[i : i + 2] == ["over", "time"] for i in range(len(tokens))):
        # "how did GDP change over time": the verb only says a trend is asked, which "over
        # time" already says (and "the change in GDP from 2000 to 2010" stays unread)
        p.taken.update(i for i, t in enumerate(tokens) if t in _TREND_VERBS)
    # "the average price of a new textbook at the bookstore" over `bookstore_new`: a word
    # saying what kind of figure it is, before "of" and a number column named by a guess
    for i, t in enumerate(tokens[:-2]):
        if t not in _FIGURE_NOUNS or i in p.taken or tokens[i + 1] != "of" or lexicon.lookup([t]):
            continue
        figured = [
            s
            for s in spans
            if s.guessed
            and i + 2 <= s.start <= i + 5
            and any(is_numeric(x.type) for x in s.targets)
        ]
        if len(figured) == 1 and not any(k in p.taken for k in range(i + 2, figured[0].start)):
            # the figure's words, from "price" on, name the column: an average said
            # before them is its average
            spans[spans.index(figured[0])] = Span(
                i, figured[0].end, figured[0].targets, guessed=True
            )
            p.taken.update(range(i, figured[0].start))
    # "how many matches were played": every match was; the verb keeps every row
    p.taken.update(
        i
        for i, t in enumerate(tokens)
        if _a_happening(t, lexicon)
        and i not in p.taken
        # "his pitches", "how many tests": after a determiner the word is a noun, never
        # the verb ("pitched") it shares a root with
        and not (i > 0 and tokens[i - 1] in _DETERMINERS and t not in happenings())
    )
    # "break down the strikes by phase", "a breakdown of …": a grouping the "by" says
    p.taken.update(
        i
        for i, t in enumerate(tokens)
        if t == "breakdown"
        or (t == "break" and tokens[i + 1 : i + 2] == ["down"])
        or (t == "down" and i > 0 and tokens[i - 1] == "break")
    )
    named_rows = _table_name_words(catalog)
    unresolved = [
        t
        for i, t in enumerate(tokens)
        if i not in p.taken
        and t not in GLUE_WORDS
        and stem(t) not in GLUE_WORDS
        # "did police use force" over mn_police_use_of_force: what every row is, said
        and stem(t) not in named_rows
    ]
    last = len(tokens) - 1
    if tokens[:2] == ["how", "many"] and tokens[-1] in _PREDICATE_VERBS and last not in p.taken:
        # "how many employees who work overtime left?": the last verb is what the counted
        # rows did, a condition nothing here holds; asked, never dropped as a glue word
        unresolved.append(tokens[-1])
    # "works on display", "items on sale": a glue verb after "on" is a noun, a state asked of
    # the rows that nothing here holds
    unresolved += [
        t for i, t in enumerate(tokens) if i > 0 and tokens[i - 1] == "on" and t in _ON_STATES
    ]
    named_tables = {t.table for s in spans for t in s.targets if t.kind in ("column", "table")}
    entity = _row_entity(
        tokens, p.taken | p.kinds, unresolved, catalog, superlative_at, named_tables
    )
    if entity is not None:
        # "how many cars are made by Toyota" over the one table `mpg`: its rows are the cars.
        (at, end), table = entity
        p.guessed_rows = at
        spans = sorted([*spans, Span(at, end, (Target("table", table),))], key=lambda s: s.start)
        p.taken.update(range(at, end))
        said = " ".join(stem(t) for t in tokens[at:end])
        if tokens[end - 1] in ("people", "staff", "personnel", "folk"):  # no singular to say
            said = f"of the {said}"
        spec.notes.append(f"each row of {table} counted as one {said}")
        unresolved = [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]
    if entity is not None:
        spans = _entity_qualified(tokens, spans, p.taken, lexicon, entity[0])
        unresolved = [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]
    unresolved = _drop_comparison_words(tokens, unresolved, p.taken, spans, comparisons)
    for c in comparisons:
        # "arrests of people under 18": the people are those whose age it is
        if _age_of_people(tokens, c, lexicon, None) is not None:
            people_at = [
                i for i in range(max(0, c.op_start - 2), c.op_start) if tokens[i] in people()
            ]
            p.taken.update(people_at)
            unresolved = [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]
    value_filters = _narrowed_by_noun(tokens, value_filters)
    unresolved = _drop_value_nouns(tokens, unresolved, p.taken, value_filters)
    unresolved = _drop_modifiers(tokens, unresolved, p, spans)
    unresolved = _drop_value_modifiers(tokens, unresolved, p, value_filters)
    if unresolved:
        return _clarify_unresolved(unresolved)

    # Roles: a span right after a grouping word (or after "top N"/"which") is a grouping.
    group_spans = [
        _head_of_compound(s, spans) for s in spans if _follows(s, group_starts, tokens, spans)
    ]
    if after_top is not None:
        group_spans += [s for s in spans if s.start == after_top and s not in group_spans]
    asked_what = tokens[:2] in (["what", "is"], ["what", "are"], ["what", "were"], ["what", "was"])
    if tokens[:1] in (["which"], ["who"]) or (
        (asked_what or tokens[0] in _SHOW_WORDS) and superlative is not None
    ):
        after_superlative = superlative_at + 1 if superlative_at is not None else -1
        if 0 <= after_superlative < len(tokens) and tokens[after_superlative] in (
            "common",
            "popular",
            "frequent",
        ):
            after_superlative += 1  # "the 3 most common hometowns": the hometowns ranked
        # "the most common cyl": how often each value comes, even of a number column
        frequency = superlative_at is not None and after_superlative == superlative_at + 2
        adjective = next((s for s in spans if s.start == after_superlative), None)
        ranks_calendar = adjective is not None and _names_calendar(adjective)
        if (
            adjective is not None
            and not frequency
            and _names_number(adjective)
            and not (
                ranks_calendar and superlative_at in p.adjectives  # "the hottest month"
            )
        ):
            after_superlative = adjective.end  # "the most expensive cars": the cars
        while (
            0 <= after_superlative < len(tokens)
            and after_superlative in p.taken
            and not any(s.start == after_superlative for s in spans)
        ):
            after_superlative += 1  # "the most expensive Ideal diamonds": past the value
        # "which animal is the heaviest", "who is the oldest baker": the thing ranked.
        first = next(
            (
                s
                for s in spans
                if (
                    s.start <= 2
                    or (
                        s.start == after_superlative
                        and (tokens[0] in ("which", "who", "what") or tokens[0] in _SHOW_WORDS)
                        and (
                            any(
                                t.kind == "table"
                                or (
                                    t.kind == "column"
                                    and not is_numeric(t.type)
                                    and not is_temporal(t.type)  # "the earliest date": a MIN
                                )
                                for t in s.targets
                            )
                            # "the hottest day" over a number column `Day`: the days ranked
                            # by what the superlative names (`Temp`)
                            or (_names_calendar(s) and superlative_at in p.adjectives)
                            or frequency
                        )
                    )
                )
                and s.start not in p.adjectives
                # "who earns the most": a verb naming a number is what ranks, never a group
                and not (
                    s.end - s.start == 1
                    and is_verb(tokens[s.start])
                    and not is_noun(tokens[s.start])
                    and all(is_numeric(t.type) for t in s.targets if t.kind == "column")
                    and any(t.kind == "column" for t in s.targets)
                )
                # "which public college": a yes/no column before the noun qualifies it
                and not (
                    any(o.start == s.end for o in spans)
                    and any(_yes_no_column(t, catalog) for t in s.targets)
                )
            ),
            None,
        )
        if spec.time_grain is not None and tokens[1:2] and tokens[1] in _CALENDAR_WORDS:
            first = None  # "which month had the most licences": the months are ranked
            limit = limit or (1 if superlative is not None else None)
        counted_after = (  # "the 5 clinics with the most tests": the clinics are ranked,
            # by how many tests (rows) each has; the tests are no second grouping
            first is not None and after_top is not None and first.start == after_superlative
        )
        if (
            first is not None
            and first not in group_spans
            and superlative is not None
            and not (counted_after and group_spans)
        ):
            group_spans.append(first)
            limit = limit or 1
        elif tokens[:3] == ["which", "number", "of"] and superlative is not None:
            limit = limit or 1  # one number of gears, ranked first
        elif (
            tokens[:1] == ["which"]
            and superlative is None
            and not aggs
            and (comparisons or value_filters)
            and first is not None
            and first not in group_spans
            and not _names_number(first)
        ):
            group_spans.append(first)  # "which countries … had a life expectancy above 75"
    # "top 5 products by revenue": what follows "by" is the ranking measure when it is one.
    if len(group_spans) > 1 or after_top is not None or superlative is not None:
        group_spans = [s for s in group_spans if not _names_measure(s, aggs)] or group_spans[:1]
    if after_top is not None and len(group_spans) > 1:
        # "top 5 counties by population density": what follows "by" is a number to rank by
        group_spans = [s for s in group_spans if not _ranks_by(s)] or group_spans
    if p.per_people is not None and len(group_spans) > 1:
        # "top 5 states by murder rate per 100,000 people": what the rate counts
        group_spans = [s for s in group_spans if s.end != p.per_people[2]] or group_spans
    # "bookings made by repeat guests": after a participle, "by" names who did it, a
    # condition when it is a yes/no column, not a grouping
    group_spans = [s for s in group_spans if not _agent_of_participle(tokens, s, catalog)]
    for span in group_spans:
        if span.guessed and any(is_numeric(t.type) for t in span.targets):
            # "which state" read into `Outstate` (tuition): grouping by a number guessed
            # from part of its name would answer another question; asked
            guess = span.targets[0].column or ""
            return _clarify(
                f"I couldn't find '{tokens[span.start]}' in this database as something to "
                f"group by. Did you mean {guess}?",
                [guess],
            )
    comparison_spans = {c.op_start: _compared_span(spans, c, tokens) for c in comparisons}
    unit_read: set[Span] = set()
    for c in comparisons:
        named = comparison_spans[c.op_start]
        if named is not None and _names_calendar(named) and _unit_after(tokens, c):
            # "days above 85 degrees": a count of days is not measured in degrees; the
            # column the unit measures, when one column does, and said; else asked
            quantity = quantities().get(_unit_after(tokens, c) or "", "")
            found = [t for t in lexicon.lookup([quantity]) if _names_number(Span(0, 1, (t,)))]
            if len(found) != 1:
                comparison_spans[c.op_start] = None
                continue
            comparison_spans[c.op_start] = Span(named.start, named.end, (found[0],))
            p.notes.append(f"'{tokens[c.value_end]}' read as {found[0].column}")
            unit_read.add(named)  # "days" says what the rows are, not a number to add up
    p.compared = [
        t
        for s in comparison_spans.values()
        if s is not None
        for t in s.targets
        if t.kind == "column" and is_numeric(t.type)
    ]
    counting = bool(aggs) and all(a[2] == "count" for a in aggs)
    for op_start, named in comparison_spans.items():
        others = [
            s
            for s in spans
            if _names_number(s)
            and s not in group_spans
            and s not in comparison_spans.values()
            and not _names_calendar(s)  # "on how many days did …": the days are counted
        ]
        if counting and not _names_number(named) and len(others) == 1:
            # "how many cars get less than 15 mpg in the city": the one number the question
            # names is what is compared, and the cars are counted
            comparison_spans[op_start] = others[0]
    used = set(group_spans) | {
        s
        for s in comparison_spans.values()
        # "smokers under 25": a yes/no column said before a number it cannot be compared
        # with stays a condition (the age is found apart)
        if s is not None
        and (_names_number(s) or not any(_yes_no_column(t, catalog) for t in s.targets))
    }
    used |= {s for s in spans for g in group_spans if g.start <= s.start and s.end <= g.end}
    used |= unit_read
    used |= set(missing) | set(known)
    used |= {span for span, _ in numbered}
    # A word after the number that is not the compared column is its unit ("60 minutes"),
    # not a second measure, even when a column happens to share its name.
    # Never a yes/no column: "passengers over 60 survived" keeps its condition.
    used |= {
        s
        for c in comparisons
        if (s := _unit_span(spans, c, tokens)) is not None
        and not any(_yes_no_column(t, catalog) for t in s.targets)
    }
    measure_spans = [s for s in spans if s not in used]
    yes_filters = _yes_no_filters(p, measure_spans, aggs)
    measure_spans = [s for s in measure_spans if s not in yes_filters]
    if len(measure_spans) > 1:
        # "average ozone on days warmer than 80": `Day` says what the rows are, it is not
        # a second measure beside the one named.
        measure_spans = [s for s in measure_spans if not _names_calendar(s)] or measure_spans
    # "total sales volume": two numbers named back to back are one compound noun whose last
    # word is the measure (`volume`), the first only qualifying it
    measure_spans = [
        s
        for s in measure_spans
        if not (
            _names_number(s) and any(o.start == s.end and _names_number(o) for o in measure_spans)
        )
    ]
    # "fair cut diamonds": `cut` names the value's column; the diamonds are what is counted.
    kept = {(m.table.lower(), m.column.lower()) for m, _ in value_filters}
    p.named_rows = {m.table.lower(): m.value for m, _ in value_filters if _names_rows(catalog, m)}
    for span, number in numbered:
        # "employee number 1024", "worker 231655": a key's value names one row as a label does
        keyed = [t for t in span.targets if t.kind == "column" and is_key(t.column or "")]
        if keyed:
            p.named_rows.setdefault(keyed[0].table.lower(), f"{keyed[0].column} {number}")
    unnamed = [s for s in measure_spans if not _names_filtered_column(s, kept)]
    # "how many women voted Liberal Democrat": the verb names the value's column (`vote`),
    # and the rows are what is counted
    verb_of_value = tokens[:2] == ["how", "many"] and all(
        _names_filtered_column(s, kept)
        and is_verb(tokens[s.start])
        and not is_noun(tokens[s.start])
        for s in measure_spans
    )
    measure_spans = unnamed or ([] if verb_of_value else measure_spans)

    # "customers in the Enterprise segment": `segment` only names the value's column.
    filtered = {(m.table.lower(), m.column.lower()) for m, _ in value_filters}
    naming = [s for s in measure_spans if not _names_filtered_column(s, filtered)]
    listed = _listed_table(tokens, naming, aggs, group_spans, superlative, limit)
    if listed is not None and spec.time_grain is None:
        spec.listing, spec.fact_table = True, listed
    else:
        compared = [s for s in comparison_spans.values() if s is not None]
        p.pinned = {(m.table.lower(), m.column.lower()) for m, _ in value_filters}
        p.one_row_groups = bool(group_spans) and all(_one_row_each(catalog, s) for s in group_spans)
        p.rows_are_things = bool(group_spans) and all(
            (len(cols := _columns_of(s)) == 1 and _rows_are_the_things(catalog, cols[0]))
            # "top 5 cars by horsepower": the table's own rows, each its own figure
            or (not cols and limit is not None and all(t.kind == "table" for t in s.targets))
            for s in group_spans
        )
        p.one_row_labels = bool(group_spans) and all(
            _one_row_each(catalog, Span(s.start, s.end, _columns_of(s))) for s in group_spans
        )
        p.row_ranked = _row_ranked(tokens, spans, superlative_at)
        p.groups_are_labels = bool(group_spans) and all(
            (c.column or "").lower() in _ROW_LABELS for g in group_spans for c in _columns_of(g)
        )
        p.group_tables = {t.table for g in group_spans for t in g.targets if t.kind == "column"}
        measures = _measures(
            p,
            measure_spans,
            aggs,
            superlative,
            bool(group_spans) or limit is not None,
            superlative_at=superlative_at if tokens[:1] not in (["which"], ["who"]) else None,
            entity_grouped=any(t.kind == "table" for s in group_spans for t in s.targets),
            time_grain=spec.time_grain,
            counted_instead=[t.table for s in compared for t in s.targets if t.kind == "column"],
            near=_filtered_table(value_filters, compared)
            or _said_in_table(tokens, measure_spans)
            # "the highest share of smokers": the table of the yes/no condition
            or next((f.table for f in yes_filters.values()), None),
        )
        if isinstance(measures, ParseResult) and p.per_people is not None:
            # "the measles rate per 100,000 people": what is counted is the tally column of
            # the table the values or the names point at (`count`, `total`)
            tally = _tally_for_rate(catalog, spans, [m for m, _ in value_filters])
            measures = [Measure("sum", tally.table, tally)] if tally is not None else measures
        if isinstance(measures, ParseResult):
            return measures
        averaged = any(agg == "avg" for _, _, agg in aggs)
        if averaged and any(m.agg == "count" and m.target is None for m in measures):
            # "on average, how many bakers appeared per episode": an average of counts.
            return _clarify(
                "An average of a count (per episode, per year …) is not something I can "
                "compute yet; ask for the count by that grouping instead.",
                [],
            )
        if averaged:
            # "on average, how many bakers appeared per episode" over a table of episodes:
            # "per episode" is what is averaged over, its rows, not a grouping.
            fact = measures[0].table.lower()
            per_row = [
                g
                for g in group_spans
                if g.start > 0
                and tokens[g.start - 1] == "per"
                and (
                    any(t.kind == "table" and t.table.lower() == fact for t in g.targets)
                    # "average calories per item" where each row is one menu item (a few
                    # names repeat): the rows are averaged, never a group for each name
                    or _names_each_row(catalog, g)
                )
            ]
            group_spans = [g for g in group_spans if g not in per_row]
            p.notes += [
                f"'per {_text(tokens, g)}' read as each row of {fact}"
                for g in per_row
                if _names_each_row(catalog, g)
            ]
        ratio = next((g for g in group_spans if _ratio_per(tokens, g, measures)), None)
        if ratio is not None and _divided_per_row(p, ratio, measures, aggs):
            group_spans = [g for g in group_spans if g is not ratio]
            ratio = None
        if ratio is not None:
            # "the median price per carat": price divided by carat, a figure of each row; a
            # group for each of 273 carat weights would answer another question. Asked.
            said = _text(tokens, ratio)
            return _clarify(
                f"'per {said}' reads as a ratio (one column divided by another), which I "
                f"can't compute yet; for a group for each {said}, say 'by {said}'.",
                [],
            )
        # "licensed pets" where both words name the rows: one count, never two of the same
        once = {(m.agg, m.table.lower(), m.target, m.per): m for m in reversed(measures)}
        measures = [m for m in measures if once[(m.agg, m.table.lower(), m.target, m.per)] is m]
        ranking = superlative is not None or limit is not None
        if ranking and len(measures) > 1 and (group_spans or limit is not None):
            # "the highest total sales volume" over sales and volume: rank by which?
            names = [m.alias for m in measures]
            return _clarify(f"Rank by which: {' or '.join(names)}?", names)
        if p.per_people is not None:
            rated = _rates_per_people(p, measures)
            if isinstance(rated, ParseResult):
                return rated
            measures = rated
        spec.measures = measures
        spec.fact_table = measures[0].table
    for span in group_spans:
        if _day_of_rows(p, span, spec, superlative, limit):
            # "the 5 days with the highest ozone" over rows of Month and Day: the days are
            # the rows (a date each), never the day of the month summed over months
            spec.listing = True
            limit = limit or 1
            ranked = spec.measures[0].target.column if spec.measures[0].target else ""
            read = (f"{ranked} added up", f"{ranked} averaged")
            p.notes[:] = [n for n in p.notes if not n.startswith(read)]
            p.notes.append(f"each row of {spec.fact_table} read as one day")
            continue
        if span.start == p.guessed_rows and all(
            m.agg == "count" and m.target is None for m in spec.measures
        ):
            # "which zip code had the most positive tests": a word nothing names, read as the
            # rows, cannot also be the groups their count is taken in (each row one of them)
            said = _text(tokens, span)
            return _clarify(f"I couldn't find '{said}' in this database: which column is it?", [])
        groups = _grouping(p, span, spec.fact_table)
        if not groups and _ranks_its_rows(p, span, spec, superlative, limit):
            # "the 3 heaviest diamonds" on a table with no name column: its rows themselves,
            # whole, the heaviest first (a row has no label to group it by)
            spec.listing = True
            limit = limit or 1
            continue
        if not groups:
            return _clarify(f"I can't group by '{_text(tokens, span)}' here.", [])
        spec.group_by.extend(groups)
    rng = spec.time_range
    if rng is not None and spec.fact_table and _timeless(p, rng):
        # "home runs in 1986" over a table of one season's figures with no date or year
        # anywhere: the year cannot be checked, so every row is read, and that is said
        p.notes.append(
            f"'{rng.said}' not applied: {spec.fact_table} has no date or year, so its rows "
            "were read as that year's"
        )
        spec.time_range = rng = None
    if rng is not None and rng.each and not spec.listing:
        # "average unemployment in 1990 and 2010": a row for each period named.
        period = _period_group(catalog, spec.fact_table, "year" if rng.years else "month")
        if period is None:
            return _clarify(f"I found no date column on {spec.fact_table} for those periods.", [])
        if spec.time_grain is None and all(g.column != period.column for g in spec.group_by):
            spec.group_by.append(period)
    implicit = "trend" in tokens or any(
        tokens[i : i + 2] == ["over", "time"] for i in range(len(tokens))
    )
    parts = _calendar_columns(catalog, spec.fact_table) if spec.fact_table else {}
    if spec.time_grain == "month" and implicit and "year" in parts and "month" not in parts:
        spec.time_grain = "year"  # "over time" on a table kept by year: by year
    if spec.time_grain in ("month", "week", "day") and not spec.listing:
        split = _calendar_columns(catalog, spec.fact_table)
        part = split.get(spec.time_grain)
        if of_year and part is None:  # a date beside its own `month` number: that column
            part = own_calendar_column(catalog, spec.fact_table, spec.time_grain)
        if of_year and part is not None:
            # "for each month of the year": the month number, all years together.
            spec.group_by.append(GroupBy(spec.fact_table, part, alias=part, is_time=True))
            spec.time_grain = None
        elif of_year:
            return _clarify(
                f"Each {spec.time_grain} of the year, all years together, is not something I "
                f"can group by here yet; ask per {spec.time_grain} instead.",
                [],
            )
        elif part is not None and "year" in split and spec.time_range is None:
            # "per month" over a table with year and month columns: each month in turn
            # (2015-01, 2015-02 ...) or each month of the year, years together?
            return _clarify(
                f"Per {spec.time_grain} in turn ({spec.time_grain}s of each year apart), or "
                f"per {spec.time_grain} of the year (all years together)?",
                [f"per {spec.time_grain}", f"per {spec.time_grain} of the year"],
            )
    for comparison in comparisons:
        named = comparison_spans[comparison.op_start]
        column = _pick(named, spec.fact_table, numeric=True) if named else None
        # the words the comparison was said in, once ("children under 12")
        what = " ".join(tokens[max(0, comparison.op_start - 1) : comparison.value_end])
        if column is None and not _names_number(named):
            column = _sale_price(tokens, comparison, catalog, spec.fact_table)
            if column is not None:
                p.notes.append(f"'{what}' read as {column.column}")
        if column is None and not _names_number(named):
            column = _population_of(tokens, comparison, catalog, spec.fact_table)
            if column is not None:  # "'more than 1 million people' read as poptotal"
                people_said = " ".join(tokens[comparison.op_start : comparison.value_end + 1])
                p.notes.append(f"'{people_said}' read as {column.column}")
        if column is None and not _names_number(named):
            column = _age_of_people(tokens, comparison, lexicon, spec.fact_table)
            if column is not None:
                p.notes.append(
                    f"'{what}' read as {column.column} {comparison.op} {comparison.value}"
                )
        if column is None:
            return _clarify(f"Which numeric column should '{what}' apply to?", [])
        if comparison.percent and not _is_rate(column.column or ""):
            # "a savings rate above 10%" over `psavert`: its figures may be percentages
            # (10) or fractions (0.10); nothing in its name says which, so said
            p.notes.append(f"'{what}' read as {column.column} {comparison.op} {comparison.value}")
        spec.filters.append(
            Filter(
                column.table,
                column.column or "",
                comparison.op,
                comparison.value,
                label=column.label,
            )
        )
    spec.filters += column_filters
    for span in missing:  # "days missing an ozone reading": the rows with no value there
        target = _pick(span, spec.fact_table, numeric=False)
        if target is not None:
            spec.filters.append(
                Filter(target.table, target.column or "", "is null", None, label=target.label)
            )
    for span in known:  # "characters with a known birth year": the rows with a value there
        target = _pick(span, spec.fact_table, numeric=False)
        if target is not None:
            spec.filters.append(
                Filter(target.table, target.column or "", "is not null", None, label=target.label)
            )
    numbered_values: dict[tuple[str, str, str], list[int | str]] = {}
    for span, number in numbered:  # "series 5": the column's value, not a measure
        target = _pick(span, spec.fact_table, numeric=True) or _pick(
            span, spec.fact_table, numeric=False
        )
        if target is not None:
            value: int | str = number if is_numeric(target.type) else str(number)
            coded = _coded_numbers(catalog, target) if isinstance(value, str) else {}
            value = coded.get(number, value)  # "season 9" for 'S09'
            key = (target.table, target.column or "", target.label)
            numbered_values.setdefault(key, []).append(value)
    for (of_table, numbered_column, named_as), numbers in numbered_values.items():
        if len(numbers) == 1:
            spec.filters.append(Filter(of_table, numbered_column, "=", numbers[0], label=named_as))
            continue
        # "season 1 and season 14": either, side by side
        spec.filters.append(Filter(of_table, numbered_column, "in", numbers, label=named_as))
        if all((g.table, g.column) != (of_table, numbered_column) for g in spec.group_by):
            spec.group_by.append(GroupBy(of_table, numbered_column, alias=numbered_column))
    counted_columns = {
        (m.table.lower(), (m.target.column or "").lower())
        for m in spec.measures
        if m.target is not None and m.agg in ("count", "count_distinct")
    } | {(g.table.lower(), (g.column or "").lower()) for g in spec.group_by}
    # rows of `counties` counted: its `county` names them
    counted_columns |= {
        (m.table.lower(), stem(m.table.lower())) for m in spec.measures if m.target is None
    }
    # "Labrador retriever as their main breed": the column the question names for the value
    said_columns = {
        (t.table.lower(), (t.column or "").lower())
        for s in p.all_spans
        if len(s.targets) == 1
        for t in s.targets
        if t.kind == "column"
    }
    chosen = _choose_value_filters(
        value_filters, spec.fact_table, catalog, counted_columns, said_columns
    )
    if isinstance(chosen, ParseResult):
        return chosen
    chosen += _both_answers(list(yes_filters.values()))
    p.notes += [  # "blue eyes" over 'blue' and 'blue, grey': both kept, and said
        f"rows whose {f.column} lists {f.value}, alone or among others"
        for f in chosen
        if f.op == "has"
    ]
    p.notes += [
        f"'{m.word}' read as {m.column} beginning with {m.value}"
        for m, _ in value_filters
        if m.prefix and m.word.lower() != m.value.lower()  # "Mercedes" for Merc 240D
    ]
    p.notes += [f"'{m.word}' read as {m.column} = {m.value}" for m, _ in value_filters if m.guessed]
    p.notes += _kinds_named_as_the_rows(p, value_filters)
    for at, m in enumerate(spec.measures):
        counted_column = m.target.column if m.target is not None else None
        pinned = any(
            f.op == "=" and (f.table, f.column) == (m.table, counted_column) for f in chosen
        )
        if m.agg == "count_distinct" and pinned:
            # "how many first class passengers": the distinct classes among first class are
            # one; what is counted is the rows that value keeps
            spec.measures[at] = Measure("count", m.table, None, alias=f"{stem(m.table)}_count")
            p.notes.append(f"rows of {m.table} counted, not its distinct {counted_column}")
            p.notes = [n for n in p.notes if not n.startswith("counted the distinct values")]
    labelled = [
        f.value
        for f in chosen
        if f.op == "="
        and (f.column.lower() in _LABELS or _one_row_each(catalog, _column_span(f, catalog)))
    ]
    if entity is not None and labelled and any(m.agg == "count" for m in spec.measures):
        # "how many movies did Yoda appear in": Yoda is one row; what is counted is not here.
        return _clarify(
            f"{labelled[0]} is one row of {entity[1]}; I can't count {tokens[entity[0][0]]} "
            "from it. Which column holds them?",
            [],
        )
    spec.filters += chosen
    for f in chosen:
        grouped_on = {(g.table.lower(), (g.column or "").lower()) for g in spec.group_by}
        if f.op == "in" and (f.table.lower(), f.column.lower()) not in grouped_on:
            # "compare the price of Ideal and Fair": one row for each, side by side.
            spec.group_by.append(GroupBy(f.table, f.column, alias=f.column))
    if ranked_grain and superlative is not None:
        limit = limit or 1
    if limit is not None and limit > 1 and not spec.group_by and not spec.listing:
        # "the 5 most populous countries" must list five of something, never one number
        return _clarify(f"The top {limit} of what? Name what to rank, e.g. a name column.", [])
    # ... never over timed observations of named things (a sensor is no "who")
    sightings = _observation_label(catalog, spec.fact_table) if spec.fact_table else None
    ranks_people = superlative is not None and sightings is None
    named_by = _one_name_column(catalog, spec.fact_table) if ranks_people else None
    if tokens[:1] == ["who"] and not spec.group_by and not spec.listing and named_by:
        # "who is the youngest Best Actor winner": the rows ranked, each said by its name
        spec.group_by.append(GroupBy(spec.fact_table, named_by, alias=named_by))
        limit = limit or 1
    named_by = named_by or (_one_name_column(catalog, spec.fact_table) if spec.filters else None)
    if tokens[:1] == ["who"] and not spec.group_by and not spec.listing and named_by:
        # "who won series 5": the rows kept, each said by its name (a row with none unsaid)
        spec.group_by.append(GroupBy(spec.fact_table, named_by, alias=named_by, named=True))
    if tokens[:1] == ["who"] and not spec.group_by and not spec.listing:
        # "who is the oldest baker" answered with only the age would not say who.
        return _clarify("Who, by which name? Name the column that says who, e.g. a name.", [])
    shaped = spec.group_by or limit or any(m.agg in ("min", "max") for m in spec.measures)
    if superlative is not None and not shaped and not spec.listing:
        # "who is the oldest baker": a superlative that ranks nothing must not leave a count.
        word = tokens[superlative_at] if superlative_at is not None else "that"
        return _clarify(f"'{word}' by which column? Name the number to rank by.", [])
    if superlative is not None and (spec.group_by or limit or spec.time_grain):
        spec.order_desc = superlative
    elif desc is not None:
        spec.order_desc = desc
    spec.limit = limit
    if (
        tokens[:1] in (["which"], ["who"])
        and not (spec.group_by or spec.listing or spec.time_grain or limit)
        and spec.measures
        and all(m.agg == "count" and m.target is None for m in spec.measures)
    ):
        # "which teams won the World Series": names are asked, and one count of the rows
        # would answer another question; asked, never guessed
        return _clarify(
            "That asks which rows, and I could only count them: ask 'how many …', or for a "
            "list by a name column ('list the team names where …').",
            [],
        )
    one_of_a_kind_ranked(tokens, spec, superlative_at, value_filters)
    _kinds_of_observed_things(tokens, spec, catalog, value_filters)
    at_an_end = value_at_a_time_end(tokens, catalog, spec, superlative_at)
    if at_an_end is not None:
        return at_an_end
    _choose_time_column(catalog, spec, dated_by, p.notes)
    _people_held_in_a_tally(tokens, spec, catalog, p.notes)
    tallied = {f"each row of {t} counted as one" for t, _ in p.tallied}
    if tallied:  # "cases" read as the tally column: the rows were not counted after all
        spec.notes = [n for n in spec.notes if not n.startswith(tuple(tallied))]
    spec.notes += p.notes + _counted_in_one_of_many(catalog, spec)
    if tokens[:2] == ["how", "much"] and all(
        m.agg == "count" and m.target is None for m in spec.measures
    ):
        # "how much did the Tate pay for …" asks an amount: a count of rows is no amount
        return _clarify("How much of what? Name the number to add up, e.g. a price column.", [])
    if shared and not spec.filters and spec.group_by and not spec.listing and limit is None:
        spec.share_of_groups = True  # "what share of all sales does each city account for"
    elif shared:
        conditions = [f for f in spec.filters if any(f is y for y in yes_filters.values())]
        # "which state has the highest churn rate": a yes/no condition's share in each group,
        # ranked; any other ranking of a share has no part to take
        ranked_share = limit is not None and bool(spec.group_by) and bool(conditions)
        if not spec.filters or spec.listing or (limit is not None and not ranked_share):
            return _clarify(
                f"A {tokens[shared[0]]} of what? Say which rows make the part, e.g. "
                "'what percentage of orders are from the web channel'.",
                [],
            )
        if conditions and (len(conditions) < len(spec.filters) or ranked_share):
            # "the survival rate of women", "what percentage of women survived": the yes/no
            # condition is the part, the other filters pick the rows it is a part of.
            spec.share_of = conditions
            spec.filters = [f for f in spec.filters if not any(f is c for c in conditions)]
        elif (kinds := _whole_and_part_of_one_column(tokens, shared[0], spec)) is not None:
            # "what percentage of the municipalities are villages" over `csd_type` holding
            # both: a village is no municipality, so the whole is every row; said
            whole_value, kind = kinds
            spec.share_of = [kind]
            spec.filters = [f for f in spec.filters if f.column != kind.column]
            spec.group_by = [g for g in spec.group_by if g.column != kind.column]
            spec.notes.append(
                f"'{whole_value}' read as every row of {kind.table} (a {kind.value} is not "
                f"also a {whole_value} in {kind.column})"
            )
        else:
            whole = _of_the_whole(tokens, shared[0], spec.filters)
            spec.share_of = [f for f in spec.filters if not any(f is w for w in whole)]
            spec.filters = whole
        rows = [f for f in spec.share_of if f.op == "=" and _said_before(tokens, f, p.shared_at)]
        summed = [m.target.column for m in spec.measures if m.agg == "sum" and m.target]
        if rows and len(rows) == len(spec.share_of) and summed:
            # "what percentage of nurses are women" where `women` is a number on each
            # occupation's row: the value comes first and the number after it, so the row's
            # own figure, or its part of the column's total? ("what percentage of sales came
            # from Austin" names the number first: a share.)
            figure, row = summed[0], rows[0].value
            return _clarify(
                f"'{figure}' is a number on each row: do you mean the {figure} of {row}, or "
                f"the share of {row} in the total {figure}?",
                [f"{figure} of {row}", f"share of total {figure}"],
            )
        for f in spec.share_of:
            if f.op == "=" and _mostly_distinct(catalog, Target("column", f.table, f.column)):
                # "what percentage of the courses are independent study": one course title
                # among thousands is an odd part; the kind may be said elsewhere, so said
                spec.notes.append(f"the part read as the rows whose {f.column} is {f.value}")
    unranked = _text_ranked_by_rows(p, spec)
    if unranked is not None:
        return unranked
    _leave_out_catch_alls(spec, catalog)
    _grain_kept_as_text(spec, catalog)
    if correlated is not None and not _correlation_of(spec, correlated):
        return _clarify(
            "A correlation of which two numbers? Name both, e.g. 'the correlation between "
            "temperature and ozone'.",
            [],
        )
    if gap_asked and not _difference_of_two(spec):
        return _clarify(
            "The difference between which two? Name both, e.g. 'the difference in average "
            "salary between men and women'.",
            [],
        )
    return ParseResult(spec=spec)


_DIFFERENCE_WORDS = frozenset({"difference", "gap"})


def _difference_asked(tokens: list[str], catalog: Catalog) -> tuple[list[str], bool]:
    """ "the difference between the average salary of men and women", "the gap in pay
    between A and B": the word (and the "in"/"between"/"of" after it) go; a difference is
    remembered, to be taken between the two values said. Not where a column is named by the
    word (`goal_difference`, `pay_gap`): there it is that column's name."""
    at = next((i for i, t in enumerate(tokens) if t in _DIFFERENCE_WORDS), None)
    named = {
        w
        for info in catalog.tables.values()
        for c in info.columns
        for w in identifier_words(c.name)
        if w in _DIFFERENCE_WORDS or w in ("diff", "differential")
    }
    if at is None or named:
        return tokens, False
    end = at + 1 + (tokens[at + 1 : at + 2] in (["in"], ["between"], ["of"]))
    return [*tokens[:at], *tokens[end:]], True


def _correlation_of(spec: QuestionSpec, pair: tuple[Target, Target]) -> bool:
    """The average the question was read with, made the correlation of the pair (over the
    same rows and groups). False when the parse came out another shape."""
    first, second = pair
    figures = [m for m in spec.measures if m.agg == "avg" and m.target == first]
    if len(spec.measures) != 1 or not figures or spec.listing or spec.share_of:
        return False
    m = figures[0]
    m.agg, m.paired = "corr", second
    m.alias = f"correlation_{first.column}_{second.column}"
    return True


def _difference_of_two(spec: QuestionSpec) -> bool:
    """Turn "X for A and B" (two values of one column, grouped by it) into A's X minus B's,
    one number whose name says which from which. False when the question has no such pair."""
    pairs = [f for f in spec.filters if f.op == "in" and isinstance(f.value, list)]
    if len(pairs) != 1 or len(pairs[0].value) != 2 or len(spec.measures) != 1:
        return False
    pair = pairs[0]
    grouped = [g for g in spec.group_by if (g.table, g.column) == (pair.table, pair.column)]
    if len(grouped) != 1 or len(spec.group_by) != 1 or spec.listing or spec.time_grain:
        return False
    first, second = pair.value
    spec.difference_of = [
        Filter(pair.table, pair.column, "=", first, label=pair.label),
        Filter(pair.table, pair.column, "=", second, label=pair.label),
    ]
    spec.filters = [f for f in spec.filters if f is not pair]
    spec.group_by = []
    named = re.sub(r"\W+", "_", f"{first}_minus_{second}").strip("_")
    spec.measures[0].alias = f"{spec.measures[0].alias}_{named}"
    return True


def _grain_kept_as_text(spec: QuestionSpec, catalog: Catalog) -> None:
    """ "trips in each month" over a table with no date, whose `month` is text ('Jan',
    'Feb'): the groups are that column's values as written, and the answer says so (they are
    not dates, so no calendar order or range reaches them)."""
    info = catalog.table(spec.fact_table) if spec.time_grain and spec.fact_table else None
    if info is None or any(is_temporal(c.type) for c in info.columns):
        return
    if spec.time_grain in _calendar_columns(catalog, info.name):
        return  # a whole-number `month` is read as one
    text = next(
        (c for c in info.columns if c.name.lower() == spec.time_grain and not is_numeric(c.type)),
        None,
    )
    if text is None:
        return
    spec.group_by.append(GroupBy(info.name, text.name, alias=text.name))
    spec.time_grain = None
    spec.notes.append(f"each {text.name} as written in the data (text, not a date)")


def _leave_out_catch_alls(spec: QuestionSpec, catalog: Catalog) -> None:
    """ "which taxi company made the most trips" where 2,715 trips are the company 'other':
    a bin of many is no company, so a ranking leaves it out, and says so."""
    if spec.limit is None or spec.listing:
        return
    for group in spec.group_by:
        info = catalog.table(group.table)
        stored = info.column(group.column or "") if info is not None and not group.is_time else None
        values = stored.distinct_values if stored is not None else ()
        binned = [v for v in values if lumps_many(group.column or "", v)]
        if binned:
            spec.filters.append(Filter(group.table, group.column or "", "not in", binned))
            spec.notes.append(
                f"{', '.join(repr(v) for v in binned)} left out of the ranking (it lumps many "
                f"{group.column} values together)"
            )


_MOST_WORDS = frozenset({"most", "fewest", "least", "more", "less"})


def _text_ranked_by_rows(p: _Parse, spec: QuestionSpec) -> ParseResult | None:
    """ "the most precipitation" over a text column `precip`: what ranks is the named column
    (a mass noun, never a plural that counts rows, "the most tests"), and counting rows
    instead would answer another question. Asked, never answered with a row count that
    leaves the word unused."""
    if not spec.measures or any(m.target is not None for m in spec.measures) or spec.listing:
        return None
    used = {(f.table.lower(), f.column.lower()) for f in [*spec.filters, *spec.share_of]}
    used |= {(g.table.lower(), (g.column or "").lower()) for g in spec.group_by}
    for span in p.all_spans:
        column = span.targets[0] if len(span.targets) == 1 else None
        if (
            column is None
            or column.kind != "column"
            or is_numeric(column.type)
            or span.start == 0
            or p.tokens[span.start - 1] not in _MOST_WORDS
            or (column.table.lower(), (column.column or "").lower()) in used
            # "the most bird strikes", "the most tests": a plural counts the rows
            or stem(p.tokens[span.end - 1]) != p.tokens[span.end - 1]
        ):
            continue
        said = _text(p.tokens, span)
        return _clarify(
            f"'{said}' ({column.column}) holds text here, not numbers: which number should "
            "rank them?",
            [],
        )
    return None


_SHOW_WORDS = ("show", "list", "display", "preview", "see", "browse")
_ON_STATES = frozenset({"display", "show", "list", "sale", "loan", "view"})
# Verbs read as glue inside a question ("flights that left JFK") that, ending a "how many"
# question, are what the counted rows did: a condition to find, never to drop.
_PREDICATE_VERBS = frozenset(
    {"left", "leave", "went", "bought", "sold", "ordered", "placed", "made", "happened"}
    | {"arrived", "departed", "flew", "shipped", "spent", "quit", "stayed", "died"}
)


def _names_filtered_column(span: Span, filtered: set[tuple[str, str]]) -> bool:
    return all(
        t.kind in ("column", "dimension")
        and (t.table.lower(), (t.column or "").lower()) in filtered
        for t in span.targets
    )


def _listed_table(
    tokens: list[str],
    spans: list[Span],
    aggs: list[tuple[int, int, str]],
    group_spans: list[Span],
    superlative: bool | None,
    limit: int | None,
) -> str | None:
    """The table whose rows "show me the orders (table)" asks for, or None.

    Only a show/list verb before exactly one named table, with nothing to aggregate, group or
    rank: "show orders by region" or "list the top 5 orders" stay aggregates or rankings."""
    if aggs or group_spans or superlative is not None or limit is not None:
        return None
    if not any(t in _SHOW_WORDS for t in tokens[:3]) or len(spans) != 1:
        return None
    table = next((t for t in spans[0].targets if t.kind == "table"), None)
    return table.table if table is not None else None


def _value_filters(
    p: _Parse, values: list[ValueMatch], lex: Lexicon
) -> list[tuple[ValueMatch, str | None]]:
    """Values found in the data ("JFK", "Enterprise"), with the direction word before them.
    A value that begins a column's name is the name ("hurricane force diameter" is the
    column `hurricane_force_diameter`, not hurricanes)."""
    out: list[tuple[ValueMatch, str | None]] = []
    for match in values:
        words = question_tokens(match.word)
        if not words or not match.table:
            continue  # a bare month name with no month column: the time parser handles it
        for i in range(len(p.tokens) - len(words) + 1):
            if p.tokens[i : i + len(words)] == words and (
                _starts_a_name(p.tokens, i, lex)
                or _inside_a_table_name(p.tokens, i, words, lex)
                # "did police use force": a word of the table's own name, never its code 'FORCE'
                or {stem(w) for w in words} <= _table_name_words(p.catalog)
            ):
                continue
            if (
                p.tokens[i : i + len(words)] == words
                and i > 0
                and p.tokens[i - 1] in ("a", "an", "any", "every")
                and _names_rows(p.catalog, match)
                # "a Big Mac" is the item of that name: a capitalized name of several words
                and not (match.word[:1].isupper() and len(words) > 1)
            ):
                # "the sales of a bank": a kind of company, not the one named Bank (nor
                # every company: the rows are not read as banks)
                p.kinds.update(range(i, i + len(words)))
                continue
            if p.tokens[i : i + len(words)] == words:
                if p.taken & set(range(i, i + len(words))) and not any(
                    m.word == match.word for m, _ in out
                ):
                    continue  # already explained, e.g. "July" as a time range
                p.taken.update(range(i, i + len(words)))
                before = p.tokens[i - 1] if i > 0 else None
                out.append((match, before))
                break
    return out


def _kinds_named_as_the_rows(
    p: _Parse, value_filters: list[tuple[ValueMatch, str | None]]
) -> list[str]:
    """ "all the municipalities", "how many single-tier municipalities" over `csd_type`
    holding 'municipality' among town, city and village: after "all", or after another
    value, the plural may name every row (all municipalities) as well as the kind. With
    nothing else naming the rows, the kind is read, and said. ("How many droids" alone is
    the kind, unsaid.)"""
    if any(t.kind == "table" for s in p.all_spans for t in s.targets):
        return []
    valued = {w.lower() for m, _ in value_filters for w in question_tokens(m.word)}
    notes = []
    for m, _ in value_filters:
        word, value = m.word.lower(), m.value.lower()
        at = p.tokens.index(word) if word in p.tokens else -1
        before = p.tokens[max(at - 2, 0) : max(at, 0)]
        info = p.catalog.table(m.table)
        column = info.column(m.column) if info is not None else None
        if at > 0 and column is not None and info is not None and _kind_asked_as_rows(p, at, m):
            # "which municipality covers the most land" over `csd_type` holding
            # 'municipality' beside 'town' and 'city', each row a named municipality: the
            # word may be every row as well as the kind. The kind is read, and said.
            notes.append(f"'{m.word}' read as the rows whose {m.column} is {m.value}")
            continue
        if at <= 0 or not ("all" in before or (before[-1:] and before[-1] in valued - {word})):
            continue
        if (
            column is not None
            and word != value
            and word.endswith("s")
            and stem(word) == stem(value)
            and " " not in value
            and len(column.distinct_values) >= 3
        ):
            notes.append(f"'{m.word}' read as the rows whose {m.column} is {m.value}")
    return notes


_KIND_WORDS = frozenset({"type", "kind", "category", "class", "sort", "tier", "designation"})


def _kind_asked_as_rows(p: _Parse, at: int, m: ValueMatch) -> bool:
    """Whether the value at `at` is the thing asked about ("which municipality", "how many
    municipalities") and one of three or more kinds in a column named a type or kind, on a
    table whose rows a text column names one by one: then the word may be every row."""
    lead = p.tokens[:at]
    if lead not in (["which"], ["what"], ["how", "many"]) and lead[-2:] != ["how", "many"]:
        return False
    if stem(p.tokens[at]) != stem(m.value.lower()) or " " in m.value:
        return False
    info = p.catalog.table(m.table)
    column = info.column(m.column) if info is not None else None
    if info is None or column is None or len(column.distinct_values) < 3:
        return False
    return bool(set(identifier_words(m.column)) & _KIND_WORDS) and _named_row_by_row(info)


def _kinds_of_observed_things(
    tokens: list[str],
    spec: QuestionSpec,
    catalog: Catalog,
    value_filters: list[tuple[ValueMatch, str | None]],
) -> None:
    """ "How many hurricanes were there in 2005?" over 6-hourly storm observations, where
    'hurricane' is a status: the storms seen as hurricanes, by their names (15), never the
    212 sightings. "How many hurricane observations" still counts the rows."""
    if tokens[:2] != ["how", "many"] or len(tokens) < 3 or set(tokens) & ROW_WORDS:
        return
    m = spec.measures[0] if len(spec.measures) == 1 else None
    if m is None or m.agg != "count" or m.target is not None or spec.group_by or spec.listing:
        return
    observed = _observation_label(catalog, m.table)
    kinds = {match.word.lower() for match, _ in value_filters if match.table == m.table}
    # "tropical depressions": the kind may take several words, the last in the plural
    said = next((k.split() for k in kinds if k.split() == tokens[2 : 2 + len(k.split())]), [])
    if observed is None or not said or stem(said[-1]) == said[-1]:
        return
    label = Target("column", m.table, observed, type="VARCHAR")
    spec.measures = [Measure("count_distinct", m.table, label, alias=f"distinct_{observed}")]
    spec.notes.append(f"{m.table} counted by distinct {observed} (each row is one observation)")


def _divided_per_row(
    p: _Parse, ratio: Span, measures: list[Measure], aggs: list[tuple[int, int, str]]
) -> bool:
    """ "the median price per carat", "the average price per carat of ideal diamonds": each
    row's price divided by its carat, then the statistic asked (the mean when none is said, a
    total of the ratios meaning nothing). Said. False when the shape is another."""
    numbers = [m for m in measures if m.target is not None and is_numeric(m.target.type)]
    if len(measures) != 1 or len(numbers) != 1:
        return False
    m, divisor = measures[0], ratio.targets[0]
    said = [a for _, _, a in aggs]
    if m.agg not in ("avg", "median", "min", "max", "sum") or (m.agg == "sum" and said):
        return False
    if m.agg == "sum":  # nothing said: "the price per carat" is the mean ratio
        m.agg = "avg"
        p.notes[:] = [n for n in p.notes if " added up" not in n]
    m.divided_by = divisor
    m.alias = f"{m.agg}_{m.target.column if m.target else ''}_per_{divisor.column}"
    p.notes.append(
        f"'{m.target.column if m.target else ''} per {divisor.column}' read as each row's "
        f"{m.target.column if m.target else ''} divided by its {divisor.column}"
    )
    return True


def _ratio_per(tokens: list[str], span: Span, measures: list[Measure]) -> bool:
    """Whether "per X" after a measured number names a continuous number of the same rows
    (`carat`, a DOUBLE): a ratio of two columns, not a grouping."""
    if span.start == 0 or tokens[span.start - 1] != "per" or len(span.targets) != 1:
        return False
    divisor = span.targets[0]
    continuous = divisor.type.upper().startswith(("DOUBLE", "FLOAT", "REAL", "DECIMAL"))
    return (
        divisor.kind == "column"
        and continuous
        and (divisor.column or "").lower() not in _CALENDAR_WORDS
        and any(
            m.target is not None
            and m.target != divisor
            and m.table == divisor.table
            and is_numeric(m.target.type)
            for m in measures
        )
    )


def _choose_value_filters(
    found: list[tuple[ValueMatch, str | None]],
    fact_table: str,
    catalog: Catalog,
    counted: Collection[tuple[str, str]] = (),
    said: Collection[tuple[str, str]] = (),
) -> list[Filter] | ParseResult:
    """One filter per value word; a word found in several columns is asked about, unless
    all but one are the column being counted or grouped ("how many counties are in Ohio":
    not the county called Ohio, whose count is 1, but the state)."""
    by_word: dict[str, list[tuple[ValueMatch, str | None]]] = {}
    for match, before in found:
        by_word.setdefault(match.word.lower(), []).append((match, before))
    filters: list[Filter] = []
    for word, options in by_word.items():
        before = options[0][1]
        on_fact = [m for m, _ in options if m.table.lower() == fact_table.lower()] or [
            m for m, _ in options
        ]
        if len(on_fact) > 1 and before in _FROM_WORDS | _TO_WORDS:
            wanted = (
                ("origin", "from", "source", "dep")
                if before in _FROM_WORDS
                else ("dest", "to", "arr", "target")
            )
            directed = [m for m in on_fact if m.column.lower().startswith(wanted)]
            on_fact = directed or on_fact
        if len({(m.table, m.column) for m in on_fact}) > 1:
            others = [m for m in on_fact if (m.table.lower(), m.column.lower()) not in counted]
            on_fact = others if len({(m.table, m.column) for m in others}) == 1 else on_fact
        if len({(m.table, m.column) for m in on_fact}) > 1:
            named = [m for m in on_fact if (m.table.lower(), m.column.lower()) in said]
            on_fact = named if len({(m.table, m.column) for m in named}) == 1 else on_fact
        if len({(m.table, m.column) for m in on_fact}) > 1 and _one_attribute(catalog, on_fact):
            # "Texas" in `state` and, as TX, in `abb`: two spellings of one attribute (as
            # many values each, one table); the one written as asked
            on_fact = [m for m in on_fact if m.value.lower() == m.word.lower()] or on_fact[:1]
        if len({(m.table, m.column) for m in on_fact}) > 1:
            names = [f"{m.table}.{m.column}" for m in on_fact]
            return _clarify(
                f"'{word}' appears in {', '.join(names)}: which one do you mean?", names
            )
        m = on_fact[0]
        spellings = sorted({o.value for o in on_fact if not o.prefix})
        if len(spellings) > 1 and len({_spelled(v) for v in spellings}) == 1:
            # 'Fled on Foot' stored bare and padded with spaces, 'Pot-Bellied' and 'Pot
            # Bellied', 'LUNA' and 'Luna': one value, every spelling
            filters.append(
                Filter(m.table, m.column, "spellings", spellings, label=m.column, said=m.word)
            )
            continue
        if m.prefix:  # "Toyota cars": the rows whose model begins with the word Toyota
            filters.append(
                Filter(m.table, m.column, "starts", m.value, label=m.column, said=m.word)
            )
            continue
        if _listed_among_others(catalog, m):
            # "days with a thunderstorm" over `events` holding 'Rain , Thunderstorm': every
            # row listing it, never only the rows where it is alone
            filters.append(Filter(m.table, m.column, "has", m.value, label=m.column, said=m.word))
            continue
        same = next(
            (
                f
                for f in filters
                if (f.table, f.column) == (m.table, m.column) and f.op in ("=", "in")
            ),
            None,
        )
        if same is not None:  # "Ideal and Fair diamonds", "Austin or Dallas": either value
            same.value = [*(same.value if same.op == "in" else [same.value]), m.value]
            same.op = "in"
            continue
        filters.append(Filter(m.table, m.column, "=", m.value, label=m.column, said=m.word))
    return filters


def _measures(
    p: _Parse,
    spans: list[Span],
    aggs: list[tuple[int, int, str]],
    superlative: bool | None,
    grouped: bool,
    counted_instead: list[str] | None = None,
    superlative_at: int | None = None,
    entity_grouped: bool = False,
    time_grain: str | None = None,
    near: str | None = None,
) -> list[Measure] | ParseResult:
    """The measures the spans name. `counted_instead`: tables of compared columns, counted
    when "how many" names nothing else ("how many products cost more than 500", where
    "products cost" is the compared column)."""
    measures: list[Measure] = []
    implicit: list[int] = []
    # "which city had the most sales" ranks cities; "the biggest engine for each maker" is a
    # maximum per maker.
    ranks_groups = grouped and p.tokens[:1] in (["which"], ["who"])
    unplaced: list[Span] = []  # text columns named and neither measured nor grouped
    for span in spans:
        held = len(measures)
        # within two words, values said between not counted ("the number of mumps and
        # rubella cases")
        near_aggs = [
            (s, e, a)
            for s, e, a in aggs
            if 0 <= span.start - e <= 2
            or (
                p.tokens[max(0, e - 2) : e] == ["number", "of"]
                and 0 <= _untaken_between(p, e, span.start) <= 2
                and not any(e <= o.start < span.start for o in spans if o is not span)
            )
        ]
        agg = next((a for _, _, a in near_aggs), None)
        counted_by = next((s for s, _, _ in near_aggs), None)
        outer = next((a for _, e, a in aggs if e == counted_by and a != "count"), None)
        if agg == "count" and outer is not None and _names_number(span):
            # "the average number of police checks", "the total number of gun murders": the
            # numbers of a column that counts them, averaged or added up
            agg = outer
        if agg is None and (len(spans) == 1 or [s for s in spans if _names_number(s)] == [span]):
            # "which month was the hottest on average", "how long are omnivores awake on
            # average": the phrase after the one thing measured.
            agg = next((a for s, _, a in aggs if s > 0 and p.tokens[s - 1] == "on"), None)
        tally = _tally_of(p.catalog, span, p.tokens[span.end - 1])
        if (
            tally is not None
            and (
                agg is not None
                or superlative is not None
                or time_grain is not None
                or grouped
                or p.shared
                # "compare traffic deaths in A and B", "traffic deaths in Ohio": any figure asked
                # of the rows but a listing of them ("show the murders")
                or not any(t in _SHOW_WORDS for t in p.tokens[:3])
            )
        ):
            # "total murders by region", "which state had the most gun murders" over a table
            # `murders` whose one figure is `total`: that figure is how many murders each row
            # holds; "how many" adds it up. Said.
            read = f"read as {tally.table}.{tally.column}"
            if not any(n.endswith(read) for n in p.notes):  # "'gun murders' read as …" said
                p.notes.append(f"'{_text(p.tokens, span)}' {read}")
            span = Span(span.start, span.end, (tally,))
            p.tallied[(tally.table, tally.column or "")] = tally.table.lower()
            if agg in ("count", "count_distinct"):
                measures.append(Measure("sum", tally.table, tally, alias=f"sum_{tally.column}"))
                continue
            if agg is None and not p.one_row_groups:  # one row per state: its own figure
                agg = "sum"
        metric = next((t for t in span.targets if t.kind == "metric"), None)
        if metric is not None and agg is not None and p.semantic is not None:
            governed = p.semantic.metric(metric.name or "")
            if governed is not None and not _same_aggregate(agg, governed.type):
                # "average revenue" of a summed metric: average per order, per customer or
                # per line? The metric says how it aggregates; asking beats guessing.
                label = governed.label or governed.name
                return _clarify(
                    f"'{label}' is a {governed.type} ({governed.description or governed.sql}); "
                    f"the {_AGG_NAMES.get(agg, agg)} of it per what? Name the column to "
                    f"aggregate instead, e.g. the {_AGG_NAMES.get(agg, agg)} of a column of "
                    f"{governed.table}.",
                    [],
                )
        if metric is not None:
            # A governed metric keeps its own aggregate: "how many customers" is the
            # customers metric, not a count of its rows.
            measures.append(Measure("metric", metric.table, metric, alias=metric.name or "value"))
            continue
        table = next((t for t in span.targets if t.kind == "table"), None)
        # a column in two tables: the one the question's filters are on ("African countries
        # with a life expectancy below 50" counts gapminder's countries, not the code list)
        column = _pick(span, near, numeric=agg in ("sum", "avg", "median", "min", "max", "stddev"))
        numeric = _pick(span, None, numeric=True)
        if numeric is not None and (numeric.column or "").lower() in _CALENDAR_WORDS:
            numeric = None  # "the hottest day" ranks days; it is not the maximum of `Day`
        dated = next((t for t in span.targets if t.kind == "column" and is_temporal(t.type)), None)
        year_like = next(
            (t for t in span.targets if t.kind == "column" and is_numeric(t.type)), None
        )
        if (
            agg is None
            and superlative is not None
            and not grouped
            and year_like is not None
            and (year_like.column or "").lower() in _CALENDAR_WORDS
            and span.start > 0
            and p.tokens[span.start - 1] in ("first", "earliest", "last", "latest")
        ):
            # "the first year with rubella data": the lowest `year` the rows kept have
            kind = "max" if superlative else "min"
            measures.append(
                Measure(kind, year_like.table, year_like, alias=f"{kind}_{year_like.column}")
            )
            continue
        if agg is None and superlative is not None and not grouped and dated is not None:
            # "the earliest date in the data", "the latest order date"
            kind = "max" if superlative else "min"
            measures.append(Measure(kind, dated.table, dated, alias=f"{kind}_{dated.column}"))
            continue
        # "lowest salary by sex": a superlative right before a column is its min/max,
        # grouped or not ("which sex has the lowest salary" is a ranking instead).
        adjacent = superlative_at is not None and superlative_at == span.start - 1
        if (
            agg is None
            and superlative is not None
            and (not grouped or adjacent)
            and numeric is not None
            and is_numeric(numeric.type)
            and not is_key(numeric.column or "")
        ):
            # "the lowest salary" on a table named Salaries: the column, not a row count.
            kind = "max" if superlative else "min"
            measures.append(Measure(kind, numeric.table, numeric, alias=f"{kind}_{numeric.column}"))
        elif (
            agg == "count_distinct"
            and table is not None
            and column is None
            and (sighted := _observation_label(p.catalog, table.table)) is not None
        ):
            # "how many different storms" over storm observations: their distinct names
            label_column = Target("column", table.table, sighted, type="VARCHAR")
            measures.append(
                Measure("count_distinct", table.table, label_column, alias=f"distinct_{sighted}")
            )
            p.notes.append(f"{table.table} counted by distinct {sighted}")
        elif (
            agg in ("count", None)
            and table is not None
            # "which occupation has the highest prestige" on a table named Prestige with a
            # prestige column: the column ranks, the rows are not counted
            and not (
                agg is None
                and superlative is not None
                and _ranks_by(span)
                and not set(p.tokens) & {"most", "fewest", "least"}  # "the fewest flights"
            )
        ):
            if (
                agg is None
                and _one_measured(p.tokens, span)
                and not any(_pick(s, None, numeric=True) for s in spans if s is not span)
            ):
                # "which pollster ran the smallest poll": one poll's size, not how many polls;
                # what measures a poll is not said, so it is asked
                noun = p.tokens[span.end - 1]
                return _clarify(
                    f"The {p.tokens[span.start - 1]} {noun} by what? Name the column that "
                    f"measures a {noun}.",
                    [
                        c.name
                        for c in getattr(p.catalog.table(table.table), "columns", [])
                        if is_numeric(c.type)
                    ][:8],
                )
            if agg is None and superlative is not None and p.one_row_labels:
                # "which college has the best football team": each college is one row, so
                # a count ranks nothing (every one ties at 1); what makes one best is asked
                return _clarify(
                    f"Each of these is one row of {table.table}: ranked by what? Name the "
                    "column to rank by.",
                    [],
                )
            if agg is None:
                implicit.append(len(measures))  # "average air time of flights": not a count
            # "how many bookings" over `hotel_rates`: the count is named by what was asked
            count_noun = p.tokens[span.end - 1] if span.start == p.guessed_rows else table.table
            measures.append(Measure("count", table.table, None, alias=f"{stem(count_noun)}_count"))
        elif (
            agg == "count"
            and column is not None
            and (
                _holds_counts(column)
                or _counted_of_a_named_row(p, span, column)
                or _counts_who_were(p.tokens[span.end - 1], column)
            )
        ):
            # "how many electoral votes does Florida have": `electoral_votes` already counts
            # them; its figures added up (one row's own, when one row is named), and said
            measures.append(Measure("sum", column.table, column, alias=f"sum_{column.column}"))
            p.notes.append(f"{column.column} added up")
        elif agg in ("count", "count_distinct") and column is not None:
            values_of = column.column or ""
            if agg == "count" and _words_between(p.tokens, aggs, span):
                # "how many women survived": what is counted is not this column's values
                return _clarify(
                    f"How many of what? '{column.column}' is not what is counted here: "
                    "name what to count.",
                    [],
                )
            # "how many chicks" over a numeric `Chick` column: the chicks are its distinct
            # values (a count of non-empty cells would count the weighings)
            # ("how many days" over Month/Day rows still counts the rows: a calendar part)
            calendar = (column.column or "").lower() in _CALENDAR_WORDS
            kind = "count_distinct" if agg == "count_distinct" or not calendar else "count"
            measures.append(
                Measure(
                    kind,
                    column.table,
                    column,
                    alias=f"distinct_{column.column}"
                    if kind == "count_distinct"
                    else f"{column.column}_count",
                )
            )
            one_table = len(p.catalog.tables) == 1
            if (
                kind == "count_distinct"
                and agg == "count"
                and not _names_its_rows(p.catalog, column)
                and (one_table or is_numeric(column.type) or _mostly_distinct(p.catalog, column))
            ):
                # "how many counties" over one table: its rows, or its distinct county
                # names (names repeat across states)? Counted as names, and said, unless
                # the table reads as one row per thing (below).
                if _rows_are_the_things(p.catalog, column):
                    measures[-1] = Measure(
                        "count", column.table, column, alias=f"{values_of}_count"
                    )
                    p.notes.append(
                        f"each row of {column.table} counted as one {values_of} (some "
                        f"{values_of} names repeat)"
                    )
                else:
                    p.notes.append(f"counted the distinct values of {column.column}")
        elif agg in ("sum", "avg", "median", "min", "max", "stddev") and column is not None:
            measures.append(Measure(agg, column.table, column, alias=f"{agg}_{column.column}"))
        elif (
            agg is None
            and superlative is not None
            and not grouped
            and column is not None
            and is_numeric(column.type)
            and (column.column or "").lower() not in _CALENDAR_WORDS
        ):
            kind = "max" if superlative else "min"
            measures.append(Measure(kind, column.table, column, alias=f"{kind}_{column.column}"))
        elif (
            agg is None
            and superlative is not None
            and grouped
            and numeric is not None
            and is_numeric(numeric.type)
            and not is_key(numeric.column or "")
            and _observation_label(p.catalog, numeric.table) is not None
        ):
            # "which storm had the lowest pressure" over a table of readings: the storm with
            # the lowest reading, so the extreme per group, ranked. (Over other tables "the
            # most sales" may be a total: that is asked, below.)
            kind = "max" if superlative else "min"
            measures.append(Measure(kind, numeric.table, numeric, alias=f"{kind}_{numeric.column}"))
        elif (
            agg is None
            and superlative is not None
            and entity_grouped
            and numeric is not None
            and is_numeric(numeric.type)
            and not is_key(numeric.column or "")
        ):
            # "which animal sleeps the most": ranked by each row's own value, so the extreme
            # per name is exact (a repeated name keeps its largest).
            kind = "max" if superlative else "min"
            measures.append(Measure(kind, numeric.table, numeric, alias=f"{kind}_{numeric.column}"))
        elif (
            agg is None
            and p.shared
            and column is not None
            and (column.column or "").lower() == "day"
            and rows_are_days(p.catalog, column.table)
        ):
            # "what percentage of days in August …" over rows of Month and Day: the days
            # are the rows, counted; never the day-of-month numbers added up
            measures.append(Measure("count", column.table, None, alias="day_count"))
            p.shared_at = span.start
            p.notes.append(f"each row of {column.table} read as one day")
        elif (
            agg is None
            and p.shared
            and column is not None
            and is_numeric(column.type)
            and not is_key(column.column or "")
            and (column.column or "").lower() not in _CALENDAR_WORDS
        ):
            # "what share of all sales does each city account for": a share of a total.
            measures.append(Measure("sum", column.table, column, alias=f"sum_{column.column}"))
            p.shared_at = span.start
        elif (
            agg is None
            and (
                (superlative is not None and ranks_groups)
                or time_grain is not None
                or "compare" in p.tokens  # "compare the Asian population of IL and IN"
            )
            and span.start not in p.adjectives  # "the coldest month": an average? a low?
            and (column is None or column.table.lower() not in p.named_rows)
            and column is not None
            and is_numeric(column.type)
            and not is_key(column.column or "")
            and (column.column or "").lower() not in _CALENDAR_WORDS
        ):
            # "which city had the most sales", "monthly sales": a total is the usual reading,
            # but the data cannot confirm it, so the answer says so and asks for review.
            if p.one_row_groups and time_grain is None:  # each group one row: its own value
                measures.append(Measure("max", column.table, column, alias=column.column or ""))
                continue
            labelled = superlative is not None and p.groups_are_labels
            if (p.row_ranked or labelled) and time_grain is None and not _holds_counts(column):
                # "which pollster ran the poll with the largest sample": one row ranked, and
                # its group named: the group's largest row, never its total; "which model
                # has the largest engine": a model's versions, its largest (said)
                agg = "max" if superlative else "min"
                measures.append(Measure(agg, column.table, column, alias=f"{agg}_{column.column}"))
                if not p.row_ranked:
                    best = "largest" if superlative else "smallest"
                    p.notes.append(f"each group's {best} {column.column} (a row each, ranked)")
                continue
            words_said = set(p.tokens[span.start : span.end + 1])  # "city mileage": `cty`
            if _is_rate(column.column or "") or words_said & _PER_UNIT_WORDS:
                # "compare the graduation rate of private and public colleges": rates and
                # percentages do not add up; their mean per group is the reading, said
                measures.append(Measure("avg", column.table, column, alias=f"avg_{column.column}"))
                p.notes.append(f"{column.column} averaged for each group (it does not add up)")
                continue
            if _a_series_of_readings(p.catalog, column.table):
                # "compare unemployment in 1990 and 2010" over one monthly series with no
                # names in it (economics): its figures are levels read each month, averaged
                measures.append(Measure("avg", column.table, column, alias=f"avg_{column.column}"))
                p.notes.append(f"{column.column} averaged for each group (a series of readings)")
                continue
            measures.append(Measure("sum", column.table, column, alias=f"sum_{column.column}"))
            p.notes.append(f"{column.column} added up (a total) for each group")
        elif (
            agg is None
            and not grouped
            and column is not None
            and column.table.lower() in p.named_rows
            and is_numeric(column.type)
            and not is_key(column.column or "")
        ):
            # "how tall is Luke Skywalker": one named row's own value.
            measures.append(Measure("max", column.table, column, alias=column.column or "value"))
            p.notes.append(
                f"the {column.column} of the row named {p.named_rows[column.table.lower()]}"
                " (the largest, if several rows share the name)"
            )
        elif (
            agg is None
            and not grouped
            and column is not None
            and p.one_period is not None
            and _one_row_per_period(p, column.table)
            and is_numeric(column.type)
            and not is_key(column.column or "")
        ):
            # "what was the population in January 2000" over monthly rows: that month's own
            # value; said, in case several rows fall in it
            measures.append(Measure("max", column.table, column, alias=column.column or "value"))
            p.notes.append(
                f"the {column.column} of that period (the largest, if several rows fall in it)"
            )
        elif (
            agg is None
            and grouped
            and (p.one_row_groups or p.rows_are_things)
            and column is not None
            and is_numeric(column.type)
            and not is_key(column.column or "")
        ):
            # "top 5 states by assaults" where each state is one row: total, average and
            # maximum are all the state's own figure. "Top 5 counties by population density"
            # where a county is a row and a few share a name: the largest of a shared name,
            # said.
            measures.append(Measure("max", column.table, column, alias=column.column or ""))
            if not p.one_row_groups:
                p.notes.append(f"each row's own {column.column} (the largest where names repeat)")
        elif (
            agg is None
            and superlative is not None
            and grouped
            and column is not None
            and is_numeric(column.type)
            and "day" in p.tokens
            and rows_are_days(p.catalog, column.table)
            and (column.column or "").lower() not in _CALENDAR_WORDS
        ):
            # "which day was the hottest" over rows of Month and Day: each day is one row,
            # so its own reading is ranked (no total or average to choose between)
            kind = "max" if superlative else "min"
            measures.append(Measure(kind, column.table, column, alias=f"{kind}_{column.column}"))
        elif (
            agg is None
            and superlative is not None
            and ranks_groups
            and span.start in p.adjectives
            and adjective_base(p.tokens[span.start]) not in _SIZE_ADJECTIVES
            and time_grain is None
            and column is not None
            and is_numeric(column.type)
            and not is_key(column.column or "")
            and not _holds_counts(column)
            and (column.column or "").lower() not in _CALENDAR_WORDS
        ):
            # "which month was the hottest", "the windiest city": a level said by its
            # adjective (a temperature, a speed) does not add up; the group's mean ranks,
            # said (its single hottest day would be another reading)
            measures.append(Measure("avg", column.table, column, alias=f"avg_{column.column}"))
            p.notes.append(
                f"'{p.tokens[span.start]}' read as the {'highest' if superlative else 'lowest'}"
                f" average {column.column} of each group"
            )
        elif column is not None and is_numeric(column.type) and not is_key(column.column or ""):
            name = column.column
            return _clarify(
                f"Should I total, average, or take the maximum of '{name}'?",
                [f"total {name}", f"average {name}", f"maximum {name}"],
            )
        said = p.tokens[span.end - 1]
        if (
            len(measures) == held
            and _names_text_only(span)
            and _lists_values(p.catalog, span)
            and stem(said) == said  # "professional occupations", a plural: the rows
            # "the most errors any player made": one of the rows, whichever; never a grouping
            and (span.start == 0 or p.tokens[span.start - 1] not in ("any", "single"))
        ):
            unplaced.append(span)
    if unplaced and measures:
        # "average checks for each skin colour" read without its grouping would answer a
        # different question: a named column that found no place is asked about
        named = _text(p.tokens, unplaced[0])
        unused = next(t.column or "" for t in unplaced[0].targets if t.kind == "column")
        return _clarify(
            f"How does '{named}' fit the question? To group by it, say 'by {named}'.",
            [f"by {unused}"],
        )
    if len(implicit) < len(measures):
        measures = [m for i, m in enumerate(measures) if i not in implicit]
    asked = [a for _, _, a in aggs if a in ("sum", "avg", "median", "min", "max", "stddev")]
    if asked and not any(m.agg in asked or m.agg == "metric" for m in measures):
        # "the average shipping time for a diamond": an average of something no column
        # names is not a count of diamonds.
        return _clarify(
            f"The {_AGG_NAMES.get(asked[0], asked[0])} of what? I found no numeric column "
            "it applies to; name one.",
            [],
        )
    rows_counted = [m.table for m in measures if m.agg == "count" and m.target is None]
    observed = _observation_label(p.catalog, rows_counted[0]) if rows_counted else None
    if observed is not None and not set(p.tokens) & ROW_WORDS:
        # "how many storms" over a table of 6-hourly storm observations: its rows are
        # sightings, so the storms are its distinct names ("how many observations" stays
        # a row count). The answer says how it counted and asks for review.
        name = rows_counted[0]
        at = next(i for i, m in enumerate(measures) if m.agg == "count" and m.target is None)
        distinct = Target("column", name, observed, type="VARCHAR")
        measures[at] = Measure("count_distinct", name, distinct, alias=f"distinct_{observed}")
        p.notes.append(f"{name} counted by distinct {observed} (each row is one observation)")
    if not measures and p.rate_of:
        return [Measure("count", p.rate_of[0], None, alias=f"{stem(p.rate_of[0])}_count")]
    if not measures and p.shared and near is not None:
        # "what percentage of clippers were wrecked": a share of the rows the values keep
        return [Measure("count", near, None, alias=f"{stem(near)}_count")]
    if not measures:
        counted = next((a for a in aggs if a[2] == "count"), None)
        tables = [t.table for s in spans for t in s.targets if t.kind == "table"]
        tables = tables or list(counted_instead or [])
        if counted is not None and tables:
            return [Measure("count", tables[0], None, alias=f"{stem(tables[0])}_count")]
        rows_asked = any(t in ROW_WORDS for t in p.tokens)  # "the most observations"
        # "which eye color is the most common": the group with the most rows.
        ranked_groups = grouped and (
            (superlative is not None and bool(set(p.tokens) & _FREQUENCY_WORDS))
            # "the 3 most common hometowns": how often, whatever ranks it
            or bool(set(p.tokens) & {"common", "popular", "frequent"})
        )
        most_at = next((i for i, t in enumerate(p.tokens) if t in ("most", "fewest")), -2)
        kinds_after = [
            t
            for s in spans
            if s.start == most_at + 1
            and _names_text_only(s)
            and stem(p.tokens[s.end - 1]) != p.tokens[s.end - 1]
            for t in s.targets[:1]
            # a kind of the rows, listed, many rows each (mpg's 38 models over 234 cars);
            # never names nearly one per row (tests, strikes, courses: the rows are counted)
            if t.kind == "column"
            and _lists_values(p.catalog, s)
            and not _mostly_distinct(p.catalog, t)
            # a handful of codes (`test_id`'s 2, `birds_struck`'s 5 bands) counts nothing
            # apart: "the most tests" there are rows
            and _listed_count(p.catalog, t) >= 10
        ]
        if grouped and kinds_after:
            # "which manufacturer has the most models": its distinct models, never its rows
            first_kind = kinds_after[0]
            alias = f"distinct_{first_kind.column}"
            return [Measure("count_distinct", first_kind.table, first_kind, alias=alias)]
        if (counted is not None or rows_asked or ranked_groups) and len(p.catalog.tables) == 1:
            only = next(iter(p.catalog.tables))
            return [Measure("count", only, None, alias="row_count")]
        if ranked_groups and len(p.group_tables) == 1:
            # "the 3 most common hometowns of the contestants": the rows of the table that
            # holds the groups, counted in each
            holder = next(iter(p.group_tables))
            return [Measure("count", holder, None, alias="row_count")]
        counted_in = {t.table for s in spans for t in s.targets if t.kind == "column"}
        shared_tables = p.group_tables & counted_in
        if ranked_groups and len(shared_tables) > 1:
            # "which subject has the most courses" where a course list and a sample of it
            # both hold subject and course: the rows of the larger counted, the other said
            holders = [p.catalog.table(name) for name in shared_tables]
            sizes = sorted((info.row_count, info.name) for info in holders if info is not None)
            holder = sizes[-1][1]
            others = ", ".join(name for _, name in sizes[:-1])
            p.notes.append(f"counted the rows of {holder} (the largest); {others} also has them")
            return [Measure("count", holder, None, alias="row_count")]
        if counted is not None and near is not None and {t for t, _ in p.pinned} == {near.lower()}:
            # "how many rodents are there" where Rodentia is a value of one table's column:
            # the rows of that table holding it, and said (the rows may not be animals)
            p.notes.append(f"each row of {near} counted as one")
            return [Measure("count", near, None, alias="row_count")]
        if p.tokens[:1] == ["which"] and grouped and superlative is None and near is not None:
            # "which countries in the Americas had a life expectancy above 75": the groups
            # the filters keep, each with the compared value (its largest) or its row count
            shown = next((t for t in p.compared if t.table == near), None)
            if shown is not None:
                return [Measure("max", near, shown, alias=shown.column or "value")]
            return [Measure("count", near, None, alias="row_count")]
        texts = [
            t
            for s in spans
            for t in s.targets[:1]
            if t.kind == "column"
            and not is_numeric(t.type)
            and (t.table.lower(), (t.column or "").lower()) not in p.pinned
        ]
        if len(texts) == 1 and texts[0].table.lower() in p.named_rows and not grouped:
            # "what was the Boston Red Sox's ballpark in 2004": a text of the named row, as
            # its number would be; the last in order if several rows hold the name, said
            text = texts[0]
            named = p.named_rows[text.table.lower()]
            p.notes.append(
                f"the {text.column} of the row named {named} (the last in order, if several)"
            )
            return [Measure("max", text.table, text, alias=text.column or "value")]
        pinned = {t for t, _ in p.pinned}
        if p.tokens[:1] == ["who"] and len(pinned) == 1 and not grouped:
            # "who won series 5": the rows the conditions keep, each said by its name (below)
            held_table = next(iter(pinned))
            kept = next((name for name in p.catalog.tables if name.lower() == held_table), None)
            if kept is not None and _one_name_column(p.catalog, kept):
                return [Measure("count", kept, None, alias="row_count")]
        return _clarify("Which measure should I compute? Name a metric or a numeric column.", [])
    for m in measures:  # "total murders", not "total total": a tally is named by its table
        tallied = m.target.column if m.target is not None else None
        if tallied and (m.table, tallied) in p.tallied and m.alias.endswith(tallied):
            m.alias = m.alias[: len(m.alias) - len(tallied)] + p.tallied[(m.table, tallied)]
    return measures


_AGG_NAMES = {
    "avg": "average",
    "max": "maximum",
    "min": "minimum",
    "sum": "total",
    "stddev": "standard deviation",
}


def _untaken_between(p: _Parse, end: int, start: int) -> int:
    """How many words between an aggregate's end and a span's start nothing else read
    (-1 when the span comes first)."""
    if start < end:
        return -1
    return sum(1 for i in range(end, start) if i not in p.taken or p.tokens[i] in ("the", "a"))


def _same_aggregate(asked: str, metric_type: str) -> bool:
    counts = {"count", "count_distinct"}
    return (
        asked == metric_type
        or (asked in counts and metric_type in counts)
        or (
            asked == "sum" and metric_type in counts  # "total customers"
        )
    )


def _named_values(
    tokens: list[str], spans: list[Span], taken: set[int], catalog: Catalog
) -> list[ValueMatch]:
    found = []
    for span in spans:
        at = span.end
        if at >= len(tokens) or at in taken:
            continue
        for target in span.targets:
            info = catalog.table(target.table) if target.kind == "column" else None
            column = info.column(target.column or "") if info is not None else None
            value = next(
                (v for v in (column.distinct_values if column else ()) if v.lower() == tokens[at]),
                None,
            )
            if column is not None and value is not None:
                found.append(ValueMatch(tokens[at], target.table, column.name, value))
                taken.add(at)
                break
    return found


_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}


def _initial_codes(
    tokens: list[str], spans: list[Span], taken: set[int], catalog: Catalog
) -> list[ValueMatch]:
    """ "front-wheel drive" for `drv = 'f'`, "four-wheel drive" for `'4'`: the words before
    a column's name, when its values are one-letter codes and the first word's initial (a
    number word's digit) is one of them. One word may come between ("-wheel"). Said: the
    data cannot confirm that `f` stands for front."""
    found = []
    for span in spans:
        columns = [t for t in span.targets if t.kind == "column"]
        info = catalog.table(columns[0].table) if len(columns) == 1 else None
        column = info.column(columns[0].column or "") if info is not None else None
        codes = column.distinct_values if column is not None else ()
        if column is None or not codes or any(len(v) != 1 for v in codes):
            continue
        for first in (span.start - 1, span.start - 2):
            words = range(first, span.start)
            if first < 0 or any(i in taken for i in words) or not tokens[first].isalpha():
                continue
            if any(tokens[i] in GLUE_WORDS and tokens[i] not in _SIDES for i in words):
                continue  # "by drive", "the drive": no code is said (but "left-handed" is)
            initial = _NUMBER_WORDS.get(tokens[first], tokens[first][:1])
            value = next((v for v in codes if v.lower() == initial), None)
            if value is None or len(tokens[first]) < 3:
                continue
            said = " ".join(tokens[first : span.end])
            found.append(ValueMatch(said, columns[0].table, column.name, value, guessed=True))
            taken.update(range(first, span.end))
            other = first - 2  # "East and West division": the code of the word before too
            if other >= 0 and tokens[first - 1] in ("and", "or") and other not in taken:
                word = tokens[other]
                paired = next((v for v in codes if v.lower() == word[:1]), None)
                if paired is not None and paired != value and word.isalpha() and len(word) >= 3:
                    said = f"{word} {tokens[span.start]}"
                    found.append(
                        ValueMatch(said, columns[0].table, column.name, paired, guessed=True)
                    )
                    taken.update(range(other, first))
            break
    return found


# Sides, glue words elsewhere ("who left"), that name a code before its column's name:
# "left-handed batters" for `BatterHand = 'L'`.
_SIDES = frozenset({"left", "right"})

# Words that set one column against another of the same row: "leave ahead of remain".
_COLUMN_COMPARE = {
    ("more", "than"): ">",
    ("greater", "than"): ">",
    ("higher", "than"): ">",
    ("larger", "than"): ">",
    ("bigger", "than"): ">",
    ("above",): ">",
    ("ahead", "of"): ">",
    ("exceeded",): ">",
    ("exceeds",): ">",
    ("exceed",): ">",
    ("less", "than"): "<",
    ("lower", "than"): "<",
    ("smaller", "than"): "<",
    ("fewer", "than"): "<",
    ("below",): "<",
    ("behind",): "<",
}
_COMPARE_FILLER = frozenset({"was", "were", "is", "are", "be", "been", "did", "got", "the"})


def _column_comparisons(
    tokens: list[str], spans: list[Span], taken: set[int]
) -> tuple[list[Filter], list[Span]]:
    """ "polls with leave ahead of remain", "months where exports exceeded imports": two
    numeric columns of one table, set against each other by a comparison word, keep the rows
    where the first beats the second. Both spans and the words between are taken; the spans
    used come back beside the filters."""
    found: list[Filter] = []
    used: list[Span] = []
    for a, b in pairwise(spans):
        if len(a.targets) != 1 or len(b.targets) != 1:
            continue
        left, right = a.targets[0], b.targets[0]
        if not all(
            t.kind == "column" and is_numeric(t.type) and not is_key(t.column or "")
            for t in (left, right)
        ):
            continue
        if left.table != right.table or left.column == right.column:
            continue
        between = tuple(t for t in tokens[a.end : b.start] if t not in _COMPARE_FILLER)
        op = _COLUMN_COMPARE.get(between)
        if op is None or any(i in taken for i in range(a.end, b.start)):
            continue
        found.append(
            Filter(left.table, left.column or "", op, ColumnRef(right.column or ""), left.label)
        )
        taken.update(range(a.start, b.end))
        used += [a, b]
    return found, used


def _coded_numbers(catalog: Catalog, target: Target) -> dict[int, str]:
    """A text column's values that are one prefix and a number ('S01' … 'S14'): number ->
    value, so "season 9" finds 'S09'. Empty unless every listed value has that form."""
    info = catalog.table(target.table)
    stored = info.column(target.column or "") if info is not None else None
    values = stored.distinct_values if stored is not None else ()
    forms = [re.fullmatch(r"([A-Za-z]{1,3})0*(\d+)", str(v)) for v in values]
    if not values or not all(forms) or len({f.group(1) for f in forms if f}) != 1:
        return {}
    return {int(f.group(2)): str(v) for f, v in zip(forms, values, strict=True) if f}


def _numbered_columns(
    tokens: list[str], spans: list[Span], taken: set[int], catalog: Catalog
) -> list[tuple[Span, int]]:
    """ "series 5", "category 5", "episode 3": a whole number right after a phrase naming a
    whole-number column is that column's value; so is one before it after a verb of having
    ("cars with 4 cylinders", "ships that have 3 masts")."""
    found = []
    for span in spans:
        if not any(
            t.kind == "column"
            and (is_numeric(t.type) or _holds_numbers(catalog, t) or _coded_numbers(catalog, t))
            for t in span.targets
        ):
            continue  # "category 5" on a DOUBLE column of whole numbers too
        at = span.end
        before = span.start - 1
        if at < len(tokens) and at not in taken and tokens[at].isdigit():
            found.append((span, int(tokens[at])))
            taken.add(at)
        elif (
            before >= 1
            and before not in taken
            and isinstance(to_number(tokens[before]), int)
            and (
                tokens[before - 1] in _HAVING
                # "six-cylinder cars": a number and a singular noun before what is counted
                or (stem(tokens[span.start]) == tokens[span.start] and span.end < len(tokens))
            )
        ):
            found.append((span, int(to_number(tokens[before]) or 0)))
            taken.add(before)
    return found


_FREQUENCY_WORDS = frozenset({"common", "popular", "frequent", "often", "most", "least"})
# Superlatives that rank without naming what by ("the highest"), unlike "the longest".
_RANK_ONLY = frozenset(w for w in SUPERLATIVES if w not in ("longest", "shortest", "busiest"))
_HOW_WORDS = frozenset({"long", "tall", "big", "heavy", "old", "far", "large", "high", "fast"})
_HAVING = frozenset({"have", "has", "had", "having", "with"})
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


def _is_integer(column_type: str | None) -> bool:
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


def _absorb_head_nouns(tokens: list[str], spans: list[Span], taken: set[int], lex: Lexicon) -> None:
    """Marks taken a generic noun right after a column's name ("wind speed" for `Wind`), and
    a word whose initial is the column's one-letter part ("solar radiation" for `Solar.R`),
    when that word names nothing in the data itself."""
    for span in spans:
        at = span.end
        columns = [t for t in span.targets if t.kind == "column"]
        if at >= len(tokens) or at in taken or not columns or lex.lookup([tokens[at]]):
            continue
        word = tokens[at]
        if stem(word) in ("rate", "ratio") and all(_is_integer(c.type) for c in columns):
            continue  # "acceptance rate" over a count of acceptances is no rate: asked
        initials = {w for c in columns for w in identifier_words(c.column or "") if len(w) == 1}
        if stem(word) in _HEAD_NOUNS or (word[:1] in initials and len(word) > 3):
            taken.add(at)


def _adjective_spans(
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
            if named or any(_names_number(s) for s in spans):
                taken.add(at)
            found += named
    numbers = [  # "which month was the hottest": `Month` is what is ranked, not a measure
        s
        for s in spans
        if _names_number(s)
        and not all((t.column or "").lower() in _CALENDAR_WORDS for t in s.targets)
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
        and (not ranks_time or _calendar_span_at(spans, after))
    ):
        found += _named_by_adjective(tokens, superlative_at, lex)
    for span in found:
        taken.update(range(span.start, span.end))
    return found


def _ranked_by_a_participle(tokens: list[str], spec: QuestionSpec, lex: Lexicon) -> None:
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


def _verb_of_a_name(
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


def _one_ranked_row(tokens: list[str], spec: QuestionSpec, lex: Lexicon) -> None:
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


def _superlative_left_out(
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


def _calendar_span_at(spans: list[Span], at: int) -> bool:
    """Whether a span naming a calendar column (`Day`, `Month`) starts at `at`."""
    return any(s.start == at and _names_calendar(s) for s in spans)


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


def _drop_comparison_words(
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
            or not _names_number(_unit_span(spans, comparison, tokens))
        ):
            continue
        if adjective_base(word) is not None or stem(word) in _MEASURE_VERBS:
            taken.add(at)
            unresolved = [t for i, t in enumerate(tokens) if i not in taken and t in unresolved]
    return unresolved


def _row_entity(
    tokens: list[str],
    taken: set[int],
    unresolved: list[str],
    catalog: Catalog,
    superlative_at: int | None,
    named_tables: Collection[str] = (),
) -> tuple[tuple[int, int], str] | None:
    """The words of a one-table database that name what its rows are ("cars", "animals",
    "faculty members"): the unexplained nouns right after "how many", "which", "who is the
    heaviest", "percentage of the", or, as before, the one unexplained plural noun. Returns
    ((start, end), table); the answer says how they were read. With several tables, the one
    table everything else the question names is on ("the average math score of students"
    over `MathAchieve`'s `MathAch`)."""
    if not unresolved:
        return None
    if len(catalog.tables) == 1:
        info = next(iter(catalog.tables.values()))
    elif len(named_tables) == 1 and (one := catalog.table(next(iter(named_tables)))):
        info = one
    else:
        return None
    asks_which = tokens[:1] in (["which"], ["who"], ["what"], ["how"]) or tokens[0] in _SHOW_WORDS
    ranked_at = superlative_at if asks_which else None
    found = None
    for start in _entity_positions(tokens, ranked_at):
        if start in taken and start + 1 < len(tokens) and start + 1 not in taken:
            start += 1  # "any AMD processor": past the value that qualifies the noun
        elif (
            start + 1 < len(tokens)
            and start + 1 not in taken
            and is_adjective(tokens[start])
            and _noun(tokens[start + 1])
            and stem(tokens[start + 1]) != tokens[start + 1]
        ):
            # "automatic cars": the rows are the cars; the kind, which nothing here holds,
            # stays unexplained and is asked about
            start += 1
        end = start
        while end < len(tokens) and end - start < 2 and end not in taken and _noun(tokens[end]):
            if end > start and tokens[end] in GLUE_WORDS:
                break  # "employees who …"
            if end > start and is_verb(tokens[end]) and _plural(tokens[end - 1]):
                break  # "people work overtime": the verb after the rows, not "people work"
            end += 1
        if end > start and all(t in unresolved for t in tokens[start:end]):
            found = (start, end)
            break
    if found is None and len(unresolved) == 1:
        word = unresolved[0]
        at = next((i for i, t in enumerate(tokens) if t == word and i not in taken), None)
        # "how many of the players are pitchers": a noun said of the rows is a condition on
        # them that no column holds, not what the rows are
        predicate = at is not None and at > 0 and tokens[at - 1] in ("are", "is", "were", "was")
        if at is not None and stem(word) != word and _noun(word) and not predicate:
            found = (at, at + 1)
    if found is None:
        return None
    start, end = found
    last = tokens[end - 1]
    if end < len(tokens) and end in taken and stem(last) == last and is_noun(tokens[end]):
        return None  # "assistant professors": a word qualifying a value, not the rows
    if last in people() and _tally_for_rate(
        catalog, [Span(0, 0, (Target("table", info.name),))], []
    ):
        return found, info.name  # "prisoners" over rows that each hold a `count` of them
    periods = _rows_are_periods(info) and _observation_label(catalog, info.name) is None
    # ... unless a text column names the rows nearly one each (a processor's `name` beside
    # its `released` date): then each row is one thing, dated
    periods = periods and not _named_row_by_row(info)
    if stem(last) not in _CALENDAR_WORDS and periods and not _names_events(last):
        return None  # rows of city-months are not "homes" (a count of rows would not be)
    return found, info.name


def _doer(word: str, column: str) -> bool:
    """ "smokers" for `smoke`: the -er/-or noun of the verb a column is named by."""
    name = column.lower()
    verb = doer_of(word)
    return verb is not None and stem(word) != name and verb in (name, verb_root(name))


def _plural(word: str) -> bool:
    """A plural noun: "employees", "people"."""
    return word in people() or stem(word) != word


def _noun(word: str) -> bool:
    """A noun, or a word the English tables do not know (a domain's own: "processors")."""
    return is_noun(word) or is_unknown(word)


_RANGE_PREFIXES = frozenset({"high", "low", "max", "min", "maximum", "minimum"})


def _average_of_a_range(tokens: list[str], spans: list[Span], catalog: Catalog) -> list[str]:
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
                notes.append(
                    f"'{_text(tokens, span)}' read as {target.column} (also {', '.join(siblings)})"
                )
    return notes


def _one_name_column(catalog: Catalog, table: str) -> str | None:
    """The one text column of a table called name (or ending in name), which says who; or
    the one naming who won (`Champion`, `winner`) on a table of wins."""
    info = catalog.table(table) if table else None
    names = [
        c.name
        for c in (info.columns if info is not None else [])
        if not is_numeric(c.type) and identifier_words(c.name)[-1:] == ("name",)
    ]
    if not names and info is not None:
        names = [
            c.name
            for c in info.columns
            if not is_numeric(c.type) and identifier_words(c.name) in (("champion",), ("winner",))
        ]
    if not names and info is not None:
        # `baker` on `bakers`: the column named as one of the table's rows is their name
        one = tuple(stem(w) for w in identifier_words(info.name))
        names = [
            c.name
            for c in info.columns
            if not is_numeric(c.type) and identifier_words(c.name) == one
        ]
    return names[0] if len(names) == 1 else None


def _named_row_by_row(info: TableInfo) -> bool:
    """Whether a text column of the table names its rows mostly one each (over half: the
    victims' forenames of a murder list repeat, 659 for 838 rows). A table of periods (days
    of a city's weather, months of a market) has no such column: its text columns are the
    few places or kinds its figures are of."""
    return info.row_count >= 20 and any(
        not is_numeric(c.type)
        and not is_temporal(c.type)
        and not is_key(c.name)  # an order id names orders, not the things ordered
        and c.distinct_count > 0.5 * info.row_count
        for c in info.columns
    )


def _names_events(word: str) -> bool:
    """ "bookings", "listings", "shipments"? No: a noun made from a verb with -ing
    ("booking" from book) names something that happens, so on a table with dates each row is
    one of them at its date, never a period."""
    single = stem(word)
    return single.endswith("ing") and len(single) > 5 and verb_root(single) is not None


def _rows_are_periods(info: TableInfo) -> bool:
    """Whether a table's rows are periods (a date, or a month column): its rows then count
    days or months, never the things the period's figures are about. A date kept as text
    (an export's '9/30/1990 0:00:00') says when each event happened: not counted here, as
    the reading of the rows is said anyway."""
    return any(
        (is_temporal(c.type) and not c.date_format) or c.name.lower() == "month"
        for c in info.columns
    )


_ENTITY_LEADS = (
    ("how", "many"),
    ("number", "of"),
    ("which",),
    ("what",),
    ("of", "the"),
    ("any",),  # "the most minutes any customer used"
    ("of", "a"),  # "the median TDP of a processor"
    ("of", "an"),
    ("per",),  # "the average day minutes per customer": per row
    # "what percentage of bookings came …": the rows a share is taken of
    ("percentage", "of"),
    ("percent", "of"),
    ("share", "of"),
    ("proportion", "of"),
    ("fraction", "of"),
    ("count", "of"),  # "count of faculty by discipline"
)
# Leads that name the rows only when a word for persons follows ("the highest salary among
# female faculty", "the average age for staff"); any other noun there is something else.
_PEOPLE_LEADS = (("among",), ("for",))
# "the most common class of car", "which class of car …": what the column is of is the rows,
# in a question asking which (tried last; "each type of cigarette" counts no cigarettes)
_WHICH_ENTITY_LEADS = (("of",),)


def _entity_positions(tokens: list[str], superlative_at: int | None) -> list[int]:
    positions = []
    asks_which = tokens[:1] in (["which"], ["what"])
    for lead in _ENTITY_LEADS + (_WHICH_ENTITY_LEADS if asks_which else ()):
        for i in range(len(tokens) - len(lead)):
            if tuple(tokens[i : i + len(lead)]) == lead:
                at = i + len(lead)
                at += 1 if at < len(tokens) and tokens[at] in ("the", "all") else 0
                at += 1 if at < len(tokens) and to_number(tokens[at]) is not None else 0
                positions.append(at)  # "which 5 animals": past the ranking's N
    for lead in _PEOPLE_LEADS:
        positions += [
            i + 1 + n
            for i, t in enumerate(tokens[:-1])
            if (t,) == lead
            for n in (0, 1)  # "among faculty", "among female faculty"
            if i + 1 + n < len(tokens) and tokens[i + 1 + n] in people()
        ]
    if superlative_at is not None:
        positions.append(superlative_at + 1)
    return positions


_SHARE_WORDS = frozenset({"percentage", "percent", "share", "proportion", "fraction"})
_LABELS = ("name", "title", "label")
# What names a row when rows are ranked ("which car is the heaviest" by its model).
_ROW_LABELS = (*_LABELS, "model", "make")
_CALENDAR_WORDS = CALENDAR_WORDS
_FINE_TIME = ("day", "hour", "minute", "date", "time", "timestamp", "datetime")


def _day_of_rows(
    p: _Parse, span: Span, spec: QuestionSpec, superlative: bool | None, limit: int | None
) -> bool:
    """Whether a ranking names days on a table kept by month and day (no finer time): the
    day column alone is a day of the month, so the days ranked are the rows."""
    if superlative is None and limit is None:
        return False
    named_day = any(
        t.kind == "column" and t.table == spec.fact_table and (t.column or "").lower() == "day"
        for t in span.targets
    )
    if not named_day or not rows_are_days(p.catalog, spec.fact_table):
        return False
    m = spec.measures[0] if len(spec.measures) == 1 else None
    # "which day had the highest ozone" was read as a total per group: the day's own reading
    said = {"total", "sum", "overall", "average", "mean"}
    added = m is not None and m.agg in ("sum", "avg") and not set(p.tokens) & said
    return (
        m is not None
        and (m.agg in ("max", "min") or added)
        and m.target is not None
        and is_numeric(m.target.type)
        and (m.target.column or "").lower() not in _CALENDAR_WORDS
    )


def _ranks_its_rows(
    p: _Parse, span: Span, spec: QuestionSpec, superlative: bool | None, limit: int | None
) -> bool:
    """Whether a ranking names the fact table's own rows and one number of theirs to rank
    them by: "show the 3 heaviest diamonds" is rows, not a group of them."""
    if (superlative is None and limit is None) or p.tokens[:1] == ["who"]:
        return False  # "who bought the cheapest diamond": a row is no one
    if span.start == p.guessed_rows:
        return False  # "which mine did the most expensive diamond come from": not a row
    if not any(t.kind == "table" and t.table == spec.fact_table for t in span.targets):
        return False
    if len(spec.measures) != 1 or spec.group_by:
        return False
    m = spec.measures[0]
    return (
        m.agg in ("max", "min")
        and m.target is not None
        and m.target.kind == "column"
        and m.table == spec.fact_table
        and is_numeric(m.target.type)
    )


def _numbers_a_column(tokens: list[str], at: int, lexicon: Lexicon) -> bool:
    """Whether the word at `at` names a numeric column and no table ("number of cylinders"
    is the `cyl` column's values; "number of flights" counts the flights)."""
    if at >= len(tokens):
        return False
    targets = lexicon.lookup(tokens[at : at + 1])
    return bool(targets) and all(
        t.kind == "column" and is_numeric(t.type) and not is_key(t.column or "") for t in targets
    )


def _head_of_compound(span: Span, spans: list[Span]) -> Span:
    """ "by occupation type": two columns named back to back are one compound noun, and the
    last is its head (the type, of each occupation), as in English compounds."""
    after = next((s for s in spans if s.start == span.end), None)
    text_columns = lambda s: [  # noqa: E731
        t for t in s.targets if t.kind in ("column", "dimension") and not is_numeric(t.type)
    ]
    if after is not None and text_columns(span) and text_columns(after):
        return Span(span.start, after.end, tuple(text_columns(after)))
    return span


def _date_verb(tokens: list[str], taken: set[int], catalog: Catalog) -> tuple[str, str] | None:
    """(table, column) of the date column a verb names, its word taken: "polls that ended
    in June" is `enddate`, "orders shipped in 2024" `shipped_at`, "started each month"
    `startdate` (the verb is the first word of one date column's name), "licences issued in
    2017" `license_issue_date` (or a later word of it that is no time word)."""
    dates = [
        (table.name, c.name, word)
        for table in catalog.tables.values()
        for c in table.columns
        if is_temporal(c.type)
        for at, word in enumerate(identifier_words(c.name))
        if at == 0 or word not in _CALENDAR_WORDS | {"time", "at", "on", "of"}
    ]
    for i, token in enumerate(tokens):
        if i in taken:
            continue
        said = {verb_root(token) or stem(token), stem(token)}
        found = list(dict.fromkeys((t, c) for t, c, word in dates if stem(word) in said))
        if len(found) == 1:
            taken.add(i)
            return found[0]
    return None


def _verb_of_a_date(tokens: list[str], span: Span) -> bool:
    """Whether a one-word span is a verb form naming one date column (`released`)."""
    said = tokens[span.start]
    return (
        span.end - span.start == 1
        and len(span.targets) == 1
        and span.targets[0].kind == "column"
        and is_temporal(span.targets[0].type)
        and (verb_root(said) is not None or is_verb(said))
    )


def _choose_time_column(
    catalog: Catalog, spec: QuestionSpec, dated_by: tuple[str, str] | None, notes: list[str]
) -> None:
    """Which date a period or a grain is read on, when the table has several: the one the
    question's verb named, else the first, and said ("polls in June" by their start or
    their end?)."""
    if not (spec.time_range or spec.time_grain) or not spec.fact_table:
        return
    if dated_by is not None and dated_by[0] == spec.fact_table:
        spec.time_column = dated_by[1]
        return
    info = catalog.table(spec.fact_table)
    dates = [c.name for c in info.columns if is_temporal(c.type)] if info is not None else []
    parts = {c.name.lower() for c in info.columns} if info is not None else set()
    year = (
        next(
            (c.name for c in info.columns if c.name.lower() == "year" and "INT" in c.type.upper()),
            None,
        )
        if info is not None
        else None
    )
    if len(dates) > 1 and year is not None and _whole_years(spec):
        # "breaches in 2012" over a year column and three dates: the year column says it
        spec.time_column = year
        notes.append(f"years read from {year} ({', '.join(dates)} also dates)")
        return
    if len(dates) > 1 and not {"year", "month"} <= parts:
        spec.time_column = dates[0]
        notes.append(f"dates read from {dates[0]} ({', '.join(dates[1:])} also dates)")


def _whole_years(spec: QuestionSpec) -> bool:
    """Whether the question's time is whole calendar years ("in 2012", "per year")."""
    time = spec.time_range
    if time is None:
        return spec.time_grain == "year"
    if time.month_only is not None or time.months:
        return False
    whole = time.start[5:] == "01-01" and time.end[5:] in ("01-01", "12-31")
    return bool(time.years) or (whole and spec.time_grain in (None, "year"))


def _one_row_per_period(p: _Parse, table: str) -> bool:
    """Whether a period's rows are one: every text column of the table (what else a row
    could be of: a city, a state) is named by a value in the question, or there is none
    (a table of monthly figures)."""
    info = p.catalog.table(table)
    if info is None:
        return False
    return all(
        (table.lower(), c.name.lower()) in p.pinned
        for c in info.columns
        if not is_numeric(c.type) and not is_temporal(c.type)
    )


def _one_period(time: TimeRange | None) -> str | None:
    """How a single month or day was said ("January 2000"), or None for anything longer, a
    list, or a month of every year."""
    if time is None or time.each or time.months or time.month_only or time.years:
        return None
    try:
        days = (dt.date.fromisoformat(time.end) - dt.date.fromisoformat(time.start)).days
    except ValueError:
        return None
    return time.said if 0 < days <= 31 else None


def _counted_in_one_of_many(catalog: Catalog, spec: QuestionSpec) -> list[str]:
    """A note for distinct values counted in one table when other tables have the column
    too and nothing in the question ties the count to this one: "how many countries are in
    the data" over a statistics table and a code list, which need not hold the same ones."""
    if spec.filters or spec.group_by or spec.time_range or spec.share_of:
        return []
    notes = []
    for m in spec.measures:
        if m.agg != "count_distinct" or m.target is None or not m.target.column:
            continue
        also = [
            t.name
            for t in catalog.tables.values()
            if t.name != m.table and t.column(m.target.column) is not None
        ]
        if also:
            notes.append(
                f"counted the distinct {m.target.column} of {m.table}; "
                f"{', '.join(also)} also has {m.target.column}"
            )
    return notes


def _a_series_of_readings(catalog: Catalog, table: str) -> bool:
    """A table that is one series over time: a date, or year and month numbers, and no text
    column at all (FRED's economics, a city's daily air readings), so each row is a period's
    readings, which never add up across periods."""
    info = catalog.table(table)
    if info is None or any(
        not is_numeric(c.type) and not is_temporal(c.type) for c in info.columns
    ):
        return False
    return any(is_temporal(c.type) for c in info.columns) or bool(_calendar_columns(catalog, table))


def _observation_label(catalog: Catalog, table: str) -> str | None:
    """The label column of a table that records named things over time (a name column and
    day- or hour-level time), whose rows are observations rather than the things."""
    info = catalog.table(table)
    if info is None:
        return None
    names = {c.name.lower(): c for c in info.columns}
    label = next((n for n in _LABELS if n in names and not is_numeric(names[n].type)), None)
    timed = any(n in _FINE_TIME for n in names) or any(
        is_temporal(c.type) and c.type.upper() != "DATE" for c in info.columns
    )
    return label if label is not None and timed else None


def _grouping(p: _Parse, span: Span, fact_table: str) -> list[GroupBy]:
    """What a span groups by: a dimension, a column, or a table's rows by their label.

    A table named for its rows ("which car …") groups by every label column it has: a car is
    its make and its model, and neither alone is the one to pick (Cars93's `Model` is "90"
    where its `Make` is "Audi 90")."""
    dim = next((t for t in span.targets if t.kind == "dimension"), None)
    if dim is not None:
        return [
            GroupBy(
                dim.table, dim.column, alias=dim.name or "dimension", is_time=dim.type == "date"
            )
        ]
    column = _pick(span, fact_table, numeric=False, prefer_non_numeric=True)
    if column is not None and column.column:
        return [
            GroupBy(
                column.table,
                column.column,
                alias=column.column,
                is_time=is_temporal(column.type)
                or column.column.lower() in ("year", "month", "day", "week", "quarter", "hour"),
            )
        ]
    table = next((t for t in span.targets if t.kind == "table"), None)
    if table is not None:
        info = p.catalog.table(table.table)
        if info is not None:
            labels = [
                c for c in info.columns if c.name.lower() in _ROW_LABELS and not is_numeric(c.type)
            ]
            # `team_name` for "which teams": a text column whose name ends in name or title,
            # the one beginning with the rows' noun when several do
            noun = stem(p.tokens[span.end - 1])
            named = [
                c
                for c in info.columns
                if not is_numeric(c.type)
                and (words := identifier_words(c.name))
                and words[-1] in _LABELS
            ]
            named = [c for c in named if identifier_words(c.name)[0] == noun] or named
            key = next((c for c in info.columns if is_key(c.name)), None)
            keys = labels or (named[:1] if len(named) == 1 else []) or ([key] if key else [])
            return [GroupBy(info.name, k.name, alias=f"{stem(info.name)}_{k.name}") for k in keys]
    return []


def _pick(
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


def _follows(
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


def _names_measure(span: Span, aggs: list[tuple[int, int, str]]) -> bool:
    if any(0 <= span.start - end <= 1 for _, end, _ in aggs):
        return True
    kinds = {t.kind for t in span.targets}
    return "metric" in kinds and not kinds & {"dimension", "table"}


def _compared_span(spans: list[Span], comparison: Comparison, tokens: list[str]) -> Span | None:
    """The column a comparison applies to: a numeric column just before the operator ("seats
    above 300", "a delay of more than 60"), else one right after the number ("more than 300
    seats"), else whatever phrase precedes the operator."""
    inside = next((s for s in spans if s.start == comparison.op_start), None)
    if _names_number(inside):
        return inside  # "longer than 5000" on length_m
    before = _span_ending_at(spans, comparison.op_start)
    after = _unit_span(spans, comparison, tokens)
    if (
        _names_number(after)
        and before is not None
        and before.end < comparison.op_start
        and tokens[before.end] in _HAVING
    ):
        # "episodes had more than 10 million viewers": what they had is compared, though
        # `episode` is a number too
        return after
    if _names_number(before) or not _names_number(after):
        return before
    return after


def _unit_span(spans: list[Span], comparison: Comparison, tokens: list[str]) -> Span | None:
    """The phrase right after a comparison's number ("300 seats", "60 minutes"), or a number
    said after "in" ("more than $15,000 in out-of-state tuition")."""
    at = comparison.value_end
    found = next((s for s in spans if s.start == at), None)
    if found is None and at < len(tokens) and tokens[at] == "in":
        found = next((s for s in spans if s.start == at + 1 and _names_number(s)), None)
    return found


# Superlatives of one thing's size: "the largest poll" is one poll, "the most polls" a count.
_SIZE_SUPERLATIVES = frozenset(
    {"smallest", "largest", "biggest", "longest", "shortest", "heaviest", "lightest", "tallest"}
)


def _one_measured(tokens: list[str], span: Span) -> bool:
    """ "the largest poll": a size superlative right before one (singular) row noun."""
    noun = tokens[span.end - 1]
    before = tokens[span.start - 1] if span.start > 0 else ""
    return before in _SIZE_SUPERLATIVES and stem(noun) == noun and not noun.endswith("s")


def _names_number(span: Span | None) -> bool:
    return span is not None and any(t.kind == "column" and is_numeric(t.type) for t in span.targets)


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
_FIGURE_NOUNS = frozenset({"price", "cost", "amount", "value", "figure", "level"})

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


def _verb_before_its_figure(tokens: list[str], span: Span, spans: list[Span]) -> bool:
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
    figures = [o for o in spans if o is not span and _names_number(o)]
    if any(o.end == span.start for o in figures):
        return True  # "home runs hit in 1986": the verb after the figure it did
    asked = {"did", "does", "do"} & set(tokens[: span.start])
    if asked and any(o.end <= span.start for o in figures):
        return True  # "how many home runs did Mattingly hit"
    if tokens[span.start - 1] in _BEFORE_A_NOUN:
        return False
    for other in spans:
        if other.start < span.end or not _names_number(other):
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


def _text(tokens: list[str], span: Span) -> str:
    return " ".join(tokens[span.start : span.end])


def _clarify(question: str, candidates: list[str]) -> ParseResult:
    return ParseResult(clarification=question, candidates=candidates)


def _clarify_unresolved(words: list[str]) -> ParseResult:
    quoted = ", ".join(f"'{w}'" for w in words[:4])
    return ParseResult(
        clarification=f"I couldn't find {quoted} in this database.",
        unresolved=words,
    )


def _starts_a_name(tokens: list[str], at: int, lex: Lexicon) -> bool:
    """Whether the words from `at` on name something in the data ("years of service")."""
    for size in range(2, min(lex.longest + 2, len(tokens) - at) + 1):
        words = [w for w in tokens[at : at + size] if w not in ("of", "the", "in", "their")]
        if len(words) > 1 and lex.lookup(words):
            return True
    return False


# After a determiner a word is a noun ("his pitches"), never a happening verb ("pitched").
_DETERMINERS = frozenset(
    {"the", "a", "an", "his", "her", "its", "their", "our", "my", "your", "these", "those"}
    | {"many", "of", "all", "each", "every", "some", "any", "no"}
)


def _a_happening(token: str, lexicon: Lexicon) -> bool:
    """ "played", and "offers", "offer" as "offered" is (vocabulary `happenings`): another
    form of the verb counts when the data names nothing by it ("score" may be a column).
    So does the verb a table's rows are named after: "inspected" of `restaurant_inspections`."""
    if token in happenings():
        return True
    if doer_of(token) is not None and not is_verb(token):
        return False  # "runners", "testers": who did it, the rows perhaps, never the deed
    root = verb_root(token) or (token if is_verb(token) else None)
    if root is None or (lexicon.lookup([token]) and not _names_the_rows(token, lexicon)):
        return False
    return root in _happening_roots() or any(
        stem(word) in (f"{root}ion", f"{root}ation", f"{root}ment")
        for word in _table_words(lexicon)
    )


def _names_the_rows(token: str, lexicon: Lexicon) -> bool:
    return all(t.kind == "table" for t in lexicon.lookup([token]))


@cache
def _happening_roots() -> frozenset[str]:
    return frozenset(r for h in happenings() if (r := verb_root(h)))


def _table_words(lexicon: Lexicon) -> set[str]:
    """Every word of every table's name (kept with the lexicon, which is per catalog)."""
    if "table_words" not in lexicon.derived:
        lexicon.derived["table_words"] = {
            w
            for key, targets in lexicon.phrases.items()
            if any(t.kind == "table" for t in targets)
            for w in key
        }
    words: set[str] = lexicon.derived["table_words"]
    return words


def _table_name_words(catalog: Catalog) -> frozenset[str]:
    """The content words of tables' names of several words, as stems ("police", "use",
    "force" for mn_police_use_of_force): said in a question, they say what the rows are."""
    return frozenset(
        stem(w)
        for name in catalog.tables
        if len(words := identifier_words(name)) > 2
        for w in words
        if len(w) > 2 and w.isalpha() and w not in GLUE_WORDS
    )


def _inside_a_table_name(tokens: list[str], at: int, words: list[str], lex: Lexicon) -> bool:
    """Whether the words at `at` end a longer phrase naming a table: "uses of force" names
    mn_police_use_of_force, so its "force" is never the offence code 'FORCE'."""
    end = at + len(words)
    for start in range(max(0, at - lex.longest), at):
        if any(t.kind == "table" for t in lex.lookup(tokens[start:end])):
            return True
    return False


def _names_with_aggregate_words(
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


def _unit_after(tokens: list[str], comparison: Comparison) -> str | None:
    """The unit right after a comparison's number, as answers show it ("degrees" -> °)."""
    at = comparison.value_end
    return units().get(tokens[at]) if 0 <= at < len(tokens) else None


def _names_calendar(span: Span) -> bool:
    columns = [t for t in span.targets if t.kind == "column"]
    return bool(columns) and all((t.column or "").lower() in _CALENDAR_WORDS for t in columns)


def _part_of_year(tokens: list[str], taken: set[int], grain: str | None) -> bool:
    """ "each month of the year": the grain's number within a year. Takes "of (the) year"."""
    for i, token in enumerate(tokens):
        if token != grain:
            continue
        for said in (["of", "the", "year"], ["of", "year"]):
            if tokens[i + 1 : i + 1 + len(said)] == said:
                taken.update(range(i + 1, i + 1 + len(said)))
                return True
    return False


# A column name that holds a year ("yronset", "birth_yr", "year_built"), never a length of
# years ("yrs.service", "years_experience").
_YEARISH = re.compile(r"(?:^|[^a-z])yr(?!s)|^yr|year(?!s|ly)")


def _timeless(p: _Parse, time: TimeRange) -> bool:
    """Whether one whole year was named ("in 1986") where nothing holds a time: no date or
    calendar column in any table, and no semantic time column."""
    one_year = time.years == () and not time.each and not time.months and not time.month_only
    one_year = one_year and time.start[5:] == "01-01" and time.end[5:] == "01-01"
    one_year = one_year and int(time.end[:4]) - int(time.start[:4]) == 1
    if not one_year or (p.semantic is not None and p.semantic.time is not None):
        return False
    if any(
        re.search(r"(?:^|[^0-9])(?:18|19|20)\d\d(?:$|[^0-9])", c.name)
        for t in p.catalog.tables.values()
        for c in t.columns
    ):
        return False  # years kept in names (`total_pop_2018`): another year is asked about
    if any(
        is_numeric(c.type) and _YEARISH.search(c.name.lower())
        for t in p.catalog.tables.values()
        for c in t.columns
    ):
        return False  # `yronset` (85 for 1985): a year is kept, in a way not read here
    return not has_dates(p.catalog) and not any(
        _calendar_columns(p.catalog, t.name) for t in p.catalog.tables.values()
    )


def _calendar_columns(catalog: Catalog, table: str) -> dict[str, str]:
    """The whole-number calendar columns of a table with no date column: {"month": "Month"}."""
    info = catalog.table(table)
    if info is None or any(is_temporal(c.type) for c in info.columns):
        return {}
    return {
        c.name.lower(): c.name
        for c in info.columns
        if c.name.lower() in _CALENDAR_WORDS and "INT" in c.type.upper()
    }


_AVERAGE_WORDS = frozenset({"average", "avg", "mean", "median", "typical"})


# "Clinton's average raw share" -> "average Clinton's raw share": the average said after
# whose figure it is (the tokens lose the 's that told the two apart)
_POSSESSED_AVERAGE = re.compile(r"\b([A-Za-z][\w.-]*)'s\s+(average|mean|median|typical)\b")


def _figure_called_a_share(tokens: list[str], at: int) -> bool:
    """ "Clinton's average raw share": a share right after an average (an adjective or two
    between) is a figure the rows hold, averaged; never a part of the rows asked for."""
    if tokens[at] != "share" or tokens[at + 1 : at + 2] == ["of"]:
        return False
    return any(t in _AVERAGE_WORDS for t in tokens[max(0, at - 3) : at])


def _dated_by_day(catalog: Catalog) -> bool:
    """Whether the data dates rows by the day (a DATE column, not a timestamp)."""
    return any(c.type.upper() == "DATE" for info in catalog.tables.values() for c in info.columns)


def own_calendar_column(catalog: Catalog, table: str, grain: str | None) -> str | None:
    """A whole-number column named by the grain (`month`) on a table that also has a date."""
    info = catalog.table(table) if table and grain in ("month", "week", "day") else None
    if info is None or not any(is_temporal(c.type) for c in info.columns):
        return None
    return next(
        (c.name for c in info.columns if c.name.lower() == grain and "INT" in c.type.upper()),
        None,
    )


def _period_group(catalog: Catalog, table: str, part: str) -> GroupBy | None:
    """The year or the month of a table's rows as a grouping: its date column's part, or its
    whole-number `year`/`month` column."""
    info = catalog.table(table)
    if info is None:
        return None
    dates = [c for c in info.columns if is_temporal(c.type)]
    year = next(
        (c.name for c in info.columns if c.name.lower() == "year" and "INT" in c.type.upper()),
        None,
    )
    if len(dates) > 1 and part == "year" and year:
        # several dates and a year column: the year column (as _choose_time_column reads)
        return GroupBy(info.name, year, alias=year, is_time=True)
    column = _calendar_columns(catalog, table).get(part)
    if dates:
        return GroupBy(info.name, f'{part}("{dates[0].name}")', alias=part, is_time=True)
    return GroupBy(info.name, column, alias=column, is_time=True) if column else None


def _joined_initialisms(tokens: list[str], lexicon: Lexicon) -> list[str]:
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


_RECORDED = frozenset({"recorded", "listed", "given", "known", "reported", "entered", "available"})


def _no_value_recorded(tokens: list[str]) -> list[str]:
    """ "players with no salary recorded": "no" then at most two words then a word saying it
    was not written down is a missing value ("missing salary"), not an exclusion."""
    for i, token in enumerate(tokens):
        if token != "no":
            continue
        end = next((j for j in range(i + 2, min(i + 4, len(tokens))) if tokens[j] in _RECORDED), 0)
        if end:
            return [*tokens[:i], "missing", *tokens[i + 1 : end], *tokens[end + 1 :]]
    return tokens


def _is_missing(tokens: list[str], span: Span, taken: set[int]) -> bool:
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


def _is_known(tokens: list[str], span: Span, taken: set[int]) -> bool:
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


def _words_between(tokens: list[str], aggs: list[tuple[int, int, str]], span: Span) -> bool:
    """Whether a word other than an article stands between the count phrase and the span
    ("how many women survived": `women`)."""
    end = max((e for s, e, a in aggs if a == "count" and e <= span.start), default=span.start)
    last = tokens[span.end - 1]
    if is_noun(last) and stem(last) != last:
        return False  # "how many African countries": words before a plural noun qualify it
    return any(t not in ("the", "a", "an", "all", "of") for t in tokens[end : span.start])


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


def _yes_no_column(target: Target, catalog: Catalog) -> bool:
    info = catalog.table(target.table) if target.kind == "column" else None
    stored = info.column(target.column or "") if info is not None else None
    if stored is None:
        return False
    values = set(_answers(stored))
    return (
        stored.type.upper() == "BOOLEAN"
        or any(values == {y, n} for y, n in _YES_NO.items())
        or _is_flag(stored)
    )


# Participles after which "by" still groups: "revenue broken down by region".
_GROUPING_PARTICIPLES = frozenset(
    {"grouped", "broken", "split", "sorted", "ordered", "ranked", "segmented", "divided"}
    | {"categorized", "categorised", "classified", "aggregated", "bucketed", "listed"}
    | {"separated", "shown", "summarized", "summarised", "totaled", "totalled", "averaged"}
)


def _agent_of_participle(tokens: list[str], span: Span, catalog: Catalog) -> bool:
    at = span.start
    while at > 2 and tokens[at - 1] != "by" and is_english(tokens[at - 1]) and at > span.start - 2:
        at -= 1  # "by repeat guests": past the words qualifying the name
    if at < 2 or tokens[at - 1] != "by" or tokens[at - 2] in _GROUPING_PARTICIPLES:
        return False
    before = tokens[at - 2]
    participle = verb_root(before) is not None and (
        before.endswith(("ed", "en")) or before in _IRREGULAR
    )
    return participle and any(_yes_no_column(t, catalog) for t in span.targets)


_IRREGULAR = frozenset({"made", "done", "sold", "paid", "won", "held", "run", "bought", "kept"})


_FLAG_LEADS = frozenset({"is", "has", "was", "had"})


def _is_flag(stored: ColumnInfo) -> bool:
    """`is_repeated_guest`, `HasCrCard`: a number column named as a yes/no question holds
    1 for yes and 0 for no (the usual coding; the answer says which value it kept)."""
    words = identifier_words(stored.name)
    if stored.zero_one:  # profiled: every value is 0 or 1, whatever the name says
        return True
    return len(words) > 1 and words[0] in _FLAG_LEADS and is_numeric(stored.type)


def _negated_yes_no(
    tokens: list[str], lexicon: Lexicon, catalog: Catalog
) -> tuple[list[str], set[tuple[str, str, int]]]:
    """ "not"/"non" right before the name of a yes/no column is its no ("how many were not
    citizens" counts citizen = No): the word goes, the column is remembered. Any other
    "not" stays an exclusion, asked about."""
    negated: set[tuple[str, str, int]] = set()
    kept: list[str] = []
    for i, token in enumerate(tokens):
        if token in ("not", "non") and i + 1 < len(tokens):
            named = [t for t in lexicon.lookup(tokens[i + 1 : i + 2]) if t.kind == "column"]
            if len(named) == 1 and _yes_no_column(named[0], catalog):
                negated.add((named[0].table, named[0].column or "", len(kept)))
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


_NUMBER_SCALES = frozenset({"thousand", "million", "billion"})  # "1 million people"
_SOLD = frozenset({"sold", "sell", "sells", "selling", "went", "go", "goes", "priced"})


def _sale_price(
    tokens: list[str], comparison: Comparison, catalog: Catalog, fact: str | None
) -> Target | None:
    """ "houses that sold for more than $300,000": what a thing sold for is its one price
    column (`price`, `sale_price`), when nothing else named the compared figure."""
    before = tokens[max(0, comparison.op_start - 2) : comparison.op_start]
    info = catalog.table(fact) if fact else None
    if info is None or len(before) < 2 or before[1] not in ("for", "at") or before[0] not in _SOLD:
        return None
    prices = [c for c in info.columns if is_numeric(c.type) and "price" in identifier_words(c.name)]
    if len(prices) != 1:
        return None
    return Target("column", info.name, prices[0].name, type=prices[0].type)


# Words for how many people live somewhere: "counties with more than 1 million people".
_INHABITANTS = frozenset({"people", "persons", "residents", "inhabitants"})
# What a population column's name may add to it: `poptotal`, `total_population`.
_POPULATION_PARTS = frozenset({"", "total", "tot"})


def _population_columns(info: TableInfo) -> list[ColumnInfo]:
    """A table's population columns (`pop`, `population`, `poptotal`; never `popwhite`)."""
    found = []
    for column in info.columns:
        name = re.sub(r"[^a-z]", "", column.name.lower())
        for head in ("population", "pop"):
            rest = name.removeprefix(head) if name.startswith(head) else name.removesuffix(head)
            if rest != name and rest in _POPULATION_PARTS and is_numeric(column.type):
                found.append(column)
                break
    return found


def _per_people(
    tokens: list[str], taken: set[int], lexicon: Lexicon
) -> tuple[int, str, int] | None:
    """(scale, the words) of "per 100,000 people", "per capita", "per person", the words
    taken (and a "rate" before them, which they define)."""
    for i in range(len(tokens) - 1):
        if tokens[i] != "per" or i in taken:
            continue
        number = to_number(tokens[i + 1])
        at = i + 2 if isinstance(number, int) and number > 0 else i + 1
        word = tokens[at] if at < len(tokens) else ""
        if word not in _INHABITANTS | {"capita", "person", "inhabitant", "resident"}:
            continue
        if run_together(tokens[max(0, i - 3) : at + 1], lexicon, set()):
            continue  # "GDP per capita" spells `gdpPercap`: a column's own name
        scale = number if at == i + 2 and isinstance(number, int) else 1
        start = i - 1 if i > 0 and stem(tokens[i - 1]) == "rate" else i
        taken.update(range(start, at + 1))
        return scale, " ".join(tokens[start : at + 1]), start
    return None


def _rates_per_people(p: _Parse, measures: list[Measure]) -> list[Measure] | ParseResult:
    """ "the murder rate per 100,000 people": the figure added up over the rows, per the
    people of the same rows (the table's one population column), times the scale. Said."""
    assert p.per_people is not None
    scale, said, _ = p.per_people
    rated = []
    for m in measures:
        info = p.catalog.table(m.table)
        counted = m.target is not None and is_numeric(m.target.type) and m.agg in ("sum", "max")
        pops = _population_columns(info) if info is not None else []
        if not counted or m.target is None or len(pops) != 1:
            return _clarify(
                f"'{said}' needs a number to divide and one population column beside it on "
                f"{m.table}; name them, e.g. 'total per 100,000 population'.",
                [],
            )
        per = Target("column", m.table, pops[0].name, type=pops[0].type)
        alias = f"{m.target.column}_per_{scale}" if scale > 1 else f"{m.target.column}_per_person"
        rated.append(Measure("sum", m.table, m.target, alias=alias, per=per, scale=scale))
        p.notes.append(f"'{said}' read as {m.target.column} × {scale:,} / {pops[0].name}")
    return rated


def _population_of(
    tokens: list[str], comparison: Comparison, catalog: Catalog, fact: str | None
) -> Target | None:
    """ "more than 1 million people" over a table of places: its one population column
    (`pop`, `population`, `poptotal`; never `popwhite`, a group's own), when nothing else
    in the question named the compared figure."""
    after = tokens[comparison.value_end] if comparison.value_end < len(tokens) else ""
    info = catalog.table(fact) if fact else None
    if after not in _INHABITANTS or info is None:
        return None
    found = _population_columns(info)
    if len(found) != 1:
        return None
    return Target("column", info.name, found[0].name, type=found[0].type)


# Units a figure could be asked in that the stored one may not be: never converted here.
_CONVERTIBLE = frozenset({"s", "min", "h", "kg", "g", "lb", "oz", "cm", "mm", "m", "km", "mi"})


def _unit_to_convert(tokens: list[str], catalog: Catalog) -> ParseResult | None:
    """ "the average net time, in minutes" where no column is kept in minutes: answering in
    the stored unit (seconds) would give another number under the question's unit, and
    reading "minutes" as the rows another question. Asked."""
    for i in range(len(tokens) - 1):
        unit = units().get(tokens[i + 1]) if tokens[i] == "in" else None
        if unit not in _CONVERTIBLE or i + 2 != len(tokens):
            continue
        kept = any(
            split_unit(c.name)[1] == unit for t in catalog.tables.values() for c in t.columns
        )
        if not kept:
            return _clarify(
                f"'in {tokens[i + 1]}': no column here is kept in {tokens[i + 1]}, and I don't "
                "convert units yet. Ask without it to get the figures as stored.",
                [],
            )
    return None


# Words that may follow the thing had: "houses with a fireplace in 2006", "… and a pool".
_AFTER_A_THING = frozenset(
    {"in", "on", "at", "and", "or", "for", "from", "by", "during", "since", "before", "after"}
    | {"per", "than", "that", "who", "which", "were", "was", "are", "is"}
)


def _having_a_number(
    tokens: list[str], lexicon: Lexicon, catalog: Catalog
) -> tuple[list[str], str]:
    """ "houses that have a fireplace" -> "… have more than 0 fireplace", "have no fireplace"
    -> "have exactly 0 fireplace": having something a number column counts or measures
    (`fireplaces`, `trans_fat`), with no number said, is that number above zero (or zero).
    Only a column of whole or decimal numbers that is no key, calendar part or yes/no flag;
    the reading is returned to be said."""
    for i, verb in enumerate(tokens[:-1]):
        if verb not in HAVE_VERBS:
            continue
        j, none = i + 1, tokens[i + 1] == "no"
        if none or tokens[j] in ("a", "an", "any", "some"):
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
                and (t.column or "").lower() not in _CALENDAR_WORDS
                and not _yes_no_column(t, catalog)
            }
            if len(found) != 1:
                continue
            (_, column), said = next(iter(found)), " ".join(tokens[i : j + size])
            have = "have" if verb in ("contain", "contains", "include", "includes") else verb
            compared = ["exactly", "0"] if none else ["more", "than", "0"]
            out = [*tokens[:i], have, *compared, *words, *tokens[j + size :]]
            return out, f"'{said}' read as {column} {'= 0' if none else '> 0'}"
    return tokens, ""


def _age_of_people(
    tokens: list[str], comparison: Comparison, lexicon: Lexicon, fact: str | None
) -> Target | None:
    """ "passengers over 60", "children under 12", "people aged 18 or older": a comparison
    said of people (vocabulary `people`), or followed by "years old", with no column of its
    own, is about age, when the asked table has exactly one numeric column named age."""
    at = comparison.op_start - 1
    aged = at >= 0 and tokens[at] == "aged"  # "winners aged 50 or older": the age said
    while at > 0 and tokens[at] in ("aged", "are", "were", "is", "was"):
        at -= 1  # "winners were aged 50 or older"
    before = tokens[at] if at >= 0 else ""
    after = tokens[comparison.value_end : comparison.value_end + 2]
    # "smokers under 25", "drivers over 60": doers are people too
    doer = doer_of(before) is not None
    # "how many employees in the sales department are over 40": the people counted
    counted = tokens[2] if tokens[:2] == ["how", "many"] and len(tokens) > 2 else ""
    verb_led = tokens[comparison.op_start - 1] in ("are", "were") if comparison.op_start else False
    counted_people = verb_led and counted in people()
    said_of_people = before in people() or doer or counted_people or aged
    if not said_of_people and after != ["years", "old"]:
        return None
    ages = [
        t
        for t in lexicon.lookup(["age"])
        if t.kind == "column" and is_numeric(t.type) and (fact is None or t.table == fact)
    ]
    return ages[0] if len(ages) == 1 else None


def _opposite_yes_no(token: str, lexicon: Lexicon, catalog: Catalog) -> tuple[str, Target] | None:
    """(the opposite word, its column) when a word the data does not name is the opposite
    of the name of exactly one yes/no column: "died" or "deaths" for `survived`."""
    forms = {token, stem(token), verb_root(token) or ""} - {""}
    found: dict[Target, str] = {}
    for form in forms:
        for other in opposites().get(form, ()):
            for target in lexicon.lookup([other]):
                if target.kind == "column" and _yes_no_column(target, catalog):
                    found.setdefault(target, other)
    if len(found) != 1:
        return None
    target, word = next(iter(found.items()))
    return word, target


def _rates_of_yes(tokens: list[str], lexicon: Lexicon, catalog: Catalog) -> list[tuple[int, str]]:
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
            values = set(_answers(stored)) if stored is not None else set()
            if any(values == {y, n} for y, n in _YES_NO.items()) or (
                stored is not None and (stored.type.upper() == "BOOLEAN" or stored.zero_one)
            ):
                found.append((i, target.table))
                break
    return found


def _ends_name(name: str, word: str) -> bool:
    """Whether a word ends a column's name: "callback" for `received_callback` (split as
    received, call, back), "winner" for `series_winner`."""
    words = identifier_words(name)
    return any("".join(words[-k:]) in (word, stem(word)) for k in (1, 2, 3))


def _yes_no_filters(
    p: _Parse, spans: list[Span], aggs: list[tuple[int, int, str]]
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
        values = _answers(stored)
        yes: str | bool | int | None = next(
            (values[y] for y, n in _YES_NO.items() if set(values) == {y, n}), None
        )
        if yes is None and stored.type.upper() == "BOOLEAN":
            yes = True
        flag = yes is None and _is_flag(stored)
        if flag:
            yes = 1
        right_after = any(e == span.start and a == "count" for _, e, a in aggs)
        if right_after and span.end < len(p.tokens):
            # "how many private colleges": the column qualifies the plural noun after it
            after = p.tokens[span.end]
            right_after = not (is_noun(after) and stem(after) != after and after != "values")
        said = p.tokens[span.start]
        if right_after and span.end - span.start == 1 and _doer(said, column.column or ""):
            right_after = False  # "the number of smokers": the rows whose `smoke` is yes
        if yes is not None and not right_after:
            name = column.column or ""
            if (column.table, name, span.start) in p.negated:  # "were not citizens": the no
                if flag:
                    yes = 0
                else:
                    yes = not yes if isinstance(yes, bool) else values[_YES_NO[str(yes).lower()]]
            found[span] = Filter(column.table, name, "=", yes, label=name)
    return found


# Words of a column's name that say its figures are rates or shares, which never add up.
_RATE_WORDS = frozenset(
    {"rate", "rates", "pct", "percent", "percentage", "ratio", "share", "proportion", "prop"}
    | {"mpg", "density", "speed"}
    # a figure that is itself a statistic (txhousing's `median` price) does not add up either
    | {"median", "mean", "average", "avg"}
)


# Quantities per unit of something else ("city mileage" for `cty`, "mpg", "speed"): like
# rates, their figures do not add up
_PER_UNIT_WORDS = frozenset({"mileage", "mpg", "efficiency", "economy", "speed", "density"})


def _is_rate(column: str) -> bool:
    """ "Grad.Rate", "pct_female", "S.F.Ratio", "percollege": a rate, share or percentage."""
    words = identifier_words(column)
    low = column.lower()
    return bool(set(words) & _RATE_WORDS) or low.startswith(("perc", "pct")) or "%" in low


def _both_answers(filters: list[Filter]) -> list[Filter]:
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


# Names of a column that holds how many of the table's thing each row stands for.
# ("number" is not one: `Number` is as often a record's number as a count)
_TALLY_NAMES = frozenset({"total", "count", "n", "freq", "frequency", "cases", "cnt"})


def _tally_for_rate(catalog: Catalog, spans: list[Span], values: list[ValueMatch]) -> Target | None:
    """The one tally column (`count`, `total`) of the table a rate's words point at: a
    table named, else the table of the values said, else the only table."""
    tables = [t.table for s in spans for t in s.targets if t.kind == "table"]
    tables = tables or [m.table for m in values if m.table]
    tables = tables or (list(catalog.tables) if len(catalog.tables) == 1 else [])
    found = set()
    for name in dict.fromkeys(tables):
        info = catalog.table(name)
        if info is None:
            continue
        for c in info.columns:
            if is_numeric(c.type) and c.name.lower() in _TALLY_NAMES and not is_key(c.name):
                found.add((info.name, c.name, c.type))
    if len(found) != 1:
        return None
    table, column, kind = found.pop()
    return Target("column", table, column, type=kind)


def _people_held_in_a_tally(
    tokens: list[str], spec: QuestionSpec, catalog: Catalog, notes: list[str]
) -> None:
    """ "how many women were in prison" over rows of state, gender and quarter with a
    `count` of prisoners each: the people are that column's figures added up, never the rows
    (16 rows of women, 3,000 women). Said. Only people: "how many states …" counts rows."""
    counted = tokens[2] if tokens[:2] == ["how", "many"] and len(tokens) > 2 else ""
    if counted not in people() or set(tokens) & ROW_WORDS:
        return
    for at, m in enumerate(spec.measures):
        if m.agg != "count" or m.target is not None:
            continue
        tally = _tally_for_rate(catalog, [], [ValueMatch("", m.table, "", "")])
        if tally is None or stem(counted) in identifier_words(m.table):
            continue
        spec.measures[at] = Measure("sum", m.table, tally, alias=f"sum_{tally.column}")
        notes.append(f"'{counted}' counted by adding up {m.table}.{tally.column}")
        prefix = f"each row of {m.table} counted as one"
        spec.notes[:] = [n for n in spec.notes if not n.startswith(prefix)]
        notes[:] = [n for n in notes if not n.startswith(prefix)]


def _tally_of(catalog: Catalog, span: Span, said: str = "") -> Target | None:
    """The column that counts what a table's name says (`murders.total`), when the span names
    only the table, its name is a plural noun and exactly one numeric column of it is called
    by a tally word (`total`, `count`, `n`, ...), or else by the start of that noun (`fatal`
    on Fatalities). People said of a table with a tally word's column are counted by it too
    ("prisoners" over `prisonLF.count`, one row per state, gender and quarter)."""
    if len(span.targets) != 1 or span.targets[0].kind != "table":
        return None
    info = catalog.table(span.targets[0].table)
    if info is not None and said in people() and stem(said) not in identifier_words(info.name):
        return _tally_for_rate(catalog, [span], [])
    words = identifier_words(info.name) if info is not None else ()
    if info is None or not words or stem(words[-1]) == words[-1]:
        return None
    plural = words[-1]
    tallies = [
        c
        for c in info.columns
        if is_numeric(c.type) and c.name.lower() in _TALLY_NAMES and not is_key(c.name)
    ] or [
        # `fatal` on Fatalities: the one whole-number column whose name begins the table's
        c
        for c in info.columns
        if _is_integer(c.type)
        and c.name.isalpha()
        and len(c.name) >= 4
        and plural.startswith(c.name.lower())
        and plural != c.name.lower()
    ]
    if len(tallies) != 1:
        return None
    found = tallies[0]
    return Target("column", info.name, found.name, type=found.type)


def _counted_of_a_named_row(p: _Parse, span: Span, column: Target) -> bool:
    """ "how many home runs did Don Mattingly hit": a whole-number column said in the plural,
    asked of one named row, is that row's figure (`HmRun`), never its distinct values."""
    said, name = p.tokens[span.end - 1], column.column or ""
    if is_key(name) or name.lower() in _CALENDAR_WORDS:
        return False  # "how many years of data for California": years counted, never added
    plural = said.endswith("s") and stem(said) != said and not said.endswith("ss")
    return plural and _is_integer(column.type) and column.table.lower() in p.named_rows


def _holds_counts(column: Target) -> bool:
    """A numeric column named by a plural noun (`electoral_votes`, `passengers`, `sales`):
    each row's figure is how many of them, so "how many" adds it up rather than counting
    rows. Not a key, a calendar part or a column named in the singular (`rating`)."""
    name = column.column or ""
    if not is_numeric(column.type) or is_key(name) or name.lower() in _CALENDAR_WORDS:
        return False
    words, _ = split_unit(name)
    words = tuple(w for w in words if not w.isdigit())  # `births_2018`: births
    last = words[-1] if words else ""
    if len(words) == 2 and words[1].endswith("ed") and verb_root(words[1]) is not None:
        last = words[0]  # `Individuals_Affected`: how many individuals were
    return last.endswith("s") and stem(last) != last and not last.endswith("ss")


# Adjectives of size or amount: their superlative over groups may mean a total ("the
# biggest month for sales"), so it is asked rather than averaged.
_SIZE_ADJECTIVES = frozenset({"big", "large", "small", "great", "high", "low", "many", "much"})


def _counts_who_were(said: str, column: Target) -> bool:
    """ "how many unemployed" over a whole-number `unemploy`, "how many injured" over
    `injured`: a participle said of people counts those who were, which such a column already
    holds on each row (a 0/1 flag adds up to the same count)."""
    name = column.column or ""
    if "INT" not in column.type.upper() or is_key(name) or name.lower() in _CALENDAR_WORDS:
        return False
    if not said.endswith("ed") or not said.isalpha():
        return False
    return verb_root(said) is not None or (
        said.startswith("un") and verb_root(said[2:]) is not None
    )


def _listed_among_others(catalog: Catalog, match: ValueMatch) -> bool:
    """Whether the value's column keeps lists of values in one field, this value among them
    in some row ('Fog , Thunderstorm' beside 'Thunderstorm')."""
    info = catalog.table(match.table)
    stored = info.column(match.column) if info is not None else None
    if stored is None or is_numeric(stored.type):
        return False
    wanted = match.value.strip().lower()
    for value in stored.distinct_values:
        text = str(value)
        for separator in LIST_SEPARATORS:
            parts = [p.strip().lower() for p in text.split(separator)]
            if len(parts) > 1 and wanted in parts and text.strip().lower() != wanted:
                return True
    return False


def _one_attribute(catalog: Catalog, matches: list[ValueMatch]) -> bool:
    """Whether the columns a word was found in are one attribute spelled two ways: one
    table, the word as written in one column and by a synonym in the others, each column
    listing as many distinct values (or each too many to list): state names and codes,
    where a county's name and a state's code list differently."""
    exact = [m for m in matches if m.value.lower() == m.word.lower()]
    if len({m.table for m in matches}) != 1 or len(exact) != 1:
        return False  # one written as asked, the others other spellings of it
    info = catalog.table(matches[0].table)
    counts = {
        len(c.distinct_values)
        for m in matches
        if info is not None and (c := info.column(m.column)) is not None
    }
    return len(counts) == 1


_SCOPE_NOUNS = frozenset(
    {"country", "nation", "world", "data", "dataset", "table", "board", "collection"}
    | {"database", "sample", "survey", "records", "file"}
    # the list the rows are entries of: "songs on the chart", "items on the menu"
    | {"chart", "study", "list", "menu", "register", "registry", "catalog", "catalogue"}
)


def _spelled(value: str) -> str:
    """A value's words, whatever their case, spaces and punctuation between them."""
    return " ".join(re.findall(r"\w+", value.lower()))


def _across_all(
    tokens: list[str], taken: set[int], lexicon: Lexicon, notes: list[str]
) -> list[int]:
    """ "the average beer tax across the states", "across all colleges": one figure over
    every state, never one per state (that is "by state"). Said, since "across" alone can
    mean each."""
    for i, token in enumerate(tokens[:-2]):
        at = i + 1
        while at < len(tokens) and tokens[at] in ("the", "all"):
            at += 1
        if token != "across" or i in taken or at == i + 1 or at >= len(tokens) or at in taken:
            continue
        named = lexicon.lookup([tokens[at]])
        if named and all(t.kind == "table" or not is_numeric(t.type) for t in named):
            notes.append(f"'{' '.join(tokens[i : at + 1])}' read as one figure over all of them")
            return list(range(i, at + 1))
    return []


def _places_named(catalog: Catalog, lexicon: Lexicon) -> set[str]:
    """ "seattle" of `seattlepets`: what a one-word table name holds before the noun it
    ends with, the place or source every row is of. Kept with the lexicon (one per catalog),
    so a question does not walk every table's name again."""
    if "places" not in lexicon.derived:
        lexicon.derived["places"] = {
            table.name.lower()[: -len(tail)]
            for table in catalog.tables.values()
            if (tail := english_tail(identifier_words(table.name)))
            and len(table.name) - len(tail) > 2
        } | {  # "london" of `london_murders`: a name of two words, a noun last
            words[0]
            for table in catalog.tables.values()
            if len(words := identifier_words(table.name)) == 2
            and words[0].isalpha()
            and len(words[0]) > 2
            and is_noun(words[1])
        }
    places: set[str] = lexicon.derived["places"]
    return places


_DATA_NOUNS = frozenset({"data", "dataset", "database", "table", "file", "records"})


def _without_the_data(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "how many pollsters are in the data": the data is where to look, never a value
    (a pollster called 'Data Orbital'), unless something in the data is called so."""
    for i in range(len(tokens) - 2):
        if (
            tokens[i] in ("in", "within")
            and tokens[i + 1] in ("the", "this", "these", "our", "my")
            and tokens[i + 2] in _DATA_NOUNS
            and not lexicon.lookup(tokens[i + 2 : i + 3])
        ):
            return [*tokens[:i], *tokens[i + 3 :]]
    return tokens


def _counted_in_total(tokens: list[str], taken: set[int]) -> list[int]:
    """ "how many tests were run in total", "how many in all": after "how many", a closing
    "in total" says the whole count is wanted, never a sum of some figure."""
    if tokens[:2] != ["how", "many"] or len(tokens) < 4:
        return []
    if tokens[-2:] in (["in", "total"], ["in", "all"]) and not taken & {len(tokens) - 2}:
        return [len(tokens) - 2, len(tokens) - 1]
    return []


def _whole_scope(
    tokens: list[str], taken: set[int], lexicon: Lexicon, places: Collection[str] = ()
) -> list[int]:
    """ "across the country", "in the whole dataset", "in Seattle" of `seattlepets`: the
    scope of the whole table, said in words the data does not hold (a `country` column
    makes "country" a name, not a scope)."""
    for i, token in enumerate(tokens):
        # "answered the survey": what every row did, of the whole table
        if token not in ("across", "throughout", "in", "over", "on") and not _a_happening(
            token, lexicon
        ):
            continue  # ("across" may be taken already, as the start of a grouping)
        at = i + 1
        while at < len(tokens) and tokens[at] in ("the", "whole", "entire", "all"):
            at += 1
        if (
            at < len(tokens)
            and at not in taken
            and (tokens[at] in _SCOPE_NOUNS or tokens[at] in places)
            and not any(t.kind != "table" for t in lexicon.lookup([tokens[at]]))
        ):
            return list(range(i, at + 1))
    return []


def _units_of_columns(tokens: list[str], spans: list[Span], taken: set[int]) -> list[int]:
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


_ROW_RANK_GLUE = frozenset({"with", "the", "a", "an", "that", "which", "had", "has", "have"})


def _row_ranked(tokens: list[str], spans: list[Span], superlative_at: int | None) -> bool:
    """ "the poll with the largest sample", "the game that had the most goals": a noun
    naming a table's rows, then the superlative: the rows are ranked one by one."""
    if superlative_at is None:
        return False
    return any(
        len(s.targets) == 1
        and s.targets[0].kind == "table"
        and s.end < superlative_at
        and all(t in _ROW_RANK_GLUE for t in tokens[s.end : superlative_at])
        and any(t == "with" or t in ("had", "has", "have") for t in tokens[s.end : superlative_at])
        for s in spans
    )


def _columns_of(span: Span) -> tuple[Target, ...]:
    return tuple(t for t in span.targets if t.kind == "column")


def _column_span(f: Filter, catalog: Catalog) -> Span:
    """A filter's column as a span (for the span-based checks)."""
    info = catalog.table(f.table)
    stored = info.column(f.column) if info is not None else None
    kind = stored.type if stored is not None else ""
    return Span(0, 0, (Target("column", f.table, f.column, type=kind),))


def _names_its_rows(catalog: Catalog, column: Target) -> bool:
    """A key by its name (`order_id`) that is one: `test_id` holding two test codes over
    15,524 rows names no test, and a count of its values is a reading to say."""
    if not is_key(column.column or ""):
        return False
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or stored.distinct_count < 0:
        return True
    return 2 * stored.distinct_count > info.row_count


def _mostly_distinct(catalog: Catalog, column: Target) -> bool:
    """A text column of names nearly one per row (course titles, 3,124 of 3,950 rows), or of
    values too many to count: "how many courses" may be its distinct titles or the rows,
    which two courses sharing a title tell apart. A category (173 subjects) is its values."""
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or is_numeric(stored.type):
        return False
    return stored.distinct_count < 0 or 2 * stored.distinct_count > info.row_count


def _rows_are_the_things(catalog: Catalog, column: Target) -> bool:
    """ "how many counties" over midwest (437 rows, 320 county names: ADAMS in Ohio and in
    Indiana): names that are mostly distinct, on a table with no time column to repeat them
    (gapminder's countries repeat once a year: those are counted as names), name one row
    each; a name shared by a few rows is a coincidence of names, not one thing."""
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or info.row_count <= 0 or stored.distinct_count <= 0:
        return False
    if any(is_temporal(c.type) or c.name.lower() in _CALENDAR_WORDS for c in info.columns):
        return False
    return stored.distinct_count < info.row_count <= 2 * stored.distinct_count


def _shortest_window(variants: list[Target], lexicon: Lexicon) -> Target | None:
    """The variant kept over the shortest window of time, when every variant is a window."""
    windows = [lexicon.variant_windows.get(t) for t in variants]
    if None in windows or len({t.table for t in variants}) != 1:
        return None
    lengths = sorted(w for w in windows if w is not None)
    if lengths[0] == lengths[1]:
        return None  # `visits_30d` and `visits_1m`: no shorter one
    return variants[windows.index(lengths[0])]


def _year_of_name(p: _Parse, spec: QuestionSpec, lexicon: Lexicon, span: Span) -> Span:
    """One column for a name kept once per year (`life_expectancy_1970`, `_2000`, `_2018`):
    the one of the year the question says, which then filters nothing ("in 2018" is in the
    name), else the latest, said."""
    years = {t: lexicon.column_years.get(t) for t in span.targets}
    if len(span.targets) < 1 or any(y is None for y in years.values()):
        return span
    said = spec.time_range
    year = int(said.start[:4]) if said is not None and _whole_years(spec) else None
    chosen = [t for t, y in years.items() if y == year]
    if year is not None and said is not None and not said.years and len(chosen) == 1:
        spec.time_range = None  # the year is the column's own
        return Span(span.start, span.end, (chosen[0],), guessed=span.guessed)
    if len(span.targets) == 1 or said is not None:
        return span
    latest = max(span.targets, key=lambda t: years[t] or 0)
    others = ", ".join(t.column or "" for t in span.targets if t is not latest)
    p.notes.append(f"'{_text(p.tokens, span)}' read as {latest.column} (the latest; also {others})")
    return Span(span.start, span.end, (latest,), guessed=span.guessed)


def _names_each_row(catalog: Catalog, span: Span) -> bool:
    """Whether a span names one text column whose values name the rows nearly one each (nine
    in ten distinct, or more): a menu's `item`, a list's `name`."""
    columns = [t for t in span.targets if t.kind == "column"]
    if len(columns) != 1 or len(span.targets) != 1 or is_numeric(columns[0].type):
        return False
    info = catalog.table(columns[0].table)
    stored = info.column(columns[0].column or "") if info is not None else None
    if info is None or stored is None or info.row_count < 20:
        return False
    return stored.distinct_count >= 0.9 * info.row_count


def _one_row_each(catalog: Catalog, span: Span) -> bool:
    """Whether a span names a text column listing exactly one value per row of its table
    (USArrests' 50 states over 50 rows): grouping by it leaves each row alone."""
    columns = [t for t in span.targets if t.kind == "column"]
    if not columns or len(columns) != len(span.targets):
        return False
    for column in columns:  # `state` of two tables keyed by it: one row each in both
        info = catalog.table(column.table)
        stored = info.column(column.column or "") if info is not None else None
        if (
            info is None
            or stored is None
            or is_numeric(column.type)
            or info.row_count <= 0
            or stored.distinct_count != info.row_count
        ):
            return False
    return True


_PART_STARTS = frozenset({"were", "was", "are", "is", "in", "from", "that", "which", "who"})


def _whole_and_part_of_one_column(
    tokens: list[str], share_at: int, spec: QuestionSpec
) -> tuple[str, Filter] | None:
    """A share whose whole and part are two values of one column, the whole said right
    after the share word: (the whole's value, the part as a filter), else None."""
    both = [f for f in spec.filters if f.op == "in" and isinstance(f.value, list)]
    if len(both) != 1 or len(both[0].value) != 2:
        return None
    end = next(
        (i for i in range(share_at + 1, len(tokens)) if tokens[i] in _PART_STARTS), len(tokens)
    )
    window = {stem(t) for t in tokens[share_at + 1 : end]}
    said = [v for v in both[0].value if {stem(w) for w in question_tokens(str(v))} <= window]
    if len(said) != 1:
        return None
    part = next(v for v in both[0].value if v != said[0])
    f = both[0]
    return str(said[0]), Filter(f.table, f.column, "=", part, label=f.label)


def _of_the_whole(tokens: list[str], share_at: int, filters: list[Filter]) -> list[Filter]:
    """The filters said inside "of all …" right after a share word ("what share of all measles
    cases were in California": measles is the whole, California the part). None when that
    would leave no part."""
    end = next(
        (i for i in range(share_at + 1, len(tokens)) if tokens[i] in _PART_STARTS), len(tokens)
    )
    window = tokens[share_at + 1 : end]
    if window[:2] not in (["of", "all"], ["of", "the"]) and window[:1] != ["of"]:
        return []
    whole = [
        f
        for f in filters
        if f.op == "="
        and any(
            (words := question_tokens(said))
            and any(window[i : i + len(words)] == words for i in range(len(window)))
            for said in {str(f.value), f.said}
        )
    ]
    return whole if len(whole) < len(filters) else []


def _said_before(tokens: list[str], f: Filter, at: int | None) -> bool:
    """Whether a filter's value was said before position `at` (as stored or as asked)."""
    return at is not None and any(
        (words := question_tokens(said))
        and any(tokens[i : i + len(words)] == words for i in range(0, max(at - len(words) + 1, 0)))
        for said in {str(f.value), f.said}
    )


def _names_rows(catalog: Catalog, match: ValueMatch) -> bool:
    """Whether a value names rows one by one ("Luke Skywalker", "Honda Accord"): a value of
    a name column, of a text column with too many values to list (a label, not a category),
    or of one listing as many values as the table has rows (USArrests' 50 states)."""
    if match.column.lower() in _ROW_LABELS:
        return True
    info = catalog.table(match.table)
    column = info.column(match.column) if info is not None else None
    if info is None or column is None or is_numeric(column.type):
        return False
    if identifier_words(match.column)[-1:] in (("name",), ("title",)):
        return True  # `team_name`: a name column, however few its values
    return not column.distinct_values or len(column.distinct_values) == info.row_count


def _holds_numbers(catalog: Catalog, target: Target) -> bool:
    """A text column whose listed values are mostly whole numbers ("4", "6", "rotary")."""
    info = catalog.table(target.table)
    column = info.column(target.column or "") if info is not None else None
    values = column.distinct_values if column is not None else ()
    return bool(values) and sum(v.isdigit() for v in values) * 2 > len(values)


def _names_text_only(span: Span) -> bool:
    """A span naming only text columns (no table, no number, no date)."""
    return bool(span.targets) and all(
        t.kind == "column" and not is_numeric(t.type) and not is_temporal(t.type)
        for t in span.targets
    )


def _listed_count(catalog: Catalog, column: Target) -> int:
    """How many values a text column lists (0 when none are)."""
    info = catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    return len(stored.distinct_values) if stored is not None else 0


def _lists_values(catalog: Catalog, span: Span) -> bool:
    """Whether the span's columns are categories (few enough values to list), not names."""
    for t in span.targets:
        info = catalog.table(t.table)
        stored = info.column(t.column or "") if info is not None else None
        if stored is None or not stored.distinct_values:
            return False
    return True


# Words that pick some of what they qualify, where no column holds them: never dropped.
_SEXES = frozenset({"female", "male", "women", "men", "woman", "man", "girl", "boy"})
_SEXES |= {"girls", "boys", "females", "males"}


def _drop_modifiers(
    tokens: list[str], unresolved: list[str], p: _Parse, spans: list[Span]
) -> list[str]:
    """ "skin colour", "police checks", "gun murders" (a table counted by its tally column): a
    noun the data does not know, right before a column's name, qualifies it. Read as the
    column, and said (the answer is reviewed): the person sees which column stood for the
    two words."""
    for span in spans:
        at = span.start - 1
        columns = [t for t in span.targets if t.kind == "column"]
        tally = _tally_of(p.catalog, span)  # "gun murders": murders read as its `total`
        columns = [tally] if tally is not None and not columns else columns
        if at < 0 or at in p.taken or tokens[at] not in unresolved or len(columns) != 1:
            continue
        if not is_noun(tokens[at]) or tokens[at].isdigit() or tokens[at] in _SEXES:
            continue
        p.taken.add(at)
        said = " ".join(tokens[at : span.end])
        read = f"{tally.table}.{tally.column}" if tally is not None else columns[0].column
        p.notes.append(f"'{said}' read as {read}")
    return [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]


def _drop_value_modifiers(
    tokens: list[str],
    unresolved: list[str],
    p: _Parse,
    found: list[tuple[ValueMatch, str | None]],
) -> list[str]:
    """ "full professors" (rank `Prof`): a word the data does not know, right before a value,
    qualifies it. Read as the value, and said, so the person sees the word was not used."""
    for match, _ in found:
        words = question_tokens(match.word)
        for i in range(1, len(tokens) - len(words) + 1):
            at = i - 1
            if tokens[i : i + len(words)] != words or at in p.taken:
                continue
            if tokens[at] not in unresolved or tokens[at].isdigit() or not is_english(tokens[at]):
                continue
            if tokens[at] in _SEXES:
                continue  # "female dogs" are some of the dogs: never all of them
            p.taken.add(at)
            p.notes.append(f"'{tokens[at]} {match.word}' read as {match.column} = {match.value}")
    return [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]


def _drop_value_nouns(
    tokens: list[str],
    unresolved: list[str],
    taken: set[int],
    found: list[tuple[ValueMatch, str | None]],
) -> list[str]:
    """ "characters with blue eyes", "cars with red paint": a noun right after a value that
    says which column the value is in (`eye_color`) adds nothing to it; nor do the two words
    of "rear wheel drive" (Rear of `DriveTrain`) when the second is the column's."""
    for match, _ in found:
        words = question_tokens(match.word)
        named = {stem(w) for w in identifier_words(match.column)}
        for i in range(len(tokens) - len(words)):
            at = i + len(words)
            if tokens[i:at] != words or at in taken or tokens[at] not in unresolved:
                continue
            if stem(tokens[at]) in named:
                taken.add(at)
            elif doer_of(tokens[at]) is not None and (
                at + 1 == len(tokens) or tokens[at + 1] in GLUE_WORDS
            ):
                taken.add(at)  # "the youngest Best Actor winner": the rows holding the value
            elif (
                at + 1 < len(tokens)
                and at + 1 not in taken
                and tokens[at + 1] in unresolved
                and stem(tokens[at + 1]) in named
            ):
                taken.update((at, at + 1))
    return [t for i, t in enumerate(tokens) if i not in taken and t in unresolved]


def _narrowed_by_noun(
    tokens: list[str], found: list[tuple[ValueMatch, str | None]]
) -> list[tuple[ValueMatch, str | None]]:
    """ "blue eyes" where blue is an eye colour and a skin colour: the noun after the value
    names the column it is in."""
    kept = []
    for match, before in found:
        words = question_tokens(match.word)
        at = next(
            (i + len(words) for i in range(len(tokens)) if tokens[i : i + len(words)] == words),
            len(tokens),
        )
        noun = stem(tokens[at]) if at < len(tokens) else ""
        same = [m for m, _ in found if m.word == match.word]
        named = [m for m in same if noun in {stem(w) for w in identifier_words(m.column)}]
        if len(same) > 1 and len(named) == 1 and named[0] is not match:
            continue  # another column of the same word is the one the noun names
        kept.append((match, before))
    return kept


def _ranks_by(span: Span) -> bool:
    """A span naming only a numeric column that is neither a key nor a calendar part."""
    columns = [t for t in span.targets if t.kind == "column"]
    return bool(columns) and all(
        is_numeric(t.type)
        and not is_key(t.column or "")
        and (t.column or "").lower() not in _CALENDAR_WORDS
        for t in columns
    )


def _entity_qualified(
    tokens: list[str], spans: list[Span], taken: set[int], lex: Lexicon, entity: tuple[int, int]
) -> list[Span]:
    """ "passengers by class" over a column `passengerClass`: with the row noun before it, an
    unexplained word names a column ("passenger class")."""
    noun = stem(tokens[entity[1] - 1])
    found = []
    for i, token in enumerate(tokens):
        if i in taken:
            continue
        named = [t for t in lex.lookup([noun, token]) if t.kind == "column"]
        if len(named) == 1:
            found.append(Span(i, i + 1, (named[0],)))
            taken.add(i)
    return sorted(spans + found, key=lambda s: s.start) if found else spans


def _said_in_table(tokens: list[str], spans: list[Span]) -> str | None:
    """ "how many countries are in the gapminder data": the table named after "in" (or
    "of"), which a column in several tables is then read from."""
    for span in spans:
        tables = [t.table for t in span.targets if t.kind == "table"]
        if len(tables) == 1 and span.start > 0 and tokens[span.start - 1] in ("in", "of", "the"):
            return tables[0]
    return None


def _filtered_table(found: list[tuple[ValueMatch, str | None]], compared: list[Span]) -> str | None:
    """The table most of the question's filters are on, if any."""
    tables = [m.table for m, _ in found] + [
        t.table for s in compared for t in s.targets if t.kind == "column"
    ]
    return max(set(tables), key=tables.count) if tables else None
