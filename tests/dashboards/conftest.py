"""The sample shop built once into a private cache; each test gets its own project copy, and
a project whose certified block declares a `@param` (the sample's blocks declare none)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from dashboard_fixtures import add_region_dashboard

from zlens_jupyter.sample import CACHE_ENV_VAR, open_sample
from zlens_jupyter.session import Session


@pytest.fixture(scope="session")
def sample_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    cache = tmp_path_factory.mktemp("dashboard-sample")
    before = os.environ.get(CACHE_ENV_VAR)
    os.environ[CACHE_ENV_VAR] = str(cache)
    try:
        return open_sample()
    finally:
        if before is None:
            del os.environ[CACHE_ENV_VAR]
        else:
            os.environ[CACHE_ENV_VAR] = before


@pytest.fixture
def project(sample_files: tuple[Path, Path], tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(sample_files[1], target)
    return target


@pytest.fixture
def session(sample_files: tuple[Path, Path], project: Path) -> Iterator[Session]:
    opened = Session(str(sample_files[0]), project)
    yield opened
    opened.close()


@pytest.fixture
def region_session(session: Session, project: Path) -> Session:
    """The sample plus a certified block with @param("region") and a dashboard binding it."""
    add_region_dashboard(session, project)
    return session
