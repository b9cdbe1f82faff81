"""The bundled sample project: a seeded shop in DuckDB plus DQL blocks and a semantic layer.

`open_sample()` returns `(database path, project dir)`; both live in the user cache
(`$ZLENS_CACHE_DIR` overrides it) and are created on first use, offline and deterministic.
"""

from __future__ import annotations

from zlens_jupyter.sample.build import (
    CACHE_ENV_VAR,
    SAMPLE_VERSION,
    build_sample_database,
    cache_dir,
    sample_database_path,
)
from zlens_jupyter.sample.workspace import bundled_project, open_sample, sample_project_dir

__all__ = [
    "CACHE_ENV_VAR",
    "SAMPLE_VERSION",
    "build_sample_database",
    "bundled_project",
    "cache_dir",
    "open_sample",
    "sample_database_path",
    "sample_project_dir",
]
