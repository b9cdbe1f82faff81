"""Inferring which columns join which tables.

Sources, strongest first: relationships declared in a semantic file, DuckDB FOREIGN KEY
constraints, then two naming heuristics that also demand evidence from the data:

- same base name in two tables (`flights.carrier` and `airlines.carrier`; TPC-H's
  `o_custkey` and `c_custkey` once each table's column prefix is removed), joined only when
  one side is unique (a declared PRIMARY KEY/UNIQUE, or unique in the data) and, for names
  that do not look like keys, the other side is not — so `flights.year` never joins
  `planes.year`, nor `airlines.name` joins `airports.name` — unless both sides are a unique
  text name over as many rows (two tables of the same 51 states).
- `<thing>_id` / `<thing>_key` pointing at a table called `<thing>` or `<things>` through its
  single-column primary key or its `id` column (`orders.customer_id -> customers.id`).

Keys are single-column: composite foreign keys are left out rather than half-used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from zlens_jupyter.warehouse.catalog import KeyConstraint
from zlens_jupyter.warehouse.models import ColumnInfo, JoinKey, TableInfo

# `customer_id`, `customer_key`, `customerId`: the part before the suffix names a table.
_KEY_SUFFIX = re.compile(r"^(?P<thing>[A-Za-z0-9]+?)(?:_id|_key|_ID|_KEY|Id|ID|Key)$")
KEY_ENDINGS = ("_id", "_key", "key")
_TABLE_PREFIX = re.compile(r"^([a-z]{1,3}_)", re.IGNORECASE)
# Names so generic that sharing them says nothing about a relationship.
_GENERIC_NAMES = frozenset(
    {
        "id",
        "key",
        "uuid",
        "pk",
        "rowid",
        "name",
        "title",
        "description",
        "comment",
        "notes",
        "label",
        "type",
        "status",
        "value",
    }
)
_UNJOINABLE_TYPES = ("FLOAT", "DOUBLE", "REAL", "BOOLEAN", "DATE", "TIME", "INTERVAL")
_MAX_TABLES_PER_NAME = 20  # a name shared by more tables is a convention, not a key

UniquenessCheck = Callable[[str, str], bool]


def infer_join_keys(
    tables: dict[str, TableInfo],
    constraints: Iterable[KeyConstraint],
    declared: Iterable[JoinKey],
    is_unique: UniquenessCheck,
) -> tuple[JoinKey, ...]:
    """All join keys, declared first, each pair of columns once."""
    constraints = list(constraints)
    keys = _KeySet()
    for key in declared:
        keys.add(key)
    for c in constraints:
        if c.kind == "FOREIGN KEY" and len(c.columns) == 1 and c.referenced_table:
            keys.add(
                JoinKey(
                    c.table,
                    c.columns[0],
                    c.referenced_table,
                    c.referenced_columns[0],
                    "foreign_key",
                )
            )
    unique = _UniqueColumns(constraints, is_unique)
    for key in sorted(
        _same_name_keys(tables, unique) + _id_suffix_keys(tables, unique),
        key=lambda k: (k.left_table, k.left_column, k.right_table),
    ):
        keys.add(key)
    return tuple(keys.items)


class _KeySet:
    def __init__(self) -> None:
        self.items: list[JoinKey] = []
        self._seen: set[frozenset[tuple[str, str]]] = set()

    def add(self, key: JoinKey) -> None:
        pair = frozenset(
            {
                (key.left_table.lower(), key.left_column.lower()),
                (key.right_table.lower(), key.right_column.lower()),
            }
        )
        if pair not in self._seen:
            self._seen.add(pair)
            self.items.append(key)


class _UniqueColumns:
    """Declared PRIMARY KEY/UNIQUE columns, else the data decides (asked once per column)."""

    def __init__(self, constraints: list[KeyConstraint], is_unique: UniquenessCheck) -> None:
        self.primary: dict[str, str] = {}
        self.declared: set[tuple[str, str]] = set()
        for c in constraints:
            if c.kind in ("PRIMARY KEY", "UNIQUE") and len(c.columns) == 1:
                self.declared.add((c.table.lower(), c.columns[0].lower()))
                if c.kind == "PRIMARY KEY":
                    self.primary[c.table.lower()] = c.columns[0]
        self._check = is_unique
        self._cache: dict[tuple[str, str], bool] = {}

    def __call__(self, table: str, column: str) -> bool:
        key = (table.lower(), column.lower())
        if key in self.declared:
            return True
        if key not in self._cache:
            self._cache[key] = self._check(table, column)
        return self._cache[key]


def _joinable(type_name: str) -> bool:
    upper = type_name.upper()
    nested = "[" in upper or upper.startswith(("STRUCT", "MAP", "LIST", "UNION"))
    return not nested and not upper.startswith(_UNJOINABLE_TYPES) and "TIMESTAMP" not in upper


def _compatible(a: str, b: str) -> bool:
    def family(t: str) -> str:
        upper = t.upper()
        if upper.startswith(("VARCHAR", "ENUM", "TEXT", "STRING")):
            return "text"
        if "INT" in upper or upper.startswith(("DECIMAL", "NUMERIC")):
            return "number"
        return upper

    return family(a) == family(b)


def _column_prefix(table: TableInfo) -> str:
    """A short prefix every column of the table shares (TPC-H's `l_`), or ''."""
    if len(table.columns) < 2:
        return ""
    first = _TABLE_PREFIX.match(table.columns[0].name)
    if first and all(c.name.lower().startswith(first.group(1).lower()) for c in table.columns):
        return first.group(1).lower()
    return ""


def _same_name_keys(tables: dict[str, TableInfo], unique: _UniqueColumns) -> list[JoinKey]:
    by_base: dict[str, list[tuple[TableInfo, str, str]]] = {}
    for table in tables.values():
        prefix = _column_prefix(table)
        for column in table.columns:
            base = column.name.lower().removeprefix(prefix)
            if base not in _GENERIC_NAMES and _joinable(column.type):
                by_base.setdefault(base, []).append((table, column.name, column.type))
    keys = []
    for base, members in by_base.items():
        if not 2 <= len({m[0].name for m in members}) <= _MAX_TABLES_PER_NAME:
            continue
        keys.extend(_keys_to_the_unique_member(members, unique, base.endswith(KEY_ENDINGS)))
    return keys


def _keys_to_the_unique_member(
    members: list[tuple[TableInfo, str, str]], unique: _UniqueColumns, key_like: bool
) -> list[JoinKey]:
    """Join every other table to the smallest table whose column is unique.

    Asking smallest tables first finds the lookup side (airlines, customer) without ever
    scanning the big fact table; descriptive names (not ..._id/..._key) also demand that the
    other side is not unique, so two unique columns of unrelated tables are not a key.
    """
    ordered = sorted(members, key=lambda m: (m[0].row_count, m[0].name))
    one = next((m for m in ordered if unique(m[0].name, m[1])), None)
    if one is None:
        return []
    source = "id_suffix" if key_like else "same_name"
    keys = []
    for many in ordered:
        if many[0].name == one[0].name or not _compatible(many[2], one[2]):
            continue
        if not key_like and unique(many[0].name, many[1]):
            continue
        keys.append(JoinKey(many[0].name, many[1], one[0].name, one[1], source))
    if not key_like:  # two tables of the same things side by side, each pair once
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                if (
                    a[0].name != b[0].name
                    and _one_to_one(a, b)
                    and unique(a[0].name, a[1])
                    and unique(b[0].name, b[1])
                ):
                    keys.append(JoinKey(b[0].name, b[1], a[0].name, a[1], source))
    return keys


def _one_to_one(many: tuple[TableInfo, str, str], one: tuple[TableInfo, str, str]) -> bool:
    """Two tables of the same things side by side (`murders.state`, `results.state`: 51
    states each): a text name unique in both, and as many rows in each."""
    text = many[2].upper().startswith(("VARCHAR", "TEXT", "STRING"))
    return text and many[0].row_count == one[0].row_count > 0


def _id_suffix_keys(tables: dict[str, TableInfo], unique: _UniqueColumns) -> list[JoinKey]:
    by_lower = {name.lower(): table for name, table in tables.items()}
    keys = []
    for table in tables.values():
        for column in table.columns:
            match = _KEY_SUFFIX.match(column.name)
            if not match or not _joinable(column.type):
                continue
            target = _table_named(match.group("thing").lower(), by_lower)
            if target is None or target.name == table.name:
                continue
            target_column = _primary_column(target, unique)
            if target_column and _compatible(column.type, target_column.type):
                keys.append(
                    JoinKey(table.name, column.name, target.name, target_column.name, "id_suffix")
                )
    return keys


def _table_named(thing: str, by_lower: dict[str, TableInfo]) -> TableInfo | None:
    plurals = [thing, thing + "s", thing + "es"]
    if thing.endswith("y"):
        plurals.append(thing[:-1] + "ies")
    return next((by_lower[p] for p in plurals if p in by_lower), None)


def _primary_column(table: TableInfo, unique: _UniqueColumns) -> ColumnInfo | None:
    declared = unique.primary.get(table.name.lower())
    if declared:
        return table.column(declared)
    return table.column("id")
