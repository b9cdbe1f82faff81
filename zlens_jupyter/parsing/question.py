"""The deterministic question parser: a question plus the catalog -> a QuestionSpec, or one
clarifying question naming the closest candidates.

Order of work: values found in the data, then time, top-N, comparisons, aggregation and
grouping words, then the names of tables/columns/metrics in what is left. Anything left
after that which is not a stopword is unresolved, and an unresolved word means we ask rather
than guess.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..semantic import SemanticModel
from ..vocabulary import counted_by_verb, happenings, people, quantities, units, value_synonyms
from ..warehouse import Catalog, ValueMatch
from ..wordforms import is_noun, is_plural, is_verb
from .calendar_reading import (
    age_of_a_year,
    calendar_columns,
    choose_time_column,
    date_verb,
    dated_by_day,
    day_of_rows,
    day_of_the_week,
    names_calendar,
    one_period_of,
    one_year_of,
    own_calendar_column,
    part_of_year,
    period_group,
    timeless,
    verb_of_a_date,
    weekday_column_named,
    year_of_name,
)
from .coded_columns import code_said, column_codes
from .counts_and_rates import (
    NUMBER_SCALES,
    age_of_people,
    is_rate,
    people_held_in_a_tally,
    per_people_said,
    population_of,
    rates_per_people,
    sale_price,
    tally_for_rate,
    unit_to_convert,
)
from .entities import (
    counted_in_one_of_many,
    entity_qualified,
    kinds_named_as_the_rows,
    kinds_of_observed_things,
    mostly_distinct,
    names_each_row,
    names_rows,
    observation_label,
    one_name_column,
    one_row_each,
    parent_table,
    ranks_its_rows,
    ranks_single_rows,
    row_entity,
    rows_are_the_things,
    rows_named_by_their_table,
    text_ranked_by_rows,
)
from .frame import EXCLUSIONS, read_frame
from .group_sizes import GroupSize, group_size_said
from .lexicon import (
    AmbiguousName,
    Lexicon,
    Span,
    Target,
    find_abbreviated,
    find_spans,
    initialisms_of_names,
    is_key,
    is_numeric,
    is_temporal,
    lettered_names,
    negation_told_apart,
    run_together,
    split_names,
)
from .lumped import lumps_many
from .measures import ranks_by, read_measures
from .phrasing import (
    CALENDAR_WORDS,
    GRAIN_WORDS,
    GRAINS,
    find_aggregates,
    find_comparisons,
    find_group_markers,
    find_period_list,
    find_superlative,
    find_time_grain,
    find_time_range,
    find_top_n,
)
from .reading import (
    LABELS,
    ROW_LABELS,
    SHOW_WORDS,
    ParseState,
    clarify,
    clarify_unresolved,
    names_number,
    pick_column,
    span_text,
)
from .rewording import (
    FIGURE_WORDS,
    ages_said,
    among_the_groups,
    breakdown_of,
    but_between_limits,
    change_between,
    change_named,
    combined_as_total,
    common_number_of,
    compared_either_way,
    correlation_asked,
    done_the_most_times,
    done_to_the_most,
    each_combination,
    edge_of_a_period,
    either_of_two,
    end_of_the_data,
    ended_with,
    first_crossing,
    first_period_dated,
    for_the_groups,
    has_dates,
    how_much_more,
    how_often,
    in_one_period,
    kind_of_a_column,
    losses_as_figures,
    measure_of_a_part,
    moment_of_rows,
    names_asked,
    new_as_issued,
    number_range,
    on_average_last,
    one_grouping_two_names,
    over_the_whole_period,
    paired_figures,
    peaked,
    per_day_said,
    percent_change_asked,
    preposition_said_once,
    qualifier_of_a_number,
    rank_by,
    said_twice,
    scope_said_first,
    seasons,
    shares_of_the_vote,
    stored_as_none,
    the_average_one,
    the_number_of_them,
    the_peak,
    things_sold,
    times_as_many,
    times_larger,
    total_number_of,
    two_word_happenings,
    varies_with,
    when_ranked,
    which_has_more,
    which_single,
    widest_range,
    with_at_least_one_row,
    year_before_a_figure,
)
from .row_answers import asks_when, one_of_a_kind_ranked, says_when, value_at_a_time_end
from .scope import (
    DETERMINERS,
    a_happening,
    across_all,
    counted_in_total,
    filtered_table,
    listed_table,
    places_named,
    said_in_table,
    starts_a_name,
    table_name_words,
    whole_scope,
    without_the_data,
)
from .spans import (
    AVERAGE_WORDS,
    FIGURE_NOUNS,
    POSSESSED_AVERAGE,
    absorb_head_nouns,
    adjective_spans,
    average_of_a_range,
    best_or_worst,
    column_span,
    columns_of,
    compared_span,
    drop_comparison_words,
    durations_named,
    fastest_or_slowest,
    figure_called_a_share,
    follows,
    head_of_compound,
    joined_initialisms,
    measured_by_unit,
    names_a_metric,
    names_measure,
    names_with_aggregate_words,
    one_ranked_row,
    ranked_by_a_participle,
    said_before,
    superlative_left_out,
    unit_after,
    unit_span,
    units_of_columns,
    verb_before_its_figure,
    verb_of_a_name,
    verbs_of_figures,
)
from .spec import AverageOf, Filter, GroupBy, Measure, ParseResult, QuestionFrame, QuestionSpec
from .statistic_names import aggregates_in_names, statistic_columns
from .titles import titles_won, wins_as_rows
from .value_filters import (
    choose_value_filters,
    coded_numbers,
    column_comparisons,
    drop_modifiers,
    drop_value_modifiers,
    drop_value_nouns,
    filters_of_values,
    initial_codes,
    named_values,
    narrowed_by_noun,
    numbered_columns,
    of_the_whole,
    whole_and_part_of_one_column,
)
from .words import GLUE_WORDS, identifier_words, question_tokens, stem, to_number
from .yes_no import (
    agent_of_participle,
    both_answers,
    having_a_number,
    is_known,
    is_missing,
    moved_positions,
    negated_yes_no,
    no_value_held,
    no_value_recorded,
    rates_of_yes,
    yes_no_column,
    yes_no_filters,
)

_AGE_ENDS_AS_AGG = {True: "max", False: "min"}
# "In which month do most storms occur?" asks which month: the preposition before "which"
# only says how the month holds the storms
_LEADING_PREPOSITION = re.compile(r"^\s*(?:in|during|on|at)\s+(?=(?:which|what)\b)", re.I)
# ... when what is ranked is a count ("the most storms"); "in which month was unemployment
# highest" is the month of the highest row, read as said
_COUNTED_MOST = re.compile(r"\b(?:most|fewest|least)\b", re.I)
_TREND_VERBS = frozenset({"change", "changed", "evolve", "evolved", "develop", "developed"})


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
    if _COUNTED_MOST.search(question):
        question = _LEADING_PREPOSITION.sub("", question)
    frame = frame if frame is not None else read_frame(question)
    result = _averaged_per_period(question, catalog, lexicon, semantic, values)
    if result is None:
        result = _averaged_per_group(question, catalog, lexicon, semantic, values)
    if result is None:
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
        # "by what percentage did it rise": how the change is asked, no grouping
        and not percent_change_asked(question_tokens(question))
    ):
        # "average mpg by number of cylinders" answered with no grouping would be a number
        # for another question: a "by" that found no column is asked about
        said = " ".join(frame.by_groupings[0])
        result = clarify(f"I couldn't group by '{said}': which column is it?", [])
    spec = result.spec
    if spec is not None:
        one_ranked_row(question_tokens(question), spec, lexicon)
        ranked_by_a_participle(question_tokens(question), spec, lexicon)
    ranked_elsewhere = (
        superlative_left_out(question_tokens(question), spec, lexicon) if spec else None
    )
    if ranked_elsewhere is not None:
        # "the heaviest diamond's price" answered with the highest price ranked by price,
        # not weight: a superlative naming a column the answer never used is asked about
        result = clarify(
            f"'{ranked_elsewhere[0]}' ranks by {ranked_elsewhere[1]}, which this answer did not "
            f"use: ask for the {ranked_elsewhere[1]} and the other figure by name, e.g. 'the "
            "row with the highest …'.",
            [],
        )
    spec = result.spec
    grouped_by_itself = _grouped_by_its_own_figure(spec) if spec is not None else None
    if grouped_by_itself is not None:
        # "how many cholera deaths for every death from diarrhoea" grouped by `deaths` and
        # adding up `deaths`: each group's total only repeats its own key; asked, never shown
        result = clarify(
            f"I read this as {grouped_by_itself} added up for each value of {grouped_by_itself} "
            "itself, which answers nothing: say which column to group by, or ask for the two "
            "figures by name.",
            [],
        )
    spec = result.spec
    if spec is not None:  # a reading said twice (two words read the same way) is said once
        spec.notes = list(dict.fromkeys(spec.notes))
    pinned = _ranked_group_pinned(spec) if spec is not None else None
    if pinned is not None:
        # "which loan officer approved the most loans" where 'loan officer' is a value of
        # `emp_title`: a ranking of the one group the filter keeps answers nothing
        result = clarify(
            f"'{pinned.said or pinned.value}' is one value of {pinned.column}, so ranking by"
            f" {pinned.column} has a single candidate: which column holds what you rank?",
            [],
        )
    spec = result.spec
    if spec is not None and frame.tokens[:1] == ["when"] and not says_when(spec):
        _when_by_its_row(spec, catalog)
    if spec is not None and asks_when(frame.tokens) and not says_when(spec):
        # "when was the hottest day" answered with the temperature alone would be a figure
        # for another question: a time the data cannot give is asked about
        result = clarify("I couldn't find when in this data: which column says when?", [])
    result.frame = frame
    return result


# Superlatives of a thing's frequency: "the commonest cause" ranks by how many rows
_RANKS_BY_ROWS = frozenset({"busiest", "commonest", "most", "fewest", "least", "top", "bottom"})
# Words saying the rows are what is ranked: "the highest number of crashes"
_SAID_AS_COUNTS = frozenset({"number", "many", "often", "count", "frequent", "common", "popular"})


def _kept_by_size(spec: QuestionSpec, size: GroupSize, notes: list[str]) -> ParseResult | None:
    """ "movies with at least 100 ratings": the groups kept by their row count, or, where
    the things were counted ("how many artists have 10 or more works"), those groups
    counted. Asked where nothing is grouped (the count of what, per what?)."""
    counted = spec.measures[0] if len(spec.measures) == 1 else None
    if not spec.group_by and counted is not None and counted.agg == "count_distinct":
        target = counted.target
        if target is not None and target.column:
            spec.group_by = [GroupBy(target.table, target.column, alias=target.column)]
            spec.measures = [Measure("count", counted.table, None, alias=f"{target.column}_count")]
            spec.groups_counted = True
            spec.notes = [n for n in spec.notes if "distinct values of" not in n]
            notes[:] = [n for n in notes if "distinct values of" not in n]
    if not spec.group_by or spec.listing:
        return clarify(
            f"'{size.said}' counts rows of what? Name what has them, e.g. 'movies with at "
            "least 100 ratings'.",
            [],
        )
    spec.group_rows = (size.op, size.count)
    names = ", ".join(g.column or g.alias for g in spec.group_by)
    words = {">=": "at least", ">": "more than", "<": "fewer than", "<=": "at most"}[size.op]
    notes.append(f"'{size.said}' read as the {names} with {words} {size.count} rows")
    return None


def _said_in_plural(tokens: list[str], target: Target) -> bool:
    """Whether a column is said as a plural noun ("the 5 highest salaries", "prices")."""
    names = {stem(w) for w in identifier_words(target.column or "")}
    return any(stem(t) in names and stem(t) != t for t in tokens)


def _time_of_a_thing(tokens: list[str], spans: list[Span]) -> list[Span]:
    """ "which model year": a text column's name right before a calendar column's is one
    compound noun whose head is the time (the model's year), as English compounds go."""
    out: list[Span] = []
    for span in spans:
        before = out[-1] if out else None
        text = before is not None and all(
            t.kind == "column" and not is_numeric(t.type) for t in before.targets
        )
        adjacent = before is not None and before.end == span.start
        timed = names_calendar(span) and tokens[span.start] in ("year", "month", "day", "date")
        if before is not None and text and adjacent and timed:
            out[-1] = Span(before.start, span.end, span.targets)
            continue
        out.append(span)
    return out


def _quoted(column: str) -> str:
    """A column's name quoted for the SQL expression a grouping or measure holds."""
    return '"' + column.replace('"', '""') + '"'


def _year_of_the_date(spec: QuestionSpec) -> None:
    """ "the first year with unemployment above 10,000" read as the first date: its year."""
    if len(spec.measures) != 1 or spec.measures[0].agg not in ("min", "max"):
        return
    measure = spec.measures[0]
    target = measure.target
    if target is None or not is_temporal(target.type) or not target.column:
        return
    year = Target("column", target.table, f"year({_quoted(target.column)})", type="BIGINT")
    spec.measures = [replace(measure, target=year, alias=f"{measure.agg}_year")]


def _holds_time(catalog: Catalog) -> bool:
    """Whether any table has a date or a calendar column (`year`, `month`) to group by (a
    fact table without one may join one that has)."""
    return any(
        any(is_temporal(c.type) for c in info.columns) or calendar_columns(catalog, name)
        for name, info in catalog.tables.items()
    )


# The values a column saying what period a figure is for holds for each grain.
_GRAIN_VALUES = {
    "year": ("year", "yearly", "annual", "annually"),
    "month": ("month", "monthly"),
    "week": ("week", "weekly"),
    "day": ("day", "daily"),
    "quarter": ("quarter", "quarterly"),
}


def _figures_of_a_grain(catalog: Catalog, table: str, grain: str) -> Filter | None:
    """The rows whose figure is a yearly one, where one text column of few values says so
    ('year' beside 'hour' and 'week' in `salary_type`): one column only, else None."""
    info = catalog.table(table)
    words = _GRAIN_VALUES.get(grain, ())
    found = [
        (c.name, v)
        for c in (info.columns if info is not None else ())
        if not is_numeric(c.type) and 1 < len(c.distinct_values) <= 12
        for v in c.distinct_values
        if v.strip().lower() in words
    ]
    if len({name for name, _ in found}) != 1 or len(found) != 1:
        return None
    column, value = found[0]
    return Filter(table, column, "=", value, label=column)


# The number of a grain within a year read from a date, and the name shown beside it.
_PARTS_OF_A_DATE = {
    "month": (("month", "month"), ("month_name", "monthname")),
    "week": (("week", "weekofyear"),),
    "weekday": (("weekday", "isodow"), ("weekday_name", "dayname")),
}


def _part_of_a_date(catalog: Catalog, spec: QuestionSpec, grain: str | None) -> list[GroupBy]:
    """The groupings of "each month of the year" over the fact table's one date column (or
    the one chosen for it): the month's number, for order, and its name. [] when none."""
    info = catalog.table(spec.fact_table)
    dates = [c.name for c in info.columns if is_temporal(c.type)] if info is not None else []
    date = spec.time_column or (dates[0] if len(dates) == 1 else None)
    if date is None or grain not in _PARTS_OF_A_DATE:
        return []
    return [
        GroupBy(spec.fact_table, f"{func}({_quoted(date)})", alias=alias, is_time=True)
        for alias, func in _PARTS_OF_A_DATE[grain]
    ]


# Adjectives a figure's column may be named by alone: `net` (the net time), `gross`, `boost`.
_QUALIFIERS = frozenset(
    {"net", "gross", "base", "boost", "adjusted", "raw", "nominal", "official", "actual"}
    | {"estimated", "final", "initial"}
)


def _named_by_qualifier(tokens: list[str], span: Span) -> bool:
    """Whether a span is one adjective naming its column by itself (`net` for "net")."""
    columns = [t for t in span.targets if t.kind == "column"]
    return (
        span.end - span.start == 1
        and tokens[span.start] in _QUALIFIERS
        and any((t.column or "").lower() == tokens[span.start] for t in columns)
    )


def _parse(
    question: str,
    catalog: Catalog,
    lexicon: Lexicon,
    semantic: SemanticModel | None,
    values: list[ValueMatch] | None,
) -> ParseResult:
    question = POSSESSED_AVERAGE.sub(r"\2 \1's", scope_said_first(question))
    tokens = question_tokens(question)
    change_kind = ""
    if percent_change_asked(tokens):
        # "by what percentage did prices rise from 1970 to 1980": read as "by how much", the
        # change then taken over the earlier end
        tokens, change_kind = ["by", "how", "much", *tokens[3:]], "percent"
    elif (times := times_larger(tokens)) is not None:
        # "how many times larger was GDP in 2000 than in 1950": the later over the earlier
        tokens, change_kind = times, "ratio"
    elif (as_many := times_as_many(tokens)) is not None:
        # "how many times more men than women are there": the first count over the second
        tokens, change_kind = as_many, "count ratio"
    tokens = rank_by(but_between_limits(edge_of_a_period(tokens)))
    if not change_kind:
        tokens = change_named(tokens)  # "the population growth from 1967 to 2015"
    tokens = compared_either_way(breakdown_of(on_average_last(tokens), lexicon))
    averaged_apart = tokens[:3] in (["how", "much", "more"], ["how", "much", "less"]) and not (
        {"average", "mean", "median", "total", "typical"} & set(tokens)
    )
    tokens = the_number_of_them(preposition_said_once(how_much_more(tokens)))
    averaged_apart = averaged_apart and tokens[-2:] == ["on", "average"]
    tokens, subject_read = _the_one_subject(tokens, lexicon, values or [])
    tokens = _people_counted_by_a_column(tokens, lexicon)
    tokens, gap_read = _gap_of_a_figure(tokens, lexicon, catalog)
    tokens, gap_asked = _difference_asked(tokens, catalog)
    tokens, correlated = correlation_asked(tokens, lexicon)
    converted = unit_to_convert(tokens, catalog)
    if isinstance(converted, ParseResult):
        return converted
    tokens, as_stored_read = converted
    tokens, negated = negated_yes_no(tokens, lexicon, catalog)
    negated_in = list(tokens)  # the words the negated positions count in
    tokens = no_value_held(no_value_recorded(tokens), lexicon, catalog)  # "have no name"
    tokens, values = stored_as_none(tokens, lexicon, catalog, values or [])
    tokens = joined_initialisms(tokens, lexicon)
    # "American-made cars": made where the nationality says, never the column `Make`
    tokens = [
        t
        for i, t in enumerate(tokens)
        if not (t == "made" and i > 0 and tokens[i - 1] in value_synonyms())
    ]
    tokens, season_read = seasons(tokens, catalog)
    tokens = when_ranked(peaked(first_crossing(tokens)), catalog)
    redated = first_period_dated(tokens, catalog)  # "the first month with …" over dates
    # "the first year with …" read as the first date: its year is the answer
    dated_year = any(a == "year" and b == "date" for a, b in zip(tokens, redated, strict=False))
    tokens = redated
    tokens = the_peak(tokens)  # "the peak number of unemployed people"
    tokens, moment_read = moment_of_rows(tokens, lexicon, catalog)
    tokens, vote_read = shares_of_the_vote(tokens, lexicon)
    tokens, loss_read = losses_as_figures(tokens, lexicon)
    tokens, having_read = having_a_number(tokens, lexicon, catalog)
    tokens = kind_of_a_column(tokens, lexicon)
    tokens = two_word_happenings(tokens)
    tokens = ended_with(how_often(tokens, lexicon))
    tokens = new_as_issued(tokens, catalog)
    tokens, period_read = in_one_period(tokens, catalog)
    tokens = common_number_of(per_day_said(ages_said(tokens)))
    tokens = the_average_one(each_combination(end_of_the_data(over_the_whole_period(tokens))))
    tokens = done_to_the_most(tokens, lexicon)  # "rated the most movies"
    tokens = done_the_most_times(tokens, lexicon)  # "cited the most": the most citations
    tokens = weekday_column_named(tokens, lexicon)  # "each day of the week" over `dow`
    tokens = year_before_a_figure(tokens, lexicon)  # "compare 2010 takings"
    tokens = total_number_of(tokens)  # "the total number of episodes": a count
    tokens = widest_range(tokens, lexicon)  # "the widest range of salaries"
    tokens, change_read, change_asked = change_between(tokens)
    tokens, vary_read = varies_with(tokens)
    tokens, range_read = paired_figures(tokens, lexicon)
    tokens = which_has_more(which_single(combined_as_total(said_twice(tokens), lexicon)))
    tokens, sized = group_size_said(tokens, lexicon)  # "movies with at least 100 ratings"
    tokens = among_the_groups(tokens)  # "among movies, which five …"
    tokens = for_the_groups(tokens, lexicon)  # "for publishers, what's the average price"
    # "the difference … between 4 and 8 cylinder cars": two groups, never a range
    ranged = _unit_said_once(tokens, lexicon) if gap_asked else number_range(tokens, lexicon)
    tokens = with_at_least_one_row(ranged, lexicon)
    tokens = measure_of_a_part(tokens, lexicon)
    tokens, sold_read = things_sold(tokens, lexicon)
    tokens = names_asked(tokens)
    tokens = either_of_two(tokens, lexicon, values or [])
    tokens = one_grouping_two_names(tokens, lexicon, values or [])  # "state or territory"
    tokens, qualifier_read = qualifier_of_a_number(tokens, lexicon, values or [])
    won = titles_won(tokens, catalog)  # "how many World Series have the Yankees won"
    if won is not None:
        tokens = won.tokens
    tokens, prize_read = (tokens, "") if won is not None else wins_as_rows(tokens, catalog)
    tokens = without_the_data(tokens, lexicon)
    excluded = next(
        (
            t
            for i, t in enumerate(tokens)
            if t in EXCLUSIONS
            and not _named_negated(tokens, i, catalog)
            and not _value_negated(tokens, i, values or [])
        ),
        None,
    )
    if excluded is not None:
        # "revenue without returns" must never become "revenue of returns": until exclusions
        # are parsed, say so and let the person name what to keep.
        return clarify(
            f"I can't answer questions that exclude something ('{excluded}') yet. "
            "Say which values to keep instead, e.g. 'revenue of completed orders'.",
            [],
        )
    p = ParseState(tokens, set(), catalog, semantic)
    p.negated = moved_positions(negated, negated_in, tokens)
    if len(p.negated) != len(negated):
        # a rewording took the negated word apart: reading its yes would answer the opposite
        return clarify("Which of the yes/no answers do you mean? Say it with 'yes' or 'no'.", [])
    readings = (
        *(season_read, vote_read, loss_read, having_read, qualifier_read, sold_read),
        as_stored_read,
        subject_read,
        gap_read,
        moment_read,
        period_read,
        range_read,
        vary_read,
        change_read,
    )
    p.notes += [n for n in readings if n]
    if averaged_apart:
        p.notes.append("'how much more' read as the difference of the averages")
    p.notes += [won.note] if won is not None else [prize_read] if prize_read else []
    p.per_people = per_people_said(tokens, p.taken, lexicon)  # "murder rate per 100,000 people"
    # "what percentage / share / proportion of …": the filters pick a part of the whole.
    shared = [
        i
        for i, t in enumerate(tokens)
        if t in _SHARE_WORDS
        # "above 10 percent": the number's unit, a comparison's, never a share asked
        and not (t == "percent" and i > 0 and to_number(tokens[i - 1]) is not None)
        and not figure_called_a_share(tokens, i)
    ]
    p.taken.update(i for i in range(len(tokens)) if figure_called_a_share(tokens, i))
    # "survival rate": the share of the rows where `survived` is yes, of its table's rows
    rates = rates_of_yes(tokens, lexicon, catalog)
    shared += [i for i, _ in rates]
    # "the death rate" over `outcome` holding 'dead': the share of the rows with the value
    said_values = {v.word.lower() for v in values or () if v.table}
    value_rates = [
        i
        for i in range(1, len(tokens))
        if tokens[i] in ("rate", "rates")
        and tokens[i - 1] in said_values
        and i not in shared
        and tokens[i + 1 : i + 2] != ["per"]  # "the measles rate per 100,000 people"
    ]
    shared += value_rates
    rated_words = {tokens[i - 1] for i in value_rates}
    p.taken.update(shared)
    p.rate_of = [table for _, table in rates]
    p.shared = bool(shared)
    spec = QuestionSpec()
    spec.time_range = find_period_list(tokens, p.taken) or find_time_range(tokens, p.taken)
    p.one_period = one_period_of(spec.time_range)
    p.one_year = one_year_of(spec.time_range)
    value_filters = filters_of_values(p, values or [], lexicon)
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
            and not starts_a_name(tokens, at, lexicon)  # "30 years of service"
            and not lexicon.lookup(tokens[at : at + 1])  # "over 1 carat": the column `carat`
        ):
            p.taken.add(at)
    p.taken.update(counted_in_total(tokens, p.taken))
    aggs = find_aggregates(tokens, p.taken)
    if any(tokens[start] == "typical" for start, _, _ in aggs):
        p.notes.append("'typical' read as the average (the median is another reading)")
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
        return clarify(
            f"'{several.word.upper()}' could be {', '.join(several.names)}: which one?",
            several.names,
        )
    p.taken.update(across_all(tokens, p.taken, lexicon, p.notes))
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
    weekday_at = day_of_the_week(tokens, p.taken, lexicon)  # "which day of the week"
    if weekday_at is not None:  # the words group by themselves, not as a grain or a name
        group_starts = [g for g in group_starts if g not in weekday_at]
    spec.time_grain = find_time_grain(tokens, p.taken, group_starts)
    if spec.time_range is not None and spec.time_range.grain and spec.time_grain is None:
        spec.time_grain = spec.time_range.grain  # "the 1970s and the 1990s": one row each
    daily_at = next(
        (
            i
            for i in range(1, len(tokens))
            if tokens[i] == "daily" and tokens[i - 1] in AVERAGE_WORDS and i in p.taken
        ),
        None,
    )
    if spec.time_grain == "day" and daily_at is not None and dated_by_day(catalog):
        # "the average daily temperature" over rows dated by the day: each row's own figure
        # averaged, never a row for each day
        spec.time_grain = None
        p.notes.append("'daily' read as each row's own figure (one row a day)")
    periodic_at = next(
        (
            i
            for i in range(1, len(tokens))
            if GRAIN_WORDS.get(tokens[i]) == spec.time_grain
            and spec.time_grain is not None
            and tokens[i - 1] in AVERAGE_WORDS
        ),
        None,
    )
    if periodic_at is not None:
        # "the average monthly pce in 2014": one figure (the monthly figures averaged) or
        # each month's? Read as each month's row, and said, so it is reviewed
        said = " ".join(tokens[periodic_at - 1 : periodic_at + 1])
        p.notes.append(f"'{said}' read as a row for each {spec.time_grain}")
    superlative, superlative_at = find_superlative(tokens, p.taken)
    of_year = part_of_year(tokens, p.taken, spec.time_grain)

    spans = sorted(find_spans(tokens, lexicon, p.taken) + spelled, key=lambda s: s.start)
    p.all_spans = list(spans)
    spans = _time_of_a_thing(tokens, spans)  # "model year": the year
    spans = [year_of_name(p, spec, lexicon, s) for s in spans]
    spans = [rows_named_by_their_table(tokens, s, lexicon) for s in spans]
    spans = _of_the_parent_table(tokens, spans, catalog, p.notes)
    for k, span in enumerate(spans):
        variants = [t for t in span.targets if t in lexicon.numbered_variants]
        same_table = [t for t in span.targets if t.kind == "column" and is_numeric(t.type)]
        if len(same_table) > 1 and len({t.table for t in same_table}) == 1:
            variants = same_table  # two numbers of one table under one name: never the first
        if len(variants) > 1 and len(variants) == len(span.targets):
            unnegated = negation_told_apart(tokens, span.start, variants)
            if unnegated is not None:
                # "students working" over count_working and count_not_working: the one the
                # question's own negation (or its absence) names
                spans[k] = replace(span, targets=(unnegated,))
                continue
            codes = column_codes(variants) or {}
            # the brand's words may have been read as its code value (Purchase = 'CH')
            code_values = [(m, w) for m, w in value_filters if m.value.lower() in codes]
            code_positions = {i for m, _ in code_values for i in _positions(tokens, m.word)}
            code_busy = (p.taken - code_positions) | set(range(span.start, span.end))
            code_owner = code_said(tokens, code_busy, codes)
            if code_owner is not None:
                # "the list price of Citrus Hill" over PriceCH and PriceMM: the column whose
                # code the brand's initials spell; every row holds both, so no filter
                code_column, code_at = code_owner
                value_filters[:] = [
                    f
                    for f in value_filters
                    if f not in code_values or not code_positions & set(code_at)
                ]
                p.taken.update(code_at)
                code_said_as = " ".join(tokens[i] for i in code_at)
                p.notes.append(f"'{code_said_as}' read as {code_column.column}")
                spans[k] = replace(span, targets=(code_column,))
                continue
            headline = _shortest_window(variants, lexicon)
            if headline is not None:
                # "viewers" over viewers_7day and viewers_28day: one measure kept over
                # windows of time; the shortest is the one reported first (the headline
                # figure). Said, and reviewed, with the others named
                also = ", ".join(t.column or "" for t in variants if t != headline)
                p.notes.append(
                    f"'{span_text(tokens, span)}' read as {headline.column}, the shortest window"
                    f" ({also} also in the data)"
                )
                spans[k] = replace(span, targets=(headline,))
                continue
            # "score" over score1 and score2: which number is meant is asked
            names = [f"{t.table}.{t.column}" for t in variants]
            said = span_text(tokens, span)
            return clarify(f"'{said}' could be {' or '.join(names)}: which one?", names)
    for span in spans:
        p.taken.update(range(span.start, span.end))
    p.notes += average_of_a_range(tokens, spans, catalog)
    named_share = [
        i
        for i in shared
        if any(
            s.end == i
            and names_number(s)
            # "the callback rate" over a 0/1 `received_callback`: a share of its 1s
            and not any(yes_no_column(t, catalog) for t in s.targets)
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
    parent = parent_table(catalog) if len(catalog.tables) > 1 else None
    abbreviated = find_abbreviated(
        tokens, lexicon, p.taken, GLUE_WORDS, parent.name if parent is not None else None
    )
    if isinstance(abbreviated, list):
        for span in abbreviated:
            p.taken.update(range(span.start, span.end))
            if span.guessed:  # "state" for `Outstate` may be out-of-state: said, reviewed
                said = " ".join(tokens[span.start : span.end])
                p.notes.append(f"'{said}' read as {span.targets[0].column}")
        spans = sorted(spans + abbreviated, key=lambda s: s.start)
    else:
        word, names = abbreviated
        return clarify(f"'{word}' could be {', '.join(names)}: which one?", names)

    spans, aggs = names_with_aggregate_words(tokens, spans, aggs, lexicon)
    spans = verb_of_a_name(tokens, spans, p.taken, lexicon)
    numbered = numbered_columns(tokens, spans, p.taken, catalog)
    absorb_head_nouns(tokens, spans, p.taken, lexicon)
    by_adjective = adjective_spans(tokens, spans, p.taken, lexicon, comparisons, superlative_at)
    p.adjectives = {s.start for s in by_adjective}
    spans = sorted(spans + by_adjective, key=lambda s: s.start)
    # "players who hit more than 20 home runs": a verb said before the figure it does is the
    # action, never a column of its own (`Hits` beside `HmRun`) to compare or rank by
    spans = [s for s in spans if not verb_before_its_figure(tokens, s, spans)]
    p.taken.update(verbs_of_figures(tokens, spans, p.taken))
    column_filters, compared_spans = column_comparisons(tokens, spans, p.taken)
    spans = [s for s in spans if s not in compared_spans]
    # "discipline A", "class B": a column's name, then one of its values, however short.
    value_filters += [(m, None) for m in named_values(tokens, spans, p.taken, catalog)]
    value_filters += [(m, None) for m in initial_codes(tokens, spans, p.taken, catalog)]
    missing = [s for s in spans if is_missing(tokens, s, p.taken)]
    known = [s for s in spans if s not in missing and is_known(tokens, s, p.taken)]
    dated_by = date_verb(tokens, p.taken, catalog) if spec.time_range or spec.time_grain else None
    if spec.time_range is not None and dated_by is None:
        # "processors released in 2018": a verb naming a date column dates the rows by it
        verbed = [s for s in spans if verb_of_a_date(tokens, s)]
        if len(verbed) == 1:
            dated = verbed[0].targets[0]
            dated_by = (dated.table, dated.column or "")
            spans.remove(verbed[0])
    durations_named(tokens, spans, p.taken, lexicon)  # "weeks of unemployment"
    p.taken.update(units_of_columns(tokens, spans, p.taken))
    p.taken.update(whole_scope(tokens, p.taken, lexicon, places_named(catalog, lexicon)))
    # A number nothing explained (a year range, a count) is never dropped: "between 2010
    # and 2015" read without its years would answer for every year.
    # "affected more than 100,000 people": people counted by the number, not a column
    p.taken.update(
        i
        for i in range(1, len(tokens))
        if tokens[i] in people()
        and (to_number(tokens[i - 1]) is not None or tokens[i - 1] in NUMBER_SCALES)
    )
    if any(tokens[i : i + 2] == ["over", "time"] for i in range(len(tokens))):
        # "how did GDP change over time": the verb only says a trend is asked, which "over
        # time" already says (and "the change in GDP from 2000 to 2010" stays unread)
        p.taken.update(i for i, t in enumerate(tokens) if t in _TREND_VERBS)
    # "the average price of a new textbook at the bookstore" over `bookstore_new`: a word
    # saying what kind of figure it is, before "of" and a number column named by a guess
    for i, t in enumerate(tokens[:-2]):
        if t not in FIGURE_NOUNS or i in p.taken or tokens[i + 1] != "of" or lexicon.lookup([t]):
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
        if a_happening(t, lexicon)
        and i not in p.taken
        # "his pitches", "how many tests": after a determiner the word is a noun, never
        # the verb ("pitched") it shares a root with
        and not (i > 0 and tokens[i - 1] in DETERMINERS and t not in happenings())
    )
    # "break down the strikes by phase", "a breakdown of …": a grouping the "by" says
    p.taken.update(
        i
        for i, t in enumerate(tokens)
        if t == "breakdown"
        or (t == "break" and tokens[i + 1 : i + 2] == ["down"])
        or (t == "down" and i > 0 and tokens[i - 1] == "break")
    )
    named_rows = table_name_words(catalog)
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
    entity = row_entity(
        tokens, p.taken | p.kinds, unresolved, catalog, superlative_at, named_tables
    )
    if entity is not None and _proper_names(question, tokens[entity[0][0] : entity[0][1]]):
        # "how many home runs did the Yankees hit": a name the data lacks, never its rows
        entity = None
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
        spans = entity_qualified(tokens, spans, p.taken, lexicon, entity[0])
        unresolved = [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]
    unresolved = drop_comparison_words(tokens, unresolved, p.taken, spans, comparisons)
    for c in comparisons:
        # "arrests of people under 18": the people are those whose age it is
        if age_of_people(tokens, c, lexicon, None) is not None:
            people_at = [
                i for i in range(max(0, c.op_start - 2), c.op_start) if tokens[i] in people()
            ]
            p.taken.update(people_at)
            unresolved = [t for i, t in enumerate(tokens) if i not in p.taken and t in unresolved]
    value_filters = narrowed_by_noun(tokens, value_filters)
    unresolved = drop_value_nouns(tokens, unresolved, p.taken, value_filters)
    unresolved = drop_modifiers(tokens, unresolved, p, spans)
    unresolved = drop_value_modifiers(tokens, unresolved, p, value_filters)
    if unresolved:
        return clarify_unresolved(unresolved)

    # Roles: a span right after a grouping word (or after "top N"/"which") is a grouping.
    group_spans = [
        head_of_compound(s, spans) for s in spans if follows(s, group_starts, tokens, spans)
    ]
    if after_top is not None:
        group_spans += [s for s in spans if s.start == after_top and s not in group_spans]
    asked_what = tokens[:2] in (["what", "is"], ["what", "are"], ["what", "were"], ["what", "was"])
    if tokens[:1] in (["which"], ["who"]) or (
        (asked_what or tokens[0] in SHOW_WORDS) and superlative is not None
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
        ranks_calendar = adjective is not None and names_calendar(adjective)
        if (
            adjective is not None
            and not frequency
            and names_number(adjective)
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
                        and (tokens[0] in ("which", "who", "what") or tokens[0] in SHOW_WORDS)
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
                            or (names_calendar(s) and superlative_at in p.adjectives)
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
                    and any(yes_no_column(t, catalog) for t in s.targets)
                )
            ),
            None,
        )
        if spec.time_grain is not None and tokens[1:2] and tokens[1] in CALENDAR_WORDS:
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
            and weekday_at is None  # "which day of the week saw the most murders": the days
        ):
            group_spans.append(first)
            limit = limit or 1
            # "which cut and color has the highest price": both, together, ranked
            second = next((s for s in spans if s.start == first.end + 1), None)
            if (
                tokens[first.end : first.end + 1] == ["and"]
                and second is not None
                and second not in group_spans
                and all(t.kind == "column" and not is_numeric(t.type) for t in second.targets)
            ):
                group_spans.append(second)
        elif tokens[:3] == ["which", "number", "of"] and superlative is not None:
            limit = limit or 1  # one number of gears, ranked first
        elif (
            tokens[:1] == ["which"]
            and superlative is None
            and not aggs
            and (comparisons or value_filters)
            and first is not None
            and first not in group_spans
            and not names_number(first)
        ):
            group_spans.append(first)  # "which countries … had a life expectancy above 75"
    # "top 5 products by revenue": what follows "by" is the ranking measure when it is one.
    if len(group_spans) > 1 or after_top is not None or superlative is not None:
        ranking_asked = after_top is not None or superlative is not None
        group_spans = [
            s
            for s in group_spans
            # "top 3 segments by orders": ranked by the metric `orders`, not grouped by order
            if not names_measure(s, aggs)
            and not (ranking_asked and s is not group_spans[-1] and names_a_metric(s))
        ] or group_spans[:1]
    if after_top is not None and len(group_spans) > 1:
        # "top 5 counties by population density": what follows "by" is a number to rank by
        group_spans = [s for s in group_spans if not ranks_by(s)] or group_spans
    if p.per_people is not None and len(group_spans) > 1:
        # "top 5 states by murder rate per 100,000 people": what the rate counts
        group_spans = [s for s in group_spans if s.end != p.per_people[2]] or group_spans
    # "bookings made by repeat guests": after a participle, "by" names who did it, a
    # condition when it is a yes/no column, not a grouping
    group_spans = [s for s in group_spans if not agent_of_participle(tokens, s, catalog)]
    for span in group_spans:
        if span.guessed and any(is_numeric(t.type) for t in span.targets):
            # "which state" read into `Outstate` (tuition): grouping by a number guessed
            # from part of its name would answer another question; asked
            guess = span.targets[0].column or ""
            return clarify(
                f"I couldn't find '{tokens[span.start]}' in this database as something to "
                f"group by. Did you mean {guess}?",
                [guess],
            )
    comparison_spans = {c.op_start: compared_span(spans, c, tokens) for c in comparisons}
    unit_read: set[Span] = set()
    for c in comparisons:
        named = comparison_spans[c.op_start]
        if named is not None and names_calendar(named) and unit_after(tokens, c):
            # "days above 85 degrees": a count of days is not measured in degrees; the
            # column the unit measures, when one column does, and said; else asked
            quantity = quantities().get(unit_after(tokens, c) or "", "")
            found = [t for t in lexicon.lookup([quantity]) if names_number(Span(0, 1, (t,)))]
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
            if names_number(s)
            and s not in group_spans
            and s not in comparison_spans.values()
            and not names_calendar(s)  # "on how many days did …": the days are counted
        ]
        if counting and not names_number(named) and len(others) == 1:
            # "how many cars get less than 15 mpg in the city": the one number the question
            # names is what is compared, and the cars are counted
            comparison_spans[op_start] = others[0]
    used = set(group_spans) | {
        s
        for s in comparison_spans.values()
        # "smokers under 25": a yes/no column said before a number it cannot be compared
        # with stays a condition (the age is found apart)
        if s is not None
        and (names_number(s) or not any(yes_no_column(t, catalog) for t in s.targets))
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
        if (s := unit_span(spans, c, tokens)) is not None
        and not any(yes_no_column(t, catalog) for t in s.targets)
    }
    measure_spans = [s for s in spans if s not in used]
    yes_filters = yes_no_filters(p, measure_spans, aggs)
    measure_spans = [s for s in measure_spans if s not in yes_filters]
    if len(measure_spans) > 1:
        # "average ozone on days warmer than 80": `Day` says what the rows are, it is not
        # a second measure beside the one named.
        measure_spans = [s for s in measure_spans if not names_calendar(s)] or measure_spans
    # "total sales volume": two numbers named back to back are one compound noun whose last
    # word is the measure (`volume`), the first only qualifying it; unless the first is an
    # adjective a column is named by ("net time" over `net` and `time`: the net)
    measure_spans = [
        s
        for s in measure_spans
        if not (
            names_number(s)
            and any(
                o.start == s.end and names_number(o) and not _named_by_qualifier(tokens, s)
                for o in measure_spans
            )
        )
        and not any(
            o.end == s.start and names_number(o) and _named_by_qualifier(tokens, o)
            for o in measure_spans
        )
    ]
    # "fair cut diamonds": `cut` names the value's column; the diamonds are what is counted.
    kept = {(m.table.lower(), m.column.lower()) for m, _ in value_filters}
    p.named_rows = {m.table.lower(): m.value for m, _ in value_filters if names_rows(catalog, m)}
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
    listed = listed_table(tokens, naming, aggs, group_spans, superlative, limit)
    if listed is not None and spec.time_grain is None:
        spec.listing, spec.fact_table = True, listed
    else:
        compared = [s for s in comparison_spans.values() if s is not None]
        p.pinned = {(m.table.lower(), m.column.lower()) for m, _ in value_filters}
        p.one_row_groups = bool(group_spans) and all(one_row_each(catalog, s) for s in group_spans)
        p.rows_are_things = bool(group_spans) and all(
            (len(cols := columns_of(s)) == 1 and rows_are_the_things(catalog, cols[0]))
            # "top 5 cars by horsepower": the table's own rows, each its own figure
            or (not cols and limit is not None and all(t.kind == "table" for t in s.targets))
            for s in group_spans
        )
        p.one_row_labels = bool(group_spans) and all(
            one_row_each(catalog, Span(s.start, s.end, columns_of(s))) for s in group_spans
        )
        p.row_ranked = ranks_single_rows(tokens, spans, superlative_at)
        p.groups_are_labels = bool(group_spans) and all(
            (c.column or "").lower() in ROW_LABELS for g in group_spans for c in columns_of(g)
        )
        p.group_tables = {t.table for g in group_spans for t in g.targets if t.kind == "column"}
        measures = read_measures(
            p,
            measure_spans,
            aggs,
            superlative,
            bool(group_spans) or limit is not None,
            superlative_at=superlative_at if tokens[:1] not in (["which"], ["who"]) else None,
            entity_grouped=any(t.kind == "table" for s in group_spans for t in s.targets),
            time_grain=spec.time_grain,
            counted_instead=[t.table for s in compared for t in s.targets if t.kind == "column"],
            near=filtered_table(value_filters, compared)
            or said_in_table(tokens, measure_spans)
            # "the highest share of smokers": the table of the yes/no condition
            or next((f.table for f in yes_filters.values()), None),
        )
        if isinstance(measures, ParseResult) and p.per_people is not None:
            # "the measles rate per 100,000 people": what is counted is the tally column of
            # the table the values or the names point at (`count`, `total`)
            tally = tally_for_rate(catalog, spans, [m for m, _ in value_filters])
            measures = [Measure("sum", tally.table, tally)] if tally is not None else measures
        if isinstance(measures, ParseResult):
            return measures
        averaged = any(agg == "avg" for _, _, agg in aggs)
        if averaged and any(m.agg == "count" and m.target is None for m in measures):
            # "on average, how many bakers appeared per episode": an average of counts.
            return clarify(
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
                    or names_each_row(catalog, g)
                )
            ]
            group_spans = [g for g in group_spans if g not in per_row]
            p.notes += [
                f"'per {span_text(tokens, g)}' read as each row of {fact}"
                for g in per_row
                if names_each_row(catalog, g)
            ]
        ratio = next((g for g in group_spans if _ratio_per(tokens, g, measures)), None)
        if ratio is not None and _divided_per_row(p, ratio, measures, aggs):
            group_spans = [g for g in group_spans if g is not ratio]
            ratio = None
        if ratio is not None:
            # "the median price per carat": price divided by carat, a figure of each row; a
            # group for each of 273 carat weights would answer another question. Asked.
            said = span_text(tokens, ratio)
            return clarify(
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
            return clarify(f"Rank by which: {' or '.join(names)}?", names)
        if p.per_people is not None:
            rated = rates_per_people(p, measures)
            if isinstance(rated, ParseResult):
                return rated
            measures = rated
        spec.measures = measures
        spec.fact_table = measures[0].table
        spec.once_per = p.once_per
    for span in group_spans:
        if day_of_rows(p, span, spec, superlative, limit):
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
            said = span_text(tokens, span)
            return clarify(f"I couldn't find '{said}' in this database: which column is it?", [])
        groups = _grouping(p, span, spec.fact_table)
        if not groups and ranks_its_rows(p, span, spec, superlative, limit):
            # "the 3 heaviest diamonds" on a table with no name column: its rows themselves,
            # whole, the heaviest first (a row has no label to group it by)
            spec.listing = True
            limit = limit or 1
            continue
        if not groups:
            return clarify(f"I can't group by '{span_text(tokens, span)}' here.", [])
        spec.group_by.extend(groups)
    if weekday_at is not None:
        # the day of the week each row's date falls on: its number, for order, and its name
        weekdays = _part_of_a_date(catalog, spec, "weekday")
        if not weekdays:
            return clarify("I found no date column to read the day of the week from.", [])
        spec.group_by += weekdays
        limit = limit or (1 if superlative is not None else None)  # "which day … the most"
    if dated_year:
        _year_of_the_date(spec)  # "the first year with …" over dates: the date's year
    if sized is not None:
        unkept = _kept_by_size(spec, sized, p.notes)
        if unkept is not None:
            return unkept
    rng = spec.time_range
    if rng is not None and spec.fact_table and timeless(p, rng):
        # "home runs in 1986" over a table of one season's figures with no date or year
        # anywhere: the year cannot be checked, so every row is read, and that is said
        p.notes.append(
            f"'{rng.said}' not applied: {spec.fact_table} has no date or year, so its rows "
            "were read as that year's"
        )
        spec.time_range = rng = None
    if rng is not None and rng.each and not spec.listing:
        # "average unemployment in 1990 and 2010": a row for each period named.
        period = period_group(catalog, spec.fact_table, "year" if rng.years else "month")
        if period is None:
            return clarify(f"I found no date column on {spec.fact_table} for those periods.", [])
        if spec.time_grain is None and all(g.column != period.column for g in spec.group_by):
            spec.group_by.append(period)
    implicit = "trend" in tokens or any(
        tokens[i : i + 2] == ["over", "time"] for i in range(len(tokens))
    )
    parts = calendar_columns(catalog, spec.fact_table) if spec.fact_table else {}
    if spec.time_grain == "month" and implicit and "year" in parts and "month" not in parts:
        spec.time_grain = "year"  # "over time" on a table kept by year: by year
    said_grain = next(
        (t for t in tokens if spec.time_grain and GRAIN_WORDS.get(t) == spec.time_grain), None
    )
    if said_grain and spec.fact_table and not _holds_time(catalog):
        # "the highest annual salary" over a table with no date or year: a yearly figure,
        # not one to add up per year; where a column says which figures are yearly
        # (`salary_type` 'year' beside 'hour'), those rows
        kind = _figures_of_a_grain(catalog, spec.fact_table, spec.time_grain or "")
        if kind is not None:
            spec.filters.append(kind)
            p.notes.append(f"'{said_grain}' read as {kind.column} = {kind.value}")
        else:
            p.notes.append(f"'{said_grain}' read as describing the figure (no dates to group by)")
        spec.time_grain = None
    if spec.time_grain in ("month", "week", "day") and not spec.listing:
        split = calendar_columns(catalog, spec.fact_table)
        part = split.get(spec.time_grain)
        if of_year and part is None:  # a date beside its own `month` number: that column
            part = own_calendar_column(catalog, spec.fact_table, spec.time_grain)
        if of_year and part is not None:
            # "for each month of the year": the month number, all years together.
            spec.group_by.append(GroupBy(spec.fact_table, part, alias=part, is_time=True))
            spec.time_grain = None
        elif of_year and (within := _part_of_a_date(catalog, spec, spec.time_grain)):
            # "which month of the year has the most crashes" over a `date`: July, all years
            spec.group_by += within
            spec.time_grain = None
        elif of_year:
            return clarify(
                f"Each {spec.time_grain} of the year, all years together, is not something I "
                f"can group by here yet; ask per {spec.time_grain} instead.",
                [],
            )
        elif part is not None and "year" in split and spec.time_range is None:
            # "per month" over a table with year and month columns: each month in turn
            # (2015-01, 2015-02 ...) or each month of the year, years together?
            return clarify(
                f"Per {spec.time_grain} in turn ({spec.time_grain}s of each year apart), or "
                f"per {spec.time_grain} of the year (all years together)?",
                [f"per {spec.time_grain}", f"per {spec.time_grain} of the year"],
            )
    previous: Target | None = None  # the column of the comparison before, if any
    for comparison in comparisons:
        named = comparison_spans[comparison.op_start]
        column = pick_column(named, spec.fact_table, numeric=True) if named else None
        # the words the comparison was said in, once ("children under 12")
        what = " ".join(tokens[max(0, comparison.op_start - 1) : comparison.value_end])
        if column is None and previous is not None and tokens[comparison.op_start - 1] == "and":
            # "earn more than 100,000 and less than 150,000": the second limit is of the
            # column the first was
            column = previous
        following = next((c for c in comparisons if c.op_start == comparison.value_end + 1), None)
        if column is None and following is not None and tokens[comparison.value_end] == "and":
            # "between 1 and 2 carats": the column said after the second limit is the first's
            later = comparison_spans[following.op_start]
            column = pick_column(later, spec.fact_table, numeric=True) if later else None
        if column is None and not names_number(named):
            column = sale_price(tokens, comparison, catalog, spec.fact_table)
            if column is not None:
                p.notes.append(f"'{what}' read as {column.column}")
        if column is None and not names_number(named):
            column = population_of(tokens, comparison, catalog, spec.fact_table)
            if column is not None:  # "'more than 1 million people' read as poptotal"
                people_said = " ".join(tokens[comparison.op_start : comparison.value_end + 1])
                p.notes.append(f"'{people_said}' read as {column.column}")
                asked = spec.time_range
                years_said = (
                    ({str(y) for y in asked.years} or {asked.start[:4]}) if asked else set()
                )
                if any(year in (column.column or "") for year in years_said):
                    spec.time_range = None  # "in 2021" of `population_2021`: its own year
        if column is None and not names_number(named):
            column = age_of_people(tokens, comparison, lexicon, spec.fact_table)
            if column is not None:
                p.notes.append(
                    f"'{what}' read as {column.column} {comparison.op} {comparison.value}"
                )
        if column is None and not names_number(named):
            # "flights that covered over 1,000 miles": the one column measuring miles'
            # quantity without a unit of its own (`distance`); said, the unit unchecked
            column = measured_by_unit(tokens, comparison, catalog)
            if column is not None:
                p.notes.append(f"'{tokens[comparison.value_end]}' read as {column.column}")
        if column is None:
            return clarify(f"Which numeric column should '{what}' apply to?", [])
        if comparison.percent and not is_rate(column.column or ""):
            # "a savings rate above 10%" over `psavert`: its figures may be percentages
            # (10) or fractions (0.10); nothing in its name says which, so said
            p.notes.append(f"'{what}' read as {column.column} {comparison.op} {comparison.value}")
        limit_value: Any = comparison.value
        if comparison.average:  # "above the average": the column's own average
            limit_value = AverageOf(column.table, column.column or "")
        spec.filters.append(
            Filter(column.table, column.column or "", comparison.op, limit_value, column.label)
        )
        previous = column
    spec.filters += column_filters
    for span in missing:  # "days missing an ozone reading": the rows with no value there
        target = pick_column(span, spec.fact_table, numeric=False)
        if target is not None:
            spec.filters.append(
                Filter(target.table, target.column or "", "is null", None, label=target.label)
            )
    for span in known:  # "characters with a known birth year": the rows with a value there
        target = pick_column(span, spec.fact_table, numeric=False)
        if target is not None:
            spec.filters.append(
                Filter(target.table, target.column or "", "is not null", None, label=target.label)
            )
    numbered_values: dict[tuple[str, str, str], list[int | str]] = {}
    for span, number in numbered:  # "series 5": the column's value, not a measure
        target = pick_column(span, spec.fact_table, numeric=True) or pick_column(
            span, spec.fact_table, numeric=False
        )
        if target is not None:
            value: int | str = number if is_numeric(target.type) else str(number)
            coded = coded_numbers(catalog, target) if isinstance(value, str) else {}
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
    chosen = choose_value_filters(
        value_filters, spec.fact_table, catalog, counted_columns, said_columns
    )
    if isinstance(chosen, ParseResult):
        return chosen
    joined_filters = [f for f in chosen if f.op in ("has", "starts")]
    kept_apart = {"compare", "compared", "vs", "versus", "or", "than"} & set(tokens)
    lists_joined = any(f.op == "has" for f in joined_filters)
    if (
        kept_apart
        and lists_joined
        and len({(f.table, f.column) for f in joined_filters}) < len(joined_filters)
    ):
        # "compare comedies with horror films" over genres listing several ('Comedy|Horror'):
        # both filters at once would keep only the rows listing both; each is asked alone
        each_said = " and about ".join(f"'{f.said or f.value}'" for f in joined_filters)
        return clarify(
            f"Rows of {joined_filters[0].column} can list several at once: ask about"
            f" {each_said} in two questions, and I'll answer each.",
            [f"{f.column} lists {f.value}" for f in joined_filters],
        )
    for span, yes_filter in list(yes_filters.items()):
        also_said = next(
            (
                f
                for f in chosen
                if f.op == "=" and (f.table, f.column) == (yes_filter.table, yes_filter.column)
            ),
            None,
        )
        if also_said is not None and also_said.value != yes_filter.value:
            # "with an airbag (the value 'airbag') compared with those without one": both
            also_said.op, also_said.value = "in", [also_said.value, yes_filter.value]
            del yes_filters[span]
    chosen += both_answers(list(yes_filters.values()))
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
    p.notes += kinds_named_as_the_rows(p, value_filters)
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
        and (f.column.lower() in LABELS or one_row_each(catalog, column_span(f, catalog)))
    ]
    if entity is not None and labelled and any(m.agg == "count" for m in spec.measures):
        # "how many movies did Yoda appear in": Yoda is one row; what is counted is not here.
        return clarify(
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
    ranked_figure = spec.measures[0].target if len(spec.measures) == 1 else None
    if (
        limit is not None
        and limit > 1
        and not spec.group_by
        and not spec.listing
        and superlative is not None
        and ranked_figure is not None
        and spec.measures[0].agg in ("max", "min")
        and _said_in_plural(tokens, ranked_figure)
    ):
        # "the 5 highest salaries": the rows holding them, the highest first, whole
        spec.listing = True
    if limit is not None and limit > 1 and not spec.group_by and not spec.listing:
        # "the 5 most populous countries" must list five of something, never one number
        return clarify(f"The top {limit} of what? Name what to rank, e.g. a name column.", [])
    # ... never over timed observations of named things (a sensor is no "who")
    sightings = observation_label(catalog, spec.fact_table) if spec.fact_table else None
    ranks_people = superlative is not None and sightings is None
    named_by = one_name_column(catalog, spec.fact_table) if ranks_people else None
    if tokens[:1] == ["who"] and not spec.group_by and not spec.listing and named_by:
        # "who is the youngest Best Actor winner": the rows ranked, each said by its name
        spec.group_by.append(GroupBy(spec.fact_table, named_by, alias=named_by))
        limit = limit or 1
    named_by = named_by or (one_name_column(catalog, spec.fact_table) if spec.filters else None)
    if tokens[:1] == ["who"] and not spec.group_by and not spec.listing and named_by:
        # "who won series 5": the rows kept, each said by its name (a row with none unsaid)
        spec.group_by.append(GroupBy(spec.fact_table, named_by, alias=named_by, named=True))
    if tokens[:1] == ["who"] and not spec.group_by and not spec.listing:
        # "who is the oldest baker" answered with only the age would not say who.
        return clarify("Who, by which name? Name the column that says who, e.g. a name.", [])
    quality = tokens[superlative_at] if superlative_at is not None else ""
    if (
        quality
        and quality not in _RANKS_BY_ROWS
        and not _SAID_AS_COUNTS & set(tokens)
        and not p.shared  # "the highest churn rate": a share of the rows, ranked
        and spec.measures
        and all(m.agg == "count" and m.target is None for m in spec.measures)
    ):
        # "which cause of crashes is the deadliest": a quality, not how many crashes each
        # has; which number says it (all deaths, or deaths per crash) is asked
        return clarify(f"'{quality}' by which column? Name the number to rank by.", [])
    shaped = spec.group_by or limit or any(m.agg in ("min", "max") for m in spec.measures)
    if superlative is not None and not shaped and not spec.listing:
        # "who is the oldest baker": a superlative that ranks nothing must not leave a count.
        word = tokens[superlative_at] if superlative_at is not None else "that"
        return clarify(f"'{word}' by which column? Name the number to rank by.", [])
    aged = age_of_a_year(tokens, superlative_at, spec)
    if aged is None and (judged := best_or_worst(tokens, superlative_at, spec)) is not None:
        aged = judged[0]
        spec.notes.append(judged[1])
    if aged is None and (timed := fastest_or_slowest(tokens, superlative_at, spec)) is not None:
        aged = timed[0]  # "the fastest net time": the lowest
        spec.notes.append(timed[1])
    if aged is not None:
        superlative = aged
        spec.measures = [
            replace(
                m,
                agg=_AGE_ENDS_AS_AGG[aged],
                alias=m.alias.replace(m.agg, _AGE_ENDS_AS_AGG[aged], 1),
            )
            if m.agg in ("min", "max")
            else m
            for m in spec.measures
        ]
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
        return clarify(
            "That asks which rows, and I could only count them: ask 'how many …', or for a "
            "list by a name column ('list the team names where …').",
            [],
        )
    one_of_a_kind_ranked(tokens, spec, superlative_at, value_filters)
    kinds_of_observed_things(tokens, spec, catalog, value_filters)
    at_an_end = value_at_a_time_end(tokens, catalog, spec, superlative_at)
    if at_an_end is not None:
        return at_an_end
    choose_time_column(catalog, spec, dated_by, p.notes)
    people_held_in_a_tally(tokens, spec, catalog, p.notes)
    tallied = {f"each row of {t} counted as one" for t, _ in p.tallied}
    if tallied:  # "cases" read as the tally column: the rows were not counted after all
        spec.notes = [n for n in spec.notes if not n.startswith(tuple(tallied))]
    spec.notes += p.notes + counted_in_one_of_many(catalog, spec)
    if tokens[:2] == ["how", "much"] and all(
        m.agg == "count" and m.target is None for m in spec.measures
    ):
        # "how much did the Tate pay for …" asks an amount: a count of rows is no amount
        return clarify("How much of what? Name the number to add up, e.g. a price column.", [])
    if shared and not spec.filters and spec.group_by and not spec.listing and limit is None:
        spec.share_of_groups = True  # "what share of all sales does each city account for"
    elif (
        shared
        and not spec.filters
        and spec.time_range is not None
        and limit is None
        and not {"have", "has", "had", "with"} & set(tokens)  # "had a winning record in 2019"
    ):
        # "what share of the works were made in the 1990s": the period is the part
        if spec.listing:
            return clarify("A share of what? Say which rows make the part.", [])
        spec.share_of_period = True
    elif shared:
        conditions = [f for f in spec.filters if any(f is y for y in yes_filters.values())]
        # "the fatality rate of drivers": the value named before "rate" is the part too
        conditions += [
            f
            for f in spec.filters
            if f.op == "=" and (f.said or "").lower() in rated_words and f not in conditions
        ]
        # "which state has the highest churn rate": a yes/no condition's share in each group,
        # ranked; any other ranking of a share has no part to take
        ranked_share = limit is not None and bool(spec.group_by) and bool(conditions)
        if not spec.filters or spec.listing or (limit is not None and not ranked_share):
            return clarify(
                f"A {tokens[shared[0]]} of what? Say which rows make the part, e.g. "
                "'what percentage of orders are from the web channel'.",
                [],
            )
        if conditions and (len(conditions) < len(spec.filters) or ranked_share):
            # "the survival rate of women", "what percentage of women survived": the yes/no
            # condition is the part, the other filters pick the rows it is a part of.
            spec.share_of = conditions
            spec.filters = [f for f in spec.filters if not any(f is c for c in conditions)]
        elif (kinds := whole_and_part_of_one_column(tokens, shared[0], spec)) is not None:
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
            whole = of_the_whole(tokens, shared[0], spec.filters)
            spec.share_of = [f for f in spec.filters if not any(f is w for w in whole)]
            spec.filters = whole
        rows = [f for f in spec.share_of if f.op == "=" and said_before(tokens, f, p.shared_at)]
        summed = [m.target.column for m in spec.measures if m.agg == "sum" and m.target]
        if rows and len(rows) == len(spec.share_of) and summed:
            # "what percentage of nurses are women" where `women` is a number on each
            # occupation's row: the value comes first and the number after it, so the row's
            # own figure, or its part of the column's total? ("what percentage of sales came
            # from Austin" names the number first: a share.)
            figure, row = summed[0], rows[0].value
            return clarify(
                f"'{figure}' is a number on each row: do you mean the {figure} of {row}, or "
                f"the share of {row} in the total {figure}?",
                [f"{figure} of {row}", f"share of total {figure}"],
            )
        for f in spec.share_of:
            if f.op == "=" and mostly_distinct(catalog, Target("column", f.table, f.column)):
                # "what percentage of the courses are independent study": one course title
                # among thousands is an odd part; the kind may be said elsewhere, so said
                spec.notes.append(f"the part read as the rows whose {f.column} is {f.value}")
    unranked = text_ranked_by_rows(p, spec)
    if unranked is not None:
        return unranked
    _leave_out_catch_alls(spec, catalog)
    _grain_kept_as_text(spec, catalog)
    if correlated is not None and not _correlation_of(spec, correlated):
        return clarify(
            "A correlation of which two numbers? Name both, e.g. 'the correlation between "
            "temperature and ozone'.",
            [],
        )
    two_years = spec.time_range is not None and len(spec.time_range.years) == 2
    if change_asked and two_years and spec.time_grain == "year" and not spec.group_by:
        # "did the yearly takings grow from 1998 to 2015": the two years' figures, one each
        yearly = period_group(catalog, spec.fact_table, "year")
        if yearly is not None:
            spec.group_by.append(yearly)
            spec.time_grain = None
    if change_asked and not _difference_of_two(spec, years=True):
        # "how much did it grow from 1950 to 2019": the later end minus the earlier, when the
        # two ends are values of one column; else both ends side by side, and said so
        side_by_side = change_read.replace(" minus in ", " and in ")
        spec.notes = [side_by_side if n == change_read else n for n in spec.notes]
    elif change_asked and change_kind:
        # "by what percentage did it rise", "how many times larger": the later end set
        # against the earlier as asked, said
        spec.change_kind = change_kind
        joint = "_percent_change_from_" if change_kind == "percent" else "_over_"
        measure = spec.measures[0]
        measure.alias = measure.alias.replace("_minus_", joint)
        how = " as a percentage change from " if change_kind == "percent" else " divided by "
        said = change_read.replace(" minus in ", how)
        if change_kind == "ratio":  # the verb was put there by the rewording, never said
            said = said.replace("'change' read as", "'how many times' read as", 1)
        spec.notes = [said if n == change_read else n for n in spec.notes]
    if change_kind == "count ratio":
        if not _difference_of_two(spec):
            return clarify("How many times more of which, than which? Name both.", [])
        spec.change_kind = "ratio"
        spec.measures[0].alias = spec.measures[0].alias.replace("_minus_", "_over_")
    if gap_asked and not _difference_of_two(spec):
        return clarify(
            "The difference between which two? Name both, e.g. 'the difference in average "
            "salary between men and women'.",
            [],
        )
    return ParseResult(spec=spec)


_DIFFERENCE_WORDS = frozenset({"difference", "gap"})
_ARTICLES = frozenset({"the", "a", "an"})


def _when_by_its_row(spec: QuestionSpec, catalog: Catalog) -> None:
    """ "When did Andrew reach its peak wind speed?" over storm readings kept by year, month,
    day and hour (no date column): the row of the extreme, shown whole, says when."""
    m = spec.measures[0] if len(spec.measures) == 1 else None
    if m is None or m.agg not in ("max", "min") or m.target is None or spec.group_by:
        return
    if not calendar_columns(catalog, m.table) or not is_numeric(m.target.type):
        return
    spec.listing, spec.order_desc, spec.limit = True, m.agg == "max", 1
    spec.notes.append(
        f"the row with the {'highest' if m.agg == 'max' else 'lowest'} "
        f"{m.target.column}, whose calendar columns say when"
    )


def _ranked_group_pinned(spec: QuestionSpec) -> Filter | None:
    """The filter keeping one value of the column a ranking groups by, if any."""
    if spec.limit is None or not spec.group_by:
        return None
    grouped = {(g.table, g.column) for g in spec.group_by}
    return next(
        (
            f
            for f in spec.filters
            if (f.table, f.column) in grouped
            and (f.op == "=" or (f.op == "spellings" and isinstance(f.value, list)))
        ),
        None,
    )


def _grouped_by_its_own_figure(spec: QuestionSpec) -> str | None:
    """The column a measure adds up, averages or ranks while the answer is also grouped by
    it (`SUM(deaths) … GROUP BY deaths`), else None. Counting rows for each value is a
    distribution and fine; an aggregate of the key itself is not an answer."""
    grouped = {(g.table, g.column) for g in spec.group_by}
    for m in spec.measures:
        t = m.target
        if (
            m.agg != "count"
            and t is not None
            and t.kind == "column"
            and (t.table, t.column) in grouped
        ):
            return t.column
    return None


_AVERAGE_PER_PERIOD = re.compile(
    r"\b(?:average|mean)\s+(number\s+of\s+.+?)\s+(?:per|a)\s+(day|week|month|year)\b",
    re.IGNORECASE,
)


_PERIODIC = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annual": "year",
}
_AVERAGE_PERIODIC = re.compile(
    r"\b(?:average|mean)\s+(daily|weekly|monthly|yearly|annual)\s+number\s+of\b", re.IGNORECASE
)
_ON_AVERAGE = re.compile(r",?\s*\bon\s+average\b,?", re.IGNORECASE)
_HOW_MANY_PER_PERIOD = re.compile(
    r"\b(how\s+many\s+.+?)\s+(?:per|a)\s+(day|week|month|year)\b", re.IGNORECASE
)


