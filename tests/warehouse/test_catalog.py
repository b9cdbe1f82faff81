"""The catalog: tables, columns, comments, counts, sampled values, join keys, caching."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.errors import ConfigError
from zlens_jupyter.warehouse import ColumnInfo, JoinKey, TableInfo, Warehouse
from zlens_jupyter.warehouse.catalog import LOW_CARDINALITY_LIMIT

FLIGHT_ROWS = 336_776


def col(table: TableInfo, name: str) -> ColumnInfo:
    """The column, which the test expects to exist."""
    column = table.column(name)
    assert column is not None, name
    return column


def _key_pairs(keys: tuple[JoinKey, ...]) -> set[tuple[str, str, str, str, str]]:
    return {(k.left_table, k.left_column, k.right_table, k.right_column, k.source) for k in keys}


def test_tables_views_columns_and_counts(nyc: Warehouse) -> None:
    catalog = nyc.catalog()
    assert set(catalog.tables) == {
        "flights",
        "airlines",
        "airports",
        "planes",
        "weather",
        "long_delays",
    }
    flights = catalog.tables["flights"]
    assert flights.kind == "table"
    assert flights.row_count == FLIGHT_ROWS
    assert [c.name for c in flights.columns][:3] == ["year", "month", "day"]
    assert flights.column("DEP_DELAY") is not None
    assert col(flights, "dep_delay").type == "DOUBLE"
    assert col(flights, "time_hour").type == "TIMESTAMP"
    assert flights.column("no_such_column") is None
    view = catalog.tables["long_delays"]
    assert view.kind == "view"
    assert 0 < view.row_count < FLIGHT_ROWS
    assert catalog.tables["airlines"].row_count == 16


def test_comments_come_from_duckdb(nyc: Warehouse) -> None:
    flights = nyc.catalog().tables["flights"]
    assert flights.comment == "All flights that departed NYC in 2013"
    assert "early departures" in (col(flights, "dep_delay").comment or "")
    assert col(flights, "arr_delay").comment is None


def test_sampled_values_only_for_low_cardinality_text(nyc: Warehouse) -> None:
    catalog = nyc.catalog()
    flights = catalog.tables["flights"]
    assert col(flights, "origin").distinct_values == ("EWR", "JFK", "LGA")
    carriers = col(flights, "carrier").distinct_values
    assert len(carriers) == 16 and "UA" in carriers
    # tailnum has thousands of values, dep_delay is not text: neither is sampled.
    assert col(flights, "tailnum").distinct_values == ()
    assert col(flights, "dep_delay").distinct_values == ()
    assert col(catalog.tables["airports"], "faa").distinct_values == ()
    assert "United Air Lines Inc." in col(catalog.tables["airlines"], "name").distinct_values
    for table in catalog.tables.values():
        for column in table.columns:
            assert len(column.distinct_values) <= LOW_CARDINALITY_LIMIT


def test_case_insensitive_lookup(nyc: Warehouse) -> None:
    catalog = nyc.catalog()
    assert catalog.table("FLIGHTS") is catalog.tables["flights"]
    assert catalog.table("nope") is None


def test_nycflights_join_keys(nyc: Warehouse) -> None:
    pairs = _key_pairs(nyc.catalog().join_keys)
    assert ("flights", "carrier", "airlines", "carrier", "same_name") in pairs
    assert ("flights", "tailnum", "planes", "tailnum", "same_name") in pairs
    assert ("flights", "origin", "airports", "faa", "declared") in pairs
    assert ("flights", "dest", "airports", "faa", "declared") in pairs
    # planes.year is the year built, weather shares origin/year/month but is not a lookup.
    joined = {frozenset((a, c)) for a, _, c, _, _ in pairs}
    assert frozenset(("flights", "weather")) not in joined
    assert not any(p[1] == "year" for p in pairs)


def test_two_tables_of_the_same_things_join_on_their_unique_name() -> None:
    con = duckdb.connect()
    con.execute(
        """
        CREATE TABLE murders AS SELECT 'S' || i AS state, i AS total, i % 7 AS rank
            FROM range(51) t(i);
        CREATE TABLE results AS SELECT 'S' || i AS state, i * 2 AS votes, i % 7 AS rank
            FROM range(51) t(i);
        CREATE TABLE capitals AS SELECT 'S' || i AS state, 'C' || i AS capital
            FROM range(40) t(i);
        """
    )
    pairs = _key_pairs(Warehouse.connect(con).catalog().join_keys)
    joined = {frozenset((a, c)) for a, _, c, _, _ in pairs}
    # 51 unique state names on each side: the same states, joined one to one
    assert frozenset(("murders", "results")) in joined
    # unique on both sides but over 40 rows and 51: no evidence they are the same things
    assert frozenset(("capitals", "murders")) not in joined
    # a number shared by name is never joined one to one
    assert not any(p[1] == "rank" for p in pairs)


def test_join_path_walks_keys(nyc: Warehouse) -> None:
    catalog = nyc.catalog()
    path = catalog.join_path("airlines", "planes")
    assert path is not None
    assert [(k.left_table, k.left_column, k.right_table, k.right_column) for k in path] == [
        ("airlines", "carrier", "flights", "carrier"),
        ("flights", "tailnum", "planes", "tailnum"),
    ]
    assert catalog.join_path("flights", "FLIGHTS") == []
    assert catalog.join_path("flights", "weather") is None
    assert catalog.join_path("flights", "no_such_table") is None


def test_declared_relationship_with_a_typo_says_how_to_fix(nyc: Warehouse) -> None:
    with pytest.raises(ConfigError, match="did you mean origin"):
        nyc.declare_relationships([("flights", "orign", "airports", "faa")])
    with pytest.raises(ConfigError, match="did you mean airports"):
        nyc.declare_relationships([("flights", "origin", "airport", "faa")])


def test_foreign_keys_and_id_suffix_keys() -> None:
    con = duckdb.connect()
    con.execute("""
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR);
        CREATE TABLE products (product_id INTEGER PRIMARY KEY, title VARCHAR);
        CREATE TABLE orders (
            order_id INTEGER PRIMARY KEY,
            customer_id INTEGER,
            product_id INTEGER REFERENCES products (product_id),
            amount DECIMAL(10, 2));
        CREATE TABLE categories (id INTEGER, label VARCHAR);
        CREATE TABLE items (item_id INTEGER, category_id INTEGER, name VARCHAR);
        INSERT INTO customers VALUES (1, 'a'), (2, 'b');
        INSERT INTO categories VALUES (1, 'x'), (2, 'y');
        INSERT INTO items VALUES (1, 1, 'p'), (2, 1, 'q');
    """)
    warehouse = Warehouse.connect(con)
    pairs = _key_pairs(warehouse.catalog().join_keys)
    assert ("orders", "product_id", "products", "product_id", "foreign_key") in pairs
    assert ("orders", "customer_id", "customers", "id", "id_suffix") in pairs
    assert ("items", "category_id", "categories", "id", "id_suffix") in pairs
    # The foreign key is not repeated as a heuristic key.
    assert sum(1 for p in pairs if p[1] == "product_id") == 1
    warehouse.close()
    con.execute("SELECT 1")  # a connection we were given stays open


def test_prefixed_key_columns_like_tpch() -> None:
    con = duckdb.connect()
    con.execute("""
        CREATE TABLE customer AS SELECT range AS c_custkey, 'n' || range AS c_name
            FROM range(50);
        CREATE TABLE orders AS SELECT range AS o_orderkey, range % 50 AS o_custkey,
            'x' AS o_comment FROM range(200);
    """)
    pairs = _key_pairs(Warehouse.connect(con).catalog().join_keys)
    assert pairs == {("orders", "o_custkey", "customer", "c_custkey", "id_suffix")}


def test_fingerprints(nyc: Warehouse) -> None:
    catalog = nyc.catalog()
    assert len(catalog.fingerprint) == 64
    assert nyc.schema_fingerprint() == catalog.fingerprint
    just_flights = nyc.schema_fingerprint(["flights"])
    assert just_flights == nyc.schema_fingerprint(["FLIGHTS"])
    assert just_flights != nyc.schema_fingerprint(["flights", "planes"])
    assert nyc.schema_fingerprint(["gone"]) != nyc.schema_fingerprint([])


def test_catalog_is_cached_and_refreshed_on_schema_change(tmp_path: Path) -> None:
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE sales (region VARCHAR, amount DOUBLE)")
    con.execute("INSERT INTO sales VALUES ('north', 1), ('south', 2)")
    warehouse = Warehouse.connect(con)
    first = warehouse.catalog()
    assert warehouse.catalog() is first  # nothing changed: the very same object
    fingerprint = warehouse.schema_fingerprint(["sales"])

    con.execute("INSERT INTO sales VALUES ('east', 3)")
    assert warehouse.catalog() is first  # data changes do not force a rescan

    con.execute("ALTER TABLE sales ADD COLUMN channel VARCHAR")
    second = warehouse.catalog()
    assert second is not first
    assert second.tables["sales"].column("channel") is not None
    assert second.tables["sales"].row_count == 3
    assert warehouse.schema_fingerprint(["sales"]) != fingerprint

    con.execute("COMMENT ON TABLE sales IS 'one row per sale'")
    assert warehouse.catalog().tables["sales"].comment == "one row per sale"
    con.close()


WRITER = """
import sys, duckdb
try:
    duckdb.connect(sys.argv[1]).execute("ALTER TABLE sales ADD COLUMN channel VARCHAR")
