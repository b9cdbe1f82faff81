"""`zlens init`: draft a `semantic/*.yml` for a database from its catalog.

`draft_semantic(catalog, existing)` is pure: it reads the catalog (names, types, sampled
text values, inferred join keys) and returns the draft's items, each with the reason it was
inferred. `render_draft` turns them into commented YAML that the loader accepts, and
`write_draft` writes it under `semantic/` without ever replacing a file.

The rules, written into every draft's header so the user sees them:

- metrics come from numeric columns that are not keys, calendar parts or time: `avg` when
  the identifier reads as a rate, ratio, percentage, score, price, temperature or other
  per-item measurement (or its unit is %, °C, °F, mph, km/h), `sum` when it reads as an
  additive quantity or amount (amount, count, quantity, sales, revenue, cost, … or a
  currency unit), and `avg` when nothing decides (a mean of a measurement always makes
  sense, a sum often does not). Metric names are `total_<words>` / `average_<words>`, so a
  bare column word in a question ("price") still reaches the column and the answerer's own
  choice of aggregate: a draft never decides an aggregate the question did not ask for;
- dimensions come from text columns with few distinct values (the catalog's sample) and
  boolean columns;
- relationships are the join keys the warehouse inferred (FOREIGN KEY constraints, or the
  same key name on a unique column);
- the time column is the one DATE/TIMESTAMP column of the only table with dates, and only
  when that table has no integer year/month columns (those are the data's own calendar,
  which answers already use);
- labels are the identifier's words with abbreviations expanded and the unit apart:
  `weight_kg` -> "Weight (kg)"; synonyms are left empty for the user.

Names (and shared columns) are qualified with their table when two tables share a column
name, so a draft never redirects a bare word away from the question's own table, and nothing
already defined in the project's other semantic files is drafted twice.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from zlens_jupyter.errors import UserError
from zlens_jupyter.parsing.words import identifier_words, split_unit
from zlens_jupyter.semantic.loader import SEMANTIC_FOLDER, load_semantic
from zlens_jupyter.semantic.matching import normalize_phrase
from zlens_jupyter.semantic.model import TIME_GRAINS, SemanticModel
from zlens_jupyter.warehouse.models import Catalog, ColumnInfo, TableInfo

DRAFT_STEM = "draft"

# Words (after abbreviations are expanded) that make a numeric column an average.
AVG_WORDS = frozenset(
    [
        "rate",
        "rates",
        "ratio",
        "ratios",
        "percent",
        "percentage",
        "pct",
        "share",
        "proportion",
        "fraction",
        "probability",
        "score",
        "scores",
        "rating",
        "ratings",
        "grade",
        "rank",
        "index",
        "average",
        "avg",
        "mean",
        "median",
        "price",
        "prices",
        "temperature",
        "temp",
        "speed",
        "velocity",
        "pressure",
        "humidity",
        "density",
        "age",
        "latitude",
        "longitude",
        "lat",
        "lon",
        "lng",
        "elevation",
        "altitude",
        "depth",
        "height",
        "length",
        "width",
        "weight",
        "efficiency",
        "mpg",
        "mileage",
        "per",
        "level",
        "concentration",
        "ozone",
        "wind",
        "visibility",
        "unemployment",
    ]
)
# Words that make a numeric column additive: a total across rows means something.
SUM_WORDS = frozenset(
    [
        "amount",
        "amounts",
        "total",
        "sum",
        "quantity",
        "qty",
        "count",
        "counts",
        "number",
        "num",
        "sales",
        "sale",
        "revenue",
        "revenues",
        "cost",
        "costs",
        "spend",
        "spending",
        "expense",
        "expenses",
        "profit",
        "profits",
        "income",
        "fee",
        "fees",
        "payment",
        "payments",
        "paid",
        "volume",
        "units",
        "population",
        "pop",
        "visits",
        "views",
        "viewers",
        "passengers",
        "listings",
        "orders",
        "items",
        "deaths",
        "cases",
        "births",
        "votes",
        "sold",
        "bought",
    ]
)
AVG_UNITS = frozenset({"%", "°C", "°F", "mph", "km/h"})
CURRENCY_UNITS = frozenset({"USD", "EUR", "GBP"})
CALENDAR_PARTS = frozenset({"year", "month", "day", "hour", "minute", "quarter", "week"})
_NUMERIC = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "INT",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "DECIMAL",
    "NUMERIC",
    "DOUBLE",
    "FLOAT",
    "REAL",
)
_PLAIN_SQL = re.compile(r"^[a-z_][a-z0-9_]*$")
_RESERVED = frozenset(
    [
        "all",
        "and",
        "any",
        "as",
        "asc",
        "between",
        "by",
        "case",
        "cast",
        "check",
        "column",
        "constraint",
        "create",
        "default",
        "desc",
        "distinct",
        "do",
        "else",
        "end",
        "except",
        "false",
        "for",
        "foreign",
        "from",
        "grant",
        "group",
        "having",
        "in",
        "intersect",
        "into",
        "is",
        "join",
        "lateral",
        "left",
        "limit",
        "not",
        "null",
        "offset",
        "on",
        "or",
        "order",
        "outer",
        "primary",
        "references",
        "right",
        "select",
        "some",
        "table",
        "then",
        "to",
        "true",
        "union",
        "unique",
        "user",
        "using",
        "when",
        "where",
        "window",
        "with",
    ]
)
_PLAIN_YAML = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .()%/²°-]*$")
_YAML_WORDS = frozenset({"yes", "no", "on", "off", "true", "false", "null", "y", "n", "~"})


@dataclass(frozen=True)
class DraftItem:
    """One metric or dimension of the draft: its YAML fields and why it was inferred."""

    fields: dict[str, str]
    reason: str
    # Another (name, label) when the first is already taken (`percent_top3` beside `top3`).
    fallback: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class DraftRelationship:
    from_column: str  # table.column
    to_column: str
    reason: str


@dataclass
class Draft:
    """What `zlens init` proposes; `notes` are things it decided not to draft, and why."""

    metrics: list[DraftItem] = field(default_factory=list)
    dimensions: list[DraftItem] = field(default_factory=list)
    relationships: list[DraftRelationship] = field(default_factory=list)
    time: str | None = None
    time_reason: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.metrics or self.dimensions or self.relationships or self.time)


# -- inference ------------------------------------------------------------------------------


def is_numeric_type(sql_type: str) -> bool:
    upper = sql_type.upper()
    return upper.startswith(_NUMERIC) and "[" not in upper


def is_time_type(sql_type: str) -> bool:
    return sql_type.upper().startswith(("DATE", "TIMESTAMP"))


def is_key_column(name: str, catalog: Catalog, table: str) -> bool:
    """An identifier (`id`, `customer_id`, `custKey`) or one side of an inferred join key."""
    words = identifier_words(name)
    if words and words[-1] in ("id", "key", "uuid", "pk"):
        return True
    if name.lower().endswith(("_id", "key")) and name.lower() != "key":
        return True  # `l_orderkey`, `o_custkey`
    if words and words[-1] in ("number", "no", "nr", "code"):
        return True  # `flight_number`, `zip_code`: labels that happen to be numbers
    singular = tuple(w.removesuffix("s") for w in identifier_words(table))
    if words and tuple(w.removesuffix("s") for w in words) == singular:
        return True  # `flights.flight`, `episodes.episode`: the row's own number
    return any(
        (k.left_table == table and any(left == name for left, _ in k.pairs))
        or (k.right_table == table and any(right == name for _, right in k.pairs))
        for k in catalog.join_keys
    )


def calendar_part(column: ColumnInfo) -> str | None:
    """`year`, `month`, … for an integer column named as a calendar part, else None."""
    if not is_numeric_type(column.type) or column.type.upper().startswith(
        ("DOUBLE", "FLOAT", "REAL", "DECIMAL", "NUMERIC")
    ):
        return None
    words = identifier_words(column.name)
    return words[-1] if words and words[-1] in CALENDAR_PARTS and len(words) <= 2 else None


def label_of(name: str) -> str:
    """`weight_kg` -> "Weight (kg)", `dep_delay` -> "Departure delay", `Solar.R` -> "Solar r"."""
    words, unit = split_unit(name)
    text = " ".join(words) or name
    text = text[:1].upper() + text[1:]
    return f"{text} ({unit})" if unit else text


def aggregate_for(name: str) -> tuple[str, str]:
    """(`sum` | `avg`, the reason) for a numeric column, by its words and unit."""
    words, unit = split_unit(name)
    all_words = set(words) | set(identifier_words(name))
    avg_hit = sorted(all_words & AVG_WORDS)
    sum_hit = sorted(all_words & SUM_WORDS)
    if unit in AVG_UNITS:
        return "avg", f"its unit {unit} is a rate or reading, averaged"
    if avg_hit:
        return "avg", f"'{avg_hit[0]}' reads as a rate, score or per-item measurement"
    if sum_hit:
        return "sum", f"'{sum_hit[0]}' reads as an additive quantity or amount"
    if unit in CURRENCY_UNITS:
        return "sum", f"its unit {unit} is an amount of money, added up"
    return "avg", "no word says it adds up, so the mean of the measurement"


def _ident(words: tuple[str, ...] | list[str]) -> str:
    text = "_".join(re.sub(r"[^a-z0-9]+", "_", w.lower()).strip("_") for w in words)
    text = re.sub(r"_+", "_", text).strip("_") or "column"
    return text if re.match(r"^[a-z_]", text) else f"c_{text}"


def quote_sql(column: str) -> str:
    """The column as it must appear in the metric's SQL: bare when plain, else quoted."""
    if _PLAIN_SQL.match(column) and column not in _RESERVED:
        return column
    return '"' + column.replace('"', '""') + '"'