def _averaged_per_period(
    question: str,
    catalog: Catalog,
    lexicon: Lexicon,
    semantic: SemanticModel | None,
    values: list[ValueMatch] | None,
) -> ParseResult | None:
    """ "the average number of cholera deaths per day": the number for each day, averaged
    over the days, one figure (never a series of each day's averages). Read as the question
    without "average" and "per day", counted or added up for each day of the data, then
    averaged; said, as days without any row are not in the average. None where the rest
    is not one count or total over the rows (the question is read as it stands)."""
    found = _AVERAGE_PER_PERIOD.search(question)
    adjective = _AVERAGE_PERIODIC.search(question)
    on_average = _ON_AVERAGE.search(question)
    counted = _HOW_MANY_PER_PERIOD.search(question) if on_average else None
    if found is not None:
        grain = found.group(2).lower()
        plain = question[: found.start()] + found.group(1) + question[found.end() :]
    elif adjective is not None:  # "the average daily number of flights"
        grain = _PERIODIC[adjective.group(1).lower()]
        plain = question[: adjective.start()] + "number of" + question[adjective.end() :]
    elif on_average is not None and counted is not None:  # "on average, how many … a day"
        grain = counted.group(2).lower()
        plain = question[: counted.start()] + counted.group(1) + question[counted.end() :]
        plain = _ON_AVERAGE.sub("", plain).strip(" ,")
    else:
        return None
    result = _parse(plain, catalog, lexicon, semantic, values)
    spec = result.spec
    if (
        spec is None
        or spec.group_by
        or not _one_plain_figure(spec)
        or spec.measures[0].agg not in ("count", "sum")
        or spec.measures[0].per is not None
    ):
        return None
    measure = spec.measures[0]
    measure.alias = f"average_{measure.alias.removeprefix('sum_')}_per_{grain}"
    spec.average_over = grain
    spec.notes.append(f"averaged over the {grain}s the data holds ({grain}s with no rows left out)")
    return result


