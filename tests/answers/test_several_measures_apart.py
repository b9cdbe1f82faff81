"""Measures of two tables that share a grouping column but no key: each table is grouped by
its own column and the two are set side by side (real DuckDB file, real session)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from zlens_jupyter.engine import TrustState
from zlens_jupyter.session import Session


def test_two_tables_grouped_by_their_own_column_of_one_name(tmp_path: Path) -> None:
    path = tmp_path / "show.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE bakers (series BIGINT, baker VARCHAR, age BIGINT);
        INSERT INTO bakers SELECT 1 + i % 3, 'baker ' || i, 20 + i FROM range(14) t(i);
        CREATE TABLE episodes (series BIGINT, episode BIGINT, viewers DOUBLE);
        INSERT INTO episodes SELECT 1 + i // 4, 1 + i % 4, 2.0 + i FROM range(12) t(i);
        """
    )
    con.close()
    session = Session(path, tmp_path / "project")
    try:
        run = session.ask("how many bakers and how many episodes per series")
        # It used to stop at "I can't find how bakers relates to episodes (no join key)".
        assert run.result is not None, run.clarification
        assert run.trust_state in (TrustState.GROUNDED, TrustState.REVIEW_REQUIRED)
        got = {row[0]: tuple(row[1:]) for row in run.result["rows"]}
        assert got == {1: (5, 4), 2: (5, 4), 3: (4, 4)}
        assert "FULL JOIN" in run.sql and "bakers.series" in run.sql
    finally:
        session.close()