class _Names:
    """Claims names and phrases the way the loader checks them, one namespace per kind."""

    def __init__(self, taken: set[tuple[str, ...]]) -> None:
        self.taken = set(taken)

    def free(self, *phrases: str) -> bool:
        keys = {normalize_phrase(p) for p in phrases if p}
        return not (keys & self.taken)

    def claim(self, *phrases: str) -> None:
        self.taken |= {normalize_phrase(p) for p in phrases if p}


def _phrases_of(items: tuple[object, ...]) -> set[tuple[str, ...]]:
    keys: set[tuple[str, ...]] = set()
    for item in items:
        name, label, synonyms = (
            getattr(item, "name", ""),
            getattr(item, "label", ""),
            getattr(item, "synonyms", ()),
        )
        keys |= {normalize_phrase(p) for p in (name, label, *synonyms) if p}
    return keys


def draft_semantic(catalog: Catalog, existing: SemanticModel | None = None) -> Draft:
    """The draft for a catalog, leaving out what `existing` (the project's other semantic
    files) already defines, so the two load together."""
    existing = existing or SemanticModel()
    draft = Draft()
    tables = sorted(catalog.tables.values(), key=lambda t: t.name.lower())
    shared = _shared_column_names(tables)
    metric_names = _Names(_phrases_of(existing.metrics))
    dimension_names = _Names(_phrases_of(existing.dimensions))
    described = {(m.table.lower(), m.sql.strip('"').lower()) for m in existing.metrics}
    described |= {(d.table.lower(), d.sql.strip('"').lower()) for d in existing.dimensions}
    for table in tables:
        for column in table.columns:
            if (table.name.lower(), column.name.lower()) in described:
                continue
            metric = _metric_for(catalog, table, column, column.name.lower() in shared)
            if metric is not None:
                _add(draft.metrics, metric, metric_names, draft.notes)
            dimension = _dimension_for(catalog, table, column, column.name.lower() in shared)
            if dimension is not None:
                _add(draft.dimensions, dimension, dimension_names, draft.notes)
    _relationships(catalog, existing, draft)
    _time(tables, existing, draft)
    return draft


