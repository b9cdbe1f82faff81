"""Answer sentences built from the result itself: data first, and every number in the sentence
is a value in the result (the gates check this). How the loop got there stays in the trace."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from ..vocabulary import units


def fmt(value: Any) -> str:
    """A result value as the sentence shows it: thousands separators, at most 2 decimals."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if value.is_integer() else f"{value:,.2f}"
    return str(value)


def group_label(value: Any) -> str:
    """A group's name as the sentence shows it: whole numbers there are years, ids and codes
    (2015, not 2,015); everything else as `fmt` shows it."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return fmt(value)


def _value_of(column: str, value: Any) -> str:
    """A scalar as said: a year is 1966, never 1,966 (`min_year`, `max_Year`)."""
    if isinstance(value, int) and re.search(r"(?:^|_)year$", column, re.IGNORECASE):
        return str(value)
    return fmt(value)


def humanize(alias: str) -> str:
    """A column name as words: `avg_delay` -> "Average delay", `sum(amount)` -> "Total amount",
    DuckDB's `count_star()` -> "Count", `avg_weight_kg` -> "Average weight (kg)"."""
    call = re.fullmatch(r"(\w+)\((.*)\)", alias.strip())
    if call:
        function, argument = call.group(1).lower(), call.group(2).replace('"', "").strip()
        alias = "count" if function == "count_star" else f"{function} {argument}".strip()
    text = alias.replace("_", " ").strip()
    unit = _trailing_unit(text)
    if unit is not None:
        text = unit[0]
    for prefix, word in (
        ("avg ", "average "),
        ("sum ", "total "),
        ("max ", "maximum "),
        ("min ", "minimum "),
        ("stddev ", "standard deviation of "),
        ("distinct ", "distinct "),
    ):
        if text.startswith(prefix):
            text = word + text[len(prefix) :]
    # `avg_avg_price_per_room`: a column that is itself an average says it once (the maximum
    # of an average price stays "maximum avg price")
    text = re.sub(
        r"^(?:(average) (?:avg|average|mean)|(total) (?:sum|total)|(maximum) max|(minimum) min) ",
        lambda m: f"{next(g for g in m.groups() if g)} ",
        text,
    )
    if unit is not None:
        text += f" ({unit[1]})"
    return text[:1].upper() + text[1:]


def _trailing_unit(text: str) -> tuple[str, str] | None:
    """("avg weight", "kg") for "avg weight kg"; "price in usd" -> ("price", "USD")."""
    words = text.split()
    shown = units().get(words[-1].lower()) if len(words) > 1 else None
    if shown is None:
        return None
    words.pop()
    if len(words) > 1 and words[-1].lower() in ("in", "per"):
        words.pop()
    return " ".join(words), shown


