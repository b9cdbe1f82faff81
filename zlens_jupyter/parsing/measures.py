"""The figures a question asks for: which column, which aggregate, counted rows or
distinct things, and when a figure must be asked about rather than guessed."""

from __future__ import annotations

from ..wordforms import adjective_base, is_noun, is_plural
from .calendar_reading import a_series_of_readings, one_row_per_period, yearly_rows
from .counts_and_rates import (
    PER_UNIT_WORDS,
    counted_of_a_named_row,
    counts_who_were,
    holds_counts,
    is_rate,
    tally_of,
)
from .entities import (
    listed_count,
    lists_values,
    mostly_distinct,
    names_its_rows,
    names_text_only,
    observation_label,
    one_name_column,
    rows_are_the_things,
)
from .lexicon import Span, Target, is_key, is_numeric, is_temporal
from .phrasing import CALENDAR_WORDS, ROW_WORDS
from .reading import SHOW_WORDS, ParseState, clarify, names_number, pick_column, span_text
from .rewording import rows_are_days
from .spans import one_measured
from .spec import Measure, ParseResult
from .words import stem
from .yes_no import yes_no_column


def read_measures(
    p: ParseState,
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
    keyed: list[tuple[Span, Target]] = []  # "the professors" said by their id, unmeasured
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
        if agg == "count" and outer is not None and names_number(span):
            # "the average number of police checks", "the total number of gun murders": the
            # numbers of a column that counts them, averaged or added up
            agg = outer
        if agg is None and (len(spans) == 1 or [s for s in spans if names_number(s)] == [span]):
            # "which month was the hottest on average", "how long are omnivores awake on
            # average": the phrase after the one thing measured.
            agg = next((a for s, _, a in aggs if s > 0 and p.tokens[s - 1] == "on"), None)
        tally = tally_of(p.catalog, span, p.tokens[span.end - 1])
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
                or not any(t in SHOW_WORDS for t in p.tokens[:3])
            )
        ):
            # "total murders by region", "which state had the most gun murders" over a table
            # `murders` whose one figure is `total`: that figure is how many murders each row
            # holds; "how many" adds it up. Said.
            read = f"read as {tally.table}.{tally.column}"
            if not any(n.endswith(read) for n in p.notes):  # "'gun murders' read as …" said
                p.notes.append(f"'{span_text(p.tokens, span)}' {read}")
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
                return clarify(
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
        column = pick_column(span, near, numeric=agg in _FIGURES)
        numeric = pick_column(span, None, numeric=True)
        if numeric is not None and (numeric.column or "").lower() in CALENDAR_WORDS:
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
            and (year_like.column or "").lower() in CALENDAR_WORDS
            and span.start > 0
            and p.tokens[span.start - 1] in ("first", "earliest", "last", "latest")
        ):
            # "the first year with rubella data": the lowest `year` the rows kept have
            measures.append(_extreme(year_like, superlative))
            continue
        if agg is None and superlative is not None and not grouped and dated is not None:
            # "the earliest date in the data", "the latest order date"
            measures.append(_extreme(dated, superlative))
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
            measures.append(_extreme(numeric, superlative))
        elif (
            agg == "count_distinct"
            and table is not None
            and column is None
            and (sighted := observation_label(p.catalog, table.table)) is not None
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
            # "the salary of men and women" on a table named Salaries with a salary column:
            # the figure, said in the singular, is asked, never a count of the rows
            and not (
                agg is None
                and numeric is not None
                and numeric.table == table.table
                and not is_plural(p.tokens[span.end - 1])
            )
            # "which occupation has the highest prestige" on a table named Prestige with a
            # prestige column: the column ranks, the rows are not counted
            and not (
                agg is None
                and superlative is not None
                and ranks_by(span)
                and not set(p.tokens) & {"most", "fewest", "least"}  # "the fewest flights"
            )
        ):
            if (
                agg is None
                and one_measured(p.tokens, span)
                and not any(pick_column(s, None, numeric=True) for s in spans if s is not span)
            ):
                # "which pollster ran the smallest poll": one poll's size, not how many polls;
                # what measures a poll is not said, so it is asked
                noun = p.tokens[span.end - 1]
                return clarify(
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
                return clarify(
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
                holds_counts(column)
                or counted_of_a_named_row(p, span, column)
                or counts_who_were(p.tokens[span.end - 1], column)
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
                return clarify(
                    f"How many of what? '{column.column}' is not what is counted here: "
                    "name what to count.",
                    [],
                )
            # "how many chicks" over a numeric `Chick` column: the chicks are its distinct
            # values (a count of non-empty cells would count the weighings)
            # ("how many days" over Month/Day rows still counts the rows: a calendar part)
            calendar = (column.column or "").lower() in CALENDAR_WORDS
            # "how many ratings" over a DOUBLE `rating` (half stars): a measurement each row
            # holds, so the rows holding one are counted (its 10 distinct values count nothing)
            measured = agg == "count" and _fractional(column.type)
            kind = (
                "count" if agg != "count_distinct" and (calendar or measured) else "count_distinct"
            )
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
            keyed_by = _other_key(p, column) if kind == "count_distinct" else None
            if keyed_by is not None and agg == "count_distinct":
                # "how many different colleges" by `inst_name` beside `unitid`: two colleges
                # may share a name ('Westminster College' in three states); said, reviewed
                p.notes.append(
                    f"counted the distinct values of {column.column} (a name two rows' things"
                    f" may share; {keyed_by} is also kept)"
                )
            two = _two_values(p, column) if kind == "count_distinct" and agg == "count" else None
            if two is not None and is_plural(p.tokens[span.end - 1]):
                # "how many purchases" over `Purchase` holding CH or MM: what each purchase
                # was, one per row; the rows are counted, never the two values (always 2)
                said = p.tokens[span.end - 1]
                measures[-1] = Measure("count", column.table, column, alias=f"{said}_count")
                p.notes.append(
                    f"each row of {column.table} counted as one {stem(said)} ({column.column}"
                    f" holds {two[0]} or {two[1]})"
                )
            elif (
                kind == "count_distinct"
                and agg == "count"
                and not names_its_rows(p.catalog, column)
                and (one_table or is_numeric(column.type) or mostly_distinct(p.catalog, column))
            ):
                # "how many counties" over one table: its rows, or its distinct county
                # names (names repeat across states)? Counted as names, and said, unless
                # the table reads as one row per thing (below).
                if rows_are_the_things(p.catalog, column):
                    measures[-1] = Measure(
                        "count", column.table, column, alias=f"{values_of}_count"
                    )
                    p.notes.append(
                        f"each row of {column.table} counted as one {values_of} (some "
                        f"{values_of} names repeat)"
                    )
                else:
                    p.notes.append(f"counted the distinct values of {column.column}")
        elif agg in _FIGURES and column is not None:
            measures.append(Measure(agg, column.table, column, alias=f"{agg}_{column.column}"))
        elif agg is None and column is not None and _ratings_counted(p.tokens, span, column):
            # "which movie has the most ratings" over a half-star `rating`: how many were
            # given (one a row), never the highest one (dozens of movies have a 5)
            said = p.tokens[span.end - 1]
            measures.append(Measure("count", column.table, column, alias=f"{said}_count"))
            p.notes.append(f"'{said}' counted, one per row of {column.table}")
        elif (
            agg is None
            and superlative is not None
            and not grouped
            and column is not None
            and is_numeric(column.type)
            and (column.column or "").lower() not in CALENDAR_WORDS
        ):
            measures.append(_extreme(column, superlative))
        elif (
            agg is None
            and superlative is not None
            and grouped
            and numeric is not None
            and is_numeric(numeric.type)
            and not is_key(numeric.column or "")
            and observation_label(p.catalog, numeric.table) is not None
        ):
            # "which storm had the lowest pressure" over a table of readings: the storm with
            # the lowest reading, so the extreme per group, ranked. (Over other tables "the
            # most sales" may be a total: that is asked, below.)
            measures.append(_extreme(numeric, superlative))
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
            measures.append(_extreme(numeric, superlative))
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
            and (column.column or "").lower() not in CALENDAR_WORDS
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
            and (column.column or "").lower() not in CALENDAR_WORDS
        ):
            # "which city had the most sales", "monthly sales": a total is the usual reading,
            # but the data cannot confirm it, so the answer says so and asks for review.
            if p.one_row_groups and time_grain is None:  # each group one row: its own value
                measures.append(Measure("max", column.table, column, alias=column.column or ""))
                continue
            labelled = superlative is not None and p.groups_are_labels
            if (p.row_ranked or labelled) and time_grain is None and not holds_counts(column):
                # "which pollster ran the poll with the largest sample": one row ranked, and
                # its group named: the group's largest row, never its total; "which model
                # has the largest engine": a model's versions, its largest (said)
                agg = "max" if superlative else "min"
                measures.append(Measure(agg, column.table, column, alias=f"{agg}_{column.column}"))
                if not p.row_ranked:
                    best = "largest" if superlative else "smallest"
                    p.notes.append(f"each group's {best} {column.column} (a row each, ranked)")
                continue
            # "city mileage": `cty`; "city and highway mpg": the head both share
            words_said = set(p.tokens[span.start : _coordinated_end(p.tokens, span, spans) + 1])
            if is_rate(column.column or "") or words_said & PER_UNIT_WORDS:
                # "compare the graduation rate of private and public colleges": rates and
                # percentages do not add up; their mean per group is the reading, said
                measures.append(Measure("avg", column.table, column, alias=f"avg_{column.column}"))
                p.notes.append(f"{column.column} averaged for each group (it does not add up)")
                continue
            if a_series_of_readings(p.catalog, column.table):
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
            and (
                (p.one_period is not None and one_row_per_period(p, column.table))
                # "the population in 1900" over one row a year
                or (p.one_year is not None and yearly_rows(p.catalog, column.table))
            )
            and is_numeric(column.type)
            and not is_key(column.column or "")
        ):
            # "what was the population in January 2000" over monthly rows: that month's own
            # value; said, in case several rows fall in it
            measures.append(Measure("max", column.table, column, alias=column.column or "value"))
            if p.one_period is None:  # one year of a table with one row a year: its own
                p.notes.append(f"the {column.column} of {p.one_year}'s one row")
            else:
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
            and (column.column or "").lower() not in CALENDAR_WORDS
        ):
            # "which day was the hottest" over rows of Month and Day: each day is one row,
            # so its own reading is ranked (no total or average to choose between)
            measures.append(_extreme(column, superlative))
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
            and not holds_counts(column)
            and (column.column or "").lower() not in CALENDAR_WORDS
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
            return clarify(
                f"Should I total, average, or take the maximum of '{name}'?",
                [f"total {name}", f"average {name}", f"maximum {name}"],
            )
        elif agg is None and column is not None and is_key(column.column or ""):
            keyed.append((span, column))
        said = p.tokens[span.end - 1]
        if (
            len(measures) == held
            and names_text_only(span)
            and lists_values(p.catalog, span)
            and stem(said) == said  # "professional occupations", a plural: the rows
            # "the most errors any player made": one of the rows, whichever; never a grouping
            and (span.start == 0 or p.tokens[span.start - 1] not in ("any", "single"))
        ):
            unplaced.append(span)
    if unplaced and measures:
        # "average checks for each skin colour" read without its grouping would answer a
        # different question: a named column that found no place is asked about
        named = span_text(p.tokens, unplaced[0])
        unused = next(t.column or "" for t in unplaced[0].targets if t.kind == "column")
        return clarify(
            f"How does '{named}' fit the question? To group by it, say 'by {named}'.",
            [f"by {unused}"],
        )
    if len(implicit) < len(measures):
        measures = [m for i, m in enumerate(measures) if i not in implicit]
    for span, key in keyed:
        # "professors teaching upper-level courses": two things by their ids, the rows are
        # neither one each; only one thing named is counted once by its key
        once = len({k for _, k in keyed}) == 1
        _things_by_their_key(p, span, key, measures, grouped or time_grain is not None or not once)
    asked = [a for _, _, a in aggs if a in _FIGURES]
    if asked and not any(m.agg in asked or m.agg == "metric" for m in measures):
        # "the average shipping time for a diamond": an average of something no column
        # names is not a count of diamonds.
        return clarify(
            f"The {_AGG_NAMES.get(asked[0], asked[0])} of what? I found no numeric column "
            "it applies to; name one.",
            [],
        )
    rows_counted = [m.table for m in measures if m.agg == "count" and m.target is None]
    observed = observation_label(p.catalog, rows_counted[0]) if rows_counted else None
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
            and names_text_only(s)
            and stem(p.tokens[s.end - 1]) != p.tokens[s.end - 1]
            for t in s.targets[:1]
            # a kind of the rows, listed, many rows each (mpg's 38 models over 234 cars);
            # never names nearly one per row (tests, strikes, courses: the rows are counted)
            if t.kind == "column"
            and lists_values(p.catalog, s)
            and not mostly_distinct(p.catalog, t)
            # a handful of codes (`test_id`'s 2, `birds_struck`'s 5 bands) counts nothing
            # apart: "the most tests" there are rows
            and listed_count(p.catalog, t) >= 10
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
            if kept is not None and one_name_column(p.catalog, kept):
                return [Measure("count", kept, None, alias="row_count")]
        return clarify("Which measure should I compute? Name a metric or a numeric column.", [])
    for m in measures:  # "total murders", not "total total": a tally is named by its table
        tallied = m.target.column if m.target is not None else None
        if tallied and (m.table, tallied) in p.tallied and m.alias.endswith(tallied):
            m.alias = m.alias[: len(m.alias) - len(tallied)] + p.tallied[(m.table, tallied)]
    return measures