def _a_number_per_row(spec: QuestionSpec, group: GroupBy, catalog: Catalog) -> ParseResult | None:
    """ "the average number of viewers per episode" where `episode` numbers each row (a
    number column, no text label): the average of the figure each row holds, one figure."""
    measure = spec.measures[0]
    target = measure.target
    info = catalog.table(group.table)
    numbered = info.column(group.column or "") if info is not None else None
    if (
        target is None
        or not is_numeric(target.type)
        or measure.agg not in ("sum", "avg", "count")  # "the number of viewers": `viewers`
        or numbered is None
        or not is_numeric(numbered.type)
        or (group.column or "").lower() in CALENDAR_WORDS
    ):
        return None
    spec.group_by = []
    spec.measures = [replace(measure, agg="avg", alias=f"avg_{target.column}")]
    spec.notes = [n for n in spec.notes if "added up" not in n]
    spec.notes.append(f"each row of {measure.table} read as one {group.column}")
    return ParseResult(spec=spec)


def _one_plain_figure(spec: QuestionSpec) -> bool:
    """One measure, unranked, with no time grain, share, difference or listing: a figure
    that can be taken for each period or group and then averaged."""
    shared = spec.share_of or spec.share_of_groups or spec.difference_of
    plain = not (spec.time_grain or spec.listing or shared) and spec.limit is None
    return plain and len(spec.measures) == 1


