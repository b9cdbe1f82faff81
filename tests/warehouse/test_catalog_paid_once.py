"""The catalog is paid once (issue 11): a database file's profile is kept on disk and reused
by the next connection (another process, another session), and profiled afresh when the
file changes; small tables are profiled many per statement with the same result."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.errors import QueryError
from zlens_jupyter.warehouse import Warehouse
from zlens_jupyter.warehouse.catalog import _distinct_text_values, read_check_key, read_shape
from zlens_jupyter.warehouse.catalog_cache import cache_folder


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE stores (id INTEGER PRIMARY KEY, city VARCHAR, name VARCHAR)")
    con.execute("INSERT INTO stores VALUES (1, 'Lyon', 'A'), (2, 'Paris', 'B'), (3, 'Lyon', 'C')")
    con.execute("CREATE TABLE sales (store_id INTEGER, amount DOUBLE, channel VARCHAR)")
    con.execute("INSERT INTO sales VALUES (1, 10, 'web'), (2, 5, 'shop'), (3, 7, 'web')")
    con.execute("CREATE TABLE empty_one (label VARCHAR)")
    con.close()
    return path


def _entries() -> list[Path]:
    return sorted(cache_folder().glob("*.json"))


def test_the_next_connection_reuses_the_profile(shop: Path) -> None:
    with Warehouse.connect(shop) as first:
        before = first.catalog()
    [entry] = _entries()
    # Mark the entry: a second connection that shows the mark read it instead of profiling.
    data = json.loads(entry.read_text())
    for table in data["tables"]:
        if table[0] == "sales":
            table[3] = 4242
    entry.write_text(json.dumps(data))
    with Warehouse.connect(shop) as second:
        again = second.catalog()
        assert second.probe_values("sales in Lyon")[0].value == "Lyon"
    assert again.tables["sales"].row_count == 4242
    assert again.tables["stores"] == before.tables["stores"]
    assert [k.left_table for k in again.join_keys] == [k.left_table for k in before.join_keys]


def test_a_changed_file_is_profiled_again(shop: Path) -> None:
    with Warehouse.connect(shop) as first:
        assert first.catalog().tables["sales"].row_count == 3
    con = duckdb.connect(str(shop))
    con.execute("INSERT INTO sales VALUES (1, 1, 'phone')")
    con.close()
    with Warehouse.connect(shop) as second:
        assert second.catalog().tables["sales"].row_count == 4
        assert second.probe_values("sales by phone")[0].value == "phone"
    assert len(_entries()) == 2


def test_an_unreadable_entry_means_profiling_again(shop: Path) -> None:
    with Warehouse.connect(shop) as first:
        first.catalog()
    [entry] = _entries()
    entry.write_text("{not json")
    with Warehouse.connect(shop) as second:
        assert second.catalog().tables["sales"].row_count == 3


def test_batched_profiling_finds_what_one_table_at_a_time_finds(shop: Path) -> None:
    from zlens_jupyter.warehouse.catalog import scan_tables

    con = duckdb.connect(str(shop), read_only=True)
    shape = read_shape(con, read_check_key(con))
    tables, _ = scan_tables(con, shape)
    for name, table in tables.items():
        text = [c.name for c in table.columns if c.type == "VARCHAR"]
        one_by_one = _distinct_text_values(con, name, text, table.row_count, 5.0)
        batched = {c.name: c.distinct_values for c in table.columns if c.distinct_values}
        assert batched == one_by_one, name
    con.close()


@pytest.fixture
def wide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """More tables than LAZY_SAMPLE_TABLES, each with a text column of its own values."""
    from zlens_jupyter.warehouse.warehouse import LAZY_SAMPLE_TABLES

    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "wide.duckdb"
    con = duckdb.connect(str(path))
    for i in range(LAZY_SAMPLE_TABLES + 5):
        con.execute(
            f"CREATE TABLE shop{i:04d} AS SELECT range AS id, 'town{i}_' || (range % 3) AS city, "
            "range * 1.5 AS amount FROM range(20)"
        )
    con.close()
    return path


def _sampled(warehouse: Warehouse) -> set[str]:
    return {
        name
        for name, table in warehouse.catalog().tables.items()
        if any(c.distinct_values for c in table.columns)
    }


def test_a_wide_database_is_counted_at_connect_and_sampled_where_questions_lead(
    wide: Path,
) -> None:
    with Warehouse.connect(wide) as warehouse:
        catalog = warehouse.catalog()
        assert all(t.row_count == 20 for t in catalog.tables.values())
        assert _sampled(warehouse) == set()  # nothing sampled at connect
        # The question names a table: that one is sampled and its values are found.
        found = warehouse.probe_values("amount in town7_1 from shop0007")
        assert [(m.table, m.value) for m in found] == [("shop0007", "town7_1")]
        assert "shop0007" in _sampled(warehouse)
        assert len(_sampled(warehouse)) <= 6  # the named table and linking's top five
        # A run's SQL samples the tables it reads.
        warehouse.preview("SELECT count(*) FROM shop0150")
        assert "shop0150" in _sampled(warehouse)


def test_what_was_sampled_is_kept_for_the_next_process(wide: Path) -> None:
    with Warehouse.connect(wide) as first:
        first.probe_values("amount in shop0042")
        sampled = _sampled(first)
    assert "shop0042" in sampled
    with Warehouse.connect(wide) as second:  # reads the profile: no sampling at all
        assert _sampled(second) == sampled
        assert second.probe_values("town42_2")[0].table == "shop0042"


def test_a_wide_user_connection_is_checked_by_the_cheap_signal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's own connection to a wide database: a new table or column is seen by the
    next catalog read; a rename in place, which the signal cannot see, is drift for the
    tables a certified block names at once, and after that the full check runs."""
    from zlens_jupyter.warehouse.warehouse import LAZY_SAMPLE_TABLES

    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    con = duckdb.connect(":memory:")
    for i in range(LAZY_SAMPLE_TABLES + 5):
        con.execute(f"CREATE TABLE t{i:04d} (id INTEGER, city VARCHAR)")
    warehouse = Warehouse.connect(con)
    assert not warehouse.schema_is_fixed
    assert "t0001" in warehouse.catalog().tables
    con.execute("CREATE TABLE extra (n INTEGER)")
    assert "extra" in warehouse.catalog().tables
    con.execute("ALTER TABLE t0001 ADD COLUMN amount DOUBLE")
    assert warehouse.catalog().tables["t0001"].column("amount") is not None
    before = warehouse.schema_fingerprint(["t0002"])
    con.execute("ALTER TABLE t0002 RENAME COLUMN city TO town")
    assert warehouse.schema_fingerprint(["t0002"]) != before  # drift, seen at once
    assert warehouse.catalog().tables["t0002"].column("town") is not None  # full check
    con.execute("ALTER TABLE t0003 RENAME COLUMN city TO town")
    # Between runs the cheap signal alone cannot see a rename (the price of not hashing
    # every column before each run)...
    assert warehouse.catalog().tables["t0003"].column("city") is not None
    with pytest.raises(QueryError):
        warehouse.preview("SELECT city FROM t0003")  # the stale catalog's column fails...
    assert warehouse.catalog().tables["t0003"].column("town") is not None  # ...then seen


