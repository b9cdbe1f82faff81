"""`Warehouse`: one DuckDB database as the rest of ZLens sees it.

Everything the agent may do with data goes through here: read the catalog, link a question
to tables and columns, probe values, validate and guard SQL, and run a bounded preview.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType

import duckdb

from zlens_jupyter import disk_memo
from zlens_jupyter.errors import ConfigError, QueryError
from zlens_jupyter.warehouse.catalog import (
    PROBE_VALUE_BUDGET,
    ColumnValues,
    KeyConstraint,
    SchemaShape,
    column_is_unique,
    columns_are_unique,
    fingerprint_of,
    is_read_only,
    read_change_signal,
    read_check_key,
    read_columns_of,
    read_key_constraints,
    read_shape,
    sample_tables,
    scan_tables,
)
from zlens_jupyter.warehouse.catalog_cache import Profile, load_profile, save_profile, signature
from zlens_jupyter.warehouse.connection import harden, open_database
from zlens_jupyter.warehouse.guard import builtins, guard_read_only, normalize_source
from zlens_jupyter.warehouse.joins import infer_join_keys
from zlens_jupyter.warehouse.linking import IndexCache
from zlens_jupyter.warehouse.models import (
    Catalog,
    IdentifierProblem,
    JoinKey,
    LinkResult,
    Preview,
    TableInfo,
    ValueMatch,
)
from zlens_jupyter.warehouse.preview import Params, run_preview
from zlens_jupyter.warehouse.probing import ValueIndex
from zlens_jupyter.warehouse.text_dates import detect_text_dates, with_text_dates
from zlens_jupyter.warehouse.validate import nearest_names, validate_identifiers
from zlens_jupyter.warehouse.views import StoredViews, referenced_tables

# Past this many tables and views, values are sampled where questions and runs lead (the
# tables linking ranks for a question, the tables a run's SQL reads), not all at connect:
# sampling every table of a 1,000-table database was most of connect time.
LAZY_SAMPLE_TABLES = 200


@dataclass
class _Snapshot:
    """Everything derived from one schema shape, replaced as a whole when the shape changes."""

    check_key: str
    catalog: Catalog
    values: ValueIndex
    constraints: list[KeyConstraint]
    uniqueness: dict[tuple[str, str], bool] = field(default_factory=dict)
    # The same for several columns together (composite keys): (table, columns) -> unique.
    composite_uniqueness: dict[tuple[str, tuple[str, ...]], bool] = field(default_factory=dict)
    # Lazy sampling (LAZY_SAMPLE_TABLES): tables whose values are not sampled yet, what is
    # left of the probe-value budget, the probe values so far and the profile's cache key.
    unsampled: set[str] = field(default_factory=set)
    budget: int = 0
    probe_values: list[ColumnValues] = field(default_factory=list)
    cache_key: str | None = None
    # Join keys are inferred when the catalog is first asked for (see `Warehouse.catalog`),
    # not at connect: their uniqueness checks are the costliest part of a cold connect's
    # memory (TPC-H SF3: ~30 MiB of hash tables), and a certified answer needs no join.
    joined: bool = False
    # On a wide database someone else may change: the cheap change signal read with it.
    signal: str | None = None
    # Text columns holding dates, (table, column) -> format, found on the first question,
    # and the catalog read with them (for the catalog it was made from: keys may be declared).
    text_dates: dict[tuple[str, str], str] | None = None
    dated: tuple[Catalog, Catalog] | None = None


class Warehouse:
    """A DuckDB database with a cached catalog, schema linking and a read-only query path.

    >>> wh = Warehouse.connect(":memory:")
    >>> wh.preview("SELECT 42 AS answer").rows
    [(42,)]
    """

    dialect = "duckdb"  # the sqlglot dialect of its SQL (see interface.WarehouseEngine)

    def __init__(
        self,
        connection: duckdb.DuckDBPyConnection,
        *,
        owned: bool = False,
        private: bool = False,
        reopen: Callable[[], duckdb.DuckDBPyConnection] | None = None,
        database: str | os.PathLike[str] | None = None,
    ) -> None:
        self.connection = connection
        # The file we opened, whose profile is cached on disk across processes (None for
        # ":memory:" and for a connection the user passed in: nothing to key it by).
        self._database = Path(database) if database is not None else None
        self._owned = owned
        # A private instance (we opened it, no one shares it) is locked down before the first
        # query (`_harden`); anyone else's connection keeps its settings, and the read-only
        # transaction of every agent cursor is what protects it (connection.bounded_cursor).
        self._private = private
        self._hardened = False
        self._reopen = reopen
        self._views: StoredViews | None = None
        self._lock = threading.RLock()
        self._snapshot: _Snapshot | None = None
        self._pins = 0
        self._declared: list[tuple[str, str, str, str]] = []
        self._allowed_sources: list[str] = []
        self._indexes = IndexCache()
        # A file we opened read-only cannot change shape while we hold it: DuckDB's file lock
        # keeps writers out, and the guard keeps ATTACH/DDL out of our own queries. Its schema
        # is read once, not checked before every run (~6 ms on TPC-H, more on wide schemas).
        self._schema_fixed = owned and is_read_only(connection)
        self._closed = False
        # Set when something suggests a change the cheap signal cannot see (a column renamed
        # or retyped in place): the next check is the full one.
        self._recheck = False
        # The last catalog schema fingerprints were taken from, and theirs by table names.
        self._fingerprints: tuple[object, dict[tuple[str, ...], str]] = (None, {})

    @classmethod
    def connect(
        cls,
        target: str | os.PathLike[str] | duckdb.DuckDBPyConnection,
        *,
        read_only: bool | None = None,
    ) -> Warehouse:
        """Open a .duckdb file, ":memory:", or wrap an open connection (which stays the
        caller's: `close()` leaves it open). A missing file is a ConfigError saying what to
        pass instead. Files open read-only unless `read_only=False`."""
        connection, owned, private = open_database(target, read_only)
        reopen: Callable[[], duckdb.DuckDBPyConnection] | None = None
        if private and not isinstance(target, duckdb.DuckDBPyConnection):
            reopen = _reopener(target, read_only)
        database = None
        if owned and not isinstance(target, duckdb.DuckDBPyConnection):
            database = None if os.fspath(target) == ":memory:" else target
        return cls(connection, owned=owned, private=private, reopen=reopen, database=database)

    @property
    def is_private(self) -> bool:
        """True when ZLens opened this database instance itself and locks its settings
        (no file or network access but registered sources, no extension loading, locked
        configuration). False for a connection the user passed in: its settings stay as the
        user set them."""
        return self._private

    def _harden(self) -> None:
        """Lock a private instance once, before any SQL reads its data."""
        with self._lock:
            if self._private and not self._hardened:
                harden(self.connection, [normalize_source(s) for s in self._allowed_sources])
                self._hardened = True

    @property
    def schema_is_fixed(self) -> bool:
        """True when the schema is read once: we opened the file read-only, so no one can
        change it while we hold it. Otherwise every run re-checks it."""
        return self._schema_fixed

    def close(self) -> None:
        """Close the connection if this warehouse opened it; using it afterwards is a
        ConfigError that says to connect again."""
        self._closed = True
        if self._owned:
            self.connection.close()

    @contextmanager
    def _open_connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The connection, or one clear error when it was closed (by us or by its owner)."""
        if self._closed:
            raise ConfigError(CLOSED)
        try:
            yield self.connection
        except duckdb.ConnectionException as error:
            if "closed" in str(error).lower():
                raise ConfigError(CLOSED) from error
            raise

    def __enter__(self) -> Warehouse:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- catalog ---------------------------------------------------------------------

    def catalog(self) -> Catalog:
        """The catalog, rebuilt only when table/column names, types or comments changed.

        Each call costs one query over duckdb_columns(); row counts and sampled values are
        recomputed only with a rebuild (so they can lag behind inserts). Its join keys are
        inferred on the first call after a rebuild.
        """
        return self._joined(self._current()).catalog

    def dated_catalog(self) -> Catalog:
        """The catalog with text columns of dates written one way typed as dates (see
        text_dates): sampled once per schema, when a question first needs the catalog."""
        snapshot = self._joined(self._current())
        if snapshot.text_dates is None:
            with self._lock, self._open_connection() as connection:
                snapshot.text_dates = detect_text_dates(connection, snapshot.catalog)
        if snapshot.dated is None or snapshot.dated[0] is not snapshot.catalog:
            snapshot.dated = (
                snapshot.catalog,
                with_text_dates(snapshot.catalog, snapshot.text_dates),
            )
        return snapshot.dated[1]

    def _joined(self, snapshot: _Snapshot) -> _Snapshot:
        """`snapshot` with its join keys inferred (once), and their uniqueness checks kept
        in the persisted profile."""
        if snapshot.joined:
            return snapshot
        with self._lock:
            if not snapshot.joined:
                checked = len(snapshot.uniqueness) + len(snapshot.composite_uniqueness)
                self._with_join_keys(snapshot)
                now = len(snapshot.uniqueness) + len(snapshot.composite_uniqueness)
                if snapshot.cache_key and now != checked:
                    self._save(snapshot)
        return snapshot

    @contextmanager
    def pinned(self) -> Iterator[Catalog]:
        """Check the schema once for a whole block of work (one run), not on every call.

        On a wide database the check costs ~0.1 s (duckdb_columns() over every column), and
        one run asks for the catalog a dozen times; a run should see one schema anyway."""
        with self._lock:
            snapshot = self._joined(self._current())
            self._pins += 1
        try:
            yield snapshot.catalog
        finally:
            with self._lock:
                self._pins -= 1

    def _current(self) -> _Snapshot:
        with self._lock:
            if self._closed:
                raise ConfigError(CLOSED)
            if self._snapshot is not None and (self._pins or self._schema_fixed):
                return self._snapshot
            with self._open_connection() as connection:
                # A wide database someone else may change is checked with the cheap signal
                # (tables and views created, dropped, replaced, columns added or dropped,
                # ~8 ms at 1,000 tables) instead of hashing every column (~85 ms); the
                # in-place changes it cannot see are caught where they matter (see
                # `schema_fingerprint` and `preview`) and force the full check.
                snapshot = self._snapshot
                signal = None
                if snapshot is not None and snapshot.signal is not None:
                    signal = read_change_signal(connection)
                    if signal == snapshot.signal and not self._recheck:
                        return snapshot
                check_key = read_check_key(connection)
            self._recheck = False
            if snapshot is None or snapshot.check_key != check_key:
                snapshot = self._snapshot = self._scan(read_shape(self.connection, check_key))
            if len(snapshot.catalog.tables) > LAZY_SAMPLE_TABLES:
                snapshot.signal = signal or read_change_signal(self.connection)
            return snapshot

    def _scan(self, shape: SchemaShape) -> _Snapshot:
        self._harden()
        views = self._stored_views(self.connection)
        # A stored view that reads files, URLs or forbidden functions is never sampled: its
        # contents must not land in catalog data (and from there in a model's prompt).
        # A macro shadowing a built-in (`count`, `list`) would run inside the scan's own SQL:
        # then nothing is sampled at all.
        # (DuckDB's own function list is read only when the database defines macros at all.)
        shadowed = bool(views.functions) and bool(views.functions & builtins().known)
        key = (
            signature(self._database, shape.check_key, tuple(self._allowed_sources))
            if self._database is not None
            else None
        )
        profile = load_profile(key) if key else None
        if profile is None:

            def may_read(name: str) -> bool:
                return not shadowed and views.refusal(name, self._allowed_sources) is None

            lazy = len({row.table for row in shape.rows}) > LAZY_SAMPLE_TABLES
            tables, probe_values = scan_tables(
                self.connection, shape, may_read=may_read, sample=lambda name: not lazy
            )
            profile = Profile(tables, probe_values, read_key_constraints(self.connection))
            if lazy:
                profile.unsampled = {name for name in tables if may_read(name)}
            fresh = True
        else:
            fresh = False
        snapshot = _Snapshot(
            check_key=shape.check_key,
            catalog=Catalog(profile.tables, (), shape.fingerprint),
            values=ValueIndex(profile.probe_values),
            constraints=profile.constraints,
            uniqueness=dict(profile.uniqueness),
            composite_uniqueness=dict(profile.composite_uniqueness),
            unsampled=set(profile.unsampled),
            budget=PROBE_VALUE_BUDGET - sum(len(v.values) for v in profile.probe_values),
            probe_values=list(profile.probe_values),
            cache_key=key,
        )
        if key and fresh:  # join inference adds its uniqueness checks when it runs
            save_profile(key, profile)
        return snapshot

    def _with_join_keys(self, snapshot: _Snapshot) -> _Snapshot:
        tables = snapshot.catalog.tables
        by_lower = {name.lower(): table for name, table in tables.items()}

        def is_unique(table: str, column: str) -> bool:
            key = (table.lower(), column.lower())
            if key not in snapshot.uniqueness:
                snapshot.uniqueness[key] = column_is_unique(
                    self.connection, by_lower[table.lower()], column
                )
            return snapshot.uniqueness[key]

        def are_unique(table: str, columns: tuple[str, ...]) -> bool:
            key = (table.lower(), tuple(c.lower() for c in columns))
            if key not in snapshot.composite_uniqueness:
                snapshot.composite_uniqueness[key] = columns_are_unique(
                    self.connection, by_lower[table.lower()], columns
                )
            return snapshot.composite_uniqueness[key]

        declared = [k for pair in self._declared if (k := _resolve(snapshot.catalog, pair))]
        keys = infer_join_keys(tables, snapshot.constraints, declared, is_unique, are_unique)
        snapshot.catalog = snapshot.catalog.with_join_keys(keys)
        snapshot.joined = True
        return snapshot

    def declare_relationships(self, pairs: Iterable[tuple[str, str, str, str]]) -> None:
        """Add (from_table, from_column, to_table, to_column) joins from a semantic file.

        Raises ConfigError naming the nearest real names when a table or column is unknown.
        """
        with self._lock:
            snapshot = self._current()
            new: list[tuple[str, str, str, str]] = []
            for pair in pairs:
                if len(pair) != 4:
                    raise ConfigError(f"a relationship needs 4 names, got {pair!r}")
                a, b, c, d = (str(part) for part in pair)
                _resolve(snapshot.catalog, (a, b, c, d), strict=True)
                new.append((a, b, c, d))
            self._declared.extend(p for p in new if p not in self._declared)
            if snapshot.joined:  # else they join the inference when it runs
                self._snapshot = self._with_join_keys(snapshot)

    def schema_fingerprint(self, tables: Iterable[str] | None = None) -> str:
        """sha256 of the (table, column, type) triples of `tables` (all when None), for
        noticing drift under a certified block. A missing table counts in, as missing."""
        catalog = self._current().catalog  # names and types only: no join keys needed
        if tables is None:
            return catalog.fingerprint
        names = list(tables)
        fresh: dict[str, list[tuple[str, str]]] = {}
        snapshot = self._snapshot
        checked = snapshot is not None and snapshot.signal is not None
        if checked:
            # Checked by the cheap signal only: read these tables' columns now (a rename or
            # a retype in place is drift under a certified block), and when they differ
            # from the catalog, the next check is the full one.
            known = [t.name for n in names if (t := catalog.table(n)) is not None]
            with self._open_connection() as connection:
                fresh = read_columns_of(connection, known)
            for name in known:
                columns = catalog.tables[name].columns
                if fresh.get(name) != [(c.name, c.type) for c in columns]:
                    self._recheck = True
        elif self._fingerprints[0] is catalog and tuple(names) in self._fingerprints[1]:
            # Unchecked, the answer is a pure function of this catalog (a snapshot: a changed
            # schema makes a new one) and the names: a certified answer asks on every run.
            return self._fingerprints[1][tuple(names)]
        triples: list[tuple[str, str, str]] = []
        for name in names:
            table = catalog.table(name)
            if table is None:
                triples.append((name, "", "<missing>"))
            elif table.name in fresh:
                triples.extend((table.name, c, ty) for c, ty in fresh[table.name])
            elif checked:
                triples.append((name, "", "<missing>"))  # dropped since the last check
            else:
                triples.extend((table.name, c.name, c.type) for c in table.columns)
        found = fingerprint_of(triples)
        if not checked:
            if self._fingerprints[0] is not catalog:
                self._fingerprints = (catalog, {})
            self._fingerprints[1][tuple(names)] = found
        return found

    # --- questions -------------------------------------------------------------------

    def link(
        self,
        question: str,
        *,
        k_tables: int = 5,
        k_columns: int = 10,
        synonyms: Mapping[str, list[str]] | None = None,
    ) -> LinkResult:
        """Rank tables and columns for `question` (BM25). `synonyms` maps "table.column",
        "column" or "table" to extra words; the index is cached per catalog and synonyms."""
        snapshot = self._current()
        # The index depends on names, comments and sampled values (all covered by the check
        # key) and on the synonyms; declaring join keys does not invalidate it.
        return self._indexes.search(
            snapshot.catalog,
            (snapshot.check_key,),
            question,
            k_tables=k_tables,
            k_columns=k_columns,
            synonyms=synonyms,
        )

    def probe_values(self, question: str) -> list[ValueMatch]:
        """Words and phrases of `question` equal to stored text values (case-insensitive),
        plus month names (see ValueMatch). On a wide database the tables the question leads
        to (linking's best, those it names) are sampled first, once."""
        snapshot = self._current()
        if snapshot.unsampled:
            self._sample(snapshot, self._led_to(question, snapshot))
        return snapshot.values.probe(question, snapshot.catalog)

    def _led_to(self, question: str, snapshot: _Snapshot) -> set[str]:
        """Tables a question leads to: linking's top five and every table it names."""
        words = set(re.findall(r"\w+", question.lower()))
        named = {n for n in snapshot.unsampled if n.lower() in words}
        return named | {name for name, _ in self.link(question, k_tables=5).tables}

    def _sample(self, snapshot: _Snapshot, names: Iterable[str]) -> None:
        """Sample the values of `names` not sampled yet, fold them into the snapshot and
        keep them in the persisted profile (the next process starts from there)."""
        with self._lock:
            wanted = [
                snapshot.catalog.tables[n]
                for n in sorted(set(names) & snapshot.unsampled)
                if n in snapshot.catalog.tables
            ]
            if not wanted:
                return
            self._harden()
            tables, found, snapshot.budget = sample_tables(self.connection, wanted, snapshot.budget)
            snapshot.catalog = replace(
                snapshot.catalog, tables={**snapshot.catalog.tables, **tables}
            )
            snapshot.values.extend(found)
            snapshot.probe_values.extend(found)
            snapshot.unsampled -= set(tables)
            if snapshot.cache_key:
                self._save(snapshot)

    @staticmethod
    def _save(snapshot: _Snapshot) -> None:
        """Keep what `snapshot` found in the persisted profile (the next process starts there)."""
        assert snapshot.cache_key is not None
        save_profile(
            snapshot.cache_key,
            Profile(
                dict(snapshot.catalog.tables),
                list(snapshot.probe_values),
                snapshot.constraints,
                dict(snapshot.uniqueness),
                set(snapshot.unsampled),
                dict(snapshot.composite_uniqueness),
            ),
        )

    # --- SQL ---------------------------------------------------------------------------

    def allow_source(self, path_or_url: str) -> None:
        """Let queries read this file, folder (trailing "/") or URL with read_csv & co.

        On a private instance that is already locked, the database is re-opened with the new
        source allowed (a locked configuration cannot change); an in-memory database cannot
        be re-opened, so there it is a ConfigError: register sources before asking."""
        with self._lock:
            if normalize_source(path_or_url) in map(normalize_source, self._allowed_sources):
                return
            if self._hardened:
                if self._reopen is None:
                    raise ConfigError(
                        "this in-memory database is locked (no file access) since its first "
                        "query; register sources right after connecting"
                    )
                # Close first: DuckDB hands back a cached instance while one is open.
                self.connection.close()
                self.connection = self._reopen()
                self._hardened = False
            self._allowed_sources.append(path_or_url)

    @property
    def allowed_sources(self) -> tuple[str, ...]:
        return tuple(self._allowed_sources)

    def _stored_views(self, connection: duckdb.DuckDBPyConnection) -> StoredViews:
        """The database's views, types and macros: read once when the schema is fixed (a
        file we opened read-only), else on every call (the user may create a macro)."""
        if not self._schema_fixed:
            return StoredViews.read(connection)
        with self._lock:
            if self._views is None:
                self._views = StoredViews.read(connection, held=self._database)
            return self._views

    def guard(self, sql: str) -> str:
        """The single normalized read-only statement, or GuardrailViolation naming the rule.

        Beyond the text: every stored view the statement names is checked through to what
        it reads (its own SQL, guarded the same way, views within views too), and casts may
        use the types defined in this database (an ENUM)."""
        with self._open_connection() as connection:
            views = self._stored_views(connection)
        try:
            statement = guard_read_only(sql, self._allowed_sources, views.types)
        except QueryError:
            # "No such function" may be this database's own macro: say so, as a violation.
            views.check_calls(sql)
            raise
        views.check(statement, self._allowed_sources)
        return statement

    def engine_sql(self, sql: str) -> str:
        """`sql` as DuckDB runs it: the house dialect is DuckDB's, so unchanged."""
        return sql

    def validate(self, sql: str) -> list[IdentifierProblem]:
        """Unknown tables and columns in `sql`, each with the nearest real names.

        A statement found clean is remembered on disk for this schema (`disk_memo`, keyed by
        the catalog's fingerprint): every `zlens ask` process validates the same certified
        SQL, and reading it takes sqlglot (~0.2 s to import)."""
        catalog = self.catalog()
        code, key = _validation_code(), disk_memo.input_key(sql, catalog.fingerprint)
        if disk_memo.recall("validation", code, key) == "clean":
            return []
        problems = validate_identifiers(sql, catalog)
        if not problems:
            disk_memo.remember("validation", code, key, "clean")
        return problems

    def preview(
        self,
        sql: str,
        *,
        params: Params = None,
        limit: int = 1000,
        timeout_s: float = 30.0,
        should_stop: Callable[[], bool] | None = None,
    ) -> Preview:
        """Guard, then run `sql` bounded by `limit` rows and `timeout_s` seconds.

        Raises GuardrailViolation (never runs), QueryTimeout, or QueryError with DuckDB's
        own message. Parameters ($name with a dict, ? with a list) are bound by DuckDB.
        `should_stop` (e.g. a cancel token's state) interrupts the statement when it turns
        true; that surfaces as KeyboardInterrupt, the loop's cancel path.
        """
        statement = self.guard(sql)
        self._harden()
        snapshot = self._snapshot
        if snapshot is not None and snapshot.unsampled:  # a wide database: sample what runs
            self._sample(snapshot, _table_names(statement, snapshot.catalog))
        with self._open_connection() as connection:
            try:
                return run_preview(
                    connection,
                    statement,
                    params=params,
                    limit=limit,
                    timeout_s=timeout_s,
                    should_stop=should_stop,
                )
            except QueryError:
                # Perhaps a column renamed or retyped in place, which the cheap signal does
                # not see: the next check reads the whole schema.
                if snapshot is not None and snapshot.signal is not None:
                    self._recheck = True
                raise


def _table_names(statement: str, catalog: Catalog) -> set[str]:
    """The catalog's spelling of the tables `statement` reads (its CTE names drop out)."""
    found = set()
    for name in referenced_tables(statement):
        table = catalog.table(name)
        if table is not None:
            found.add(table.name)
    return found


def _reopener(
    target: str | os.PathLike[str], read_only: bool | None
) -> Callable[[], duckdb.DuckDBPyConnection] | None:
    """How to open a private file instance afresh (None for ':memory:', which cannot be)."""
    if os.fspath(target) == ":memory:":
        return None

    def reopen() -> duckdb.DuckDBPyConnection:
        again, _, still_private = open_database(target, read_only)
        if not still_private:  # this process opened the file elsewhere meanwhile
            again.close()
            raise ConfigError(
                f"cannot re-open {os.fspath(target)} on its own to add a source: this "
                "process opened it elsewhere; register sources right after connecting"
            )
        return again

    return reopen


CLOSED = (
    "this database connection is closed; connect again (zlens.connect(...), or %zlens connect "
    "in a notebook) and ask once more"
)


def _resolve(
    catalog: Catalog, pair: tuple[str, str, str, str], *, strict: bool = False
) -> JoinKey | None:
    """A declared pair as a JoinKey with the catalog's spelling; None (or ConfigError when
    strict) if a name is unknown."""
    from_table, from_column, to_table, to_column = pair
    label = f"{from_table}.{from_column} -> {to_table}.{to_column}"
    ends: list[tuple[TableInfo, str]] = []
    for table_name, column_name in ((from_table, from_column), (to_table, to_column)):
        table = catalog.table(table_name)
        if table is None:
            if not strict:
                return None
            near = nearest_names(table_name, list(catalog.tables), fallback=True)
            raise ConfigError(
                f"relationship {label}: no table {table_name}"
                + (f"; did you mean {' or '.join(near)}?" if near else "")
            )
        column = table.column(column_name)
        if column is None:
            if not strict:
                return None
            near = nearest_names(column_name, [c.name for c in table.columns])
            raise ConfigError(
                f"relationship {label}: no column {column_name} in "
                f"{table.name}" + (f"; did you mean {' or '.join(near)}?" if near else "")
            )
        ends.append((table, column.name))
    (left, left_column), (right, right_column) = ends
    return JoinKey(left.name, left_column, right.name, right_column, "declared")


@functools.cache
def _validation_code() -> str:
    """The code a validation depends on: the validator and the sqlglot installed."""
    import importlib.util

    from zlens_jupyter.warehouse import validate

    spec = importlib.util.find_spec("sqlglot")
    return disk_memo.code_key(files=(validate.__file__, spec.origin if spec else None))
