"""Dates kept as text are read as dates only when their sample reads one way (text_dates),
on a real DuckDB file through the warehouse the routes use."""

from __future__ import annotations

from pathlib import Path

import duckdb

from zlens_jupyter.warehouse import Warehouse
from zlens_jupyter.warehouse.text_dates import date_format


def test_one_reading_is_kept_and_two_are_not() -> None:
    assert date_format(["9/30/1990 0:00:00", "11/29/1993 14:05:00"]) == "%m/%d/%Y %H:%M:%S"
    assert date_format(["Jan-2018", "Mar-2018"]) == "%b-%Y"
    assert date_format(["3/4/2020", "5/6/2021"]) is None  # March 4th, or April 3rd?
    assert date_format(["2020-01-01", "soon"]) is None
    assert date_format([]) is None


def test_the_catalog_questions_read_types_text_dates_as_dates(tmp_path: Path) -> None:
    path = tmp_path / "log.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE events (event_date VARCHAR, when_ambiguous VARCHAR, note VARCHAR,
                             issue_month VARCHAR);
        INSERT INTO events VALUES ('9/30/1990 0:00:00', '3/4/2020', '1/2/2003', 'Jan-2018'),
          ('11/29/1993 0:00:00', '5/6/2021', '2/3/2004', 'Feb-2018');
        """
    )
    con.close()
    with Warehouse.connect(path) as warehouse:
        raw = warehouse.catalog().table("events")
        dated = warehouse.dated_catalog().table("events")
    assert raw is not None and dated is not None
    kinds = {c.name: (c.type, c.date_format) for c in dated.columns}
    assert kinds["event_date"] == ("TIMESTAMP", "%m/%d/%Y %H:%M:%S")
    assert kinds["issue_month"] == ("DATE", "%b-%Y")
    assert kinds["when_ambiguous"] == ("VARCHAR", "")  # two readings: nothing assumed
    assert kinds["note"] == ("VARCHAR", "")  # not named as a time: never sampled as one
    assert all(c.type == "VARCHAR" for c in raw.columns)  # the stored catalog is unchanged