except duckdb.Error as error:
    print("refused:", error)
"""


def test_a_file_opened_read_only_keeps_its_schema_and_keeps_writers_out(tmp_path: Path) -> None:
    # The warehouse reads an owned read-only file's schema once; that is only sound because
    # no writer can get in while we hold the file. Check that premise against real DuckDB.
    path = tmp_path / "shop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE sales (region VARCHAR, amount DOUBLE)")
    warehouse = Warehouse.connect(path)
    assert warehouse.schema_is_fixed
    first = warehouse.catalog()
    writer = subprocess.run(
        [sys.executable, "-c", WRITER, str(path)], capture_output=True, text=True, check=True
    )
    assert writer.stdout.startswith("refused:") and "lock" in writer.stdout.lower()
    assert warehouse.catalog() is first
    warehouse.close()

    # Read-write files and the caller's own connections can change: they are re-checked.
    writable = Warehouse.connect(path, read_only=False)
    assert not writable.schema_is_fixed
    writable.close()
    with duckdb.connect(str(path)) as con:
        assert not Warehouse.connect(con).schema_is_fixed


def test_temp_tables_and_other_schemas_are_not_in_the_catalog() -> None:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE kept (x INTEGER); CREATE TEMP TABLE scratch (x INTEGER);"
        "CREATE SCHEMA other; CREATE TABLE other.hidden (x INTEGER)"
    )
    assert set(Warehouse.connect(con).catalog().tables) == {"kept"}


def test_a_broken_view_does_not_break_the_catalog() -> None:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE base (x VARCHAR); INSERT INTO base VALUES ('a');"
        "CREATE VIEW v AS SELECT x FROM base; DROP TABLE base;"
        "CREATE TABLE ok (y INTEGER)"
    )
    catalog = Warehouse.connect(con).catalog()
    assert catalog.tables["ok"].row_count == 0
    if "v" in catalog.tables:  # DuckDB may or may not still list the dangling view
        assert catalog.tables["v"].row_count == -1


def test_big_tables_are_profiled_on_a_sample_but_counted_exactly() -> None:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE events AS SELECT range AS id, "
        "['web', 'app', 'store'][range % 3 + 1] AS channel, "
        "md5(range::VARCHAR) AS token FROM range(1500000)"
    )
    table = Warehouse.connect(con).catalog().tables["events"]
    assert table.row_count == 1_500_000
    assert col(table, "channel").distinct_values == ("app", "store", "web")
    assert col(table, "token").distinct_values == ()


def test_a_closed_connection_is_one_clear_error_whoever_closed_it(tmp_path: Path) -> None:
    path = tmp_path / "shop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE sales (region VARCHAR, amount DOUBLE)")
    ours = Warehouse.connect(path)
    ours.catalog()
    ours.close()
    theirs_connection = duckdb.connect(str(path), read_only=True)
    theirs = Warehouse.connect(theirs_connection)
    theirs.catalog()
    theirs_connection.close()  # the caller closed their own connection under us
    for warehouse in (ours, theirs):
        for use in (warehouse.catalog, lambda w=warehouse: w.preview("SELECT 1")):
            with pytest.raises(ConfigError, match="connection is closed; connect again"):
                use()