def describe(
    result: dict[str, Any],
    shape: str,
    *,
    filters: str = "",
    measure: str | None = None,
    order_desc: bool | None = None,
    limit: int | None = None,
    grouping: list[str] | None = None,
    measures: list[str] | None = None,
) -> str:
    """One sentence for a result of a given shape (scalar, breakdown, timeseries, topn).

    `measure` names the value column when it is not the last one (a block's chart y).
    `order_desc` and `limit` are what the question asked ("bottom 3": False, 3): the sentence
    says that direction and that N, never "first" for a lowest question. `grouping` names
    the columns the rows are grouped by (a block's grain): the sentence then groups by those
    alone, never by another measure of a result that holds several. `measures` are the value
    columns a question asked for when it asked for several ("revenue and orders by
    segment"): each group is then said with each of them, by name."""
    columns, rows = result["columns"], result["rows"]
    rows = [[period_label(c, v) for c, v in zip(columns, row, strict=False)] for row in rows]
    if grouping and shape != "rows":
        columns, rows = _grouped_by(columns, rows, grouping, measure, measures)
    if shape == "rows" and order_desc is not None and measure in columns and rows:
        at = columns.index(measure)  # whole rows ranked: the number first, then what tells
        # the row apart (names, text and calendar columns before other numbers)
        rest = sorted(
            (i for i in range(len(columns)) if i != at),
            key=lambda i: not (columns[i].lower() in _TELLS or not _numeric_column(rows, i)),
        )
        ranked = [[*(row[i] for i in rest), row[at]] for row in rows]
        columns = [*(columns[i] for i in rest), columns[at]]
        where = f" ({filters})" if filters else ""
        return _ranked_rows(result, columns, ranked, where, order_desc)
    several = len([m for m in measures or [] if m in columns]) > 1
    if measure in columns and measure != columns[-1] and not several:
        at = columns.index(measure)
        keep = [i for i, c in enumerate(columns) if i == at or not _numeric_column(rows, i)]
        keep = [i for i in keep if i != at] + [at]
        columns = [columns[i] for i in keep]
        rows = [[row[i] for i in keep] for row in rows]
    if not rows:
        return f"No rows match ({filters})." if filters else "The query returned no rows."
    columns, rows = _names_for_numbers(columns, rows)
    where = f" ({filters})" if filters else ""
    said = [m for m in measures or [] if m in columns]
    if len(said) > 1 and len(said) < len(columns) and shape in _GROUPED and len(rows) > 1:
        return _several_measures(result, columns, rows, said, shape, where, order_desc, limit)
    if shape == "scalar" or (len(rows) == 1 and len(columns) <= 2 and shape != "topn"):
        parts = [
            f"{humanize(c)} has no value" if v is None else f"{humanize(c)} is {_value_of(c, v)}"
            for c, v in zip(columns, rows[0], strict=False)
        ]
        return "; ".join(parts) + where + "."
    measure = columns[-1]
    label = humanize(measure)
    dims = columns[:-1]
    if shape == "rows" or not dims or not _numeric_column(rows, len(columns) - 1):
        return _listing(result, columns, rows, where)
    if shape == "timeseries":
        first, last = rows[0], rows[-1]
        when = lambda row: " ".join(group_label(v) for v in row[:-1])  # noqa: E731
        text = (
            f"{label} by {', '.join(dims)} from {when(first)} to {when(last)}: "
            f"{fmt(last[-1])} in {when(last)}"
        )
        if len(rows) > 1:
            prev = rows[-2]
            text += f", after {fmt(prev[-1])} in {when(prev)}"
        return text + where + "."
    names = lambda row: " / ".join(group_label(v) for v in row[:-1])  # noqa: E731
    shown = rows[:3]
    listed = ", ".join(f"{names(r)} ({fmt(r[-1])})" for r in shown)
    if shape == "topn":
        return _ranking(rows, dims, label, listed, where, order_desc, limit)
    total = result.get("row_count", len(rows))
    more = ", …" if len(rows) > 3 and not where else ""
    end = "" if more else "."
    groups = f"first {total} groups shown" if result.get("truncated") else f"{total} groups"
    # The order the question asked, said only when the rows really go that way.
    ordered = order_desc is not None and _in_order(rows, order_desc)
    order = f", {'highest' if order_desc else 'lowest'} first" if ordered else ""
    return f"{label} by {', '.join(dims)} ({groups}{order}): {listed}{more}{where}{end}"


_GROUPED = frozenset({"breakdown", "timeseries", "topn"})


def _several_measures(
    result: dict[str, Any],
    columns: list[str],
    rows: list[list[Any]],
    said: list[str],
    shape: str,
    where: str,
    order_desc: bool | None,
    limit: int | None,
) -> str:
    """A breakdown, series or ranking of several measures the question asked for: each group
    with each measure by name ("Consumer (revenue 17,855,834.59, orders 136,232)"), grouped
    by the other columns alone, never by a measure."""
    at = {c: columns.index(c) for c in said}
    dims = [c for c in columns if c not in at]
    keys = [columns.index(c) for c in dims]
    name = lambda row: " / ".join(group_label(row[i]) for i in keys)  # noqa: E731
    each = lambda row: ", ".join(f"{humanize(m).lower()} {fmt(row[at[m]])}" for m in said)  # noqa: E731
    names = [humanize(m) for m in said]
    label = names[0] + "".join(
        f"{' and' if i == len(names) - 1 else ','} {n.lower()}" for i, n in enumerate(names[1:], 1)
    )
    if shape == "timeseries":
        first, last = rows[0], rows[-1]
        return (
            f"{label} by {', '.join(dims)} from {name(first)} to {name(last)}: "
            f"{each(last)} in {name(last)}{where}."
        )
    listed = ", ".join(f"{name(r)} ({each(r)})" for r in rows[:3])
    more = ", …" if len(rows) > 3 else ""
    end = "" if more and not where else "."
    if shape == "topn":
        ranked_by = [row[at[said[0]]] for row in rows]
        desc = order_desc if order_desc is not None else not _ascending([[v] for v in ranked_by])
        word = "Top" if desc else "Bottom"
        head = f"{word} {limit or len(rows)} {_plural(dims)} by {names[0].lower()}"
        return f"{head}: {listed}{more}{where}{end}"
    total = result.get("row_count", len(rows))
    groups = f"first {total} groups shown" if result.get("truncated") else f"{total} groups"
    return f"{label} by {', '.join(dims)} ({groups}): {listed}{more}{where}{end}"


