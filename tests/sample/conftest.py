"""Fixtures for the sample project: one sample build per test session, in a temporary cache.

Tests never touch the real user cache: ZLENS_CACHE_DIR points at a pytest temporary folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.sample import CACHE_ENV_VAR, open_sample


@pytest.fixture(scope="session")
def sample_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder holding the built sample database and the copied sample project."""
    cache = tmp_path_factory.mktemp("zlens-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV_VAR, str(cache))
        open_sample()
    return cache


@pytest.fixture
def sample_env(sample_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ZLENS_CACHE_DIR at the session's built cache for one test."""
    monkeypatch.setenv(CACHE_ENV_VAR, str(sample_cache))
    return sample_cache


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, set as ZLENS_CACHE_DIR for one test."""
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV_VAR, str(cache))
    return cache


@pytest.fixture(scope="session")
def sample_db_path(sample_cache: Path) -> Path:
    (path,) = sample_cache.glob("sample-shop-v*.duckdb")
    return path


@pytest.fixture
def shop(sample_db_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to the session's sample database."""
    con = duckdb.connect(str(sample_db_path), read_only=True)
    try:
        yield con
    finally:
        con.close()


@pytest.fixture(scope="session")
def sample_project(sample_cache: Path) -> Path:
    return sample_cache / "sample-project"
