"""Composite join keys: two tables related through two columns together (`ratings` and
`episodes`, one row per (series, episode) each), inferred from the data or declared by a
DuckDB constraint, kept in the persisted profile, and joined on every column pair."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.engine import RunStatus, TrustState
from zlens_jupyter.routes.sqlbuild import _joins
from zlens_jupyter.semantic.draft import draft_semantic
from zlens_jupyter.session import Session
from zlens_jupyter.warehouse import JoinKey, Warehouse
from zlens_jupyter.warehouse.catalog_cache import cache_folder, load_profile

# Three series of four episodes: the episode number repeats across series, so neither column
# alone is unique, only the two together.
EPISODES = [(s, e) for s in (1, 2, 3) for e in (1, 2, 3, 4)]


def _bakeoff(con: duckdb.DuckDBPyConnection, *, ratings_extra: str = "") -> None:
    """A small Great British Bake Off: ratings and episodes share (series, episode)."""
    con.execute("CREATE TABLE episodes (series BIGINT, episode BIGINT, bakers_out BIGINT)")
    con.execute(
        "CREATE TABLE ratings (series BIGINT, episode BIGINT, viewers_7day DOUBLE"
        + ratings_extra
        + ")"
    )
    con.execute("CREATE TABLE bakers (series BIGINT, baker VARCHAR, age BIGINT)")
    for i, (series, episode) in enumerate(EPISODES):
        con.execute(
            "INSERT INTO episodes VALUES (?, ?, ?)", [series, episode, (i * 7 + series) % 3]
        )
        con.execute(
            "INSERT INTO ratings (series, episode, viewers_7day) VALUES (?, ?, ?)",
            [series, episode, 2.0 + series + 0.25 * episode + (i % 5) * 0.1],
        )
    con.execute(
        "INSERT INTO bakers VALUES (1, 'Ann', 30), (1, 'Bob', 41), (2, 'Cy', 25), "
        "(2, 'Di', 52), (3, 'Ed', 38), (3, 'Flo', 61)"
    )


def _keys_between(keys: tuple[JoinKey, ...], a: str, b: str) -> list[JoinKey]:
    return [k for k in keys if {k.left_table, k.right_table} == {a, b}]


@pytest.fixture
def bakeoff_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "bakeoff.duckdb"
    con = duckdb.connect(str(path))
    _bakeoff(con)
    con.close()
    return path


def test_a_series_episode_pair_is_one_composite_key(bakeoff_file: Path) -> None:
    with Warehouse.connect(bakeoff_file) as warehouse:
        catalog = warehouse.catalog()
    [key] = _keys_between(catalog.join_keys, "ratings", "episodes")
    assert key.composite and key.source == "same_name"
    # Same row count on both sides: the smaller name is asked first and is the "one" side.
    assert (key.left_table, key.right_table) == ("ratings", "episodes")
    assert key.pairs == (("series", "series"), ("episode", "episode"))
    assert key.reversed().pairs == key.pairs and key.reversed().left_table == "episodes"
    # bakers shares only `series` (unique nowhere): not joined to either.
    assert not _keys_between(catalog.join_keys, "bakers", "episodes")
    assert not _keys_between(catalog.join_keys, "bakers", "ratings")
    path = catalog.join_path("episodes", "ratings")
    assert path is not None and [k.pairs for k in path] == [key.pairs]


def test_not_inferred_when_neither_side_is_unique() -> None:
    con = duckdb.connect()
    _bakeoff(con)
    # A repeat broadcast: ratings now has two rows for one (series, episode); episodes loses
    # its uniqueness too.
    con.execute("INSERT INTO ratings (series, episode, viewers_7day) VALUES (1, 1, 1.5)")
    con.execute("INSERT INTO episodes VALUES (2, 3, 0)")
    keys = Warehouse.connect(con).catalog().join_keys
    assert not _keys_between(keys, "ratings", "episodes")


def test_a_null_in_the_combination_is_no_evidence() -> None:
    con = duckdb.connect()
    _bakeoff(con)
    con.execute("DELETE FROM ratings WHERE series = 3 AND episode = 4")
    con.execute("INSERT INTO ratings (series, episode, viewers_7day) VALUES (1, 1, 1.5)")
    con.execute("UPDATE episodes SET episode = NULL WHERE series = 3 AND episode = 4")
    keys = Warehouse.connect(con).catalog().join_keys
    assert not _keys_between(keys, "ratings", "episodes")


def test_the_many_side_joins_the_unique_side() -> None:
    con = duckdb.connect()
    _bakeoff(con)
    con.execute("INSERT INTO ratings (series, episode, viewers_7day) VALUES (1, 1, 1.5)")
    keys = Warehouse.connect(con).catalog().join_keys
    [key] = _keys_between(keys, "ratings", "episodes")
    assert (key.left_table, key.right_table) == ("ratings", "episodes")


def test_not_inferred_when_a_single_column_already_joins() -> None:
    """`sales.shift_id -> shifts.id` joins them: (store, day), unique in shifts, is not
    added beside it."""
    con = duckdb.connect()
    con.execute("CREATE TABLE shifts (id INTEGER, store VARCHAR, day INTEGER)")
    con.execute(
        "INSERT INTO shifts VALUES (1, 'north', 1), (2, 'north', 2), (3, 'south', 1), "
        "(4, 'south', 2)"
    )
    con.execute("CREATE TABLE sales (shift_id INTEGER, store VARCHAR, day INTEGER, amount DOUBLE)")
    con.execute(
        "INSERT INTO sales VALUES (1, 'north', 1, 5), (1, 'north', 1, 6), (2, 'north', 2, 7), "
        "(3, 'south', 1, 8), (4, 'south', 2, 9)"
    )
    keys = Warehouse.connect(con).catalog().join_keys
    [key] = _keys_between(keys, "sales", "shifts")
    assert key.pairs == (("shift_id", "id"),)
    con.execute("ALTER TABLE sales RENAME COLUMN shift_id TO shift_no")
    keys = Warehouse.connect(con).catalog().join_keys  # without it, the pair is the key
    [key] = _keys_between(keys, "sales", "shifts")
    assert key.pairs == (("store", "store"), ("day", "day"))


def test_only_the_smallest_unique_combination(tmp_path: Path) -> None:
    """Three shared names: the pair that is unique is the key, not all three."""
    con = duckdb.connect()
    _bakeoff(con, ratings_extra=", bakers_out BIGINT")
    con.execute(
        "UPDATE ratings SET bakers_out = e.bakers_out FROM episodes e "
        "WHERE ratings.series = e.series AND ratings.episode = e.episode"
    )
    keys = Warehouse.connect(con).catalog().join_keys
    [key] = _keys_between(keys, "ratings", "episodes")
    assert key.pairs == (("series", "series"), ("episode", "episode"))


def test_declared_constraints_over_two_columns() -> None:
    """A FOREIGN KEY over two columns is a declared composite key."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE episodes (series BIGINT, episode BIGINT, bakers_out BIGINT, "
        "PRIMARY KEY (series, episode))"
    )
    con.execute(
        "CREATE TABLE ratings (s BIGINT, ep BIGINT, viewers_7day DOUBLE, "
        "FOREIGN KEY (s, ep) REFERENCES episodes (series, episode))"
    )
    con.execute("INSERT INTO episodes VALUES (1, 1, 0), (1, 2, 1)")
    con.execute("INSERT INTO ratings VALUES (1, 1, 9.0), (1, 2, 8.0)")
    keys = Warehouse.connect(con).catalog().join_keys
    [key] = _keys_between(keys, "ratings", "episodes")
    assert key.source == "foreign_key"
    assert key.pairs == (("s", "series"), ("ep", "episode"))


