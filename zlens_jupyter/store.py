"""The run store: one JSON file per run under `<project>/.zlens/runs/`.

Each file is the run record's own JSON (`AgentRun.to_dict()`), written atomically (temp file
in the same folder + `os.replace`), so a reader never sees half a file and two processes
saving at once lose nothing. While a run is live the engine writes checkpoints; a checkpoint
also names its writer process, so a later listing can tell a run that is still going from one
whose process died (`interrupted`).

Nothing is lost silently: a record that cannot be written (a full disk, a read-only folder)
raises `RunNotStored` with one line saying so, which the engine keeps on the run
(`provenance["store_errors"]`) and the CLI and the notebook print. When the final save of a
finished run fails, its stale checkpoint is removed (so the run can never be listed as
`interrupted`) and a compact record of the outcome is tried in its place.

Records are capped (`cap_record`): at most MAX_ROWS result rows per list and MAX_TEXT
characters per text; what is cut is replaced by a note with its size and sha256, so a 50 MB
cell makes a record of kilobytes, not hundreds of megabytes. Text that is not valid Unicode
(a lone surrogate from a non-UTF-8 byte in argv) is stored escaped (`\udcff`).

The folder is queryable with DuckDB:

    SELECT id, question, status, trust_state
    FROM read_json('.zlens/runs/*.json', union_by_name = true)
"""

from __future__ import annotations

import builtins
import errno
import hashlib
import json
import os
import socket
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engine.enums import RunStatus
from .engine.records import AgentRun, utc_now
from .errors import UserError

RUNS_DIR = Path(".zlens") / "runs"
MAX_ROWS = 200  # result rows kept per list in a stored record
MAX_TEXT = 64 * 1024  # characters kept per text (question, message, model output, argument)


class RunNotStored(UserError):
    """The run finished but its record could not be written (said in one line)."""


@dataclass(frozen=True)
class RunSummary:
    id: str
    question: str
    status: str
    trust_state: str | None
    route: str | None
    started_at: str
    ended_at: str | None
    path: Path


class RunStore:
    """Persists runs for one project folder. Implements the engine's RunSink protocol."""

    def __init__(self, project_dir: str | os.PathLike[str]) -> None:
        self.project_dir = Path(project_dir)
        self.dir = self.project_dir / RUNS_DIR

    # -- writing -------------------------------------------------------------------------

    def checkpoint(self, run: AgentRun) -> None:
        data = run.to_dict()
        data["checkpoint"] = {"pid": os.getpid(), "host": socket.gethostname(), "at": utc_now()}
        try:
            self._write(run.id, data)
        except OSError as exc:
            raise RunNotStored(f"checkpoint of {_not_stored(run.id, self.dir, exc)}") from exc

    def storage_problem(self, run: AgentRun) -> str | None:
        """One line when the finished `run` is not on disk as it ended, else None."""
        problems = [str(p) for p in run.provenance.get("store_errors", [])]
        data = _read(self.dir / f"{run.id}.json")
        if data is not None and data.get("status") == run.status.value:
            if not data.get("not_stored"):
                return None
            trace = [p for p in problems if "without its trace" in p]
            return trace[-1] if trace else f"run {run.id}: {data['not_stored']}"
        final = [p for p in problems if not p.startswith("checkpoint of ")]
        return (final or problems or [f"run {run.id} was not stored in {self.dir}"])[-1]

    def save(self, run: AgentRun) -> None:
        """Write the finished run; if that fails, never leave a checkpoint that would later
        read `interrupted`: drop it, try a compact record, and raise RunNotStored."""
        try:
            self._write(run.id, run.to_dict())
            return
        except OSError as exc:
            failure = exc
        (self.dir / f"{run.id}.json").unlink(missing_ok=True)  # frees space on a full disk
        try:
            self._write(run.id, _compact(run, failure))
        except OSError:
            raise RunNotStored(_not_stored(run.id, self.dir, failure)) from failure
        raise RunNotStored(
            f"run {run.id} was stored without its trace in {self.dir}: {_reason(failure)}"
        ) from failure

    def _write(self, run_id: str, data: dict[str, Any]) -> None:
        # Serialized before any file is touched: a record that cannot be encoded must not
        # leave an empty file behind. Capped, and lone surrogates escaped (never dropped).
        payload = _encode(cap_record(data))
        self.dir.mkdir(parents=True, exist_ok=True)
        # The temp name starts with a dot and does not end in .json, so globs skip it.
        tmp = self.dir / f".{run_id}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.dir / f"{run_id}.json")
        finally:
            tmp.unlink(missing_ok=True)

    # -- reading -------------------------------------------------------------------------

    def list(self, limit: int | None = None) -> builtins.list[RunSummary]:
        """Runs newest first. A live checkpoint whose writer is gone reads `interrupted`."""
        summaries = []
        for path in self._files():
            data = _read(path)
            if data is None:
                continue
            summaries.append(
                RunSummary(
                    id=data["id"],
                    question=data.get("question", ""),
                    status=_effective_status(data),
                    trust_state=data.get("trust_state"),
                    route=data.get("route"),
                    started_at=data.get("started_at", ""),
                    ended_at=data.get("ended_at"),
                    path=path,
                )
            )
        summaries.sort(key=lambda s: s.started_at, reverse=True)
        return summaries[:limit] if limit else summaries

    def load(self, run_id: str) -> AgentRun:
        """Load by id or unique id prefix (`run_3fa` is enough when only one run starts so)."""
        run_id = run_id.strip()
        if not run_id:
            raise UserError("Give a run id (see `zlens runs` for the list).")
        exact = self.dir / f"{run_id}.json"
        matches = (
            [exact] if exact.exists() else [p for p in self._files() if p.stem.startswith(run_id)]
        )
        if not matches:
            raise UserError(f"No run '{run_id}' in {self.dir}; `zlens runs` lists what is there.")
        if len(matches) > 1:
            names = ", ".join(sorted(p.stem for p in matches)[:5])
            raise UserError(f"Run id '{run_id}' is ambiguous ({names}); give more characters.")
        data = _read(matches[0])
        if data is None:
            raise UserError(f"{matches[0]} is not a readable run record.")
        run = AgentRun.from_dict(data)
        run.status = RunStatus(_effective_status(data))
        return run

    def _files(self) -> builtins.list[Path]:
        if not self.dir.is_dir():
            return []
        return [p for p in self.dir.glob("*.json") if not p.name.startswith(".")]


