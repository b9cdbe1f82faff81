"""Pure results kept on disk between processes: what every `zlens ask` would otherwise pay again.

A certified ask re-derives the same facts in every process: the canonical form of each
certified block's SQL (sqlglot: ~0.2 s to import, milliseconds per parse) and the read-only
guard's verdict on the SQL it runs (DuckDB's parser, DuckDB's function list, sqlglot's second
opinion). Both are pure functions of their text and of the code that computes them, so a
process may reuse what an earlier one found.

Each memo is one JSON file under the cache folder (`ZLENS_CACHE_DIR`, else the user cache),
named for its kind and for the code it depends on (`code_key`: the files' paths, sizes and
modification times, and any versions passed in), so an upgrade or an edit starts a new file.
Entries are keyed by the sha256 of their inputs and hold plain strings (never pickle: a cache
file must not be able to run code). Only results are kept, never failures: a statement the
guard refused is examined afresh every time. A missing or unreadable file only means
computing again; writing is best effort (one appended line per entry).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

MAX_ENTRIES = 4096  # per memo file; past it, the file is started afresh on the next load

_lock = threading.Lock()
_memos: dict[str, dict[str, str]] = {}


def code_key(*parts: Any, files: tuple[str | None, ...] = ()) -> str:
    """A short key for the code a memo depends on: `parts` plus each file's identity."""
    ident: list[Any] = list(parts)
    for name in files:
        try:
            stat = os.stat(name) if name else None
        except OSError:
            stat = None
        ident.append([name, stat.st_size, stat.st_mtime_ns] if stat else [name])
    return hashlib.sha256(json.dumps(ident, default=str).encode()).hexdigest()[:20]


def input_key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode("utf-8")).hexdigest()


def recall(kind: str, code: str, key: str) -> str | None:
    """What an earlier process (or this one) stored for `key`, or None."""
    with _lock:
        return _memo(f"{kind}-{code}").get(key)


def remember(kind: str, code: str, key: str, value: str) -> None:
    """Store `value` for `key`: in memory at once, and one line appended to the file."""
    name = f"{kind}-{code}"
    with _lock:
        memo = _memo(name)
        if memo.get(key) == value:
            return
        memo[key] = value
    line = json.dumps([key, value]) + "\n"
    path = _folder() / f"{name}.jsonl"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # One short append per entry (O_APPEND: writers in several processes interleave
        # whole lines); a torn last line is skipped when read.
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:
        pass  # a read-only or full cache only costs the next process the work


def _memo(name: str) -> dict[str, str]:
    memo = _memos.get(name)
    if memo is None:
        memo = _memos[name] = _read(_folder() / f"{name}.jsonl")
    return memo


def _read(path: Path) -> dict[str, str]:
    memo: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError):
        return memo
    if len(lines) > MAX_ENTRIES:  # bounded: start again (best effort)
        path.unlink(missing_ok=True)
        return memo
    for line in lines:
        try:
            key, value = json.loads(line)
        except (ValueError, TypeError):
            continue
        if isinstance(key, str) and isinstance(value, str):
            memo[key] = value
    return memo


def _folder() -> Path:
    override = os.environ.get("ZLENS_CACHE_DIR")  # as the catalog cache and the sample
    if override:
        return Path(override) / "memo"
    import platformdirs

    return Path(platformdirs.user_cache_dir("zlens-jupyter")) / "memo"


__all__ = ["code_key", "input_key", "recall", "remember"]