def test_composite_checks_are_persisted_and_declared_keys_need_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "keyed.duckdb"
    con = duckdb.connect(str(path))
    _bakeoff(con)
    # The same pair of tables again, with the combination declared unique on one side.
    con.execute(
        "CREATE TABLE shows (series BIGINT, episode BIGINT, host VARCHAR, "
        "PRIMARY KEY (series, episode))"
    )
    con.execute("INSERT INTO shows SELECT series, episode, 'Mel' FROM episodes")
    con.execute("CREATE TABLE clips (series BIGINT, episode BIGINT, seconds DOUBLE)")
    con.execute("INSERT INTO clips SELECT series, episode, 30.0 FROM episodes")
    con.execute("INSERT INTO clips SELECT series, episode, 45.0 FROM episodes")
    con.close()
    with Warehouse.connect(path) as warehouse:
        keys = warehouse.catalog().join_keys
    [entry] = sorted(cache_folder().glob("*.json"))
    checked = {
        (table, tuple(columns)): unique
        for table, columns, unique in json.loads(entry.read_text())["composite_uniqueness"]
    }
    assert checked[("episodes", ("series", "episode"))] is True
    assert ("shows", ("series", "episode")) not in checked  # declared: no query
    [clips_to_shows] = _keys_between(keys, "clips", "shows")
    assert clips_to_shows.right_table == "shows" and clips_to_shows.composite
    with Warehouse.connect(path) as again:  # the next process: keys from the profile
        assert again.catalog().join_keys == keys

    # An entry written before composite checks were kept still loads (none checked yet).
    data = json.loads(entry.read_text())
    del data["composite_uniqueness"]
    entry.write_text(json.dumps(data))
    profile = load_profile(entry.stem)
    assert profile is not None and profile.composite_uniqueness == {}
    assert profile.uniqueness  # the single-column checks are still there
    with Warehouse.connect(path) as old:
        assert old.catalog().join_keys == keys