_AVERAGE_PER_GROUP = re.compile(
    r"\b(?:average|mean)\s+(number\s+of\s+.+?)\s+per\s+(\w+)", re.IGNORECASE
)
_HOW_MANY_EACH = re.compile(
    r"\b(how\s+many\s+.+?)\s+(?:does|do|did)\s+(?:each|every|an?)\s+(\w+)(?:\s+(\w+))?",
    re.IGNORECASE,
)
_GRAIN_NOUNS = frozenset({"day", "week", "month", "quarter", "year", "decade", "hour", "minute"})


def _averaged_per_group(
    question: str,
    catalog: Catalog,
    lexicon: Lexicon,
    semantic: SemanticModel | None,
    values: list[ValueMatch] | None,
) -> ParseResult | None:
    """ "the average number of ratings per user", "on average, how many works does an
    artist have": the count for each user (artist), averaged over them, one figure. Read as
    the question without "average", counted for each group, then averaged. None where no
    such phrase is said, or the rest is no count of rows (or of a text column's values) per
    one group: "the average number of calories per item" averages a number each row holds,
    read as it stands."""
    found = _AVERAGE_PER_GROUP.search(question)
    on_average = _ON_AVERAGE.search(question)
    each = _HOW_MANY_EACH.search(question) if on_average else None
    if found is not None and found.group(2).lower() not in _GRAIN_NOUNS:
        group = found.group(2)
        plain = f"{question[: found.start()]}{found.group(1)} per {group}{question[found.end() :]}"
    elif each is not None and each.group(2).lower() not in _GRAIN_NOUNS:
        group = each.group(2)
        verb = each.group(3) or ""
        # "does an artist have in the collection": the verb goes, what follows it stays
        kept = "" if not verb or is_verb(verb.lower()) else f" {verb}"
        plain = question[: each.start()] + f"{each.group(1)} per {group}{kept}"
        plain = _ON_AVERAGE.sub("", plain + question[each.end() :]).strip(" ,")
    else:
        return None
    result = _parse(plain, catalog, lexicon, semantic, values)
    spec = result.spec
    groups = [g for g in spec.group_by if not g.is_time] if spec is not None else []
    if spec is not None and len(groups) == len(spec.group_by) == 1 and _one_plain_figure(spec):
        per_row = _a_number_per_row(spec, groups[0], catalog)
        if per_row is not None:
            return per_row
    if (
        spec is None
        or len(spec.group_by) != 1
        or len(groups) != 1
        or not _one_plain_figure(spec)
        or spec.measures[0].agg not in ("count", "count_distinct")
        # "the average number of calories per item": a number each row holds, averaged
        or (spec.measures[0].target is not None and is_numeric(spec.measures[0].target.type))
    ):
        return None
    grouped = groups[0]
    spec.once_per = Target("column", grouped.table, grouped.column)
    spec.group_by = []
    measure = spec.measures[0]
    measure.alias = f"average_{measure.alias.removeprefix('sum_')}_per_{grouped.alias}"
    spec.notes.append(f"counted for each {grouped.column}, then averaged over them")
    return result