# The aggregates taken of a number column ("range": its largest minus its smallest)
_FIGURES = ("sum", "avg", "median", "min", "max", "stddev", "range")
_AGG_NAMES = {
    "avg": "average",
    "max": "maximum",
    "min": "minimum",
    "sum": "total",
    "stddev": "standard deviation",
}


def _untaken_between(p: ParseState, end: int, start: int) -> int:
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


_FREQUENCY_WORDS = frozenset({"common", "popular", "frequent", "often", "most", "least"})


def _words_between(tokens: list[str], aggs: list[tuple[int, int, str]], span: Span) -> bool:
    """Whether a word other than an article stands between the count phrase and the span
    ("how many women survived": `women`)."""
    end = max((e for s, e, a in aggs if a == "count" and e <= span.start), default=span.start)
    last = tokens[span.end - 1]
    if is_noun(last) and stem(last) != last:
        return False  # "how many African countries": words before a plural noun qualify it
    return any(t not in ("the", "a", "an", "all", "of") for t in tokens[end : span.start])


# Adjectives of size or amount: their superlative over groups may mean a total ("the
# biggest month for sales"), so it is asked rather than averaged.
_SIZE_ADJECTIVES = frozenset({"big", "large", "small", "great", "high", "low", "many", "much"})


def ranks_by(span: Span) -> bool:
    """A span naming only a numeric column that is neither a key nor a calendar part."""
    columns = [t for t in span.targets if t.kind == "column"]
    return bool(columns) and all(
        is_numeric(t.type)
        and not is_key(t.column or "")
        and (t.column or "").lower() not in CALENDAR_WORDS
        for t in columns
    )