def _grouped_by(
    columns: list[str],
    rows: list[list[Any]],
    grouping: list[str],
    measure: str | None,
    measures: list[str] | None = None,
) -> tuple[list[str], list[list[Any]]]:
    """One measure (`measure`, else the last number column) when the result holds every
    grouping column and several other number columns: "count order by l_returnflag,
    l_linestatus", not "… by l_returnflag, l_linestatus, sum_qty, …". Text columns stay (a
    product's name says more than its id); the other measures are in the table. Else the
    result as it is (a grain named in other words than its columns, one measure). The
    `measures` the question asked for, when it asked for several, are all kept."""
    wanted = {g.strip().lower() for g in grouping if g.strip()}
    dims = {i for i, c in enumerate(columns) if c.lower() in wanted}
    if not wanted or len(dims) < len(wanted):
        return columns, rows
    numbers = [i for i in range(len(columns)) if i not in dims and _numeric_column(rows, i)]
    if len(numbers) < 2:
        return columns, rows
    asked = [columns.index(m) for m in measures or [] if m in columns]
    if len(asked) < 2:
        at = columns.index(measure) if measure in columns else numbers[-1]
        asked = [at if at in numbers else numbers[-1]]
    keep = [i for i in range(len(columns)) if i not in numbers] + asked
    return [columns[i] for i in keep], [[row[i] for i in keep] for row in rows]


def _names_for_numbers(
    columns: list[str], rows: list[list[Any]]
) -> tuple[list[str], list[list[Any]]]:
    """`month` then `month_name` (7, July): the number orders the rows, the name is said;
    the sentence says "July", shown under the number's own heading."""
    named = {i for i in range(len(columns) - 1) if columns[i + 1] == f"{columns[i]}_name"}
    if not named:
        return columns, rows
    keep = [i for i in range(len(columns)) if i not in named]
    shown = [columns[i][: -len("_name")] if i - 1 in named else columns[i] for i in keep]
    return shown, [[row[i] for i in keep] for row in rows]


def asked_order(intent: dict[str, Any] | None) -> dict[str, Any]:
    """`describe`'s order_desc, limit and measures from a parsed intent (a QuestionSpec's
    dict)."""
    intent = intent or {}
    desc, limit = intent.get("order_desc"), intent.get("limit")
    asked: dict[str, Any] = {
        "order_desc": desc if isinstance(desc, bool) else None,
        "limit": limit if isinstance(limit, int) and not isinstance(limit, bool) else None,
    }
    measures = intent.get("measures") or []
    target = measures[0].get("target") if intent.get("listing") and measures else None
    if isinstance(target, dict) and target.get("column"):
        asked["measure"] = target["column"]  # rows ranked by their own column
    aliases = [m.get("alias") for m in measures if isinstance(m, dict)]
    if len(aliases) > 1 and all(isinstance(a, str) and a for a in aliases):
        asked["measures"] = aliases  # several asked: each said by name
    return asked