# Who or what a whole table may be about, said as "the runner", "the company"
_SUBJECTS = frozenset({"company", "firm", "business", "store", "shop", "team", "club"})
_CLAUSE_WORDS = frozenset({"who", "that", "which", "whose", "with", "of", "in", "at", "from"})


def _the_one_subject(
    tokens: list[str], lexicon: Lexicon, values: list[ValueMatch]
) -> tuple[list[str], str]:
    """ "How many miles did the runner cover in 2003?" on one runner's training log: "the
    runner", naming nothing in the data, is the one the rows are about, and adds no
    condition. Said (the data cannot confirm it is one person's), so reviewed. Only a
    singular person (or company, team …) after "the", never one a clause picks out ("the
    runner who won")."""
    valued = {v.word.lower() for v in values}
    for i in range(len(tokens) - 1):
        word = tokens[i + 1]
        if (
            tokens[i] == "the"
            and (word in people() or f"{word}s" in people() or word in _SUBJECTS)
            and not is_plural(word)
            and i + 2 < len(tokens)
            and tokens[i + 2] not in _CLAUSE_WORDS
            and not lexicon.lookup([word])
            and word not in valued
        ):
            note = f"'the {word}' read as the one {word} the data is about"
            return [*tokens[:i], *tokens[i + 2 :]], note
    return tokens, ""