def _coordinated_end(tokens: list[str], span: Span, spans: list[Span]) -> int:
    """Where the names coordinated with `span` end ("city and highway" of "city and highway
    mpg"): the word after is the head noun they share."""
    end = span.end
    while end < len(tokens) and tokens[end] in ("and", "or", ","):
        following = next((s for s in spans if s.start == end + 1), None)
        if following is None:
            break
        end = following.end
    return end


def _extreme(column: Target, high: bool | None) -> Measure:
    """The column's maximum (`high`) or minimum, named so ("max_wind")."""
    kind = "max" if high else "min"
    return Measure(kind, column.table, column, alias=f"{kind}_{column.column}")


def _two_values(p: ParseState, column: Target) -> tuple[str, str] | None:
    """The two values of a text column holding only two (`Purchase`: CH or MM), on a table
    of more rows than a handful; None for a yes/no column (its yes is what is counted)."""
    info = p.catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or is_numeric(stored.type) or info.row_count <= 20:
        return None
    if stored.distinct_count != 2 or len(stored.distinct_values) != 2:
        return None
    if yes_no_column(column, p.catalog):
        return None
    first, second = stored.distinct_values
    return first, second


def _fractional(column_type: str | None) -> bool:
    """A type holding fractions (DOUBLE, DECIMAL(4,1)): a measurement, never an id or a code."""
    kind = (column_type or "").upper()
    return kind.startswith(("DOUBLE", "FLOAT", "REAL", "DECIMAL", "NUMERIC"))


