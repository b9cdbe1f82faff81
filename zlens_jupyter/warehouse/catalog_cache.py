"""The profiled catalog kept on disk, so a database is profiled once, not once per process.

Profiling (row counts, sampled text values, key uniqueness) is what makes connecting slow on a
wide database; `zlens ask` used to pay it on every call. The result is stored per database file
under the cache folder (`ZLENS_CACHE_DIR`, else the user cache), keyed by a cheap signature:
the file's path, size and modification time (an insert changes them, so sampled values are not
kept stale) plus the schema check key (names, types, comments) and the sources the user allowed
(they decide which views may be sampled). A missing, stale or unreadable entry just means
profiling again; writing one is best effort.

Entries are plain JSON (never pickle: a cache file must not be able to run code).
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zlens_jupyter.warehouse.catalog import ColumnValues, KeyConstraint
from zlens_jupyter.warehouse.models import ColumnInfo, TableInfo

CACHE_ENV_VAR = "ZLENS_CACHE_DIR"  # the same folder the sample database is built in
FORMAT = 7  # bump when what a profile holds changes


@dataclass
class Profile:
    """What profiling found: tables with counts and low-cardinality values, probe values,
    key constraints, and the uniqueness checks join inference asked for."""

    tables: dict[str, TableInfo]
    probe_values: list[ColumnValues]
    constraints: list[KeyConstraint]
    uniqueness: dict[tuple[str, str], bool] = field(default_factory=dict)
    # Tables whose values are still to be sampled (a wide database is sampled lazily);
    # empty when every readable table was sampled.
    unsampled: set[str] = field(default_factory=set)
    # Uniqueness of several columns together (composite join keys): (table, columns) ->
    # unique. Written under its own name, so an entry from before it existed still loads
    # (with none checked yet); it came without a format bump.
    composite_uniqueness: dict[tuple[str, tuple[str, ...]], bool] = field(default_factory=dict)


def cache_folder() -> Path:
    override = os.environ.get(CACHE_ENV_VAR)
    if override:
        return Path(override) / "catalogs"
    import platformdirs  # only when a catalog is cached

    return Path(platformdirs.user_cache_dir("zlens-jupyter")) / "catalogs"


def signature(database: Path, check_key: str, allowed_sources: tuple[str, ...]) -> str | None:
    """The cache key of `database` as it is now, or None when the file cannot be stat'ed."""
    try:
        stat = database.stat()
    except OSError:
        return None
    parts = [FORMAT, str(database.resolve()), stat.st_size, stat.st_mtime_ns, check_key]
    parts.append(sorted(allowed_sources))
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def load_profile(key: str) -> Profile | None:
    try:
        data = json.loads((cache_folder() / f"{key}.json").read_text(encoding="utf-8"))
        return _profile_from(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_profile(key: str, profile: Profile) -> None:
    folder = cache_folder()
    data = {
        "tables": [
            [t.name, t.kind, t.comment, t.row_count, [list(_column(c)) for c in t.columns]]
            for t in profile.tables.values()
        ],
        "probe_values": [[v.table, v.column, list(v.values)] for v in profile.probe_values],
        "constraints": [
            [c.table, c.kind, list(c.columns), c.referenced_table, list(c.referenced_columns)]
            for c in profile.constraints
        ],
        "uniqueness": [[t, c, u] for (t, c), u in profile.uniqueness.items()],
        "unsampled": sorted(profile.unsampled),
        "composite_uniqueness": [
            [t, list(cols), u] for (t, cols), u in profile.composite_uniqueness.items()
        ],
    }
    tmp = folder / f".{key}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, folder / f"{key}.json")  # readers see a whole entry or none
    except OSError:
        pass  # a read-only or full cache only costs the next process a profile
    finally:
        tmp.unlink(missing_ok=True)


def _column(c: ColumnInfo) -> tuple[Any, ...]:
    return (
        c.name,
        c.type,
        c.comment,
        list(c.distinct_values),
        c.distinct_count,
        c.zero_one,
        c.one_per_row,
    )


def _profile_from(data: dict[str, Any]) -> Profile:
    tables = {
        name: TableInfo(
            name,
            kind,
            comment,
            int(rows),
            tuple(
                ColumnInfo(
                    n, ty, cm, tuple(vals), int(count), zero_one=bool(flag), one_per_row=bool(once)
                )
                for n, ty, cm, vals, count, flag, once in columns
            ),
        )
        for name, kind, comment, rows, columns in data["tables"]
    }
    return Profile(
        tables=tables,
        probe_values=[ColumnValues(t, c, tuple(v)) for t, c, v in data["probe_values"]],
        constraints=[
            KeyConstraint(t, k, tuple(cols), ref, tuple(ref_cols))
            for t, k, cols, ref, ref_cols in data["constraints"]
        ],
        uniqueness={(t, c): bool(u) for t, c, u in data["uniqueness"]},
        unsampled={str(name) for name in data["unsampled"]},
        composite_uniqueness={
            (str(t), tuple(str(c) for c in cols)): bool(u)
            for t, cols, u in data.get("composite_uniqueness", [])
        },
    )