def _people_counted_by_a_column(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "How many people died of cholera" -> "how many deaths of cholera", where a number
    column is called `deaths` and nothing in the data is named by "died": the people are
    the deaths a row counts, never rows of people."""
    for i in range(2, len(tokens) - 1):
        said, at = tokens[i], i + 1
        while at < len(tokens) - 1 and tokens[at] in ("were", "was", "got", "been", "have"):
            at += 1  # "how many people were killed"
        verb = tokens[at]
        noun = counted_by_verb().get(verb)
        if (
            tokens[i - 2 : i] == ["how", "many"]
            and said in people()
            and noun is not None
            and not lexicon.lookup([verb])
            and any(t.kind == "column" and is_numeric(t.type) for t in lexicon.lookup([noun]))
        ):
            return [*tokens[:i], noun, *tokens[at + 1 :]]
        verb = tokens[i + 1]
        if (
            tokens[i - 2 : i] == ["how", "many"]
            and said in people()
            and said not in value_synonyms()  # "how many women were promoted": a filter
            and verb in ("were", "are", "was", "is")
            and (
                _counting_column_said(tokens, i + 2, lexicon)
                # "how many people were unemployed" over a whole-number `unemploy`
                or _people_column(tokens[i + 2 : i + 3], lexicon)
            )
        ):
            # "how many students were not working" over `count_not_working`: the column
            # counts those people; they are no rows of their own
            return [*tokens[:i], *tokens[i + 2 :]]
    return tokens


def _people_column(words: list[str], lexicon: Lexicon) -> bool:
    """Whether a participle said of people ("unemployed", "injured") names one whole-number
    column that counts such people."""
    if len(words) != 1 or not words[0].endswith("ed"):
        return False
    found = [t for t in lexicon.lookup(words) if t.kind == "column"]
    return len(found) == 1 and "INT" in found[0].type.upper() and not is_key(found[0].column or "")


def _counting_column_said(tokens: list[str], at: int, lexicon: Lexicon) -> bool:
    """Whether the words from `at` begin what a column counting people is called after its
    `count_`/`number_` (`count_not_working`: "not working")."""
    for targets in lexicon.phrases.values():
        for t in targets:
            words = identifier_words(t.column or "") if t.kind == "column" else ()
            if len(words) < 2 or words[0] not in ("count", "number") or not is_numeric(t.type):
                continue
            rest = [stem(w) for w in words[1:]]
            if [stem(w) for w in tokens[at : at + len(rest)]] == rest:
                return True
    return False


def _proper_names(question: str, words: list[str]) -> bool:
    """Whether every word is written with a capital inside the question ("the Yankees"),
    not as its first word: a name, never a common noun for the rows."""
    inside = question.split()[1:]
    written = {w.strip(".,;:!?'\"()").lower() for w in inside if w[:1].isupper()}
    return bool(words) and all(w in written for w in words)


def _unit_said_once(tokens: list[str], lexicon: Lexicon) -> list[str]:
    """ "between 4 and 8 cylinder cars" -> "between 4 cylinder and 8 cylinder cars": a
    column's name said once after two numbers is each one's."""
    for i in range(len(tokens) - 3):
        a, joint, b, unit = tokens[i : i + 4]
        if joint not in ("and", "or", "vs") or to_number(a) is None or to_number(b) is None:
            continue
        if any(t.kind == "column" for t in lexicon.lookup([unit])):
            return [*tokens[: i + 1], unit, *tokens[i + 1 :]]
    return tokens


def _difference_asked(tokens: list[str], catalog: Catalog) -> tuple[list[str], bool]:
    """ "the difference between the average salary of men and women", "the gap in pay
    between A and B": the word (and the "in"/"between"/"of" after it) go; a difference is
    remembered, to be taken between the two values said. Not where a column is named by the
    word (`goal_difference`, `pay_gap`): there it is that column's name."""
    at = next((i for i, t in enumerate(tokens) if t in _DIFFERENCE_WORDS), None)
    if at is None or _names_a_difference(catalog):
        return tokens, False
    end = at + 1 + (tokens[at + 1 : at + 2] in (["in"], ["between"], ["of"]))
    if tokens[at + 1 : at + 2] == ["between"] and at > 0 and tokens[at - 1] not in _ARTICLES:
        # "the salary difference between A and B": the figure for A and B, never one
        # compound of the figure and the column after it
        return [*tokens[:at], "for", *tokens[end:]], True
    return [*tokens[:at], *tokens[end:]], True


def _names_a_difference(catalog: Catalog) -> bool:
    """Whether a column is named by a difference word (`goal_difference`, `pay_gap`)."""
    return any(
        w in _DIFFERENCE_WORDS or w in ("diff", "differential")
        for info in catalog.tables.values()
        for c in info.columns
        for w in identifier_words(c.name)
    )


def _gap_of_a_figure(
    tokens: list[str], lexicon: Lexicon, catalog: Catalog
) -> tuple[list[str], str]:
    """ "the salary gap between men and women", no aggregate said: a gap between two groups'
    figures is their averages' difference, as pay gaps are told; said, so it is reviewed.
    Not where a column is named by the word (`goal_difference`)."""
    if set(tokens) & FIGURE_WORDS or _names_a_difference(catalog):
        return tokens, ""
    at = next((i for i, t in enumerate(tokens) if t in _DIFFERENCE_WORDS), None)
    if at is None:
        return tokens, ""
    for i in (at - 1, at + 2):  # "salary gap", "gap in salary"
        if 0 <= i < len(tokens) and any(
            t.kind == "column" and is_numeric(t.type) for t in lexicon.lookup(tokens[i : i + 1])
        ):
            said = f"'{tokens[i]} {tokens[at]}' read as the difference of the average {tokens[i]}"
            return [*tokens[:i], "average", *tokens[i:]], said
    return tokens, ""


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


def _difference_of_two(spec: QuestionSpec, *, years: bool = False) -> bool:
    """Turn "X for A and B" (two values of one column, grouped by it) into A's X minus B's,
    one number whose name says which from which. With `years`, two years grouped by a year
    column count as such a pair, the later first ("how much did it grow from 1950 to 2019").
    False when the question has no such pair."""
    if years and _two_years_as_a_pair(spec):
        return _difference_of_two(spec)
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


def _two_years_as_a_pair(spec: QuestionSpec) -> bool:
    """Two years said of a table with a year column, grouped by it: the period becomes a
    pair of that column's values, the later first. False where the year is a date's part."""
    period = spec.time_range
    grouped = [g for g in spec.group_by if g.is_time]
    if period is None or len(period.years) != 2 or len(grouped) != 1 or len(spec.group_by) != 1:
        return False
    column = grouped[0].column or ""
    # `year("date")`: the year of a date, compared as that expression (said as "year")
    label = column if re.fullmatch(r"\w+", column) else grouped[0].alias or "year"
    later, earlier = sorted(period.years, reverse=True)
    spec.filters.append(Filter(grouped[0].table, column, "in", [later, earlier], label=label))
    spec.time_range = None
    return True


def _grain_kept_as_text(spec: QuestionSpec, catalog: Catalog) -> None:
    """ "trips in each month" over a table with no date, whose `month` is text ('Jan',
    'Feb'): the groups are that column's values as written, and the answer says so (they are
    not dates, so no calendar order or range reaches them)."""
    info = catalog.table(spec.fact_table) if spec.time_grain and spec.fact_table else None
    if info is None or any(is_temporal(c.type) for c in info.columns):
        return
    if spec.time_grain in calendar_columns(catalog, info.name):
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


def _divided_per_row(
    p: ParseState, ratio: Span, measures: list[Measure], aggs: list[tuple[int, int, str]]
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
        and (divisor.column or "").lower() not in CALENDAR_WORDS
        and any(
            m.target is not None
            and m.target != divisor
            and m.table == divisor.table
            and is_numeric(m.target.type)
            for m in measures
        )
    )


_SHARE_WORDS = frozenset({"percentage", "percent", "share", "proportion", "fraction"})


def _numbers_a_column(tokens: list[str], at: int, lexicon: Lexicon) -> bool:
    """Whether the word at `at` names a numeric column and no table ("number of cylinders"
    is the `cyl` column's values; "number of flights" counts the flights)."""
    if at >= len(tokens):
        return False
    targets = lexicon.lookup(tokens[at : at + 1])
    return bool(targets) and all(
        t.kind == "column" and is_numeric(t.type) and not is_key(t.column or "") for t in targets
    )


def _grouping(p: ParseState, span: Span, fact_table: str) -> list[GroupBy]:
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
    column = pick_column(span, fact_table, numeric=False, prefer_non_numeric=True)
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
                c for c in info.columns if c.name.lower() in ROW_LABELS and not is_numeric(c.type)
            ]
            # `team_name` for "which teams": a text column whose name ends in name or title,
            # the one beginning with the rows' noun when several do
            noun = stem(p.tokens[span.end - 1])
            named = [
                c
                for c in info.columns
                if not is_numeric(c.type)
                and (words := identifier_words(c.name))
                and words[-1] in LABELS
            ]
            named = [c for c in named if identifier_words(c.name)[0] == noun] or named
            key = next((c for c in info.columns if is_key(c.name)), None)
            keys = labels or (named[:1] if len(named) == 1 else []) or ([key] if key else [])
            # Said by their labels, told apart by their key: names repeat (10,000 customers,
            # 2,465 names), and grouping by the name alone adds up namesakes' orders. Only a
            # key profiling found on one row each: pizzaplace's `id` is the order a pizza
            # was in, and grouping pizzas by it would split each pizza by order.
            apart = key.name if key is not None and key not in keys and key.one_per_row else None
            return [
                GroupBy(info.name, k.name, alias=f"{stem(info.name)}_{k.name}", key=apart)
                for k in keys
            ]
    return []