def test_generated_sql_joins_on_every_pair(bakeoff_file: Path) -> None:
    with Warehouse.connect(bakeoff_file) as warehouse:
        catalog = warehouse.catalog()
    [(table, condition)] = _joins("ratings", ["episodes"], catalog)
    assert table == "episodes"
    assert condition.sql() == (
        "ratings.series = episodes.series AND ratings.episode = episodes.episode"
    )


def test_the_answer_joins_on_both_columns(bakeoff_file: Path, tmp_path: Path) -> None:
    """Average 7-day viewers by how many bakers went out: a measure of ratings grouped by a
    column of episodes, right only when both columns join (series alone multiplies rows,
    episode alone mixes series)."""
    session = Session(bakeoff_file, tmp_path / "project", persist=False)
    try:
        run = session.ask("What is the average viewers 7day by bakers out?")
    finally:
        session.close()
    assert run.status is RunStatus.COMPLETED, (run.status, run.clarification)
    assert run.trust_state is TrustState.GROUNDED, run.trust_reason
    con = duckdb.connect(str(bakeoff_file), read_only=True)
    truth = con.execute(
        "SELECT e.bakers_out, round(avg(r.viewers_7day), 2) FROM ratings r "
        "JOIN episodes e USING (series, episode) GROUP BY 1"
    ).fetchall()
    wrong = con.execute(
        "SELECT e.bakers_out, round(avg(r.viewers_7day), 2) FROM ratings r "
        "JOIN episodes e USING (series) GROUP BY 1"
    ).fetchall()
    con.close()
    got = sorted(tuple(row) for row in run.result["rows"])
    assert got == sorted(truth)
    assert got != sorted(wrong)


def test_a_composite_key_is_not_drafted_as_a_one_column_relationship(
    bakeoff_file: Path,
) -> None:
    with Warehouse.connect(bakeoff_file) as warehouse:
        draft = draft_semantic(warehouse.catalog())
    assert not any("ratings" in r.from_column + r.to_column for r in draft.relationships)
    assert any(
        "ratings.series = episodes.series AND ratings.episode = episodes.episode" in note
        for note in draft.notes
    )