# Nouns of a mark given to something: many are given, one a row ("the most ratings")
_MARKS = frozenset({"rating", "score", "grade", "review", "evaluation", "mark", "star"})


def _ratings_counted(tokens: list[str], span: Span, column: Target) -> bool:
    """ "the most ratings", "the fewest reviews": a plural mark after most/fewest, over a
    column of fractional marks, asks how many were given."""
    said = tokens[span.end - 1]
    return (
        span.start > 0
        and tokens[span.start - 1] in ("most", "fewest", "least")
        and is_plural(said)
        and stem(said) in _MARKS
        and _fractional(column.type)
    )


_PER_THING = frozenset({"avg", "median", "stddev"})


def _things_by_their_key(
    p: ParseState, span: Span, key: Target, measures: list[Measure], grouped: bool
) -> None:
    """ "the average age of the professors" over one row per course, each professor's
    `prof_id` on every course they taught: each professor once (their own average), never
    each row, which weighs a professor by their courses. Where the id is the rows' own, the
    two readings agree. Any other key named and not measured is said: every row counted."""
    info = p.catalog.table(key.table)
    stored = info.column(key.column or "") if info is not None else None
    if stored is None or (not is_numeric(stored.type) and stored.distinct_count >= 0):
        return  # `test_id` holding 'covid' or 'flu': a code of a few values, not one thing each
    said = p.tokens[span.end - 1]
    thing = stem(said)
    figures = [m for m in measures if m.target is not None and m.table == key.table]
    if len(measures) == 1 and figures and figures[0].agg in _PER_THING and not grouped:
        p.once_per = key
        p.notes.append(
            f"each {thing} counted once ({key.column}), whatever rows of {key.table} they have"
        )
    elif measures:
        p.notes.append(f"'{said}' read as the rows of {key.table}, each row counted")


def _other_key(p: ParseState, column: Target) -> str | None:
    """The key column (`unitid`) of the table of a counted text name (`inst_name`), when it
    has exactly one other than the name itself."""
    info = p.catalog.table(column.table)
    stored = info.column(column.column or "") if info is not None else None
    if info is None or stored is None or is_numeric(stored.type) or is_key(stored.name):
        return None
    # a bare `id` numbers the rows (artworks, incidents), never the things a name is of
    keys = [c.name for c in info.columns if is_key(c.name) and c.name.lower() != "id"]
    return keys[0] if len(keys) == 1 else None