def _value_negated(tokens: list[str], at: int, values: list[ValueMatch]) -> bool:
    """ "respondents who are not US citizens": "not" right before a value found in the data
    keeps the rows with any other value (read by the value filters), no exclusion to ask."""
    if tokens[at] not in ("not", "non"):
        return False
    after = at + 2 if tokens[at + 1 : at + 2] in (["a"], ["an"]) else at + 1  # "not a …"
    return any(
        (words := question_tokens(m.word)) and tokens[after : after + len(words)] == words
        for m in values
        if m.table and not m.prefix
    )


def _named_negated(tokens: list[str], at: int, catalog: Catalog) -> bool:
    """ "were not working" over a column `count_not_working`: the negation is part of what a
    column is called, never an exclusion of rows."""
    after = tokens[at + 1 : at + 2]
    if not after:
        return False
    said = (tokens[at], stem(after[0]))
    return any(
        said in zip(words, (stem(w) for w in words[1:]), strict=False)
        for info in catalog.tables.values()
        for c in info.columns
        if (words := identifier_words(c.name))
    )


def _of_the_parent_table(
    tokens: list[str], spans: list[Span], catalog: Catalog, notes: list[str]
) -> list[Span]:
    """ "the patients' age" over `age` in pbc (one row per patient) and in pbcseq (one per
    lab visit, repeating pbc's `id`): the column of the table holding each thing once, said
    (the visits' is the other reading)."""
    parent = parent_table(catalog) if len(catalog.tables) > 1 else None
    if parent is None:
        return spans
    out = []
    for span in spans:
        columns = [t for t in span.targets if t.kind == "column"]
        names = {(t.column or "").lower() for t in columns}
        own = [t for t in columns if t.table == parent.name]
        if (
            len(columns) > 1
            and len(names) == 1
            and len(own) == 1
            and len(columns) == len(span.targets)
        ):
            others = ", ".join(sorted(t.table for t in columns if t.table != parent.name))
            said = " ".join(tokens[span.start : span.end])
            notes.append(f"'{said}' read as {parent.name}.{own[0].column} (also in {others})")
            span = replace(span, targets=(own[0],))
        out.append(span)
    return out


def _positions(tokens: list[str], said: str) -> set[int]:
    """Where the words `said` stand in the question, every time they do."""
    words = question_tokens(said)
    return {
        i + k
        for i in range(len(tokens) - len(words) + 1)
        if tokens[i : i + len(words)] == words
        for k in range(len(words))
    }


def _shortest_window(variants: list[Target], lexicon: Lexicon) -> Target | None:
    """The variant kept over the shortest window of time, when every variant is a window."""
    windows = [lexicon.variant_windows.get(t) for t in variants]
    if None in windows or len({t.table for t in variants}) != 1:
        return None
    lengths = sorted(w for w in windows if w is not None)
    if lengths[0] == lengths[1]:
        return None  # `visits_30d` and `visits_1m`: no shorter one
    return variants[windows.index(lengths[0])]