def _shared_column_names(tables: list[TableInfo]) -> set[str]:
    seen: dict[str, int] = {}
    for table in tables:
        for column in {c.name.lower() for c in table.columns}:
            seen[column] = seen.get(column, 0) + 1
    return {name for name, n in seen.items() if n > 1}


def _add(items: list[DraftItem], item: DraftItem, names: _Names, notes: list[str]) -> None:
    phrases = (item.fields["name"], item.fields.get("label", ""))
    for name, label in item.fallback:
        if names.free(*phrases):
            break
        if names.free(name, label):
            item = DraftItem({**item.fields, "name": name, "label": label}, item.reason)
            phrases = (name, label)
    if not names.free(*phrases):
        notes.append(
            f"{item.fields['table']}.{item.fields.get('sql', item.fields['name'])}: "
            f"'{item.fields['name']}' is already named in the project; not drafted"
        )
        return
    names.claim(*phrases)
    items.append(item)


def _metric_for(
    catalog: Catalog, table: TableInfo, column: ColumnInfo, shared: bool
) -> DraftItem | None:
    if not is_numeric_type(column.type) or calendar_part(column) is not None:
        return None
    if is_key_column(column.name, catalog, table.name):
        return None
    all_words = identifier_words(column.name)
    if {"date", "time", "timestamp", "code", "zip", "phone"} & set(all_words):
        return None  # a date or a code held as a number: not a quantity
    if shared and not column.type.upper().startswith(("DOUBLE", "FLOAT", "REAL", "DECIMAL")):
        return None  # an integer column in several tables (bakeoff's series): a key
    agg, why = aggregate_for(column.name)
    words, unit = split_unit(column.name)
    qualifier = identifier_words(table.name) if shared else ()
    prefix = "total" if agg == "sum" else "average"
    if words[:1] == (prefix,):
        words = words[1:] or words  # total_episodes -> total_episodes, not total_total_…
    name = _ident([prefix, *qualifier, *words])
    base = label_of(column.name)
    label = f"{prefix.capitalize()} {base[:1].lower()}{base[1:]}"
    if label.lower().startswith(f"{prefix} {prefix} "):
        label = label[len(prefix) + 1 :].capitalize()
    if shared:
        label = f"{label} of {' '.join(identifier_words(table.name))}"
    return DraftItem(
        {
            "name": name,
            "label": label,
            "type": agg,
            "sql": quote_sql(column.name),
            "table": table.name,
        },
        f"{table.name}.{column.name} ({column.type}): {agg}, {why}"
        + (f"; unit {unit}" if unit and unit not in why else ""),
        fallback=(
            (
                _ident([prefix, *qualifier, *all_words]),
                f"{prefix.capitalize()} {' '.join(all_words)}",
            ),
            (
                _ident([prefix, *identifier_words(table.name), *all_words]),
                f"{prefix.capitalize()} {' '.join(all_words)} of "
                f"{' '.join(identifier_words(table.name))}",
            ),
        ),
    )