def cap_record(data: Any) -> Any:
    """A copy of a run record with long lists of rows and long texts cut, each cut noted
    with how much went and the sha256 of what went (so a copy elsewhere can be matched)."""
    if isinstance(data, str):
        return _cap_text(data)
    if isinstance(data, dict):
        capped: dict[Any, Any] = {}
        for key, value in data.items():
            if key == "rows" and isinstance(value, list) and len(value) > MAX_ROWS:
                cut = value[MAX_ROWS:]
                capped["rows_cut"] = {
                    "kept": MAX_ROWS,
                    "cut_rows": len(cut),
                    "sha256": _sha256(json.dumps(cut, ensure_ascii=True, default=str)),
                }
                value = value[:MAX_ROWS]
            capped[key] = cap_record(value)
        return capped
    if isinstance(data, list | tuple):
        return [cap_record(item) for item in data]
    return data


def _cap_text(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    cut = text[MAX_TEXT:]
    return f"{text[:MAX_TEXT]}…[cut {len(cut)} characters, sha256 {_sha256(cut)}]"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _encode(data: Any) -> bytes:
    text = json.dumps(data, ensure_ascii=False, default=str)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (a non-UTF-8 byte decoded with surrogateescape): stored as the
        # visible escape `\udcff`, so every JSON reader (DuckDB's too) can read the file.
        return json.dumps(_escape_surrogates(data), ensure_ascii=False, default=str).encode()


def _escape_surrogates(data: Any) -> Any:
    if isinstance(data, str):
        return data.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(data, dict):
        return {_escape_surrogates(k): _escape_surrogates(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_escape_surrogates(item) for item in data]
    return data


def _compact(run: AgentRun, failure: OSError) -> dict[str, Any]:
    """The outcome of a run without its trace: small enough for the last bytes of a disk."""
    full = run.to_dict()
    keep = ("id", "question", "mode", "status", "trust_state", "trust_reason", "stop_reason")
    data = {k: full.get(k) for k in (*keep, "route", "started_at", "ended_at", "summary")}
    data["question"] = _cap_text(str(data.get("question") or ""))[:2000]
    data["not_stored"] = f"trace not stored: {_reason(failure)}"
    return data


def _reason(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "the run folder is read-only"
    return error.strerror or type(error).__name__


def _not_stored(run_id: str, folder: Path, error: OSError) -> str:
    return f"run {run_id} was not stored in {folder}: {_reason(error)}"


def _read(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) and "id" in data else None


def _effective_status(data: dict[str, Any]) -> str:
    status = str(data.get("status", RunStatus.RUNNING.value))
    writer = data.get("checkpoint")
    if status == RunStatus.RUNNING.value and writer and not _writer_alive(writer):
        return RunStatus.INTERRUPTED.value
    return status


def _writer_alive(writer: dict[str, Any]) -> bool:
    if writer.get("host") != socket.gethostname():
        return True  # another machine's run: we cannot tell, so do not call it dead
    try:
        os.kill(int(writer["pid"]), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, KeyError, ValueError, TypeError):
        return True
    return True
