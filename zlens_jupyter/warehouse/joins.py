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

- composite keys: two tables sharing two or three such names (`ratings` and `episodes`,
  both one row per `(series, episode)`) and no single column that already joins them, joined
  on all of them together when the combination is unique on one side (a declared
  PRIMARY KEY/UNIQUE over those columns, or non-null distinct tuples = rows in the data; the
  smaller table asked first). Only the smallest unique combination counts, and never one
  holding a column unique by itself (the single-column rules above had their say on it);
  when neither side's combination is unique the tables are not joined. A FOREIGN KEY over
  several columns is a declared composite key.

A composite key is one `JoinKey` whose further column pairs are in `JoinKey.more`: whoever
writes its join condition writes every pair (`JoinKey.pairs`), never the first alone.
"""

from __future__ import annotations

import itertools
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
# Two tables sharing more joinable names than this are versions of one table, not a key
# (and every subset would be a uniqueness check).
_MAX_KEY_COLUMNS = 3

UniquenessCheck = Callable[[str, str], bool]
# Whether (table, columns) holds non-null distinct tuples, one per row (see column_is_unique).
CompositeCheck = Callable[[str, tuple[str, ...]], bool]


def infer_join_keys(
    tables: dict[str, TableInfo],
    constraints: Iterable[KeyConstraint],
    declared: Iterable[JoinKey],
    is_unique: UniquenessCheck,
    are_unique: CompositeCheck | None = None,
) -> tuple[JoinKey, ...]:
    """All join keys, declared first, each set of column pairs once.

    `are_unique` answers for several columns together; without it only declared
    PRIMARY KEY/UNIQUE constraints make a composite key."""
    constraints = list(constraints)
    keys = _KeySet()
    for key in declared:
        keys.add(key)
    for c in constraints:
        if (
            c.kind == "FOREIGN KEY"
            and c.referenced_table
            and 1 <= len(c.columns) == len(c.referenced_columns)
        ):
            pairs = list(zip(c.columns, c.referenced_columns, strict=True))
            keys.add(
                JoinKey(
                    c.table,
                    pairs[0][0],
                    c.referenced_table,
                    pairs[0][1],
                    "foreign_key",
                    tuple(pairs[1:]),
                )
            )
    unique = _UniqueColumns(constraints, is_unique, are_unique)
    for key in sorted(
        _same_name_keys(tables, unique) + _id_suffix_keys(tables, unique),
        key=lambda k: (k.left_table, k.left_column, k.right_table),
    ):
        keys.add(key)
    for key in _composite_keys(tables, unique, keys.items):
        keys.add(key)
    return tuple(keys.items)


class _KeySet:
    def __init__(self) -> None:
        self.items: list[JoinKey] = []
        self._seen: set[frozenset[frozenset[tuple[str, str]]]] = set()

    def add(self, key: JoinKey) -> None:
        pairs = frozenset(
            frozenset(
                {
                    (key.left_table.lower(), left.lower()),
                    (key.right_table.lower(), right.lower()),
                }
            )
            for left, right in key.pairs
        )
        if pairs not in self._seen:
            self._seen.add(pairs)
            self.items.append(key)


class _UniqueColumns:
    """Declared PRIMARY KEY/UNIQUE columns, else the data decides (asked once per column, or
    once per combination of columns with `together`)."""

    def __init__(
        self,
        constraints: list[KeyConstraint],
        is_unique: UniquenessCheck,
        are_unique: CompositeCheck | None = None,
    ) -> None:
        self.primary: dict[str, str] = {}
        self.declared: set[tuple[str, str]] = set()
        self.declared_together: set[tuple[str, frozenset[str]]] = set()
        for c in constraints:
            if c.kind in ("PRIMARY KEY", "UNIQUE") and len(c.columns) == 1:
                self.declared.add((c.table.lower(), c.columns[0].lower()))
                if c.kind == "PRIMARY KEY":
                    self.primary[c.table.lower()] = c.columns[0]
            elif c.kind in ("PRIMARY KEY", "UNIQUE") and len(c.columns) > 1:
                names = frozenset(name.lower() for name in c.columns)
                self.declared_together.add((c.table.lower(), names))
        self._check = is_unique
        self._check_together = are_unique
        self._cache: dict[tuple[str, str], bool] = {}
        self._cache_together: dict[tuple[str, tuple[str, ...]], bool] = {}

    def __call__(self, table: str, column: str) -> bool:
        key = (table.lower(), column.lower())
        if key in self.declared:
            return True
        if key not in self._cache:
            self._cache[key] = self._check(table, column)
        return self._cache[key]

    def together(self, table: str, columns: tuple[str, ...]) -> bool:
        """Whether the columns together are unique: declared so, else asked of the data."""
        names = tuple(c.lower() for c in columns)
        if (table.lower(), frozenset(names)) in self.declared_together:
            return True
        if self._check_together is None:
            return False
        key = (table.lower(), names)
        if key not in self._cache_together:
            self._cache_together[key] = self._check_together(table, columns)
        return self._cache_together[key]


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


def _shared_names(tables: dict[str, TableInfo]) -> dict[str, list[tuple[TableInfo, str, str]]]:
    """{base name: [(table, column, type), ...]} of the joinable, non-generic names two to
    `_MAX_TABLES_PER_NAME` tables share (a table's column prefix removed)."""
    by_base: dict[str, list[tuple[TableInfo, str, str]]] = {}
    for table in tables.values():
        prefix = _column_prefix(table)
        for column in table.columns:
            base = column.name.lower().removeprefix(prefix)
            if base not in _GENERIC_NAMES and _joinable(column.type):
                by_base.setdefault(base, []).append((table, column.name, column.type))
    return {
        base: members
        for base, members in by_base.items()
        if 2 <= len({m[0].name for m in members}) <= _MAX_TABLES_PER_NAME
    }


def _same_name_keys(tables: dict[str, TableInfo], unique: _UniqueColumns) -> list[JoinKey]:
    keys = []
    for base, members in _shared_names(tables).items():
        keys.extend(_keys_to_the_unique_member(members, unique, base.endswith(KEY_ENDINGS)))
    return keys


def _composite_keys(
    tables: dict[str, TableInfo], unique: _UniqueColumns, known: list[JoinKey]
) -> list[JoinKey]:
    """Keys over two or three same-named columns together, for tables no key joins yet."""
    joined = {frozenset({k.left_table.lower(), k.right_table.lower()}) for k in known}
    # (table a, table b) -> [(a's column, b's column), ...] in a's column order
    shared: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for members in _shared_names(tables).values():
        for a, b in itertools.combinations(sorted(members, key=lambda m: m[0].name), 2):
            if a[0].name != b[0].name and _compatible(a[2], b[2]):
                shared.setdefault((a[0].name, b[0].name), []).append((a[1], b[1]))
    keys = []
    for (a_name, b_name), pairs in sorted(shared.items()):
        if not 2 <= len(pairs) <= _MAX_KEY_COLUMNS:
            continue
        if frozenset({a_name.lower(), b_name.lower()}) in joined:
            continue
        key = _composite_key(tables[a_name], tables[b_name], pairs, unique)
        if key is not None:
            keys.append(key)
    return keys


def _composite_key(
    a: TableInfo, b: TableInfo, pairs: list[tuple[str, str]], unique: _UniqueColumns
) -> JoinKey | None:
    """The key from one table to the other whose columns together are unique, the smaller
    table asked first; the smallest unique combination, in the unique table's column order."""
    sides = [(a, b, pairs), (b, a, [(right, left) for left, right in pairs])]
    for many, one, oriented in sorted(sides, key=lambda s: (s[1].row_count, s[1].name)):
        position = {c.name: i for i, c in enumerate(one.columns)}
        ordered = sorted(oriented, key=lambda p: position.get(p[1], len(position)))
        if any(unique(one.name, right) for _, right in ordered):
            continue  # one column is a key by itself: the single-column rules decided
        for size in range(2, len(ordered) + 1):
            for combo in itertools.combinations(ordered, size):
                if unique.together(one.name, tuple(right for _, right in combo)):
                    (left, right), *more = combo
                    return JoinKey(many.name, left, one.name, right, "same_name", tuple(more))
    return None


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