def _ranking(
    rows: list[list[Any]],
    dims: list[str],
    label: str,
    listed: str,
    where: str,
    order_desc: bool | None,
    limit: int | None,
) -> str:
    """A top-N / bottom-N sentence in the direction and with the N the question asked. The
    direction, when the question did not say it, is read from the rows' own order."""
    desc = order_desc if order_desc is not None else not _ascending(rows)
    asked = limit or len(rows)
    if asked == 1 and len(rows) == 1:
        extreme = "highest" if desc else "lowest"
        names = " / ".join(group_label(v) for v in rows[0][:-1])
        return f"{names} has the {extreme} {label.lower()}: {fmt(rows[0][-1])}{where}."
    word = "Top" if desc else "Bottom"
    fewer = f" (only {len(rows)} {'group' if len(rows) == 1 else 'groups'})"
    head = f"{word} {asked} {_plural(dims)} by {label.lower()}{fewer if len(rows) < asked else ''}"
    if len(rows) > 3:  # some of the N are not named: say so
        return f"{head}: {listed}, …{where}" + ("." if where else "")
    return f"{head}: {listed}{where}."


def _in_order(rows: list[list[Any]], desc: bool) -> bool:
    """Whether the measure (last column) never goes the other way down the rows."""
    values = [r[-1] for r in rows if isinstance(r[-1], int | float) and not isinstance(r[-1], bool)]
    pairs = list(pairwise(values))
    return all(a >= b for a, b in pairs) if desc else all(a <= b for a, b in pairs)


def _ascending(rows: list[list[Any]]) -> bool:
    """Whether the measure (last column) goes up strictly from the first row to the last."""
    values = [r[-1] for r in rows if isinstance(r[-1], int | float)]
    return len(values) > 1 and values[0] < values[-1]


def _plural(dims: list[str]) -> str:
    """The grouping as a plural noun: ["carrier"] -> "carriers"; several stay as written."""
    if len(dims) != 1:
        return ", ".join(dims)
    word = dims[0]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return word[:-1] + "ies"
    return word + "s"


_ISO_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


def period_label(column: str, value: Any) -> Any:
    """A truncated date as people say it, by the grain its column is named after:
    month "2025-12-01" -> "2025-12", quarter -> "Q4 2025", year -> "2025"."""
    grain = column.lower()
    match = _ISO_DAY.match(value) if isinstance(value, str) else None
    if match is None or grain not in ("month", "quarter", "year"):
        return value
    year, month = match.group(1), int(match.group(2))
    if grain == "year":
        return year
    if grain == "quarter":
        return f"Q{(month - 1) // 3 + 1} {year}"
    return f"{year}-{month:02d}"


def _listing(result: dict[str, Any], columns: list[str], rows: list[list[Any]], where: str) -> str:
    """Rows with no measure to rank them by (a lookup, the user's own SELECT *): say what
    came back and show the first few, not "X by Y" over a column that is not a number."""
    total = result.get("row_count", len(rows))
    # Whole numbers in a row listing are mostly ids and years: no thousands separators.
    cell = lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else fmt(v)  # noqa: E731
    shown = "; ".join(" / ".join(cell(v) for v in row[:4]) for row in rows[:3])
    named = ", ".join(columns[:5]) + (", …" if len(columns) > 5 else "")
    noun = "row" if total == 1 else "rows"
    more = ", …" if len(rows) > 3 else ""
    # A cut preview knows only that there are more rows, not how many.
    count = f"The first {total:,} {noun}" if result.get("truncated") else f"{total:,} {noun}"
    return f"{count} of {named}{where}: {shown}{more}."


_TELLS = frozenset({"year", "month", "day", "date", "name", "id"})  # what names a row


def _ranked_rows(
    result: dict[str, Any], columns: list[str], rows: list[list[Any]], where: str, desc: bool
) -> str:
    """Whole rows ranked by one of their numbers ("the 3 heaviest diamonds"): the number
    first, then what else tells the row apart."""
    total = result.get("row_count", len(rows))
    cell = lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else fmt(v)  # noqa: E731
    shown = "; ".join(
        f"{fmt(row[-1])} ({' / '.join(cell(v) for v in row[:-1][:3])})"
        if len(row) > 1
        else fmt(row[-1])
        for row in rows[:3]
    )
    more = ", …" if len(rows) > 3 else "."
    noun = "The row" if total == 1 else f"The {total:,} rows"
    side = "highest" if desc else "lowest"
    return f"{noun} with the {side} {humanize(columns[-1]).lower()}{where}: {shown}{more}"


def _numeric_column(rows: list[list[Any]], i: int) -> bool:
    return any(isinstance(r[i], int | float) and not isinstance(r[i], bool) for r in rows[:5])