def test_join_keys_are_inferred_when_the_catalog_is_asked_for(shop: Path) -> None:
    """Connecting and checking a certified block's schema infer no join keys (their
    uniqueness checks are most of a cold connect's memory on big tables); the first catalog
    does, and its checks join the persisted profile."""
    with Warehouse.connect(shop) as warehouse:
        warehouse.schema_fingerprint(["sales"])
        [entry] = _entries()
        assert json.loads(entry.read_text())["uniqueness"] == []
        keys = warehouse.catalog().join_keys
        assert ("sales", "store_id", "stores", "id") in {
            (k.left_table, k.left_column, k.right_table, k.right_column) for k in keys
        }
    with Warehouse.connect(shop) as again:  # the next process: keys from the profile
        assert again.catalog().join_keys == keys


def test_a_big_tables_values_are_sampled_from_stretches_of_rows(tmp_path: Path) -> None:
    """Past PROFILE_SAMPLE_ROWS rows, a table is read in stretches of rows spread over its
    length (a view of it, which has no rowid, by a block sample): every value of a
    low-cardinality column is found either way."""
    from zlens_jupyter.warehouse.catalog import PROFILE_SAMPLE_ROWS

    con = duckdb.connect(str(tmp_path / "big.duckdb"))
    con.execute(
        "CREATE TABLE events AS SELECT i AS id, ['red', 'green', 'blue'][i % 3 + 1] AS colour"
        f" FROM range({PROFILE_SAMPLE_ROWS + 200_000}) t(i)"
    )
    con.execute("CREATE VIEW recent AS SELECT * FROM events")
    rows = PROFILE_SAMPLE_ROWS + 200_000
    for name in ("events", "recent"):
        found = _distinct_text_values(con, name, ["colour"], rows, 30.0)
        assert found == {"colour": ("blue", "green", "red")}, name
    con.close()