def _dimension_for(
    catalog: Catalog, table: TableInfo, column: ColumnInfo, shared: bool
) -> DraftItem | None:
    upper = column.type.upper()
    if upper == "BOOLEAN":
        dim_type, why = "boolean", "a true/false column"
    elif column.distinct_values:
        n = len(column.distinct_values)
        sample = ", ".join(column.distinct_values[:4]) + (", …" if n > 4 else "")
        dim_type, why = "string", f"text with {n} distinct value(s): {sample}"
    else:
        return None
    words = identifier_words(column.name)
    qualifier = identifier_words(table.name) if shared else ()
    name = _ident([*qualifier, *words])
    label = label_of(column.name)
    if shared:
        label = f"{label} of {' '.join(identifier_words(table.name))}"
    fields = {"name": name, "label": label, "type": dim_type, "table": table.name}
    if name != column.name:
        fields["sql"] = quote_sql(column.name)
    tables = identifier_words(table.name)
    return DraftItem(
        fields,
        f"{table.name}.{column.name} ({column.type}): {why}",
        fallback=((_ident([*tables, *words]), f"{label} of {' '.join(tables)}"),),
    )


_KEY_SOURCES = {
    "foreign_key": "a FOREIGN KEY constraint",
    "same_name": "the same column name, unique on the `to` side",
    "id_suffix": "a key name (…_id/…_key or shared key), unique on the `to` side",
}


def _relationships(catalog: Catalog, existing: SemanticModel, draft: Draft) -> None:
    have = {
        frozenset({(r.from_table, r.from_column), (r.to_table, r.to_column)})
        for r in existing.relationships
    }
    for key in catalog.join_keys:
        if key.composite:
            # A relationship in the semantic file is one column to one column: a composite
            # key cannot be written as one, and writing its first pair alone would join
            # wrongly (many rows per value), so it is left out of the draft.
            draft.notes.append(
                f"join {key.condition()}: a key over several columns cannot be written as a "
                "relationship (one column each side), so it is not drafted (the warehouse "
                "still uses it)"
            )
            continue
        pair = frozenset({(key.left_table, key.left_column), (key.right_table, key.right_column)})
        if key.source == "declared" or pair in have:
            continue
        names = (key.left_table, key.left_column, key.right_table, key.right_column)
        if not all(re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", n) for n in names):
            draft.notes.append(
                f"join {key.left_table}.{key.left_column} = {key.right_table}."
                f"{key.right_column}: a name is not a plain identifier, so it cannot be "
                "written as a relationship (the warehouse still uses it)"
            )
            continue
        have.add(pair)
        draft.relationships.append(
            DraftRelationship(
                f"{key.left_table}.{key.left_column}",
                f"{key.right_table}.{key.right_column}",
                f"inferred from {_KEY_SOURCES.get(key.source, key.source)}",
            )
        )


def _time(tables: list[TableInfo], existing: SemanticModel, draft: Draft) -> None:
    if existing.time is not None:
        draft.notes.append(f"time: already defined ({existing.time.column}); not drafted")
        return
    dated = [t for t in tables if any(is_time_type(c.type) for c in t.columns)]
    calendars = [t for t in tables if any(calendar_part(c) for c in t.columns)]
    if not dated:
        if calendars:
            parts = ", ".join(
                f"{t.name}.{c.name}" for t in calendars for c in t.columns if calendar_part(c)
            )
            draft.time_reason = (
                f"no DATE/TIMESTAMP column; {parts} are integer calendar parts, which answers "
                "use for 'per year' / 'by month' as they are (a time entry needs a date column)"
            )
        else:
            draft.time_reason = "no DATE/TIMESTAMP column and no integer year/month column"
        return
    if len(dated) > 1 or (calendars and calendars != dated):
        names = ", ".join(t.name for t in sorted({*dated, *calendars}, key=lambda t: t.name))
        draft.time_reason = (
            f"several tables carry time ({names}); a project-wide time column would date "
            "every joined table by one of them, so pick one yourself if that is what you mean"
        )
        return
    table = dated[0]
    columns = [c for c in table.columns if is_time_type(c.type)]
    own_parts = [c.name for c in table.columns if calendar_part(c)]
    if own_parts:
        draft.time_reason = (
            f"{table.name} has integer calendar columns ({', '.join(own_parts)}) besides "
            f"{', '.join(c.name for c in columns)}; answers use the data's own calendar "
            "columns, so no time column is drafted"
        )
        return
    if len(columns) > 1:
        draft.time_reason = (
            f"{table.name} has several date columns ({', '.join(c.name for c in columns)}); "
            "pick the one answers should use"
        )
        return
    column = columns[0]
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", table.name + column.name):
        draft.time_reason = f"{table.name}.{column.name} is not a plain identifier"
        return
    draft.time = f"{table.name}.{column.name}"
    draft.time_reason = f"the only date column: {table.name}.{column.name} ({column.type})"


# -- rendering ------------------------------------------------------------------------------


def _scalar(text: str) -> str:
    if _PLAIN_YAML.match(text) and text.lower() not in _YAML_WORDS and not text.endswith(" "):
        return text
    if "'" not in text and text.isprintable():
        return f"'{text}'"  # '"Solar.R"': quoted SQL inside a single-quoted YAML scalar
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def render_draft(draft: Draft, source: str, *, today: dt.date | None = None) -> str:
    """The draft as commented YAML: a header saying it is a draft, a comment per item."""
    day = (today or dt.date.today()).isoformat()
    lines = [
        f"# DRAFT semantic model for {source}, written by `zlens init` on {day}.",
        "# It is a guess from the catalog, not a reviewed definition: read every item, fix or",
        "# delete what is wrong, add synonyms (the words your team uses), then rename the file",
        "# if you like. `zlens init` never overwrites it.",
        "#",
        "# How it was inferred:",
        "# - metrics: numeric columns that are not keys, dates or year/month parts. type avg",
        "#   when a word or unit reads as a rate, ratio, percentage, score, price, temperature",
        "#   or other per-item measurement (%, °C, °F, mph); sum when it reads as an additive",
        "#   quantity or amount (amount, count, quantity, sales, cost, a currency unit); avg",
        "#   when nothing decides. Named total_…/average_… so a bare column word in a question",
        "#   still lets the question choose its aggregate.",
        "# - dimensions: text columns with few distinct values, and boolean columns.",
        "# - relationships: the join keys the warehouse inferred.",
        "# - time: the only DATE/TIMESTAMP column, when one table alone carries dates.",
        "# - labels: the column's words, abbreviations expanded, unit apart (weight_kg ->",
        '#   "Weight (kg)"). synonyms: left empty for you.',
    ]
    for note in draft.notes:
        lines.append(f"# Not drafted: {note}")
    lines.append("")
    lines.append("metrics:" if draft.metrics else "metrics: []")
    for item in draft.metrics:
        lines += _item_lines(item, ("name", "label", "type", "sql", "table"))
    lines.append("")
    lines.append("dimensions:" if draft.dimensions else "dimensions: []")
    for item in draft.dimensions:
        lines += _item_lines(item, ("name", "label", "type", "sql", "table"))
    lines.append("")
    lines.append("relationships:" if draft.relationships else "relationships: []")
    for rel in draft.relationships:
        lines.append(f"  # {rel.reason}")
        lines.append(f"  - from: {rel.from_column}")
        lines.append(f"    to: {rel.to_column}")
    lines.append("")
    if draft.time:
        lines.append(f"# {draft.time_reason}")
        lines.append("time:")
        lines.append(f"  column: {draft.time}")
        lines.append(f"  grains: [{', '.join(TIME_GRAINS)}]")
    else:
        lines.append(f"# time: not drafted: {draft.time_reason}")
    return "\n".join(lines) + "\n"


def _item_lines(item: DraftItem, order: tuple[str, ...]) -> list[str]:
    lines = [f"  # from {item.reason}"]
    first = True
    for key in order:
        if key not in item.fields:
            continue
        lead = "  - " if first else "    "
        lines.append(f"{lead}{key}: {_scalar(item.fields[key])}")
        first = False
    lines.append("    synonyms: []")
    return lines


# -- writing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class InitResult:
    """Where the draft went (None when there was nothing new to draft) and what it holds."""

    path: Path | None
    draft: Draft

    def summary(self) -> str:
        d = self.draft
        counts = (
            f"{len(d.metrics)} metric(s), {len(d.dimensions)} dimension(s), "
            f"{len(d.relationships)} relationship(s), time: {d.time or 'none'}"
        )
        if self.path is None:
            return f"nothing new to draft: the project's semantic files already cover it ({counts})"
        return f"wrote {self.path} ({counts}); it is a draft: review and edit it"


def write_draft(project_dir: str | Path, text: str, *, new_name: bool = False) -> Path:
    """Create `semantic/draft.yml` (or, with `new_name`, the first free `draft-N.yml`).

    Never replaces a file: an existing draft stops with a message unless `new_name` asks
    for a new file beside it, and the file is opened in exclusive-create mode.
    """
    folder = Path(project_dir) / SEMANTIC_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{DRAFT_STEM}.yml"
    if path.exists() or path.is_symlink():
        if not new_name:
            raise UserError(
                f"{path} already exists: edit it, or delete it to draft again; "
                "--force-new-name writes a new draft-N.yml beside it instead"
            )
        n = 2
        while (folder / f"{DRAFT_STEM}-{n}.yml").exists() or (
            folder / f"{DRAFT_STEM}-{n}.yml"
        ).is_symlink():
            n += 1
        path = folder / f"{DRAFT_STEM}-{n}.yml"
    with path.open("x", encoding="utf-8") as handle:
        handle.write(text)
    return path


def init_project(
    catalog: Catalog, project_dir: str | Path, source: str, *, new_name: bool = False
) -> InitResult:
    """Draft, write and check: the project (with the new file) must load, else the file is
    removed again and the loader's message raised."""
    existing = load_semantic(project_dir)
    if (Path(project_dir) / SEMANTIC_FOLDER / f"{DRAFT_STEM}.yml").exists() and not new_name:
        write_draft(project_dir, "", new_name=False)  # raises the "already exists" message
    draft = draft_semantic(catalog, existing)
    if draft.is_empty:
        return InitResult(None, draft)
    path = write_draft(project_dir, render_draft(draft, source), new_name=new_name)
    try:
        load_semantic(project_dir)
    except UserError:
        path.unlink()
        raise
    return InitResult(path, draft)
